package deform

import (
	"fmt"
	"math"

	"github.com/go-gl/mathgl/mgl64"
)

// shiftFraction is the spectral shift σ of FreeModes as a fraction of its estimate of the lowest
// elastic ω². Any σ > 0 makes K + σM positive definite; a small one keeps the subspace iteration's
// convergence ratio (λ_r + σ)/(λ_{q+1} + σ) close to the unshifted one, and since the rigid
// components that (K + σM)⁻¹ amplifies by 1/σ are projected out of every iterate, a small σ costs
// no accuracy in the elastic modes.
const shiftFraction = 0.01

// FreeModes returns the r lowest elastic vibration modes of the unconstrained mesh m with
// stiffness k and lumped vertex masses mass: the generalised eigenpairs K φ = ω² M φ after the six
// rigid modes (ω = 0), in increasing frequency, mass-orthonormal (φᵀMφ = 1) and M-orthogonal to
// the rigid modes, that is with zero linear and angular momentum about the centre of mass,
//
//	Σ_a m_a φ_a = 0,   Σ_a m_a x_a × φ_a = 0,
//
// the mean-axis conditions under which a floating frame's origin stays at the centre of mass and
// its axes follow the body's mean rotation (ModalBody).
//
// K of a free body is singular, so the subspace iteration of LowestModes runs on the shifted
// K + σM (positive definite for σ > 0), factored once in banded form, with a block of
// max(2r, r + 8) vectors (Bathe's size: a free body's spectrum comes in near-degenerate bending
// pairs, and the wider block converges in fewer, cheaper-overall iterations). σ is shiftFraction times the
// least Rayleigh quotient uᵀKu/uᵀMu of nine quadratic trial fields u_i = (x_j − c_j)² with the
// rigid modes projected out: each such quotient bounds the lowest elastic ω² from above (Courant–
// Fischer on the complement of the rigid modes) and, for smooth bending and stretching, is within
// a small factor of it. The rigid modes — three translations and three infinitesimal rotations
// about the centre of mass, built analytically and mass-orthonormalised — are projected out of
// every iterate, so the iteration converges to the elastic modes only. It refuses bad arguments,
// a mesh with more than six zero-frequency modes (not in one piece), and a subspace that does not
// converge within maxIter iterations.
func FreeModes(m *TetMesh, k *BlockMatrix, mass []float64, r int, tol float64, maxIter int) (*Modes, error) {
	if m == nil || k == nil {
		return nil, fmt.Errorf("deform: FreeModes: needs a mesh and its stiffness")
	}
	nv := k.n
	switch {
	case m.NumVertices() != nv:
		return nil, fmt.Errorf("deform: FreeModes k: %d vertices, the mesh has %d", nv, m.NumVertices())
	case len(mass) != nv:
		return nil, fmt.Errorf("deform: FreeModes mass: needs one entry per vertex (%d), got %d", nv, len(mass))
	case !(tol > 0) || maxIter < 1:
		return nil, fmt.Errorf("deform: FreeModes: tol must be > 0 and maxIter ≥ 1, got %v and %d", tol, maxIter)
	case nv < 4:
		return nil, fmt.Errorf("deform: FreeModes: a free body needs at least 4 vertices, got %d", nv)
	case r < 1 || r > 3*nv-6:
		return nil, fmt.Errorf("deform: FreeModes r: must be in [1, %d], got %d", 3*nv-6, r)
	}
	for a, q := range mass {
		if !(q > 0) || !finite(q) {
			return nil, fmt.Errorf("deform: FreeModes mass[%d]: must be finite and > 0, got %v", a, q)
		}
	}
	if pieces := components(k); pieces != 1 {
		return nil, fmt.Errorf("deform: FreeModes: the mesh is not in one piece (%d pieces sharing no vertex): each piece moves rigidly on its own", pieces)
	}
	n := 3 * nv
	mdiag := make([]float64, n)
	for i := range mdiag {
		mdiag[i] = mass[i/3]
	}
	rigid := rigidModes(m, mass)
	project := func(v []float64) { projectOut(rigid, mdiag, v) }

	// Quadratic trial fields: the shift's estimate and the first start vectors.
	c := centreOfMass(m, mass)
	var trial [][]float64
	kv := make([]float64, n)
	lowest := math.Inf(1)
	for comp := 0; comp < 3; comp++ {
		for axis := 0; axis < 3; axis++ {
			u := make([]float64, n)
			for a := 0; a < nv; a++ {
				d := m.Vertex(a)[axis] - c[axis]
				u[3*a+comp] = d * d
			}
			before := 0.0
			for i := range u {
				before += mdiag[i] * u[i] * u[i]
			}
			project(u)
			k.MulVec(u, kv)
			uku, umu := 0.0, 0.0
			for i := range u {
				uku += u[i] * kv[i]
				umu += mdiag[i] * u[i] * u[i]
			}
			// A field that is (nearly) rigid on this mesh — a quadratic across a single layer of
			// cells is constant — leaves only round-off after the projection.
			if umu > 1e-12*before && uku > 0 && finite(uku/umu) {
				lowest = math.Min(lowest, uku/umu)
				trial = append(trial, u)
			}
		}
	}
	if math.IsInf(lowest, 1) {
		return nil, fmt.Errorf("deform: FreeModes: no quadratic field deforms the mesh (is it flat?)")
	}
	sigma := shiftFraction * lowest

	q := min(max(2*r, r+8), n-6)
	x := make([][]float64, q)
	for j := range x {
		if j < len(trial) {
			x[j] = trial[j]
			continue
		}
		x[j] = make([]float64, n)
		for i := range x[j] {
			x[j][i] = spread(i, j)
		}
		project(x[j])
	}
	chol, err := newBandedCholesky(shifted(k, mass, sigma), make([]bool, nv))
	if err != nil {
		return nil, fmt.Errorf("deform: FreeModes: %v", err)
	}
	md, err := subspaceIteration(k, chol, mdiag, project, x, r, tol, maxIter, "FreeModes")
	if err != nil {
		return nil, err
	}
	// Pieces joined only at a vertex or an edge turn about it freely: a mechanism, which comes back
	// as an elastic mode of (numerically) zero frequency.
	if md.Omega2[0] < 1e-6*sigma {
		return nil, fmt.Errorf("deform: FreeModes: a mode of ω² = %.3g, far below the shift %.3g: the mesh has a mechanism (pieces joined at a vertex or an edge)", md.Omega2[0], sigma)
	}
	return md, nil
}

