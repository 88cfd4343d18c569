package solver

import "math"

// The DoF-sized contact projection (paper §6.3): an active-set method for P_C whose working set
// is a linearly independent set B of clamped contacts, so that it never holds more rows than the
// island has DoFs, however many contacts redundant faces give it. It keeps the Cholesky factor of
// the Delassus block S_BB = N_BᵀM⁻¹N_B, updated by one row at a time as contacts are clamped and
// released (O(|B|²) each), and keeps B and its factor from one projection of a solve to the next:
// S depends only on the island's rows and masses, and only c = Nᵀ(q̇ᴾ + M⁻¹f) + b changes.
//
// A projection follows the last answer, complementary for the last c, along the straight path to
// this c (homotopy): the clamped impulses move so as to hold w_B = 0, and the first clamped impulse
// to reach zero is released, the first free w to reach zero clamped. The first projection of a
// solve starts the same way from the warm start's impulses on B, which are the answer of a c
// shifted to make them complementary. It then solves S_BB α_B = −c_B afresh against the drift of
// the path and drives any contact still approaching to complementarity as Baraff's (1994)
// pivoting does. A row that depends on B's is not added: while w_B = 0 it cannot start to
// approach, and a driven contact that depends on B moves load off B until a clamped contact is
// released. The answer is a vertex of the LCP, exact in finitely many pivots whatever the
// redundancy, with α supported on independent rows (TestActiveSetOnRedundantFaces).

// Bounds and tolerances of the active-set projection.
const (
	// asDependent: a row whose pivot in the factor is at most asDependent times its Delassus
	// diagonal lies in the span of B (the sine² of its angle to it in the M⁻¹ metric), and is not
	// added. Baraff's rank-revealing Cholesky (pivot.go) drops at 1e-12 of the largest diagonal.
	asDependent = 1e-11
	// asPivots bounds the pivots of one projection, per contact plus a constant.
	asPivots      = 20
	asPivotsExtra = 200
	// asRefine bounds the rounds that recompute w from α and correct α_B for it.
	asRefine = 4
)

// activeSetWork counts what an active-set projection did: its pivots (Stats.ContactPivots) and its
// factor work beyond one pass over the contacts per pivot, in contact updates (the work budget's
// unit, budget.go).
type activeSetWork struct {
	Pivots, FactorWork int
}

// factorCost is the work, in contact updates, of n² multiply–adds on the factor: a triangular
// solve of |B| rows costs |B|²/2 of them, read in order, while a contact update reads its rows
// and blocks scattered over the island; timed on the sliding 40-box tower, 48 multiply–adds on
// the factor took as long as one contact update of PGS-SM.
func factorCost(n int) int { return n * n / 48 }

// activeSet is the DoF-sized projection's workspace: the working set and its factor, kept across
// the projections of one solve, and the scratch of a pivot.
type activeSet struct {
	ready bool // B and its factor are for the current operator

	set  []int  // B, in factor order
	pos  []int  // position of each contact in set, −1 when not clamped
	skip []bool // per contact: a dependent row passed over in the current drive
	// turned and epoch: the homotopy's degenerate steps (see there).
	turned []int
	epoch  int
	chol   []float64
	ld     int // row stride of chol: the largest |B| the operator allows

	// Contacts per body (the operator's blocks): body b's contacts are
	// byBody[bodyStart[b]:bodyStart[b+1]].
	bodyStart, byBody []int

	w, dw, dc  []float64 // m
	alphaEnd   []float64 // m: the last projection's answer
	col, y, da []float64 // |B|: a Delassus column, the forward solve, the clamped impulses' rates
	z, rhs     []float64 // |B|: homotopy's forward solve and its right-hand side
	u          []float64 // ndof
	order      []int     // scratch: contacts by warm impulse
	work       activeSetWork
}

