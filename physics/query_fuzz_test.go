package physics

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/stagger-physics/stagger/collide"
	"github.com/stagger-physics/stagger/ecs"
)

// fuzzQueryShape returns one of the shapes whose SignedDistance is exact: a sphere, a box, a
// capsule, an irregular convex hull and a half-space.
func fuzzQueryShape(t *testing.T, k uint8) collide.Shape {
	var s collide.Shape
	var err error
	switch k % 5 {
	case 0:
		s, err = collide.NewSphere(0.7)
	case 1:
		s, err = collide.NewBox(mgl64.Vec3{0.8, 0.5, 0.3})
	case 2:
		s, err = collide.NewCapsule(0.3, 0.6)
	case 3:
		s, err = collide.NewConvexHull([]mgl64.Vec3{
			{0.9, 0, 0}, {-0.5, 0.6, 0.1}, {-0.4, -0.7, 0}, {0, 0, 0.8}, {0.1, 0.2, -0.6}, {0.5, 0.5, 0.5},
		})
	default:
		s, err = collide.NewHalfSpace(mgl64.Vec3{0, 0, 1}, -0.2)
	}
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// fuzzUnit maps a fuzz value into [-1, 1].
func fuzzUnit(x float64) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return 0.3
	}
	return math.Sin(x)
}

// placed is a collider of the fuzz scene with its world pose.
type placed struct {
	e     ecs.Entity
	shape collide.Shape
	pose  collide.Pose
}

// signedDistance is the world point p's signed distance from the collider.
func (p *placed) signedDistance(x mgl64.Vec3) float64 {
	d, _ := p.shape.SignedDistance(p.pose.ApplyInverse(x))
	return d
}

