package collide

import (
	"math"

	"github.com/go-gl/mathgl/mgl64"
)

// cylinderSquareTolerance, times the radius, is how much deeper than the deepest of a cap's four
// square rim points (vertices 0, 4, 8, 12) another rim point must be to be kept in a manifold
// when the whole cap touches. Below it the square alone supports the cap, so a cylinder standing
// still keeps the same four points (and feature ids) from step to step instead of switching
// between rim points as rounding tilts it.
const cylinderSquareTolerance = 1e-3

// cylinderHalfSpace collides cylinder a with half-space b exactly. Per cap, the candidates are
// the four square rim points (vertices 0, 4, 8, 12 of that rim) and, when the cap is tilted, its
// lowest rim point (rim edge 0 or 1); the manifold keeps those within the margin, four at most.
// Flat on a cap this gives the square, on its side the two ends of the lowest line, tilted the
// lowest rim point with the square points that are within the margin.
func cylinderHalfSpace(a *Cylinder, pa Pose, b *HalfSpace, pb Pose, margin float64, out *Manifold) {
	pn, off := worldPlane(b, pb)
	n := pn.Mul(-1)
	f := pa.frame()
	dl := f.invRotate(n) // the plane's inward normal, local
	radial := mgl64.Vec3{dl[0], dl[1], 0}
	tol := 1e-9 * (a.Radius + a.HalfHeight)
	var cs candidates
	for c := 0; c < 2; c++ {
		base := c * cylinderRimSamples
		for k := 0; k < cylinderRimSamples; k += 4 {
			w := f.apply(a.rimPoint(base + k))
			if gap := pn.Dot(w) - off; gap <= margin {
				cs.addUnique(contactAt(w, n, gap, MakeFeatureID(VertexFeature(base+k), FaceFeature(0))), tol)
			}
		}
		u, ok := unit(radial)
		if !ok || length(radial) <= 1e-9 {
			continue // flat on the cap: the square is exact
		}
		z := a.HalfHeight
		if c == 1 {
			z = -z
		}
		w := f.apply(mgl64.Vec3{u[0] * a.Radius, u[1] * a.Radius, z})
		if gap := pn.Dot(w) - off; gap <= margin {
			cs.addUnique(contactAt(w, n, gap, MakeFeatureID(EdgeFeature(c), FaceFeature(0))), tol)
		}
	}
	if cs.n == 0 {
		return
	}
	pruneSquare(&cs, true, cylinderSquareTolerance*a.Radius)
	out.Normal = n
	out.Reference = Reference{Kind: ReferenceFaceB, B: FaceFeature(0)}
	cs.emit(n, out)
}

// pruneSquare drops, for each cap whose four square rim points are all candidates, the other
// candidates of that cap's rim (rim samples and the lowest rim point) that are not deeper than
// the deepest square point by more than tol (see cylinderSquareTolerance). cylIsA says which
// side of the feature ids is the cylinder's.
func pruneSquare(cs *candidates, cylIsA bool, tol float64) {
	feat := func(c *Contact) Feature {
		if cylIsA {
			return c.Feature.A()
		}
		return c.Feature.B()
	}
	for cap := 0; cap < 2; cap++ {
		base := cap * cylinderRimSamples
		present, deepest := 0, math.Inf(1)
		for i := 0; i < cs.n; i++ {
			f := feat(&cs.c[i])
			if f.Type() == FeatureVertex && f.Index() >= base && f.Index() < base+cylinderRimSamples && f.Index()%4 == 0 {
				present++
				deepest = min(deepest, cs.c[i].Gap)
			}
		}
		if present < 4 {
			continue
		}
		m := 0
		for i := 0; i < cs.n; i++ {
			f := feat(&cs.c[i])
			onRim := (f.Type() == FeatureVertex && f.Index() >= base && f.Index() < base+cylinderRimSamples && f.Index()%4 != 0) ||
				(f.Type() == FeatureEdge && f.Index() == cap)
			if onRim && cs.c[i].Gap >= deepest-tol {
				continue
			}
			cs.c[m] = cs.c[i]
			m++
		}
		cs.n = m
	}
}

// convexPair collides two convex shapes of which at least one is a cylinder by the generic
// routine (see convex_pair.go). cyl says which of A (1), B (2) or both (3) are cylinders.
func convexPair(A, B *convexShape, cyl int, margin float64, out *Manifold) {
	ax, ok := findConvexAxis(A, B, margin)
	if !ok {
		return
	}
	var cs candidates
	convexContacts(A, B, ax, margin, &cs)
	if cs.n == 0 {
		return
	}
	if cyl&1 != 0 {
		pruneSquare(&cs, true, cylinderSquareTolerance*A.cyl.Radius)
	}
	if cyl&2 != 0 {
		pruneSquare(&cs, false, cylinderSquareTolerance*B.cyl.Radius)
	}
	out.Normal = ax.n
	cs.emit(ax.n, out)
}

// capsuleCylinder collides capsule a with cylinder b.
func capsuleCylinder(a *Capsule, pa Pose, b *Cylinder, pb Pose, margin float64, out *Manifold) {
	A, B := capsuleConvex(a, pa), cylinderConvex(b, pb)
	convexPair(&A, &B, 2, margin, out)
}

