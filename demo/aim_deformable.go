package main

import (
	"math"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/stagger-physics/stagger/ecs"
	"github.com/stagger-physics/stagger/physics"
)

// rayDeformables returns the distance along the ray origin + t·dir (unit dir, 0 ≤ t ≤ maxT) to
// the nearest deformed surface triangle of a ReducedDeformable in w, and whether one is hit. The
// simulation's ray cast sees colliders only, so without this a throw aimed at a jelly block would
// aim at whatever lies behind it. It runs once per click, over every surface triangle.
func rayDeformables(w *ecs.World, origin, dir mgl64.Vec3, maxT float64) (float64, bool) {
	q, err := ecs.NewQuery1[physics.ReducedDeformable](w)
	if err != nil {
		return 0, false
	}
	best, hit := maxT, false
	var verts []mgl64.Vec3
	_ = q.Each(func(_ ecs.Entity, d *physics.ReducedDeformable) {
		verts = d.SurfaceVertices(verts)
		for _, tri := range d.SurfaceTriangles() {
			if t, ok := rayTriangle(origin, dir, verts[tri[0]], verts[tri[1]], verts[tri[2]]); ok && t <= best {
				best, hit = t, true
			}
		}
	})
	return best, hit
}

// rayTriangle intersects the ray o + t·d (t ≥ 0) with the triangle (a, b, c), from either side
// (Möller–Trumbore), and returns t.
func rayTriangle(o, d, a, b, c mgl64.Vec3) (float64, bool) {
	e1, e2 := b.Sub(a), c.Sub(a)
	p := d.Cross(e2)
	det := e1.Dot(p)
	if math.Abs(det) < 1e-300 {
		return 0, false
	}
	inv := 1 / det
	s := o.Sub(a)
	u := s.Dot(p) * inv
	if u < 0 || u > 1 {
		return 0, false
	}
	q := s.Cross(e1)
	v := d.Dot(q) * inv
	if v < 0 || u+v > 1 {
		return 0, false
	}
	t := e2.Dot(q) * inv
	return t, t >= 0
}
