package collide

import (
	"github.com/go-gl/mathgl/mgl64"
)

// triTopology holds one mesh triangle as a polytope with a single (front) face.
type triTopology struct {
	verts     [3]mgl64.Vec3
	faces     [1]hullFace
	faceVerts [3]int32
	faceEdges [3]int32
}

// trianglePoly returns triangle t of m as a placed polytope in the mesh frame; minExtent sets
// the clip slop.
func trianglePoly(m *TriangleMesh, t int32, minExtent float64, tt *triTopology) placedPoly {
	v := m.tris[t]
	for k := 0; k < 3; k++ {
		tt.verts[k] = m.vertices[v[k]]
		tt.faceVerts[k] = int32(k)
		tt.faceEdges[k] = int32(k)
	}
	n := m.normals[t]
	tt.faces[0] = hullFace{normal: n, offset: n.Dot(tt.verts[0]), first: 0, count: 3}
	return placedPoly{
		p: polytope{verts: tt.verts[:], faces: tt.faces[:], faceVerts: tt.faceVerts[:], faceEdges: tt.faceEdges[:], minExtent: minExtent},
		f: IdentityPose().frame(),
	}
}

// skipMask returns the bits of triangle t's edges that are internal and not convex: contacts
// are not clipped at them (the neighbouring triangle continues the surface) and normals are
// never taken from them, so shapes slide across without snagging.
func (m *TriangleMesh) skipMask(t int32) uint32 {
	var s uint32
	for k := 0; k < 3; k++ {
		if !m.edges[m.triEdges[t][k]].convex {
			s |= 1 << k
		}
	}
	return s
}

// regionConvex reports whether a closest-point region of triangle t may supply a contact
// normal of its own: a convex (ridge or boundary) edge, or a vertex on such an edge.
func (m *TriangleMesh) regionConvex(t int32, region int) bool {
	switch {
	case region == 0:
		return false
	case region <= 3:
		k := region - 1
		return m.edges[m.triEdges[t][k]].convex || m.edges[m.triEdges[t][(k+2)%3]].convex
	}
	return m.edges[m.triEdges[t][region-4]].convex
}

// remapTriFeature turns a feature of the triangle polytope (face 0, edge k, vertex k) into the
// mesh's feature.
func (m *TriangleMesh) remapTriFeature(t int32, f Feature) Feature {
	switch f.Type() {
	case FeatureFace:
		return FaceFeature(int(t))
	case FeatureEdge:
		return EdgeFeature(3*int(t) + f.Index()%3)
	case FeatureVertex:
		return VertexFeature(3*int(t) + f.Index()%3)
	}
	return f
}

// finishMesh moves candidates found in the mesh frame to the world and writes the manifold;
// its normal is that of the deepest point (points keep their own triangle's normal).
func finishMesh(cs *candidates, fm *frame, out *Manifold) {
	if cs.n == 0 {
		return
	}
	for i := 0; i < cs.n; i++ {
		cs.c[i].Point = fm.apply(cs.c[i].Point)
		cs.c[i].Normal = fm.rotate(cs.c[i].Normal)
	}
	out.Normal = cs.c[cs.deepest()].Normal
	cs.emit(out.Normal, out)
}

// sphereMesh collides a sphere with a mesh, triangle by triangle (one-sided: the front faces).
func sphereMesh(a *Sphere, pa Pose, m *TriangleMesh, pb Pose, margin float64, out *Manifold) {
	fm := pb.frame()
	c := fm.applyInv(pa.Position)
	r := a.Radius
	ext := mgl64.Vec3{r + margin, r + margin, r + margin}
	tol := 1e-9 * (r + m.scale)
	var cs candidates
	m.queryBox(AABB{Min: c.Sub(ext), Max: c.Add(ext)}, func(t int32) bool {
		v := m.tris[t]
		p0 := m.vertices[v[0]]
		n := m.normals[t]
		if n.Dot(c.Sub(p0)) < -r {
			return true // entirely behind
		}
		q, _, region := ClosestOnTriangle(c, p0, m.vertices[v[1]], m.vertices[v[2]])
		feat, _ := m.regionFeature(t, region)
		d := c.Sub(q)
		dir, gap := n, n.Dot(d)-r
		switch {
		case region == 0:
		case m.regionConvex(t, region):
			u, ok := unit(d)
			if !ok || u.Dot(n) <= 0 {
				return true // behind this triangle at a convex edge: the other side owns it
			}
			dir, gap = u, length(d)-r
		default:
			// A flat or concave internal edge or vertex: the face normal is used, and only
			// when the centre lies over this triangle's boundary (else a neighbour owns it).
			if length(madd(d, n, -n.Dot(d))) > tol {
				return true
			}
		}
		if gap > margin {
			return true
		}
		cs.addUnique(contactAt(madd(c, dir, -r), dir.Mul(-1), gap, MakeFeatureID(FaceFeature(0), feat)), tol)
		return true
	})
	finishMesh(&cs, &fm, out)
}

