package collide

import (
	"math"

	"github.com/go-gl/mathgl/mgl64"
)

// newPlacedBox returns the polyhedral view of a placed box; t holds its topology.
func newPlacedBox(b *Box, pose Pose, t *boxTopology) placedPoly {
	f := pose.frame()
	return placedBox(b, &f, t)
}

// newPlacedHull returns the polyhedral view of a placed hull.
func newPlacedHull(h *ConvexHull, pose Pose) placedPoly {
	return placedPoly{p: hullPolytope(h), f: pose.frame(), hull: h}
}

// boxHull collides a box with a hull.
func boxHull(a *Box, pa Pose, b *ConvexHull, pb Pose, margin float64, prev, out *Manifold) {
	var t boxTopology
	A := newPlacedBox(a, pa, &t)
	B := newPlacedHull(b, pb)
	polyPoly(&A, &B, margin, prev, out)
}

// hullHull collides two hulls.
func hullHull(a *ConvexHull, pa Pose, b *ConvexHull, pb Pose, margin float64, prev, out *Manifold) {
	A := newPlacedHull(a, pa)
	B := newPlacedHull(b, pb)
	polyPoly(&A, &B, margin, prev, out)
}

// hullHalfSpace collides a hull with a half-space: every vertex within the margin of the plane
// is a candidate, reduced to the four spanning the largest area.
func hullHalfSpace(a *ConvexHull, pa Pose, b *HalfSpace, pb Pose, margin float64, out *Manifold) {
	pn, off := worldPlane(b, pb)
	n := pn.Mul(-1)
	f := pa.frame()
	var cs candidates
	for i, v := range a.vertices {
		w := f.apply(v)
		gap := pn.Dot(w) - off
		if gap <= margin {
			cs.add(contactAt(w, n, gap, MakeFeatureID(VertexFeature(i), FaceFeature(0))))
		}
	}
	if cs.n == 0 {
		return
	}
	out.Normal = n
	out.Reference = Reference{Kind: ReferenceFaceB, B: FaceFeature(0)}
	cs.emit(n, out)
}

