package collide

import (
	"math"

	"github.com/go-gl/mathgl/mgl64"
)

// gjkMaxIterations bounds the GJK loop (it converges in a handful of iterations for polytopes).
const gjkMaxIterations = 64

// gjkRelTolerance stops GJK once the lower and upper distance bounds agree to this fraction.
const gjkRelTolerance = 1e-12

// gjkKind selects how a gjkShape answers support queries.
type gjkKind uint8

// The GJK shape kinds.
const (
	gjkPoints   gjkKind = iota // a point, segment or triangle given by its vertices (world)
	gjkBox                     // a box with half extents h at frame f
	gjkHull                    // a convex hull at frame f
	gjkCylinder                // a cylinder at frame f
)

// gjkShape is a convex set in world space that GJK can query. It is a concrete type (not an
// interface) so queries stay allocation-free.
type gjkShape struct {
	kind gjkKind
	h    mgl64.Vec3
	f    frame
	pts  [3]mgl64.Vec3
	n    int
	hull *ConvexHull
	cyl  *Cylinder
}

// hullGJK returns the gjkShape of a placed hull.
func hullGJK(h *ConvexHull, f *frame) gjkShape {
	return gjkShape{kind: gjkHull, f: *f, hull: h}
}

// cylinderGJK returns the gjkShape of a placed cylinder.
func cylinderGJK(c *Cylinder, f *frame) gjkShape {
	return gjkShape{kind: gjkCylinder, f: *f, cyl: c}
}

// boxGJK returns the gjkShape of a placed box.
func boxGJK(h mgl64.Vec3, f *frame) gjkShape {
	return gjkShape{kind: gjkBox, h: h, f: *f}
}

// pointsGJK returns the gjkShape of up to three world points.
func pointsGJK(p ...mgl64.Vec3) gjkShape {
	g := gjkShape{kind: gjkPoints, n: len(p)}
	copy(g.pts[:], p)
	return g
}

// supportWorld returns the point of the set furthest along the world direction d.
func (g *gjkShape) supportWorld(d mgl64.Vec3) mgl64.Vec3 {
	switch g.kind {
	case gjkBox:
		l := g.f.invRotate(d)
		return g.f.apply(mgl64.Vec3{supportSign(l[0]) * g.h[0], supportSign(l[1]) * g.h[1], supportSign(l[2]) * g.h[2]})
	case gjkHull:
		return g.f.apply(g.hull.Support(g.f.invRotate(d)))
	case gjkCylinder:
		return g.f.apply(g.cyl.Support(g.f.invRotate(d)))
	}
	best := 0
	bd := g.pts[0].Dot(d)
	for i := 1; i < g.n; i++ {
		if v := g.pts[i].Dot(d); v > bd {
			best, bd = i, v
		}
	}
	return g.pts[best]
}

// simplexVertex is a vertex of the GJK simplex: w = a − b with a on A and b on B.
type simplexVertex struct {
	w, a, b mgl64.Vec3
}

// gjkResult is the outcome of a GJK distance query.
type gjkResult struct {
	distance   float64
	pa, pb     mgl64.Vec3 // closest points on A and B (world)
	intersects bool       // the sets overlap (distance 0; pa, pb meaningless)
}

// gjkDistance returns the distance and closest points between two convex sets. hint is an
// initial search direction (the difference of the centres is a good choice).
func gjkDistance(A, B *gjkShape, hint mgl64.Vec3) gjkResult {
	var s [4]simplexVertex
	n := 0
	d := unitOr(hint, mgl64.Vec3{1, 0, 0})
	// First vertex: extreme along −d on the difference A − B (points from A towards B).
	a := A.supportWorld(d)
	b := B.supportWorld(d.Mul(-1))
	s[0] = simplexVertex{w: a.Sub(b), a: a, b: b}
	n = 1
	v := s[0].w
	var lam [4]float64
	lam[0] = 1
	best := math.Inf(1)
	for it := 0; it < gjkMaxIterations; it++ {
		vv := v.Dot(v)
		if vv <= 1e-30 {
			return gjkResult{intersects: true}
		}
		a := A.supportWorld(v.Mul(-1))
		b := B.supportWorld(v)
		w := a.Sub(b)
		if vv-v.Dot(w) <= gjkRelTolerance*vv {
			break
		}
		dup := false
		for i := 0; i < n; i++ {
			if s[i].w == w {
				dup = true
			}
		}
		if dup {
			break
		}
		prevS, prevN, prevLam := s, n, lam
		s[n] = simplexVertex{w: w, a: a, b: b}
		n++
		var inside bool
		n, lam, inside = closestOnSimplex(&s, n)
		if inside {
			return gjkResult{intersects: true}
		}
		nv := mgl64.Vec3{}
		for i := 0; i < n; i++ {
			nv = madd(nv, s[i].w, lam[i])
		}
		nvv := nv.Dot(nv)
		if nvv >= best || nvv >= vv {
			// No progress (rounding): keep the previous simplex, which is the better estimate.
			s, n, lam = prevS, prevN, prevLam
			break
		}
		best = nvv
		v = nv
	}
	var pa, pb mgl64.Vec3
	for i := 0; i < n; i++ {
		pa = madd(pa, s[i].a, lam[i])
		pb = madd(pb, s[i].b, lam[i])
	}
	return gjkResult{distance: length(pa.Sub(pb)), pa: pa, pb: pb}
}

