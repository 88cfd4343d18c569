package collide

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
)

// sphereTrace marches the ray by the shape's signed distance (exact for primitives, so every
// step is safe) and returns the first distance where the surface is reached.
func sphereTrace(s Shape, pose Pose, o, d mgl64.Vec3, maxT float64) (float64, bool) {
	t := 0.0
	for i := 0; i < 100000 && t <= maxT; i++ {
		sd, _ := s.SignedDistance(pose.ApplyInverse(madd(o, d, t)))
		if sd <= 1e-13 {
			return t, true
		}
		t += sd
	}
	return 0, false
}

func TestRayCastAgainstSphereTracing(t *testing.T) {
	r := newRand(81)
	shapes := append(testPrimitives(), must(NewHalfSpace(mgl64.Vec3{0.2, -0.1, 1}, -0.3)))
	for _, s := range shapes {
		hits := 0
		for i := 0; i < 400; i++ {
			pose := randPose(r, 1)
			o := pose.Position.Add(randUnit(r).Mul(3 + r.Float64()))
			target := pose.Position.Add(randInCube(r, 1.2))
			d := target.Sub(o).Normalize()
			h, hit, err := RayCast(s, pose, o, d.Mul(2.5), 10)
			if err != nil {
				t.Fatal(err)
			}
			want, wantHit := sphereTrace(s, pose, o, d, 10)
			if hit != wantHit {
				// Accept disagreement only for grazing rays.
				if hit {
					if sd, _ := s.SignedDistance(pose.ApplyInverse(h.Point)); math.Abs(sd) > 1e-9 {
						t.Fatalf("%v: hit %+v off the surface by %v", s.Kind(), h, sd)
					}
				}
				continue
			}
			if !hit {
				continue
			}
			hits++
			if sd0, _ := s.SignedDistance(pose.ApplyInverse(o)); sd0 <= 0 {
				if h.T != 0 || !nearVec(h.Normal, d.Mul(-1), 1e-15) {
					t.Fatalf("%v: inside start %+v", s.Kind(), h)
				}
				continue
			}
			if !near(h.T, want, 1e-7) {
				t.Fatalf("%v: T %v, sphere tracing %v", s.Kind(), h.T, want)
			}
			sd, n := s.SignedDistance(pose.ApplyInverse(h.Point))
			// The normal is an outward direction of the surface there: stepping along it
			// opens the distance at unit rate (also on edges, where the normal is a choice).
			const step = 1e-6
			out, _ := s.SignedDistance(pose.ApplyInverse(madd(h.Point, h.Normal, step)))
			if !near(sd, 0, 1e-9) || !near(out, step, 1e-9) || !near(h.Normal.Len(), 1, 1e-12) {
				t.Fatalf("%v: hit %+v: surface %v, normal %v, step %v", s.Kind(), h, sd, pose.Rotate(n), out)
			}
			if !nearVec(h.Point, madd(o, d, h.T), 1e-12) {
				t.Fatalf("%v: point %v not on the ray", s.Kind(), h.Point)
			}
		}
		if hits < 40 {
			t.Errorf("%v: only %d hits", s.Kind(), hits)
		}
	}
}

