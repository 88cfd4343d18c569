package collide

import (
	"math"
	"math/rand/v2"

	"github.com/go-gl/mathgl/mgl64"
)

// newRand returns a seeded generator so every test run sees the same samples.
func newRand(seed uint64) *rand.Rand {
	return rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
}

// randUnit returns a uniformly distributed unit vector.
func randUnit(r *rand.Rand) mgl64.Vec3 {
	for {
		v := mgl64.Vec3{2*r.Float64() - 1, 2*r.Float64() - 1, 2*r.Float64() - 1}
		if l := v.Len(); l > 1e-3 && l <= 1 {
			return v.Mul(1 / l)
		}
	}
}

// randQuat returns a uniformly distributed unit quaternion.
func randQuat(r *rand.Rand) mgl64.Quat {
	for {
		q := mgl64.Quat{W: 2*r.Float64() - 1, V: mgl64.Vec3{2*r.Float64() - 1, 2*r.Float64() - 1, 2*r.Float64() - 1}}
		if l := q.Len(); l > 1e-3 && l <= 1 {
			return q.Scale(1 / l)
		}
	}
}

// randPose returns a random pose with position in the cube of half side spread.
func randPose(r *rand.Rand, spread float64) Pose {
	return Pose{
		Position: mgl64.Vec3{spread * (2*r.Float64() - 1), spread * (2*r.Float64() - 1), spread * (2*r.Float64() - 1)},
		Rotation: randQuat(r),
	}
}

// randInCube returns a point uniformly distributed in the cube of half side s.
func randInCube(r *rand.Rand, s float64) mgl64.Vec3 {
	return mgl64.Vec3{s * (2*r.Float64() - 1), s * (2*r.Float64() - 1), s * (2*r.Float64() - 1)}
}

// near reports whether a and b agree within tol (absolute).
func near(a, b, tol float64) bool {
	return math.Abs(a-b) <= tol
}

// nearVec reports whether a and b agree within tol in every component.
func nearVec(a, b mgl64.Vec3, tol float64) bool {
	return near(a[0], b[0], tol) && near(a[1], b[1], tol) && near(a[2], b[2], tol)
}

// must returns s, panicking (which fails the test) on a constructor error.
func must[S any](s S, err error) S {
	if err != nil {
		panic(err)
	}
	return s
}

// relClose reports whether a and b agree within a relative tolerance.
func relClose(a, b, rel float64) bool {
	return math.Abs(a-b) <= rel*math.Max(math.Abs(a), math.Abs(b))
}

// containsField reports whether err is a *FieldError for field (or its message names it).
func containsField(err error, field string) bool {
	if fe, ok := err.(*FieldError); ok {
		return fe.Field == field
	}
	return false
}

// clipToRectangle clips the planar polygon poly (in order) to the prism |x| ≤ hx, |y| ≤ hy
// (Sutherland–Hodgman), interpolating z along the cut edges.
func clipToRectangle(poly []mgl64.Vec3, hx, hy float64) []mgl64.Vec3 {
	out := poly
	for _, plane := range [4]struct {
		axis int
		sign float64
		lim  float64
	}{{0, 1, hx}, {0, -1, hx}, {1, 1, hy}, {1, -1, hy}} {
		in := out
		out = nil
		for i := range in {
			a, b := in[i], in[(i+1)%len(in)]
			da, db := plane.lim-plane.sign*a[plane.axis], plane.lim-plane.sign*b[plane.axis]
			if da >= 0 {
				out = append(out, a)
			}
			if (da >= 0) != (db >= 0) {
				out = append(out, a.Add(b.Sub(a).Mul(da/(da-db))))
			}
		}
		if len(out) == 0 {
			return nil
		}
	}
	return out
}
