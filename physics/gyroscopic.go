package physics

import (
	"math"

	"github.com/go-gl/mathgl/mgl64"
)

// Rotational step of a rigid body.
//
// Torque-free rotation in body axes is Euler's equation ṁ = m × ω with m = I ω. The step applies the
// implicit midpoint rule to it,
//
//	m⁺ − m = h m̄ × Ī⁻¹m̄,   m̄ = (m + m⁺)/2,
//
// and turns the body by the Cayley map of h ω̄ (ω̄ = I⁻¹ m̄). The midpoint rule keeps every quadratic
// invariant of the flow, so |m| and the kinetic energy ½ mᵀI⁻¹m are conserved exactly, and the
// Cayley rotation Q satisfies Q m⁺ = m, so the world angular momentum R m is conserved too (to
// round-off). ω̄ is the velocity that moves the body, so it is the one contacts constrain.

// midpointIterations bounds the Newton iterations of the midpoint solve.
const midpointIterations = 24

// midpointMomentum solves x = m + (h/2) x × (I⁻¹ x) for the midpoint body momentum x by Newton's
// method, starting from m. It returns the iterate with the smallest residual.
func midpointMomentum(m mgl64.Vec3, invInertia mgl64.Mat3, h float64) mgl64.Vec3 {
	x := m
	scale := m.Len()
	if scale == 0 {
		return x
	}
	best, bestRes := x, math.Inf(1)
	for it := 0; it < midpointIterations; it++ {
		w := invInertia.Mul3x1(x)
		f := x.Sub(m).Sub(x.Cross(w).Mul(h / 2))
		res := f.Len()
		if res < bestRes {
			best, bestRes = x, res
		}
		if res <= 1e-15*scale {
			break
		}
		// dF/dx = I − (h/2)(−[w]× + [x]× I⁻¹)
		jac := mgl64.Ident3().Sub(skew(x).Mul3(invInertia).Sub(skew(w)).Mul(h / 2))
		if math.Abs(jac.Det()) < 1e-300 {
			break
		}
		step := jac.Inv().Mul3x1(f)
		if !finiteVec(step) {
			break
		}
		x = x.Sub(step)
	}
	return best
}

// cayleyRotation returns the unit quaternion of the Cayley map of the rotation vector v: the
// rotation about v by 2·atan(|v|/2), which is (1, v/2) normalised.
// A rotation vector beyond 1e150 rad (an angular velocity of 1e160 rad/s, say) would overflow
// |v|², so it is scaled first; the map then gives the half-turn about v it tends to.
func cayleyRotation(v mgl64.Vec3) mgl64.Quat {
	half := v.Mul(0.5)
	if s := maxAbs3(half); s > 1e150 {
		u := half.Mul(1 / s)
		n := math.Sqrt(1/(s*s) + u.Dot(u))
		return mgl64.Quat{W: 1 / (s * n), V: u.Mul(1 / n)}
	}
	n := math.Sqrt(1 + half.Dot(half))
	return mgl64.Quat{W: 1 / n, V: half.Mul(1 / n)}
}

// normalizeQuat returns q scaled to unit length. A q whose squared norm would overflow or
// underflow is scaled by its largest component first; the zero quaternion stays zero.
func normalizeQuat(q mgl64.Quat) mgl64.Quat {
	n2 := q.W*q.W + q.V.Dot(q.V)
	if n2 > 1e-200 && n2 < 1e200 {
		n := math.Sqrt(n2)
		return mgl64.Quat{W: q.W / n, V: q.V.Mul(1 / n)}
	}
	s := max(math.Abs(q.W), maxAbs3(q.V))
	if !(s > 0) || !finite(s) {
		return q
	}
	q = mgl64.Quat{W: q.W / s, V: q.V.Mul(1 / s)}
	n := math.Sqrt(q.W*q.W + q.V.Dot(q.V))
	return mgl64.Quat{W: q.W / n, V: q.V.Mul(1 / n)}
}

// maxAbs3 returns the largest magnitude of v's components.
func maxAbs3(v mgl64.Vec3) float64 {
	return max(math.Abs(v[0]), math.Abs(v[1]), math.Abs(v[2]))
}