func TestRayCastAnalytic(t *testing.T) {
	b := must(NewBox(mgl64.Vec3{1, 2, 3}))
	h, hit, _ := RayCast(b, at(mgl64.Vec3{10, 0, 0}, mgl64.Quat{}), mgl64.Vec3{0, 0, 0}, mgl64.Vec3{1, 0, 0}, 100)
	if !hit || h.T != 9 || h.Normal != (mgl64.Vec3{-1, 0, 0}) || h.Feature != FaceFeature(1) {
		t.Fatalf("box: %+v %v", h, hit)
	}
	if _, hit, _ := RayCast(b, at(mgl64.Vec3{10, 0, 0}, mgl64.Quat{}), mgl64.Vec3{}, mgl64.Vec3{1, 0, 0}, 8.5); hit {
		t.Fatal("short ray hit")
	}
	// Inside start.
	h, hit, _ = RayCast(b, IdentityPose(), mgl64.Vec3{0.5, 0, 0}, mgl64.Vec3{0, 2, 0}, 1)
	if !hit || h.T != 0 || h.Normal != (mgl64.Vec3{0, -1, 0}) {
		t.Fatalf("inside: %+v", h)
	}
	c := must(NewCapsule(0.5, 1))
	h, hit, _ = RayCast(c, IdentityPose(), mgl64.Vec3{0, 0, 5}, mgl64.Vec3{0, 0, -1}, 10)
	if !hit || !near(h.T, 3.5, 1e-15) || h.Feature != FaceFeature(1) {
		t.Fatalf("capsule cap: %+v", h)
	}
	h, hit, _ = RayCast(c, IdentityPose(), mgl64.Vec3{-4, 0, 0.3}, mgl64.Vec3{1, 0, 0}, 10)
	if !hit || !near(h.T, 3.5, 1e-15) || h.Feature != FaceFeature(0) {
		t.Fatalf("capsule side: %+v", h)
	}
	hs := must(NewHalfSpace(mgl64.Vec3{0, 0, 1}, 0))
	h, hit, _ = RayCast(hs, IdentityPose(), mgl64.Vec3{0, 0, 2}, mgl64.Vec3{1, 0, -1}, 10)
	if !hit || !near(h.T, 2*math.Sqrt2, 1e-14) || !nearVec(h.Point, mgl64.Vec3{2, 0, 0}, 1e-14) {
		t.Fatalf("half-space: %+v", h)
	}
	if _, _, err := RayCast(hs, IdentityPose(), mgl64.Vec3{}, mgl64.Vec3{}, 1); err == nil || !containsField(err, "dir") {
		t.Fatalf("zero dir: %v", err)
	}
	if _, _, err := RayCast(hs, IdentityPose(), mgl64.Vec3{}, mgl64.Vec3{1, 0, 0}, -1); err == nil || !containsField(err, "maxT") {
		t.Fatalf("negative maxT: %v", err)
	}
}

func TestRayCastBroadPhase(t *testing.T) {
	r := newRand(82)
	bp := must(NewBroadPhase(0.05))
	type entry struct {
		s Shape
		p Pose
	}
	var entries []entry
	shapes := testPrimitives()
	for i := 0; i < 300; i++ {
		s := shapes[i%len(shapes)]
		p := randPose(r, 15)
		entries = append(entries, entry{s, p})
		must(bp.Add(s.Bounds(p), mgl64.Vec3{}, ProxyOptions{Data: i}))
	}
	lookup := func(id ProxyID) (Shape, Pose, bool) {
		i, err := bp.Data(id)
		if err != nil {
			return nil, Pose{}, false
		}
		return entries[i].s, entries[i].p, true
	}
	hits := 0
	for k := 0; k < 200; k++ {
		o := randInCube(r, 20)
		d := randUnit(r)
		id, h, hit, err := RayCastBroadPhase(bp, o, d, 40, lookup)
		if err != nil {
			t.Fatal(err)
		}
		// Brute force over every shape.
		bestT, bestI := math.Inf(1), -1
		for i, e := range entries {
			if bh, ok, _ := RayCast(e.s, e.p, o, d, 40); ok && bh.T < bestT {
				bestT, bestI = bh.T, i
			}
		}
		if hit != (bestI >= 0) {
			t.Fatalf("ray %d: hit %v, brute force %v", k, hit, bestI >= 0)
		}
		if hit {
			hits++
			if i, _ := bp.Data(id); !near(h.T, bestT, 1e-12) || (i != bestI && !near(h.T, bestT, 1e-12)) {
				t.Fatalf("ray %d: entry %d at %v, brute force %d at %v", k, i, h.T, bestI, bestT)
			}
		}
	}
	if hits < 20 {
		t.Errorf("only %d hits", hits)
	}
}
