package collide

import (
	"math"

	"github.com/go-gl/mathgl/mgl64"
)

// The generic convex pair routine serves the pairs that involve a cylinder: a cylinder against a
// capsule, a box, a hull, another cylinder or one triangle of a mesh. It works in two stages.
//
// The axis: GJK on the shapes' cores (a capsule's core is its segment, the others are their own
// cores) gives the exact distance and closest points of a separated pair. GJK cannot measure an
// overlap, so an intersecting pair takes the separating-axis test instead: the separation
// min_B(L·x) − max_A(L·x) is evaluated on a candidate set (the face normals of a box or hull, the
// axes of cylinders and capsules, their cross products with each other and with the polytope's
// edges, the line between the centres and its parts normal to each axis, the directions from a
// cylinder's axis to the polytope's vertices), and the best candidate is refined by a pattern
// search on the sphere of directions, since a rim against an edge or a vertex has its axis in
// no finite set. The result is the least-overlap axis: exact when it is a candidate (every
// resting configuration of flat or parallel features), and a local optimum otherwise.
//
// The manifold: each shape's feature along the axis (a face polygon, a cylinder cap as the
// 16-gon inscribed in its rim, a segment, or a point) is projected on the plane normal to the
// axis and clipped against the other's; each clipped vertex gives a contact with both surfaces'
// heights along the axis.

// featureCos is the cosine above which a face (or a cylinder cap) faces the contact axis closely
// enough to be clipped as a polygon; it matches parallelSine for segments.
var featureCos = math.Sqrt(1 - parallelSine*parallelSine)

// maxFeaturePoints bounds a contact feature's polygon; larger hull faces are subsampled.
const maxFeaturePoints = 16

// maxConvexClip bounds the clipped polygon (a 16-gon clipped by a 16-gon has at most 32
// vertices).
const maxConvexClip = 2 * maxFeaturePoints

// satRefineIterations bounds the pattern search that refines the separating axis.
const satRefineIterations = 80

// convexKind says what a convexShape is.
type convexKind uint8

// The convex shape kinds of the generic routine.
const (
	convexCylinder convexKind = iota
	convexCapsule
	convexPoly // a box, a hull or a mesh triangle
)

// convexShape is a placed convex shape as the generic routine sees it.
type convexShape struct {
	kind   convexKind
	f      frame
	cyl    *Cylinder
	cap    *Capsule
	poly   placedPoly
	tri    bool       // poly is a mesh triangle (no edges list; one face)
	e0, e1 mgl64.Vec3 // a capsule's core segment (world)
	radius float64    // a capsule's radius: the rounding of its core
	center mgl64.Vec3 // an interior point (world)
	scale  float64    // a length scale for tolerances
}

// cylinderConvex returns the view of a placed cylinder.
func cylinderConvex(c *Cylinder, pose Pose) convexShape {
	return convexShape{kind: convexCylinder, f: pose.frame(), cyl: c, center: pose.Position, scale: min(c.Radius, c.HalfHeight)}
}

// capsuleConvex returns the view of a placed capsule.
func capsuleConvex(c *Capsule, pose Pose) convexShape {
	e0, e1 := capsuleEnds(c, pose)
	return convexShape{kind: convexCapsule, f: pose.frame(), cap: c, e0: e0, e1: e1, radius: c.Radius, center: pose.Position, scale: c.Radius}
}

// polyConvex returns the view of a placed box, hull or triangle; center is an interior point
// in the local frame (for a triangle, its centroid).
func polyConvex(pp placedPoly, center mgl64.Vec3, tri bool) convexShape {
	return convexShape{kind: convexPoly, f: pp.f, poly: pp, tri: tri, center: pp.f.apply(center), scale: pp.p.minExtent}
}

// gjk returns the GJK view of the shape's core.
func (s *convexShape) gjk() gjkShape {
	switch s.kind {
	case convexCylinder:
		return cylinderGJK(s.cyl, &s.f)
	case convexCapsule:
		return pointsGJK(s.e0, s.e1)
	}
	if s.tri {
		v := s.poly.p.verts
		return pointsGJK(s.f.apply(v[0]), s.f.apply(v[1]), s.f.apply(v[2]))
	}
	return s.poly.gjk()
}

