package collide

import (
	"math"
	"slices"

	"github.com/go-gl/mathgl/mgl64"
)

// maxClipVertices bounds the polygon clipping buffers; incident faces with more than half as
// many vertices are subsampled (an inner approximation of the face).
const maxClipVertices = 64

// placedPoly is a box or hull at a pose, as seen by the polyhedral pair routine.
type placedPoly struct {
	p    polytope
	f    frame
	box  *Box        // set for a box
	hull *ConvexHull // set for a hull
}

// gjk returns the GJK view of the placed shape.
func (pp *placedPoly) gjk() gjkShape {
	if pp.box != nil {
		return boxGJK(pp.box.HalfExtents, &pp.f)
	}
	return hullGJK(pp.hull, &pp.f)
}

// featureAt returns the feature holding the local surface point q, the closest point to the
// outside local point other.
func (pp *placedPoly) featureAt(q, other mgl64.Vec3) Feature {
	if pp.box != nil {
		return boxClosestFeature(pp.box.HalfExtents, other)
	}
	return pp.hull.featureAt(q)
}

// relFrame returns the frame of b expressed in a's local frame.
func relFrame(a, b *frame) frame {
	return frame{
		axis: [3]mgl64.Vec3{a.invRotate(b.axis[0]), a.invRotate(b.axis[1]), a.invRotate(b.axis[2])},
		pos:  a.applyInv(b.pos),
	}
}

