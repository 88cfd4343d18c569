package physics

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/stagger-physics/stagger/collide"
	"github.com/stagger-physics/stagger/ecs"
)

// deformedBlockScene is a static ground plane at z = −1 and a deformable block at (0, 0, 1),
// turned and deformed by modal coordinates of several centimetres, in zero gravity; the queries
// see it before any step.
func deformedBlockScene(t *testing.T) (*ecs.App, *Simulation, ecs.Entity, *ReducedDeformable, ecs.Entity) {
	t.Helper()
	cfg := DefaultConfig()
	cfg.Gravity = mgl64.Vec3{}
	app := newTestApp(t, 0.01, cfg)
	plane, err := collide.NewHalfSpace(mgl64.Vec3{0, 0, 1}, 0)
	if err != nil {
		t.Fatal(err)
	}
	ground, err := Spawn(app.World, NewStatic(mgl64.Vec3{0, 0, -1}), Collider{Shape: plane})
	if err != nil {
		t.Fatal(err)
	}
	e, d := spawnBlock(t, app.World, mgl64.Vec3{0, 0, 1}, 6)
	d.Orientation = mgl64.QuatRotate(0.3, mgl64.Vec3{1, 2, 0.5}.Normalize())
	if err := d.model.setFrame(d); err != nil {
		t.Fatal(err)
	}
	d.written = d.frame()
	if err := d.SetModalState([]float64{0.04, -0.03, 0.05, 0.02, -0.04, 0.03}, make([]float64, 6)); err != nil {
		t.Fatal(err)
	}
	sim, _ := SimulationOf(app.World)
	return app, sim, e, d, ground
}

// bruteRay intersects the ray o + t·d with every triangle by its plane and the signs of the three
// edge functions (not Möller–Trumbore), with the edges widened by slack (negative: narrowed). It
// returns the nearest t in [0, maxT], the triangle and whether one was hit.
func bruteRay(verts []mgl64.Vec3, tris [][3]int32, o, d mgl64.Vec3, maxT, slack float64) (float64, int, bool) {
	best, bt := maxT, -1
	for i, tri := range tris {
		a, b, c := verts[tri[0]], verts[tri[1]], verts[tri[2]]
		n := b.Sub(a).Cross(c.Sub(a))
		den := n.Dot(d)
		if den == 0 {
			continue
		}
		t := n.Dot(a.Sub(o)) / den
		if t < 0 || t > best {
			continue
		}
		p := o.Add(d.Mul(t))
		area := n.Len()
		in := true
		for k := 0; k < 3; k++ {
			u, v := verts[tri[k]], verts[tri[(k+1)%3]]
			if v.Sub(u).Cross(p.Sub(u)).Dot(n)/area < -slack*v.Sub(u).Len() {
				in = false
			}
		}
		if in {
			best, bt = t, i
		}
	}
	return best, bt, bt >= 0
}