// support returns the world point of the shape furthest along the world direction d.
func (s *convexShape) support(d mgl64.Vec3) mgl64.Vec3 {
	switch s.kind {
	case convexCylinder:
		return s.f.apply(s.cyl.Support(s.f.invRotate(d)))
	case convexCapsule:
		e := s.e1
		if d.Dot(s.e1.Sub(s.e0)) < 0 {
			e = s.e0
		}
		return madd(e, unitOr(d, mgl64.Vec3{0, 0, 1}), s.radius)
	}
	return s.f.apply(s.poly.p.verts[s.poly.p.support(s.f.invRotate(d))])
}

// axis returns the world axis of a cylinder or capsule.
func (s *convexShape) axis() mgl64.Vec3 { return s.f.axis[2] }

// separation returns min_B(L·x) − max_A(L·x) for the unit world axis L.
func separation(A, B *convexShape, L mgl64.Vec3) float64 {
	return B.support(L.Mul(-1)).Dot(L) - A.support(L).Dot(L)
}

// convexAxis is the contact axis of a pair: the unit normal n from A to B, the signed gap along
// it and a point of each surface realising it.
type convexAxis struct {
	n, pa, pb mgl64.Vec3
	gap       float64
}

// findConvexAxis returns the contact axis of A and B (see the comment at the top of the file),
// and false when the pair is farther apart than margin.
func findConvexAxis(A, B *convexShape, margin float64) (convexAxis, bool) {
	ga, gb := A.gjk(), B.gjk()
	r := gjkDistance(&ga, &gb, B.center.Sub(A.center))
	rr := A.radius + B.radius
	tol := 1e-9 * (A.scale + B.scale)
	if !r.intersects && r.distance-rr > tol {
		if r.distance-rr > margin {
			return convexAxis{}, false
		}
		if n, ok := unit(r.pb.Sub(r.pa)); ok {
			return convexAxis{n: n, pa: madd(r.pa, n, A.radius), pb: madd(r.pb, n, -B.radius), gap: r.distance - rr}, true
		}
	}
	n, sep := satAxis(A, B)
	if sep < 0 {
		n, sep = projectAxis(A, B, n, sep)
	}
	if sep > margin {
		return convexAxis{}, false
	}
	pa := A.support(n)
	return convexAxis{n: n, pa: pa, pb: madd(pa, n, sep), gap: sep}, true
}

// satAxis returns the axis of largest separation (least overlap), oriented from A to B, and the
// separation along it.
func satAxis(A, B *convexShape) (mgl64.Vec3, float64) {
	// The three best starting axes, best first.
	var top [satStarts]mgl64.Vec3
	var topSep [satStarts]float64
	for i := range topSep {
		top[i], topSep[i] = mgl64.Vec3{0, 0, 1}, math.Inf(-1)
	}
	keep := func(u mgl64.Vec3, s float64) {
		for i := range top {
			if s > topSep[i] {
				copy(top[i+1:], top[i:satStarts-1])
				copy(topSep[i+1:], topSep[i:satStarts-1])
				top[i], topSep[i] = u, s
				return
			}
		}
	}
	try := func(l mgl64.Vec3) {
		u, ok := unit(l)
		if !ok {
			return
		}
		keep(u, separation(A, B, u))
		keep(u.Mul(-1), separation(A, B, u.Mul(-1)))
	}
	for _, l := range satSphere {
		keep(l, separation(A, B, l))
	}
	c := B.center.Sub(A.center)
	try(c)
	for _, s := range [2]*convexShape{A, B} {
		switch s.kind {
		case convexCylinder, convexCapsule:
			ax := s.axis()
			if s.kind == convexCylinder {
				try(ax)
			}
			try(madd(c, ax, -c.Dot(ax)))
		case convexPoly:
			for _, f := range s.poly.p.faces {
				try(s.f.rotate(f.normal))
			}
		}
	}
	// Cross products of the axes with each other and with the polytope's edges, and the
	// directions from a cylinder's or capsule's axis to the polytope's vertices.
	for i, s := range [2]*convexShape{A, B} {
		o := B
		if i == 1 {
			o = A
		}
		if s.kind == convexPoly {
			continue
		}
		ax := s.axis()
		switch o.kind {
		case convexCylinder, convexCapsule:
			if i == 0 {
				try(ax.Cross(o.axis()))
			}
		case convexPoly:
			forEachPolyEdge(o, func(a, b mgl64.Vec3) {
				try(ax.Cross(b.Sub(a)))
			})
			for _, v := range o.poly.p.verts {
				w := o.f.apply(v).Sub(s.center)
				try(madd(w, ax, -w.Dot(ax)))
			}
		}
	}
	best, bestSep := top[0], topSep[0]
	for i := range top {
		if math.IsInf(topSep[i], -1) {
			break
		}
		if l, sep := refineAxis(A, B, top[i], topSep[i]); sep > bestSep {
			best, bestSep = l, sep
		}
	}
	return best, bestSep
}

