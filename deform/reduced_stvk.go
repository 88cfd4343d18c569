package deform

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
)

// MaxReducedBasis bounds a reduced StVK model's basis size r: its quartic coefficients take
// (r(r+1)/2)² numbers, 35 MB at r = 64.
const MaxReducedBasis = 64

// precomputeChunk is the number of elements whose strain coefficients are stacked for one
// rank-k update of the coefficient matrices (and one progress report).
const precomputeChunk = 256

// ReducedStVK is the St. Venant–Kirchhoff model restricted to a basis U (r displacement fields,
// u = U q), after Barbič & James 2005: the deformation gradient of every element is linear in q,
// F = I + Σ_j q_j G_j, so the Green strain is quadratic, E = Σ_j q_j A_j + Σ_jk q_j q_k N_jk with
// A_j = sym G_j and N_jk = ¼(G_jᵀG_k + G_kᵀG_j), and the energy is a quartic polynomial in q,
//
//	W(q) = ½ P q q + ⅓ Q q q q + ¼ R q q q q,
//
// with fully symmetric coefficient tensors summed over the mesh once: with ⟨X, Y⟩ = λ trX trY +
// 2μ X:Y and X_{jk,lm} = Σ_e V ⟨N_jk, N_lm⟩, Y_{i,jk} = Σ_e V ⟨A_i, N_jk⟩,
//
//	P_ij = Σ_e V ⟨A_i, A_j⟩,   Q_ijk = Y_{i,jk} + Y_{j,ki} + Y_{k,ij},
//	R_ijkl = ⅔ (X_{ij,kl} + X_{ik,jl} + X_{il,jk}).
//
// The reduced internal force Uᵀ g(U q) = ∂W/∂q and its tangent are then
//
//	g̃(q) = (P + U(q) + T(q)) q,   K̃(q) = P + 2 U(q) + 3 T(q),
//	U_ij(q) = Σ_k Q_ijk q_k,   T_ij(q) = Σ_kl R_ijkl q_k q_l,
//
// which cost O(r⁴) and nothing per vertex. T is symmetric in (i, j) and sums over the symmetric
// (k, l), so R is stored over unordered pairs, an r(r+1)/2 square, and T costs (r(r+1)/2)²
// multiply-adds (44,100 at r = 20).
//
// The precomputation stacks each element's strain coefficients, weighted by √V and a factor of
// ⟨·,·⟩ (X = Σ_e (C N_e)ᵀ(C N_e)), and forms X, Y and P by rank-k updates.
type ReducedStVK struct {
	r, np  int
	pairI  []int     // pair p's indices i ≤ j
	pairJ  []int     //
	p      []float64 // r × r
	qm     []float64 // np × r: Q_(ij),k
	rw     []float64 // np × np: R_(ij),(kl) times 2 for k < l (both orders of the pair)
	s, t   []float64 // scratch: q_k q_l per pair; T per pair
	u      []float64 // scratch: U per pair
	digest [32]byte  // of the inputs, for the disk cache (reduced_cache.go)
}

// NumBasis returns r.
func (rs *ReducedStVK) NumBasis() int { return rs.r }

// pairIndex returns the index of the unordered pair {i, j} among the r(r+1)/2: j(j+1)/2 + i for
// i ≤ j.
func pairIndex(i, j int) int {
	if i > j {
		i, j = j, i
	}
	return j*(j+1)/2 + i
}

