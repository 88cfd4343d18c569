package solver

import (
	"math"
	"strconv"
)

// The Stewart–Trinkle (1996) velocity-level LCP with the polyhedral (pyramid) friction cone, in
// this package's sign convention, with z = (α, β, λ) and q̇ = q̇ᴾ + M⁻¹(Nα + Dβ):
//
//	w_n = Nᵀq̇ + b           ≥ 0 ⊥ α ≥ 0   (non-penetration, restitution in b)
//	w_f = Dᵀq̇ + Eλ          ≥ 0 ⊥ β ≥ 0   (λ_k: sliding speed)
//	w_λ = diag(μ)α − Eᵀβ    ≥ 0 ⊥ λ ≥ 0   (linearised Coulomb, eq. 9)
//
// Its solutions are exactly the fixed points (eq. 26) of the pyramid model. It is solved directly by
// Lemke's complementary pivoting on a dense tableau: O(n²) memory and work per pivot for
// n = m(d+2), so it is for small problems; on large ones it hits LCPMaxSize or LCPMaxPivots and
// returns a *SolveError instead of hanging.

type lemkeBuffers struct {
	mat, tab []float64 // n×n LCP matrix, n×(2n+1) tableau
	q, rhs   []float64
	basic    []int
}

// solveLCP fills s.alpha and s.f with the Stewart–Trinkle solution.
func (s *Solver) solveLCP() error {
	op := &s.op
	m := op.m
	d := s.opts.Tangents
	n := m * (d + 2)
	if m == 0 {
		return nil
	}
	if n > s.opts.LCPMaxSize {
		return &SolveError{Method: MethodLCP, Reason: "LCP dimension " + strconv.Itoa(n) + " exceeds LCPMaxSize " + strconv.Itoa(s.opts.LCPMaxSize)}
	}
	lk := &s.lcp
	lk.mat = grow(lk.mat, n*n)
	lk.q = grow(lk.q, n)
	mat, q := lk.mat, lk.q
	clear(mat)
	iA := func(k int) int { return k }
	iB := func(k, j int) int { return m + k*d + j }
	iL := func(k int) int { return m + m*d + k }
	cosT, sinT := s.set.cosT, s.set.sinT
	var blk [9]float64
	for k := 0; k < m; k++ {
		for l := 0; l < m; l++ {
			shared := false
			blk = [9]float64{}
			for i := 2 * k; i < 2*k+2; i++ {
				si := op.sides[i]
				if si.off < 0 {
					continue
				}
				for j := 2 * l; j < 2*l+2; j++ {
					sj := op.sides[j]
					if sj.off != si.off {
						continue
					}
					shared = true
					nb := si.size
					for r := 0; r < 3; r++ {
						for c := 0; c < 3; c++ {
							blk[3*r+c] += dot(op.rows[si.row+r*nb:si.row+(r+1)*nb], op.w[sj.row+c*nb:sj.row+(c+1)*nb])
						}
					}
				}
			}
			if !shared {
				continue
			}
			mat[iA(k)*n+iA(l)] = blk[0]
			for j := 0; j < d; j++ {
				mat[iA(k)*n+iB(l, j)] = blk[1]*cosT[j] + blk[2]*sinT[j]
				mat[iB(k, j)*n+iA(l)] = cosT[j]*blk[3] + sinT[j]*blk[6]
				for jj := 0; jj < d; jj++ {
					mat[iB(k, j)*n+iB(l, jj)] = cosT[j]*(blk[4]*cosT[jj]+blk[5]*sinT[jj]) + sinT[j]*(blk[7]*cosT[jj]+blk[8]*sinT[jj])
				}
			}
		}
		mat[iL(k)*n+iA(k)] = op.mu[k]
		for j := 0; j < d; j++ {
			mat[iB(k, j)*n+iL(k)] = 1
			mat[iL(k)*n+iB(k, j)] = -1
		}
		q[iA(k)] = op.rowDot(k, 0, op.qdotP) + op.bEff[k]
		t1, t2 := op.slip(k, op.qdotP)
		for j := 0; j < d; j++ {
			q[iB(k, j)] = cosT[j]*t1 + sinT[j]*t2
		}
		q[iL(k)] = 0
	}
	z := s.lemke(n)
	if z == nil {
		return &SolveError{Method: MethodLCP, Reason: s.lemkeFailure}
	}
	for k := 0; k < m; k++ {
		s.alpha[k] = max(z[iA(k)], 0)
		f1, f2 := 0.0, 0.0
		for j := 0; j < d; j++ {
			b := max(z[iB(k, j)], 0)
			f1 += b * cosT[j]
			f2 += b * sinT[j]
		}
		s.f[2*k], s.f[2*k+1] = f1, f2
	}
	return nil
}

