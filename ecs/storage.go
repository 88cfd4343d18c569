package ecs

import (
	"reflect"
	"slices"
)

// erasedStorage is the type-independent view of a component storage that the World needs to
// despawn entities without knowing their component types.
type erasedStorage interface {
	componentType() reflect.Type
	contains(index uint32) bool
	removeIndex(index uint32) bool
	locked() bool
	reject()
}

// storage is the sparse set holding every component of type T.
//
// dense and entities are parallel: entities[i] owns dense[i]. sparse maps an entity index to its
// dense slot plus one, so the zero value means "absent" and growing sparse needs no fill. Because
// the World removes all of an entity's components when it is despawned, a present sparse entry
// always belongs to the live occupant of that index.
type storage[T any] struct {
	typ      reflect.Type
	dense    []T
	entities []Entity
	sparse   []uint32

	// locks counts the running queries iterating this storage; structural changes are refused
	// while it is non-zero. rejected counts the refused changes so that a query can report them.
	locks    int
	rejected uint64
}

func newStorage[T any]() *storage[T] {
	return &storage[T]{typ: reflect.TypeFor[T]()}
}

func (s *storage[T]) componentType() reflect.Type { return s.typ }

func (s *storage[T]) locked() bool { return s.locks > 0 }

func (s *storage[T]) reject() { s.rejected++ }

func (s *storage[T]) unlock() { s.locks-- }

// slot returns the dense slot of the component of the entity with the given index.
func (s *storage[T]) slot(index uint32) (int, bool) {
	if uint64(index) >= uint64(len(s.sparse)) {
		return 0, false
	}
	p := s.sparse[index]
	return int(p) - 1, p != 0
}

func (s *storage[T]) contains(index uint32) bool {
	_, ok := s.slot(index)
	return ok
}

// get returns a pointer to the component of the entity with the given index.
func (s *storage[T]) get(index uint32) (*T, bool) {
	i, ok := s.slot(index)
	if !ok {
		return nil, false
	}
	return &s.dense[i], true
}

// insert stores v for e, replacing an existing value in place or appending a new one.
func (s *storage[T]) insert(e Entity, v T) {
	if i, ok := s.slot(e.index); ok {
		s.dense[i] = v
		s.entities[i] = e
		return
	}
	if need := int(e.index) + 1; need > len(s.sparse) {
		old := len(s.sparse)
		s.sparse = slices.Grow(s.sparse, need-old)[:need]
		clear(s.sparse[old:])
	}
	s.dense = append(s.dense, v)
	s.entities = append(s.entities, e)
	s.sparse[e.index] = uint32(len(s.dense))
}

// removeIndex removes the component of the entity with the given index by moving the last
// element into its slot. It reports whether there was a component to remove.
func (s *storage[T]) removeIndex(index uint32) bool {
	i, ok := s.slot(index)
	if !ok {
		return false
	}
	last := len(s.dense) - 1
	if i != last {
		moved := s.entities[last]
		s.dense[i] = s.dense[last]
		s.entities[i] = moved
		s.sparse[moved.index] = uint32(i + 1)
	}
	var zero T
	s.dense[last] = zero // drop references held by the removed value
	s.dense = s.dense[:last]
	s.entities = s.entities[:last]
	s.sparse[index] = 0
	return true
}