// NewReducedStVK precomputes the reduced St. Venant–Kirchhoff model of mesh m for mat in the basis
// (r displacement fields, 3 entries per vertex; any basis, typically ModalDerivativeBasis'). progress,
// if not nil, is called with the elements done and their total as the precomputation advances.
// It refuses a nil mesh, an invalid material, an empty basis or one beyond MaxReducedBasis, and
// vectors of the wrong length or with non-finite entries, naming the argument.
func NewReducedStVK(m *TetMesh, mat Material, basis [][]float64, progress func(done, total int)) (*ReducedStVK, error) {
	if m == nil {
		return nil, fmt.Errorf("deform: NewReducedStVK: needs a mesh")
	}
	if err := mat.Validate(); err != nil {
		return nil, err
	}
	r := len(basis)
	if r < 1 || r > MaxReducedBasis {
		return nil, fmt.Errorf("deform: NewReducedStVK basis: needs 1 to %d vectors, got %d", MaxReducedBasis, r)
	}
	n := 3 * m.NumVertices()
	for j, v := range basis {
		if len(v) != n {
			return nil, fmt.Errorf("deform: NewReducedStVK basis[%d]: length %d, want %d", j, len(v), n)
		}
		for i, x := range v {
			if !finite(x) {
				return nil, fmt.Errorf("deform: NewReducedStVK basis[%d][%d]: not finite", j, i)
			}
		}
	}
	rs := newReducedStVK(r)
	rs.digest = reducedDigest(m, mat, basis)
	lambda, mu := mat.lame()
	cw := strainWeights(lambda, mu)
	np := rs.np

	x := blas64.Symmetric{Uplo: blas.Upper, N: np, Data: make([]float64, np*np), Stride: np}
	y := blas64.General{Rows: r, Cols: np, Data: make([]float64, r*np), Stride: np}
	p := blas64.Symmetric{Uplo: blas.Upper, N: r, Data: make([]float64, r*r), Stride: r}
	nt := m.NumTets()
	rows := 6 * precomputeChunk
	aRows := blas64.General{Rows: rows, Cols: r, Data: make([]float64, rows*r), Stride: r}
	nRows := blas64.General{Rows: rows, Cols: np, Data: make([]float64, rows*np), Stride: np}
	g := make([][9]float64, r) // G_j row-major
	var sym [6]float64
	for start := 0; start < nt; start += precomputeChunk {
		end := min(start+precomputeChunk, nt)
		k := 6 * (end - start)
		aRows.Rows, nRows.Rows = k, k
		for e := start; e < end; e++ {
			grads, vol := shapeGradients(m.corners(e))
			w := math.Sqrt(vol)
			row := 6 * (e - start)
			for j := 0; j < r; j++ {
				g[j] = [9]float64{}
				for a, v := range m.tets[e] {
					ga := grads[a]
					for i := 0; i < 3; i++ {
						ui := basis[j][3*int(v)+i]
						g[j][3*i], g[j][3*i+1], g[j][3*i+2] = g[j][3*i]+ui*ga[0], g[j][3*i+1]+ui*ga[1], g[j][3*i+2]+ui*ga[2]
					}
				}
				gj := &g[j]
				// A_j = sym G_j in (xx, yy, zz, xy, yz, zx).
				sym = [6]float64{gj[0], gj[4], gj[8], (gj[1] + gj[3]) / 2, (gj[5] + gj[7]) / 2, (gj[6] + gj[2]) / 2}
				cw.apply(&sym, w)
				for c := 0; c < 6; c++ {
					aRows.Data[(row+c)*r+j] = sym[c]
				}
			}
			for pi := 0; pi < np; pi++ {
				gi, gj := &g[rs.pairI[pi]], &g[rs.pairJ[pi]]
				// M = G_iᵀ G_j; N = ¼ (M + Mᵀ).
				var mm [9]float64
				for a := 0; a < 3; a++ {
					for b := 0; b < 3; b++ {
						mm[3*a+b] = gi[a]*gj[b] + gi[3+a]*gj[3+b] + gi[6+a]*gj[6+b]
					}
				}
				sym = [6]float64{mm[0] / 2, mm[4] / 2, mm[8] / 2, (mm[1] + mm[3]) / 4, (mm[5] + mm[7]) / 4, (mm[6] + mm[2]) / 4}
				cw.apply(&sym, w)
				for c := 0; c < 6; c++ {
					nRows.Data[(row+c)*np+pi] = sym[c]
				}
			}
		}
		blas64.Syrk(blas.Trans, 1, nRows, 1, x)
		blas64.Gemm(blas.Trans, blas.NoTrans, 1, aRows, nRows, 1, y)
		blas64.Syrk(blas.Trans, 1, aRows, 1, p)
		if progress != nil {
			progress(end, nt)
		}
	}
	xAt := func(a, b int) float64 {
		if a > b {
			a, b = b, a
		}
		return x.Data[a*np+b]
	}
	for i := 0; i < r; i++ {
		for j := 0; j < r; j++ {
			rs.p[i*r+j] = p.Data[min(i, j)*r+max(i, j)]
		}
	}
	for pi := 0; pi < np; pi++ {
		i, j := rs.pairI[pi], rs.pairJ[pi]
		for k := 0; k < r; k++ {
			rs.qm[pi*r+k] = y.Data[i*np+pairIndex(j, k)] + y.Data[j*np+pairIndex(k, i)] + y.Data[k*np+pi]
		}
		for pk := 0; pk < np; pk++ {
			k, l := rs.pairI[pk], rs.pairJ[pk]
			v := 2.0 / 3 * (xAt(pi, pk) + xAt(pairIndex(i, k), pairIndex(j, l)) + xAt(pairIndex(i, l), pairIndex(j, k)))
			if k != l {
				v *= 2
			}
			rs.rw[pi*np+pk] = v
		}
	}
	return rs, nil
}

