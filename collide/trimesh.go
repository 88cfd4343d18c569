package collide

import (
	"math"
	"strconv"

	"github.com/go-gl/mathgl/mgl64"
)

// meshLeafSize is the most triangles a BVH leaf holds.
const meshLeafSize = 4

// meshStackSize bounds BVH traversal stacks (a median-split tree of 2³⁰ triangles is 29 deep).
const meshStackSize = 64

// meshEdge is an edge of the mesh with its (one or two) triangles.
type meshEdge struct {
	v      [2]int32
	t      [2]int32 // t[1] = -1 on a boundary edge
	convex bool     // boundary, non-manifold, or a ridge: contact normals off the faces are allowed
}

// bvhNode is a node of the mesh's bounding volume hierarchy: an internal node has two children
// (left, right); a leaf (left < 0) holds order[first : first+count].
type bvhNode struct {
	box                       AABB
	left, right, first, count int32
}

// TriangleMesh is a static triangle surface (level geometry, terrain) with its own bounding
// volume hierarchy. It can only be static: it has no mass. Build it with NewTriangleMesh.
//
// Features for contact feature ids are per triangle, so contacts found through different
// triangles never share an id: face i is triangle i, edge 3i+k is the edge of triangle i from
// its corner k to corner k+1, and vertex 3i+k is corner k of triangle i.
//
// Signed distance uses angle-weighted pseudo-normals, so it is exactly signed for a closed,
// consistently oriented mesh; for an open mesh (terrain) "inside" means behind the nearest
// triangle's front face.
type TriangleMesh struct {
	vertices   []mgl64.Vec3
	tris       [][3]int32
	normals    []mgl64.Vec3
	triEdges   [][3]int32
	edges      []meshEdge
	edgeNormal []mgl64.Vec3
	vertNormal []mgl64.Vec3
	closed     bool
	volume     float64
	nodes      []bvhNode
	order      []int32
	local      AABB
	scale      float64
}

// NewTriangleMesh builds a mesh from vertices and triangles (indices into vertices, counter-
// clockwise seen from the front). Non-finite vertices, out-of-range indices and degenerate
// (zero-area) triangles are errors naming the entry.
func NewTriangleMesh(vertices []mgl64.Vec3, triangles [][3]int) (*TriangleMesh, error) {
	if len(vertices) == 0 {
		return nil, fieldErrorf("TriangleMesh.vertices", "must not be empty")
	}
	if len(triangles) == 0 {
		return nil, fieldErrorf("TriangleMesh.triangles", "must not be empty")
	}
	if len(triangles) >= 1<<28 || len(vertices) >= 1<<30 {
		return nil, fieldErrorf("TriangleMesh.triangles", "too many triangles (%d) or vertices (%d)", len(triangles), len(vertices))
	}
	for i, v := range vertices {
		if err := checkFiniteVec("TriangleMesh.vertices["+strconv.Itoa(i)+"]", v); err != nil {
			return nil, err
		}
	}
	m := &TriangleMesh{vertices: append([]mgl64.Vec3(nil), vertices...)}
	m.local = AABBFromPoints(m.vertices...)
	m.scale = max(m.local.Size().Len(), 1e-300)
	m.tris = make([][3]int32, len(triangles))
	m.normals = make([]mgl64.Vec3, len(triangles))
	for i, t := range triangles {
		field := "TriangleMesh.triangles[" + strconv.Itoa(i) + "]"
		for k := 0; k < 3; k++ {
			if t[k] < 0 || t[k] >= len(vertices) {
				return nil, fieldErrorf(field, "index %d out of range [0, %d)", t[k], len(vertices))
			}
			m.tris[i][k] = int32(t[k])
		}
		a, b, c := m.vertices[t[0]], m.vertices[t[1]], m.vertices[t[2]]
		cr := b.Sub(a).Cross(c.Sub(a))
		if cr.Len() <= 1e-12*m.scale*m.scale {
			return nil, fieldErrorf(field, "is degenerate (zero area)")
		}
		m.normals[i] = cr.Normalize()
	}
	m.buildEdges()
	m.buildPseudoNormals()
	m.buildBVH()
	if m.closed {
		for _, t := range m.tris {
			a, b, c := m.vertices[t[0]], m.vertices[t[1]], m.vertices[t[2]]
			m.volume += a.Dot(b.Cross(c)) / 6
		}
		m.volume = math.Abs(m.volume)
	}
	return m, nil
}