// resize sizes the scratch for op and forgets the working set: a new solve.
func (as *activeSet) resize(op *operator) {
	m, n := op.m, op.ndof
	as.ready = false
	as.ld = min(m, n)
	as.pos = grow(as.pos, m)
	as.skip = grow(as.skip, m)
	as.turned = grow(as.turned, m)
	clear(as.turned)
	as.epoch = 0
	as.w = grow(as.w, m)
	as.dw = grow(as.dw, m)
	as.dc = grow(as.dc, m)
	as.alphaEnd = grow(as.alphaEnd, m)
	as.col = grow(as.col, as.ld)
	as.y = grow(as.y, as.ld)
	as.da = grow(as.da, as.ld)
	as.z = grow(as.z, as.ld)
	as.rhs = grow(as.rhs, as.ld)
	as.u = grow(as.u, n)
	as.set = grow(as.set, as.ld)[:0]
	as.order = grow(as.order, max(m, op.nBlocks))[:0]
}

// prepare lists each body's contacts and empties B.
func (as *activeSet) prepare(op *operator) {
	nb := op.nBlocks
	as.bodyStart = grow(as.bodyStart, nb+1)
	clear(as.bodyStart)
	for k := 0; k < op.m; k++ {
		for s := 0; s < 2; s++ {
			if b := op.sides[2*k+s].body; b >= 0 {
				as.bodyStart[b+1]++
			}
		}
	}
	for b := 0; b < nb; b++ {
		as.bodyStart[b+1] += as.bodyStart[b]
	}
	as.byBody = grow(as.byBody, as.bodyStart[nb])
	fill := as.order[:0]
	fill = append(fill, as.bodyStart[:nb]...)
	for k := 0; k < op.m; k++ {
		for s := 0; s < 2; s++ {
			if b := op.sides[2*k+s].body; b >= 0 {
				as.byBody[fill[b]] = k
				fill[b]++
			}
		}
	}
	as.order = fill
	as.chol = grow(as.chol, as.ld*as.ld)
	as.set = as.set[:0]
	for k := 0; k < op.m; k++ {
		as.pos[k] = -1
	}
	as.ready = true
}

// freeRates sets dw to the rates of the free contacts' w as the clamped impulses move at rates
// da (in factor order) and contact lead (−1: none) at rate 1, plus dc (nil: none), the rate of
// the contact velocities themselves; clamped contacts are held at w = 0.
func (as *activeSet) freeRates(op *operator, lead int, da, dc []float64) {
	u := as.u
	clear(u)
	if lead >= 0 {
		op.addW(lead, 0, 1, u)
	}
	for i, k := range as.set {
		op.addW(k, 0, da[i], u)
	}
	for k := 0; k < op.m; k++ {
		switch {
		case as.pos[k] >= 0:
			as.dw[k] = 0
		case dc != nil:
			as.dw[k] = op.rowDot(k, 0, u) + dc[k]
		default:
			as.dw[k] = op.rowDot(k, 0, u)
		}
	}
}

// entry returns the Delassus entry S_ij = n_iᵀM⁻¹n_j over the bodies the two contacts share.
func entry(op *operator, i, j int) float64 {
	s := 0.0
	for a := 2 * i; a < 2*i+2; a++ {
		si := op.sides[a]
		if si.off < 0 {
			continue
		}
		for b := 2 * j; b < 2*j+2; b++ {
			sj := op.sides[b]
			if sj.body != si.body {
				continue
			}
			s += dot(op.rows[si.row:si.row+si.size], op.w[sj.row:sj.row+si.size])
		}
	}
	return s
}

// column sets as.col[:|B|] to S_Bd, visiting only the clamped contacts that share a body with d.
func (as *activeSet) column(op *operator, d int) {
	nb := len(as.set)
	col := as.col[:nb]
	clear(col)
	for s := 0; s < 2; s++ {
		b := op.sides[2*d+s].body
		if b < 0 {
			continue
		}
		for _, k := range as.byBody[as.bodyStart[b]:as.bodyStart[b+1]] {
			if p := as.pos[k]; p >= 0 && col[p] == 0 {
				col[p] = entry(op, k, d)
			}
		}
	}
}

// forward sets as.y[:|B|] = L⁻¹x for the factor's lower triangle L (x may alias as.y). The
// entries of x before its first nonzero give zeros, which it skips: a Delassus column S_Bk is
// nonzero only at the clamped contacts that share a body with k.
func (as *activeSet) forward(x []float64) {
	nb := len(as.set)
	y := as.y[:nb]
	first := 0
	for first < nb && x[first] == 0 {
		y[first] = 0
		first++
	}
	as.forwardFrom(x, y, first, first)
}

