package collide

import (
	"math"
	"slices"

	"github.com/go-gl/mathgl/mgl64"
)

// hullTri is a triangle of the hull under construction, counter-clockwise seen from outside.
type hullTri struct {
	v       [3]int32
	n       mgl64.Vec3
	d       float64
	alive   bool
	outside []int32 // conflict list: points above this triangle
}

// quickHull computes the convex hull of pts (already de-duplicated) by Quickhull: start from
// a maximal tetrahedron, then repeatedly add the point furthest above any triangle, replacing
// the triangles it sees by a fan over their horizon. eps is the distance below which a point
// counts as on a plane. It returns triangles (indices into pts) or an error for degenerate
// (collinear or coplanar within flat) input.
func quickHull(pts []mgl64.Vec3, eps, flat float64) ([][3]int32, error) {
	n := len(pts)
	if n < 4 {
		return nil, fieldErrorf("ConvexHull.points", "need at least 4 distinct points, got %d", n)
	}
	// Initial tetrahedron: extremes along the widest axis, then furthest from their line, then
	// furthest from their plane.
	box := AABBFromPoints(pts...)
	size := box.Size()
	axis := 0
	if size[1] > size[axis] {
		axis = 1
	}
	if size[2] > size[axis] {
		axis = 2
	}
	i0, i1 := 0, 0
	for i, p := range pts {
		if p[axis] < pts[i0][axis] {
			i0 = i
		}
		if p[axis] > pts[i1][axis] {
			i1 = i
		}
	}
	if pts[i1].Sub(pts[i0]).Len() <= eps {
		return nil, fieldErrorf("ConvexHull.points", "are all coincident (within %g m)", eps)
	}
	dir := pts[i1].Sub(pts[i0]).Normalize()
	i2, best := -1, flat
	for i, p := range pts {
		w := p.Sub(pts[i0])
		if d := w.Sub(dir.Mul(w.Dot(dir))).Len(); d > best {
			i2, best = i, d
		}
	}
	if i2 < 0 {
		return nil, fieldErrorf("ConvexHull.points", "are collinear (within %g m)", flat)
	}
	pn := pts[i1].Sub(pts[i0]).Cross(pts[i2].Sub(pts[i0])).Normalize()
	i3, best := -1, flat
	for i, p := range pts {
		if d := math.Abs(p.Sub(pts[i0]).Dot(pn)); d > best {
			i3, best = i, d
		}
	}
	if i3 < 0 {
		return nil, fieldErrorf("ConvexHull.points", "are coplanar (within %g m): a hull needs volume", flat)
	}
	var tris []hullTri
	addTri := func(a, b, c int32) int {
		pa, pb, pc := pts[a], pts[b], pts[c]
		nn := pb.Sub(pa).Cross(pc.Sub(pa))
		nu, _ := unit(nn)
		tris = append(tris, hullTri{v: [3]int32{a, b, c}, n: nu, d: nu.Dot(pa), alive: true})
		return len(tris) - 1
	}
	a, b, c, d := int32(i0), int32(i1), int32(i2), int32(i3)
	if pts[d].Sub(pts[a]).Dot(pn) > 0 {
		b, c = c, b // make (a, b, c) face away from d
	}
	addTri(a, b, c)
	addTri(a, d, b)
	addTri(b, d, c)
	addTri(c, d, a)
	// Assign every other point to the triangle it is furthest above.
	used := map[int32]bool{a: true, b: true, c: true, d: true}
	for i := range pts {
		if used[int32(i)] {
			continue
		}
		assignConflict(tris, []int{0, 1, 2, 3}, pts, int32(i), eps)
	}
	edgeTri := map[[2]int32]int{} // directed edge → triangle holding it
	register := func(t int) {
		v := tris[t].v
		for k := 0; k < 3; k++ {
			edgeTri[[2]int32{v[k], v[(k+1)%3]}] = t
		}
	}
	for t := range tris {
		register(t)
	}
	var visible, horizonFrom []int
	var horizon [][2]int32
	for iter := 0; ; iter++ {
		// Pick the triangle with the furthest conflict point (lowest index on ties).
		ft, fp, fd := -1, int32(-1), 0.0
		for t := range tris {
			if !tris[t].alive {
				continue
			}
			for _, p := range tris[t].outside {
				if dd := pts[p].Dot(tris[t].n) - tris[t].d; dd > fd || (dd == fd && fp >= 0 && p < fp) {
					ft, fp, fd = t, p, dd
				}
			}
		}
		if ft < 0 {
			break
		}
		eye := pts[fp]
		// Flood the triangles visible from the eye point.
		visible = visible[:0]
		visible = append(visible, ft)
		seen := map[int]bool{ft: true}
		for k := 0; k < len(visible); k++ {
			t := visible[k]
			v := tris[t].v
			for e := 0; e < 3; e++ {
				nb := edgeTri[[2]int32{v[(e+1)%3], v[e]}]
				if seen[nb] {
					continue
				}
				if eye.Dot(tris[nb].n)-tris[nb].d > eps {
					seen[nb] = true
					visible = append(visible, nb)
				}
			}
		}
		// Horizon: edges of visible triangles whose neighbour is not visible, in order.
		horizon, horizonFrom = horizon[:0], horizonFrom[:0]
		for _, t := range visible {
			v := tris[t].v
			for e := 0; e < 3; e++ {
				nb := edgeTri[[2]int32{v[(e+1)%3], v[e]}]
				if !seen[nb] {
					horizon = append(horizon, [2]int32{v[e], v[(e+1)%3]})
					horizonFrom = append(horizonFrom, t)
				}
			}
		}
		var orphans []int32
		for _, t := range visible {
			tris[t].alive = false
			v := tris[t].v
			for e := 0; e < 3; e++ {
				k := [2]int32{v[e], v[(e+1)%3]}
				if edgeTri[k] == t {
					delete(edgeTri, k)
				}
			}
			for _, p := range tris[t].outside {
				if p != fp {
					orphans = append(orphans, p)
				}
			}
			tris[t].outside = nil
		}
		var fresh []int
		for _, e := range horizon {
			t := addTri(e[0], e[1], fp)
			register(t)
			fresh = append(fresh, t)
		}
		slices.Sort(orphans)
		for _, p := range orphans {
			assignConflict(tris, fresh, pts, p, eps)
		}
		if iter > 4*n+16 {
			return nil, fieldErrorf("ConvexHull.points", "hull construction did not converge (numerically degenerate input)")
		}
	}
	var out [][3]int32
	for _, t := range tris {
		if t.alive {
			out = append(out, t.v)
		}
	}
	return out, nil
}

// assignConflict puts point p on the conflict list of the candidate triangle it is furthest
// above (by more than eps); points above none are inside and dropped.
func assignConflict(tris []hullTri, cands []int, pts []mgl64.Vec3, p int32, eps float64) {
	best, bd := -1, eps
	for _, t := range cands {
		if d := pts[p].Dot(tris[t].n) - tris[t].d; d > bd {
			best, bd = t, d
		}
	}
	if best >= 0 {
		tris[best].outside = append(tris[best].outside, p)
	}
}
