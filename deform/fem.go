package deform

import (
	"github.com/go-gl/mathgl/mgl64"
)

// LumpedMass returns each vertex's lumped mass for density ρ, kg: a quarter of the mass ρV_e of
// every tetrahedron it belongs to, so the masses sum to ρ times the mesh's volume.
func LumpedMass(m *TetMesh, density float64) []float64 {
	mass := make([]float64, m.NumVertices())
	for i, t := range m.tets {
		q := density * m.TetVolume(i) / 4
		for _, a := range t {
			mass[a] += q
		}
	}
	return mass
}

// Stiffness returns the linear elastic stiffness matrix K of m for mat (the finite-element model
// with linear tetrahedra): for the element e with rest volume V and shape-function gradients g_a,
// the block coupling its vertices a and b is
//
//	K_ab = V (λ g_a g_bᵀ + μ g_b g_aᵀ + μ (g_a·g_b) I),
//
// so that the elastic force is f = −K u for displacements u. K is symmetric positive
// semi-definite, its null space the six rigid motions. It refuses an invalid material.
func Stiffness(m *TetMesh, mat Material) (*BlockMatrix, error) {
	if err := mat.Validate(); err != nil {
		return nil, err
	}
	lambda, mu := mat.lame()
	k := newBlockPattern(m)
	for i, t := range m.tets {
		g, vol := shapeGradients(m.corners(i))
		for a := 0; a < 4; a++ {
			for b := 0; b < 4; b++ {
				blk := k.block(t[a], t[b])
				ga, gb := g[a], g[b]
				d := mu * ga.Dot(gb)
				for r := 0; r < 3; r++ {
					for c := 0; c < 3; c++ {
						v := lambda*ga[r]*gb[c] + mu*gb[r]*ga[c]
						if r == c {
							v += d
						}
						blk[3*r+c] += vol * v
					}
				}
			}
		}
	}
	return k, nil
}

// shapeGradients returns the gradients of a linear tetrahedron's four shape functions (constant
// over it) and its volume: with E = [p1−p0 p2−p0 p3−p0], the rows of E⁻¹ are g1, g2, g3, and
// g0 = −(g1 + g2 + g3).
func shapeGradients(p [4]mgl64.Vec3) ([4]mgl64.Vec3, float64) {
	// E⁻¹'s rows are the columns' dual basis: row r is (c_{r+1} × c_{r+2}) / det (mgl64's Mat3.Inv
	// returns zero below a determinant of 1e-10, a tetrahedron of millimetre edges).
	c := [3]mgl64.Vec3{p[1].Sub(p[0]), p[2].Sub(p[0]), p[3].Sub(p[0])}
	det := c[0].Dot(c[1].Cross(c[2]))
	var g [4]mgl64.Vec3
	for r := 0; r < 3; r++ {
		g[r+1] = c[(r+1)%3].Cross(c[(r+2)%3]).Mul(1 / det)
	}
	g[0] = g[1].Add(g[2]).Add(g[3]).Mul(-1)
	return g, det / 6
}
