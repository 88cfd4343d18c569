package ecs

import (
	"errors"
	"fmt"
	"reflect"
)

// ErrDeadEntity is returned, wrapped with the entity's name, when an operation needs a live
// entity and the given one was never spawned, has been despawned, or belongs to a reused slot.
var ErrDeadEntity = errors.New("ecs: entity is not alive")

// ErrNotRegistered is returned, wrapped with the Go type's name, when a component type is used
// before it was registered with Register.
var ErrNotRegistered = errors.New("ecs: component type is not registered")

// ErrIterating is returned, wrapped with details, when a structural change is attempted on a
// component storage that a running query is iterating, and by Each of that query afterwards.
var ErrIterating = errors.New("ecs: component storage is locked by a running query")

// errNilWorld is returned by mutating calls given a nil *World.
var errNilWorld = errors.New("ecs: nil *World")

func deadEntityError(e Entity) error {
	return fmt.Errorf("%w: %v", ErrDeadEntity, e)
}

func notRegisteredError(t reflect.Type) error {
	return fmt.Errorf("%w: %v", ErrNotRegistered, t)
}
