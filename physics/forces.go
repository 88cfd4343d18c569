package physics

import (
	"math"

	"github.com/go-gl/mathgl/mgl64"
)

// Forces, torques, impulses and the gravity scale a game gives a dynamic body
// (docs/architecture.md, Forces and impulses).
//
// Common rules. Every argument must be finite: a non-finite one is refused with a *FieldError
// naming the method and argument (without an entity: the body does not know it), and nothing
// changes; so is a finite one whose effect would overflow. On a static or kinematic body the calls
// do nothing (and return nil): nothing pushes those. A zero force, torque or impulse changes
// nothing and leaves a sleeping body asleep, so that a game may apply its input every frame
// without keeping bodies awake; any other one wakes the body (it sets Sleeping to false, which the
// next step honours as it honours any change by the game).

// MaxGravityScale is the largest magnitude SetGravityScale accepts.
const MaxGravityScale = 1000

// ApplyImpulse applies the impulse J (N·s, world frame) at worldPoint p at once: the linear
// velocity changes by J/m and the angular velocity by I_world⁻¹ (r × J), r = p − Position. An
// impulse through the centre of mass does not change the spin.
//
// A body whose mass properties are not known yet (a dynamic body attached without Spawn or
// AddBody, whose Mass or Inertia is still zero) keeps the impulse and its moment about Position,
// and the next step applies them once it has derived the mass, before anything moves.
func (b *RigidBody) ApplyImpulse(impulse, worldPoint mgl64.Vec3) error {
	const field = "RigidBody.ApplyImpulse(impulse)"
	if !finiteVec(impulse) {
		return fieldError(field, "must be finite, got %v", impulse)
	}
	if !finiteVec(worldPoint) {
		return fieldError("RigidBody.ApplyImpulse(worldPoint)", "must be finite, got %v", worldPoint)
	}
	if b.Kind != Dynamic || impulse == (mgl64.Vec3{}) {
		return nil
	}
	arm, err := b.leverArm(worldPoint)
	if err != nil {
		return err
	}
	return b.addImpulse(field, impulse, arm.Cross(impulse))
}

// ApplyCentralImpulse applies the impulse J (N·s, world frame) at the centre of mass: the linear
// velocity changes by J/m at once and the spin does not change. See ApplyImpulse.
func (b *RigidBody) ApplyCentralImpulse(impulse mgl64.Vec3) error {
	const field = "RigidBody.ApplyCentralImpulse(impulse)"
	if !finiteVec(impulse) {
		return fieldError(field, "must be finite, got %v", impulse)
	}
	if b.Kind != Dynamic || impulse == (mgl64.Vec3{}) {
		return nil
	}
	return b.addImpulse(field, impulse, mgl64.Vec3{})
}

// ApplyForce adds the force F (N, world frame) acting at worldPoint p to the forces the next step
// applies, and its torque (p − Position) × F about the centre of mass. Forces accumulate until
// that step, which applies their sum for its whole length h, adding h F/m to the linear velocity
// and h τ to the angular momentum in its predictor (the external force of paper eq. 12), and then
// clears them: a force that should last applies again before every step. A sum whose velocity
// change over the step, h F/m or h I_world⁻¹ τ, would not be finite is refused by that step: it
// returns a *FieldError naming the entity and RigidBody.AppliedForce, drops the force and moves
// nothing; the next step runs without it.
func (b *RigidBody) ApplyForce(force, worldPoint mgl64.Vec3) error {
	const field = "RigidBody.ApplyForce(force)"
	if !finiteVec(force) {
		return fieldError(field, "must be finite, got %v", force)
	}
	if !finiteVec(worldPoint) {
		return fieldError("RigidBody.ApplyForce(worldPoint)", "must be finite, got %v", worldPoint)
	}
	if b.Kind != Dynamic || force == (mgl64.Vec3{}) {
		return nil
	}
	arm, err := b.leverArm(worldPoint)
	if err != nil {
		return err
	}
	return b.addForce(field, force, arm.Cross(force))
}

// ApplyCentralForce adds the force F (N, world frame) acting at the centre of mass to the forces
// the next step applies; it exerts no torque. See ApplyForce.
func (b *RigidBody) ApplyCentralForce(force mgl64.Vec3) error {
	const field = "RigidBody.ApplyCentralForce(force)"
	if !finiteVec(force) {
		return fieldError(field, "must be finite, got %v", force)
	}
	if b.Kind != Dynamic || force == (mgl64.Vec3{}) {
		return nil
	}
	return b.addForce(field, force, mgl64.Vec3{})
}

// ApplyTorque adds the torque τ (N·m, world frame, about the centre of mass) to the torques the
// next step applies, which adds h τ to the body's angular momentum and then clears it. See
// ApplyForce.
func (b *RigidBody) ApplyTorque(torque mgl64.Vec3) error {
	const field = "RigidBody.ApplyTorque(torque)"
	if !finiteVec(torque) {
		return fieldError(field, "must be finite, got %v", torque)
	}
	if b.Kind != Dynamic || torque == (mgl64.Vec3{}) {
		return nil
	}
	return b.addForce(field, mgl64.Vec3{}, torque)
}

// AppliedForce returns the force (N) and the torque about the centre of mass (N·m), world frame,
// accumulated for the next step.
func (b *RigidBody) AppliedForce() (force, torque mgl64.Vec3) { return b.force, b.torque }

// GravityScale returns the factor by which Config.Gravity pulls this body: 1 unless the game set
// another with SetGravityScale, also for a RigidBody struct literal. Only dynamic bodies feel it.
func (b *RigidBody) GravityScale() float64 {
	if !b.customGravity {
		return 1
	}
	return b.gravityScale
}

