package physics

import (
	"math"

	"github.com/go-gl/mathgl/mgl64"
)

// RigidBody is the component of a body whose shape does not change. Its pose is the pose of its
// centre of mass; its collider's shape is placed in that frame.
//
// Mass properties come from one of two places. If Mass is zero, they are derived from the entity's
// Collider and Density when the body first enters the simulation, and written back into Mass and
// Inertia. If Mass is given and Inertia is zero, the inertia is the collider's, scaled to Mass.
// Static and kinematic bodies need no mass.
//
// A zero Orientation means the identity; any other orientation is normalised.
//
// Build bodies with NewDynamic, NewKinematic or NewStatic, which give Friction DefaultFriction and
// the identity orientation. A struct literal starts from the zero values instead: Kind Dynamic,
// Friction 0 (frictionless) and Restitution 0, the identity orientation, mass properties derived
// from the Collider (which then needs a Density), gravity scale 1 (see GravityScale), awake, and
// no force, torque or impulse pending.
//
// A game pushes a dynamic body with ApplyImpulse, ApplyForce and ApplyTorque and changes how
// strongly gravity pulls it with SetGravityScale (docs/architecture.md, Forces and impulses).
type RigidBody struct {
	Kind BodyKind

	// Mass in kg (dynamic bodies); zero derives it from the Collider and Density.
	Mass float64
	// Density in kg/m³, used only to derive Mass when Mass is zero.
	Density float64
	// Inertia is the inertia tensor about the centre of mass in body axes, kg·m²; zero derives it
	// from the Collider.
	Inertia mgl64.Mat3

	// Position of the centre of mass in the world, m.
	Position mgl64.Vec3
	// Orientation of the body frame in the world (unit quaternion).
	Orientation mgl64.Quat
	// LinearVelocity of the centre of mass in the world frame, m/s.
	LinearVelocity mgl64.Vec3
	// AngularVelocity in the world frame, rad/s.
	AngularVelocity mgl64.Vec3

	// Friction is the Coulomb coefficient μ ≥ 0 used by this body's contacts.
	Friction float64
	// Restitution is the coefficient e in [0, 1] used by this body's contacts.
	Restitution float64

	// Sleeping reports that the body rests in a sleeping island (Config.SleepTime): steps leave
	// it in place with zero velocity and do no collision or solver work for its island until
	// something wakes it — an awake body touching the island, its support going away, or the game
	// changing the body (its pose or velocities, setting Sleeping to false, or pushing it with
	// ApplyImpulse, ApplyForce, ApplyTorque or SetGravityScale). A game may also
	// set Sleeping on a dynamic body to put it to sleep where it is; its velocities are zeroed.
	Sleeping bool

	asleep bool // the simulation's own record of Sleeping, to tell the game's changes apart
	// gameSlept: the game put the body to sleep, so it sleeps even with no contact to rest on
	// (a body the simulation put to sleep wakes and falls when it loses every contact).
	gameSlept bool
	rest      float64   // seconds the body has stayed below the sleep thresholds
	written   bodyState // the state the step last wrote or put to sleep, to notice changes by the game

	// force and torque (about the centre of mass), world frame, are accumulated by ApplyForce and
	// ApplyTorque for the next step, which clears them.
	force, torque mgl64.Vec3
	// heldLinear and heldAngular (about the centre of mass), world frame, are impulses given
	// before the body's mass was known; the next step applies them once it has derived the mass.
	heldLinear, heldAngular mgl64.Vec3
	// gravityScale multiplies Config.Gravity for this body when customGravity is set; otherwise
	// the scale is 1, so that the zero RigidBody falls normally.
	gravityScale  float64
	customGravity bool
	// checkedMass and checkedInertia are the mass properties last found valid (prepareBody), so
	// that a step need not check them again.
	checkedMass    float64
	checkedInertia mgl64.Mat3
}

// bodyState is the part of a RigidBody the step writes.
type bodyState struct {
	position, linear, angular mgl64.Vec3
	orientation               mgl64.Quat
}

// state returns the body's current bodyState.
func (b *RigidBody) state() bodyState {
	return bodyState{position: b.Position, linear: b.LinearVelocity, angular: b.AngularVelocity, orientation: b.Orientation}
}

// DefaultFriction is the friction coefficient NewDynamic, NewKinematic and NewStatic give a body.
const DefaultFriction = 0.8

// NewDynamic returns a dynamic body at position with mass derived from its collider and density:
// identity orientation, at rest, Friction DefaultFriction, Restitution 0, gravity scale 1.
func NewDynamic(position mgl64.Vec3, density float64) RigidBody {
	return RigidBody{
		Kind:        Dynamic,
		Density:     density,
		Position:    position,
		Orientation: mgl64.QuatIdent(),
		Friction:    DefaultFriction,
	}
}

