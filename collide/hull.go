package collide

import (
	"math"
	"slices"
	"strconv"

	"github.com/go-gl/mathgl/mgl64"
)

// MaxHullPoints is the largest point cloud NewConvexHull accepts.
const MaxHullPoints = 1 << 16

// hullEpsilon, relative to the cloud's size, is the distance under which points merge and a
// point counts as lying on a plane.
const hullEpsilon = 1e-8

// hullFlatness, relative to the cloud's size, is the smallest width (or distance from a line)
// a hull may have; thinner clouds are refused as coplanar (or collinear).
const hullFlatness = 1e-6

// hullFace is a planar polygon face of a hull: outward unit normal, plane offset, and its
// vertex loop (counter-clockwise seen from outside) as a range of faceVerts.
type hullFace struct {
	normal       mgl64.Vec3
	offset       float64
	first, count int32
}

// hullEdge is an edge of the hull between vertices v[0], v[1], shared by faces f[0] (which
// runs v0 → v1 in its loop) and f[1].
type hullEdge struct {
	v   [2]int32
	f   [2]int32
	arc mgl64.Vec3 // normal(f[1]) × normal(f[0]): the plane of the edge's Gauss-map arc
}

// ConvexHull is the convex hull of a point cloud, with coplanar triangles merged into polygon
// faces. Build it with NewConvexHull; a zero ConvexHull is invalid. It is immutable.
//
// Features for contact feature ids: vertex i is Vertices()[i]; face i is the i-th face (see
// Face); edge i is the i-th edge (see Edge).
type ConvexHull struct {
	vertices  []mgl64.Vec3
	faces     []hullFace
	faceVerts []int32
	faceEdges []int32 // edge index of the loop edge starting at the same position of faceVerts
	edges     []hullEdge
	local     AABB       // local bounds
	center    mgl64.Vec3 // mean of the vertices (an interior point)
	volume    float64
	com       mgl64.Vec3
	unitC     mgl64.Mat3 // second moment about com for density 1
	eps       float64
}

// NewConvexHull builds the convex hull of points. Duplicate and nearly duplicate points, points
// inside the hull and points on its faces or edges are dropped; nearly coplanar triangles are
// merged into polygon faces. Fewer than four distinct points, collinear or coplanar input (no
// volume), non-finite coordinates or more than MaxHullPoints points are errors.
//
// The hull keeps the points' frame, so its centre of mass is generally off its origin; a dynamic
// body needs it there (physics refuses such a collider), so build a dynamic body's hull with
// NewConvexHullCentered.
func NewConvexHull(points []mgl64.Vec3) (*ConvexHull, error) {
	if len(points) > MaxHullPoints {
		return nil, fieldErrorf("ConvexHull.points", "has %d points, at most %d are allowed", len(points), MaxHullPoints)
	}
	for i, p := range points {
		if err := checkFiniteVec("ConvexHull.points["+strconv.Itoa(i)+"]", p); err != nil {
			return nil, err
		}
	}
	if len(points) < 4 {
		return nil, fieldErrorf("ConvexHull.points", "need at least 4 points, got %d", len(points))
	}
	box := AABBFromPoints(points...)
	scale := max(box.Size().Len(), max(maxAbs(box.Min), maxAbs(box.Max)))
	eps := hullEpsilon * scale
	pts := dedupePoints(points, eps)
	tris, adj, err := quickHull(pts, eps, hullFlatness*scale)
	if err != nil {
		return nil, err
	}
	h := &ConvexHull{eps: eps}
	if err := h.buildFaces(pts, tris, adj); err != nil {
		return nil, err
	}
	h.computeMass()
	if !(h.volume > 0) {
		return nil, fieldErrorf("ConvexHull.points", "span no volume")
	}
	return h, nil
}

// dedupePoints removes points within eps of an earlier point, keeping the input order.
func dedupePoints(points []mgl64.Vec3, eps float64) []mgl64.Vec3 {
	idx := make([]int, len(points))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int {
		switch {
		case points[a][0] < points[b][0]:
			return -1
		case points[a][0] > points[b][0]:
			return 1
		}
		return a - b
	})
	dup := make([]bool, len(points))
	for k, i := range idx {
		if dup[i] {
			continue
		}
		for _, j := range idx[k+1:] {
			if points[j][0]-points[i][0] > eps {
				break
			}
			if !dup[j] && points[j].Sub(points[i]).Len() <= eps {
				if j < i {
					dup[i] = true
				} else {
					dup[j] = true
				}
			}
		}
	}
	out := make([]mgl64.Vec3, 0, len(points))
	for i, p := range points {
		if !dup[i] {
			out = append(out, p)
		}
	}
	return out
}