// forwardFrom completes y = L⁻¹x from row from on, its entries before from being known already
// and those before zero being zero.
func (as *activeSet) forwardFrom(x, y []float64, zero, from int) {
	nb, ld, l := len(as.set), as.ld, as.chol
	for i := from; i < nb; i++ {
		row := l[i*ld : i*ld+i+1]
		y[i] = (x[i] - dot4(row[zero:i], y[zero:i])) / row[i]
	}
}

// backward overwrites x[:|B|] with L⁻ᵀx, reading L by rows: once x_i is known, row i's entries
// carry it to the unknowns before it.
func (as *activeSet) backward(x []float64) {
	nb, ld, l := len(as.set), as.ld, as.chol
	for i := nb - 1; i >= 0; i-- {
		row := l[i*ld : i*ld+i+1]
		xi := x[i] / row[i]
		x[i] = xi
		axpyNeg(xi, row[:i], x[:i])
	}
}

// axpyNeg subtracts a·x from y, four entries at a time.
func axpyNeg(a float64, x, y []float64) {
	y = y[:len(x)]
	i := 0
	for ; i+4 <= len(x); i += 4 {
		y[i] -= a * x[i]
		y[i+1] -= a * x[i+1]
		y[i+2] -= a * x[i+2]
		y[i+3] -= a * x[i+3]
	}
	for ; i < len(x); i++ {
		y[i] -= a * x[i]
	}
}

// dot4 is dot summed in four lanes (a different rounding from dot's, used only by the factor).
func dot4(a, b []float64) float64 {
	b = b[:len(a)]
	var s0, s1, s2, s3 float64
	i := 0
	for ; i+4 <= len(a); i += 4 {
		s0 += a[i] * b[i]
		s1 += a[i+1] * b[i+1]
		s2 += a[i+2] * b[i+2]
		s3 += a[i+3] * b[i+3]
	}
	for ; i < len(a); i++ {
		s0 += a[i] * b[i]
	}
	return (s0 + s1) + (s2 + s3)
}

// tryAdd appends contact k to B if its row is independent of B's, reporting whether it did. It
// leaves as.y = L⁻¹S_Bk (for the old B) either way.
func (as *activeSet) tryAdd(op *operator, k int) bool {
	nb := len(as.set)
	as.column(op, k)
	as.forward(as.col[:nb])
	as.work.FactorWork += factorCost(nb) / 2
	d := op.g[6*k]
	piv := d - dot(as.y[:nb], as.y[:nb])
	if !(piv > asDependent*d) || nb == as.ld {
		return false
	}
	row := as.chol[nb*as.ld : nb*as.ld+nb+1]
	copy(row, as.y[:nb])
	row[nb] = math.Sqrt(piv)
	as.pos[k] = nb
	as.set = append(as.set, k)
	return true
}

// remove takes the contact at position p out of B, restoring the factor of the remaining rows by a
// rank-one update of the trailing block (the removed column's part of it) and shifting rows up.
func (as *activeSet) remove(p int) {
	nb, ld, l := len(as.set), as.ld, as.chol
	k := as.set[p]
	// The trailing rows p+1… keep L₂₂L₂₂ᵀ + xxᵀ, x their column p: update L₂₂ by x.
	x := as.col[:nb]
	for i := p + 1; i < nb; i++ {
		x[i] = l[i*ld+p]
	}
	as.work.FactorWork += factorCost(nb - p)
	for c := p + 1; c < nb; c++ {
		lcc := l[c*ld+c]
		r := math.Hypot(lcc, x[c])
		cs, sn := r/lcc, x[c]/lcc
		l[c*ld+c] = r
		for i := c + 1; i < nb; i++ {
			li := (l[i*ld+c] + sn*x[i]) / cs
			x[i] = cs*x[i] - sn*li
			l[i*ld+c] = li
		}
	}
	// Drop row and column p.
	for i := p + 1; i < nb; i++ {
		src := l[i*ld : i*ld+i+1]
		dst := l[(i-1)*ld : (i-1)*ld+i]
		copy(dst[:p], src[:p])
		copy(dst[p:], src[p+1:])
	}
	copy(as.set[p:], as.set[p+1:])
	as.set = as.set[:nb-1]
	for i := p; i < nb-1; i++ {
		as.pos[as.set[i]] = i
	}
	as.pos[k] = -1
}

