package solver

import "math"

// Baraff's (1994) Dantzig-style principal pivoting for the contact LCP w = Aα + c ≥ 0, α ≥ 0,
// wᵀα = 0 with A = NᵀM⁻¹N symmetric positive semidefinite. Contacts are driven to complementarity
// one at a time; the clamped set C keeps w_C = 0 while the driven contact's impulse grows, and the
// step is limited by the first clamped impulse reaching zero or the first released contact's w
// reaching zero. For PSD A the direction system A_CC x = −A_Cd is consistent even when A_CC is
// singular (redundant contacts; Baraff's appendix), so a rank-revealing Cholesky solves it exactly
// without regularisation. Dense: O(m²) memory and O(|C|³) work per step, for small islands and as
// the reference solution of the contact projection.

// pivotBuffers is the pivoting reference's workspace: the dense Delassus matrix and the
// clamped set.
type pivotBuffers struct {
	a, sub       []float64 // m×m Delassus matrix, |C|×|C| scratch
	c, w, df, dw []float64
	rhs, x, y    []float64
	state        []int8 // 0 not yet considered, 1 clamped (C), 2 released (NC)
	cl           []int  // indices in C
	perm         []int
}

const (
	pivUnseen int8 = iota
	pivClamped
	pivReleased
)

// denseDelassus fills pv.a with op's A = NᵀM⁻¹N (m×m).
func (pv *pivotBuffers) denseDelassus(op *operator) {
	m := op.m
	pv.a = grow(pv.a, m*m)
	a := pv.a
	for k := 0; k < m; k++ {
		for l := k; l < m; l++ {
			sum := 0.0
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
					n := si.size
					sum += dot(op.rows[si.row:si.row+n], op.w[sj.row:sj.row+n])
				}
			}
			a[k*m+l], a[l*m+k] = sum, sum
		}
	}
}

// pivotProject solves the bound projection exactly by pivoting, writing α. It reports success; on
// failure (step limit or an unbounded direction, which a feasible problem never produces) it
// leaves the best α found, clipped to α ≥ 0.
func (cp *contactProjection) pivotProject() bool {
	op, f := cp.op, cp.f
	m := op.m
	pv := &cp.pivot
	pv.denseDelassus(op)
	pv.c = grow(pv.c, m)
	pv.w = grow(pv.w, m)
	pv.df = grow(pv.df, m)
	pv.dw = grow(pv.dw, m)
	pv.rhs = grow(pv.rhs, m)
	pv.x = grow(pv.x, m)
	pv.y = grow(pv.y, m)
	pv.sub = grow(pv.sub, m*m)
	pv.perm = grow(pv.perm, m)
	pv.state = grow(pv.state, m)
	pv.cl = pv.cl[:0]
	op.velocity(nil, f, cp.v)
	alpha, w, a := cp.alpha, pv.w, pv.a
	for k := 0; k < m; k++ {
		pv.c[k] = op.rowDot(k, 0, cp.v) + op.bEff[k]
		w[k] = pv.c[k]
		alpha[k] = 0
		pv.state[k] = pivUnseen
	}
	tol := 0.1 * cp.relTol * op.scale
	maxSteps := 20*m + 100
	steps := 0
	ok := true
	for ok {
		d, worst := -1, -tol
		for k := 0; k < m; k++ {
			if pv.state[k] != pivClamped && w[k] < worst {
				d, worst = k, w[k]
			}
		}
		if d < 0 {
			break
		}
		for {
			steps++
			cp.work.Pivots++
			if steps > maxSteps {
				ok = false
				break
			}
			pv.direction(m, d)
			// Largest step keeping α_C ≥ 0 and w_NC ≥ 0, up to w_d = 0.
			step, j := math.Inf(1), -1
			if pv.dw[d] > 1e-12*a[d*m+d] {
				step, j = -w[d]/pv.dw[d], d
			}
			for _, i := range pv.cl {
				if pv.df[i] < -1e-12 {
					if t := -alpha[i] / pv.df[i]; t < step {
						step, j = t, i
					}
				}
			}
			for i := 0; i < m; i++ {
				if pv.state[i] == pivReleased && i != d && pv.dw[i] < -1e-12*a[i*m+i] {
					if t := -w[i] / pv.dw[i]; t < step {
						step, j = t, i
					}
				}
			}
			if j < 0 {
				ok = false
				break
			}
			if step < 0 {
				step = 0
			}
			for i := 0; i < m; i++ {
				alpha[i] += step * pv.df[i]
				w[i] += step * pv.dw[i]
			}
			if j == d {
				w[d] = 0
				pv.state[d] = pivClamped
				pv.cl = append(pv.cl, d)
				break
			}
			if pv.state[j] == pivClamped {
				alpha[j] = 0
				pv.state[j] = pivReleased
				for n, i := range pv.cl {
					if i == j {
						pv.cl = append(pv.cl[:n], pv.cl[n+1:]...)
						break
					}
				}
			} else {
				w[j] = 0
				pv.state[j] = pivClamped
				pv.cl = append(pv.cl, j)
			}
		}
		if pv.state[d] != pivClamped && ok {
			pv.state[d] = pivReleased
		}
	}
	for k := 0; k < m; k++ {
		if !(alpha[k] > 0) {
			alpha[k] = 0
		}
	}
	return ok
}

// direction sets df (1 at d, A_CC⁻¹(−A_Cd) on C, 0 elsewhere) and dw = A df, for the m×m A.
func (pv *pivotBuffers) direction(m, d int) {
	a := pv.a
	clear(pv.df)
	pv.df[d] = 1
	nc := len(pv.cl)
	if nc > 0 {
		sub := pv.sub[:nc*nc]
		for r, i := range pv.cl {
			for c, j := range pv.cl {
				sub[r*nc+c] = a[i*m+j]
			}
			pv.rhs[r] = -a[i*m+d]
		}
		psdSolve(sub, nc, pv.rhs[:nc], pv.x[:nc], pv.perm[:nc], pv.y[:nc], 1e-12)
		for r, i := range pv.cl {
			pv.df[i] = pv.x[r]
		}
	}
	for i := 0; i < m; i++ {
		row := a[i*m : (i+1)*m]
		sum := row[d]
		for _, j := range pv.cl {
			sum += row[j] * pv.df[j]
		}
		pv.dw[i] = sum
	}
}