// capsuleHull collides a capsule with a hull in the hull's frame: GJK closest points between the
// core segment and the hull when they are apart, the separating axes of a segment and a
// polyhedron (face normals; crosses of the segment with edges whose Gauss-map arc meets the
// segment's great circle) when they intersect. A face normal clips the segment to the face,
// giving up to two points.
func capsuleHull(a *Capsule, pa Pose, h *ConvexHull, pb Pose, margin float64, out *Manifold) {
	fh := pb.frame()
	e0, e1 := capsuleEnds(a, pa)
	p0, p1 := fh.applyInv(e0), fh.applyInv(e1)
	r := a.Radius
	id := IdentityPose().frame()
	gs, gh := pointsGJK(p0, p1), hullGJK(h, &id)
	res := gjkDistance(&gs, &gh, h.center.Sub(lerp(p0, p1, 0.5)))
	tol := 1e-9 * (r + a.HalfHeight + h.local.Size().Len())
	if !res.intersects && res.distance > tol {
		if res.distance-r > margin {
			return
		}
		s, q := res.pa, res.pb
		nH := unitOr(s.Sub(q), mgl64.Vec3{0, 0, 1})
		feat := h.featureAt(q)
		if feat.Type() == FeatureFace && h.faces[feat.Index()].normal.Dot(nH) >= 1-1e-9 {
			if capsuleHullFace(a, h, &fh, p0, p1, closestOnSegment(s, p0, p1), feat.Index(), margin, out) {
				return
			}
		}
		n := fh.rotate(nH).Mul(-1)
		out.Normal = n
		t := closestOnSegment(s, p0, p1)
		out.add(contactAt(fh.apply(madd(s, nH, -r)), n, res.distance-r, MakeFeatureID(capsuleParamFeature(a, t), feat)))
		return
	}
	// Intersecting: least-overlap axis.
	faceBest, faceSep := 0, math.Inf(-1)
	for i, f := range h.faces {
		if s := min(f.normal.Dot(p0), f.normal.Dot(p1)) - f.offset; s > faceSep {
			faceBest, faceSep = i, s
		}
	}
	u := p1.Sub(p0)
	edgeBest, edgeSep := -1, math.Inf(-1)
	var edgeAxis mgl64.Vec3
	for i, e := range h.edges {
		n0, n1 := h.faces[e.f[0]].normal, h.faces[e.f[1]].normal
		if n0.Dot(u)*n1.Dot(u) >= 0 {
			continue
		}
		v0, v1 := h.vertices[e.v[0]], h.vertices[e.v[1]]
		l := u.Cross(v1.Sub(v0))
		ll := l.Len()
		if ll <= 1e-9*u.Len()*v1.Sub(v0).Len() {
			continue
		}
		l = l.Mul(1 / ll)
		if l.Dot(v0.Sub(h.center)) < 0 {
			l = l.Mul(-1)
		}
		if s := l.Dot(p0) - l.Dot(v0); s > edgeSep {
			edgeBest, edgeSep, edgeAxis = i, s, l
		}
	}
	scale := 0.5 * min(h.local.Size()[0], h.local.Size()[1], h.local.Size()[2])
	if edgeBest < 0 || edgeSep <= faceSep+boxEdgeTolerance*scale {
		t := closestOnSegment(h.center, p0, p1)
		if capsuleHullFace(a, h, &fh, p0, p1, t, faceBest, margin, out) {
			return
		}
		nH := h.faces[faceBest].normal
		sp := p0
		if nH.Dot(p1) < nH.Dot(p0) {
			sp = p1
		}
		gap := nH.Dot(sp) - h.faces[faceBest].offset - r
		if gap > margin {
			return
		}
		n := fh.rotate(nH).Mul(-1)
		out.Normal = n
		out.add(contactAt(fh.apply(madd(sp, nH, -r)), n, gap, MakeFeatureID(capsuleParamFeature(a, closestOnSegment(sp, p0, p1)), FaceFeature(faceBest))))
		return
	}
	e := h.edges[edgeBest]
	v0, v1 := h.vertices[e.v[0]], h.vertices[e.v[1]]
	ss, te := closestSegmentSegment(p0, p1, v0, v1)
	sp, ep := lerp(p0, p1, ss), lerp(v0, v1, te)
	gap := sp.Sub(ep).Dot(edgeAxis) - r
	if gap > margin {
		return
	}
	n := fh.rotate(edgeAxis).Mul(-1)
	out.Normal = n
	out.add(contactAt(fh.apply(madd(sp, edgeAxis, -r)), n, gap, MakeFeatureID(capsuleParamFeature(a, ss), EdgeFeature(edgeBest))))
}

// capsuleHullFace clips the core segment p0→p1 (hull frame) to face f's polygon and adds the
// clipped ends within the margin; t is the parameter used when the clipped part is empty or a
// point. It reports whether any point was added.
func capsuleHullFace(a *Capsule, h *ConvexHull, fh *frame, p0, p1 mgl64.Vec3, t float64, f int, margin float64, out *Manifold) bool {
	face := h.faces[f]
	nH := face.normal
	u := p1.Sub(p0)
	lo, hi := 0.0, 1.0
	loop := h.faceVerts[face.first : face.first+face.count]
	for k := range loop {
		va, vb := h.vertices[loop[k]], h.vertices[loop[(k+1)%len(loop)]]
		sn := vb.Sub(va).Cross(nH)
		limit := sn.Dot(va)
		d0, du := sn.Dot(p0)-limit, sn.Dot(u)
		if du == 0 {
			if d0 > 0 {
				lo, hi = 1, 0
			}
			continue
		}
		tc := -d0 / du
		if du > 0 {
			hi = min(hi, tc)
		} else {
			lo = max(lo, tc)
		}
	}
	if lo > hi {
		lo, hi = t, t
	}
	r := a.Radius
	n := fh.rotate(nH).Mul(-1)
	single := (hi-lo)*u.Len() <= 1e-9*(r+a.HalfHeight)
	added := false
	for i, te := range [2]float64{lo, hi} {
		if single && i == 1 {
			break
		}
		p := lerp(p0, p1, te)
		gap := nH.Dot(p) - face.offset - r
		if gap > margin {
			continue
		}
		fa := VertexFeature(i)
		if single {
			fa = capsuleParamFeature(a, te)
		}
		out.Normal = n
		out.add(contactAt(fh.apply(madd(p, nH, -r)), n, gap, MakeFeatureID(fa, FaceFeature(f))))
		added = true
	}
	if added {
		out.Reference = Reference{Kind: ReferenceFaceB, B: FaceFeature(f)}
	}
	return added
}