// newReducedStVK allocates the coefficient and scratch storage for a basis of r.
func newReducedStVK(r int) *ReducedStVK {
	np := r * (r + 1) / 2
	rs := &ReducedStVK{r: r, np: np, pairI: make([]int, np), pairJ: make([]int, np)}
	for j := 0; j < r; j++ {
		for i := 0; i <= j; i++ {
			p := pairIndex(i, j)
			rs.pairI[p], rs.pairJ[p] = i, j
		}
	}
	rs.p = make([]float64, r*r)
	rs.qm = make([]float64, np*r)
	rs.rw = make([]float64, np*np)
	rs.s, rs.t, rs.u = make([]float64, np), make([]float64, np), make([]float64, np)
	return rs
}

// strainWeight factors the strain inner product ⟨X, Y⟩ = λ trX trY + 2μ X:Y on symmetric
// matrices stored as (xx, yy, zz, xy, yz, zx): the diagonal part λ11ᵀ + 2μI = L Lᵀ (positive
// definite for ν in (−1, ½)) and the off-diagonal entries, which X:Y counts twice, by 2√μ, so that
// ⟨X, Y⟩ = (C x)·(C y).
type strainWeight struct {
	lt  [3][3]float64 // Lᵀ, upper triangular
	off float64
}

// strainWeights returns the factor of ⟨·,·⟩ for the Lamé parameters.
func strainWeights(lambda, mu float64) strainWeight {
	var l [3][3]float64
	d := [3][3]float64{}
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			d[i][j] = lambda
		}
		d[i][i] += 2 * mu
	}
	for i := 0; i < 3; i++ {
		for j := 0; j <= i; j++ {
			s := d[i][j]
			for k := 0; k < j; k++ {
				s -= l[i][k] * l[j][k]
			}
			if i == j {
				l[i][i] = math.Sqrt(s)
			} else {
				l[i][j] = s / l[j][j]
			}
		}
	}
	var w strainWeight
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			w.lt[i][j] = l[j][i]
		}
	}
	w.off = 2 * math.Sqrt(mu)
	return w
}

// apply replaces v by s C v.
func (w *strainWeight) apply(v *[6]float64, s float64) {
	d0, d1, d2 := v[0], v[1], v[2]
	v[0] = s * (w.lt[0][0]*d0 + w.lt[0][1]*d1 + w.lt[0][2]*d2)
	v[1] = s * (w.lt[1][1]*d1 + w.lt[1][2]*d2)
	v[2] = s * w.lt[2][2] * d2
	f := s * w.off
	v[3], v[4], v[5] = f*v[3], f*v[4], f*v[5]
}

