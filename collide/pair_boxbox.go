package collide

import (
	"math"

	"github.com/go-gl/mathgl/mgl64"
)

// Tolerances of the box–box routine, relative to the smallest half extent of the pair.
const (
	// boxFaceTolerance: B's face axis replaces A's only when it separates more by this much.
	boxFaceTolerance = 1e-3
	// boxEdgeTolerance: an edge axis replaces the face axis only when it separates more by
	// this much (face contacts are more stable).
	boxEdgeTolerance = 1e-3
	// boxHysteresis: last step's reference face is kept while it is within this much of the
	// best face axis.
	boxHysteresis = 5e-3
	// boxClipSlop: incident vertices this far outside the reference face are kept as vertices
	// rather than clipped, so tiny jitter does not change the feature ids of a resting box.
	boxClipSlop = 1e-3
	// boxParallelEdges: edge pairs whose cross product is shorter than this are skipped (their
	// axis is covered by the face axes).
	boxParallelEdges = 1e-6
)

// boxBox collides two boxes by the separating-axis test over 15 axes (3 face normals of each,
// 9 edge crosses) followed by clipping the incident face against the reference face for a face
// axis, or a single closest-point contact for an edge axis. At most four points are kept (the
// largest area). prev's reference face is preferred while nearly as good.
func boxBox(a *Box, pa Pose, b *Box, pb Pose, margin float64, prev *Manifold, out *Manifold) {
	fa, fb := pa.frame(), pb.frame()
	ha, hb := a.HalfExtents, b.HalfExtents
	var R, absR [3][3]float64
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			R[i][j] = fa.axis[i].Dot(fb.axis[j])
			absR[i][j] = math.Abs(R[i][j])
		}
	}
	tw := fb.pos.Sub(fa.pos)
	t := mgl64.Vec3{fa.axis[0].Dot(tw), fa.axis[1].Dot(tw), fa.axis[2].Dot(tw)}

	var sepA, sepB [3]float64
	bestA, bestB := 0, 0
	for i := 0; i < 3; i++ {
		sepA[i] = math.Abs(t[i]) - (ha[i] + hb[0]*absR[i][0] + hb[1]*absR[i][1] + hb[2]*absR[i][2])
		if sepA[i] > margin {
			return
		}
		if sepA[i] > sepA[bestA] {
			bestA = i
		}
	}
	var tb mgl64.Vec3
	for j := 0; j < 3; j++ {
		tb[j] = t[0]*R[0][j] + t[1]*R[1][j] + t[2]*R[2][j]
		sepB[j] = math.Abs(tb[j]) - (ha[0]*absR[0][j] + ha[1]*absR[1][j] + ha[2]*absR[2][j] + hb[j])
		if sepB[j] > margin {
			return
		}
		if sepB[j] > sepB[bestB] {
			bestB = j
		}
	}
	edgeI, edgeJ, edgeSep := -1, -1, math.Inf(-1)
	var edgeL mgl64.Vec3 // A frame, unit, oriented A → B
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			c := mgl64.Vec3{R[0][j], R[1][j], R[2][j]}
			var l mgl64.Vec3
			switch i {
			case 0:
				l = mgl64.Vec3{0, -c[2], c[1]}
			case 1:
				l = mgl64.Vec3{c[2], 0, -c[0]}
			default:
				l = mgl64.Vec3{-c[1], c[0], 0}
			}
			ll := l.Len()
			if ll < boxParallelEdges {
				continue
			}
			l = l.Mul(1 / ll)
			rA := ha[0]*math.Abs(l[0]) + ha[1]*math.Abs(l[1]) + ha[2]*math.Abs(l[2])
			rB := 0.0
			for k := 0; k < 3; k++ {
				rB += hb[k] * math.Abs(l[0]*R[0][k]+l[1]*R[1][k]+l[2]*R[2][k])
			}
			tl := t.Dot(l)
			sep := math.Abs(tl) - rA - rB
			if sep > margin {
				return
			}
			if sep > edgeSep {
				edgeI, edgeJ, edgeSep = i, j, sep
				edgeL = l.Mul(sign(tl))
			}
		}
	}

	scale := min(min(ha[0], min(ha[1], ha[2])), min(hb[0], min(hb[1], hb[2])))
	refIsA, refAxis := true, bestA
	faceSep := sepA[bestA]
	if sepB[bestB] > faceSep+boxFaceTolerance*scale {
		refIsA, refAxis, faceSep = false, bestB, sepB[bestB]
	}
	bestIsA, bestAxis := refIsA, refAxis // the least penetrating face axis
	alongEdge := false                   // the face was chosen for an edge axis near it
	if prev != nil && prev.Count > 0 {
		switch prev.Reference.Kind {
		case ReferenceFaceA:
			f := prev.Reference.A
			if f.Type() == FeatureFace && f.Index() < 6 {
				k := f.Index() / 2
				if (f.Index()%2 == 1) == (t[k] < 0) && sepA[k] >= faceSep-boxHysteresis*scale {
					refIsA, refAxis, faceSep = true, k, sepA[k]
				}
			}
		case ReferenceFaceB:
			f := prev.Reference.B
			if f.Type() == FeatureFace && f.Index() < 6 {
				k := f.Index() / 2
				if (f.Index()%2 == 1) == (tb[k] > 0) && sepB[k] >= faceSep-boxHysteresis*scale {
					refIsA, refAxis, faceSep = false, k, sepB[k]
				}
			}
		}
	}

	var cs candidates
	clip := func(refIsA bool, refAxis int) Reference {
		if refIsA {
			return boxFaceContact(a, &fa, b, &fb, refAxis, t[refAxis] < 0, true, alongEdge, margin, &cs)
		}
		// B's face normal points from B towards A: against tb.
		return boxFaceContact(b, &fb, a, &fa, refAxis, tb[refAxis] > 0, false, alongEdge, margin, &cs)
	}
	if edgeI >= 0 && edgeSep > faceSep+boxEdgeTolerance*scale {
		if edgeSep > 0 {
			clip(refIsA, refAxis) // the points over the least separated face (boxBoxClosest)
		}
		if edgeSep > 0 && !boxBoxClosest(a, &fa, b, &fb, margin, &cs, out) {
			// Separated: the edge axis only bounds the distance; the exact closest points
			// made the contact. (Touching, the distance query finds no separation and the edge
			// axis's is rounding: the boxes are handled as overlapping.)
			return
		}
		cs.n = 0
		isA, k, ok := boxFaceAlong(edgeL, &R)
		if !ok {
			boxEdgeContact(a, &fa, b, &fb, edgeI, edgeJ, edgeL, margin, out)
			return
		}
		// Overlapping along an edge axis that is nearly a face normal: the faces are nearly
		// parallel (a card lying on a card), and a single edge point would let the rest of the
		// face sink. Clip that face instead (faceContactCos), keeping only points within the
		// reference box: where the incident face runs steeply under the reference face's end (two
		// cards' ends crossing in an X), a point deeper than the reference box's thickness is
		// beyond its far face, and its gap would be a phantom penetration of centimetres.
		refIsA, refAxis, alongEdge = isA, k, true
		if isA {
			faceSep = sepA[k]
		} else {
			faceSep = sepB[k]
		}
	}
	ref := clip(refIsA, refAxis)
	if alongEdge && cs.n > 0 && cs.c[cs.deepest()].Gap > edgeSep+boxEdgeTolerance*scale {
		// The clip does not reach the overlap the edge axis measures: it lies beyond the face's
		// sides, where the edges cross, and the edge pair's contact holds it (see polyPoly).
		boxEdgeContact(a, &fa, b, &fb, edgeI, edgeJ, edgeL, margin, out)
		if out.Count > 0 && boxEdgeCrossing(ha, &fa, hb, &fb, out.Points[0], scale) {
			return
		}
		out.Count = 0
	}
	if cs.n == 0 && alongEdge && (bestIsA != refIsA || bestAxis != refAxis) {
		// No point of the incident face lies over the face near the edge axis and within the
		// reference box: the two cross at that face's end. Clip the least penetrating face.
		ref = clip(bestIsA, bestAxis)
	}
	if cs.n == 0 {
		if faceSep > 0 {
			// Separated with the faces not overlapping (corner to corner): closest points.
			boxBoxClosest(a, &fa, b, &fb, margin, nil, out)
		} else if edgeI >= 0 {
			// Overlapping where edges cross, no point of the incident face over the reference
			// face: the least penetrating edge pair gives the contact (see polyPoly).
			boxEdgeContact(a, &fa, b, &fb, edgeI, edgeJ, edgeL, margin, out)
		}
		return
	}
	if faceSep > 0 {
		// Separated: the face axis only bounds the distance from below. If the clipped face
		// contact does not reach the exact distance (the closest features are edges or
		// vertices beyond the reference face), use the exact closest points instead.
		minGap := math.Inf(1)
		for i := 0; i < cs.n; i++ {
			minGap = min(minGap, cs.c[i].Gap)
		}
		// A clipped point projects inside the reference face, so the distance is at most
		// minGap; the face axis bounds it below by faceSep. Only when the two differ can the
		// face contact miss the exact distance.
		if minGap > faceSep+1e-9*scale {
			ga, gb := boxGJK(ha, &fa), boxGJK(hb, &fb)
			r := gjkDistance(&ga, &gb, tw)
			if !r.intersects && minGap > r.distance+1e-9*scale {
				boxBoxClosest(a, &fa, b, &fb, margin, &cs, out)
				return
			}
		}
	}
	out.Normal = cs.c[0].Normal
	out.Reference = ref
	cs.emit(out.Normal, out)
}

