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

// boardOnBoard places a thin board (half extents 0.15–0.4 × 0.1–0.3 × 0.005 m) at a random yaw,
// tilted by up to 0.6°, over a board of half extents lower lying at the origin, and lowers it
// until the lowest corner of the region over the lower board touches its top exactly. It returns
// the upper board's half extents and pose and that region: the upper board's bottom face clipped
// to the lower board in plan, at the placed height. ok is false when the boards do not overlap in
// plan.
func boardOnBoard(r *rand.Rand, lower mgl64.Vec3) (half mgl64.Vec3, pose Pose, region []mgl64.Vec3, ok bool) {
	half = mgl64.Vec3{0.15 + 0.25*r.Float64(), 0.1 + 0.2*r.Float64(), 0.005}
	yaw := math.Pi * r.Float64()
	tiltAxis := 2 * math.Pi * r.Float64()
	tilt := mgl64.QuatRotate(0.01*r.Float64(), mgl64.Vec3{math.Cos(tiltAxis), math.Sin(tiltAxis), 0})
	rot := tilt.Mul(mgl64.QuatRotate(yaw, mgl64.Vec3{0, 0, 1}))
	centre := mgl64.Vec3{0.2 * (r.Float64() - 0.5), 0.2 * (r.Float64() - 0.5), 0}
	var face [4]mgl64.Vec3
	for i, s := range [4][2]float64{{-1, -1}, {1, -1}, {1, 1}, {-1, 1}} {
		face[i] = rot.Rotate(mgl64.Vec3{s[0] * half[0], s[1] * half[1], -half[2]}).Add(centre)
	}
	region = clipToRectangle(face[:], lower[0], lower[1])
	if len(region) < 3 {
		return half, Pose{}, nil, false
	}
	low := math.Inf(1)
	for _, v := range region {
		low = math.Min(low, v[2])
	}
	lift := lower[2] - low
	centre[2] += lift
	for i := range region {
		region[i][2] += lift
	}
	return half, Pose{Position: centre, Rotation: rot}, region, true
}