// buildEdges finds the unique edges, their triangles, convexity and whether the mesh is closed.
func (m *TriangleMesh) buildEdges() {
	index := map[[2]int32]int32{}
	m.triEdges = make([][3]int32, len(m.tris))
	count := map[int32]int{}
	for ti, t := range m.tris {
		for k := 0; k < 3; k++ {
			a, b := t[k], t[(k+1)%3]
			key := [2]int32{min(a, b), max(a, b)}
			e, ok := index[key]
			if !ok {
				e = int32(len(m.edges))
				index[key] = e
				m.edges = append(m.edges, meshEdge{v: [2]int32{a, b}, t: [2]int32{int32(ti), -1}})
			} else if m.edges[e].t[1] < 0 {
				m.edges[e].t[1] = int32(ti)
			}
			count[e]++
			m.triEdges[ti][k] = e
		}
	}
	m.closed = true
	for i := range m.edges {
		e := &m.edges[i]
		if count[int32(i)] != 2 || e.t[1] < 0 {
			m.closed = false
			e.convex = true
			continue
		}
		// Ridge if the second triangle's far vertex lies below the first triangle's plane.
		t0, t1 := e.t[0], e.t[1]
		far := m.tris[t1][0] + m.tris[t1][1] + m.tris[t1][2] - e.v[0] - e.v[1]
		w := m.vertices[far].Sub(m.vertices[e.v[0]])
		e.convex = m.normals[t0].Dot(w) < -1e-3*w.Len()
		// A closed mesh needs the two triangles to run the edge in opposite directions.
		if m.runs(t0, e.v[0], e.v[1]) == m.runs(t1, e.v[0], e.v[1]) {
			m.closed = false
		}
	}
}

// runs reports whether triangle t has the directed edge a → b.
func (m *TriangleMesh) runs(t, a, b int32) bool {
	v := m.tris[t]
	for k := 0; k < 3; k++ {
		if v[k] == a && v[(k+1)%3] == b {
			return true
		}
	}
	return false
}

// buildPseudoNormals computes edge normals (sum of the adjacent face normals) and
// angle-weighted vertex normals.
func (m *TriangleMesh) buildPseudoNormals() {
	m.edgeNormal = make([]mgl64.Vec3, len(m.edges))
	for i, e := range m.edges {
		n := m.normals[e.t[0]]
		if e.t[1] >= 0 {
			n = n.Add(m.normals[e.t[1]])
		}
		m.edgeNormal[i] = unitOr(n, m.normals[e.t[0]])
	}
	m.vertNormal = make([]mgl64.Vec3, len(m.vertices))
	for ti, t := range m.tris {
		for k := 0; k < 3; k++ {
			p := m.vertices[t[k]]
			u := m.vertices[t[(k+1)%3]].Sub(p)
			w := m.vertices[t[(k+2)%3]].Sub(p)
			ang := math.Atan2(u.Cross(w).Len(), u.Dot(w))
			m.vertNormal[t[k]] = madd(m.vertNormal[t[k]], m.normals[ti], ang)
		}
	}
	for i, n := range m.vertNormal {
		m.vertNormal[i] = unitOr(n, mgl64.Vec3{0, 0, 1})
	}
}

// triBox returns the bounds of triangle t.
func (m *TriangleMesh) triBox(t int32) AABB {
	v := m.tris[t]
	return AABBFromPoints(m.vertices[v[0]], m.vertices[v[1]], m.vertices[v[2]])
}

