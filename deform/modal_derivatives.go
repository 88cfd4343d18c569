package deform

import (
	"fmt"
	"math"
	"slices"

	"github.com/go-gl/mathgl/mgl64"
)

// derivativeDropTolerance is how much of a candidate basis vector's mass norm must survive
// orthogonalisation against the vectors already kept: below it the vector is (numerically) in
// their span and is dropped.
const derivativeDropTolerance = 1e-6

// freeSolveTolerance and freeSolveIterations bound the shifted iteration that solves K x = b on
// the complement of a free body's rigid modes.
const (
	freeSolveTolerance  = 1e-13
	freeSolveIterations = 200
)

// ModalDerivativeBasis returns a basis for large deformation (Barbič & James 2005): the linear
// modes Φ (LowestModes for a held body, FreeModes for a free one) followed by their modal
// derivatives
//
//	Ψ_ij = −K⁻¹ (H : Φ_i Φ_j),
//
// the response of the linear stiffness K to the second derivative of the StVK internal force along
// the mode pair (i, j) — the displacement a large motion along Φ_i and Φ_j drags with it, such as
// a bending beam's axial shortening, which no linear mode captures. Per element, with H_i the
// displacement gradient of Φ_i and S(E) = λ tr(E) I + 2μE,
//
//	(H : Φ_i Φ_j)_a = V (H_i S(sym H_j) + H_j S(sym H_i) + S(½(H_iᵀH_j + H_jᵀH_i))) g_a.
//
// Derivatives are taken in increasing ω_i² ω_j² (the order of their weight in the response to a
// load, Barbič & James' scaling), the whole mass-orthonormalised by modified Gram–Schmidt (twice),
// dropping a vector whose mass norm falls below derivativeDropTolerance of its own when
// orthogonalised, until size vectors are kept or the candidates run out. The basis returned is
// mass-orthonormal (φᵀMφ = δ), its first vectors the modes.
//
// fixed marks held vertices; nil means a free body, for which K is singular: each right-hand
// side has its rigid-mode components removed (b ← b − Mρρᵀb, ρ the six M-orthonormal rigid
// modes) and K x = b is solved on their complement with the shifted factor FreeModes uses,
// x ← (K + σM)⁻¹(b + σMx) with the rigid modes projected out, which converges by σ/(ω₁² + σ) per
// iteration; the basis is then mean-axis like FreeModes' modes. It refuses bad arguments naming
// them.
func ModalDerivativeBasis(m *TetMesh, mat Material, mass []float64, fixed []bool, modes *Modes, size int) ([][]float64, error) {
	if m == nil || modes == nil {
		return nil, fmt.Errorf("deform: ModalDerivativeBasis: needs a mesh and its modes")
	}
	if err := mat.Validate(); err != nil {
		return nil, err
	}
	nv := m.NumVertices()
	n := 3 * nv
	r := len(modes.Omega2)
	switch {
	case len(mass) != nv:
		return nil, fmt.Errorf("deform: ModalDerivativeBasis mass: needs one entry per vertex (%d), got %d", nv, len(mass))
	case fixed != nil && len(fixed) != nv:
		return nil, fmt.Errorf("deform: ModalDerivativeBasis fixed: needs one entry per vertex (%d), got %d", nv, len(fixed))
	case r < 1 || len(modes.Shapes) != r:
		return nil, fmt.Errorf("deform: ModalDerivativeBasis modes: needs at least one mode and one shape per ω², got %d and %d", r, len(modes.Shapes))
	case size < r || size > MaxReducedBasis:
		return nil, fmt.Errorf("deform: ModalDerivativeBasis size: must be in [%d (the modes), %d], got %d", r, MaxReducedBasis, size)
	}
	for a, q := range mass {
		if !(q > 0) || !finite(q) {
			return nil, fmt.Errorf("deform: ModalDerivativeBasis mass[%d]: must be finite and > 0, got %v", a, q)
		}
	}
	for k, w := range modes.Omega2 {
		if !(w > 0) || !finite(w) {
			return nil, fmt.Errorf("deform: ModalDerivativeBasis modes.Omega2[%d]: must be finite and > 0, got %v", k, w)
		}
		if len(modes.Shapes[k]) != n {
			return nil, fmt.Errorf("deform: ModalDerivativeBasis modes.Shapes[%d]: length %d, want %d", k, len(modes.Shapes[k]), n)
		}
		for i, x := range modes.Shapes[k] {
			if !finite(x) {
				return nil, fmt.Errorf("deform: ModalDerivativeBasis modes.Shapes[%d][%d]: not finite", k, i)
			}
		}
	}
	k, err := Stiffness(m, mat)
	if err != nil {
		return nil, err
	}
	mdiag := make([]float64, n)
	for i := range mdiag {
		if fixed == nil || !fixed[i/3] {
			mdiag[i] = mass[i/3]
		}
	}
	var solve func(b, x []float64) error
	if fixed != nil {
		held := 0
		for _, f := range fixed {
			if f {
				held++
			}
		}
		if held == 0 {
			return nil, fmt.Errorf("deform: ModalDerivativeBasis fixed: holds no vertex (pass nil for a free body)")
		}
		chol, err := newBandedCholesky(k, fixed)
		if err != nil {
			return nil, fmt.Errorf("deform: ModalDerivativeBasis: %v", err)
		}
		y := make([]float64, chol.n)
		solve = func(b, x []float64) error {
			chol.solve(b, x, y)
			return nil
		}
	} else {
		rigid := rigidModes(m, mass)
		sigma := shiftFraction * modes.Omega2[0]
		chol, err := newBandedCholesky(shifted(k, mass, sigma), make([]bool, nv))
		if err != nil {
			return nil, fmt.Errorf("deform: ModalDerivativeBasis: %v", err)
		}
		y, rhs, next := make([]float64, chol.n), make([]float64, n), make([]float64, n)
		solve = func(b, x []float64) error {
			// Remove the load's rigid components: Mρ(ρᵀb) for each M-orthonormal ρ.
			for _, rho := range rigid {
				d := dot(rho, b)
				for i := range b {
					b[i] -= d * mdiag[i] * rho[i]
				}
			}
			clear(x)
			for it := 0; it < freeSolveIterations; it++ {
				for i := range rhs {
					rhs[i] = b[i] + sigma*mdiag[i]*x[i]
				}
				chol.solve(rhs, next, y)
				projectOut(rigid, mdiag, next)
				change, size := 0.0, 0.0
				for i := range x {
					change = math.Max(change, math.Abs(next[i]-x[i]))
					size = math.Max(size, math.Abs(next[i]))
				}
				copy(x, next)
				if change <= freeSolveTolerance*size {
					return nil
				}
			}
			return fmt.Errorf("deform: ModalDerivativeBasis: the shifted solve did not converge in %d iterations", freeSolveIterations)
		}
	}
	return modalDerivativeBasis(m, mat, mdiag, modes, size, solve)
}

