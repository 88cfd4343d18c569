package collide

import (
	"math"

	"github.com/go-gl/mathgl/mgl64"
)

// hullTri is a triangle of the hull under construction, counter-clockwise seen from outside.
type hullTri struct {
	v     [3]int32
	n     mgl64.Vec3
	d     float64
	alive bool
	// outside heads the triangle's conflict list, the points above it, linked through
	// quickHull's next: the first point's index + 1, or 0 when empty.
	outside int32
	// far is the conflict point furthest above the triangle (the lowest index among equals),
	// farD its height; -1 and 0 when there is none.
	far  int32
	farD float64
	// mark is the last iteration that found the triangle visible from its eye point.
	mark int32
	// adj[e] is the triangle across edge e, from v[e] to v[e+1].
	adj [3]int32
}

// hullQueue is a max-heap of triangles by their furthest conflict point: the greatest height
// first, the lowest point index among equal heights. Dead triangles are skipped when popped.
type hullQueue []int

// hullBefore reports whether triangle a's furthest point comes before b's.
func hullBefore(tris []hullTri, a, b int) bool {
	ta, tb := &tris[a], &tris[b]
	if ta.farD != tb.farD {
		return ta.farD > tb.farD
	}
	return ta.far < tb.far
}

// push adds triangle t.
func (q *hullQueue) push(tris []hullTri, t int) {
	*q = append(*q, t)
	h := *q
	for i := len(h) - 1; i > 0; {
		parent := (i - 1) / 2
		if !hullBefore(tris, h[i], h[parent]) {
			break
		}
		h[i], h[parent] = h[parent], h[i]
		i = parent
	}
}