// clipVertex is a vertex of the incident polygon during clipping, with the features of the
// reference and incident boxes that made it and the origin of the polygon edge leaving it.
type clipVertex struct {
	p        mgl64.Vec3 // reference-box frame
	ref, inc Feature
	edgeInc  bool    // the leaving edge lies on an incident-box edge (else on a side plane)
	edge     Feature // that incident edge, or the reference side face
	side     [2]int  // for a side-plane edge: axis and sign (±1) of the side plane
}

// boxFaceContact clips the incident face of inc against the reference face of ref normal to
// refAxis (on the negative side when neg) and adds every clipped vertex within the margin to cs,
// with clipFloor only those within ref's thickness (not beyond its far face). refIsA says whether
// ref is shape A of the pair (normals and feature ids are oriented A → B). It returns the
// manifold's Reference.
func boxFaceContact(ref *Box, fr *frame, inc *Box, fi *frame, refAxis int, neg, refIsA, clipFloor bool, margin float64, cs *candidates) Reference {
	hr, hi := ref.HalfExtents, inc.HalfExtents
	sg := 1.0
	if neg {
		sg = -1
	}
	c := fr.applyInv(fi.pos)
	var bax [3]mgl64.Vec3
	for k := 0; k < 3; k++ {
		bax[k] = fr.invRotate(fi.axis[k])
	}
	// Incident face: the face of inc most anti-parallel to the reference normal.
	k := 0
	for m := 1; m < 3; m++ {
		if math.Abs(bax[m][refAxis]) > math.Abs(bax[k][refAxis]) {
			k = m
		}
	}
	sInc := -supportSign(sg * bax[k][refAxis])
	incFace := FaceFeature(boxFaceIndex(k, sInc))
	refFace := FaceFeature(boxFaceIndex(refAxis, sg))

	// Incident quad, in cyclic order, with the incident edges leaving each vertex.
	k1, k2 := (k+1)%3, (k+2)%3
	corners := [4][2]float64{{-1, -1}, {1, -1}, {1, 1}, {-1, 1}}
	var loc [4]mgl64.Vec3
	var bufA, bufB [8]clipVertex
	poly, next := &bufA, &bufB
	for v := 0; v < 4; v++ {
		loc[v][k] = sInc * hi[k]
		loc[v][k1] = corners[v][0] * hi[k1]
		loc[v][k2] = corners[v][1] * hi[k2]
	}
	for v := 0; v < 4; v++ {
		w := (v + 1) % 4
		p := c.Add(bax[0].Mul(loc[v][0])).Add(bax[1].Mul(loc[v][1])).Add(bax[2].Mul(loc[v][2]))
		mid := lerp(loc[v], loc[w], 0.5)
		axis := k1
		if loc[v][k1] == loc[w][k1] {
			axis = k2
		}
		poly[v] = clipVertex{p: p, ref: refFace, inc: VertexFeature(boxVertexIndex(loc[v])), edgeInc: true, edge: EdgeFeature(boxEdgeIndex(axis, mid))}
	}
	n := 4

	// Clip against the four side planes of the reference face.
	r1, r2 := (refAxis+1)%3, (refAxis+2)%3
	slop := boxClipSlop * min(hr[0], min(hr[1], hr[2]))
	for _, side := range [4][2]int{{r1, 1}, {r1, -1}, {r2, 1}, {r2, -1}} {
		j, s := side[0], float64(side[1])
		limit := hr[j] + slop
		m := 0
		for v := 0; v < n; v++ {
			cur, nxt := poly[v], poly[(v+1)%n]
			dc, dn := s*cur.p[j]-limit, s*nxt.p[j]-limit
			if dc <= 0 {
				next[m] = cur
				m++
			}
			if (dc <= 0) != (dn <= 0) {
				x := lerp(cur.p, nxt.p, dc/(dc-dn))
				x[j] = s * limit
				cv := clipVertex{p: x}
				// Feature of the crossing point: an incident edge through a reference side
				// edge, or (when the polygon edge lies on another side plane) a reference
				// face corner over the incident face.
				var corner mgl64.Vec3
				corner[refAxis] = sg
				corner[j] = s
				if cur.edgeInc {
					third := 3 - refAxis - j
					cv.ref = EdgeFeature(boxEdgeIndex(third, corner))
					cv.inc = cur.edge
				} else {
					corner[cur.side[0]] = float64(cur.side[1])
					cv.ref = VertexFeature(boxVertexIndex(corner))
					cv.inc = incFace
				}
				if dc <= 0 {
					// Leaving the slab: the new edge runs along this side plane.
					cv.edgeInc, cv.side = false, [2]int{j, side[1]}
				} else {
					// Entering: the edge continues along the current polygon edge.
					cv.edgeInc, cv.edge, cv.side = cur.edgeInc, cur.edge, cur.side
				}
				next[m] = cv
				m++
			}
		}
		poly, next, n = next, poly, m
		if n == 0 {
			break
		}
	}

	var nr mgl64.Vec3
	nr[refAxis] = sg
	nw := fr.rotate(nr)
	normal := nw
	if !refIsA {
		normal = nw.Mul(-1)
	}
	for v := 0; v < n; v++ {
		p := poly[v].p
		gap := sg*p[refAxis] - hr[refAxis]
		if gap > margin || clipFloor && gap < -2*hr[refAxis] {
			continue
		}
		point := fr.apply(madd(p, nr, -0.5*gap))
		id := MakeFeatureID(poly[v].ref, poly[v].inc)
		if !refIsA {
			id = id.Swap()
		}
		cs.add(Contact{Point: point, Normal: normal, Gap: gap, Feature: id})
	}
	if refIsA {
		return Reference{Kind: ReferenceFaceA, A: refFace, B: incFace}
	}
	return Reference{Kind: ReferenceFaceB, A: incFace, B: refFace}
}

