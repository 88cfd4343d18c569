package collide

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
)

// fuzzQuat builds a unit quaternion from four fuzz values, or the identity when they are
// degenerate.
func fuzzQuat(w, x, y, z float64) mgl64.Quat {
	q := mgl64.Quat{W: w, V: mgl64.Vec3{x, y, z}}
	l := q.Len()
	if !(l > 1e-6) || math.IsInf(l, 0) {
		return mgl64.QuatIdent()
	}
	return q.Scale(1 / l)
}

// fuzzExtent maps a fuzz value to a half extent in [0.01, 10].
func fuzzExtent(x float64) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return 1
	}
	return 0.01 + math.Mod(math.Abs(x), 10)
}

// fuzzCoord maps a fuzz value to a coordinate in [-5, 5].
func fuzzCoord(x float64) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return 0
	}
	return math.Mod(x, 5)
}

// FuzzBoxBox checks that box–box never panics, never returns NaN, keeps at most four unit-normal
// points within the margin with distinct feature ids, and is symmetric in A and B.
func FuzzBoxBox(f *testing.F) {
	f.Add(0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.0, 0.0, 0.99, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0)
	f.Add(1.0, 2.0, 0.1, 0.3, 0.3, 3.0, 0.2, -0.1, 0.5, 0.9, 0.1, 0.3, 0.2, 0.5, 0.5, 0.5, 0.5)
	f.Add(0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0)
	f.Fuzz(func(t *testing.T, ax, ay, az, bx, by, bz, px, py, pz, qaw, qax, qay, qaz, qbw, qbx, qby, qbz float64) {
		a := must(NewBox(mgl64.Vec3{fuzzExtent(ax), fuzzExtent(ay), fuzzExtent(az)}))
		b := must(NewBox(mgl64.Vec3{fuzzExtent(bx), fuzzExtent(by), fuzzExtent(bz)}))
		pa := Pose{Rotation: fuzzQuat(qaw, qax, qay, qaz)}
		pb := Pose{Position: mgl64.Vec3{fuzzCoord(px), fuzzCoord(py), fuzzCoord(pz)}, Rotation: fuzzQuat(qbw, qbx, qby, qbz)}
		const margin = 0.05
		m := collideT(t, a, pa, b, pb, margin)
		checkManifold(t, &m, margin)
		s := collideT(t, b, pb, a, pa, margin)
		if s.Count != m.Count {
			t.Fatalf("swap changed the count: %d vs %d", s.Count, m.Count)
		}
		// Identical boxes at identical poses are indistinguishable: only points must agree.
		same := *a == *b && pa == pb
		for i := 0; i < m.Count; i++ {
			if s.Points[i].Point != m.Points[i].Point || (!same && s.Points[i].Feature != m.Points[i].Feature.Swap()) {
				t.Fatalf("swap changed point %d", i)
			}
		}
	})
}