// polyPoly collides two convex polyhedra by the separating-axis test over both shapes' face
// normals and the edge pairs that form faces of the Minkowski difference (Gauss-map test),
// then clips the incident face against the reference face, or returns the closest points of
// an edge pair. Separated pairs whose axis does not give the distance use GJK.
func polyPoly(A, B *placedPoly, margin float64, prev *Manifold, out *Manifold) {
	ba := relFrame(&A.f, &B.f) // B in A's frame
	ab := relFrame(&B.f, &A.f) // A in B's frame

	faceA, sepA := -1, math.Inf(-1)
	for i, f := range A.p.faces {
		v := ba.apply(B.p.verts[B.p.support(ba.invRotate(f.normal.Mul(-1)))])
		s := f.normal.Dot(v) - f.offset
		if s > margin {
			return
		}
		if s > sepA {
			faceA, sepA = i, s
		}
	}
	faceB, sepB := -1, math.Inf(-1)
	for j, f := range B.p.faces {
		v := ab.apply(A.p.verts[A.p.support(ab.invRotate(f.normal.Mul(-1)))])
		s := f.normal.Dot(v) - f.offset
		if s > margin {
			return
		}
		if s > sepB {
			faceB, sepB = j, s
		}
	}
	edgeA, edgeB, sepE := -1, -1, math.Inf(-1)
	var axisE mgl64.Vec3
	for jb, eb := range B.p.edges {
		b0, b1 := ba.apply(B.p.verts[eb.v[0]]), ba.apply(B.p.verts[eb.v[1]])
		c := ba.rotate(B.p.faces[eb.f[0]].normal).Mul(-1)
		d := ba.rotate(B.p.faces[eb.f[1]].normal).Mul(-1)
		dirB := b1.Sub(b0)
		dc := d.Cross(c)
		for ia := range A.p.edges {
			ea := &A.p.edges[ia]
			// Gauss-map test: do the arcs (a, b) of A's edge and (c, d) of B's edge cross?
			cba, dba := c.Dot(ea.arc), d.Dot(ea.arc)
			if cba*dba >= 0 {
				continue
			}
			a, b := A.p.faces[ea.f[0]].normal, A.p.faces[ea.f[1]].normal
			adc, bdc := a.Dot(dc), b.Dot(dc)
			if !(adc*bdc < 0 && cba*bdc > 0) {
				continue
			}
			a0, a1 := A.p.verts[ea.v[0]], A.p.verts[ea.v[1]]
			dirA := a1.Sub(a0)
			l := dirA.Cross(dirB)
			ll := l.Len()
			if ll <= 1e-6*dirA.Len()*dirB.Len() {
				continue
			}
			l = l.Mul(1 / ll)
			if l.Dot(a0.Sub(A.p.center)) < 0 {
				l = l.Mul(-1)
			}
			s := l.Dot(b0.Sub(a0))
			if s > margin {
				return
			}
			if s > sepE {
				edgeA, edgeB, sepE, axisE = ia, jb, s, l
			}
		}
	}

	scale := min(A.p.minExtent, B.p.minExtent)
	refIsA, refFace, faceSep := true, faceA, sepA
	if sepB > sepA+boxFaceTolerance*scale {
		refIsA, refFace, faceSep = false, faceB, sepB
	}
	bestIsA, bestFace := refIsA, refFace // the least penetrating face
	if prev != nil && prev.Count > 0 {
		switch prev.Reference.Kind {
		case ReferenceFaceA:
			if f := prev.Reference.A; f.Type() == FeatureFace && f.Index() < len(A.p.faces) {
				face := A.p.faces[f.Index()]
				v := ba.apply(B.p.verts[B.p.support(ba.invRotate(face.normal.Mul(-1)))])
				if s := face.normal.Dot(v) - face.offset; s >= faceSep-boxHysteresis*scale {
					refIsA, refFace, faceSep = true, f.Index(), s
				}
			}
		case ReferenceFaceB:
			if f := prev.Reference.B; f.Type() == FeatureFace && f.Index() < len(B.p.faces) {
				face := B.p.faces[f.Index()]
				v := ab.apply(A.p.verts[A.p.support(ab.invRotate(face.normal.Mul(-1)))])
				if s := face.normal.Dot(v) - face.offset; s >= faceSep-boxHysteresis*scale {
					refIsA, refFace, faceSep = false, f.Index(), s
				}
			}
		}
	}
	var cs candidates
	clip := func(refIsA bool, refFace int, floor bool) Reference {
		if refIsA {
			return polyFaceContact(A, B, &ba, refFace, true, floor, 0, margin, &cs)
		}
		return polyFaceContact(B, A, &ab, refFace, false, floor, 0, margin, &cs)
	}
	alongEdge := false // the face was chosen for an edge axis near it
	if edgeA >= 0 && sepE > faceSep+boxEdgeTolerance*scale {
		if sepE > 0 {
			clip(refIsA, refFace, false) // the points over the face, for polyClosest
		}
		if sepE > 0 && !polyClosest(A, B, margin, &cs, out) {
			return // separated (touching: handled as overlapping, see boxBox)
		}
		cs.n = 0
		isA, f, s, ok := polyFaceAlong(A, B, &ba, &ab, axisE, eitherShape)
		if !ok {
			polyEdgeContact(A, B, edgeA, edgeB, A.f.rotate(axisE), margin, out)
			if out.Count == 0 || sepE > 0 || edgeCrossing(A, B, out.Points[0], scale) {
				return
			}
			// The edges' closest points lie in neither polytope: the edges do not cross where
			// the axis says (two cards' ends crossing in an X). Clip the least penetrating face
			// if that finds the overlap.
			if ref := clip(bestIsA, bestFace, true); cs.n > 0 {
				// Replace the edge contact, keeping the pair's motion for the reduction.
				out.Count, out.Normal, out.Reference = 0, cs.c[0].Normal, ref
				cs.emit(out.Normal, out)
			}
			return
		}
		// Nearly parallel faces overlapping: clip the face (see boxBox).
		refIsA, refFace, faceSep, alongEdge = isA, f, s, true
	}
	ref := clip(refIsA, refFace, alongEdge)
	if alongEdge && cs.n > 0 && cs.c[cs.deepest()].Gap > sepE+boxEdgeTolerance*scale {
		// The clip does not reach the overlap the edge axis measures: it lies beyond the face's
		// sides, where the edges cross (a hull sank 1.3 cm into another in the 100-body pile),
		// and the edge pair's contact holds it.
		polyEdgeContact(A, B, edgeA, edgeB, A.f.rotate(axisE), margin, out)
		if out.Count > 0 && edgeCrossing(A, B, out.Points[0], scale) {
			return
		}
		out.Count = 0
	}
	if cs.n == 0 && alongEdge {
		// No point of the other shape's face lies over that face and within its shape: they
		// cross at the face's end (two cards' ends in an X). The other shape's face along the
		// axis, or a face along the reversed axis (the side of A that B's centre is on, as boxBox
		// picks it), may hold the overlap.
		only := onlyA
		if refIsA {
			only = onlyB
		}
		if isA, f, _, ok := polyFaceAlong(A, B, &ba, &ab, axisE, only); ok {
			ref = clip(isA, f, true)
		}
		if isA, f, _, ok := polyFaceAlong(A, B, &ba, &ab, axisE.Mul(-1), eitherShape); cs.n == 0 && ok {
			ref = clip(isA, f, true)
		}
	}
	if cs.n == 0 && alongEdge && (bestIsA != refIsA || bestFace != refFace) {
		// Still nothing: clip the least penetrating face (see boxBox).
		ref = clip(bestIsA, bestFace, true)
	}
	if faceSep > 0 {
		minGap := math.Inf(1)
		for i := 0; i < cs.n; i++ {
			minGap = min(minGap, cs.c[i].Gap)
		}
		ga, gb := A.gjk(), B.gjk()
		r := gjkDistance(&ga, &gb, B.f.pos.Sub(A.f.pos))
		if !r.intersects && (cs.n == 0 || minGap > r.distance+1e-9*scale) {
			polyClosest(A, B, margin, &cs, out)
			return
		}
	}
	if cs.n == 0 {
		if edgeA >= 0 {
			// Overlapping, with no point of the incident face over the reference face: the
			// overlap is where edges cross. The least penetrating edge pair gives the contact
			// (a hull sank 2.5 cm into another with no contact at all).
			polyEdgeContact(A, B, edgeA, edgeB, A.f.rotate(axisE), margin, out)
		}
		return
	}
	out.Normal = cs.c[0].Normal
	out.Reference = ref
	cs.emit(out.Normal, out)
}