// buildFaces merges the hull triangles into planar polygons and derives vertices, faces and
// edges. adj[i][e] is the triangle across edge e of triangle i (from its vertex e to e+1).
func (h *ConvexHull) buildFaces(pts []mgl64.Vec3, tris, adj [][3]int32) error {
	type tri struct {
		v [3]int32
		n mgl64.Vec3
	}
	ts := make([]tri, len(tris))
	for i, t := range tris {
		n, _ := unit(pts[t[1]].Sub(pts[t[0]]).Cross(pts[t[2]].Sub(pts[t[0]])))
		ts[i] = tri{v: t, n: n}
	}
	group := make([]int, len(ts))
	for i := range group {
		group[i] = -1
	}
	var groups [][]int
	for seed := range ts {
		if group[seed] >= 0 {
			continue
		}
		g := len(groups)
		n := ts[seed].n
		d := n.Dot(pts[ts[seed].v[0]])
		members := []int{seed}
		group[seed] = g
		for k := 0; k < len(members); k++ {
			for e := 0; e < 3; e++ {
				nb := int(adj[members[k]][e])
				if group[nb] >= 0 || ts[nb].n.Dot(n) < 1-1e-6 {
					continue
				}
				flat := true
				for _, v := range ts[nb].v {
					if math.Abs(pts[v].Dot(n)-d) > 4*h.eps {
						flat = false
					}
				}
				if flat {
					group[nb] = g
					members = append(members, nb)
				}
			}
		}
		groups = append(groups, members)
	}
	// Boundary loop of every group, in input point indices.
	loops := make([][]int32, 0, len(groups))
	var next [][2]int32 // the group's boundary edges (a, b), sorted by a
	for g, members := range groups {
		next = next[:0]
		start := int32(-1)
		for _, m := range members {
			t := ts[m].v
			for e := 0; e < 3; e++ {
				a, b := t[e], t[(e+1)%3]
				if group[adj[m][e]] == g {
					continue
				}
				next = append(next, [2]int32{a, b})
				if start < 0 || a < start {
					start = a
				}
			}
		}
		slices.SortFunc(next, func(x, y [2]int32) int { return int(x[0] - y[0]) })
		for k := 1; k < len(next); k++ {
			if next[k][0] == next[k-1][0] {
				return fieldErrorf("ConvexHull.points", "produced a non-manifold face (numerically degenerate input)")
			}
		}
		var loop []int32
		v := start
		for steps := 0; ; steps++ {
			loop = append(loop, v)
			k, found := slices.BinarySearchFunc(next, v, func(x [2]int32, v int32) int { return int(x[0] - v) })
			if !found {
				return fieldErrorf("ConvexHull.points", "produced a face with a broken boundary (numerically degenerate input)")
			}
			v = next[k][1]
			if v == start {
				break
			}
			if steps > len(next) {
				return fieldErrorf("ConvexHull.points", "produced a face with a broken boundary (numerically degenerate input)")
			}
		}
		loops = append(loops, loop)
	}
	// Drop loop vertices that lie on a straight edge (points on hull edges that Quickhull
	// kept): they are collinear in every face that holds them.
	for f, loop := range loops {
		for changed := true; changed && len(loop) > 3; {
			changed = false
			for k := 0; k < len(loop); k++ {
				a, b, c := pts[loop[(k+len(loop)-1)%len(loop)]], pts[loop[k]], pts[loop[(k+1)%len(loop)]]
				if b.Sub(a).Cross(c.Sub(b)).Len() <= h.eps*c.Sub(a).Len() {
					loop = append(loop[:k], loop[k+1:]...)
					changed = true
					break
				}
			}
		}
		loops[f] = loop
	}
	remap := make([]int32, len(pts)) // point index → vertex index + 1; 0: not a vertex yet
	for _, loop := range loops {
		first := int32(len(h.faceVerts))
		for _, p := range loop {
			v := remap[p] - 1
			if v < 0 {
				v = int32(len(h.vertices))
				remap[p] = v + 1
				h.vertices = append(h.vertices, pts[p])
			}
			h.faceVerts = append(h.faceVerts, v)
		}
		h.faces = append(h.faces, hullFace{first: first, count: int32(len(loop))})
	}
	// Planes: Newell normal; the offset, enclosing every vertex, once the edges are known.
	for f := range h.faces {
		face := &h.faces[f]
		loop := h.faceVerts[face.first : face.first+face.count]
		var nn mgl64.Vec3
		for i := range loop {
			p, q := h.vertices[loop[i]], h.vertices[loop[(i+1)%len(loop)]]
			nn[0] += (p[1] - q[1]) * (p[2] + q[2])
			nn[1] += (p[2] - q[2]) * (p[0] + q[0])
			nn[2] += (p[0] - q[0]) * (p[1] + q[1])
		}
		n, ok := unit(nn)
		if !ok {
			return fieldErrorf("ConvexHull.points", "produced a degenerate face (numerically degenerate input)")
		}
		face.normal = n
	}
	// Edges with their two faces.
	h.faceEdges = make([]int32, len(h.faceVerts))
	// The edges met so far at each vertex, as linked lists: first[v] is the head (+1; 0 ends),
	// and each node holds the other end, the edge and the next node (+1).
	type edgeNode struct{ other, edge, next int32 }
	first := make([]int32, len(h.vertices))
	nodes := make([]edgeNode, 0, len(h.faceVerts)/2+1)
	for f := range h.faces {
		face := h.faces[f]
		loop := h.faceVerts[face.first : face.first+face.count]
		for i := range loop {
			a, b := loop[i], loop[(i+1)%len(loop)]
			lo, hi := min(a, b), max(a, b)
			e := int32(-1)
			for k := first[lo]; k > 0; k = nodes[k-1].next {
				if nodes[k-1].other == hi {
					e = nodes[k-1].edge
					break
				}
			}
			if e >= 0 {
				h.edges[e].f[1] = int32(f)
				h.faceEdges[face.first+int32(i)] = e
				continue
			}
			nodes = append(nodes, edgeNode{other: hi, edge: int32(len(h.edges)), next: first[lo]})
			first[lo] = int32(len(nodes))
			h.faceEdges[face.first+int32(i)] = int32(len(h.edges))
			h.edges = append(h.edges, hullEdge{v: [2]int32{a, b}, f: [2]int32{int32(f), -1}})
		}
	}
	for i, e := range h.edges {
		if e.f[1] < 0 {
			return fieldErrorf("ConvexHull.points", "produced an open surface (numerically degenerate input)")
		}
		h.edges[i].arc = h.faces[e.f[1]].normal.Cross(h.faces[e.f[0]].normal)
	}
	h.planeOffsets()
	h.local = AABBFromPoints(h.vertices...)
	for _, p := range h.vertices {
		h.center = h.center.Add(p)
	}
	h.center = h.center.Mul(1 / float64(len(h.vertices)))
	return nil
}