// FuzzCastRay places two static colliders (each a sphere, box, capsule, convex hull or
// half-space) at fuzzed poses, casts a fuzzed ray and checks the answer against the shapes' own
// signed distances, with no use of the ray-cast code: a hit point lies on the hit collider's
// surface (or, at distance 0, the origin inside it), and no sample of the ray before it lies
// inside either collider; after a miss, no sample of the whole ray does. It then sweeps a sphere
// of radius 0.2 along the same ray with CastShape and checks it likewise: at the distance reported
// the sphere's centre is within [r, r + 2·ShapeCastTolerance] of the hit collider, and no sample
// before it comes closer than r to either collider.
func FuzzCastRay(f *testing.F) {
	// Seeds: every pair of kinds, with rays from a spread of origins and directions.
	r := rand.New(rand.NewPCG(9, 10))
	v := func() float64 { return 4*r.Float64() - 2 }
	for k := range uint8(25) {
		f.Add(k, v(), v(), v(), v(), v(), v(), v(), v(), v(), v(), v(), v(), v(), v(), v(), v(), v())
	}
	f.Add(uint8(6), 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 3.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, -1.0)
	f.Fuzz(func(t *testing.T, kinds uint8, ax, ay, az, qw, qx, qy, qz, bx, by, bz, rx, ry, rz, ox, oy, oz, dx float64) {
		cfg := DefaultConfig()
		cfg.Workers = 1
		app := newTestApp(t, 0.01, cfg)
		sim, _ := SimulationOf(app.World)
		var bodies [2]placed
		for i, pos := range [2]mgl64.Vec3{{ax, ay, az}, {bx, by, bz}} {
			s := fuzzQueryShape(t, kinds/uint8(1+4*i))
			var q mgl64.Quat
			if i == 0 {
				q = mgl64.Quat{W: fuzzUnit(qw) + 1.5, V: mgl64.Vec3{fuzzUnit(qx), fuzzUnit(qy), fuzzUnit(qz)}}.Normalize()
			} else {
				q = mgl64.QuatRotate(3*fuzzUnit(rx), mgl64.Vec3{fuzzUnit(ry), 0.5, fuzzUnit(rz)}.Normalize())
			}
			p := mgl64.Vec3{3 * fuzzUnit(pos[0]), 3 * fuzzUnit(pos[1]), 3 * fuzzUnit(pos[2])}
			b := NewStatic(p)
			b.Orientation = q
			e, err := Spawn(app.World, b, Collider{Shape: s})
			if err != nil {
				t.Fatal(err)
			}
			got := bodyOf(t, app.World, e)
			bodies[i] = placed{e, s, collide.Pose{Position: got.Position, Rotation: got.Orientation}}
		}
		origin := mgl64.Vec3{6 * fuzzUnit(ox), 6 * fuzzUnit(oy), 6 * fuzzUnit(oz)}
		// Aimed near one of the colliders, so that most rays hit something.
		target := bodies[int(kinds)%2].pose.Position.Add(mgl64.Vec3{fuzzUnit(dx), fuzzUnit(ox + oy), fuzzUnit(oz - dx)}.Mul(0.6))
		dir := target.Sub(origin)
		if dir.Len() < 1e-3 {
			dir = mgl64.Vec3{0, 0, -1}
		}
		dir = dir.Normalize()
		const length, tol, samples = 12.0, 1e-6, 600
		inside := func(x mgl64.Vec3, margin float64) int {
			for i := range bodies {
				if bodies[i].signedDistance(x) < margin-tol {
					return i
				}
			}
			return -1
		}
		h, hit, err := sim.CastRay(origin, dir, length, QueryFilter{})
		if err != nil {
			t.Fatal(err)
		}
		end := length
		if hit {
			end = h.Distance
			var b *placed
			for i := range bodies {
				if bodies[i].e == h.Entity {
					b = &bodies[i]
				}
			}
			if b == nil {
				t.Fatalf("hit %v, which is neither collider", h.Entity)
			}
			sd := b.signedDistance(h.Point)
			if h.Distance == 0 && sd > tol || h.Distance > 0 && math.Abs(sd) > tol {
				t.Fatalf("ray %v + t·%v hits %v at %v (t = %v) with signed distance %v", origin, dir, b.shape.Kind(), h.Point, h.Distance, sd)
			}
			if h.Point.Sub(origin.Add(dir.Mul(h.Distance))).Len() > 1e-9 || math.Abs(h.Normal.Len()-1) > 1e-9 {
				t.Fatalf("hit %+v: point off the ray or normal not unit", h)
			}
		}
		for k := range samples {
			s := end * float64(k) / samples
			if i := inside(origin.Add(dir.Mul(s)), 0); i >= 0 && s < end-tol {
				t.Fatalf("ray %v + t·%v (hit %v at %v): the point at t = %v is inside %v", origin, dir, hit, end, s, bodies[i].shape.Kind())
			}
		}

		const r = 0.2
		ball, _ := collide.NewSphere(r)
		sh, hit, err := sim.CastShape(ball, collide.Pose{Position: origin}, dir, length, QueryFilter{})
		if err != nil {
			t.Fatal(err)
		}
		end = length
		if hit {
			end = sh.Distance
			for i := range bodies {
				if bodies[i].e != sh.Entity {
					continue
				}
				gap := bodies[i].signedDistance(origin.Add(dir.Mul(sh.Distance))) - r
				if sh.Distance > 0 && (gap < -tol || gap > 2*ShapeCastTolerance+tol) || sh.Distance == 0 && gap > 2*ShapeCastTolerance+tol {
					t.Fatalf("sphere swept from %v along %v touches %v at distance %v with gap %v", origin, dir, bodies[i].shape.Kind(), sh.Distance, gap)
				}
			}
		}
		for k := range samples {
			s := end * float64(k) / samples
			if i := inside(origin.Add(dir.Mul(s)), r); i >= 0 && s < end-tol {
				t.Fatalf("sphere swept from %v along %v (hit %v at %v): at %v it overlaps %v", origin, dir, hit, end, s, bodies[i].shape.Kind())
			}
		}
	})
}