// TestCastRayHitsDeformedBlock casts rays straight down on a grid over a turned, deformed block:
// each hits the block (not the ground below) at the distance the brute-force intersection with
// all its surface triangles gives (1e-12), at the point along the ray, with that triangle's unit
// normal facing the ray; rays beside the block hit the ground. A layer mask without the block's
// layer, and excluding the block, see the ground instead; a mask with it sees the block. Moved by
// the game, the block is seen where it now is after RefreshQueries.
func TestCastRayHitsDeformedBlock(t *testing.T) {
	_, sim, e, d, ground := deformedBlockScene(t)
	verts, tris := d.SurfaceVertices(nil), d.SurfaceTriangles()
	down := mgl64.Vec3{0, 0, -1}
	hits := 0
	for i := -6; i <= 6; i++ {
		for j := -6; j <= 6; j++ {
			o := mgl64.Vec3{0.07 * float64(i), 0.07 * float64(j), 3}
			h, ok := castRay(t, sim, o, down, math.Inf(1), QueryFilter{})
			want, tri, bf := bruteRay(verts, tris, o, down, math.Inf(1), 0)
			if !ok {
				t.Fatalf("ray at %v hit nothing", o)
			}
			if !bf {
				if h.Entity != ground {
					t.Fatalf("ray at %v beside the block hit %v, want the ground", o, h.Entity)
				}
				continue
			}
			hits++
			if h.Entity != e || math.Abs(h.Distance-want) > 1e-12 {
				t.Fatalf("ray at %v: %v at %.15g, brute force the block at %.15g", o, h.Entity, h.Distance, want)
			}
			if p := o.Add(down.Mul(h.Distance)); p.Sub(h.Point).Len() > 1e-12 {
				t.Fatalf("ray at %v: point %v, want %v", o, h.Point, p)
			}
			// On an edge the two methods may name either triangle: the one named must hold the
			// point, and the normal must be its.
			if h.Feature.Type() != collide.FeatureFace || h.Feature.Index() >= len(tris) {
				t.Fatalf("ray at %v: feature %v, want a face of the surface", o, h.Feature)
			}
			named := h.Feature.Index()
			a := verts[tris[named][0]]
			n := verts[tris[named][1]].Sub(a).Cross(verts[tris[named][2]].Sub(a)).Normalize()
			if named != tri && math.Abs(n.Dot(h.Point.Sub(a))) > 1e-12 {
				t.Fatalf("ray at %v: names triangle %d, whose plane is %.3g m from the point (brute force: %d)", o, named, n.Dot(h.Point.Sub(a)), tri)
			}
			if n.Dot(down) > 0 {
				n = n.Mul(-1)
			}
			if h.Normal.Sub(n).Len() > 1e-9 {
				t.Fatalf("ray at %v: normal %v, its triangle's %v", o, h.Normal, n)
			}
		}
	}
	if hits < 50 {
		t.Fatalf("only %d of the grid's rays hit the block", hits)
	}
	o := mgl64.Vec3{0, 0, 3}
	want, _, _ := bruteRay(verts, tris, o, down, math.Inf(1), 0)
	d.Layer = 4
	if err := sim.RefreshQueries(); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		f     QueryFilter
		block bool
	}{{QueryFilter{Mask: 2 | 1}, false}, {QueryFilter{Mask: 4}, true}, {QueryFilter{Exclude: e}, false}, {QueryFilter{}, true}} {
		h, ok := castRay(t, sim, o, down, math.Inf(1), c.f)
		if !ok || (h.Entity == e) != c.block || (c.block && h.Distance != want) {
			t.Fatalf("filter %+v: hit %v at %v (found %v), want the block %v", c.f, h.Entity, h.Distance, ok, c.block)
		}
	}
	if _, ok := castRay(t, sim, o, down, want-1e-9, QueryFilter{}); ok {
		t.Fatal("a ray stopping short of the block hit something")
	}
	d.Position = d.Position.Add(mgl64.Vec3{5, 0, 0})
	if err := sim.RefreshQueries(); err != nil {
		t.Fatal(err)
	}
	h, ok := castRay(t, sim, o.Add(mgl64.Vec3{5, 0, 0}), down, math.Inf(1), QueryFilter{})
	if !ok || h.Entity != e || math.Abs(h.Distance-want) > 1e-12 {
		t.Fatalf("moved block: hit %v at %v, want the block at %v", h.Entity, h.Distance, want)
	}
	if h, _ := castRay(t, sim, o, down, math.Inf(1), QueryFilter{}); h.Entity != ground {
		t.Fatalf("the block is still seen where it was: %v", h.Entity)
	}
}

// TestCastRayDeformableRandomRays casts 2,000 random rays (origins around and inside the block,
// any direction, random lengths) against a deformed block alone and checks each against the
// brute-force intersection: a hit where the brute force finds one with triangles narrowed by
// 1e-9 m, no hit where it finds none with them widened by 1e-9 m, and the distance between the
// two answers.
func TestCastRayDeformableRandomRays(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Gravity = mgl64.Vec3{}
	app := newTestApp(t, 0.01, cfg)
	e, d := spawnBlock(t, app.World, mgl64.Vec3{0.3, -0.2, 0.5}, 6)
	if err := d.SetModalState([]float64{-0.05, 0.04, 0.03, -0.02, 0.05, -0.03}, make([]float64, 6)); err != nil {
		t.Fatal(err)
	}
	sim, _ := SimulationOf(app.World)
	verts, tris := d.SurfaceVertices(nil), d.SurfaceTriangles()
	rng := rand.New(rand.NewPCG(7, 19))
	hits := 0
	for i := 0; i < 2000; i++ {
		o := mgl64.Vec3{0.3 + rng.Float64() - 0.5, -0.2 + rng.Float64() - 0.5, 0.5 + rng.Float64() - 0.5}
		dir := mgl64.Vec3{rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()}.Normalize()
		maxT := 2 * rng.Float64()
		h, ok := castRay(t, sim, o, dir, maxT, QueryFilter{})
		narrow, _, inN := bruteRay(verts, tris, o, dir, maxT, -1e-9)
		wide, _, inW := bruteRay(verts, tris, o, dir, maxT, 1e-9)
		switch {
		case inN && !ok:
			t.Fatalf("ray %d from %v along %v: missed, brute force hits at %v", i, o, dir, narrow)
		case !inW && ok:
			t.Fatalf("ray %d from %v along %v: hit at %v, brute force misses", i, o, dir, h.Distance)
		case ok && (h.Entity != e || h.Distance < wide-1e-12 || (inN && h.Distance > narrow+1e-12) || h.Distance > maxT):
			t.Fatalf("ray %d: hit %v at %v, brute force between %v and %v", i, h.Entity, h.Distance, wide, narrow)
		}
		if ok {
			hits++
		}
	}
	if hits < 200 || hits > 1800 {
		t.Fatalf("%d of 2,000 rays hit: the sample does not exercise both answers", hits)
	}
}