// pop removes and returns the first triangle.
func (q *hullQueue) pop(tris []hullTri) int {
	h := *q
	top := h[0]
	last := len(h) - 1
	h[0] = h[last]
	h = h[:last]
	for i := 0; ; {
		l, r, m := 2*i+1, 2*i+2, i
		if l < len(h) && hullBefore(tris, h[l], h[m]) {
			m = l
		}
		if r < len(h) && hullBefore(tris, h[r], h[m]) {
			m = r
		}
		if m == i {
			break
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
	*q = h
	return top
}

// quickHull computes the convex hull of pts (already de-duplicated) by Quickhull: start from
// a maximal tetrahedron, then repeatedly add the point furthest above any triangle, replacing
// the triangles it sees by a fan over their horizon. eps is the distance below which a point
// counts as on a plane. It returns triangles (indices into pts) with, for each, the triangles
// across its three edges (adj[i][e] across the edge from vertex e to e+1), or an error for degenerate
// (collinear or coplanar within flat) input.
//
// Each point waits on the conflict list of one triangle it is above, and each triangle keeps
// its furthest point, in a heap: finding the next point costs a logarithm of the triangle count,
// and re-assigning the points of the triangles a point removes touches only those points, so
// the expected time is O(n log n) (Barber, Dobkin, Huhdanpaa 1996, for random and spherical
// input).
func quickHull(pts []mgl64.Vec3, eps, flat float64) (tris, adj [][3]int32, err error) {
	n := len(pts)
	if n < 4 {
		return nil, nil, fieldErrorf("ConvexHull.points", "need at least 4 distinct points, got %d", n)
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
		return nil, nil, fieldErrorf("ConvexHull.points", "are all coincident (within %g m)", eps)
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
		return nil, nil, fieldErrorf("ConvexHull.points", "are collinear (within %g m)", flat)
	}
	pn := pts[i1].Sub(pts[i0]).Cross(pts[i2].Sub(pts[i0])).Normalize()
	i3, best := -1, flat
	for i, p := range pts {
		if d := math.Abs(p.Sub(pts[i0]).Dot(pn)); d > best {
			i3, best = i, d
		}
	}
	if i3 < 0 {
		return nil, nil, fieldErrorf("ConvexHull.points", "are coplanar (within %g m): a hull needs volume", flat)
	}
	work := make([]hullTri, 0, 4*n)
	next := make([]int32, n) // conflict lists: the point after each (+1; 0 ends)
	addTri := func(a, b, c int32) int {
		pa, pb, pc := pts[a], pts[b], pts[c]
		nn := pb.Sub(pa).Cross(pc.Sub(pa))
		nu, _ := unit(nn)
		work = append(work, hullTri{v: [3]int32{a, b, c}, n: nu, d: nu.Dot(pa), alive: true, far: -1, mark: -1})
		return len(work) - 1
	}
	var queue hullQueue
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
		assignConflict(work, next, []int{0, 1, 2, 3}, pts, int32(i), eps)
	}
	for t := range work {
		if work[t].far >= 0 {
			queue.push(work, t)
		}
	}
	// Neighbours across each edge of the tetrahedron.
	for t := range work {
		for e := 0; e < 3; e++ {
			x, y := work[t].v[e], work[t].v[(e+1)%3]
			for u := range work {
				for k := 0; k < 3; k++ {
					if work[u].v[k] == y && work[u].v[(k+1)%3] == x {
						work[t].adj[e] = int32(u)
					}
				}
			}
		}
	}
	// fanFrom[a] is, while a point's fan is built, the new triangle over the horizon edge that
	// starts at vertex a.
	fanFrom := make([]int32, n)
	for i := range fanFrom {
		fanFrom[i] = -1
	}
	type horizonEdge struct {
		a, b int32
		out  int32 // the triangle across the edge, which stays
		back int   // the edge of out that faces the visible side
	}
	var visible []int
	var horizon []horizonEdge
	var orphans []int32
	var fresh []int
	for iter := 0; ; iter++ {
		// Pick the triangle with the furthest conflict point (lowest index on ties).
		ft := -1
		for len(queue) > 0 {
			if t := queue.pop(work); work[t].alive {
				ft = t
				break
			}
		}
		if ft < 0 {
			break
		}
		fp := work[ft].far
		eye := pts[fp]
		// Flood the triangles visible from the eye point.
		visible = visible[:0]
		visible = append(visible, ft)
		work[ft].mark = int32(iter)
		for k := 0; k < len(visible); k++ {
			t := visible[k]
			for e := 0; e < 3; e++ {
				nb := work[t].adj[e]
				if work[nb].mark == int32(iter) {
					continue
				}
				if eye.Dot(work[nb].n)-work[nb].d > eps {
					work[nb].mark = int32(iter)
					visible = append(visible, int(nb))
				}
			}
		}
		// Horizon: edges of visible triangles whose neighbour is not visible.
		horizon = horizon[:0]
		for _, t := range visible {
			v := work[t].v
			for e := 0; e < 3; e++ {
				nb := work[t].adj[e]
				if work[nb].mark == int32(iter) {
					continue
				}
				back := -1
				for k := 0; k < 3; k++ {
					if work[nb].adj[k] == int32(t) && work[nb].v[k] == v[(e+1)%3] {
						back = k
					}
				}
				if back < 0 {
					return nil, nil, fieldErrorf("ConvexHull.points", "hull construction lost its surface (numerically degenerate input)")
				}
				horizon = append(horizon, horizonEdge{a: v[e], b: v[(e+1)%3], out: nb, back: back})
			}
		}
		orphans = orphans[:0]
		for _, t := range visible {
			work[t].alive = false
			for k := work[t].outside; k > 0; k = next[k-1] {
				if p := k - 1; p != fp {
					orphans = append(orphans, p)
				}
			}
			work[t].outside = 0
		}
		// A fan of new triangles (a, b, eye) over the horizon, stitched to the triangles beyond
		// it and to each other.
		fresh = fresh[:0]
		degenerate := false
		for _, e := range horizon {
			t := addTri(e.a, e.b, fp)
			work[t].adj[0] = e.out
			work[e.out].adj[e.back] = int32(t)
			if fanFrom[e.a] >= 0 {
				degenerate = true
			}
			fanFrom[e.a] = int32(t)
			fresh = append(fresh, t)
		}
		for _, t := range fresh {
			next := fanFrom[work[t].v[1]]
			if next < 0 {
				degenerate = true
				continue
			}
			work[t].adj[1] = next
			work[next].adj[2] = int32(t)
		}
		for _, e := range horizon {
			fanFrom[e.a] = -1
		}
		if degenerate {
			return nil, nil, fieldErrorf("ConvexHull.points", "hull construction found a horizon that is not a loop (numerically degenerate input)")
		}
		// Each point goes to the fresh triangle it is furthest above, whatever the order.
		for _, p := range orphans {
			assignConflict(work, next, fresh, pts, p, eps)
		}
		for _, t := range fresh {
			if work[t].far >= 0 {
				queue.push(work, t)
			}
		}
		if iter > 4*n+16 {
			return nil, nil, fieldErrorf("ConvexHull.points", "hull construction did not converge (numerically degenerate input)")
		}
	}
	// The live triangles, numbered in order, and their neighbours in that numbering.
	index := make([]int32, len(work))
	for t := range work {
		if work[t].alive {
			index[t] = int32(len(tris))
			tris = append(tris, work[t].v)
		}
	}
	adj = make([][3]int32, len(tris))
	for t := range work {
		if work[t].alive {
			a := work[t].adj
			adj[index[t]] = [3]int32{index[a[0]], index[a[1]], index[a[2]]}
		}
	}
	return tris, adj, nil
}

// assignConflict puts point p on the conflict list of the candidate triangle it is furthest
// above (by more than eps); points above none are inside and dropped. next links the lists.
func assignConflict(tris []hullTri, next []int32, cands []int, pts []mgl64.Vec3, p int32, eps float64) {
	best, bd := -1, eps
	for _, t := range cands {
		if d := pts[p].Dot(tris[t].n) - tris[t].d; d > bd {
			best, bd = t, d
		}
	}
	if best >= 0 {
		t := &tris[best]
		next[p] = t.outside
		t.outside = p + 1
		if bd > t.farD || (bd == t.farD && p < t.far) || t.far < 0 {
			t.far, t.farD = p, bd
		}
	}
}