// modalDerivativeBasis forms the derivatives with solve (x = K⁻¹ b on the admissible fields; it
// may overwrite b) and orthonormalises, as ModalDerivativeBasis describes.
func modalDerivativeBasis(m *TetMesh, mat Material, mdiag []float64, modes *Modes, size int, solve func(b, x []float64) error) ([][]float64, error) {
	r := len(modes.Omega2)
	n := len(mdiag)
	lambda, mu := mat.lame()
	stress := func(e mgl64.Mat3) mgl64.Mat3 {
		return mgl64.Ident3().Mul(lambda * trace3(e)).Add(e.Mul(2 * mu))
	}
	grads := make([][4]mgl64.Vec3, m.NumTets())
	vols := make([]float64, m.NumTets())
	for e := range grads {
		grads[e], vols[e] = shapeGradients(m.corners(e))
	}
	modeGrad := func(e int, phi []float64) mgl64.Mat3 {
		var h mgl64.Mat3
		for a, v := range m.tets[e] {
			g := grads[e][a]
			for row := 0; row < 3; row++ {
				x := phi[3*int(v)+row]
				for c := 0; c < 3; c++ {
					h[c*3+row] += x * g[c]
				}
			}
		}
		return h
	}
	type pair struct{ i, j int }
	pairs := make([]pair, 0, r*(r+1)/2)
	for j := 0; j < r; j++ {
		for i := 0; i <= j; i++ {
			pairs = append(pairs, pair{i, j})
		}
	}
	slices.SortStableFunc(pairs, func(a, b pair) int {
		wa := modes.Omega2[a.i] * modes.Omega2[a.j]
		wb := modes.Omega2[b.i] * modes.Omega2[b.j]
		switch {
		case wa < wb:
			return -1
		case wa > wb:
			return 1
		}
		return 0
	})
	basis := make([][]float64, 0, size)
	mInner := func(u, v []float64) float64 {
		s := 0.0
		for i, x := range u {
			s += mdiag[i] * x * v[i]
		}
		return s
	}
	// keep orthonormalises v against the basis and appends it unless it is dependent.
	keep := func(v []float64) {
		before := math.Sqrt(mInner(v, v))
		if !(before > 0) {
			return
		}
		for pass := 0; pass < 2; pass++ {
			for _, b := range basis {
				d := mInner(b, v)
				for i := range v {
					v[i] -= d * b[i]
				}
			}
		}
		after := math.Sqrt(mInner(v, v))
		if !(after > derivativeDropTolerance*before) {
			return
		}
		for i := range v {
			v[i] /= after
		}
		basis = append(basis, v)
	}
	for _, phi := range modes.Shapes {
		keep(append([]float64(nil), phi...))
	}
	if len(basis) < r {
		return nil, fmt.Errorf("deform: ModalDerivativeBasis modes: the %d modes are linearly dependent in the mass inner product", r)
	}
	b := make([]float64, n)
	for _, p := range pairs {
		if len(basis) == size {
			break
		}
		clear(b)
		for e, t := range m.tets {
			hi, hj := modeGrad(e, modes.Shapes[p.i]), modeGrad(e, modes.Shapes[p.j])
			cross := hi.Transpose().Mul3(hj)
			pm := hi.Mul3(stress(symmetric3(hj))).Add(hj.Mul3(stress(symmetric3(hi)))).Add(stress(symmetric3(cross))).Mul(vols[e])
			for a, v := range t {
				f := pm.Mul3x1(grads[e][a])
				b[3*v], b[3*v+1], b[3*v+2] = b[3*v]-f[0], b[3*v+1]-f[1], b[3*v+2]-f[2]
			}
		}
		psi := make([]float64, n)
		if err := solve(b, psi); err != nil {
			return nil, err
		}
		for i, x := range psi {
			if !finite(x) {
				return nil, fmt.Errorf("deform: ModalDerivativeBasis: the derivative of modes %d and %d is not finite (entry %d)", p.i, p.j, i)
			}
		}
		keep(psi)
	}
	return basis, nil
}
