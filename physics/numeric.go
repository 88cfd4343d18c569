package physics

import (
	"math"

	"github.com/go-gl/mathgl/mgl64"
)

// finite reports whether x is neither NaN nor ±Inf (for those, x − x is NaN).
func finite(x float64) bool { return x-x == 0 }

// finiteVec reports whether every component of v is finite.
func finiteVec(v mgl64.Vec3) bool { return finite(v[0]) && finite(v[1]) && finite(v[2]) }

// finiteQuat reports whether every component of q is finite.
func finiteQuat(q mgl64.Quat) bool { return finite(q.W) && finiteVec(q.V) }

// symmetricPositiveDefinite3 reports whether m is finite, symmetric to a relative 1e-9 and
// positive definite (Sylvester's criterion on the leading minors).
func symmetricPositiveDefinite3(m mgl64.Mat3) bool {
	scale := 0.0
	for _, x := range m {
		if !finite(x) {
			return false
		}
		scale = max(scale, math.Abs(x))
	}
	tol := 1e-9 * scale
	if math.Abs(m.At(0, 1)-m.At(1, 0)) > tol || math.Abs(m.At(0, 2)-m.At(2, 0)) > tol ||
		math.Abs(m.At(1, 2)-m.At(2, 1)) > tol {
		return false
	}
	m1 := m.At(0, 0)
	m2 := m.At(0, 0)*m.At(1, 1) - m.At(0, 1)*m.At(1, 0)
	return m1 > 0 && m2 > 0 && m.Det() > 0
}

// skew returns the cross-product matrix [v]×, so that skew(v)·u = v × u.
func skew(v mgl64.Vec3) mgl64.Mat3 {
	return mgl64.Mat3{0, v[2], -v[1], -v[2], 0, v[0], v[1], -v[0], 0}
}

// inverse3 returns the inverse of the invertible 3×3 matrix m. mgl64's Mat3.Inv returns zero
// whenever the determinant is within 1e-10 of zero, which makes the inertia of any body smaller
// than about 3 cm infinite; here such a matrix is scaled to unit size first and inverted by its
// cofactors with no tolerance. Other matrices get Mat3.Inv's answer, bit for bit.
func inverse3(m mgl64.Mat3) mgl64.Mat3 {
	if det := m.Det(); !mgl64.FloatEqual(det, 0) {
		return m.Inv()
	}
	scale := 0.0
	for _, x := range m {
		scale = max(scale, math.Abs(x))
	}
	if !(scale > 0) || !finite(scale) {
		return mgl64.Mat3{}
	}
	a := m.Mul(1 / scale)
	inv := mgl64.Mat3{
		a[4]*a[8] - a[5]*a[7],
		a[2]*a[7] - a[1]*a[8],
		a[1]*a[5] - a[2]*a[4],
		a[5]*a[6] - a[3]*a[8],
		a[0]*a[8] - a[2]*a[6],
		a[2]*a[3] - a[0]*a[5],
		a[3]*a[7] - a[4]*a[6],
		a[1]*a[6] - a[0]*a[7],
		a[0]*a[4] - a[1]*a[3],
	}
	return inv.Mul(1 / (a.Det() * scale))
}