// Evaluate sets force to the reduced internal force g̃(q) = Uᵀ g(U q) (r entries) and, if tangent
// is not nil, tangent to K̃(q) = ∂g̃/∂q (r × r, row-major, symmetric). It does not allocate; it
// uses the model's scratch, so one model serves one goroutine at a time. It refuses a q, force or
// tangent of the wrong length and a non-finite q, changing nothing then.
func (rs *ReducedStVK) Evaluate(q, force, tangent []float64) error {
	r := rs.r
	switch {
	case len(q) != r:
		return fmt.Errorf("deform: ReducedStVK.Evaluate q: length %d, want %d", len(q), r)
	case len(force) != r:
		return fmt.Errorf("deform: ReducedStVK.Evaluate force: length %d, want %d", len(force), r)
	case tangent != nil && len(tangent) != r*r:
		return fmt.Errorf("deform: ReducedStVK.Evaluate tangent: length %d, want %d", len(tangent), r*r)
	}
	for i, x := range q {
		if !finite(x) {
			return fmt.Errorf("deform: ReducedStVK.Evaluate q[%d]: not finite", i)
		}
	}
	rs.contract(q)
	for i := 0; i < r; i++ {
		f := 0.0
		for j := 0; j < r; j++ {
			pij := pairIndex(i, j)
			pm, um, tm := rs.p[i*r+j], rs.u[pij], rs.t[pij]
			f += (pm + um + tm) * q[j]
			if tangent != nil {
				tangent[i*r+j] = pm + 2*um + 3*tm
			}
		}
		force[i] = f
	}
	return nil
}

// Energy returns the reduced elastic energy W(q) = W(U q) = q·(½P + ⅓U(q) + ¼T(q)) q, J. It uses
// the model's scratch like Evaluate and refuses a q of the wrong length or not finite.
func (rs *ReducedStVK) Energy(q []float64) (float64, error) {
	r := rs.r
	if len(q) != r {
		return 0, fmt.Errorf("deform: ReducedStVK.Energy q: length %d, want %d", len(q), r)
	}
	for i, x := range q {
		if !finite(x) {
			return 0, fmt.Errorf("deform: ReducedStVK.Energy q[%d]: not finite", i)
		}
	}
	rs.contract(q)
	w := 0.0
	for i := 0; i < r; i++ {
		for j := 0; j < r; j++ {
			pij := pairIndex(i, j)
			w += (rs.p[i*r+j]/2 + rs.u[pij]/3 + rs.t[pij]/4) * q[i] * q[j]
		}
	}
	return w, nil
}

// contract sets the scratch U(q) and T(q), per pair.
func (rs *ReducedStVK) contract(q []float64) {
	np := rs.np
	for p := 0; p < np; p++ {
		rs.s[p] = q[rs.pairI[p]] * q[rs.pairJ[p]]
	}
	for p := 0; p < np; p++ {
		rs.t[p] = dot4(rs.rw[p*np:(p+1)*np], rs.s)
		qrow := rs.qm[p*rs.r : (p+1)*rs.r]
		u := 0.0
		for k, x := range q {
			u += qrow[k] * x
		}
		rs.u[p] = u
	}
}

// dot4 returns xᵀy (len(y) ≥ len(x)) with four partial sums, which the processor pipelines: the
// O(r⁴) contraction of R is nearly all of a reduced evaluation's time.
func dot4(x, y []float64) float64 {
	y = y[:len(x)]
	var s0, s1, s2, s3 float64
	k := 0
	for ; k+4 <= len(x); k += 4 {
		s0 += x[k] * y[k]
		s1 += x[k+1] * y[k+1]
		s2 += x[k+2] * y[k+2]
		s3 += x[k+3] * y[k+3]
	}
	for ; k < len(x); k++ {
		s0 += x[k] * y[k]
	}
	return (s0 + s1) + (s2 + s3)
}