// boxEdgeCrossing is edgeCrossing for two boxes of half extents ha, hb at frames fa, fb.
func boxEdgeCrossing(ha mgl64.Vec3, fa *frame, hb mgl64.Vec3, fb *frame, c Contact, scale float64) bool {
	onA, onB := c.Point.Sub(c.Normal.Mul(0.5*c.Gap)), c.Point.Add(c.Normal.Mul(0.5*c.Gap))
	return boxDepth(hb, fb, onA) <= 0.01*scale || boxDepth(ha, fa, onB) <= 0.01*scale
}

// boxDepth returns the largest signed distance of the world point w from the face planes of the
// box of half extents h at frame f: at most 0 inside, and a lower bound on the distance outside.
func boxDepth(h mgl64.Vec3, f *frame, w mgl64.Vec3) float64 {
	l := f.applyInv(w)
	return max(math.Abs(l[0])-h[0], math.Abs(l[1])-h[1], math.Abs(l[2])-h[2])
}

// boxEdgeContact adds the single contact of an edge–edge separating axis: edge i of A (axis
// direction) against edge j of B, along the unit axis l (A frame, oriented A → B).
func boxEdgeContact(a *Box, fa *frame, b *Box, fb *frame, i, j int, l mgl64.Vec3, margin float64, out *Manifold) {
	ha, hb := a.HalfExtents, b.HalfExtents
	n := fa.rotate(l)
	lb := fb.invRotate(n) // axis in B's frame
	// A's edge along axis i furthest along +n; B's edge along axis j furthest along −n.
	var qa0, qa1, qb0, qb1 mgl64.Vec3
	for k := 0; k < 3; k++ {
		if k == i {
			qa0[k], qa1[k] = -ha[k], ha[k]
		} else {
			qa0[k] = supportSign(l[k]) * ha[k]
			qa1[k] = qa0[k]
		}
		if k == j {
			qb0[k], qb1[k] = -hb[k], hb[k]
		} else {
			qb0[k] = -supportSign(lb[k]) * hb[k]
			qb1[k] = qb0[k]
		}
	}
	wa0, wa1 := fa.apply(qa0), fa.apply(qa1)
	wb0, wb1 := fb.apply(qb0), fb.apply(qb1)
	s, t := closestSegmentSegment(wa0, wa1, wb0, wb1)
	pA, pB := lerp(wa0, wa1, s), lerp(wb0, wb1, t)
	c := contactBetween(pA, pB, n, MakeFeatureID(EdgeFeature(boxEdgeIndex(i, qa0)), EdgeFeature(boxEdgeIndex(j, qb0))))
	if c.Gap > margin {
		return
	}
	out.Normal = n
	out.Reference = Reference{Kind: ReferenceEdges, A: c.Feature.A(), B: c.Feature.B()}
	out.add(c)
}