// swapIn clamps contact k whose row lies in the span of B's (tryAdd refused it, leaving
// as.y = L⁻¹S_Bk): with n_k = N_B z, z = S_BB⁻¹S_Bk, the impulses α_k + t, α_B − t z give the same
// velocity for every t, so t rises until the first clamped impulse with z_i > 0 reaches zero; that
// contact leaves B and k enters (the dual step of Goldfarb and Idnani's method for a dependent
// constraint). It reports false when no clamped impulse falls (z ≤ 0) or k is still dependent.
func (as *activeSet) swapIn(op *operator, k int, alpha []float64) bool {
	nb := len(as.set)
	z := as.da[:nb]
	copy(z, as.y[:nb])
	as.backward(z)
	t, out := math.Inf(1), -1
	for i, c := range as.set {
		if z[i] > 1e-12 {
			if r := alpha[c] / z[i]; r < t {
				t, out = r, i
			}
		}
	}
	if out < 0 {
		return false
	}
	for i, c := range as.set {
		alpha[c] -= t * z[i]
	}
	alpha[k] += t
	gone := as.set[out]
	alpha[gone] = 0
	as.remove(out)
	as.work.Pivots++
	return as.tryAdd(op, k)
}

// blocking is a ratio test: the least step over its candidates (zero for one a rounding below),
// and among the candidates within ratioTie of it the least contact index, Bland's rule. At a
// degenerate vertex many steps are zero; chosen in the order of a scan, a struck pyramid's
// projection cycled through a dozen contacts for 13,000 pivots (TestActiveSetDoesNotCycle).
type blocking struct {
	step float64
	k    int
}

// ratioTie is the relative difference below which two steps of a ratio test tie.
const ratioTie = 1e-12

// offer considers the step r of contact k.
func (b *blocking) offer(r float64, k int) {
	r = max(r, 0)
	switch {
	case r < b.step*(1-ratioTie):
		b.step, b.k = r, k
	case r <= b.step*(1+ratioTie) && k < b.k:
		b.k = k
	}
}

// project solves P_C on op for the friction impulse f into alpha, warm-started from alpha when no
// working set is held yet (the first projection of a solve) and from the last projection's working
// set after that, to the absolute tolerance tol; on return v = q̇ᴾ + M⁻¹(Nα + f). It reports
// whether the LCP's natural residual met tol.
func (as *activeSet) project(op *operator, f, alpha, v []float64, tol float64) bool {
	as.work = activeSetWork{}
	budget := asPivots*op.m + asPivotsExtra
	if !as.ready {
		// A first projection: B from the warm start, whose impulses it keeps. They are the answer
		// of the contact velocities c̃ = c − w̃ on B and c − min(w̃, 0) off it (w̃ their contact
		// velocities here), which homotopy then follows to c.
		as.prepare(op)
		as.seed(op, alpha)
		for k := 0; k < op.m; k++ {
			if as.pos[k] < 0 || !(alpha[k] > 0) {
				alpha[k] = 0
			}
		}
		op.velocity(alpha, f, v)
		for k := 0; k < op.m; k++ {
			as.w[k] = 0
			if as.pos[k] < 0 {
				as.w[k] = max(0, op.rowDot(k, 0, v)+op.bEff[k])
			}
		}
	} else {
		// Follow the last answer, complementary for the last friction impulse, along the straight
		// path to this one's.
		copy(alpha, as.alphaEnd)
	}
	as.homotopy(op, f, alpha, v, &budget)
	ok := false
	for round := 0; round < asRefine && !ok; round++ {
		as.solveClamped(op, f, alpha, v)
		if !as.drive(op, alpha, tol, &budget) {
			break
		}
		op.velocity(alpha, f, v)
		ok = lcpError(op, alpha, v) <= tol
	}
	op.velocity(alpha, f, v)
	ok = lcpError(op, alpha, v) <= tol
	copy(as.alphaEnd, alpha)
	for k := 0; k < op.m; k++ {
		as.w[k] = op.rowDot(k, 0, v) + op.bEff[k]
	}
	return ok
}