// buildBVH builds the hierarchy top-down, splitting at the median centroid of the widest axis.
func (m *TriangleMesh) buildBVH() {
	m.order = make([]int32, len(m.tris))
	for i := range m.order {
		m.order[i] = int32(i)
	}
	m.nodes = make([]bvhNode, 0, 2*len(m.tris)/meshLeafSize+1)
	m.buildNode(0, int32(len(m.tris)))
}

// buildNode builds the subtree over order[first:end] and returns its index.
func (m *TriangleMesh) buildNode(first, end int32) int32 {
	idx := int32(len(m.nodes))
	m.nodes = append(m.nodes, bvhNode{left: -1, right: -1, first: first, count: end - first})
	box := m.triBox(m.order[first])
	cb := AABB{Min: box.Center(), Max: box.Center()}
	for _, t := range m.order[first+1 : end] {
		b := m.triBox(t)
		box = box.Union(b)
		cb = cb.AddPoint(b.Center())
	}
	m.nodes[idx].box = box
	if end-first <= meshLeafSize {
		return idx
	}
	size := cb.Size()
	axis := 0
	if size[1] > size[axis] {
		axis = 1
	}
	if size[2] > size[axis] {
		axis = 2
	}
	part := m.order[first:end]
	centre := func(t int32) float64 {
		v := m.tris[t]
		return m.vertices[v[0]][axis] + m.vertices[v[1]][axis] + m.vertices[v[2]][axis]
	}
	mid := len(part) / 2
	// Quickselect the median by centroid (ties by index, deterministic).
	less := func(a, b int32) bool {
		ca, cb := centre(a), centre(b)
		if ca != cb {
			return ca < cb
		}
		return a < b
	}
	quickselect(part, mid, less)
	l := m.buildNode(first, first+int32(mid))
	r := m.buildNode(first+int32(mid), end)
	m.nodes[idx].left, m.nodes[idx].right = l, r
	return idx
}

// queryBox calls visit for every triangle whose bounds overlap box (local frame), in a
// deterministic order; visit returns false to stop.
func (m *TriangleMesh) queryBox(box AABB, visit func(t int32) bool) {
	var stack [meshStackSize]int32
	sp := 0
	stack[sp] = 0
	sp++
	for sp > 0 {
		sp--
		n := &m.nodes[stack[sp]]
		if !n.box.Overlaps(box) {
			continue
		}
		if n.left < 0 {
			for _, t := range m.order[n.first : n.first+n.count] {
				if m.triBox(t).Overlaps(box) && !visit(t) {
					return
				}
			}
			continue
		}
		stack[sp], stack[sp+1] = n.right, n.left
		sp += 2
	}
}

// closest returns the triangle, closest point and region nearest to p (local frame).
func (m *TriangleMesh) closest(p mgl64.Vec3) (int32, mgl64.Vec3, int) {
	var stack [meshStackSize]int32
	sp := 0
	stack[sp] = 0
	sp++
	best := math.Inf(1)
	bt, bq, br := int32(0), mgl64.Vec3{}, 0
	for sp > 0 {
		sp--
		n := &m.nodes[stack[sp]]
		if boxDist2(n.box, p) >= best {
			continue
		}
		if n.left < 0 {
			for _, t := range m.order[n.first : n.first+n.count] {
				v := m.tris[t]
				q, _, region := ClosestOnTriangle(p, m.vertices[v[0]], m.vertices[v[1]], m.vertices[v[2]])
				if d := q.Sub(p).LenSqr(); d < best || (d == best && t < bt) {
					best, bt, bq, br = d, t, q, region
				}
			}
			continue
		}
		// Visit the nearer child first.
		l, r := n.left, n.right
		if boxDist2(m.nodes[l].box, p) < boxDist2(m.nodes[r].box, p) {
			l, r = r, l
		}
		stack[sp], stack[sp+1] = l, r
		sp += 2
	}
	return bt, bq, br
}