// projectAxis improves the axis n of an overlapping pair by projection: B is moved along n just
// far enough to separate, GJK's closest points then give the normal of the Minkowski difference
// at the point nearest to the move, which becomes the next axis while it overlaps less. This
// follows the piecewise-linear support functions of polytopes, whose kinks stall the pattern
// search.
func projectAxis(A, B *convexShape, n mgl64.Vec3, sep float64) (mgl64.Vec3, float64) {
	ga := A.gjk()
	for it := 0; it < 16; it++ {
		shift := n.Mul(-sep + 1e-3*(A.scale+B.scale))
		gb := B.gjk()
		gb.f.pos = gb.f.pos.Add(shift)
		for i := 0; i < gb.n; i++ {
			gb.pts[i] = gb.pts[i].Add(shift)
		}
		r := gjkDistance(&ga, &gb, n)
		if r.intersects {
			break
		}
		m, ok := unit(r.pb.Sub(r.pa))
		if !ok {
			break
		}
		s := separation(A, B, m)
		if !(s > sep+1e-12*(A.scale+B.scale)) {
			break
		}
		n, sep = m, s
	}
	return n, sep
}

// satStarts is how many of the best candidate axes the pattern search refines: a rim against a
// rim or a rounded core has local optima of the separation besides the global one.
const satStarts = 3

// satSphere holds 64 directions spread evenly over the sphere (a Fibonacci lattice), candidate
// axes that put a start near every optimum the named candidates miss.
var satSphere = func() [64]mgl64.Vec3 {
	var d [64]mgl64.Vec3
	golden := math.Pi * (3 - math.Sqrt(5))
	for i := range d {
		z := 1 - 2*(float64(i)+0.5)/float64(len(d))
		r := math.Sqrt(1 - z*z)
		d[i] = mgl64.Vec3{r * math.Cos(golden*float64(i)), r * math.Sin(golden*float64(i)), z}
	}
	return d
}()

// forEachPolyEdge calls fn with the world end points of every edge of a polytope view (every
// loop edge of a triangle, which lists none).
func forEachPolyEdge(s *convexShape, fn func(a, b mgl64.Vec3)) {
	p := &s.poly.p
	if len(p.edges) > 0 {
		for _, e := range p.edges {
			fn(s.f.apply(p.verts[e.v[0]]), s.f.apply(p.verts[e.v[1]]))
		}
		return
	}
	for f := range p.faces {
		loop := p.loop(f)
		for k := range loop {
			fn(s.f.apply(p.verts[loop[k]]), s.f.apply(p.verts[loop[(k+1)%len(loop)]]))
		}
	}
}

// refineAxis improves the separating axis l by a pattern search: it tries turning l by ±step
// about two tangent directions, keeps any improvement and halves the step when none helps.
func refineAxis(A, B *convexShape, l mgl64.Vec3, sep float64) (mgl64.Vec3, float64) {
	step := 0.05
	for it := 0; it < satRefineIterations && step > 1e-9; it++ {
		t1, t2 := tangentBasis(l)
		improved := false
		for _, d := range [4]mgl64.Vec3{t1, t1.Mul(-1), t2, t2.Mul(-1)} {
			u, ok := unit(madd(l, d, step))
			if !ok {
				continue
			}
			if s := separation(A, B, u); s > sep {
				l, sep, improved = u, s, true
				break
			}
		}
		if !improved {
			step *= 0.5
		}
	}
	return l, sep
}