// polyClip is a vertex of the incident polygon during clipping (see clipVertex).
type polyClip struct {
	p        mgl64.Vec3 // reference frame
	ref, inc Feature
	onInc    bool    // the leaving edge lies on an incident edge (else on a side plane)
	edge     Feature // that incident edge
	side     int     // for a side-plane edge: the reference loop position of the plane
}

// polyFaceContact clips the incident face of inc against face refFace of ref and adds the
// clipped vertices within the margin to cs, with clipFloor only those within ref's extent along
// the face's normal (not beyond its far side). ir is inc's frame in ref's local frame. refIsA
// orients normals and feature ids for the pair (A, B). Bit k of skip leaves out the side plane
// of the reference loop's edge k (internal mesh edges that are flat or concave).
func polyFaceContact(ref, inc *placedPoly, ir *frame, refFace int, refIsA, clipFloor bool, skip uint32, margin float64, cs *candidates) Reference {
	rf := ref.p.faces[refFace]
	n := rf.normal
	// Incident face: of the faces at inc's deepest vertex along −n, the most anti-parallel to n.
	// On a box that is the most anti-parallel face of all; on a hull the most anti-parallel face
	// can lie away from the deepest vertex, and clipping it would leave the deepest points out.
	deepest := int32(inc.p.support(ir.invRotate(n.Mul(-1))))
	incFace, best := 0, math.Inf(1)
	for j, f := range inc.p.faces {
		if d := ir.rotate(f.normal).Dot(n); d < best && slices.Contains(inc.p.loop(j), deepest) {
			incFace, best = j, d
		}
	}
	var bufA, bufB [maxClipVertices]polyClip
	poly, next := &bufA, &bufB
	iloop, iedges := inc.p.loop(incFace), inc.p.loopEdges(incFace)
	step := 1
	for len(iloop)/step > maxClipVertices/2 {
		step++
	}
	cnt := 0
	for k := 0; k < len(iloop); k += step {
		e := iedges[k]
		if step > 1 {
			e = -1 // a chord of the face, not an edge
		}
		edgeF := Feature(0)
		if e >= 0 {
			edgeF = EdgeFeature(int(e))
		}
		poly[cnt] = polyClip{p: ir.apply(inc.p.verts[iloop[k]]), ref: FaceFeature(refFace), inc: VertexFeature(int(iloop[k])), onInc: true, edge: edgeF}
		cnt++
	}
	rloop, redges := ref.p.loop(refFace), ref.p.loopEdges(refFace)
	slop := boxClipSlop * ref.p.minExtent
	nr := len(rloop)
	for k := 0; k < nr && cnt > 0; k++ {
		if k < 32 && skip&(1<<k) != 0 {
			continue
		}
		a, b := ref.p.verts[rloop[k]], ref.p.verts[rloop[(k+1)%nr]]
		sn, ok := unit(b.Sub(a).Cross(n))
		if !ok {
			continue
		}
		limit := sn.Dot(a) + slop
		m := 0
		for v := 0; v < cnt; v++ {
			cur, nxt := poly[v], poly[(v+1)%cnt]
			dc, dn := sn.Dot(cur.p)-limit, sn.Dot(nxt.p)-limit
			if dc <= 0 {
				next[m] = cur
				m++
			}
			if (dc <= 0) != (dn <= 0) && m < maxClipVertices {
				x := polyClip{p: lerp(cur.p, nxt.p, dc/(dc-dn))}
				if cur.onInc {
					x.ref = EdgeFeature(int(redges[k]))
					x.inc = cur.edge
				} else {
					corner := rloop[k]
					if cur.side == (k+1)%nr {
						corner = rloop[(k+1)%nr]
					}
					x.ref = VertexFeature(int(corner))
					x.inc = FaceFeature(incFace)
				}
				if dc <= 0 {
					x.onInc, x.side = false, k
				} else {
					x.onInc, x.edge, x.side = cur.onInc, cur.edge, cur.side
				}
				next[m] = x
				m++
			}
		}
		poly, next, cnt = next, poly, m
	}
	nw := ref.f.rotate(n)
	normal := nw
	if !refIsA {
		normal = nw.Mul(-1)
	}
	floor := math.Inf(-1)
	if clipFloor {
		// A point deeper than the reference polytope's extent along −n is beyond its far side,
		// not in it (see boxBox).
		floor = n.Dot(ref.p.verts[ref.p.support(n.Mul(-1))]) - rf.offset
	}
	for v := 0; v < cnt; v++ {
		p := poly[v].p
		gap := n.Dot(p) - rf.offset
		if gap > margin || gap < floor {
			continue
		}
		id := MakeFeatureID(poly[v].ref, poly[v].inc)
		if !refIsA {
			id = id.Swap()
		}
		cs.add(Contact{Point: ref.f.apply(madd(p, n, -0.5*gap)), Normal: normal, Gap: gap, Feature: id})
	}
	if refIsA {
		return Reference{Kind: ReferenceFaceA, A: FaceFeature(refFace), B: FaceFeature(incFace)}
	}
	return Reference{Kind: ReferenceFaceB, A: FaceFeature(incFace), B: FaceFeature(refFace)}
}

