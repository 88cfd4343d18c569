package ecs

import (
	"errors"
	"fmt"
)

// Queries visit the entities that have all of their component types. Construct one once and
// reuse it: it caches its storages, so Each and Count perform no map access and no allocation.
//
// Iteration is driven by the dense array of the storage that is smallest when Each (or Count)
// is called; ties go to the earliest type parameter. Entities lacking any other queried component
// are skipped. The visiting order is the dense order of the driving storage, which depends only on
// the sequence of world operations: two worlds built by the same operations iterate identically.
//
// While Each runs, the storages of the queried types are locked. The callback may read and write
// the components it is given, call Get, replace existing components with Add, touch other
// component types and resources, and spawn entities. It must not add a queried component to an
// entity that lacks it, remove a queried component, or despawn an entity that has one: such calls
// are refused with ErrIterating and change nothing, and Each then returns an error wrapping
// ErrIterating after finishing the iteration. Queries may be nested.

var errNilQuery = errors.New("ecs: query was not created with a NewQuery function")
var errNilCallback = errors.New("ecs: nil callback passed to Each")

// iterationError reports the number of structural changes refused while a query iterated.
func iterationError(query string, refused uint64) error {
	return fmt.Errorf("%s.Each: %w: %d structural change(s) to queried storages refused during iteration", query, ErrIterating, refused)
}

// Query1 visits every entity that has a component of type A. See the package documentation for
// the iteration order and the rules for changing the world during iteration.
type Query1[A any] struct {
	a *storage[A]
}

// NewQuery1 returns a query over component type A. It returns an error wrapping
// ErrNotRegistered if A is not registered in w.
func NewQuery1[A any](w *World) (*Query1[A], error) {
	a, err := registeredStorage[A](w)
	if err != nil {
		return nil, err
	}
	return &Query1[A]{a: a}, nil
}

// Each calls fn for every entity with an A, passing a pointer to its A. See the package
// documentation for what fn may do; forbidden structural changes make Each return an error
// wrapping ErrIterating.
func (q *Query1[A]) Each(fn func(Entity, *A)) error {
	if q == nil || q.a == nil {
		return errNilQuery
	}
	if fn == nil {
		return errNilCallback
	}
	a := q.a
	before := a.rejected
	a.locks++
	defer a.unlock()
	ents := a.entities
	dense := a.dense[:len(ents)]
	for i, e := range ents {
		fn(e, &dense[i])
	}
	if n := a.rejected - before; n != 0 {
		return iterationError("Query1", n)
	}
	return nil
}

// Count returns the number of entities the query would visit.
func (q *Query1[A]) Count() int {
	if q == nil || q.a == nil {
		return 0
	}
	return len(q.a.dense)
}

// Query2 visits every entity that has components of both types A and B. See the package
// documentation for the iteration order and the rules for changing the world during iteration.
type Query2[A, B any] struct {
	a *storage[A]
	b *storage[B]
}

// NewQuery2 returns a query over component types A and B. It returns an error wrapping
// ErrNotRegistered naming the first of them that is not registered in w.
func NewQuery2[A, B any](w *World) (*Query2[A, B], error) {
	a, err := registeredStorage[A](w)
	if err != nil {
		return nil, err
	}
	b, err := registeredStorage[B](w)
	if err != nil {
		return nil, err
	}
	return &Query2[A, B]{a: a, b: b}, nil
}

func (q *Query2[A, B]) unlock() {
	q.a.locks--
	q.b.locks--
}

// Each calls fn for every entity with both an A and a B, passing pointers to them. See the
// package documentation for what fn may do; forbidden structural changes make Each return an
// error wrapping ErrIterating.
func (q *Query2[A, B]) Each(fn func(Entity, *A, *B)) error {
	if q == nil || q.a == nil || q.b == nil {
		return errNilQuery
	}
	if fn == nil {
		return errNilCallback
	}
	a, b := q.a, q.b
	before := a.rejected + b.rejected
	a.locks++
	b.locks++
	defer q.unlock()
	if len(a.dense) <= len(b.dense) {
		ents := a.entities
		ad := a.dense[:len(ents)]
		bs, bd := b.sparse, b.dense
		for i, e := range ents {
			if uint64(e.index) >= uint64(len(bs)) {
				continue
			}
			j := bs[e.index]
			if j == 0 {
				continue
			}
			fn(e, &ad[i], &bd[j-1])
		}
	} else {
		ents := b.entities
		bd := b.dense[:len(ents)]
		as, ad := a.sparse, a.dense
		for i, e := range ents {
			if uint64(e.index) >= uint64(len(as)) {
				continue
			}
			j := as[e.index]
			if j == 0 {
				continue
			}
			fn(e, &ad[j-1], &bd[i])
		}
	}
	if n := a.rejected + b.rejected - before; n != 0 {
		return iterationError("Query2", n)
	}
	return nil
}

