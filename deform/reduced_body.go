package deform

import (
	"fmt"
	"math"

	"github.com/go-gl/mathgl/mgl64"
)

// reducedOrthonormalTolerance bounds how far NewReducedBody lets the basis stray from
// mass-orthonormality: the step takes the reduced mass to be the identity.
const reducedOrthonormalTolerance = 1e-8

// reducedNewtonIterations and reducedNewtonTolerance bound the Newton iteration of a step: it
// stops when the velocity update is below the tolerance relative to the velocity, or absolute
// (in the basis' √kg·m/s) for slower motion.
const (
	reducedNewtonIterations = 20
	reducedNewtonTolerance  = 1e-10
)

// ReducedBody is a held reduced St. Venant–Kirchhoff body: displacements u = U q in a
// mass-orthonormal basis U (ModalDerivativeBasis of a held mesh) on a fixed frame, so the reduced
// mass is the identity and the equations of motion are
//
//	q̈ + D q̇ + g̃(q) = Uᵀ M g,   D = α I + β K̃,
//
// with the reduced StVK force g̃ and tangent K̃ (ReducedStVK) and Rayleigh damping. The step is
// implicit Euler, as the Staggered Projections paper's §8 integrates the reduced coordinates, with
// D frozen at the start of the step (K̃ at q_n):
//
//	v − q̇_n = h (Uᵀ M g − g̃(q_n + h v) − D v),   q_{n+1} = q_n + h v,   q̇_{n+1} = v,
//
// solved by Newton's method on v with the r × r Jacobian I + h D + h² K̃(q_n + h v). It is
// unconditionally stable for the linear part and dissipates energy; contact comes later, in
// the physics package. Under strong compression StVK's K̃ can lose definiteness, and β K̃ then
// feeds energy into those directions; α and the step's own dissipation usually outweigh it.
type ReducedBody struct {
	model       *ReducedStVK
	r, n        int
	basis       []float64 // U, row i holds the r vectors' entry i
	alpha, beta float64
	gravity     [3][]float64 // Uᵀ M e_c for each axis c

	q, qd []float64
	// Scratch for Step.
	v, dv, f, k, jac, damp, fext []float64
}

// NewReducedBody returns the body of the reduced model with the basis it was built on (r vectors,
// mass-orthonormal for the lumped vertex masses mass, zero on held vertices) and Rayleigh factors
// alpha (1/s) and beta (s), at rest at q = 0. It refuses mismatched sizes, non-finite or
// non-positive masses, negative or non-finite damping, and a basis that is not mass-orthonormal to
// reducedOrthonormalTolerance, naming the argument.
func NewReducedBody(model *ReducedStVK, basis [][]float64, mass []float64, alpha, beta float64) (*ReducedBody, error) {
	if model == nil {
		return nil, fmt.Errorf("deform: NewReducedBody: needs a reduced model")
	}
	r, nv := model.r, len(mass)
	switch {
	case len(basis) != r:
		return nil, fmt.Errorf("deform: NewReducedBody basis: %d vectors, the model has %d", len(basis), r)
	case !(alpha >= 0) || !finite(alpha):
		return nil, fmt.Errorf("deform: NewReducedBody alpha: must be finite and ≥ 0, got %v", alpha)
	case !(beta >= 0) || !finite(beta):
		return nil, fmt.Errorf("deform: NewReducedBody beta: must be finite and ≥ 0, got %v", beta)
	}
	for a, q := range mass {
		if !(q > 0) || !finite(q) {
			return nil, fmt.Errorf("deform: NewReducedBody mass[%d]: must be finite and > 0, got %v", a, q)
		}
	}
	n := 3 * nv
	for j, v := range basis {
		if len(v) != n {
			return nil, fmt.Errorf("deform: NewReducedBody basis[%d]: length %d, want 3 × %d vertices", j, len(v), nv)
		}
		for i, x := range v {
			if !finite(x) {
				return nil, fmt.Errorf("deform: NewReducedBody basis[%d][%d]: not finite", j, i)
			}
		}
	}
	for i := 0; i < r; i++ {
		for j := 0; j <= i; j++ {
			s := 0.0
			for k, x := range basis[i] {
				s += mass[k/3] * x * basis[j][k]
			}
			want := 0.0
			if i == j {
				want = 1
			}
			if math.Abs(s-want) > reducedOrthonormalTolerance {
				return nil, fmt.Errorf("deform: NewReducedBody basis[%d]: not mass-orthonormal (φ%dᵀMφ%d = %.3g)", i, i, j, s)
			}
		}
	}
	b := &ReducedBody{model: model, r: r, n: n, alpha: alpha, beta: beta, basis: make([]float64, n*r)}
	for j, v := range basis {
		for i, x := range v {
			b.basis[i*r+j] = x
		}
	}
	for c := 0; c < 3; c++ {
		b.gravity[c] = make([]float64, r)
		for j, v := range basis {
			s := 0.0
			for a := 0; a < nv; a++ {
				s += mass[a] * v[3*a+c]
			}
			b.gravity[c][j] = s
		}
	}
	b.q, b.qd = make([]float64, r), make([]float64, r)
	b.v, b.dv, b.f, b.fext = make([]float64, r), make([]float64, r), make([]float64, r), make([]float64, r)
	b.k, b.jac, b.damp = make([]float64, r*r), make([]float64, r*r), make([]float64, r*r)
	return b, nil
}