// edgeCrossing reports whether the penetrating edge contact c of A and B is where the edges
// cross: one of its two points (c's point moved half its gap either way along the normal) lies
// in the other polytope, to a hundredth of the smaller one's least extent scale.
func edgeCrossing(A, B *placedPoly, c Contact, scale float64) bool {
	onA, onB := c.Point.Sub(c.Normal.Mul(0.5*c.Gap)), c.Point.Add(c.Normal.Mul(0.5*c.Gap))
	return polyDepth(B, onA) <= 0.01*scale || polyDepth(A, onB) <= 0.01*scale
}

// polyDepth returns the largest signed distance of the world point w from P's face planes: at
// most 0 inside P, and a lower bound on the distance outside.
func polyDepth(P *placedPoly, w mgl64.Vec3) float64 { return P.p.planeDepth(P.f.applyInv(w)) }

// polyEdgeContact adds the single contact of an edge pair along the world axis n (A → B).
func polyEdgeContact(A, B *placedPoly, ea, eb int, n mgl64.Vec3, margin float64, out *Manifold) {
	e1, e2 := A.p.edges[ea], B.p.edges[eb]
	a0, a1 := A.f.apply(A.p.verts[e1.v[0]]), A.f.apply(A.p.verts[e1.v[1]])
	b0, b1 := B.f.apply(B.p.verts[e2.v[0]]), B.f.apply(B.p.verts[e2.v[1]])
	s, t := closestSegmentSegment(a0, a1, b0, b1)
	c := contactBetween(lerp(a0, a1, s), lerp(b0, b1, t), n, MakeFeatureID(EdgeFeature(ea), EdgeFeature(eb)))
	if c.Gap > margin {
		return
	}
	out.Normal = n
	out.Reference = Reference{Kind: ReferenceEdges, A: EdgeFeature(ea), B: EdgeFeature(eb)}
	out.add(c)
}

