package deform

import (
	"fmt"
	"math"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/stagger-physics/stagger/collide"
)

// EmbeddedSurface carries points — a render or collision surface's vertices — with a tetrahedral
// mesh: each point is bound to one tetrahedron by barycentric weights w (Σ w = 1), and follows
// the tetrahedron's deformed corners x_a as Σ w_a x_a. A point inside the mesh is bound to a
// tetrahedron containing it (weights in [0, 1]); one outside, to the tetrahedron of the nearest
// boundary face, with weights extrapolated linearly, so that it still follows any affine
// deformation exactly. Build it with NewEmbeddedSurface or VoxelizeSurface; it is immutable.
type EmbeddedSurface struct {
	numTetVertices int
	tet            []int32
	corners        [][4]int32
	weights        [][4]float64
}

// NewEmbeddedSurface binds points (in m's rest frame) to m's tetrahedra. It refuses a nil mesh, an
// empty point list or one longer than MaxVertices, and a non-finite point, naming it.
//
// Each point is looked up in a uniform grid of the tetrahedra's bounding boxes; a point that no
// tetrahedron contains is compared against every boundary face of the mesh.
func NewEmbeddedSurface(m *TetMesh, points []mgl64.Vec3) (*EmbeddedSurface, error) {
	switch {
	case m == nil:
		return nil, fmt.Errorf("deform: NewEmbeddedSurface mesh: must not be nil")
	case len(points) == 0 || len(points) > MaxVertices:
		return nil, fmt.Errorf("deform: NewEmbeddedSurface points: needs 1 to %d, got %d", MaxVertices, len(points))
	}
	for i, p := range points {
		if !finite(p[0]) || !finite(p[1]) || !finite(p[2]) {
			return nil, fmt.Errorf("deform: NewEmbeddedSurface points[%d]: not finite: %v", i, p)
		}
	}
	bins := newTetBins(m)
	var boundary []boundaryFace
	e := &EmbeddedSurface{
		numTetVertices: m.NumVertices(),
		tet:            make([]int32, len(points)),
		corners:        make([][4]int32, len(points)),
		weights:        make([][4]float64, len(points)),
	}
	for i, p := range points {
		best, bestMin := int32(-1), math.Inf(-1)
		var bestW [4]float64
		for _, ti := range bins.candidates(p) {
			w := barycentric(m.corners(int(ti)), p)
			if lo := math.Min(math.Min(w[0], w[1]), math.Min(w[2], w[3])); lo > bestMin {
				best, bestMin, bestW = ti, lo, w
			}
		}
		// Rounding can leave a point on a shared face a hair outside both tetrahedra.
		if best < 0 || bestMin < -1e-12 {
			if boundary == nil {
				boundary = boundaryFaces(m)
			}
			bestD := math.Inf(1)
			for _, f := range boundary {
				q, _, _ := collide.ClosestOnTriangle(p, m.vertices[f.v[0]], m.vertices[f.v[1]], m.vertices[f.v[2]])
				if d := q.Sub(p).LenSqr(); d < bestD {
					bestD, best = d, f.tet
				}
			}
			bestW = barycentric(m.corners(int(best)), p)
		}
		e.tet[i], e.corners[i], e.weights[i] = best, m.tets[best], bestW
	}
	return e, nil
}

// NumPoints returns the number of embedded points.
func (e *EmbeddedSurface) NumPoints() int { return len(e.tet) }

// Binding returns point i's tetrahedron and its barycentric weights over the tetrahedron's
// corners in order. Like a slice index, it panics out of range.
func (e *EmbeddedSurface) Binding(i int) (tet int, weights [4]float64) {
	return int(e.tet[i]), e.weights[i]
}

// Deform writes into dst the points carried by the mesh's vertices at positions x (one per
// mesh vertex, for example the rest positions plus a deformation): dst[i] = Σ_a w_ia x_a. It
// needs len(dst) = NumPoints and len(x) = the mesh's vertex count, and refuses a non-finite
// position, naming it, rather than write one; it does not allocate.
func (e *EmbeddedSurface) Deform(dst, x []mgl64.Vec3) error {
	if len(dst) != len(e.tet) || len(x) != e.numTetVertices {
		return fmt.Errorf("deform: EmbeddedSurface.Deform: needs %d points and %d vertex positions, got %d and %d", len(e.tet), e.numTetVertices, len(dst), len(x))
	}
	for a, p := range x {
		if !finite(p[0]) || !finite(p[1]) || !finite(p[2]) {
			return fmt.Errorf("deform: EmbeddedSurface.Deform x[%d]: not finite: %v", a, p)
		}
	}
	for i, c := range e.corners {
		w := e.weights[i]
		// Relative to the first corner, so that a point at rest is reproduced to rounding of its
		// offset, not of the absolute coordinates.
		x0 := x[c[0]]
		d := x[c[1]].Sub(x0).Mul(w[1]).Add(x[c[2]].Sub(x0).Mul(w[2])).Add(x[c[3]].Sub(x0).Mul(w[3]))
		dst[i] = x0.Add(d)
	}
	return nil
}

