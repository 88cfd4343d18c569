package collide

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
)

func TestSamplePoints(t *testing.T) {
	r := newRand(111)
	shapes := append(testPrimitives(), must(NewHalfSpace(mgl64.Vec3{0, 0, 1}, 0)))
	pts := make([]mgl64.Vec3, 300)
	out := make([]PointSample, len(pts))
	for _, s := range shapes {
		pose := randPose(r, 1)
		for i := range pts {
			pts[i] = pose.Position.Add(randInCube(r, 2))
		}
		const margin = 0.1
		n, err := SamplePoints(s, pose, pts, margin, out)
		if err != nil {
			t.Fatal(err)
		}
		count := 0
		for i, p := range pts {
			o := out[i]
			want, _ := s.SignedDistance(pose.ApplyInverse(p))
			if !near(o.Gap, want, 1e-12) || o.Within != (want <= margin) || !near(o.Normal.Len(), 1, 1e-12) {
				t.Fatalf("%v: sample %+v, distance %v", s.Kind(), o, want)
			}
			if d, _ := s.SignedDistance(pose.ApplyInverse(o.Closest)); !near(d, 0, 1e-9) {
				t.Fatalf("%v: closest point off the surface by %v", s.Kind(), d)
			}
			if o.Within {
				count++
			}
		}
		if n != count {
			t.Fatalf("%v: within %d, counted %d", s.Kind(), n, count)
		}
	}
	// Analytic: unit sphere at (0,0,1), point at (0,0,3).
	s := must(NewSphere(1))
	_, _ = SamplePoints(s, at(mgl64.Vec3{0, 0, 1}, mgl64.Quat{}), []mgl64.Vec3{{0, 0, 3}}, 0, out)
	if out[0].Gap != 1 || out[0].Normal != (mgl64.Vec3{0, 0, 1}) || out[0].Closest != (mgl64.Vec3{0, 0, 2}) || out[0].Within {
		t.Fatalf("analytic: %+v", out[0])
	}
	if _, err := SamplePoints(s, IdentityPose(), pts, 0, out[:2]); err == nil || !containsField(err, "out") {
		t.Fatalf("short out: %v", err)
	}
	if _, err := SamplePoints(s, IdentityPose(), []mgl64.Vec3{{math.NaN(), 0, 0}}, 0, out); err == nil || !containsField(err, "points[0]") {
		t.Fatalf("NaN point: %v", err)
	}
	allocs := testing.AllocsPerRun(10, func() { _, _ = SamplePoints(s, IdentityPose(), pts, 0.1, out) })
	if allocs != 0 {
		t.Fatalf("SamplePoints allocates %v times", allocs)
	}
}