// bruteOffsetWork is the most vertex–face products for which planeOffsets tests every vertex
// against every face.
const bruteOffsetWork = 1 << 20

// planeOffsets sets each face's offset to the largest n·p over the hull's vertices, so that the
// plane encloses them all despite the round-off of the face's normal. Small hulls test every
// vertex; larger ones, where that would be quadratic, climb the vertex graph from a vertex of the
// face to a vertex no neighbour of which lies further along n, which on a convex vertex set is
// the largest (on one convex only to within the hull's tolerance, hullEpsilon).
func (h *ConvexHull) planeOffsets() {
	if len(h.vertices)*len(h.faces) <= bruteOffsetWork {
		for f := range h.faces {
			face := &h.faces[f]
			face.offset = math.Inf(-1)
			for _, p := range h.vertices {
				face.offset = max(face.offset, face.normal.Dot(p))
			}
		}
		return
	}
	// Neighbours of each vertex, compressed: vertex v's are adj[start[v]:start[v+1]].
	start := make([]int32, len(h.vertices)+1)
	for _, e := range h.edges {
		start[e.v[0]+1]++
		start[e.v[1]+1]++
	}
	for v := range h.vertices {
		start[v+1] += start[v]
	}
	adj := make([]int32, start[len(h.vertices)])
	fill := slices.Clone(start[:len(h.vertices)])
	for _, e := range h.edges {
		adj[fill[e.v[0]]] = e.v[1]
		fill[e.v[0]]++
		adj[fill[e.v[1]]] = e.v[0]
		fill[e.v[1]]++
	}
	for f := range h.faces {
		face := &h.faces[f]
		n := face.normal
		loop := h.faceVerts[face.first : face.first+face.count]
		v, best := loop[0], n.Dot(h.vertices[loop[0]])
		for _, u := range loop[1:] {
			if d := n.Dot(h.vertices[u]); d > best {
				v, best = u, d
			}
		}
		for moved := true; moved; {
			moved = false
			for _, u := range adj[start[v]:start[v+1]] {
				if d := n.Dot(h.vertices[u]); d > best {
					v, best, moved = u, d, true
				}
			}
		}
		face.offset = best
	}
}