// closestOnSimplex reduces the simplex to the smallest sub-simplex containing the point closest
// to the origin and returns its size, the barycentric weights, and whether the origin lies
// inside a full tetrahedron.
func closestOnSimplex(s *[4]simplexVertex, n int) (int, [4]float64, bool) {
	var lam [4]float64
	switch n {
	case 1:
		lam[0] = 1
		return 1, lam, false
	case 2:
		return closestOnSegment0(s, 0, 1)
	case 3:
		return closestOnTriangle0(s, 0, 1, 2)
	}
	// Tetrahedron: the origin is inside unless it is beyond some face (away from the 4th vertex).
	faces := [4][4]int{{0, 1, 2, 3}, {0, 1, 3, 2}, {0, 2, 3, 1}, {1, 2, 3, 0}}
	bestD := math.Inf(1)
	var bestS [4]simplexVertex
	bestN := 0
	var bestLam [4]float64
	outsideAny := false
	for _, f := range faces {
		p0, p1, p2, p3 := s[f[0]].w, s[f[1]].w, s[f[2]].w, s[f[3]].w
		nrm := p1.Sub(p0).Cross(p2.Sub(p0))
		so := -p0.Dot(nrm)        // side of the origin
		s3 := p3.Sub(p0).Dot(nrm) // side of the fourth vertex
		if so*s3 >= 0 && s3 != 0 {
			continue
		}
		outsideAny = true
		t := [4]simplexVertex{s[f[0]], s[f[1]], s[f[2]]}
		m, l, _ := closestOnTriangle0(&t, 0, 1, 2)
		var p mgl64.Vec3
		for i := 0; i < m; i++ {
			p = madd(p, t[i].w, l[i])
		}
		if d := p.Dot(p); d < bestD {
			bestD, bestS, bestN, bestLam = d, t, m, l
		}
	}
	if !outsideAny {
		return 4, lam, true
	}
	*s = bestS
	return bestN, bestLam, false
}

// closestOnSegment0 finds the point of segment (s[i], s[j]) closest to the origin, compacting
// the simplex to the vertices used.
func closestOnSegment0(s *[4]simplexVertex, i, j int) (int, [4]float64, bool) {
	var lam [4]float64
	a, b := s[i].w, s[j].w
	ab := b.Sub(a)
	den := ab.Dot(ab)
	t := 0.0
	if den > 0 {
		t = -a.Dot(ab) / den
	}
	switch {
	case t <= 0:
		s[0] = s[i]
		lam[0] = 1
		return 1, lam, false
	case t >= 1:
		s[0] = s[j]
		lam[0] = 1
		return 1, lam, false
	}
	s[0], s[1] = s[i], s[j]
	lam[0], lam[1] = 1-t, t
	return 2, lam, false
}

// closestOnTriangle0 finds the point of triangle (s[i], s[j], s[k]) closest to the origin by
// Voronoi regions, compacting the simplex to the vertices used.
func closestOnTriangle0(s *[4]simplexVertex, i, j, k int) (int, [4]float64, bool) {
	var lam [4]float64
	A, B, C := s[i], s[j], s[k]
	a, b, c := A.w, B.w, C.w
	ab, ac := b.Sub(a), c.Sub(a)
	ap := a.Mul(-1)
	d1, d2 := ab.Dot(ap), ac.Dot(ap)
	if d1 <= 0 && d2 <= 0 {
		s[0] = A
		lam[0] = 1
		return 1, lam, false
	}
	bp := b.Mul(-1)
	d3, d4 := ab.Dot(bp), ac.Dot(bp)
	if d3 >= 0 && d4 <= d3 {
		s[0] = B
		lam[0] = 1
		return 1, lam, false
	}
	vc := d1*d4 - d3*d2
	if vc <= 0 && d1 >= 0 && d3 <= 0 {
		t := d1 / (d1 - d3)
		s[0], s[1] = A, B
		lam[0], lam[1] = 1-t, t
		return 2, lam, false
	}
	cp := c.Mul(-1)
	d5, d6 := ab.Dot(cp), ac.Dot(cp)
	if d6 >= 0 && d5 <= d6 {
		s[0] = C
		lam[0] = 1
		return 1, lam, false
	}
	vb := d5*d2 - d1*d6
	if vb <= 0 && d2 >= 0 && d6 <= 0 {
		t := d2 / (d2 - d6)
		s[0], s[1] = A, C
		lam[0], lam[1] = 1-t, t
		return 2, lam, false
	}
	va := d3*d6 - d5*d4
	if va <= 0 && d4-d3 >= 0 && d5-d6 >= 0 {
		t := (d4 - d3) / ((d4 - d3) + (d5 - d6))
		s[0], s[1] = B, C
		lam[0], lam[1] = 1-t, t
		return 2, lam, false
	}
	den := va + vb + vc
	if den == 0 {
		// Degenerate (collinear) triangle: fall back to its longest edge.
		s[0], s[1], s[2] = A, B, C
		best, bi, bj := -1.0, 0, 1
		for _, e := range [3][2]int{{0, 1}, {0, 2}, {1, 2}} {
			if l := s[e[0]].w.Sub(s[e[1]].w).LenSqr(); l > best {
				best, bi, bj = l, e[0], e[1]
			}
		}
		return closestOnSegment0(s, bi, bj)
	}
	v, w := vb/den, vc/den
	s[0], s[1], s[2] = A, B, C
	lam[0], lam[1], lam[2] = 1-v-w, v, w
	return 3, lam, false
}
