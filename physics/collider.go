package physics

import (
	"reflect"

	"github.com/stagger-physics/stagger/collide"
)

// Collider is the component that gives a body its collision shape. The shape is placed in the
// body's frame: its local origin is the body's centre of mass. Shapes whose own centre of mass is
// off their origin are refused for dynamic bodies (see prepareMass).
//
// A shape is treated as immutable once attached: it is validated when it first enters the
// simulation, and again only if Shape is replaced. Shapes may be shared between colliders.
type Collider struct {
	Shape collide.Shape

	validated collide.Shape // the shape last validated, so a step need not recheck it
	// dynamicOK is the shape last found fit for a dynamic body (validateDynamicShape).
	dynamicOK collide.Shape
}

// validateDynamic checks that the collider's shape can be a dynamic body's, once per shape.
func (c *Collider) validateDynamic() error {
	comparable := reflect.TypeOf(c.Shape).Comparable()
	if comparable && c.Shape == c.dynamicOK {
		return nil
	}
	if err := validateDynamicShape(c.Shape); err != nil {
		return err
	}
	if comparable {
		c.dynamicOK = c.Shape
	}
	return nil
}

// validator is implemented by shapes that can re-check themselves (every collide shape does).
type validator interface{ Validate() error }

// validate checks that the collider has a valid shape, once per shape.
func (c *Collider) validate() error {
	if c.Shape == nil {
		return fieldError("Collider.Shape", "must not be nil")
	}
	comparable := reflect.TypeOf(c.Shape).Comparable()
	if comparable && c.Shape == c.validated {
		return nil
	}
	if v, ok := c.Shape.(validator); ok {
		if err := v.Validate(); err != nil {
			return fieldError("Collider.Shape", "%v", err)
		}
	}
	if comparable {
		c.validated = c.Shape
	}
	return nil
}