// polyClosest adds the contacts of two separated polyhedra as boxBoxClosest does (also for
// touching and clipped).
func polyClosest(A, B *placedPoly, margin float64, clipped *candidates, out *Manifold) (touching bool) {
	ga, gb := A.gjk(), B.gjk()
	r := gjkDistance(&ga, &gb, B.f.pos.Sub(A.f.pos))
	if r.intersects {
		return true
	}
	if r.distance > margin {
		return false
	}
	n, ok := unit(r.pb.Sub(r.pa))
	if !ok {
		return true
	}
	id := MakeFeatureID(A.featureAt(A.f.applyInv(r.pa), A.f.applyInv(r.pb)), B.featureAt(B.f.applyInv(r.pb), B.f.applyInv(r.pa)))
	nA, nB := A.f.invRotate(n), B.f.invRotate(n)
	refIsA, face, best := true, -1, faceContactCos
	for i, f := range A.p.faces {
		if c := f.normal.Dot(nA); c >= best {
			face, best = i, c
		}
	}
	for j, f := range B.p.faces {
		if c := -f.normal.Dot(nB); c > best {
			refIsA, face, best = false, j, c
		}
	}
	closest := Contact{Point: lerp(r.pa, r.pb, 0.5), Normal: n, Gap: r.distance, Feature: id}
	if face < 0 {
		tiltedContacts(A, B, closest, margin, nil, clipped, out)
		return false
	}
	var cs candidates
	var ref Reference
	if refIsA {
		ba := relFrame(&A.f, &B.f)
		ref = polyFaceContact(A, B, &ba, face, true, false, 0, margin, &cs)
	} else {
		ab := relFrame(&B.f, &A.f)
		ref = polyFaceContact(B, A, &ab, face, false, false, 0, margin, &cs)
	}
	if cs.n > 0 && speculativeFace(&cs, r.pa, r.pb, id, min(A.p.minExtent, B.p.minExtent), margin, out) {
		out.Reference = ref
		return false
	}
	tiltedContacts(A, B, closest, margin, &out.motion, clipped, out)
	return false
}

// polyFaceAlong returns the face of A (isA) or of B whose outward normal lies within
// faceContactCos of the edge axis l (A frame, oriented A → B; B's faces against it), with its
// separation, if there is one. ba and ab are each shape's frame in the other's. With onlyB or
// onlyA it looks at that shape's faces alone.
func polyFaceAlong(A, B *placedPoly, ba, ab *frame, l mgl64.Vec3, only int) (isA bool, face int, sep float64, ok bool) {
	best := faceContactCos
	if only != onlyB {
		for i, f := range A.p.faces {
			if c := f.normal.Dot(l); c >= best {
				v := ba.apply(B.p.verts[B.p.support(ba.invRotate(f.normal.Mul(-1)))])
				isA, face, sep, ok, best = true, i, f.normal.Dot(v)-f.offset, true, c
			}
		}
	}
	if only != onlyA {
		for j, f := range B.p.faces {
			if c := -ba.rotate(f.normal).Dot(l); c > best {
				v := ab.apply(A.p.verts[A.p.support(ab.invRotate(f.normal.Mul(-1)))])
				isA, face, sep, ok, best = false, j, f.normal.Dot(v)-f.offset, true, c
			}
		}
	}
	return isA, face, sep, ok
}

// The shapes polyFaceAlong looks at.
const (
	eitherShape = iota
	onlyA
	onlyB
)