// centreOfMass returns Σ m_a x_a / Σ m_a.
func centreOfMass(m *TetMesh, mass []float64) mgl64.Vec3 {
	var c mgl64.Vec3
	total := 0.0
	for a, q := range mass {
		c = c.Add(m.Vertex(a).Mul(q))
		total += q
	}
	return c.Mul(1 / total)
}

// rigidModes returns the six rigid motions of m — translations along x, y, z and infinitesimal
// rotations φ_a = e_i × (x_a − c) about the centre of mass c — mass-orthonormalised by modified
// Gram–Schmidt, run twice so that round-off leaves them orthonormal to working precision.
func rigidModes(m *TetMesh, mass []float64) [][]float64 {
	nv := m.NumVertices()
	c := centreOfMass(m, mass)
	modes := make([][]float64, 6)
	for i := 0; i < 3; i++ {
		t := make([]float64, 3*nv)
		rot := make([]float64, 3*nv)
		var e mgl64.Vec3
		e[i] = 1
		for a := 0; a < nv; a++ {
			t[3*a+i] = 1
			w := e.Cross(m.Vertex(a).Sub(c))
			rot[3*a], rot[3*a+1], rot[3*a+2] = w[0], w[1], w[2]
		}
		modes[i], modes[3+i] = t, rot
	}
	mInner := func(u, v []float64) float64 {
		s := 0.0
		for i := range u {
			s += mass[i/3] * u[i] * v[i]
		}
		return s
	}
	for pass := 0; pass < 2; pass++ {
		for j := range modes {
			for p := 0; p < j; p++ {
				d := mInner(modes[p], modes[j])
				for i := range modes[j] {
					modes[j][i] -= d * modes[p][i]
				}
			}
			s := 1 / math.Sqrt(mInner(modes[j], modes[j]))
			for i := range modes[j] {
				modes[j][i] *= s
			}
		}
	}
	return modes
}

// projectOut removes from v its M-orthogonal projection on the M-orthonormal basis: v ← v − Σ_k
// ρ_k (ρ_kᵀ M v), with M the diagonal mdiag.
func projectOut(basis [][]float64, mdiag, v []float64) {
	for _, rho := range basis {
		d := 0.0
		for i, x := range v {
			d += mdiag[i] * rho[i] * x
		}
		for i := range v {
			v[i] -= d * rho[i]
		}
	}
}

// shifted returns K + σM for the lumped masses: K's pattern with σ m_a added to each diagonal
// block's diagonal.
func shifted(k *BlockMatrix, mass []float64, sigma float64) *BlockMatrix {
	s := &BlockMatrix{n: k.n, start: k.start, cols: k.cols, vals: append([][9]float64(nil), k.vals...)}
	for a := 0; a < k.n; a++ {
		blk := s.block(int32(a), int32(a))
		blk[0] += sigma * mass[a]
		blk[4] += sigma * mass[a]
		blk[8] += sigma * mass[a]
	}
	return s
}

// components returns the number of connected components of K's block pattern: the pieces of the
// mesh that share no vertex.
func components(k *BlockMatrix) int {
	seen := make([]bool, k.n)
	var stack []int
	pieces := 0
	for s := 0; s < k.n; s++ {
		if seen[s] {
			continue
		}
		pieces++
		seen[s] = true
		stack = append(stack[:0], s)
		for len(stack) > 0 {
			a := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for q := k.start[a]; q < k.start[a+1]; q++ {
				if b := int(k.cols[q]); !seen[b] {
					seen[b] = true
					stack = append(stack, b)
				}
			}
		}
	}
	return pieces
}