// homotopy moves the last projection's answer (α, as.w), complementary for its contact velocities
// c_old, to this projection's c = c_old + Δc along c(t) = c_old + tΔc, t from 0 to 1: the clamped
// impulses change at the rate −S_BB⁻¹Δc_B, every w at the rate that keeps w_B = 0, and the first
// clamped impulse to reach zero is released, the first free w to reach zero clamped, as in drive.
// Between two projections of a solve only the friction impulse changes, so Δc lies in the range of
// NᵀM⁻¹ and rows dependent on B never move. Within *budget pivots; it leaves v = v(α).
func (as *activeSet) homotopy(op *operator, f, alpha, v []float64, budget *int) {
	m := op.m
	op.velocity(alpha, f, v)
	dc := as.dc
	for k := 0; k < m; k++ {
		dc[k] = op.rowDot(k, 0, v) + op.bEff[k] - as.w[k]
	}
	w := as.w
	clear(as.skip)
	// z = L⁻¹(−Δc_B) is kept between events: a row clamped at the end of B adds one entry, a row
	// released at position p changes the factor, and so z, from p on (known counts z's valid
	// leading entries).
	z, rhs := as.z, as.rhs
	known := 0
	// epoch counts the path's steps of positive length; turned[k] = epoch marks a contact that
	// changed at a zero-length step since the last one.
	epoch := as.epoch + 1
	defer func() { as.epoch = epoch }()
	for t := 0.0; t < 1 && *budget > 0; {
		*budget--
		nb := len(as.set)
		for i := known; i < nb; i++ {
			rhs[i] = -dc[as.set[i]]
		}
		as.forwardFrom(rhs, z, 0, known)
		as.work.FactorWork += factorCost(nb-known) / 2
		known = nb
		da := as.da[:nb]
		copy(da, z[:nb])
		as.backward(da)
		as.work.FactorWork += factorCost(nb) / 2
		as.freeRates(op, -1, da, dc)
		bl := blocking{step: 1 - t, k: -1}
		for i, k := range as.set {
			if da[i] < -1e-12 && as.turned[k] != epoch {
				bl.offer(-alpha[k]/da[i], k)
			}
		}
		for k := 0; k < m; k++ {
			if as.pos[k] < 0 && !as.skip[k] && as.turned[k] != epoch && op.g[6*k] > 0 && w[k] >= 0 && as.dw[k] < -1e-12*op.g[6*k] {
				bl.offer(-w[k]/as.dw[k], k)
			}
		}
		step, j := bl.step, bl.k
		if step > 0 {
			epoch++
		}
		for i, k := range as.set {
			alpha[k] += step * da[i]
		}
		for k := 0; k < m; k++ {
			w[k] += step * as.dw[k]
		}
		t += step
		if j < 0 {
			break
		}
		as.work.Pivots++
		// A contact that changes at a zero-length step may not change back before the path moves
		// on: at a degenerate vertex (a contact with α = 0 and w = 0 on a face of redundant rows)
		// releasing it can make its w fall and clamping it its α, and the two alternated for
		// thousands of pivots. What the path leaves behind, refine puts right.
		if step == 0 {
			as.turned[j] = epoch
		}
		if p := as.pos[j]; p >= 0 {
			alpha[j] = 0
			as.remove(p)
			known = min(known, p)
			continue
		}
		w[j] = 0
		if !as.tryAdd(op, j) {
			as.skip[j] = true
		}
	}
	op.velocity(alpha, f, v)
}

// seed builds B from the warm start: the contacts with a positive warm impulse, largest first,
// each added if its row is independent of those before it.
func (as *activeSet) seed(op *operator, alpha []float64) {
	as.order = as.order[:0]
	for k := 0; k < op.m; k++ {
		if alpha[k] > 0 && op.g[6*k] > 0 {
			as.order = append(as.order, k)
		}
	}
	ord := as.order
	// Insertion sort by decreasing impulse, ties by index (deterministic).
	for i := 1; i < len(ord); i++ {
		k := ord[i]
		j := i
		for ; j > 0 && (alpha[ord[j-1]] < alpha[k] || (alpha[ord[j-1]] == alpha[k] && ord[j-1] > k)); j-- {
			ord[j] = ord[j-1]
		}
		ord[j] = k
	}
	for _, k := range ord {
		as.tryAdd(op, k)
	}
}