// boxBoxClosest adds the contacts of two separated boxes: the one between their exact closest
// points and, when the direction between them is within faceContactCos of a face normal of
// either box, the incident face clipped against that face (speculativeFace) or, if that clips to
// nothing, the contacts of the vertices near the other box that the pair's motion can close, and
// otherwise the contacts of all the vertices near the other box (tiltedContacts). It adds nothing
// beyond the margin, and nothing when the boxes touch: the distance query finds them overlapping
// or at zero distance, and it reports touching.
//
// clipped (nil for none) holds the points of a face clip that the exact closest points replace,
// lying nearer, beyond the clipped face on its edges or corners. Where the closest points' contact
// and the vertex contacts are written (tiltedContacts), the clipped points that the pair's motion
// can close join them: each lies over the reference face, its gap its exact distance from that
// face, so it holds no ghost. Without them a card falling edge first across another's corner, its
// closest points at the other's end edge and slanting away from its face, turned down onto that
// face over the corner, 5.2 mm deep (TestCardFallingAcrossACornerHoldsTheFace).
func boxBoxClosest(a *Box, fa *frame, b *Box, fb *frame, margin float64, clipped *candidates, out *Manifold) (touching bool) {
	ga, gb := boxGJK(a.HalfExtents, fa), boxGJK(b.HalfExtents, fb)
	r := gjkDistance(&ga, &gb, fb.pos.Sub(fa.pos))
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
	id := MakeFeatureID(boxClosestFeature(a.HalfExtents, fa.applyInv(r.pb)), boxClosestFeature(b.HalfExtents, fb.applyInv(r.pa)))
	// The face of A or B most nearly normal to n (B's faces against it).
	refIsA, axis, best := true, -1, faceContactCos
	for k := 0; k < 3; k++ {
		if c := math.Abs(n.Dot(fa.axis[k])); c >= best {
			axis, best = k, c
		}
	}
	for k := 0; k < 3; k++ {
		if c := math.Abs(n.Dot(fb.axis[k])); c > best {
			refIsA, axis, best = false, k, c
		}
	}
	closest := Contact{Point: lerp(r.pa, r.pb, 0.5), Normal: n, Gap: r.distance, Feature: id}
	if axis < 0 {
		var ta, tb boxTopology
		pa, pb := placedBox(a, fa, &ta), placedBox(b, fb, &tb)
		tiltedContacts(&pa, &pb, closest, margin, nil, clipped, out)
		return false
	}
	var cs candidates
	var ref Reference
	if refIsA {
		ref = boxFaceContact(a, fa, b, fb, axis, n.Dot(fa.axis[axis]) < 0, true, false, margin, &cs)
	} else {
		ref = boxFaceContact(b, fb, a, fa, axis, n.Dot(fb.axis[axis]) > 0, false, false, margin, &cs)
	}
	if cs.n > 0 && speculativeFace(&cs, r.pa, r.pb, id, min(minElem(a.HalfExtents), minElem(b.HalfExtents)), margin, out) {
		out.Reference = ref
		return false
	}
	var ta, tb boxTopology
	pa, pb := placedBox(a, fa, &ta), placedBox(b, fb, &tb)
	tiltedContacts(&pa, &pb, closest, margin, &out.motion, clipped, out)
	return false
}