// cylinderCylinder collides two cylinders.
func cylinderCylinder(a *Cylinder, pa Pose, b *Cylinder, pb Pose, margin float64, out *Manifold) {
	A, B := cylinderConvex(a, pa), cylinderConvex(b, pb)
	convexPair(&A, &B, 3, margin, out)
}

// cylinderBox collides cylinder a with box b.
func cylinderBox(a *Cylinder, pa Pose, b *Box, pb Pose, margin float64, out *Manifold) {
	var t boxTopology
	A, B := cylinderConvex(a, pa), polyConvex(newPlacedBox(b, pb, &t), mgl64.Vec3{}, false)
	convexPair(&A, &B, 1, margin, out)
}

// cylinderHull collides cylinder a with hull b.
func cylinderHull(a *Cylinder, pa Pose, b *ConvexHull, pb Pose, margin float64, out *Manifold) {
	A, B := cylinderConvex(a, pa), polyConvex(newPlacedHull(b, pb), b.center, false)
	convexPair(&A, &B, 1, margin, out)
}

// cylinderMesh collides a cylinder with a mesh, triangle by triangle (one-sided: the front
// faces), as capsuleMesh does: when the pair is apart and the closest triangle feature is a
// convex edge or vertex, the single closest-point contact; otherwise the contacts along the
// triangle's normal, the cylinder's feature clipped against the triangle (not at flat or concave
// internal edges, so nothing snags on them).
func cylinderMesh(a *Cylinder, pa Pose, m *TriangleMesh, pb Pose, margin float64, out *Manifold) {
	fm := pb.frame()
	rel := pb.Inverse().Mul(pa) // the cylinder in the mesh frame
	A := cylinderConvex(a, rel)
	box := a.Bounds(rel).Expand(margin)
	tol := 1e-9 * (a.Radius + a.HalfHeight + m.scale)
	var cs candidates
	var tt triTopology
	m.queryBox(box, func(t int32) bool {
		n := m.normals[t]
		v := m.tris[t]
		ta, tb, tc := m.vertices[v[0]], m.vertices[v[1]], m.vertices[v[2]]
		off := n.Dot(ta)
		if A.support(n.Mul(-1)).Dot(n)-off > margin {
			return true
		}
		if A.support(n).Dot(n)-off < 0 {
			return true // entirely behind
		}
		tri := trianglePoly(m, t, A.scale, &tt)
		B := polyConvex(tri, ta.Add(tb).Add(tc).Mul(1.0/3), true)
		ga, gt := A.gjk(), B.gjk()
		res := gjkDistance(&ga, &gt, B.center.Sub(A.center))
		if !res.intersects && res.distance > tol {
			if res.distance > margin {
				return true
			}
			_, _, region := ClosestOnTriangle(res.pb, ta, tb, tc)
			if region != 0 && m.regionConvex(t, region) {
				u, ok := unit(res.pa.Sub(res.pb))
				if !ok || u.Dot(n) <= 0 {
					return true // behind this triangle at a convex edge: the other side owns it
				}
				feat, _ := m.regionFeature(t, region)
				fa := cylinderClosestFeature(a, A.f.applyInv(res.pa))
				cs.addUnique(contactBetween(res.pa, res.pb, u.Mul(-1), MakeFeatureID(fa, feat)), tol)
				return true
			}
		}
		// Face contact along the triangle's normal.
		nd := n.Mul(-1)
		pa := A.support(n.Mul(-1))
		gap := n.Dot(pa) - off
		ax := convexAxis{n: nd, pa: pa, pb: madd(pa, nd, gap), gap: gap}
		fa := A.featureAlong(nd)
		fb := B.featureAlong(n)
		fb.skip = m.skipMask(t)
		var local candidates
		clipFeatures(&fa, &fb, ax, margin, &local)
		if local.n == 0 && gap <= margin {
			local.add(contactBetween(pa, ax.pb, nd, MakeFeatureID(fa.face, FaceFeature(0))))
		}
		for i := 0; i < local.n; i++ {
			c := local.c[i]
			c.Feature = MakeFeatureID(c.Feature.A(), m.remapTriFeature(t, c.Feature.B()))
			cs.addUnique(c, tol)
		}
		return true
	})
	if cs.n > 0 {
		pruneSquare(&cs, true, cylinderSquareTolerance*a.Radius)
	}
	finishMesh(&cs, &fm, out)
}

// cylinderClosestFeature returns the cylinder feature nearest to the local point p: the side
// (face 0), a cap (face 1 or 2), or a rim (edge 0 or 1) when p is beyond both.
func cylinderClosestFeature(c *Cylinder, p mgl64.Vec3) Feature {
	out := math.Hypot(p[0], p[1]) > c.Radius
	switch {
	case p[2] > c.HalfHeight && out:
		return EdgeFeature(0)
	case p[2] < -c.HalfHeight && out:
		return EdgeFeature(1)
	case p[2] > c.HalfHeight:
		return FaceFeature(1)
	case p[2] < -c.HalfHeight:
		return FaceFeature(2)
	}
	if !out {
		_, nl := c.SignedDistance(p)
		switch {
		case nl[2] > 0.5:
			return FaceFeature(1)
		case nl[2] < -0.5:
			return FaceFeature(2)
		}
	}
	return FaceFeature(0)
}
