package collide

import (
	"math"

	"github.com/go-gl/mathgl/mgl64"
)

// unitOr returns d scaled to unit length, or fallback when d is zero or not finite. It rescales
// by the largest component first so tiny and huge vectors normalise without underflow or
// overflow; infinite components count as ±1 and the others as 0.
func unitOr(d, fallback mgl64.Vec3) mgl64.Vec3 {
	u, ok := unit(d)
	if !ok {
		return fallback
	}
	return u
}

// unit returns d scaled to unit length and true, or the zero vector and false when d is zero or
// has a NaN component.
func unit(d mgl64.Vec3) (mgl64.Vec3, bool) {
	if math.IsNaN(d[0]) || math.IsNaN(d[1]) || math.IsNaN(d[2]) {
		return mgl64.Vec3{}, false
	}
	if math.IsInf(d[0], 0) || math.IsInf(d[1], 0) || math.IsInf(d[2], 0) {
		for i := 0; i < 3; i++ {
			switch {
			case math.IsInf(d[i], 1):
				d[i] = 1
			case math.IsInf(d[i], -1):
				d[i] = -1
			default:
				d[i] = 0
			}
		}
	}
	m := max(math.Abs(d[0]), max(math.Abs(d[1]), math.Abs(d[2])))
	if m == 0 {
		return mgl64.Vec3{}, false
	}
	d = mgl64.Vec3{d[0] / m, d[1] / m, d[2] / m}
	l := math.Sqrt(d[0]*d[0] + d[1]*d[1] + d[2]*d[2])
	return mgl64.Vec3{d[0] / l, d[1] / l, d[2] / l}, true
}

// perpendicular returns a unit vector orthogonal to the unit vector n, chosen deterministically.
func perpendicular(n mgl64.Vec3) mgl64.Vec3 {
	// Cross with the axis least aligned with n.
	ax, ay, az := math.Abs(n[0]), math.Abs(n[1]), math.Abs(n[2])
	var t mgl64.Vec3
	switch {
	case ax <= ay && ax <= az:
		t = mgl64.Vec3{0, -n[2], n[1]}
	case ay <= az:
		t = mgl64.Vec3{n[2], 0, -n[0]}
	default:
		t = mgl64.Vec3{-n[1], n[0], 0}
	}
	return unitOr(t, mgl64.Vec3{1, 0, 0})
}

// tangentBasis returns two unit vectors that with the unit n form a right-handed basis.
func tangentBasis(n mgl64.Vec3) (mgl64.Vec3, mgl64.Vec3) {
	t1 := perpendicular(n)
	return t1, n.Cross(t1)
}

// clamp limits x to [lo, hi].
func clamp(x, lo, hi float64) float64 {
	if x < lo {
		return lo
	}
	if x > hi {
		return hi
	}
	return x
}

// sign returns -1 for negative x and +1 otherwise (including zero).
func sign(x float64) float64 {
	if x < 0 {
		return -1
	}
	return 1
}

// madd returns a + b*s.
func madd(a, b mgl64.Vec3, s float64) mgl64.Vec3 {
	return mgl64.Vec3{a[0] + b[0]*s, a[1] + b[1]*s, a[2] + b[2]*s}
}

// lerp returns a + (b-a)*t.
func lerp(a, b mgl64.Vec3, t float64) mgl64.Vec3 {
	return mgl64.Vec3{a[0] + (b[0]-a[0])*t, a[1] + (b[1]-a[1])*t, a[2] + (b[2]-a[2])*t}
}

// maxAbs returns the largest absolute component of v.
func maxAbs(v mgl64.Vec3) float64 {
	return max(math.Abs(v[0]), max(math.Abs(v[1]), math.Abs(v[2])))
}

// hasNaN reports whether any component of v is NaN.
func hasNaN(v mgl64.Vec3) bool {
	return math.IsNaN(v[0]) || math.IsNaN(v[1]) || math.IsNaN(v[2])
}

// length returns |v| without intermediate overflow or underflow.
func length(v mgl64.Vec3) float64 {
	m := maxAbs(v)
	if m == 0 || math.IsInf(m, 0) || math.IsNaN(m) {
		return m
	}
	x, y, z := v[0]/m, v[1]/m, v[2]/m
	return m * math.Sqrt(x*x+y*y+z*z)
}