// contactFeature is the part of a shape's surface facing a contact axis, in world space: a point
// (n = 1), a segment (n = 2) or a convex polygon (n >= 3, with its plane's normal).
type contactFeature struct {
	p      [maxFeaturePoints]mgl64.Vec3
	vid    [maxFeaturePoints]Feature // the feature of each point
	eid    [maxFeaturePoints]Feature // the feature of the edge from point i to point i+1
	n      int
	face   Feature    // the polygon's face, or the segment's feature
	normal mgl64.Vec3 // the polygon's outward normal
	skip   uint32     // polygon edges not to clip at (internal mesh edges)
}

// featureAlong returns the feature of s furthest along the unit world direction d.
func (s *convexShape) featureAlong(d mgl64.Vec3) contactFeature {
	var cf contactFeature
	switch s.kind {
	case convexCylinder:
		c := s.cyl
		dl := s.f.invRotate(d)
		switch {
		case math.Abs(dl[2]) >= featureCos:
			base, face := 0, FaceFeature(1)
			if dl[2] < 0 {
				base, face = cylinderRimSamples, FaceFeature(2)
			}
			for k := 0; k < cylinderRimSamples; k++ {
				// Counter-clockwise seen from outside the cap.
				j := k
				if dl[2] < 0 {
					j = (cylinderRimSamples - k) % cylinderRimSamples
				}
				cf.p[k] = s.f.apply(c.rimPoint(base + j))
				cf.vid[k] = VertexFeature(base + j)
				cf.eid[k] = EdgeFeature(2 + base + j)
			}
			cf.n, cf.face, cf.normal = cylinderRimSamples, face, s.f.rotate(mgl64.Vec3{0, 0, sign(dl[2])})
		case math.Abs(dl[2]) <= parallelSine:
			u := unitOr(mgl64.Vec3{dl[0], dl[1], 0}, mgl64.Vec3{1, 0, 0}).Mul(c.Radius)
			cf.p[0] = s.f.apply(mgl64.Vec3{u[0], u[1], c.HalfHeight})
			cf.p[1] = s.f.apply(mgl64.Vec3{u[0], u[1], -c.HalfHeight})
			cf.vid[0], cf.vid[1] = EdgeFeature(0), EdgeFeature(1)
			cf.n, cf.face = 2, FaceFeature(0)
		default:
			p := c.Support(dl)
			cf.p[0] = s.f.apply(p)
			cf.vid[0] = EdgeFeature(0)
			if p[2] < 0 {
				cf.vid[0] = EdgeFeature(1)
			}
			cf.n, cf.face = 1, cf.vid[0]
		}
	case convexCapsule:
		u := s.e1.Sub(s.e0)
		if math.Abs(u.Dot(d)) <= parallelSine*length(u) && length(u) > 0 {
			cf.p[0], cf.p[1] = madd(s.e0, d, s.radius), madd(s.e1, d, s.radius)
			cf.vid[0], cf.vid[1] = VertexFeature(0), VertexFeature(1)
			cf.n, cf.face = 2, FaceFeature(0)
			return cf
		}
		cf.p[0] = s.support(d)
		t := 0.0
		if cf.p[0].Sub(s.center).Dot(u) > 0 {
			t = 1
		}
		cf.vid[0] = capsuleParamFeature(s.cap, t)
		cf.n, cf.face = 1, cf.vid[0]
	case convexPoly:
		s.polyFeatureAlong(d, &cf)
	}
	return cf
}

