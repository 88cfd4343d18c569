package ecs

import (
	"fmt"
	"reflect"
)

// storageOf returns the storage of component type T, or nil if T is not registered.
func storageOf[T any](w *World) *storage[T] {
	if w == nil {
		return nil
	}
	s, ok := w.storages[reflect.TypeFor[T]()]
	if !ok {
		return nil
	}
	return s.(*storage[T])
}

// registeredStorage returns the storage of T or an error wrapping ErrNotRegistered.
func registeredStorage[T any](w *World) (*storage[T], error) {
	if w == nil {
		return nil, errNilWorld
	}
	s := storageOf[T](w)
	if s == nil {
		return nil, notRegisteredError(reflect.TypeFor[T]())
	}
	return s, nil
}

// Register makes T usable as a component type in w. Registering a type again is a no-op and
// returns nil. Any Go type may be a component, including zero-size marker types.
func Register[T any](w *World) error {
	if w == nil {
		return errNilWorld
	}
	t := reflect.TypeFor[T]()
	if _, ok := w.storages[t]; ok {
		return nil
	}
	if w.storages == nil {
		w.storages = make(map[reflect.Type]erasedStorage)
	}
	s := newStorage[T]()
	w.storages[t] = s
	w.order = append(w.order, s)
	return nil
}

// Add gives e the component v, replacing e's existing T if it has one. It returns an error
// wrapping ErrNotRegistered if T is not registered, ErrDeadEntity if e is not alive, or
// ErrIterating if e has no T yet and a running query is iterating T's storage. Replacing an
// existing value is allowed during iteration.
func Add[T any](w *World, e Entity, v T) error {
	s, err := registeredStorage[T](w)
	if err != nil {
		return err
	}
	if !w.entities.alive(e) {
		return deadEntityError(e)
	}
	if s.locks > 0 && !s.contains(e.index) {
		s.reject()
		return fmt.Errorf("%w: cannot add %v to %v", ErrIterating, s.typ, e)
	}
	s.insert(e, v)
	return nil
}

// Get returns a pointer to e's component of type T, and false if e is not alive, T is not
// registered, or e has no T. The pointer points into T's dense storage: writes through it update
// the component, and it stays valid until the next Add, Remove or Despawn that touches T's
// storage.
func Get[T any](w *World, e Entity) (*T, bool) {
	s := storageOf[T](w)
	if s == nil || !w.entities.alive(e) {
		return nil, false
	}
	return s.get(e.index)
}

// Has reports whether e is alive and has a component of type T.
func Has[T any](w *World, e Entity) bool {
	s := storageOf[T](w)
	return s != nil && w.entities.alive(e) && s.contains(e.index)
}

// Remove removes e's component of type T. Removing a component that a live entity does not have
// returns nil. It returns an error wrapping ErrNotRegistered if T is not registered,
// ErrDeadEntity if e is not alive, or ErrIterating if a running query is iterating T's storage.
func Remove[T any](w *World, e Entity) error {
	s, err := registeredStorage[T](w)
	if err != nil {
		return err
	}
	if !w.entities.alive(e) {
		return deadEntityError(e)
	}
	if !s.contains(e.index) {
		return nil
	}
	if s.locks > 0 {
		s.reject()
		return fmt.Errorf("%w: cannot remove %v from %v", ErrIterating, s.typ, e)
	}
	s.removeIndex(e.index)
	return nil
}

// Count returns the number of entities that have a component of type T (0 if T is not
// registered).
func Count[T any](w *World) int {
	s := storageOf[T](w)
	if s == nil {
		return 0
	}
	return len(s.dense)
}

// Registered reports whether T has been registered as a component type in w.
func Registered[T any](w *World) bool {
	return storageOf[T](w) != nil
}