// capsuleMesh collides a capsule with a mesh: per triangle, the segment's closest points (for a
// convex edge or vertex) or the segment clipped to the triangle along its face normal.
func capsuleMesh(a *Capsule, pa Pose, m *TriangleMesh, pb Pose, margin float64, out *Manifold) {
	fm := pb.frame()
	e0, e1 := capsuleEnds(a, pa)
	p0, p1 := fm.applyInv(e0), fm.applyInv(e1)
	r := a.Radius
	box := AABBFromPoints(p0, p1).Expand(r + margin)
	tol := 1e-9 * (r + a.HalfHeight + m.scale)
	var cs candidates
	m.queryBox(box, func(t int32) bool {
		v := m.tris[t]
		ta, tb, tc := m.vertices[v[0]], m.vertices[v[1]], m.vertices[v[2]]
		n := m.normals[t]
		off := n.Dot(ta)
		if max(n.Dot(p0), n.Dot(p1))-off < -r {
			return true // entirely behind
		}
		gs, gt := pointsGJK(p0, p1), pointsGJK(ta, tb, tc)
		res := gjkDistance(&gs, &gt, lerp(ta, tc, 0.5).Sub(lerp(p0, p1, 0.5)))
		if !res.intersects && res.distance > tol {
			if res.distance-r > margin {
				return true
			}
			_, _, region := ClosestOnTriangle(res.pa, ta, tb, tc)
			if region != 0 && m.regionConvex(t, region) {
				u, ok := unit(res.pa.Sub(res.pb))
				if !ok || u.Dot(n) <= 0 {
					return true // behind this triangle at a convex edge: the other side owns it
				}
				feat, _ := m.regionFeature(t, region)
				id := MakeFeatureID(capsuleParamFeature(a, closestOnSegment(res.pa, p0, p1)), feat)
				cs.addUnique(contactAt(madd(res.pa, u, -r), u.Mul(-1), res.distance-r, id), tol)
				return true
			}
		}
		// Face contact: clip the segment to the triangle (except at flat or concave edges).
		skip := m.skipMask(t)
		u := p1.Sub(p0)
		lo, hi := 0.0, 1.0
		for k := 0; k < 3; k++ {
			if skip&(1<<k) != 0 {
				continue
			}
			va, vb := m.vertices[v[k]], m.vertices[v[(k+1)%3]]
			sn := vb.Sub(va).Cross(n)
			d0, du := sn.Dot(p0.Sub(va)), sn.Dot(u)
			switch {
			case du == 0:
				if d0 > 0 {
					lo, hi = 1, 0
				}
			case du > 0:
				hi = min(hi, -d0/du)
			default:
				lo = max(lo, -d0/du)
			}
		}
		if lo > hi {
			return true
		}
		single := (hi-lo)*length(u) <= tol
		for i, te := range [2]float64{lo, hi} {
			if single && i == 1 {
				break
			}
			p := lerp(p0, p1, te)
			gap := n.Dot(p) - off - r
			if gap > margin {
				continue
			}
			fa := VertexFeature(i)
			if single {
				fa = capsuleParamFeature(a, te)
			}
			cs.addUnique(contactAt(madd(p, n, -r), n.Mul(-1), gap, MakeFeatureID(fa, FaceFeature(int(t)))), tol)
		}
		return true
	})
	finishMesh(&cs, &fm, out)
}

// polyMesh collides a box or hull with a mesh. Per triangle: a one-sided test along the face
// normal; when the pair is apart and the closest triangle feature is a convex edge or vertex,
// a single closest-point contact; otherwise the convex's incident face clipped against the
// triangle (flat or concave internal edges are not clipped at, so nothing snags on them).
func polyMesh(A *placedPoly, local AABB, m *TriangleMesh, pb Pose, margin float64, out *Manifold) {
	fm := pb.frame()
	rel := relFrame(&fm, &A.f)
	AL := *A
	AL.f = rel
	box := transformAABBFrame(local, &rel).Expand(margin)
	tol := 1e-9 * (A.p.minExtent + m.scale)
	var cs candidates
	var tt triTopology
	m.queryBox(box, func(t int32) bool {
		n := m.normals[t]
		v := m.tris[t]
		off := n.Dot(m.vertices[v[0]])
		deep := rel.apply(AL.p.verts[AL.p.support(rel.invRotate(n.Mul(-1)))])
		if n.Dot(deep)-off > margin {
			return true
		}
		front := rel.apply(AL.p.verts[AL.p.support(rel.invRotate(n))])
		if n.Dot(front)-off < 0 {
			return true // entirely behind
		}
		ga, gt := AL.gjk(), pointsGJK(m.vertices[v[0]], m.vertices[v[1]], m.vertices[v[2]])
		res := gjkDistance(&ga, &gt, m.vertices[v[0]].Sub(rel.pos))
		if !res.intersects && res.distance > tol {
			if res.distance > margin {
				return true
			}
			_, _, region := ClosestOnTriangle(res.pa, m.vertices[v[0]], m.vertices[v[1]], m.vertices[v[2]])
			if region != 0 && m.regionConvex(t, region) {
				u, ok := unit(res.pa.Sub(res.pb))
				if !ok || u.Dot(n) <= 0 {
					return true // behind this triangle at a convex edge: the other side owns it
				}
				feat, _ := m.regionFeature(t, region)
				fa := AL.featureAt(rel.applyInv(res.pa), rel.applyInv(res.pb))
				cs.addUnique(Contact{Point: lerp(res.pa, res.pb, 0.5), Normal: u.Mul(-1), Gap: res.distance, Feature: MakeFeatureID(fa, feat)}, tol)
				return true
			}
		}
		tri := trianglePoly(m, t, AL.p.minExtent, &tt)
		var local candidates
		polyFaceContact(&tri, &AL, &rel, 0, false, false, m.skipMask(t), margin, &local)
		for i := 0; i < local.n; i++ {
			c := local.c[i]
			c.Feature = MakeFeatureID(c.Feature.A(), m.remapTriFeature(t, c.Feature.B()))
			cs.addUnique(c, tol)
		}
		return true
	})
	finishMesh(&cs, &fm, out)
}