// computeMass integrates volume, centre of mass and second moment over tetrahedra from the
// interior point center to every face triangle (exact for a polyhedron).
func (h *ConvexHull) computeMass() {
	r := h.center
	var vol float64
	var moment mgl64.Vec3
	var c [3][3]float64
	for _, face := range h.faces {
		loop := h.faceVerts[face.first : face.first+face.count]
		a := h.vertices[loop[0]].Sub(r)
		for i := 1; i+1 < len(loop); i++ {
			b := h.vertices[loop[i]].Sub(r)
			cc := h.vertices[loop[i+1]].Sub(r)
			det := a.Dot(b.Cross(cc))
			vol += det / 6
			moment = moment.Add(a.Add(b).Add(cc).Mul(det / 24))
			// ∫ x_j x_k over the tetrahedron (0, a, b, c).
			p := [3]mgl64.Vec3{a, b, cc}
			for j := 0; j < 3; j++ {
				for k := 0; k < 3; k++ {
					s := 0.0
					for u := 0; u < 3; u++ {
						for v := 0; v < 3; v++ {
							w := 1.0
							if u == v {
								w = 2
							}
							s += w * p[u][j] * p[v][k]
						}
					}
					c[j][k] += det * s / 120
				}
			}
		}
	}
	h.volume = vol
	rel := moment.Mul(1 / vol)
	h.com = r.Add(rel)
	var m mgl64.Mat3
	for j := 0; j < 3; j++ {
		for k := 0; k < 3; k++ {
			m.Set(j, k, c[j][k]-vol*rel[j]*rel[k])
		}
	}
	h.unitC = m
}

// Validate checks that the hull was built by NewConvexHull.
func (h *ConvexHull) Validate() error {
	if h == nil || len(h.vertices) < 4 || len(h.faces) < 4 || !(h.volume > 0) {
		return fieldErrorf("ConvexHull", "must be built with NewConvexHull")
	}
	return nil
}

// Kind returns KindConvexHull.
func (h *ConvexHull) Kind() ShapeKind { return KindConvexHull }

// Vertices returns the hull's vertices (local frame). The slice must not be modified.
func (h *ConvexHull) Vertices() []mgl64.Vec3 { return h.vertices }

// NumFaces returns the number of polygon faces.
func (h *ConvexHull) NumFaces() int { return len(h.faces) }

// Face returns face i: its outward unit normal, plane offset (normal·x = offset on the face)
// and vertex indices counter-clockwise seen from outside (a fresh slice). Like a slice index, it
// panics if i is not in [0, NumFaces()).
func (h *ConvexHull) Face(i int) (normal mgl64.Vec3, offset float64, vertices []int) {
	checkIndex("ConvexHull.Face", i, len(h.faces))
	f := h.faces[i]
	out := make([]int, f.count)
	for k := range out {
		out[k] = int(h.faceVerts[f.first+int32(k)])
	}
	return f.normal, f.offset, out
}

// NumEdges returns the number of edges.
func (h *ConvexHull) NumEdges() int { return len(h.edges) }

// Edge returns edge i: its two vertex indices and its two faces. Like a slice index, it panics
// if i is not in [0, NumEdges()).
func (h *ConvexHull) Edge(i int) (v0, v1, f0, f1 int) {
	checkIndex("ConvexHull.Edge", i, len(h.edges))
	e := h.edges[i]
	return int(e.v[0]), int(e.v[1]), int(e.f[0]), int(e.f[1])
}

// Bounds returns the world box of the hull at pose (the box of its transformed vertices:
// exact); for the zero ConvexHull, the point box at pose.Position.
func (h *ConvexHull) Bounds(pose Pose) AABB {
	if len(h.vertices) == 0 {
		return AABB{Min: pose.Position, Max: pose.Position}
	}
	f := pose.frame()
	b := AABB{Min: f.apply(h.vertices[0]), Max: f.apply(h.vertices[0])}
	for _, p := range h.vertices[1:] {
		b = b.AddPoint(f.apply(p))
	}
	return b
}

// Volume returns the hull's volume.
func (h *ConvexHull) Volume() float64 { return h.volume }

// MassProperties returns the exact mass, centre of mass and inertia of the solid polyhedron.
// The centre of mass is generally not at the local origin.
func (h *ConvexHull) MassProperties(density float64) (MassProperties, error) {
	if err := h.Validate(); err != nil {
		return MassProperties{}, err
	}
	if err := checkDensity(density); err != nil {
		return MassProperties{}, err
	}
	c := h.unitC.Mul(density)
	tr := c.Trace()
	var inertia mgl64.Mat3
	for j := 0; j < 3; j++ {
		for k := 0; k < 3; k++ {
			v := -c.At(j, k)
			if j == k {
				v += tr
			}
			inertia.Set(j, k, v)
		}
	}
	return MassProperties{Mass: density * h.volume, CenterOfMass: h.com, Inertia: inertia}, nil
}

