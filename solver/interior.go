package solver

import "math"

// The interior-point contact projection: P_C (eq. 25) as the convex QP over the island's DoFs
//
//	min_v ½‖v − v°‖²_M  subject to  Nᵀv + b ≥ 0,   v° = q̇ᴾ + M⁻¹f,
//
// whose multipliers are α, solved by Mehrotra's primal–dual predictor–corrector. Each iteration
// factors the DoF-sized Newton matrix M + N D Nᵀ (D = α/w, one row per contact) over the island's
// body graph (bodyfactor.go), so its cost follows the bodies and their contact graph, not the
// contacts' redundancy: four coplanar points on a crate's face make one 6×6 block of the matrix.
// It is the paper's DoF-sized form (§6.3) for islands whose rank bound min(contacts, DoFs) exceeds
// the active set's dense factor (dofRankLimit). The iterate keeps v = q̇ᴾ + M⁻¹(Nα + f) exactly
// (the dual equation holds throughout), α > 0 and the slack w > 0; it stops once the LCP's natural
// residual at v is within the projection's tolerance, the criterion of every other variant
// (TestRandomContactProjection). Near the answer D spans twenty orders and the
// factor loses its last digits: the iterate is then crossed over to a vertex guess, which PGS-SM
// polishes (contact.go; docs/decisions.md).

// Bounds of the interior-point projection.
const (
	// ipIterations bounds the iterations of one projection.
	ipIterations = 80
	// ipBoundary is the fraction of the step to the boundary of α, w > 0 an iteration takes.
	ipBoundary = 0.995
	// ipCrossover: at an LCP residual of ipCrossover times the velocity scale the projection stops
	// and hands its iterate to the crossover, before the factor loses its last digits and close
	// enough for PGS-SM to polish (docs/decisions.md).
	ipCrossover = 1e-7
	// ipStart is the least slack of the starting point, relative to the problem's velocity scale.
	ipStart = 1e-2
)

// interiorPoint is the interior-point projection's workspace: the factor's pattern and the mass
// blocks, prepared once per solve, and the scratch of an iteration.
type interiorPoint struct {
	ready, usable bool // prepared for the current operator; its mass blocks are positive definite

	fac   bodyFactor
	size  []int     // per body: block size
	pairs []int     // body pairs that share a contact, flattened
	mass  []float64 // M's blocks, row-major, body b's at at[b]
	at    []int     // per body: start of its block in mass

	w, da, dw, rc []float64 // m: slack, steps of α and w, complementarity right-hand side
	daf, dwf      []float64 // m: the predictor's steps
	best          []float64 // m: the iterate of least LCP residual so far
	dv            []float64 // ndof: the Newton step in v
	work          interiorWork
}

// interiorWork counts what an interior-point projection did: its iterations (Stats.ContactInterior)
// and their work in contact updates (the work budget's unit, budget.go).
type interiorWork struct {
	Iterations, FactorWork int
}

// resize forgets the prepared pattern and sizes the scratch for op: a new solve.
func (ip *interiorPoint) resize(op *operator) {
	m := op.m
	ip.ready = false
	ip.w = grow(ip.w, m)
	ip.da = grow(ip.da, m)
	ip.dw = grow(ip.dw, m)
	ip.rc = grow(ip.rc, m)
	ip.daf = grow(ip.daf, m)
	ip.dwf = grow(ip.dwf, m)
	ip.best = grow(ip.best, m)
	ip.dv = grow(ip.dv, op.ndof)
}

// prepare inverts the island's inverse-mass blocks and analyses the pattern of M + NDNᵀ.
func (ip *interiorPoint) prepare(op *operator) {
	ip.ready, ip.usable = true, true
	nb := op.nBlocks
	ip.size = grow(ip.size, nb)
	ip.at = grow(ip.at, nb)
	total := 0
	for b, bl := range op.bodies {
		ip.size[b], ip.at[b] = bl.Size, total
		total += bl.Size * bl.Size
	}
	ip.mass = grow(ip.mass, total)
	for b, bl := range op.bodies {
		n := bl.Size
		if !invertSPD(op.minv[bl.minv:bl.minv+n*n], ip.mass[ip.at[b]:ip.at[b]+n*n], n) {
			ip.usable = false
			return
		}
	}
	ip.pairs = ip.pairs[:0]
	for k := 0; k < op.m; k++ {
		a, b := op.sides[2*k].body, op.sides[2*k+1].body
		if a >= 0 && b >= 0 {
			ip.pairs = append(ip.pairs, a, b)
		}
	}
	ip.fac.analyse(ip.size, ip.pairs)
}

