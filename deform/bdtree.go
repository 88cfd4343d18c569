package deform

import (
	"fmt"
	"math"
	"slices"

	"github.com/go-gl/mathgl/mgl64"
)

// internalPad widens an internal node's refitted radius, relative to itself, so that it still
// holds its children's spheres after the round-off of their centres' sums: nesting is what makes
// a query's pruning exact.
const internalPad = 1e-9

// BDTree is a bounded-deformation sphere tree (James & Pai 2004, "BD-Tree: output-sensitive
// collision detection for reduced deformable models") over the surface triangles of a reduced
// body, whose points move as x + R (x̄ + Σ_k z_k Φ_k) with the frame's origin x and rotation R,
// the rest positions x̄ (relative to the frame) and the modes Φ_k. Built once from the rest shape
// and the modal basis, every node's sphere has a centre linear in the modal coordinates and a
// radius bounded linearly by their magnitudes,
//
//	c(z) = c̄ + Σ_k z_k c_k,   r(z) = r̄ + Σ_k |z_k| r_k,
//
// with c̄ and c_k the mean rest position and mean mode displacement of the node's vertices. At a
// leaf r̄ = max_v ‖x̄_v − c̄‖ and r_k = max_v ‖Φ_k(v) − c_k‖, so by the triangle inequality
// ‖p_v(z) − c(z)‖ ≤ r̄ + Σ|z_k| r_k: the sphere holds every deformed vertex, hence (being convex)
// every deformed triangle of the leaf. An internal node takes, per coefficient, the largest of its
// children's offset plus coefficient (r̄ = max ‖c̄_ch − c̄‖ + r̄_ch, r_k = max ‖c_ch,k − c_k‖ +
// r_ch,k), so its sphere holds its children's spheres for every z, and a query that prunes at a
// node misses no pair of leaf spheres below it. Refit costs O(r) per node and touches no vertex;
// the frame's rigid motion moves the centres. A tree is not safe for concurrent use.
type BDTree struct {
	r         int
	triangles [][3]int32
	// order lists the triangle indices grouped by leaf: leaf n holds
	// order[nodes[n].first : nodes[n].first+nodes[n].count].
	order []int32
	nodes []bdNode
	// modeCentres and modeRadii hold node n's c_k and r_k at n*r + k.
	modeCentres []mgl64.Vec3
	modeRadii   []float64
	// centres (world) and radii are the spheres at the last Refit.
	centres []mgl64.Vec3
	radii   []float64
	stack   [][2]int32 // a query's pending node pairs
}

// bdNode is one node of a BDTree: its rest sphere and either two children or a run of triangles.
type bdNode struct {
	centre       mgl64.Vec3 // c̄, in the body frame
	radius       float64    // r̄
	child        [2]int32   // children, or −1 for a leaf
	first, count int32      // a leaf's triangles in order
}