// barycentric returns p's barycentric coordinates in the tetrahedron of corners c: the linear
// shape functions w_a(p) = g_a·(p − c0) for a ≥ 1 (constant gradients, fem.go) and
// w_0 = 1 − w_1 − w_2 − w_3.
func barycentric(c [4]mgl64.Vec3, p mgl64.Vec3) [4]float64 {
	g, _ := shapeGradients(c)
	d := p.Sub(c[0])
	w1, w2, w3 := g[1].Dot(d), g[2].Dot(d), g[3].Dot(d)
	return [4]float64{1 - w1 - w2 - w3, w1, w2, w3}
}

// boundaryFace is a face that belongs to a single tetrahedron.
type boundaryFace struct {
	v   [3]int32
	tet int32
}

// boundaryFaces lists m's boundary faces with their tetrahedra, in the tetrahedra's order.
func boundaryFaces(m *TetMesh) []boundaryFace {
	faces := [4][3]int{{1, 2, 3}, {0, 3, 2}, {0, 1, 3}, {0, 2, 1}}
	count := make(map[[3]int32]int32, 4*len(m.tets))
	for _, t := range m.tets {
		for _, f := range faces {
			count[sortedFace(t[f[0]], t[f[1]], t[f[2]])]++
		}
	}
	var out []boundaryFace
	for i, t := range m.tets {
		for _, f := range faces {
			if count[sortedFace(t[f[0]], t[f[1]], t[f[2]])] == 1 {
				out = append(out, boundaryFace{v: [3]int32{t[f[0]], t[f[1]], t[f[2]]}, tet: int32(i)})
			}
		}
	}
	return out
}

// tetBins is a uniform grid over a mesh's bounding box listing, per bin, the tetrahedra whose
// bounding boxes overlap it (compressed rows).
type tetBins struct {
	min   mgl64.Vec3
	side  float64
	n     [3]int
	start []int32
	tets  []int32
}

// newTetBins bins m's tetrahedra in cells of about one tetrahedron's volume each, at most
// 2⌈∛T⌉ + 1 along an axis so that the grid stays within a few times T bins.
func newTetBins(m *TetMesh) *tetBins {
	lo, hi := m.vertices[0], m.vertices[0]
	for _, v := range m.vertices {
		for a := 0; a < 3; a++ {
			lo[a], hi[a] = math.Min(lo[a], v[a]), math.Max(hi[a], v[a])
		}
	}
	size := hi.Sub(lo)
	nt := float64(len(m.tets))
	side := math.Cbrt(size[0] * size[1] * size[2] / nt)
	maxAxis := 2*int(math.Ceil(math.Cbrt(nt))) + 1
	b := &tetBins{min: lo}
	for a := 0; a < 3; a++ {
		b.n[a] = 1
		if side > 0 {
			b.n[a] = min(max(int(math.Ceil(size[a]/side)), 1), maxAxis)
		}
	}
	b.side = math.Max(math.Max(size[0]/float64(b.n[0]), size[1]/float64(b.n[1])), size[2]/float64(b.n[2]))
	b.start = make([]int32, b.n[0]*b.n[1]*b.n[2]+1)
	visit := func(i int, f func(bin int)) {
		c := m.corners(i)
		blo, bhi := c[0], c[0]
		for _, p := range c[1:] {
			for a := 0; a < 3; a++ {
				blo[a], bhi[a] = math.Min(blo[a], p[a]), math.Max(bhi[a], p[a])
			}
		}
		l, h := b.cell(blo), b.cell(bhi)
		for z := l[2]; z <= h[2]; z++ {
			for y := l[1]; y <= h[1]; y++ {
				for x := l[0]; x <= h[0]; x++ {
					f((z*b.n[1]+y)*b.n[0] + x)
				}
			}
		}
	}
	for i := range m.tets {
		visit(i, func(bin int) { b.start[bin+1]++ })
	}
	for i := 1; i < len(b.start); i++ {
		b.start[i] += b.start[i-1]
	}
	fill := append([]int32(nil), b.start[:len(b.start)-1]...)
	b.tets = make([]int32, b.start[len(b.start)-1])
	for i := range m.tets {
		visit(i, func(bin int) {
			b.tets[fill[bin]] = int32(i)
			fill[bin]++
		})
	}
	return b
}

// cell returns the bin of p, clamped into the grid.
func (b *tetBins) cell(p mgl64.Vec3) [3]int {
	var c [3]int
	for a := 0; a < 3; a++ {
		x := 0
		if b.side > 0 {
			x = int(math.Floor((p[a] - b.min[a]) / b.side))
		}
		c[a] = min(max(x, 0), b.n[a]-1)
	}
	return c
}

// candidates returns the tetrahedra whose bounding boxes overlap p's bin; none when p is outside
// the grid.
func (b *tetBins) candidates(p mgl64.Vec3) []int32 {
	for a := 0; a < 3; a++ {
		if p[a] < b.min[a] || p[a] > b.min[a]+float64(b.n[a])*b.side {
			return nil
		}
	}
	c := b.cell(p)
	bin := (c[2]*b.n[1]+c[1])*b.n[0] + c[0]
	return b.tets[b.start[bin]:b.start[bin+1]]
}