// normalRow returns side s of contact k's normal row and the side's body (−1: none).
func normalRow(op *operator, k, s int) (int, []float64) {
	sd := op.sides[2*k+s]
	if sd.off < 0 {
		return -1, nil
	}
	return sd.body, op.rows[sd.row : sd.row+sd.size]
}

// addNormal adds a times contact k's normal row (not multiplied by M⁻¹) to x.
func addNormal(op *operator, k int, a float64, x []float64) {
	for s := 0; s < 2; s++ {
		sd := op.sides[2*k+s]
		if sd.off < 0 {
			continue
		}
		axpy(a, op.rows[sd.row:sd.row+sd.size], x[sd.off:sd.off+sd.size])
	}
}

// project solves P_C on op for the friction impulse f into alpha (warm start in, answer out) to
// the absolute tolerance tol on the LCP's natural residual, keeping v = q̇ᴾ + M⁻¹(Nα + f). It
// reports whether the residual is within tol; cut short (or at the residual ipCrossover·scale) it
// leaves the best iterate. ip.work counts the factor's work.
func (ip *interiorPoint) project(op *operator, f, alpha, v []float64, tol float64) bool {
	ip.work = interiorWork{}
	if !ip.ready {
		ip.prepare(op)
	}
	if !ip.usable {
		return false
	}
	m := op.m
	w := ip.w
	// A warm start that already holds needs no iteration.
	for k := 0; k < m; k++ {
		if !(alpha[k] > 0) {
			alpha[k] = 0
		}
	}
	op.velocity(alpha, f, v)
	if lcpError(op, alpha, v) <= tol {
		return true
	}
	// The starting point: the warm α and its velocity's gaps, each at least ipStart·scale in
	// velocity units, so that every contact starts well inside α, w > 0.
	floor := ipStart * op.scale
	for k := 0; k < m; k++ {
		d := op.g[6*k]
		if !(d > 0) {
			d = 1 // a row with no effect on v: any positive impulse will do
		}
		if a := floor / d; !(alpha[k] >= a) {
			alpha[k] = a
		}
	}
	op.velocity(alpha, f, v)
	for k := 0; k < m; k++ {
		w[k] = max(op.rowDot(k, 0, v)+op.bEff[k], floor)
	}
	bestErr := math.Inf(1)
	for it := 0; it < ipIterations; it++ {
		e := lcpError(op, alpha, v)
		if math.IsNaN(e) {
			break // round-off beyond repair near the answer: the best iterate stands
		}
		if e <= tol {
			ip.release(op, f, alpha, v, tol)
			return true
		}
		if e <= ipCrossover*op.scale {
			return false
		}
		if e < bestErr {
			bestErr = e
			copy(ip.best, alpha)
		}
		mu := 0.0
		for k := 0; k < m; k++ {
			mu += alpha[k] * w[k]
		}
		mu /= float64(m)
		if !ip.factor(op, alpha) {
			break
		}
		// Predictor (affine scaling): complementarity α∘w driven to zero.
		for k := 0; k < m; k++ {
			ip.rc[k] = alpha[k] * w[k]
		}
		ip.direction(op, alpha, v, ip.daf, ip.dwf)
		s := ip.stepLength(alpha, ip.daf, ip.dwf, 1)
		muAff := 0.0
		for k := 0; k < m; k++ {
			muAff += (alpha[k] + s*ip.daf[k]) * (w[k] + s*ip.dwf[k])
		}
		muAff /= float64(m)
		sigma := math.Pow(muAff/mu, 3)
		// Corrector: the centring target σμ and the predictor's second-order term.
		for k := 0; k < m; k++ {
			ip.rc[k] = alpha[k]*w[k] + ip.daf[k]*ip.dwf[k] - sigma*mu
		}
		ip.direction(op, alpha, v, ip.da, ip.dw)
		s = ip.stepLength(alpha, ip.da, ip.dw, ipBoundary)
		for k := 0; k < m; k++ {
			alpha[k] += s * ip.da[k]
			w[k] += s * ip.dw[k]
		}
		op.velocity(alpha, f, v)
	}
	// Cut short (the factor lost its last digits, or the iterations ran out): the best iterate.
	if !(lcpError(op, alpha, v) <= bestErr) {
		copy(alpha, ip.best)
		op.velocity(alpha, f, v)
	}
	return false
}