// Count returns the number of entities the query would visit.
func (q *Query2[A, B]) Count() int {
	if q == nil || q.a == nil || q.b == nil {
		return 0
	}
	driver, other := q.a.entities, q.b.sparse
	if len(q.b.dense) < len(q.a.dense) {
		driver, other = q.b.entities, q.a.sparse
	}
	n := 0
	for _, e := range driver {
		if present(other, e.index) {
			n++
		}
	}
	return n
}

// present reports whether a sparse array has an entry for index.
func present(sparse []uint32, index uint32) bool {
	return uint64(index) < uint64(len(sparse)) && sparse[index] != 0
}

// Query3 visits every entity that has components of all three types A, B and C. See the package
// documentation for the iteration order and the rules for changing the world during iteration.
type Query3[A, B, C any] struct {
	a *storage[A]
	b *storage[B]
	c *storage[C]
}

// NewQuery3 returns a query over component types A, B and C. It returns an error wrapping
// ErrNotRegistered naming the first of them that is not registered in w.
func NewQuery3[A, B, C any](w *World) (*Query3[A, B, C], error) {
	a, err := registeredStorage[A](w)
	if err != nil {
		return nil, err
	}
	b, err := registeredStorage[B](w)
	if err != nil {
		return nil, err
	}
	c, err := registeredStorage[C](w)
	if err != nil {
		return nil, err
	}
	return &Query3[A, B, C]{a: a, b: b, c: c}, nil
}

func (q *Query3[A, B, C]) unlock() {
	q.a.locks--
	q.b.locks--
	q.c.locks--
}

// driver returns the entities of the smallest of the query's storages.
func (q *Query3[A, B, C]) driver() []Entity {
	ents := q.a.entities
	if len(q.b.entities) < len(ents) {
		ents = q.b.entities
	}
	if len(q.c.entities) < len(ents) {
		ents = q.c.entities
	}
	return ents
}

// Each calls fn for every entity with an A, a B and a C, passing pointers to them. See the
// package documentation for what fn may do; forbidden structural changes make Each return an
// error wrapping ErrIterating.
func (q *Query3[A, B, C]) Each(fn func(Entity, *A, *B, *C)) error {
	if q == nil || q.a == nil || q.b == nil || q.c == nil {
		return errNilQuery
	}
	if fn == nil {
		return errNilCallback
	}
	a, b, c := q.a, q.b, q.c
	before := a.rejected + b.rejected + c.rejected
	a.locks++
	b.locks++
	c.locks++
	defer q.unlock()
	as, ad := a.sparse, a.dense
	bs, bd := b.sparse, b.dense
	cs, cd := c.sparse, c.dense
	for _, e := range q.driver() {
		idx := uint64(e.index)
		if idx >= uint64(len(as)) || idx >= uint64(len(bs)) || idx >= uint64(len(cs)) {
			continue
		}
		i, j, k := as[idx], bs[idx], cs[idx]
		if i == 0 || j == 0 || k == 0 {
			continue
		}
		fn(e, &ad[i-1], &bd[j-1], &cd[k-1])
	}
	if n := a.rejected + b.rejected + c.rejected - before; n != 0 {
		return iterationError("Query3", n)
	}
	return nil
}

// Count returns the number of entities the query would visit.
func (q *Query3[A, B, C]) Count() int {
	if q == nil || q.a == nil || q.b == nil || q.c == nil {
		return 0
	}
	as, bs, cs := q.a.sparse, q.b.sparse, q.c.sparse
	n := 0
	for _, e := range q.driver() {
		if present(as, e.index) && present(bs, e.index) && present(cs, e.index) {
			n++
		}
	}
	return n
}
