package deform

import (
	"fmt"
	"math"

	"github.com/go-gl/mathgl/mgl64"
)

// MaxVertices bounds a mesh's vertex count, so that a model's dense per-vertex buffers stay
// bounded (3·MaxVertices degrees of freedom).
const MaxVertices = 1 << 20

// minTetQuality is the smallest volume a tetrahedron may have relative to the cube of its longest
// edge (a regular tetrahedron has 1/(6√2) ≈ 0.118): below it the element is degenerate, its
// stiffness ill-conditioned.
const minTetQuality = 1e-6

// TetMesh is a tetrahedral mesh: vertices in the rest frame and tetrahedra as four vertex indices,
// each positively oriented ((v1−v0)·((v2−v0)×(v3−v0)) > 0). Build it with NewTetMesh or a
// generator (NewBoxMesh, NewSphereMesh, NewCapsuleMesh, VoxelizeSurface) or loader (LoadTetGen),
// which validate it; it is immutable afterwards.
type TetMesh struct {
	vertices []mgl64.Vec3
	tets     [][4]int32
}

// NewTetMesh validates and returns the mesh of vertices and tets (copied). It refuses an empty
// mesh, more than MaxVertices vertices, a non-finite vertex, a tetrahedron with an index out of
// range or a repeated vertex, and an inverted or degenerate tetrahedron, naming the vertex or the
// tetrahedron.
func NewTetMesh(vertices []mgl64.Vec3, tets [][4]int32) (*TetMesh, error) {
	switch {
	case len(vertices) == 0 || len(tets) == 0:
		return nil, fmt.Errorf("deform: mesh: needs vertices and tetrahedra, got %d and %d", len(vertices), len(tets))
	case len(vertices) > MaxVertices:
		return nil, fmt.Errorf("deform: mesh: %d vertices, more than deform.MaxVertices = %d", len(vertices), MaxVertices)
	}
	for i, v := range vertices {
		if !finite(v[0]) || !finite(v[1]) || !finite(v[2]) {
			return nil, fmt.Errorf("deform: vertex %d: not finite: %v", i, v)
		}
	}
	n := int32(len(vertices))
	for i, t := range tets {
		for a := 0; a < 4; a++ {
			if t[a] < 0 || t[a] >= n {
				return nil, fmt.Errorf("deform: tetrahedron %d: vertex index %d out of range [0, %d)", i, t[a], n)
			}
			for b := 0; b < a; b++ {
				if t[a] == t[b] {
					return nil, fmt.Errorf("deform: tetrahedron %d: vertex %d repeated", i, t[a])
				}
			}
		}
		p := [4]mgl64.Vec3{vertices[t[0]], vertices[t[1]], vertices[t[2]], vertices[t[3]]}
		if err := checkTetShape(p); err != nil {
			return nil, fmt.Errorf("deform: tetrahedron %d: %v", i, err)
		}
	}
	return &TetMesh{vertices: append([]mgl64.Vec3(nil), vertices...), tets: append([][4]int32(nil), tets...)}, nil
}

// NumVertices returns the number of vertices.
func (m *TetMesh) NumVertices() int { return len(m.vertices) }

// NumTets returns the number of tetrahedra.
func (m *TetMesh) NumTets() int { return len(m.tets) }

// Vertex returns vertex i's rest position. Like a slice index, it panics out of range.
func (m *TetMesh) Vertex(i int) mgl64.Vec3 { return m.vertices[i] }

// Tet returns tetrahedron i's vertex indices. Like a slice index, it panics out of range.
func (m *TetMesh) Tet(i int) [4]int32 { return m.tets[i] }

// TetVolume returns tetrahedron i's rest volume, m³.
func (m *TetMesh) TetVolume(i int) float64 { return signedVolume(m.corners(i)) }

// Volume returns the mesh's rest volume, m³.
func (m *TetMesh) Volume() float64 {
	v := 0.0
	for i := range m.tets {
		v += m.TetVolume(i)
	}
	return v
}

// corners returns tetrahedron i's four rest positions.
func (m *TetMesh) corners(i int) [4]mgl64.Vec3 {
	t := m.tets[i]
	return [4]mgl64.Vec3{m.vertices[t[0]], m.vertices[t[1]], m.vertices[t[2]], m.vertices[t[3]]}
}

// checkTetShape refuses an inverted tetrahedron and a degenerate one (volume at most
// minTetQuality times its longest edge cubed); the error does not name the element.
func checkTetShape(p [4]mgl64.Vec3) error {
	vol := signedVolume(p)
	edge := 0.0
	for a := 0; a < 4; a++ {
		for b := 0; b < a; b++ {
			edge = math.Max(edge, p[a].Sub(p[b]).Len())
		}
	}
	switch {
	case vol < 0:
		return fmt.Errorf("inverted (volume %.3g m³); list its vertices the other way round", vol)
	case !(vol > minTetQuality*edge*edge*edge):
		return fmt.Errorf("degenerate (volume %.3g m³ for a longest edge of %.3g m)", vol, edge)
	}
	return nil
}

// signedVolume is (p1−p0)·((p2−p0)×(p3−p0))/6.
func signedVolume(p [4]mgl64.Vec3) float64 {
	a, b, c := p[1].Sub(p[0]), p[2].Sub(p[0]), p[3].Sub(p[0])
	return a.Dot(b.Cross(c)) / 6
}

// finite reports whether x is neither infinite nor NaN.
func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