// SetGravityScale sets the factor by which Config.Gravity pulls this body, from the next step on
// and until it is set again: 0 floats, 2 falls twice as fast, a negative scale rises. scale must
// be finite with magnitude at most MaxGravityScale; otherwise it is refused with a *FieldError and
// nothing changes. A new scale wakes a sleeping dynamic body.
func (b *RigidBody) SetGravityScale(scale float64) error {
	if !finite(scale) || math.Abs(scale) > MaxGravityScale {
		return fieldError("RigidBody.SetGravityScale(scale)", "must be finite with magnitude at most %v, got %v", float64(MaxGravityScale), scale)
	}
	if scale == b.GravityScale() {
		return nil
	}
	b.gravityScale, b.customGravity = scale, true
	if b.Kind == Dynamic {
		b.Sleeping = false
	}
	return nil
}

// leverArm returns p − Position, refusing a non-finite Position.
func (b *RigidBody) leverArm(p mgl64.Vec3) (mgl64.Vec3, error) {
	if !finiteVec(b.Position) {
		return mgl64.Vec3{}, fieldError("RigidBody.Position", "must be finite to apply a force or impulse at a point, got %v", b.Position)
	}
	return p.Sub(b.Position), nil
}

// addForce adds force and torque to the accumulators and wakes the body, or refuses a sum that
// would not be finite.
func (b *RigidBody) addForce(field string, force, torque mgl64.Vec3) error {
	f, t := b.force.Add(force), b.torque.Add(torque)
	if !finiteVec(f) || !finiteVec(t) {
		return fieldError(field, "would make the accumulated force %v and torque %v non-finite, got %v", b.force, b.torque, force)
	}
	b.force, b.torque = f, t
	b.Sleeping = false
	return nil
}

// addImpulse applies the linear impulse p and the angular impulse l (about the centre of mass) to
// the velocities, or holds them for the next step if the mass is not known yet, and wakes the
// body. A change that would not be finite is refused.
func (b *RigidBody) addImpulse(field string, p, l mgl64.Vec3) error {
	if !b.massKnown() {
		hp, hl := b.heldLinear.Add(p), b.heldAngular.Add(l)
		if !finiteVec(hp) || !finiteVec(hl) {
			return fieldError(field, "would make the impulse held for the next step non-finite, got %v", p)
		}
		b.heldLinear, b.heldAngular = hp, hl
		b.Sleeping = false
		return nil
	}
	v, w, ok := b.velocitiesAfter(p, l)
	if !ok {
		return fieldError(field, "gives a non-finite velocity (mass %v kg), got %v", b.Mass, p)
	}
	b.LinearVelocity, b.AngularVelocity = v, w
	b.Sleeping = false
	return nil
}

// applyHeldImpulse applies the impulses held while the body's mass was unknown. The step calls it
// once it has prepared the body; the held impulses are cleared either way.
func (b *RigidBody) applyHeldImpulse() error {
	p, l := b.heldLinear, b.heldAngular
	b.heldLinear, b.heldAngular = mgl64.Vec3{}, mgl64.Vec3{}
	v, w, ok := b.velocitiesAfter(p, l)
	if !ok {
		return fieldError("RigidBody.ApplyImpulse(impulse)", "gives a non-finite velocity (mass %v kg), got %v; dropped", b.Mass, p)
	}
	b.LinearVelocity, b.AngularVelocity = v, w
	return nil
}

// checkApplied refuses, for a step of length h, a force and torque whose velocity change would not
// be finite, and drops them: v + h F/m and ω + h I_world⁻¹ τ must be finite. The step calls it
// once it has prepared the body; a refused force is reported once, and the next step runs
// without it.
func (b *RigidBody) checkApplied(h float64) error {
	f, t := b.force, b.torque
	v, w, ok := b.velocitiesAfter(f.Mul(h), t.Mul(h))
	if ok {
		return nil
	}
	b.force, b.torque = mgl64.Vec3{}, mgl64.Vec3{}
	return fieldError("RigidBody.AppliedForce", "force %v N and torque %v N·m over h = %v s give a non-finite velocity %v, %v (mass %v kg); dropped", f, t, h, v, w, b.Mass)
}

// velocitiesAfter returns the velocities after the linear impulse p and the angular impulse l:
// v + p/m and ω + R I⁻¹ Rᵀ l, and whether both are finite. The mass must be known.
func (b *RigidBody) velocitiesAfter(p, l mgl64.Vec3) (v, w mgl64.Vec3, ok bool) {
	v, w = b.LinearVelocity.Add(p.Mul(1/b.Mass)), b.AngularVelocity
	if l != (mgl64.Vec3{}) {
		q := b.Orientation
		if n := math.Sqrt(q.W*q.W + q.V.Dot(q.V)); n > 0 && finite(n) {
			q = mgl64.Quat{W: q.W / n, V: q.V.Mul(1 / n)}
		} else {
			q = mgl64.QuatIdent()
		}
		r := q.Mat4().Mat3()
		w = w.Add(r.Mul3x1(b.Inertia.Inv().Mul3x1(r.Transpose().Mul3x1(l))))
	}
	return v, w, finiteVec(v) && finiteVec(w)
}

// massKnown reports whether the body's mass and inertia are valid, so that an impulse can act at
// once.
func (b *RigidBody) massKnown() bool {
	return finite(b.Mass) && b.Mass > 0 && symmetricPositiveDefinite3(b.Inertia)
}

// clearApplied drops the forces, torques and held impulses (the step does so after using them,
// and for bodies that nothing pushes).
func (b *RigidBody) clearApplied() {
	b.force, b.torque = mgl64.Vec3{}, mgl64.Vec3{}
	b.heldLinear, b.heldAngular = mgl64.Vec3{}, mgl64.Vec3{}
}
