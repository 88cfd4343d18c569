package collide

import (
	"math"

	"github.com/go-gl/mathgl/mgl64"
)

// MaxSDFNodes is the largest node count an SDFGrid may have.
const MaxSDFNodes = 1 << 24

// SDFGrid is a signed-distance field sampled on a regular grid in the local frame, built from a
// shape or a closed triangle mesh, and read back by trilinear interpolation; the normal is the
// normalised gradient of the interpolant. It is a static shape (no mass).
//
// Values are exact at the nodes (as exact as the source's signed distance) and interpolated in
// between, so distances are accurate to a fraction of the cell size. Outside the grid the value
// at the nearest grid point plus the distance to it is returned (an estimate that is exact far
// along the surface normal).
//
// Contacts of a convex shape against a grid sample the convex's surface and name the sample as
// A's VertexFeature: a box's vertices 0–7, edge midpoints 8 + edge index (8–19) and face
// centres 20 + face index (20–25); a capsule's points along its core from the −z end; a hull's
// vertices; a sphere's centre (0). The grid's feature is always face 0.
type SDFGrid struct {
	origin  mgl64.Vec3 // local position of node (0, 0, 0)
	cell    float64
	n       [3]int
	values  []float64 // x fastest, then y, then z
	surface AABB      // local bounds of the source surface
	volume  float64
}

// NewSDFGridFromShape samples s.SignedDistance over its local bounds grown by margin, with
// cubic cells of side cellSize (both finite, cellSize > 0, margin >= 0). Unbounded shapes
// (HalfSpace) and grids of more than MaxSDFNodes nodes are errors.
func NewSDFGridFromShape(s Shape, cellSize, margin float64) (*SDFGrid, error) {
	if s == nil {
		return nil, fieldErrorf("SDFGrid.source", "must not be nil")
	}
	if _, ok := s.(*HalfSpace); ok {
		return nil, fieldErrorf("SDFGrid.source", "must be bounded, got a HalfSpace")
	}
	if _, ok := s.(*SDFGrid); ok {
		return nil, fieldErrorf("SDFGrid.source", "must not be another SDFGrid")
	}
	if v, ok := s.(interface{ Validate() error }); ok {
		if err := v.Validate(); err != nil {
			return nil, err
		}
	}
	return newSDFGrid(s, s.Bounds(IdentityPose()), cellSize, margin)
}

// NewSDFGridFromMesh samples a closed, consistently oriented triangle mesh (see
// TriangleMesh.Closed) like NewSDFGridFromShape; an open mesh has no inside and is an error.
func NewSDFGridFromMesh(m *TriangleMesh, cellSize, margin float64) (*SDFGrid, error) {
	if m == nil {
		return nil, fieldErrorf("SDFGrid.source", "must not be nil")
	}
	if err := m.Validate(); err != nil {
		return nil, err
	}
	if !m.Closed() {
		return nil, fieldErrorf("SDFGrid.source", "mesh must be closed and consistently oriented")
	}
	return newSDFGrid(m, m.local, cellSize, margin)
}

// newSDFGrid samples src over surface grown by margin.
func newSDFGrid(src Shape, surface AABB, cellSize, margin float64) (*SDFGrid, error) {
	if err := checkPositive("SDFGrid.cellSize", cellSize); err != nil {
		return nil, err
	}
	if err := checkNonNegative("SDFGrid.margin", margin); err != nil {
		return nil, err
	}
	box := surface.Expand(margin)
	g := &SDFGrid{origin: box.Min, cell: cellSize, surface: surface}
	total := 1.0
	for i := 0; i < 3; i++ {
		c := math.Ceil((box.Max[i]-box.Min[i])/cellSize) + 1
		if c < 2 {
			c = 2
		}
		total *= c
		if total > MaxSDFNodes {
			return nil, fieldErrorf("SDFGrid.cellSize", "%v gives more than %d nodes over %v", cellSize, MaxSDFNodes, box.Size())
		}
		g.n[i] = int(c)
	}
	g.values = make([]float64, g.n[0]*g.n[1]*g.n[2])
	for k := 0; k < g.n[2]; k++ {
		for j := 0; j < g.n[1]; j++ {
			for i := 0; i < g.n[0]; i++ {
				d, _ := src.SignedDistance(g.node(i, j, k))
				g.values[g.index(i, j, k)] = d
			}
		}
	}
	// Approximate volume: cells whose centre is inside.
	inside := 0
	for k := 0; k+1 < g.n[2]; k++ {
		for j := 0; j+1 < g.n[1]; j++ {
			for i := 0; i+1 < g.n[0]; i++ {
				c := g.node(i, j, k).Add(mgl64.Vec3{cellSize / 2, cellSize / 2, cellSize / 2})
				if v, _ := g.sample(c); v < 0 {
					inside++
				}
			}
		}
	}
	g.volume = float64(inside) * cellSize * cellSize * cellSize
	return g, nil
}

// node returns the local position of node (i, j, k).
func (g *SDFGrid) node(i, j, k int) mgl64.Vec3 {
	return g.origin.Add(mgl64.Vec3{float64(i) * g.cell, float64(j) * g.cell, float64(k) * g.cell})
}

// index returns the value index of node (i, j, k).
func (g *SDFGrid) index(i, j, k int) int { return (k*g.n[1]+j)*g.n[0] + i }

