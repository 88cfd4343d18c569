package ecs

import (
	"fmt"
	"reflect"
)

// World holds entities, their components and resources. The zero World is empty and ready to use;
// NewWorld returns a pointer to one. A World is not safe for concurrent use.
type World struct {
	entities  entityAllocator
	storages  map[reflect.Type]erasedStorage
	order     []erasedStorage // registration order, for deterministic despawn
	resources map[reflect.Type]any
}

// NewWorld returns an empty World.
func NewWorld() *World { return &World{} }

// Spawn creates a live entity with no components. It reuses the most recently freed slot, if any,
// with a bumped generation, so ids of despawned entities stay dead. It returns the zero Entity,
// which is never alive, only if all 2^32 slot indices are in use (or w is nil).
func (w *World) Spawn() Entity {
	if w == nil {
		return Entity{}
	}
	return w.entities.spawn()
}

// Despawn removes all of e's components and frees its slot. It returns an error wrapping
// ErrDeadEntity if e is not alive, and one wrapping ErrIterating, without changing anything, if
// e has a component of a type that a running query is iterating.
func (w *World) Despawn(e Entity) error {
	if !w.Alive(e) {
		return deadEntityError(e)
	}
	for _, s := range w.order {
		if s.locked() && s.contains(e.index) {
			s.reject()
			return fmt.Errorf("%w: cannot despawn %v, which has a %v component", ErrIterating, e, s.componentType())
		}
	}
	for _, s := range w.order {
		s.removeIndex(e.index)
	}
	w.entities.release(e)
	return nil
}

// Alive reports whether e was spawned by w and has not been despawned.
func (w *World) Alive(e Entity) bool {
	return w != nil && w.entities.alive(e)
}

// Len returns the number of live entities.
func (w *World) Len() int {
	if w == nil {
		return 0
	}
	return w.entities.live
}

// Entities calls fn for every live entity in ascending index order. fn may spawn and despawn
// entities: an entity despawned before it is reached is not visited, and an entity spawned during
// the call is visited only if its slot index is higher than the current one and within the slots
// that existed when the call began.
func (w *World) Entities(fn func(Entity)) {
	if w == nil || fn == nil {
		return
	}
	n := len(w.entities.slots)
	for i := 0; i < n; i++ {
		s := w.entities.slots[i]
		if s.alive {
			fn(Entity{index: uint32(i), generation: s.generation})
		}
	}
}