// NewKinematic returns a kinematic body at position: identity orientation, at rest, Friction
// DefaultFriction, Restitution 0. The game moves it by setting its velocities (or its pose); no
// force, contact or gravity moves it, and it needs no mass.
func NewKinematic(position mgl64.Vec3) RigidBody {
	return RigidBody{
		Kind:        Kinematic,
		Position:    position,
		Orientation: mgl64.QuatIdent(),
		Friction:    DefaultFriction,
	}
}

// NewStatic returns a static body at position: identity orientation, Friction DefaultFriction,
// Restitution 0.
func NewStatic(position mgl64.Vec3) RigidBody {
	return RigidBody{
		Kind:        Static,
		Position:    position,
		Orientation: mgl64.QuatIdent(),
		Friction:    DefaultFriction,
	}
}

// RotationMatrix returns the body-to-world rotation of the body's orientation.
func (b *RigidBody) RotationMatrix() mgl64.Mat3 {
	return b.Orientation.Mat4().Mat3()
}

// WorldInertia returns R I Rᵀ, the inertia tensor in world axes.
func (b *RigidBody) WorldInertia() mgl64.Mat3 {
	r := b.RotationMatrix()
	return r.Mul3(b.Inertia).Mul3(r.Transpose())
}

// KineticEnergy returns ½ m v·v + ½ ωᵀ I ω, in J; zero unless the body is dynamic.
func (b *RigidBody) KineticEnergy() float64 {
	if b.Kind != Dynamic {
		return 0
	}
	w := b.AngularVelocity
	return 0.5*b.Mass*b.LinearVelocity.Dot(b.LinearVelocity) + 0.5*w.Dot(b.WorldInertia().Mul3x1(w))
}

// AngularMomentum returns I ω about the centre of mass, in world axes, kg·m²/s.
func (b *RigidBody) AngularMomentum() mgl64.Vec3 {
	return b.WorldInertia().Mul3x1(b.AngularVelocity)
}

// validateState checks the fields every kind of body has. It does not check mass properties.
func (b *RigidBody) validateState() error {
	if !b.Kind.valid() {
		return fieldError("RigidBody.Kind", "must be Dynamic, Kinematic or Static, got %d", uint8(b.Kind))
	}
	if !finiteVec(b.Position) {
		return fieldError("RigidBody.Position", "must be finite, got %v", b.Position)
	}
	q := b.Orientation
	if !finite(q.W) || !finiteVec(q.V) {
		return fieldError("RigidBody.Orientation", "must be finite, got %v", q)
	}
	if !finiteVec(b.LinearVelocity) {
		return fieldError("RigidBody.LinearVelocity", "must be finite, got %v", b.LinearVelocity)
	}
	if !finiteVec(b.AngularVelocity) {
		return fieldError("RigidBody.AngularVelocity", "must be finite, got %v", b.AngularVelocity)
	}
	if !finite(b.Friction) || b.Friction < 0 {
		return fieldError("RigidBody.Friction", "must be finite and >= 0, got %v", b.Friction)
	}
	if !(b.Restitution >= 0 && b.Restitution <= 1) {
		return fieldError("RigidBody.Restitution", "must be in [0, 1], got %v", b.Restitution)
	}
	return nil
}

// validateMass checks a dynamic body's mass and inertia once they are known.
func (b *RigidBody) validateMass() error {
	if !finite(b.Mass) || b.Mass <= 0 {
		return fieldError("RigidBody.Mass", "must be finite and > 0, got %v", b.Mass)
	}
	if !symmetricPositiveDefinite3(b.Inertia) {
		return fieldError("RigidBody.Inertia", "must be symmetric positive definite, got %v", b.Inertia)
	}
	return nil
}

// normalizeOrientation turns a zero quaternion into the identity and normalises any other, however
// large or small its components (normalizeQuat scales them first).
func (b *RigidBody) normalizeOrientation() {
	q := b.Orientation
	n := math.Sqrt(q.W*q.W + q.V.Dot(q.V))
	switch {
	case q == (mgl64.Quat{}):
		b.Orientation = mgl64.QuatIdent()
	case n != 1:
		b.Orientation = normalizeQuat(q)
	}
}

// wakeOrSleepByGame applies what the game did to a dynamic body's sleep state since the last step:
// a sleeping body the game moved, pushed or set awake wakes; a body the game set Sleeping on falls
// asleep where it is. It reports whether the body is asleep for this step.
func (b *RigidBody) wakeOrSleepByGame() bool {
	switch {
	case b.Sleeping && b.asleep:
		if b.state() != b.written {
			b.wake()
		}
	case b.Sleeping:
		b.sleep()
		b.gameSlept = true
	case b.asleep:
		b.wake()
	}
	return b.asleep
}

// wake marks the body awake, its rest time restarting.
func (b *RigidBody) wake() {
	b.Sleeping, b.asleep, b.gameSlept, b.rest = false, false, false, 0
}

// sleep marks the body asleep with zero velocities and records the state to watch.
func (b *RigidBody) sleep() {
	b.Sleeping, b.asleep, b.gameSlept = true, true, false
	b.LinearVelocity, b.AngularVelocity = mgl64.Vec3{}, mgl64.Vec3{}
	b.written = b.state()
}
