package collide

import (
	"math"

	"github.com/go-gl/mathgl/mgl64"
)

// polytope is a read-only view of a convex polyhedron's topology in its local frame, shared by
// the polyhedral pair routines for boxes and hulls.
type polytope struct {
	verts     []mgl64.Vec3
	faces     []hullFace
	faceVerts []int32
	faceEdges []int32
	edges     []hullEdge
	center    mgl64.Vec3 // an interior point
	minExtent float64    // a length scale for tolerances
}

// hullPolytope returns the view of a hull.
func hullPolytope(h *ConvexHull) polytope {
	s := h.local.Size()
	return polytope{
		verts: h.vertices, faces: h.faces, faceVerts: h.faceVerts, faceEdges: h.faceEdges,
		edges: h.edges, center: h.center, minExtent: 0.5 * min(s[0], s[1], s[2]),
	}
}

// boxTopology holds a box's polytope data in fixed arrays, numbered like Box's features.
type boxTopology struct {
	verts     [8]mgl64.Vec3
	faces     [6]hullFace
	faceVerts [24]int32
	faceEdges [24]int32
	edges     [12]hullEdge
}

// boxPolytope fills t with the box's topology and returns a view of it (valid while t is).
func boxPolytope(h mgl64.Vec3, t *boxTopology) polytope {
	for i := 0; i < 8; i++ {
		t.verts[i] = boxVertex(h, i)
	}
	for k := 0; k < 3; k++ {
		u, v := (k+1)%3, (k+2)%3
		for side := 0; side < 2; side++ {
			f := 2*k + side
			s := 1.0
			if side == 1 {
				s = -1
			}
			var n mgl64.Vec3
			n[k] = s
			t.faces[f] = hullFace{normal: n, offset: h[k], first: int32(4 * f), count: 4}
			// Counter-clockwise about +e_k: (−,−), (+,−), (+,+), (−,+) in (u, v).
			corners := [4][2]float64{{-1, -1}, {1, -1}, {1, 1}, {-1, 1}}
			for c := 0; c < 4; c++ {
				cc := corners[c]
				if side == 1 {
					cc = corners[3-c]
				}
				var p mgl64.Vec3
				p[k], p[u], p[v] = s, cc[0], cc[1]
				t.faceVerts[4*f+c] = int32(boxVertexIndex(p))
			}
		}
	}
	for k := 0; k < 3; k++ {
		for j := 0; j < 4; j++ {
			var p mgl64.Vec3
			p[(k+1)%3] = -1
			if j&1 != 0 {
				p[(k+1)%3] = 1
			}
			p[(k+2)%3] = -1
			if j&2 != 0 {
				p[(k+2)%3] = 1
			}
			p0, p1 := p, p
			p0[k], p1[k] = -1, 1
			f0 := boxFaceIndex((k+1)%3, p[(k+1)%3])
			f1 := boxFaceIndex((k+2)%3, p[(k+2)%3])
			t.edges[4*k+j] = hullEdge{
				v:   [2]int32{int32(boxVertexIndex(p0)), int32(boxVertexIndex(p1))},
				f:   [2]int32{int32(f0), int32(f1)},
				arc: t.faces[f1].normal.Cross(t.faces[f0].normal),
			}
		}
	}
	for f := 0; f < 6; f++ {
		for c := 0; c < 4; c++ {
			a, b := t.verts[t.faceVerts[4*f+c]], t.verts[t.faceVerts[4*f+(c+1)%4]]
			axis := 0
			for a[axis] == b[axis] {
				axis++
			}
			t.faceEdges[4*f+c] = int32(boxEdgeIndex(axis, lerp(a, b, 0.5)))
		}
	}
	return polytope{
		verts: t.verts[:], faces: t.faces[:], faceVerts: t.faceVerts[:], faceEdges: t.faceEdges[:],
		edges: t.edges[:], minExtent: min(h[0], h[1], h[2]),
	}
}

// support returns the index of the vertex furthest along the local direction d.
func (p *polytope) support(d mgl64.Vec3) int {
	best, bd := 0, p.verts[0].Dot(d)
	for i := 1; i < len(p.verts); i++ {
		if v := p.verts[i].Dot(d); v > bd {
			best, bd = i, v
		}
	}
	return best
}

// planeDepth returns the largest signed distance of the local point l from p's face planes: at
// most 0 inside p, and a lower bound on the distance outside.
func (p *polytope) planeDepth(l mgl64.Vec3) float64 {
	d := math.Inf(-1)
	for _, f := range p.faces {
		d = max(d, f.normal.Dot(l)-f.offset)
	}
	return d
}

// loop returns the vertex indices of face f.
func (p *polytope) loop(f int) []int32 {
	face := p.faces[f]
	return p.faceVerts[face.first : face.first+face.count]
}

// loopEdges returns the edge indices of face f's loop (edge k runs from loop[k] to loop[k+1]).
func (p *polytope) loopEdges(f int) []int32 {
	face := p.faces[f]
	return p.faceEdges[face.first : face.first+face.count]
}