// boxDist2 is the squared distance from p to the box (0 inside).
func boxDist2(b AABB, p mgl64.Vec3) float64 {
	s := 0.0
	for i := 0; i < 3; i++ {
		if d := b.Min[i] - p[i]; d > 0 {
			s += d * d
		} else if d := p[i] - b.Max[i]; d > 0 {
			s += d * d
		}
	}
	return s
}

// regionFeature returns the mesh feature of a closest-point region of triangle t, and its
// pseudo-normal.
func (m *TriangleMesh) regionFeature(t int32, region int) (Feature, mgl64.Vec3) {
	switch {
	case region == 0:
		return FaceFeature(int(t)), m.normals[t]
	case region <= 3:
		v := m.tris[t][region-1]
		return VertexFeature(3*int(t) + region - 1), m.vertNormal[v]
	}
	e := m.triEdges[t][region-4]
	return EdgeFeature(3*int(t) + region - 4), m.edgeNormal[e]
}

// Validate checks that the mesh was built by NewTriangleMesh.
func (m *TriangleMesh) Validate() error {
	if m == nil || len(m.tris) == 0 || len(m.nodes) == 0 {
		return fieldErrorf("TriangleMesh", "must be built with NewTriangleMesh")
	}
	return nil
}

// Kind returns KindTriangleMesh.
func (m *TriangleMesh) Kind() ShapeKind { return KindTriangleMesh }

// NumTriangles returns the number of triangles.
func (m *TriangleMesh) NumTriangles() int { return len(m.tris) }

// Triangle returns the local corners of triangle i. Like a slice index, it panics if i is not in
// [0, NumTriangles()).
func (m *TriangleMesh) Triangle(i int) [3]mgl64.Vec3 {
	checkIndex("TriangleMesh.Triangle", i, len(m.tris))
	t := m.tris[i]
	return [3]mgl64.Vec3{m.vertices[t[0]], m.vertices[t[1]], m.vertices[t[2]]}
}

// Closed reports whether every edge joins exactly two triangles running it in opposite
// directions (a watertight, consistently oriented surface).
func (m *TriangleMesh) Closed() bool { return m.closed }

// Bounds returns the world box of the mesh's local bounding box placed at pose: exact when the
// rotation maps axes to axes, conservative otherwise.
func (m *TriangleMesh) Bounds(pose Pose) AABB {
	return transformAABB(m.local, pose)
}

// transformAABB returns the world box enclosing the local box b placed at pose.
func transformAABB(b AABB, pose Pose) AABB {
	f := pose.frame()
	return transformAABBFrame(b, &f)
}

// transformAABBFrame returns the box enclosing the box b transformed by f.
func transformAABBFrame(b AABB, f *frame) AABB {
	c := f.apply(b.Center())
	h := b.Size().Mul(0.5)
	var e mgl64.Vec3
	for j := 0; j < 3; j++ {
		e[j] = math.Abs(f.axis[0][j])*h[0] + math.Abs(f.axis[1][j])*h[1] + math.Abs(f.axis[2][j])*h[2]
	}
	return AABB{Min: c.Sub(e), Max: c.Add(e)}
}

// Volume returns the enclosed volume of a closed mesh and 0 for an open surface.
func (m *TriangleMesh) Volume() float64 { return m.volume }

// MassProperties always fails: a triangle mesh can only be static.
func (m *TriangleMesh) MassProperties(density float64) (MassProperties, error) {
	return MassProperties{}, fieldErrorf("TriangleMesh", "can only be static (no mass properties), density %v", density)
}

// Support returns the vertex furthest along d (vertex 0 for d = 0); for the zero TriangleMesh,
// the origin.
func (m *TriangleMesh) Support(d mgl64.Vec3) mgl64.Vec3 {
	if len(m.vertices) == 0 {
		return mgl64.Vec3{}
	}
	best, bd := 0, m.vertices[0].Dot(d)
	if hasNaN(d) {
		return m.vertices[0]
	}
	for i := 1; i < len(m.vertices); i++ {
		if v := m.vertices[i].Dot(d); v > bd {
			best, bd = i, v
		}
	}
	return m.vertices[best]
}