// placedBox returns the polyhedral view of box b at frame f; t holds its topology.
func placedBox(b *Box, f *frame, t *boxTopology) placedPoly {
	return placedPoly{p: boxPolytope(b.HalfExtents, t), f: *f, box: b}
}

// faceContactCos (15°) decides when two polyhedra whose best axis is not a face normal are
// treated as a face contact all the same, so that the manifold clips a face instead of holding a
// single point: when they overlap along an edge–edge axis within it of a face normal (boxFaceAlong,
// polyFaceAlong), and when they are separated with their closest points along a direction within
// it of one (speculativeFace). One point cannot stop the rest of a nearly parallel face from
// sinking in: cards lying or falling on cards sank one to three centimetres a step.
const faceContactCos = 0.966

// speculativeFace completes the clipped face contacts cs of a separated pair with the contact of
// its exact closest points pa (on A) and pb (on B), expressed along the face's normal — its gap
// there, (pb − pa)·n, is at most their distance, so the constraint is the more conservative —
// and writes the reduced manifold to out. A single closest-point contact cannot stop the rest of
// a face from closing in: a card turning onto another card, whose far corner was outside the
// manifold, sank two centimetres into it in one step. It reports false, writing nothing, if the
// closest points' contact lies beyond the margin along the face's normal.
func speculativeFace(cs *candidates, pa, pb mgl64.Vec3, id FeatureID, scale, margin float64, out *Manifold) bool {
	n := cs.c[0].Normal
	gap := pb.Sub(pa).Dot(n)
	if gap > margin {
		return false
	}
	c := Contact{Point: lerp(pa, pb, 0.5), Normal: n, Gap: gap, Feature: id}
	same := -1
	for i := 0; i < cs.n; i++ {
		if cs.c[i].Feature == id {
			same = i
		}
	}
	switch {
	case same < 0:
		cs.addUnique(c, 1e-6*scale)
	case gap < cs.c[same].Gap:
		cs.c[same] = c // the same feature pair, found closer: one point per feature pair
	}
	out.Normal = n
	cs.emit(n, out)
	return true
}

