package physics

import (
	"fmt"

	"github.com/stagger-physics/stagger/ecs"
)

// FieldError reports bad input: which entity, which component field, and what is wrong with it.
// Use errors.As to inspect it.
type FieldError struct {
	Entity ecs.Entity // the entity, or the zero Entity when the value is not attached yet
	Field  string     // component and field, e.g. "RigidBody.Mass"
	Reason string     // what the value must be, with the value found
}

// Error implements error.
func (e *FieldError) Error() string {
	if e.Entity.IsZero() {
		return fmt.Sprintf("physics: %s: %s", e.Field, e.Reason)
	}
	return fmt.Sprintf("physics: %v: %s: %s", e.Entity, e.Field, e.Reason)
}

// fieldError builds a FieldError without an entity; the caller attaches one with withEntity.
func fieldError(field, format string, args ...any) *FieldError {
	return &FieldError{Field: field, Reason: fmt.Sprintf(format, args...)}
}

// withEntity names the entity on a FieldError, and wraps any other error with the entity.
func withEntity(e ecs.Entity, err error) error {
	if err == nil {
		return nil
	}
	if fe, ok := err.(*FieldError); ok {
		fe.Entity = e
		return fe
	}
	return fmt.Errorf("physics: %v: %w", e, err)
}
