package physics

import "github.com/go-gl/mathgl/mgl64"

// BodyModel is one dynamic body's generalized coordinates as the step sees them: a block of DoFs()
// velocity entries, its SPD mass block, the Jacobian of its material points, the unconstrained
// velocity over a step, and the position update. Rigid bodies have six DoFs (v, ω in the world
// frame); reduced deformable bodies have 6 + r. Nothing outside a model assumes the block size.
//
// Slices passed to a model have exactly the lengths stated; models never keep them.
type BodyModel interface {
	// DoFs is the size of the body's velocity block.
	DoFs() int
	// MassBlock writes the DoFs×DoFs mass matrix, row-major, at the start-of-step configuration:
	// the matrix M through which the velocity that moves the body over the step responds to an
	// impulse, q̇ = q̇ᴾ + M⁻¹ p. For a rigid body it is the kinetic mass; for a reduced deformable
	// it is the effective mass of its implicit step (deform.ModalBody.EffectiveMass).
	MassBlock(dst []float64)
	// InverseMassBlock writes the inverse of MassBlock's matrix, row-major and exactly symmetric.
	InverseMassBlock(dst []float64)
	// PointJacobian writes the 3×DoFs matrix J, row-major, such that J q̇ is the world velocity of
	// the material point now at world position p.
	PointJacobian(p mgl64.Vec3, dst []float64)
	// PredictVelocity writes q̇ᴾ, the velocity over a step of length h without contact: gravity g,
	// gyroscopic and internal forces.
	PredictVelocity(h float64, g mgl64.Vec3, dst []float64)
	// Advance moves the configuration over the step with the constrained velocity qdot and sets the
	// end-of-step velocity, given the generalized impulse the constraints applied (impulse =
	// M (qdot − q̇ᴾ)); impulse may be nil for none.
	Advance(h float64, qdot, impulse []float64)
	// Displace moves the configuration, after Advance, by the generalized displacement dq (the
	// separation's position correction, docs/architecture.md, Separation), whose entries are
	// those of a velocity times one second; it leaves the velocity as it is.
	Displace(dq []float64)
	// Velocity writes the current (end-of-step) generalized velocity q̇ᵗ.
	Velocity(dst []float64)
}