// polyFeatureAlong fills cf with the face of a polytope whose normal is within featureCos of
// d, else the edge nearly normal to d at the support vertex, else that vertex.
func (s *convexShape) polyFeatureAlong(d mgl64.Vec3, cf *contactFeature) {
	p := &s.poly.p
	dl := s.f.invRotate(d)
	bestFace, bestCos := -1, featureCos
	for i, f := range p.faces {
		if c := f.normal.Dot(dl); c >= bestCos {
			bestFace, bestCos = i, c
		}
	}
	if bestFace >= 0 {
		loop := p.loop(bestFace)
		step := 1
		for len(loop)/step > maxFeaturePoints {
			step++
		}
		var edges []int32
		if len(p.faceEdges) > 0 {
			edges = p.loopEdges(bestFace)
		}
		for k := 0; k < len(loop) && cf.n < maxFeaturePoints; k += step {
			cf.p[cf.n] = s.f.apply(p.verts[loop[k]])
			cf.vid[cf.n] = VertexFeature(int(loop[k]))
			cf.eid[cf.n] = FaceFeature(bestFace) // a chord of a subsampled face
			if step == 1 && edges != nil {
				cf.eid[cf.n] = EdgeFeature(int(edges[k]))
			}
			cf.n++
		}
		cf.face, cf.normal = FaceFeature(bestFace), s.f.rotate(p.faces[bestFace].normal)
		return
	}
	v := p.support(dl)
	top := p.verts[v].Dot(dl)
	// The edge at the support vertex that stays highest along d.
	bestOther, bestEdge, bestH := -1, Feature(0), math.Inf(-1)
	for f := range p.faces {
		loop := p.loop(f)
		for k := range loop {
			if int(loop[k]) != v {
				continue
			}
			for _, j := range [2]int{(k + 1) % len(loop), (k + len(loop) - 1) % len(loop)} {
				o := int(loop[j])
				if h := p.verts[o].Dot(dl); h > bestH {
					// Loop edge ek runs from loop[ek] to loop[ek+1].
					ek := k
					if j != (k+1)%len(loop) {
						ek = j
					}
					bestOther, bestEdge, bestH = o, EdgeFeature(int(p.loopEdges(f)[ek])), h
				}
			}
		}
	}
	cf.p[0], cf.vid[0] = s.f.apply(p.verts[v]), VertexFeature(v)
	if bestOther >= 0 {
		e := p.verts[bestOther].Sub(p.verts[v])
		if top-bestH <= parallelSine*length(e) {
			cf.p[1], cf.vid[1] = s.f.apply(p.verts[bestOther]), VertexFeature(bestOther)
			cf.n, cf.face = 2, bestEdge
			return
		}
	}
	cf.n, cf.face = 1, cf.vid[0]
}

// featureClip is a vertex of the clipped polygon in the projection plane, with the features that
// made it and those of the edge leaving it (A's edge or face, B's edge or face and B's edge
// index, −1 for B's face).
type featureClip struct {
	q          [2]float64
	fa, fb     Feature
	outA, outB Feature
	outBIdx    int
}

// convexContacts adds to cs the contacts of A and B along the axis ax: the features of A along
// n and of B along −n, clipped against each other in the plane normal to n. It falls back to the
// single contact of the axis when the features give none or miss the deepest point.
func convexContacts(A, B *convexShape, ax convexAxis, margin float64, cs *candidates) {
	fa, fb := A.featureAlong(ax.n), B.featureAlong(ax.n.Mul(-1))
	clipFeatures(&fa, &fb, ax, margin, cs)
	tol := 1e-3 * min(A.scale, B.scale)
	minGap := math.Inf(1)
	for i := 0; i < cs.n; i++ {
		minGap = min(minGap, cs.c[i].Gap)
	}
	if cs.n > 0 && minGap <= ax.gap+tol {
		return
	}
	if ax.gap > margin {
		return
	}
	pa, pb := ax.pa, ax.pb
	id := MakeFeatureID(fa.face, fb.face)
	switch {
	case fa.n == 1:
		pa, pb = fa.p[0], madd(fa.p[0], ax.n, ax.gap)
		id = MakeFeatureID(fa.vid[0], fb.face)
	case fb.n == 1:
		pa, pb = madd(fb.p[0], ax.n, -ax.gap), fb.p[0]
		id = MakeFeatureID(fa.face, fb.vid[0])
	}
	cs.addUnique(contactBetween(pa, pb, ax.n, id), tol)
}

