package deform

import (
	"fmt"

	"github.com/go-gl/mathgl/mgl64"
)

// StVK is the St. Venant–Kirchhoff model of a mesh with linear tetrahedra in the full space: for
// vertex displacements u, each element's deformation gradient F = I + Σ_a u_a g_aᵀ (g_a its
// shape-function gradients) gives the Green strain E = ½(FᵀF − I), the second Piola–Kirchhoff
// stress S = λ tr(E) I + 2μE and the energy W = Σ_e V_e (λ/2 tr(E)² + μ E:E). Unlike linear
// elasticity it is invariant under rotations, so a body bending far keeps its length, at the
// cost of a force cubic in u.
//
// The internal force g(u) = ∂W/∂u (per element, g_a = V F S g_a) is the force the body exerts
// against a deformation: the elastic force on the vertices is −g(u), and M ü + g(u) = f_ext. Its
// tangent K(u) = ∂g/∂u equals the linear stiffness of Stiffness at u = 0.
type StVK struct {
	mesh       *TetMesh
	lambda, mu float64
	grads      [][4]mgl64.Vec3
	vols       []float64
}

// NewStVK returns the St. Venant–Kirchhoff model of m for mat. It refuses a nil mesh and an
// invalid material.
func NewStVK(m *TetMesh, mat Material) (*StVK, error) {
	if m == nil {
		return nil, fmt.Errorf("deform: NewStVK: needs a mesh")
	}
	if err := mat.Validate(); err != nil {
		return nil, err
	}
	s := &StVK{mesh: m, grads: make([][4]mgl64.Vec3, m.NumTets()), vols: make([]float64, m.NumTets())}
	s.lambda, s.mu = mat.lame()
	for i := range s.grads {
		s.grads[i], s.vols[i] = shapeGradients(m.corners(i))
	}
	return s, nil
}

// Size returns the number of displacement entries, 3 per vertex.
func (s *StVK) Size() int { return 3 * s.mesh.NumVertices() }

// checkDisplacement refuses a displacement of the wrong length or with a non-finite entry.
func (s *StVK) checkDisplacement(name string, u []float64) error {
	if len(u) != s.Size() {
		return fmt.Errorf("deform: StVK.%s u: length %d, want %d", name, len(u), s.Size())
	}
	for i, x := range u {
		if !finite(x) {
			return fmt.Errorf("deform: StVK.%s u[%d]: not finite: %v", name, i, x)
		}
	}
	return nil
}

// gradient returns element e's displacement gradient H = Σ_a u_a g_aᵀ (F = I + H).
func (s *StVK) gradient(e int, u []float64) mgl64.Mat3 {
	var h mgl64.Mat3
	for a, v := range s.mesh.tets[e] {
		g := s.grads[e][a]
		for r := 0; r < 3; r++ {
			ur := u[3*int(v)+r]
			for c := 0; c < 3; c++ {
				h[c*3+r] += ur * g[c]
			}
		}
	}
	return h
}

// greenStrain returns E = ½(H + Hᵀ + HᵀH) for the displacement gradient H.
func greenStrain(h mgl64.Mat3) mgl64.Mat3 {
	return h.Add(h.Transpose()).Add(h.Transpose().Mul3(h)).Mul(0.5)
}

// stress returns S = λ tr(E) I + 2μE.
func (s *StVK) stress(e mgl64.Mat3) mgl64.Mat3 {
	return mgl64.Ident3().Mul(s.lambda * trace3(e)).Add(e.Mul(2 * s.mu))
}

// Energy returns the elastic energy W(u), J. It refuses a bad u.
func (s *StVK) Energy(u []float64) (float64, error) {
	if err := s.checkDisplacement("Energy", u); err != nil {
		return 0, err
	}
	w := 0.0
	for e := range s.grads {
		strain := greenStrain(s.gradient(e, u))
		tr := trace3(strain)
		w += s.vols[e] * (0.5*s.lambda*tr*tr + s.mu*frobenius2(strain))
	}
	return w, nil
}

// InternalForce sets g = ∂W/∂u (3 per vertex; g must not alias u). It refuses a bad u or a g of
// the wrong length.
func (s *StVK) InternalForce(u, g []float64) error {
	if err := s.checkDisplacement("InternalForce", u); err != nil {
		return err
	}
	if len(g) != len(u) {
		return fmt.Errorf("deform: StVK.InternalForce g: length %d, want %d", len(g), len(u))
	}
	clear(g)
	for e, t := range s.mesh.tets {
		h := s.gradient(e, u)
		p := mgl64.Ident3().Add(h).Mul3(s.stress(greenStrain(h))).Mul(s.vols[e])
		for a, v := range t {
			f := p.Mul3x1(s.grads[e][a])
			g[3*v], g[3*v+1], g[3*v+2] = g[3*v]+f[0], g[3*v+1]+f[1], g[3*v+2]+f[2]
		}
	}
	return nil
}

// Tangent returns K(u) = ∂g/∂u in K's block pattern. For a displaced vertex b's unit motion
// e_s, dF = e_s g_bᵀ, dS = λ tr(dE) I + 2μ dE with dE = sym(Fᵀ dF), and dP = dF S + F dS;
// K_ab's column s is V dP g_a. K(u) is symmetric; it is positive definite (with vertices held)
// near u = 0 but may lose definiteness under large compression. It refuses a bad u.
func (s *StVK) Tangent(u []float64) (*BlockMatrix, error) {
	if err := s.checkDisplacement("Tangent", u); err != nil {
		return nil, err
	}
	k := newBlockPattern(s.mesh)
	for e, t := range s.mesh.tets {
		h := s.gradient(e, u)
		f := mgl64.Ident3().Add(h)
		st := s.stress(greenStrain(h))
		g := &s.grads[e]
		for b := 0; b < 4; b++ {
			for c := 0; c < 3; c++ {
				var df mgl64.Mat3
				for j := 0; j < 3; j++ {
					df[j*3+c] = g[b][j]
				}
				ftdf := f.Transpose().Mul3(df)
				de := ftdf.Add(ftdf.Transpose()).Mul(0.5)
				dp := df.Mul3(st).Add(f.Mul3(s.stress(de))).Mul(s.vols[e])
				for a := 0; a < 4; a++ {
					col := dp.Mul3x1(g[a])
					blk := k.block(t[a], t[b])
					blk[c], blk[3+c], blk[6+c] = blk[c]+col[0], blk[3+c]+col[1], blk[6+c]+col[2]
				}
			}
		}
	}
	return k, nil
}

// frobenius2 returns A:A.
func frobenius2(a mgl64.Mat3) float64 {
	s := 0.0
	for _, x := range a {
		s += x * x
	}
	return s
}