// tiltedContacts writes the manifold of a separated pair A, B whose closest points lie along a
// direction too far from every face normal for speculativeFace (edge over edge, vertex over
// edge): the closest points' contact and, for every vertex of either shape within the margin of
// the other, the contact between that vertex and its closest point on the other shape, along their
// direction (vertexContacts), reduced as a face contact's along the closest points' direction.
// Each contact's gap is an exact distance between a point of one shape and the other shape, so its
// constraint holds no ghost. The closest points alone do not hold a turning body: a card falling
// edge first, its bottom edge 5 cm from another card's end edge and nearly parallel to it, turned
// about the one closest corner and sank 7 mm into the card at its edge's other end.
//
// With reach non-nil it keeps only the vertex contacts that the pair's motion over the step can
// close (pairMotion.reaches), for a pair whose closest points lie along a face's normal but
// whose incident face clips to nothing against that face, lying beyond its sides (boxBoxClosest,
// polyClosest): a card hanging with its bottom edge just over another card's top edge, turning
// as it fell, had only its closest point, and the solve turned it about that point and drove the
// edge's far end 8.9 mm into the other's face (TestCardFallingPastAnEdgeHoldsTheTurn). A pair at
// rest keeps the closest points' contact alone there.
//
// clipped (nil for none) holds a face clip's points (boxBoxClosest, polyClosest): those the pair's
// motion can close join the candidates, whatever reach is.
func tiltedContacts(A, B *placedPoly, closest Contact, margin float64, reach *pairMotion, clipped *candidates, out *Manifold) {
	var cs candidates
	cs.add(closest)
	vertexContacts(B, A, false, margin, reach, &cs)
	vertexContacts(A, B, true, margin, reach, &cs)
	if clipped != nil {
		for i := 0; i < clipped.n; i++ {
			if out.motion.reaches(&clipped.c[i]) {
				cs.add(clipped.c[i])
			}
		}
	}
	out.Normal = closest.Normal
	out.Reference = Reference{}
	cs.emit(closest.Normal, out)
}

