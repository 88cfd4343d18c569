package physics

import (
	"math"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/stagger-physics/stagger/collide"
)

// Limits on dynamic bodies (docs/architecture.md, Errors). The contact solver works on each
// body's inverse mass block diag(I₃/m, R I⁻¹ Rᵀ) and refuses one whose entries span more than
// about thirteen orders of magnitude; a body outside these limits would fail every solve of its
// island, so it is refused where it enters, with a *FieldError naming the entity and the limit.
// Static and kinematic bodies have no mass block and may be of any size.
const (
	// MinMass and MaxMass bound a dynamic body's mass, kg: from a milligram to a billion tonnes,
	// so that momenta and energies at any speed a body can reach stay far from overflow.
	MinMass = 1e-6
	MaxMass = 1e15
	// MinGyration and MaxGyration bound a dynamic body's radius of gyration about each principal
	// axis, √(Iᵢ/m), m: 0.1 mm (a sphere of 0.16 mm radius) to 10 km. Its square is the ratio
	// of the mass block's linear and angular entries.
	MinGyration = 1e-4
	MaxGyration = 1e4
	// MaxInertiaRatio bounds the ratio of a dynamic body's largest principal moment of inertia
	// to its smallest (a capsule 1 m long and 2 mm thick has about 2e5).
	MaxInertiaRatio = 1e6
	// MinBodySize and MaxBodySize bound the largest half-extent of a dynamic body's collider,
	// m: from a millimetre to 10 km, the range the margins and tolerances of the collision
	// pipeline are made for.
	MinBodySize = 1e-3
	MaxBodySize = 1e4
	// MaxSpeed, m/s, and MaxAngularSpeed, rad/s, bound the velocities a game gives a dynamic or
	// kinematic body (at Spawn or by writing them later). The step itself may exceed them (a body
	// falling for days); they keep the distances a step looks ahead finite.
	MaxSpeed        = 1e5
	MaxAngularSpeed = 1e5
	// MaxMassRatio bounds the ratio of the masses of two dynamic bodies in contact. Beyond it the
	// contact projection of a stack cannot be made exact in floating point (a 1 kg box under
	// 1e8 kg fell through it), so the island of such a contact is held for the step and reported
	// (SolveFailedEvent) instead of solved; stacks up to this ratio, in any order, hold.
	MaxMassRatio = 1e6
)

// safeLen returns |v| without overflowing for components beyond 1e154.
func safeLen(v mgl64.Vec3) float64 { return math.Hypot(math.Hypot(v[0], v[1]), v[2]) }

// validateSpeeds checks a moving body's velocities against MaxSpeed and MaxAngularSpeed.
func validateSpeeds(b *RigidBody) error {
	if v := safeLen(b.LinearVelocity); !(v <= MaxSpeed) {
		return fieldError("RigidBody.LinearVelocity", "speed must be at most physics.MaxSpeed = %g m/s, got %g", float64(MaxSpeed), v)
	}
	if w := safeLen(b.AngularVelocity); !(w <= MaxAngularSpeed) {
		return fieldError("RigidBody.AngularVelocity", "must be at most physics.MaxAngularSpeed = %g rad/s, got %g", float64(MaxAngularSpeed), w)
	}
	return nil
}

// validateDynamicShape checks that shape can be a dynamic body's: bounded, and of a size within
// MinBodySize and MaxBodySize.
func validateDynamicShape(shape collide.Shape) error {
	if _, ok := shape.(*collide.HalfSpace); ok {
		return fieldError("Collider.Shape", "a HalfSpace is unbounded and cannot be dynamic; make the body Static or Kinematic")
	}
	box := shape.Bounds(collide.Pose{Rotation: mgl64.QuatIdent()})
	size := 0.0
	for i := 0; i < 3; i++ {
		size = max(size, math.Abs(box.Min[i]), math.Abs(box.Max[i]))
	}
	if !(size >= MinBodySize && size <= MaxBodySize) {
		return fieldError("Collider.Shape", "a dynamic body's largest half-extent must be in [%g, %g] m (physics.MinBodySize, MaxBodySize), got %g", MinBodySize, MaxBodySize, size)
	}
	return nil
}

// validateMassLimits checks a dynamic body's mass and its inertia's principal moments against
// MinMass, MaxMass, MinGyration, MaxGyration and MaxInertiaRatio. The inertia is already known to
// be symmetric positive definite.
func validateMassLimits(m float64, inertia mgl64.Mat3) error {
	if !(m >= MinMass && m <= MaxMass) {
		return fieldError("RigidBody.Mass", "must be in [%g, %g] kg (physics.MinMass, MaxMass), got %g", MinMass, MaxMass, m)
	}
	lo, hi := symmetricEigenRange(inertia)
	if !(lo > 0) || hi/lo > MaxInertiaRatio {
		return fieldError("RigidBody.Inertia", "principal moments %g to %g kg·m² differ by more than physics.MaxInertiaRatio = %g", lo, hi, MaxInertiaRatio)
	}
	if g := math.Sqrt(lo / m); !(g >= MinGyration) {
		return fieldError("RigidBody.Inertia", "smallest radius of gyration √(I/m) = %g m is below physics.MinGyration = %g m", g, MinGyration)
	}
	if g := math.Sqrt(hi / m); !(g <= MaxGyration) {
		return fieldError("RigidBody.Inertia", "largest radius of gyration √(I/m) = %g m is above physics.MaxGyration = %g m", g, MaxGyration)
	}
	return nil
}

// symmetricEigenRange returns the smallest and largest eigenvalues of the symmetric 3×3 matrix a,
// by the closed form for the roots of its characteristic polynomial (Smith 1961), on a scaled
// copy so that no product overflows.
func symmetricEigenRange(a mgl64.Mat3) (lo, hi float64) {
	scale := 0.0
	for _, x := range a {
		scale = max(scale, math.Abs(x))
	}
	if !(scale > 0) || !finite(scale) {
		return 0, 0
	}
	a = a.Mul(1 / scale)
	p1 := a.At(0, 1)*a.At(0, 1) + a.At(0, 2)*a.At(0, 2) + a.At(1, 2)*a.At(1, 2)
	if p1 == 0 {
		d0, d1, d2 := a.At(0, 0), a.At(1, 1), a.At(2, 2)
		return min(d0, d1, d2) * scale, max(d0, d1, d2) * scale
	}
	q := (a.At(0, 0) + a.At(1, 1) + a.At(2, 2)) / 3
	d0, d1, d2 := a.At(0, 0)-q, a.At(1, 1)-q, a.At(2, 2)-q
	p := math.Sqrt((d0*d0 + d1*d1 + d2*d2 + 2*p1) / 6)
	b := a.Sub(mgl64.Ident3().Mul(q)).Mul(1 / p)
	r := max(-1, min(1, b.Det()/2))
	phi := math.Acos(r) / 3
	e1 := q + 2*p*math.Cos(phi)
	e3 := q + 2*p*math.Cos(phi+2*math.Pi/3)
	return e3 * scale, e1 * scale
}