// NewBDTree builds the tree over triangles (indices into the points) of points with rest positions
// rest, in the body frame relative to its origin, and mode displacements modes (point a's mode k
// at modes[a*r+k], body frame), with at most leafSize triangles per leaf. The tree starts refitted
// at the rest shape with the frame at the origin. It refuses an empty surface, mismatched sizes,
// indices out of range, non-finite values and a leaf size below 1, naming the argument.
func NewBDTree(rest, modes []mgl64.Vec3, r int, triangles [][3]int32, leafSize int) (*BDTree, error) {
	n := len(rest)
	switch {
	case r < 0:
		return nil, fmt.Errorf("deform: NewBDTree r: must be ≥ 0, got %d", r)
	case len(modes) != n*r:
		return nil, fmt.Errorf("deform: NewBDTree modes: needs r = %d entries per point (%d), got %d", r, n*r, len(modes))
	case len(triangles) == 0:
		return nil, fmt.Errorf("deform: NewBDTree triangles: empty")
	case leafSize < 1:
		return nil, fmt.Errorf("deform: NewBDTree leafSize: must be ≥ 1, got %d", leafSize)
	}
	for a, p := range rest {
		if !finiteVec3(p) {
			return nil, fmt.Errorf("deform: NewBDTree rest[%d]: not finite: %v", a, p)
		}
	}
	for i, p := range modes {
		if !finiteVec3(p) {
			return nil, fmt.Errorf("deform: NewBDTree modes[%d]: not finite: %v", i, p)
		}
	}
	for t, tri := range triangles {
		for _, v := range tri {
			if v < 0 || int(v) >= n {
				return nil, fmt.Errorf("deform: NewBDTree triangles[%d]: vertex %d out of range [0, %d)", t, v, n)
			}
		}
	}
	t := &BDTree{r: r, triangles: triangles, order: make([]int32, len(triangles))}
	for i := range t.order {
		t.order[i] = int32(i)
	}
	b := bdBuilder{tree: t, rest: rest, modes: modes, leafSize: leafSize, mark: make([]int32, n)}
	b.centroids = make([]mgl64.Vec3, len(triangles))
	for i, tri := range triangles {
		b.centroids[i] = rest[tri[0]].Add(rest[tri[1]]).Add(rest[tri[2]]).Mul(1.0 / 3)
	}
	b.build(0, int32(len(triangles)))
	t.centres = make([]mgl64.Vec3, len(t.nodes))
	t.radii = make([]float64, len(t.nodes))
	t.stack = make([][2]int32, 0, 64)
	if err := t.Refit(mgl64.Vec3{}, mgl64.QuatIdent(), make([]float64, r)); err != nil {
		return nil, err
	}
	return t, nil
}

// bdBuilder holds what building a BDTree needs besides the tree.
type bdBuilder struct {
	tree      *BDTree
	rest      []mgl64.Vec3
	modes     []mgl64.Vec3
	centroids []mgl64.Vec3 // per triangle, at rest
	leafSize  int
	mark      []int32 // per point: the last node (+1) that counted it
	verts     []int32
}

// build makes the node over order[first:end], splitting at the median centroid along the longest
// side of the centroids' box (ties by triangle index, so the tree is the same on every build), and
// returns its index. Nodes are numbered in preorder; their spheres are set after their children's.
func (b *bdBuilder) build(first, end int32) int32 {
	t := b.tree
	id := int32(len(t.nodes))
	t.nodes = append(t.nodes, bdNode{child: [2]int32{-1, -1}, first: first, count: end - first})
	t.modeCentres = append(t.modeCentres, make([]mgl64.Vec3, t.r)...)
	t.modeRadii = append(t.modeRadii, make([]float64, t.r)...)
	tris := t.order[first:end]
	if len(tris) > b.leafSize {
		lo, hi := b.centroids[tris[0]], b.centroids[tris[0]]
		for _, i := range tris[1:] {
			c := b.centroids[i]
			for k := 0; k < 3; k++ {
				lo[k], hi[k] = min(lo[k], c[k]), max(hi[k], c[k])
			}
		}
		axis := 0
		for k := 1; k < 3; k++ {
			if hi[k]-lo[k] > hi[axis]-lo[axis] {
				axis = k
			}
		}
		slices.SortFunc(tris, func(x, y int32) int {
			if cx, cy := b.centroids[x][axis], b.centroids[y][axis]; cx != cy {
				if cx < cy {
					return -1
				}
				return 1
			}
			return int(x - y)
		})
		mid := first + (end-first)/2
		left := b.build(first, mid)
		right := b.build(mid, end)
		t.nodes[id].child = [2]int32{left, right}
	}
	b.sphere(id)
	return id
}