// clipFeatures adds the contacts of the features fa (of A) and fb (of B) along ax.n.
func clipFeatures(fa, fb *contactFeature, ax convexAxis, margin float64, cs *candidates) {
	n := ax.n
	t1, t2 := tangentBasis(n)
	proj := func(p mgl64.Vec3) [2]float64 { return [2]float64{p.Dot(t1), p.Dot(t2)} }
	lift := func(q [2]float64, h float64) mgl64.Vec3 {
		return madd(madd(t1.Mul(q[0]), t2, q[1]), n, h)
	}
	// planeHeight is the height along n of the polygon's plane above the projected point q.
	planeHeight := func(f *contactFeature, q [2]float64) float64 {
		m := f.normal
		base := madd(t1.Mul(q[0]), t2, q[1])
		return m.Dot(f.p[0].Sub(base)) / m.Dot(n)
	}
	emit := func(pa, pb mgl64.Vec3, id FeatureID) {
		c := contactBetween(pa, pb, n, id)
		if c.Gap <= margin {
			cs.add(c)
		}
	}
	switch {
	case fa.n == 1 || fb.n == 1:
		return // the single contact of the axis (convexContacts)
	case fa.n >= 3 && fb.n >= 3:
		var bufA, bufB [maxConvexClip]featureClip
		poly, next := &bufA, &bufB
		cnt := 0
		for i := 0; i < fa.n; i++ {
			poly[cnt] = featureClip{q: proj(fa.p[i]), fa: fa.vid[i], fb: fb.face, outA: fa.eid[i], outB: fb.face, outBIdx: -1}
			cnt++
		}
		orient := polygonOrientation(fb, proj)
		for j := 0; j < fb.n && cnt > 0; j++ {
			if j < 32 && fb.skip&(1<<j) != 0 {
				continue
			}
			a, b := proj(fb.p[j]), proj(fb.p[(j+1)%fb.n])
			side := func(q [2]float64) float64 {
				return orient * ((b[0]-a[0])*(q[1]-a[1]) - (b[1]-a[1])*(q[0]-a[0]))
			}
			m := 0
			for v := 0; v < cnt; v++ {
				cur, nxt := poly[v], poly[(v+1)%cnt]
				dc, dn := side(cur.q), side(nxt.q)
				if dc >= 0 {
					next[m] = cur
					m++
				}
				if (dc >= 0) != (dn >= 0) && m < maxConvexClip {
					t := dc / (dc - dn)
					x := featureClip{q: [2]float64{cur.q[0] + t*(nxt.q[0]-cur.q[0]), cur.q[1] + t*(nxt.q[1]-cur.q[1])}}
					if cur.outBIdx < 0 {
						x.fa, x.fb = cur.outA, fb.eid[j]
					} else {
						corner := j
						if cur.outBIdx == (j+1)%fb.n {
							corner = (j + 1) % fb.n
						}
						x.fa, x.fb = fa.face, fb.vid[corner]
					}
					if dc >= 0 {
						x.outA, x.outB, x.outBIdx = fa.face, fb.eid[j], j
					} else {
						x.outA, x.outB, x.outBIdx = cur.outA, cur.outB, cur.outBIdx
					}
					next[m] = x
					m++
				}
			}
			poly, next, cnt = next, poly, m
		}
		for v := 0; v < cnt; v++ {
			q := poly[v].q
			emit(lift(q, planeHeight(fa, q)), lift(q, planeHeight(fb, q)), MakeFeatureID(poly[v].fa, poly[v].fb))
		}
	case fa.n >= 3 || fb.n >= 3:
		poly, seg, segIsA := fa, fb, false
		if fb.n >= 3 {
			poly, seg, segIsA = fb, fa, true
		}
		s0, s1 := proj(seg.p[0]), proj(seg.p[1])
		lo, hi := 0.0, 1.0
		loF, hiF := seg.vid[0], seg.vid[1]
		pairF := [2]Feature{poly.face, poly.face}
		orient := polygonOrientation(poly, proj)
		for j := 0; j < poly.n && lo <= hi; j++ {
			if j < 32 && poly.skip&(1<<j) != 0 {
				continue
			}
			a, b := proj(poly.p[j]), proj(poly.p[(j+1)%poly.n])
			side := func(q [2]float64) float64 {
				return orient * ((b[0]-a[0])*(q[1]-a[1]) - (b[1]-a[1])*(q[0]-a[0]))
			}
			d0, d1 := side(s0), side(s1)
			switch {
			case d0 < 0 && d1 < 0:
				lo, hi = 1, 0
			case d0 < 0:
				if t := d0 / (d0 - d1); t > lo {
					lo, loF, pairF[0] = t, seg.face, poly.eid[j]
				}
			case d1 < 0:
				if t := d0 / (d0 - d1); t < hi {
					hi, hiF, pairF[1] = t, seg.face, poly.eid[j]
				}
			}
		}
		if lo > hi {
			return
		}
		for i, t := range [2]float64{lo, hi} {
			if i == 1 && (hi-lo)*length(seg.p[1].Sub(seg.p[0])) <= 1e-12 {
				break
			}
			ps := lerp(seg.p[0], seg.p[1], t)
			q := proj(ps)
			pp := lift(q, planeHeight(poly, q))
			sf := loF
			if i == 1 {
				sf = hiF
			}
			if segIsA {
				emit(ps, pp, MakeFeatureID(sf, pairF[i]))
			} else {
				emit(pp, ps, MakeFeatureID(pairF[i], sf))
			}
		}
	default:
		// Two segments.
		a0, a1, b0, b1 := proj(fa.p[0]), proj(fa.p[1]), proj(fb.p[0]), proj(fb.p[1])
		da := [2]float64{a1[0] - a0[0], a1[1] - a0[1]}
		db := [2]float64{b1[0] - b0[0], b1[1] - b0[1]}
		la, lb := math.Hypot(da[0], da[1]), math.Hypot(db[0], db[1])
		cross := da[0]*db[1] - da[1]*db[0]
		if la == 0 || lb == 0 {
			return
		}
		if math.Abs(cross) > parallelSine*la*lb {
			// Crossing in projection: one contact where they cross.
			w := [2]float64{b0[0] - a0[0], b0[1] - a0[1]}
			s := (w[0]*db[1] - w[1]*db[0]) / cross
			t := (w[0]*da[1] - w[1]*da[0]) / cross
			if s < 0 || s > 1 || t < 0 || t > 1 {
				return
			}
			emit(lerp(fa.p[0], fa.p[1], s), lerp(fb.p[0], fb.p[1], t), MakeFeatureID(fa.face, fb.face))
			return
		}
		// Nearly parallel: the ends of the overlap along A's segment.
		par := func(q [2]float64, o, d [2]float64, l float64) float64 {
			return ((q[0]-o[0])*d[0] + (q[1]-o[1])*d[1]) / (l * l)
		}
		sb0, sb1 := par(b0, a0, da, la), par(b1, a0, da, la)
		lo, hi := max(0, min(sb0, sb1)), min(1, max(sb0, sb1))
		if lo > hi {
			return
		}
		for i, s := range [2]float64{lo, hi} {
			if i == 1 && (hi-lo)*la <= 1e-12 {
				break
			}
			pa := lerp(fa.p[0], fa.p[1], s)
			t := clamp(par(proj(pa), b0, db, lb), 0, 1)
			emit(pa, lerp(fb.p[0], fb.p[1], t), MakeFeatureID(fa.vid[i], fb.face))
		}
	}
}

// polygonOrientation returns +1 when the projected polygon f runs counter-clockwise, −1 when
// clockwise, so that side tests are positive inside.
func polygonOrientation(f *contactFeature, proj func(mgl64.Vec3) [2]float64) float64 {
	area := 0.0
	for i := 0; i < f.n; i++ {
		a, b := proj(f.p[i]), proj(f.p[(i+1)%f.n])
		area += a[0]*b[1] - a[1]*b[0]
	}
	if area < 0 {
		return -1
	}
	return 1
}