// NumBasis returns r.
func (b *ReducedBody) NumBasis() int { return b.r }

// State copies q and q̇ into q and qd (r entries each, reused when long enough) and returns them.
func (b *ReducedBody) State(q, qd []float64) ([]float64, []float64) {
	return append(q[:0], b.q...), append(qd[:0], b.qd...)
}

// SetState sets q and q̇. It refuses vectors not of length r or not finite, naming them, and
// changes nothing then.
func (b *ReducedBody) SetState(q, qd []float64) error {
	if len(q) != b.r || len(qd) != b.r {
		return fmt.Errorf("deform: ReducedBody.SetState q, qd: need %d entries each, got %d and %d", b.r, len(q), len(qd))
	}
	for i := range q {
		if !finite(q[i]) || !finite(qd[i]) {
			return fmt.Errorf("deform: ReducedBody.SetState q, qd[%d]: not finite: %v, %v", i, q[i], qd[i])
		}
	}
	copy(b.q, q)
	copy(b.qd, qd)
	return nil
}

// Displacement writes u = U q (3 per vertex) into dst, which must have that length.
func (b *ReducedBody) Displacement(dst []float64) error {
	if len(dst) != b.n {
		return fmt.Errorf("deform: ReducedBody.Displacement dst: length %d, want %d", len(dst), b.n)
	}
	for i := range dst {
		row := b.basis[i*b.r : (i+1)*b.r]
		s := 0.0
		for j, x := range row {
			s += x * b.q[j]
		}
		dst[i] = s
	}
	return nil
}

// Energy returns the kinetic energy ½|q̇|², the elastic energy W(q) and the gravitational
// potential −qᵀUᵀMg (zero at rest), J.
func (b *ReducedBody) Energy(g mgl64.Vec3) (kinetic, elastic, gravity float64) {
	for j := 0; j < b.r; j++ {
		kinetic += b.qd[j] * b.qd[j] / 2
		gravity -= b.q[j] * (g[0]*b.gravity[0][j] + g[1]*b.gravity[1][j] + g[2]*b.gravity[2][j])
	}
	elastic, _ = b.model.Energy(b.q) // q is finite: the step and SetState keep it so
	return kinetic, elastic, gravity
}

// Step advances the body by h under the uniform gravity g by the implicit Euler step above. It
// does not allocate. It refuses a non-positive or non-finite h and a non-finite g, and reports an
// error, changing nothing, if Newton's method fails (a singular Jacobian, a non-finite iterate or
// no convergence within reducedNewtonIterations).
func (b *ReducedBody) Step(h float64, g mgl64.Vec3) error {
	switch {
	case !(h > 0) || !finite(h):
		return fmt.Errorf("deform: ReducedBody.Step h: must be finite and > 0, got %v", h)
	case !finiteVec3(g):
		return fmt.Errorf("deform: ReducedBody.Step g: not finite: %v", g)
	}
	r := b.r
	for j := 0; j < r; j++ {
		b.fext[j] = g[0]*b.gravity[0][j] + g[1]*b.gravity[1][j] + g[2]*b.gravity[2][j]
	}
	// D = αI + βK̃(q_n).
	if err := b.model.Evaluate(b.q, b.f, b.k); err != nil {
		return err
	}
	damp := b.damp
	for i := range damp {
		damp[i] = b.beta * b.k[i]
	}
	for i := 0; i < r; i++ {
		damp[i*r+i] += b.alpha
	}
	copy(b.v, b.qd)
	for it := 0; it < reducedNewtonIterations; it++ {
		// The configuration q_n + h v, kept in dv while the model evaluates it.
		for j := 0; j < r; j++ {
			b.dv[j] = b.q[j] + h*b.v[j]
		}
		if err := b.model.Evaluate(b.dv, b.f, b.k); err != nil {
			return fmt.Errorf("deform: ReducedBody.Step: Newton iterate not finite: %v", err)
		}
		vn := 0.0
		for i := 0; i < r; i++ {
			dvi := 0.0
			for j := 0; j < r; j++ {
				dvi += damp[i*r+j] * b.v[j]
				jij := h * (damp[i*r+j] + h*b.k[i*r+j])
				if i == j {
					jij++
				}
				b.jac[i*r+j] = jij
			}
			// Minus the residual: −(v − q̇_n − h (f_ext − g̃ − D v)).
			b.dv[i] = b.qd[i] - b.v[i] + h*(b.fext[i]-b.f[i]-dvi)
			vn = math.Max(vn, math.Abs(b.v[i]))
		}
		if !solveDense(b.jac, b.dv, r) {
			return fmt.Errorf("deform: ReducedBody.Step: singular Newton Jacobian")
		}
		step := 0.0
		for j := 0; j < r; j++ {
			b.v[j] += b.dv[j]
			step = math.Max(step, math.Abs(b.dv[j]))
		}
		if !(step <= reducedNewtonTolerance*math.Max(vn, 1)) {
			if !finite(step) {
				return fmt.Errorf("deform: ReducedBody.Step: Newton iterate not finite")
			}
			continue
		}
		for j := 0; j < r; j++ {
			b.q[j] += h * b.v[j]
			b.qd[j] = b.v[j]
		}
		return nil
	}
	return fmt.Errorf("deform: ReducedBody.Step: Newton's method did not converge in %d iterations", reducedNewtonIterations)
}