// solveClamped sets α_B to hold w_B = 0 for this projection's friction impulse, with α = 0 off B,
// releasing clamped contacts whose impulse comes out negative (all of them at once, then solving
// again) until α_B ≥ 0; it leaves v and as.w consistent with α.
func (as *activeSet) solveClamped(op *operator, f, alpha, v []float64) {
	for {
		op.velocity(alpha, f, v)
		nb := len(as.set)
		if nb == 0 {
			break
		}
		rhs := as.da[:nb]
		for i, k := range as.set {
			rhs[i] = -(op.rowDot(k, 0, v) + op.bEff[k])
		}
		as.forward(rhs)
		copy(rhs, as.y[:nb])
		as.backward(rhs)
		as.work.FactorWork += factorCost(nb)
		neg := false
		for i, k := range as.set {
			alpha[k] += rhs[i]
			if alpha[k] < 0 {
				neg = true
			}
		}
		if !neg {
			op.velocity(alpha, f, v)
			break
		}
		for p := len(as.set) - 1; p >= 0; p-- {
			if k := as.set[p]; alpha[k] < 0 {
				alpha[k] = 0
				as.remove(p)
			}
		}
	}
	for k := 0; k < op.m; k++ {
		as.w[k] = op.rowDot(k, 0, v) + op.bEff[k]
	}
}

// drive brings every approaching contact to complementarity by Baraff's pivoting, within *budget
// pivots. It reports false when the budget ran out or a step was unbounded.
func (as *activeSet) drive(op *operator, alpha []float64, tol float64, budget *int) bool {
	m := op.m
	w := as.w
	for {
		d, worst := -1, -0.1*tol
		for k := 0; k < m; k++ {
			if as.pos[k] < 0 && op.g[6*k] > 0 && w[k] < worst {
				d, worst = k, w[k]
			}
		}
		if d < 0 {
			return true
		}
		clear(as.skip)
		for as.pos[d] < 0 {
			if *budget <= 0 {
				return false
			}
			*budget--
			as.work.Pivots++
			nb := len(as.set)
			// Direction: α_d rises at rate 1, α_B at −S_BB⁻¹S_Bd, so that w_B stays 0.
			as.column(op, d)
			as.forward(as.col[:nb])
			da := as.da[:nb]
			for i := range da {
				da[i] = -as.y[i]
			}
			as.backward(da)
			as.work.FactorWork += factorCost(nb)
			as.freeRates(op, d, da, nil)
			bl := blocking{step: math.Inf(1), k: -1}
			if dd := as.dw[d]; dd > 1e-12*op.g[6*d] {
				bl.offer(-w[d]/dd, d)
			}
			for i, k := range as.set {
				if da[i] < -1e-12 {
					bl.offer(-alpha[k]/da[i], k)
				}
			}
			for k := 0; k < m; k++ {
				if as.pos[k] < 0 && k != d && !as.skip[k] && op.g[6*k] > 0 && w[k] >= 0 && as.dw[k] < -1e-12*op.g[6*k] {
					bl.offer(-w[k]/as.dw[k], k)
				}
			}
			step, j := bl.step, bl.k
			if j < 0 {
				return false
			}
			alpha[d] += step
			for i, k := range as.set {
				alpha[k] += step * da[i]
			}
			for k := 0; k < m; k++ {
				w[k] += step * as.dw[k]
			}
			switch {
			case j == d:
				w[d] = 0
				if !as.tryAdd(op, d) && !as.swapIn(op, d, alpha) {
					return false
				}
			case as.pos[j] >= 0:
				alpha[j] = 0
				as.remove(as.pos[j])
			default:
				w[j] = 0
				if !as.tryAdd(op, j) {
					// Its row lies in B's span, so that the clamped rows nearly hold it; swapping
					// it in for one of them could cycle between the two. It is passed over for the
					// rest of this drive and driven itself if it ends approaching.
					as.skip[j] = true
				}
			}
		}
	}
}
