package deform

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// Modes holds the lowest vibration modes of a held body: the generalised eigenpairs
// K φ = ω² M φ with φᵀ M φ = 1 (mass-orthonormal), in increasing frequency.
type Modes struct {
	// Omega2 are the eigenvalues ω², (rad/s)²; Shapes[i] is mode i's displacement, 3 entries
	// per vertex, zero on held vertices.
	Omega2 []float64
	Shapes [][]float64
	// Iterations is the number of subspace iterations run.
	Iterations int
}

// Frequency returns mode i's frequency ω/2π, Hz.
func (md *Modes) Frequency(i int) float64 { return math.Sqrt(md.Omega2[i]) / (2 * math.Pi) }

// LowestModes returns the r lowest vibration modes of the mesh with stiffness k and lumped vertex
// masses mass, with the vertices marked fixed held (at least one must be, so that K is positive
// definite on the rest), by subspace iteration (Bathe): a block of q = r + min(r, 8) vectors is
// multiplied by K⁻¹M — through a banded Cholesky factor of the sparse K in reverse Cuthill–McKee
// order (banded.go), never a dense eigendecomposition of the mesh — and reduced by Rayleigh–Ritz
// (a q × q eigenproblem), until the r eigenvalues change by less than tol relative. It refuses bad arguments and a subspace that does
// not converge within maxIter iterations.
func LowestModes(k *BlockMatrix, mass []float64, fixed []bool, r int, tol float64, maxIter int) (*Modes, error) {
	nv := k.n
	switch {
	case len(mass) != nv || len(fixed) != nv:
		return nil, fmt.Errorf("deform: LowestModes: mass and fixed need one entry per vertex (%d), got %d and %d", nv, len(mass), len(fixed))
	case !(tol > 0) || maxIter < 1:
		return nil, fmt.Errorf("deform: LowestModes: tol must be > 0 and maxIter ≥ 1, got %v and %d", tol, maxIter)
	}
	free := 0
	for a, f := range fixed {
		if !f {
			free++
			if !(mass[a] > 0) || !finite(mass[a]) {
				return nil, fmt.Errorf("deform: LowestModes: vertex %d: mass must be finite and > 0, got %v", a, mass[a])
			}
		}
	}
	if free == nv {
		return nil, fmt.Errorf("deform: LowestModes: hold at least one vertex (a free body's six rigid modes make K singular; FreeModes handles free bodies)")
	}
	if r < 1 || r > 3*free {
		return nil, fmt.Errorf("deform: LowestModes r: must be in [1, %d], got %d", 3*free, r)
	}
	q := min(r+min(r, 8), 3*free)
	n := 3 * nv
	mdiag := make([]float64, n)
	for i := range mdiag {
		if !fixed[i/3] {
			mdiag[i] = mass[i/3]
		}
	}
	// Start vectors: the mass distribution along each axis, then a deterministic spread.
	x := make([][]float64, q)
	for j := range x {
		x[j] = make([]float64, n)
		for i := range x[j] {
			if mdiag[i] == 0 {
				continue
			}
			switch {
			case j < 3:
				if i%3 == j {
					x[j][i] = 1
				}
			default:
				x[j][i] = spread(i, j)
			}
		}
	}
	chol, err := newBandedCholesky(k, fixed)
	if err != nil {
		return nil, err
	}
	return subspaceIteration(k, chol, mdiag, nil, x, r, tol, maxIter, "LowestModes")
}

// spread is a deterministic fill for start vectors: any values independent across vectors do.
func spread(i, j int) float64 { return math.Sin(float64((i+1)*(j+1)) * 0.7071) }