// sphere sets node id's rest centre, mode centres and radius coefficients (see BDTree).
func (b *bdBuilder) sphere(id int32) {
	t := b.tree
	nd := &t.nodes[id]
	r := t.r
	// The node's distinct vertices.
	b.verts = b.verts[:0]
	for _, i := range t.order[nd.first : nd.first+nd.count] {
		for _, v := range t.triangles[i] {
			if b.mark[v] != id+1 {
				b.mark[v] = id + 1
				b.verts = append(b.verts, v)
			}
		}
	}
	w := 1 / float64(len(b.verts))
	var c mgl64.Vec3
	ck := t.modeCentres[int(id)*r : int(id+1)*r]
	rk := t.modeRadii[int(id)*r : int(id+1)*r]
	for _, v := range b.verts {
		c = c.Add(b.rest[v].Mul(w))
		for k := range ck {
			ck[k] = ck[k].Add(b.modes[int(v)*r+k].Mul(w))
		}
	}
	nd.centre = c
	if nd.child[0] < 0 {
		for _, v := range b.verts {
			nd.radius = max(nd.radius, b.rest[v].Sub(c).Len())
			for k := range rk {
				rk[k] = max(rk[k], b.modes[int(v)*r+k].Sub(ck[k]).Len())
			}
		}
		return
	}
	for _, ch := range nd.child {
		cn := &t.nodes[ch]
		nd.radius = max(nd.radius, cn.centre.Sub(c).Len()+cn.radius)
		for k := range rk {
			rk[k] = max(rk[k], t.modeCentres[int(ch)*r+k].Sub(ck[k]).Len()+t.modeRadii[int(ch)*r+k])
		}
	}
}

// NumModes returns r, the number of modal coordinates Refit takes.
func (t *BDTree) NumModes() int { return t.r }

// NumNodes returns the number of nodes; node 0 is the root.
func (t *BDTree) NumNodes() int { return len(t.nodes) }

// Sphere returns node n's world centre and radius at the last Refit (zero for n out of range).
func (t *BDTree) Sphere(n int) (mgl64.Vec3, float64) {
	if n < 0 || n >= len(t.nodes) {
		return mgl64.Vec3{}, 0
	}
	return t.centres[n], t.radii[n]
}

// Children returns node n's two children, and false for a leaf (or n out of range).
func (t *BDTree) Children(n int) ([2]int32, bool) {
	if n < 0 || n >= len(t.nodes) || t.nodes[n].child[0] < 0 {
		return [2]int32{-1, -1}, false
	}
	return t.nodes[n].child, true
}

// LeafTriangles returns the indices (into the triangles the tree was built over) of leaf n's
// triangles, or nil when n is not a leaf. The slice is the tree's: do not modify it.
func (t *BDTree) LeafTriangles(n int) []int32 {
	if n < 0 || n >= len(t.nodes) || t.nodes[n].child[0] >= 0 {
		return nil
	}
	nd := &t.nodes[n]
	return t.order[nd.first : nd.first+nd.count]
}

// Refit places every node's sphere for the frame at position with orientation and the modal
// coordinates z (r entries): centre position + R c(z), radius r̄ + Σ|z_k| r_k. It costs O(r) per
// node and does not allocate. It refuses a wrong length, non-finite values and a zero orientation,
// and changes nothing then.
func (t *BDTree) Refit(position mgl64.Vec3, orientation mgl64.Quat, z []float64) error {
	if len(z) != t.r {
		return fmt.Errorf("deform: BDTree.Refit z: needs %d entries, got %d", t.r, len(z))
	}
	for k, x := range z {
		if !finite(x) {
			return fmt.Errorf("deform: BDTree.Refit z[%d]: not finite: %v", k, x)
		}
	}
	n2 := orientation.W*orientation.W + orientation.V.Dot(orientation.V)
	switch {
	case !finiteVec3(position):
		return fmt.Errorf("deform: BDTree.Refit position: not finite: %v", position)
	case !(n2 > 0) || !finite(n2) || !finite(orientation.W):
		return fmt.Errorf("deform: BDTree.Refit orientation: must be finite and non-zero, got %v", orientation)
	}
	rot := orientation.Normalize().Mat4().Mat3()
	r := t.r
	for n := range t.nodes {
		nd := &t.nodes[n]
		c, rad := nd.centre, nd.radius
		ck := t.modeCentres[n*r : (n+1)*r]
		rk := t.modeRadii[n*r : (n+1)*r]
		for k, zk := range z {
			c = c.Add(ck[k].Mul(zk))
			rad += math.Abs(zk) * rk[k]
		}
		if nd.child[0] >= 0 {
			rad *= 1 + internalPad
		}
		t.centres[n] = position.Add(rot.Mul3x1(c))
		t.radii[n] = rad
	}
	return nil
}