// Support returns the vertex furthest along d (the lowest index among ties; vertex 0 for
// d = 0); for the zero ConvexHull, the origin.
func (h *ConvexHull) Support(d mgl64.Vec3) mgl64.Vec3 {
	if len(h.vertices) == 0 {
		return mgl64.Vec3{}
	}
	return h.vertices[h.supportIndex(d)]
}

// supportIndex returns the index of the vertex furthest along d.
func (h *ConvexHull) supportIndex(d mgl64.Vec3) int {
	if hasNaN(d) {
		return 0
	}
	best, bd := 0, h.vertices[0].Dot(d)
	for i := 1; i < len(h.vertices); i++ {
		if v := h.vertices[i].Dot(d); v > bd {
			best, bd = i, v
		}
	}
	return best
}

// SignedDistance returns the exact signed distance: inside, the largest face-plane distance
// (normal of that face); outside, the distance to the closest surface point (found by GJK) and
// the direction from it. A point with a NaN coordinate is reported at +Inf. The zero ConvexHull
// answers as the point at the origin.
func (h *ConvexHull) SignedDistance(p mgl64.Vec3) (float64, mgl64.Vec3) {
	if len(h.faces) == 0 {
		return pointDistance(p)
	}
	if hasNaN(p) {
		return math.Inf(1), mgl64.Vec3{0, 0, 1}
	}
	best, bf := math.Inf(-1), 0
	for i, f := range h.faces {
		if d := f.normal.Dot(p) - f.offset; d > best {
			best, bf = d, i
		}
	}
	if best <= 0 {
		return best, h.faces[bf].normal
	}
	q := h.closestPoint(p)
	d := p.Sub(q)
	return length(d), unitOr(d, h.faces[bf].normal)
}

// closestPoint returns the point of the hull closest to the outside point p.
func (h *ConvexHull) closestPoint(p mgl64.Vec3) mgl64.Vec3 {
	id := IdentityPose().frame()
	a := hullGJK(h, &id)
	b := pointsGJK(p)
	r := gjkDistance(&a, &b, p.Sub(h.center))
	if r.intersects {
		return p
	}
	return r.pa
}

// featureAt returns the hull feature holding the surface point q: the face whose plane holds
// it alone, the edge of two such faces, or the nearest vertex.
func (h *ConvexHull) featureAt(q mgl64.Vec3) Feature {
	tol := 1e3 * h.eps
	f0, f1, count := -1, -1, 0
	for i, f := range h.faces {
		if math.Abs(f.normal.Dot(q)-f.offset) <= tol {
			if count == 0 {
				f0 = i
			} else if count == 1 {
				f1 = i
			}
			count++
		}
	}
	switch {
	case count == 1:
		return FaceFeature(f0)
	case count == 2:
		for i, e := range h.edges {
			if (int(e.f[0]) == f0 && int(e.f[1]) == f1) || (int(e.f[0]) == f1 && int(e.f[1]) == f0) {
				return EdgeFeature(i)
			}
		}
	}
	if count == 0 {
		// Not on the surface (inside): the face of the largest plane distance.
		best, bf := math.Inf(-1), 0
		for i, f := range h.faces {
			if d := f.normal.Dot(q) - f.offset; d > best {
				best, bf = d, i
			}
		}
		return FaceFeature(bf)
	}
	bv, bd := 0, math.Inf(1)
	for i, v := range h.vertices {
		if d := v.Sub(q).LenSqr(); d < bd {
			bv, bd = i, d
		}
	}
	return VertexFeature(bv)
}

// NewConvexHullCentered builds the hull of points moved so that its centre of mass is at the
// local origin (as dynamic bodies require) and returns the offset that was subtracted: the
// hull placed at pose p covers the original points placed at p.Mul(Pose{Position: offset}).
func NewConvexHullCentered(points []mgl64.Vec3) (*ConvexHull, mgl64.Vec3, error) {
	h, err := NewConvexHull(points)
	if err != nil {
		return nil, mgl64.Vec3{}, err
	}
	off := h.com
	moved := make([]mgl64.Vec3, len(points))
	for i, p := range points {
		moved[i] = p.Sub(off)
	}
	c, err := NewConvexHull(moved)
	if err != nil {
		return nil, mgl64.Vec3{}, err
	}
	return c, off, nil
}