// lemke solves w = Mz + q ≥ 0, z ≥ 0, wᵀz = 0 for the n×n s.lcp.mat and s.lcp.q by Lemke's
// algorithm with covering vector e, returning z (in s.lcp.rhs scratch) or nil with the reason in
// s.lemkeFailure (ray termination or pivot limit).
func (s *Solver) lemke(n int) []float64 {
	lk := &s.lcp
	cols := 2*n + 1 // w (n), z (n), z0
	lk.tab = grow(lk.tab, n*cols)
	lk.rhs = grow(lk.rhs, 2*n)
	lk.basic = grow(lk.basic, n)
	tab, rhs, basic := lk.tab, lk.rhs[:n], lk.basic
	clear(tab)
	r0, qmin := -1, 0.0
	for i := 0; i < n; i++ {
		row := tab[i*cols : (i+1)*cols]
		row[i] = 1
		for j := 0; j < n; j++ {
			row[n+j] = -lk.mat[i*n+j]
		}
		row[2*n] = -1
		rhs[i] = lk.q[i]
		basic[i] = i
		if lk.q[i] < qmin {
			r0, qmin = i, lk.q[i]
		}
	}
	z := lk.rhs[n : 2*n]
	clear(z)
	if r0 < 0 {
		return z // q ≥ 0: z = 0 solves it
	}
	maxPiv := s.opts.LCPMaxPivots
	if maxPiv <= 0 {
		maxPiv = 50 * n
	}
	pivot := func(r, c int) {
		row := tab[r*cols : (r+1)*cols]
		inv := 1 / row[c]
		for j := range row {
			row[j] *= inv
		}
		rhs[r] *= inv
		row[c] = 1
		for i := 0; i < n; i++ {
			if i == r {
				continue
			}
			oi := tab[i*cols : (i+1)*cols]
			fct := oi[c]
			if fct == 0 {
				continue
			}
			for j, x := range row {
				if x != 0 {
					oi[j] -= fct * x
				}
			}
			oi[c] = 0
			rhs[i] -= fct * rhs[r]
		}
		basic[r] = c
	}
	pivot(r0, 2*n)
	entering := n + r0
	for piv := 1; ; piv++ {
		if piv > maxPiv {
			s.lemkeFailure = "pivot limit " + strconv.Itoa(maxPiv) + " reached"
			return nil
		}
		s.st.ContactPivots++
		r, best, bestPiv := -1, math.Inf(1), 0.0
		for i := 0; i < n; i++ {
			a := tab[i*cols+entering]
			if a <= 1e-12 {
				continue
			}
			ratio := rhs[i] / a
			switch {
			case r < 0 || ratio < best-1e-12*max(1, math.Abs(best)):
				r, best, bestPiv = i, ratio, a
			case ratio <= best+1e-12*max(1, math.Abs(best)):
				// tie: prefer z0 leaving, then the larger pivot
				if basic[i] == 2*n || (basic[r] != 2*n && a > bestPiv) {
					r, best, bestPiv = i, min(ratio, best), a
				}
			}
		}
		if r < 0 {
			s.lemkeFailure = "ray termination (no blocking variable)"
			return nil
		}
		leaving := basic[r]
		pivot(r, entering)
		if leaving == 2*n {
			break
		}
		if leaving < n {
			entering = n + leaving
		} else {
			entering = leaving - n
		}
	}
	for i := 0; i < n; i++ {
		if b := basic[i]; b >= n && b < 2*n {
			z[b-n] = rhs[i]
		}
	}
	return z
}