// subspaceIteration runs Bathe's subspace iteration from the q start vectors x (overwritten):
// each iteration sets y_j = A⁻¹ M x_j through the factor chol of A (K itself for a held body, the
// shifted K + σM for a free one), removes from y_j whatever project removes (nil: nothing; the
// rigid modes of a free body), and reduces K and M to span{y} for the Rayleigh–Ritz problem, whose
// M-orthonormal eigenvectors become the next x. It stops when the r lowest Ritz values all change
// by less than tol relative. mdiag is the lumped mass per DoF (zero on held ones); name prefixes
// errors.
func subspaceIteration(k *BlockMatrix, chol *bandedCholesky, mdiag []float64, project func([]float64), x [][]float64, r int, tol float64, maxIter int, name string) (*Modes, error) {
	q, n := len(x), len(mdiag)
	y := make([][]float64, q)
	ky := make([][]float64, q)
	for j := range y {
		y[j] = make([]float64, n)
		ky[j] = make([]float64, n)
	}
	rhs := make([][]float64, q)
	for j := range rhs {
		rhs[j] = make([]float64, n)
	}
	scratch := make([]float64, q*chol.n)
	kr, mr := mat.NewSymDense(q, nil), mat.NewSymDense(q, nil)
	prev := make([]float64, r)
	md := &Modes{}
	for it := 1; it <= maxIter; it++ {
		md.Iterations = it
		for j := 0; j < q; j++ {
			for i, m := range mdiag {
				rhs[j][i] = m * x[j][i]
			}
		}
		chol.solveBlock(rhs, y, scratch)
		for j := 0; j < q; j++ {
			if project != nil {
				project(y[j])
			}
			k.MulVec(y[j], ky[j])
		}
		for a := 0; a < q; a++ {
			for b := a; b < q; b++ {
				kab, mab := 0.0, 0.0
				for i := 0; i < n; i++ {
					kab += y[a][i] * ky[b][i]
					mab += mdiag[i] * y[a][i] * y[b][i]
				}
				kr.SetSym(a, b, kab)
				mr.SetSym(a, b, mab)
			}
		}
		vals, vecs, err := ritz(kr, mr, name)
		if err != nil {
			return nil, err
		}
		// x ← y·V: the Ritz vectors, mass-orthonormal.
		for j := 0; j < q; j++ {
			for i := range x[j] {
				s := 0.0
				for a := 0; a < q; a++ {
					s += y[a][i] * vecs.At(a, j)
				}
				x[j][i] = s
			}
		}
		done := true
		for j := 0; j < r; j++ {
			if !(math.Abs(vals[j]-prev[j]) <= tol*vals[j]) {
				done = false
			}
			prev[j] = vals[j]
		}
		if done {
			md.Omega2 = append([]float64(nil), vals[:r]...)
			md.Shapes = make([][]float64, r)
			for j := 0; j < r; j++ {
				md.Shapes[j] = append([]float64(nil), x[j]...)
			}
			return md, nil
		}
	}
	return nil, fmt.Errorf("deform: %s: the %d lowest modes did not converge to %g in %d iterations", name, r, tol, maxIter)
}

// ritz solves the q × q generalised eigenproblem Kr v = λ Mr v (Mr positive definite) through the
// Cholesky factor Mr = L Lᵀ: the symmetric C = L⁻¹ Kr L⁻ᵀ has the same eigenvalues, and v = L⁻ᵀ w
// for its eigenvectors w, which makes the v Mr-orthonormal. The eigenvalues come in increasing
// order.
func ritz(kr, mr *mat.SymDense, name string) ([]float64, *mat.Dense, error) {
	var ch mat.Cholesky
	if !ch.Factorize(mr) {
		return nil, nil, fmt.Errorf("deform: %s: the subspace lost rank (its mass matrix is not positive definite)", name)
	}
	var l mat.TriDense
	ch.LTo(&l)
	q := kr.SymmetricDim()
	var li mat.TriDense
	if err := li.InverseTri(&l); err != nil {
		return nil, nil, fmt.Errorf("deform: %s: %v", name, err)
	}
	var t, c mat.Dense
	t.Mul(&li, kr)
	c.Mul(&t, li.T())
	cs := mat.NewSymDense(q, nil)
	for a := 0; a < q; a++ {
		for b := a; b < q; b++ {
			cs.SetSym(a, b, 0.5*(c.At(a, b)+c.At(b, a)))
		}
	}
	var eig mat.EigenSym
	if !eig.Factorize(cs, true) {
		return nil, nil, fmt.Errorf("deform: %s: the Rayleigh–Ritz eigenproblem did not converge", name)
	}
	var w mat.Dense
	eig.VectorsTo(&w)
	var v mat.Dense
	v.Mul(li.T(), &w)
	return eig.Values(nil), &v, nil
}