// sample interpolates the value and gradient at a point inside the grid box (clamped).
func (g *SDFGrid) sample(p mgl64.Vec3) (float64, mgl64.Vec3) {
	var idx [3]int
	var f [3]float64
	for a := 0; a < 3; a++ {
		x := clamp((p[a]-g.origin[a])/g.cell, 0, float64(g.n[a]-1))
		i := int(math.Floor(x))
		if i > g.n[a]-2 {
			i = g.n[a] - 2
		}
		idx[a], f[a] = i, x-float64(i)
	}
	var c [2][2][2]float64 // c[z][y][x]
	for dz := 0; dz < 2; dz++ {
		for dy := 0; dy < 2; dy++ {
			for dx := 0; dx < 2; dx++ {
				c[dz][dy][dx] = g.values[g.index(idx[0]+dx, idx[1]+dy, idx[2]+dz)]
			}
		}
	}
	w := [3][2]float64{{1 - f[0], f[0]}, {1 - f[1], f[1]}, {1 - f[2], f[2]}}
	var v float64
	var grad mgl64.Vec3
	for z := 0; z < 2; z++ {
		for y := 0; y < 2; y++ {
			for x := 0; x < 2; x++ {
				v += c[z][y][x] * w[0][x] * w[1][y] * w[2][z]
			}
			grad[0] += (c[z][y][1] - c[z][y][0]) * w[1][y] * w[2][z]
		}
	}
	for z := 0; z < 2; z++ {
		for x := 0; x < 2; x++ {
			grad[1] += (c[z][1][x] - c[z][0][x]) * w[0][x] * w[2][z]
		}
	}
	for y := 0; y < 2; y++ {
		for x := 0; x < 2; x++ {
			grad[2] += (c[1][y][x] - c[0][y][x]) * w[0][x] * w[1][y]
		}
	}
	return v, grad.Mul(1 / g.cell)
}

// gridBox returns the local box covered by the nodes.
func (g *SDFGrid) gridBox() AABB {
	return AABB{Min: g.origin, Max: g.node(g.n[0]-1, g.n[1]-1, g.n[2]-1)}
}

// built reports whether g was built by a constructor (the zero SDFGrid was not).
func (g *SDFGrid) built() bool { return len(g.values) >= 8 && g.cell > 0 }

// Validate checks that the grid was built by a constructor.
func (g *SDFGrid) Validate() error {
	if g == nil || !g.built() {
		return fieldErrorf("SDFGrid", "must be built with NewSDFGridFromShape or NewSDFGridFromMesh")
	}
	return nil
}

// Kind returns KindSDFGrid.
func (g *SDFGrid) Kind() ShapeKind { return KindSDFGrid }

// CellSize returns the grid spacing.
func (g *SDFGrid) CellSize() float64 { return g.cell }

// Dims returns the node counts along x, y, z.
func (g *SDFGrid) Dims() [3]int { return g.n }

// Bounds returns the world box of the source surface's local bounds placed at pose.
func (g *SDFGrid) Bounds(pose Pose) AABB { return transformAABB(g.surface, pose) }

// Volume returns the approximate enclosed volume (cells whose centre is inside).
func (g *SDFGrid) Volume() float64 { return g.volume }

// MassProperties always fails: an SDF grid is a static collider; take mass properties from
// its source shape.
func (g *SDFGrid) MassProperties(density float64) (MassProperties, error) {
	return MassProperties{}, fieldErrorf("SDFGrid", "can only be static (no mass properties), density %v", density)
}

// SignedDistance returns the interpolated signed distance and the normalised gradient. The zero
// SDFGrid answers as the point at the origin.
func (g *SDFGrid) SignedDistance(p mgl64.Vec3) (float64, mgl64.Vec3) {
	if !g.built() {
		return pointDistance(p)
	}
	if hasNaN(p) {
		return math.Inf(1), mgl64.Vec3{0, 0, 1}
	}
	box := g.gridBox()
	q := mgl64.Vec3{clamp(p[0], box.Min[0], box.Max[0]), clamp(p[1], box.Min[1], box.Max[1]), clamp(p[2], box.Min[2], box.Max[2])}
	v, grad := g.sample(q)
	n := unitOr(grad, mgl64.Vec3{0, 0, 1})
	if out := p.Sub(q); out != (mgl64.Vec3{}) {
		dist := length(out)
		v += dist
		n = unitOr(out, n)
	}
	return v, n
}

// Support returns, among the grid nodes inside the surface projected onto it, the point
// furthest along d (an approximation within a cell; the grid centre when no node is inside). For
// the zero SDFGrid, the origin.
func (g *SDFGrid) Support(d mgl64.Vec3) mgl64.Vec3 {
	if !g.built() {
		return mgl64.Vec3{}
	}
	best, bd := g.gridBox().Center(), math.Inf(-1)
	for k := 0; k < g.n[2]; k++ {
		for j := 0; j < g.n[1]; j++ {
			for i := 0; i < g.n[0]; i++ {
				v := g.values[g.index(i, j, k)]
				if v > 0 {
					continue
				}
				p := g.node(i, j, k)
				_, n := g.sample(p)
				p = madd(p, unitOr(n, mgl64.Vec3{0, 0, 1}), -v)
				if s := p.Dot(d); s > bd {
					best, bd = p, s
				}
			}
		}
	}
	return best
}

// rayCastLocal marches the ray by the field's value (sphere tracing).
func (g *SDFGrid) rayCastLocal(o, d mgl64.Vec3, maxT float64) (float64, mgl64.Vec3, Feature, bool) {
	v, _ := g.SignedDistance(o)
	if v <= 0 {
		return 0, d.Mul(-1), 0, true
	}
	t := 0.0
	minStep := 1e-3 * g.cell
	for i := 0; i < 1<<16 && t <= maxT; i++ {
		p := madd(o, d, t)
		v, n := g.SignedDistance(p)
		if v <= 1e-6*g.cell {
			return t, n, FaceFeature(0), true
		}
		t += max(v, minStep)
	}
	return 0, mgl64.Vec3{}, 0, false
}