// SignedDistance returns the distance to the nearest triangle, signed by the angle-weighted
// pseudo-normal of the nearest feature, and the gradient direction. A point with a NaN
// coordinate is reported at +Inf. The zero TriangleMesh answers as the point at the origin.
func (m *TriangleMesh) SignedDistance(p mgl64.Vec3) (float64, mgl64.Vec3) {
	if len(m.tris) == 0 || len(m.nodes) == 0 {
		return pointDistance(p)
	}
	if hasNaN(p) {
		return math.Inf(1), mgl64.Vec3{0, 0, 1}
	}
	t, q, region := m.closest(p)
	_, pn := m.regionFeature(t, region)
	d := p.Sub(q)
	dist := length(d)
	if dist == 0 {
		return 0, m.normals[t]
	}
	dir := d.Mul(1 / dist)
	if dir.Dot(pn) < 0 {
		return -dist, dir.Mul(-1)
	}
	return dist, dir
}

// rayCastLocal intersects a ray with the mesh's triangles (either side) through the BVH.
func (m *TriangleMesh) rayCastLocal(o, d mgl64.Vec3, maxT float64) (float64, mgl64.Vec3, Feature, bool) {
	inv := mgl64.Vec3{1 / d[0], 1 / d[1], 1 / d[2]}
	var stack [meshStackSize]int32
	sp := 0
	stack[sp] = 0
	sp++
	best, bt := maxT, int32(-1)
	for sp > 0 {
		sp--
		n := &m.nodes[stack[sp]]
		if _, _, hit := n.box.IntersectRay(o, inv, best); !hit {
			continue
		}
		if n.left < 0 {
			for _, t := range m.order[n.first : n.first+n.count] {
				v := m.tris[t]
				if th, ok := rayTriangle(o, d, m.vertices[v[0]], m.vertices[v[1]], m.vertices[v[2]]); ok && (th < best || (th == best && t < bt)) {
					best, bt = th, t
				}
			}
			continue
		}
		stack[sp], stack[sp+1] = n.right, n.left
		sp += 2
	}
	if bt < 0 {
		return 0, mgl64.Vec3{}, 0, false
	}
	n := m.normals[bt]
	if n.Dot(d) > 0 {
		n = n.Mul(-1) // hit from behind: the normal faces the ray
	}
	return best, n, FaceFeature(int(bt)), true
}

// RayTriangle intersects the ray o + t·d (t >= 0, d any non-zero direction; t is in units of its
// length) with the triangle (a, b, c), from either side, by the Möller–Trumbore test the triangle
// mesh's ray cast uses, and returns t and whether the ray hits. A ray in the triangle's plane
// misses it. It is for callers with triangles of their own, such as the deformed surface of a
// deformable body; the arguments are not checked.
func RayTriangle(o, d, a, b, c mgl64.Vec3) (float64, bool) { return rayTriangle(o, d, a, b, c) }

// rayTriangle intersects the ray o + t·d (t >= 0) with triangle (a, b, c), either side
// (Möller–Trumbore).
func rayTriangle(o, d, a, b, c mgl64.Vec3) (float64, bool) {
	e1, e2 := b.Sub(a), c.Sub(a)
	p := d.Cross(e2)
	det := e1.Dot(p)
	if math.Abs(det) < 1e-300 {
		return 0, false
	}
	inv := 1 / det
	s := o.Sub(a)
	u := s.Dot(p) * inv
	if u < 0 || u > 1 {
		return 0, false
	}
	q := s.Cross(e1)
	v := d.Dot(q) * inv
	if v < 0 || u+v > 1 {
		return 0, false
	}
	t := e2.Dot(q) * inv
	return t, t >= 0
}
