package collide

import (
	"math"

	"github.com/go-gl/mathgl/mgl64"
)

// parallelSine is the largest sine of the angle between two segments (or a segment and a face)
// for which a line contact with two points is generated instead of a single closest point.
const parallelSine = 0.1

// capsuleEnds returns the world end points of the capsule's core segment (−z end first).
func capsuleEnds(c *Capsule, p Pose) (mgl64.Vec3, mgl64.Vec3) {
	a := p.Rotate(mgl64.Vec3{0, 0, c.HalfHeight})
	return p.Position.Sub(a), p.Position.Add(a)
}

// segmentsNormal picks a unit normal for two core segments whose closest points coincide: the
// common perpendicular when they cross, otherwise the direction between the centres
// perpendicular to the axes; it is oriented along w (centre of B minus centre of A).
func segmentsNormal(da, db, w mgl64.Vec3) mgl64.Vec3 {
	c := da.Cross(db)
	if n, ok := unit(c); ok && length(c) > 1e-9*length(da)*length(db) {
		if n.Dot(w) < 0 {
			n = n.Mul(-1)
		}
		return n
	}
	axis, ok := unit(da)
	if !ok {
		axis, ok = unit(db)
	}
	if !ok {
		return unitOr(w, mgl64.Vec3{0, 0, 1})
	}
	wp := madd(w, axis, -axis.Dot(w))
	if n, ok := unit(wp); ok && length(wp) > 1e-12*length(w) {
		return n
	}
	return perpendicular(axis)
}

// capsuleCapsule collides two capsules through their core segments. Nearly parallel segments
// with overlapping extents give a line contact: points at both ends of the overlap (capsule A's
// vertex 0 and vertex 1 features), plus the closest pair when it lies strictly between them.
func capsuleCapsule(a *Capsule, pa Pose, b *Capsule, pb Pose, margin float64, out *Manifold) {
	a0, a1 := capsuleEnds(a, pa)
	b0, b1 := capsuleEnds(b, pb)
	s, t := closestSegmentSegment(a0, a1, b0, b1)
	ca, cb := lerp(a0, a1, s), lerp(b0, b1, t)
	d := cb.Sub(ca)
	rr := a.Radius + b.Radius
	dist := length(d)
	if dist-rr > margin {
		return
	}
	da, db := a1.Sub(a0), b1.Sub(b0)
	scale := rr + a.HalfHeight + b.HalfHeight
	n, ok := unit(d)
	if !ok || dist <= 1e-9*scale {
		n = segmentsNormal(da, db, pb.Position.Sub(pa.Position))
	}
	out.Normal = n
	mainGap := d.Dot(n) - rr
	mainID := MakeFeatureID(capsuleParamFeature(a, s), capsuleParamFeature(b, t))
	main := contactAt(madd(ca, n, a.Radius), n, mainGap, mainID)

	la, lb := length(da), length(db)
	if la == 0 || lb == 0 || length(da.Cross(db)) > parallelSine*la*lb {
		out.add(main)
		return
	}
	// Overlap of B's projection on A's segment, in A's parameter.
	sb0 := b0.Sub(a0).Dot(da) / (la * la)
	sb1 := b1.Sub(a0).Dot(da) / (la * la)
	lo := max(0, min(sb0, sb1))
	hi := min(1, max(sb0, sb1))
	tol := 1e-6 * scale
	if (hi-lo)*la <= tol {
		out.add(main)
		return
	}
	keepMain := true
	for i, se := range [2]float64{lo, hi} {
		pae := lerp(a0, a1, se)
		pbe := lerp(b0, b1, closestOnSegment(pae, b0, b1))
		gap := length(pbe.Sub(pae)) - rr
		if gap > margin {
			continue
		}
		out.add(contactAt(madd(pae, n, a.Radius), n, gap, MakeFeatureID(VertexFeature(i), FaceFeature(0))))
		if math.Abs(se-s)*la <= tol {
			keepMain = false
		}
	}
	if keepMain {
		out.add(main)
	}
}