// Overlaps appends to dst[:0] every pair (leaf of t, leaf of o) whose refitted spheres come within
// margin of each other (‖c_a − c_b‖ ≤ r_a + r_b + margin) and returns it, in a fixed order for
// the same spheres. The spheres of each node hold those of its children, so it finds exactly the
// pairs a test of all leaf pairs finds, visiting only the node pairs whose spheres meet. It
// refuses a negative or non-finite margin and a nil o. Once dst and the tree's stack have grown
// it does not allocate.
func (t *BDTree) Overlaps(o *BDTree, margin float64, dst [][2]int32) ([][2]int32, error) {
	dst = dst[:0]
	switch {
	case o == nil:
		return dst, fmt.Errorf("deform: BDTree.Overlaps o: nil")
	case !(margin >= 0) || !finite(margin):
		return dst, fmt.Errorf("deform: BDTree.Overlaps margin: must be finite and ≥ 0, got %v", margin)
	}
	st := append(t.stack[:0], [2]int32{0, 0})
	for len(st) > 0 {
		p := st[len(st)-1]
		st = st[:len(st)-1]
		a, b := p[0], p[1]
		reach := t.radii[a] + o.radii[b] + margin
		if t.centres[a].Sub(o.centres[b]).LenSqr() > reach*reach {
			continue
		}
		ca, cb := t.nodes[a].child, o.nodes[b].child
		switch {
		case ca[0] < 0 && cb[0] < 0:
			dst = append(dst, p)
		case cb[0] < 0 || (ca[0] >= 0 && t.radii[a] >= o.radii[b]):
			// Descend the larger sphere; pushed second-child first so the first is visited first.
			st = append(st, [2]int32{ca[1], b}, [2]int32{ca[0], b})
		default:
			st = append(st, [2]int32{a, cb[1]}, [2]int32{a, cb[0]})
		}
	}
	t.stack = st
	return dst, nil
}

// bodyTree builds the BDTree of a modal body's surface: the mesh vertices vertices, whose rest
// positions are rest and modes the rows of phi (row 3a+i holds the r modes' component i at vertex
// a), and triangles indexing into vertices.
func bodyTree(fn string, rest []mgl64.Vec3, phi []float64, r int, vertices []int32, triangles [][3]int32, leafSize int) (*BDTree, error) {
	pts := make([]mgl64.Vec3, len(vertices))
	modes := make([]mgl64.Vec3, len(vertices)*r)
	for i, a := range vertices {
		if a < 0 || int(a) >= len(rest) {
			return nil, fmt.Errorf("deform: %s vertices[%d]: %d out of range [0, %d)", fn, i, a, len(rest))
		}
		pts[i] = rest[a]
		row := phi[3*int(a)*r:]
		for k := 0; k < r; k++ {
			modes[i*r+k] = mgl64.Vec3{row[k], row[r+k], row[2*r+k]}
		}
	}
	t, err := NewBDTree(pts, modes, r, triangles, leafSize)
	if err != nil {
		return nil, fmt.Errorf("deform: %s: %w", fn, err)
	}
	return t, nil
}

// SurfaceTree returns the BDTree of the body's surface triangles, which index into vertices (mesh
// vertex indices, as TetMesh.Surface returns them), with at most leafSize triangles per leaf.
// Refit it with the body's State: Position, Orientation and Z.
func (b *ModalBody) SurfaceTree(vertices []int32, triangles [][3]int32, leafSize int) (*BDTree, error) {
	return bodyTree("ModalBody.SurfaceTree", b.rest, b.phi, b.r, vertices, triangles, leafSize)
}

// SurfaceTree returns the BDTree of the body's surface triangles, which index into vertices (mesh
// vertex indices), with at most leafSize triangles per leaf. Refit it with the body's State:
// Position, Orientation and Z.
func (b *HeldBody) SurfaceTree(vertices []int32, triangles [][3]int32, leafSize int) (*BDTree, error) {
	return bodyTree("HeldBody.SurfaceTree", b.rest, b.phi, b.r, vertices, triangles, leafSize)
}