// vertexContacts adds to cs, for every vertex of from outside to and within the margin of it, the
// contact between that vertex and its closest point on to: gap their distance, normal their
// direction, oriented from A to B (from is A when fromIsA). A vertex whose feature pair cs holds
// already (the closest points') is skipped, and with reach non-nil so is one that the pair's motion
// cannot close within the step. Face planes bound a vertex's distance from below, so most
// vertices are dismissed without a distance query.
func vertexContacts(from, to *placedPoly, fromIsA bool, margin float64, reach *pairMotion, cs *candidates) {
	for i, v := range from.p.verts {
		w := from.f.apply(v)
		l := to.f.applyInv(w)
		if bound := to.p.planeDepth(l); !(bound > 0) || bound > margin {
			continue
		}
		var d float64
		var g mgl64.Vec3
		if to.box != nil {
			d, g = to.box.SignedDistance(l)
		} else {
			d, g = to.hull.SignedDistance(l)
		}
		if !(d > 0) || d > margin {
			continue
		}
		q := madd(l, g, -d)
		id := MakeFeatureID(to.featureAt(q, l), VertexFeature(i))
		n := to.f.rotate(g)
		if fromIsA {
			id, n = id.Swap(), n.Mul(-1)
		}
		known := false
		for k := 0; k < cs.n; k++ {
			known = known || cs.c[k].Feature == id
		}
		c := Contact{Point: to.f.apply(madd(l, g, -0.5*d)), Normal: n, Gap: d, Feature: id}
		if !known && (reach == nil || reach.reaches(&c)) {
			cs.add(c)
		}
	}
}

// minElem returns the smallest entry of v.
func minElem(v mgl64.Vec3) float64 { return min(v[0], min(v[1], v[2])) }

// boxFaceAlong returns the face axis of A (isA) or of B nearest the edge axis l (A frame), if
// within faceContactCos of it. R is B's rotation in A's frame.
func boxFaceAlong(l mgl64.Vec3, R *[3][3]float64) (isA bool, axis int, ok bool) {
	best := faceContactCos
	for k := 0; k < 3; k++ {
		if c := math.Abs(l[k]); c >= best {
			isA, axis, ok, best = true, k, true, c
		}
	}
	for k := 0; k < 3; k++ {
		if c := math.Abs(l[0]*R[0][k] + l[1]*R[1][k] + l[2]*R[2][k]); c > best {
			isA, axis, ok, best = false, k, true, c
		}
	}
	return isA, axis, ok
}