// release sets to zero the impulses an interior answer leaves within tolerance of zero at open
// gaps (A_kk α_k ≤ tol < w_k), so that a released contact carries no impulse and no friction
// bound, and keeps the result only if the LCP still holds to tol.
func (ip *interiorPoint) release(op *operator, f, alpha, v []float64, tol float64) {
	kept := ip.daf
	copy(kept, alpha)
	changed := false
	for k := 0; k < op.m; k++ {
		if op.g[6*k]*alpha[k] <= tol && op.rowDot(k, 0, v)+op.bEff[k] > tol {
			alpha[k], changed = 0, true
		}
	}
	if !changed {
		return
	}
	op.velocity(alpha, f, v)
	if lcpError(op, alpha, v) > tol {
		copy(alpha, kept)
		op.velocity(alpha, f, v)
	}
}

// crossover turns an interior answer cut short into a vertex guess for the dual path to polish:
// each contact keeps the larger of A_kk α_k and w_k, the other set to zero (α_k = 0 where the
// gap is the larger), and v follows.
func (ip *interiorPoint) crossover(op *operator, f, alpha, v []float64) {
	for k := 0; k < op.m; k++ {
		if op.g[6*k]*alpha[k] < op.rowDot(k, 0, v)+op.bEff[k] {
			alpha[k] = 0
		}
	}
	op.velocity(alpha, f, v)
}

// factor assembles M + N D Nᵀ with D = α/w and factors it, counting its work.
func (ip *interiorPoint) factor(op *operator, alpha []float64) bool {
	fac := &ip.fac
	fac.zero()
	for b, n := range ip.size {
		fac.addDiagonal(b, ip.mass[ip.at[b]:ip.at[b]+n*n])
	}
	for k := 0; k < op.m; k++ {
		a, x := normalRow(op, k, 0)
		b, y := normalRow(op, k, 1)
		fac.addRow(a, x, b, y, alpha[k]/ip.w[k])
	}
	ok := fac.factor()
	// The factor's multiply–adds and an iteration's dozen passes over the contacts.
	ip.work.Iterations++
	ip.work.FactorWork += fac.work()/48 + 12*op.m
	return ok
}

// direction solves the Newton system for the complementarity right-hand side ip.rc into the steps
// da of α and dw of w: with r = Nᵀv + b − w the gaps' residual,
//
//	(M + N D Nᵀ) Δv = −N (W⁻¹ r_c + D r),  Δw = NᵀΔv + r,  Δα = −W⁻¹(r_c + Λ Δw),
//
// where Λ = diag α and W = diag w; MΔv = NΔα then holds, so the velocity stays consistent with α.
func (ip *interiorPoint) direction(op *operator, alpha, v, da, dw []float64) {
	w, dv := ip.w, ip.dv
	clear(dv)
	for k := 0; k < op.m; k++ {
		r := op.rowDot(k, 0, v) + op.bEff[k] - w[k]
		dw[k] = r // kept until Δv is known
		addNormal(op, k, -(ip.rc[k]+alpha[k]*r)/w[k], dv)
	}
	ip.fac.solve(dv)
	for k := 0; k < op.m; k++ {
		dw[k] += op.rowDot(k, 0, dv)
		da[k] = -(ip.rc[k] + alpha[k]*dw[k]) / w[k]
	}
}

// stepLength returns frac times the step along (Δα, Δw) to the boundary of α, w ≥ 0, at most 1.
func (ip *interiorPoint) stepLength(alpha, da, dw []float64, frac float64) float64 {
	s := 1.0
	for k := range alpha {
		if da[k] < 0 {
			s = min(s, -frac*alpha[k]/da[k])
		}
		if dw[k] < 0 {
			s = min(s, -frac*ip.w[k]/dw[k])
		}
	}
	return s
}
