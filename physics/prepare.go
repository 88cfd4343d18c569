package physics

import (
	"github.com/go-gl/mathgl/mgl64"
	"github.com/stagger-physics/stagger/collide"
)

// comTolerance is how far, in m, a shape's own centre of mass may sit from its origin.
const comTolerance = 1e-9

// prepareBody completes a body entering the simulation: normalises its orientation, derives its
// mass properties from the collider where they are zero, and validates the result. collider may be
// nil. It changes only fields that were zero (and the orientation's scale).
func prepareBody(b *RigidBody, collider *Collider) error {
	if err := b.validateState(); err != nil {
		return err
	}
	b.normalizeOrientation()
	if b.Kind != Static && b.state() != b.written {
		// Velocities the game gave the body, not the step's own.
		if err := validateSpeeds(b); err != nil {
			return err
		}
	}
	if collider != nil {
		if err := collider.validate(); err != nil {
			return err
		}
	}
	if b.Kind != Dynamic {
		return nil
	}
	if collider != nil {
		if err := collider.validateDynamic(); err != nil {
			return err
		}
	}
	if err := prepareMass(b, collider); err != nil {
		return err
	}
	if b.Mass == b.checkedMass && b.Inertia == b.checkedInertia {
		return nil
	}
	if err := b.validateMass(); err != nil {
		return err
	}
	if err := validateMassLimits(b.Mass, b.Inertia); err != nil {
		return err
	}
	b.checkedMass, b.checkedInertia = b.Mass, b.Inertia
	return nil
}

// prepareMass derives a dynamic body's Mass and Inertia from its collider where they are zero.
func prepareMass(b *RigidBody, collider *Collider) error {
	needMass := b.Mass == 0
	needInertia := b.Inertia == (mgl64.Mat3{})
	if !needMass && !needInertia {
		return nil
	}
	if collider == nil {
		if needMass {
			return fieldError("RigidBody.Mass", "is zero and the entity has no Collider to derive it from")
		}
		return fieldError("RigidBody.Inertia", "is zero and the entity has no Collider to derive it from")
	}
	density := b.Density
	if !needMass {
		// Only the inertia's shape is wanted; scale it to the given mass below.
		density = 1
	} else if !finite(density) || density <= 0 {
		return fieldError("RigidBody.Density", "must be finite and > 0 to derive the mass from the collider, got %v", density)
	}
	props, err := collider.Shape.MassProperties(density)
	if err != nil {
		return fieldError("Collider.Shape", "has no mass properties for a dynamic body: %v", err)
	}
	if props.CenterOfMass.Len() > comTolerance {
		return fieldError("Collider.Shape", "centre of mass %v is off the shape's origin; a dynamic body's frame must be its centre of mass: %s", props.CenterOfMass, recentreHint(collider.Shape))
	}
	if needMass {
		b.Mass = props.Mass
		if needInertia {
			b.Inertia = props.Inertia
		}
		return nil
	}
	b.Inertia = props.Inertia.Mul(b.Mass / props.Mass)
	return nil
}

// recentreHint says how to centre a shape of this kind on its centre of mass. Of the collide
// shapes with mass, only the convex hull and the compound can be off their origin.
func recentreHint(shape collide.Shape) string {
	if _, ok := shape.(*collide.ConvexHull); ok {
		return "build the hull with collide.NewConvexHullCentered instead of collide.NewConvexHull; it centres the points on their centre of mass and returns the offset, so place the body at Position + Orientation·offset"
	}
	if _, ok := shape.(*collide.Compound); ok {
		return "build the compound with collide.NewCompoundCentered instead of collide.NewCompound; it moves the children so that their centre of mass is at the origin and returns the offset, so place the body at Position + Orientation·offset"
	}
	return "centre the shape on its centre of mass and move the body's Position by the offset"
}