// bruteClosestOnTriangle returns the point of triangle (a, b, c) nearest p, by minimising over the
// interior (projection onto the plane, when inside) and the three edges (clamped projections).
func bruteClosestOnTriangle(p, a, b, c mgl64.Vec3) mgl64.Vec3 {
	n := b.Sub(a).Cross(c.Sub(a)).Normalize()
	q := p.Sub(n.Mul(n.Dot(p.Sub(a))))
	inside := true
	for _, e := range [][2]mgl64.Vec3{{a, b}, {b, c}, {c, a}} {
		if e[1].Sub(e[0]).Cross(q.Sub(e[0])).Dot(n) < 0 {
			inside = false
		}
	}
	if inside {
		return q
	}
	best, bd := a, math.Inf(1)
	for _, e := range [][2]mgl64.Vec3{{a, b}, {b, c}, {c, a}} {
		u := e[1].Sub(e[0])
		s := math.Max(0, math.Min(1, p.Sub(e[0]).Dot(u)/u.Dot(u)))
		x := e[0].Add(u.Mul(s))
		if dd := x.Sub(p).Len(); dd < bd {
			best, bd = x, dd
		}
	}
	return best
}

// surfaceDistance is the distance from p to the nearest surface triangle, by brute force.
func surfaceDistance(verts []mgl64.Vec3, tris [][3]int32, p mgl64.Vec3) float64 {
	best := math.Inf(1)
	for _, tri := range tris {
		best = min(best, bruteClosestOnTriangle(p, verts[tri[0]], verts[tri[1]], verts[tri[2]]).Sub(p).Len())
	}
	return best
}

// TestShapeQueriesSeeDeformables: a sphere swept down onto a deformed block stops where, by brute
// force over the triangles, its centre is one radius from the surface (to 1e-5 m), and 1 mm
// earlier it was clear of it; Overlap visits the block with a sphere crossing its surface, not
// with one 1 cm clear of it (the brute-force distance says which), nor when the mask leaves out
// the block's layer.
func TestShapeQueriesSeeDeformables(t *testing.T) {
	_, sim, e, d, _ := deformedBlockScene(t)
	verts, tris := d.SurfaceVertices(nil), d.SurfaceTriangles()
	const radius = 0.1
	ball, err := collide.NewSphere(radius)
	if err != nil {
		t.Fatal(err)
	}
	for _, xy := range [][2]float64{{0, 0}, {0.1, -0.05}, {-0.12, 0.08}} {
		start := mgl64.Vec3{xy[0], xy[1], 2.5}
		h, ok, err := sim.CastShape(ball, collide.Pose{Position: start, Rotation: mgl64.QuatIdent()}, mgl64.Vec3{0, 0, -1}, 5, QueryFilter{})
		if err != nil || !ok || h.Entity != e {
			t.Fatalf("sphere from %v: hit %v (found %v, %v), want the block", start, h.Entity, ok, err)
		}
		at := start.Sub(mgl64.Vec3{0, 0, h.Distance})
		if gap := surfaceDistance(verts, tris, at) - radius; math.Abs(gap) > 1e-5 {
			t.Fatalf("sphere from %v stops %.3g m from the surface", start, gap)
		}
		if gap := surfaceDistance(verts, tris, at.Add(mgl64.Vec3{0, 0, 1e-3})) - radius; !(gap > 0) {
			t.Fatalf("sphere from %v touched 1 mm before the reported distance", start)
		}
	}
	var top mgl64.Vec3
	for _, p := range verts {
		if p[2] > top[2] {
			top = p
		}
	}
	visited := func(p mgl64.Vec3, f QueryFilter) bool {
		seen := false
		if err := sim.Overlap(ball, collide.Pose{Position: p, Rotation: mgl64.QuatIdent()}, f, func(x ecs.Entity) bool {
			seen = seen || x == e
			return true
		}); err != nil {
			t.Fatal(err)
		}
		return seen
	}
	crossing := top.Add(mgl64.Vec3{0, 0, 0.05})
	clear := top.Add(mgl64.Vec3{0, 0, radius + 0.01})
	if surfaceDistance(verts, tris, crossing) >= radius || surfaceDistance(verts, tris, clear) <= radius {
		t.Fatal("the test's spheres are not placed as meant")
	}
	if !visited(crossing, QueryFilter{}) || visited(clear, QueryFilter{}) {
		t.Fatalf("Overlap: crossing sphere visits the block %v, clear one %v; want true, false", visited(crossing, QueryFilter{}), visited(clear, QueryFilter{}))
	}
	d.Layer = 8
	if err := sim.RefreshQueries(); err != nil {
		t.Fatal(err)
	}
	if visited(crossing, QueryFilter{Mask: 1}) || !visited(crossing, QueryFilter{Mask: 8}) {
		t.Fatal("Overlap does not follow the block's layer")
	}
}