// capsuleBox collides capsule a with box b in the box's frame. A separated pair uses the exact
// closest points of the core segment and the box; an intersecting pair uses the separating axes
// of a segment and a box (three face normals, three edge crosses). When the normal is a face
// normal of the box the segment is clipped to that face, giving up to two points (capsule
// vertex 0 at the end nearer its −z end, vertex 1 at the other).
func capsuleBox(a *Capsule, pa Pose, b *Box, pb Pose, margin float64, out *Manifold) {
	fb := pb.frame()
	e0, e1 := capsuleEnds(a, pa)
	p0, p1 := fb.applyInv(e0), fb.applyInv(e1)
	h, r := b.HalfExtents, a.Radius
	t, d2 := segmentBoxClosest(p0, p1, h)
	if d2 > 0 {
		if math.Sqrt(d2)-r > margin {
			return
		}
		s := lerp(p0, p1, t)
		q := mgl64.Vec3{clamp(s[0], -h[0], h[0]), clamp(s[1], -h[1], h[1]), clamp(s[2], -h[2], h[2])}
		d := s.Sub(q)
		nBox := unitOr(d, mgl64.Vec3{0, 0, 1})
		for k := 0; k < 3; k++ {
			if math.Abs(nBox[k]) >= 1-1e-12 {
				if capsuleBoxFace(a, b, &fb, p0, p1, t, k, sign(nBox[k]), margin, out) {
					return
				}
				break
			}
		}
		n := fb.rotate(nBox).Mul(-1)
		out.Normal = n
		pA := fb.apply(madd(s, nBox, -r))
		id := MakeFeatureID(capsuleParamFeature(a, t), boxClosestFeature(h, s))
		out.add(contactAt(pA, n, length(d)-r, id))
		return
	}

	// Intersecting: least-overlap axis, faces preferred within a tolerance.
	u := p1.Sub(p0)
	c := lerp(p0, p1, 0.5)
	bestFace, faceOverlap := 0, math.Inf(1)
	for k := 0; k < 3; k++ {
		if o := h[k] + 0.5*math.Abs(u[k]) - math.Abs(c[k]); o < faceOverlap {
			bestFace, faceOverlap = k, o
		}
	}
	bestEdge, edgeOverlap := -1, math.Inf(1)
	var edgeAxis mgl64.Vec3
	lu := length(u)
	for k := 0; k < 3; k++ {
		var ek mgl64.Vec3
		ek[k] = 1
		l := u.Cross(ek)
		if length(l) <= 1e-9*lu {
			continue
		}
		l, _ = unit(l)
		o := h[0]*math.Abs(l[0]) + h[1]*math.Abs(l[1]) + h[2]*math.Abs(l[2]) - math.Abs(l.Dot(c))
		if o < edgeOverlap {
			bestEdge, edgeOverlap, edgeAxis = k, o, l.Mul(sign(l.Dot(c)))
		}
	}
	tol := 1e-3 * min(h[0], min(h[1], h[2]))
	if bestEdge < 0 || edgeOverlap >= faceOverlap-tol {
		if capsuleBoxFace(a, b, &fb, p0, p1, t, bestFace, sign(c[bestFace]), margin, out) {
			return
		}
	}
	if bestEdge < 0 {
		// No usable edge axis (segment parallel to every edge crossing): fall back to the face.
		var nBox mgl64.Vec3
		nBox[bestFace] = sign(c[bestFace])
		s := lerp(p0, p1, t)
		n := fb.rotate(nBox).Mul(-1)
		out.Normal = n
		gap := -faceOverlap - r
		out.add(contactAt(fb.apply(madd(s, nBox, -r)), n, gap, MakeFeatureID(capsuleParamFeature(a, t), FaceFeature(boxFaceIndex(bestFace, nBox[bestFace])))))
		return
	}
	// Edge of the box along bestEdge that is furthest along the axis.
	nBox := edgeAxis
	var q0, q1 mgl64.Vec3
	for j := 0; j < 3; j++ {
		if j == bestEdge {
			q0[j], q1[j] = -h[j], h[j]
			continue
		}
		q0[j] = supportSign(nBox[j]) * h[j]
		q1[j] = q0[j]
	}
	ss, te := closestSegmentSegment(p0, p1, q0, q1)
	sp, ep := lerp(p0, p1, ss), lerp(q0, q1, te)
	gap := sp.Sub(ep).Dot(nBox) - r
	if gap > margin {
		return
	}
	n := fb.rotate(nBox).Mul(-1)
	out.Normal = n
	id := MakeFeatureID(capsuleParamFeature(a, ss), EdgeFeature(boxEdgeIndex(bestEdge, q0)))
	out.add(contactAt(fb.apply(madd(sp, nBox, -r)), n, gap, id))
}

// capsuleBoxFace clips the core segment p0→p1 (box frame) to the face of b normal to axis k on
// side sg and adds the clipped ends within the margin. t is the closest-point parameter, used
// when the clipped part is a single point. It reports whether any point was added.
func capsuleBoxFace(a *Capsule, b *Box, fb *frame, p0, p1 mgl64.Vec3, t float64, k int, sg float64, margin float64, out *Manifold) bool {
	h, r := b.HalfExtents, a.Radius
	u := p1.Sub(p0)
	lo, hi := 0.0, 1.0
	for j := 0; j < 3 && lo <= hi; j++ {
		if j == k {
			continue
		}
		if u[j] == 0 {
			if math.Abs(p0[j]) > h[j] {
				lo, hi = 1, 0
			}
			continue
		}
		ta, tb := (-h[j]-p0[j])/u[j], (h[j]-p0[j])/u[j]
		if ta > tb {
			ta, tb = tb, ta
		}
		lo, hi = max(lo, ta), min(hi, tb)
	}
	if lo > hi {
		lo, hi = t, t
	}
	var nBox mgl64.Vec3
	nBox[k] = sg
	n := fb.rotate(nBox).Mul(-1)
	face := FaceFeature(boxFaceIndex(k, sg))
	single := (hi-lo)*length(u) <= 1e-9*(r+a.HalfHeight)
	added := false
	for i, te := range [2]float64{lo, hi} {
		if single && i == 1 {
			break
		}
		p := lerp(p0, p1, te)
		gap := sg*p[k] - h[k] - r
		if gap > margin {
			continue
		}
		fa := VertexFeature(i)
		if single {
			fa = capsuleParamFeature(a, te)
		}
		out.Normal = n
		out.add(contactAt(fb.apply(madd(p, nBox, -r)), n, gap, MakeFeatureID(fa, face)))
		added = true
	}
	if added {
		out.Reference = Reference{Kind: ReferenceFaceB, B: face}
	}
	return added
}
