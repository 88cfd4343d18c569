package solver

import (
	"math"
	"time"
)

// Contact projection P_C (paper eq. 25, DESIGN.md): given the friction impulse f, find α ≥ 0 with
//
//	w = (NᵀM⁻¹N)α + Nᵀ(q̇ᴾ + M⁻¹f) + b ≥ 0,  α ≥ 0,  wᵀα = 0,
//
// the KKT conditions of min_{α≥0} ½‖q̇ᴾ + M⁻¹(Nα + f)‖²_M + bᵀα. The production sub-solver is
// PGS-SM (course notes §3.2.6): projected Gauss–Seidel sweeps predict the active set, conjugate
// gradients solve the active rows w_F = 0 exactly (the Delassus block may be singular — redundant
// contacts — but the system is consistent, and CG converges on it without regularisation),
// negative impulses are clipped and the reduced set re-solved, and the loop repeats until the
// LCP's natural residual max_k |min(A_kk α_k, w_k)| is within tolerance.

// nullDirection: a CG direction p with pᵀAp < nullDirection · pᵀdiag(A)p lies in A's null space
// (redundant contacts). The smallest such ratio of a consistent solve in the benchmark scenes is
// 3.5e-4 (the tower's softest mode); an inconsistent active set gave 3e-31.
const nullDirection = 1e-10

const (
	contactRounds   = 40 // PGS-SM rounds before falling back
	contactReSolves = 8  // clip-and-resolve passes per round
	contactCGBudget = 20 // CG iterations per contact (plus 2,000) before giving up or falling back
	autoCGBudget    = 3  // ContactAuto: PGS-SM's CG iterations per contact (plus 200) before MPRGP
	// ContactAuto: PGS-SM rounds in a row that do not halve the LCP residual, after a CG iteration
	// per contact, before MPRGP takes over (a cold 1,015-sphere pile: 16,952 → 6,086 contact CG).
	pgssmStalls = 2
)

// projectContact solves P_C for the friction impulse f, warm-started from s.alpha, which it
// overwrites. On return s.v = q̇ᴾ + M⁻¹(Nα + f) and the result reports exactness.
func (s *Solver) projectContact(f []float64) bool {
	op := &s.op
	m := op.m
	alpha, v := s.alpha, s.v
	tol := s.opts.ContactTol * s.scale
	if s.opts.ContactSolver == ContactPivot {
		ok := s.pivotContact(f)
		op.velocity(alpha, f, v)
		return ok
	}
	for k := 0; k < m; k++ {
		if !(alpha[k] > 0) {
			alpha[k] = 0
		}
	}
	op.velocity(alpha, f, v)
	if s.contactError(v) <= tol {
		return true
	}
	switch s.opts.ContactSolver {
	case ContactPGSSM:
		if s.pgssmContact(f, tol, contactCGBudget*m+2000, false) {
			return true
		}
	case ContactMPRGP:
		if s.mprgpFrom(f, tol) {
			return true
		}
	default:
		// PGS-SM with a small budget, then MPRGP from the same start.
		copy(s.alphaSave, alpha)
		if s.pgssmContact(f, tol, autoCGBudget*m+200, true) {
			return true
		}
		copy(alpha, s.alphaSave)
		op.velocity(alpha, f, v)
		if s.mprgpFrom(f, tol) {
			return true
		}
	}
	return s.contactFallback(f, tol)
}

// mprgpFrom runs MPRGP after three projected Gauss–Seidel sweeps when the start is cold.
func (s *Solver) mprgpFrom(f []float64, tol float64) bool {
	if !s.warmContact {
		for it := 0; it < 3; it++ {
			s.contactSweep(s.v)
		}
		s.st.ContactSweeps += 3
	}
	return s.mprgpContact(f, tol)
}

// pgssmContact runs PGS-SM rounds from s.alpha (with s.v consistent, and the LCP not yet within
// tol) until the LCP holds to tol or cgBudget conjugate-gradient iterations are spent, and reports
// success. With giveUp it also stops once it has spent a CG iteration per contact and its last
// pgssmStalls rounds have not halved the LCP residual: its rounds are cycling (the sweeps
// re-activate what clipping removed), and ContactAuto hands the projection to MPRGP, which cannot
// cycle.
func (s *Solver) pgssmContact(f []float64, tol float64, cgBudget int, giveUp bool) bool {
	op := &s.op
	m := op.m
	alpha, v := s.alpha, s.v
	cgStart := s.st.ContactCG
	bestErr, stalled := math.Inf(1), 0
	for round := 0; round < contactRounds && s.st.ContactCG-cgStart < cgBudget; round++ {
		if round > 0 {
			// Recompute v from α, dropping the round-off the updates accumulated.
			op.velocity(alpha, f, v)
			e := s.contactError(v)
			if e <= tol {
				return true
			}
			if e < 0.5*bestErr {
				bestErr, stalled = e, 0
			} else {
				stalled++
			}
			if giveUp && stalled >= pgssmStalls && s.st.ContactCG-cgStart >= m {
				return false
			}
		}
		sweeps := 2
		if round == 0 {
			sweeps = 3
			if s.warmContact {
				// A warm α predicts the active set well: polish it before sweeping.
				sweeps = 0
			}
		}
		if sweeps > 0 {
			for it := 0; it < sweeps; it++ {
				s.contactSweep(v)
			}
			s.st.ContactSweeps += sweeps
			if s.contactError(v) <= tol {
				return true
			}
		}
		prevStart := 0.0
		for pass := 0; pass < contactReSolves; pass++ {
			ran, start := s.subspaceCG(v, tol)
			if !ran {
				break
			}
			if pass > 0 && start > icNullMove*prevStart {
				s.icContact.widen()
			}
			prevStart = start
			// Clip negative impulses and re-solve on the reduced set.
			clipped := false
			for k := 0; k < m; k++ {
				if alpha[k] < 0 {
					op.addW(k, 0, -alpha[k], v)
					alpha[k] = 0
					clipped = true
				}
			}
			if !clipped {
				break
			}
		}
	}
	op.velocity(alpha, f, v)
	return s.contactError(v) <= tol
}

// contactFallback finishes a contact projection whose iterative sub-solver stalled: by the
// pivoting reference on islands of at most PivotLimit contacts. It reports exactness.
func (s *Solver) contactFallback(f []float64, tol float64) bool {
	op := &s.op
	alpha, v := s.alpha, s.v
	op.velocity(alpha, f, v)
	if s.contactError(v) <= tol {
		return true
	}
	if op.m <= s.opts.PivotLimit {
		s.st.Fallbacks++
		ok := s.pivotContact(f)
		op.velocity(alpha, f, v)
		return ok
	}
	return false
}

// contactError returns max_k |min(A_kk α_k, w_k)| at velocity v.
func (s *Solver) contactError(v []float64) float64 {
	op := &s.op
	worst := 0.0
	for k := 0; k < op.m; k++ {
		w := op.rowDot(k, 0, v) + op.bEff[k]
		e := math.Abs(min(s.alpha[k]*op.g[6*k], w))
		if !(e <= worst) {
			worst = e
		}
	}
	return worst
}

// contactSweep is one projected Gauss–Seidel sweep over the normal rows, keeping v consistent.
func (s *Solver) contactSweep(v []float64) {
	op := &s.op
	alpha := s.alpha
	for k := 0; k < op.m; k++ {
		d := op.g[6*k]
		if !(d > 0) {
			continue
		}
		w := op.rowDot(k, 0, v) + op.bEff[k]
		a := alpha[k] - w/d
		if a < 0 {
			a = 0
		}
		if da := a - alpha[k]; da != 0 {
			op.addW(k, 0, da, v)
			alpha[k] = a
		}
	}
}

// subspaceCG solves w_F = 0 on the active set F = {k : α_k > 0} by CG, Jacobi-preconditioned
// until the incomplete Cholesky factor is due (delassusIC.due), moving α_F (possibly negative) and
// v. It stops early, widening the factor's shift, when the active rows prove inconsistent (a
// direction in A's null space, or a diverging residual). It reports whether any contact was
// active and the max-norm residual it started from.
func (s *Solver) subspaceCG(v []float64, tol float64) (bool, float64) {
	op := &s.op
	alpha := s.alpha
	act := s.active[:0]
	for k := 0; k < op.m; k++ {
		if alpha[k] > 0 && op.g[6*k] > 0 {
			act = append(act, k)
		}
	}
	if len(act) == 0 {
		return false, 0
	}
	r, z, p, q, u := s.r, s.z, s.p, s.q, s.u
	rz := 0.0
	rmax := 0.0
	for _, k := range act {
		rk := -(op.rowDot(k, 0, v) + op.bEff[k])
		r[k] = rk
		z[k] = rk / op.g[6*k]
		p[k] = z[k]
		rz += rk * z[k]
		rmax = max(rmax, math.Abs(rk))
	}
	maxIt := 4*len(act) + 50
	target := 0.1 * tol
	useIC, triedIC := false, false
	ic := &s.icContact
	rmax0 := rmax
	best := rmax
	for it := 0; it < maxIt && rmax > target; it++ {
		if rmax > icDiverged*best {
			// The residual has grown far past its best: CG is driving α along a near null space
			// of inconsistent rows, and round-off feeds back. Stop and widen the shift.
			ic.widen()
			break
		}
		best = min(best, rmax)
		if !triedIC && ic.due(it, rmax0, best, target) {
			triedIC = true
			// Jacobi scaling is converging slowly: restart from here preconditioned by the
			// incomplete Cholesky factor of A_FF + ε diag(A_FF).
			if rzIC, ok := ic.restart(op, &s.coupling, act, 0, 1, r, z, p, time.Time{}); ok {
				rz, useIC = rzIC, true
				best = rmax
			}
		}
		clear(u)
		for _, k := range act {
			op.addW(k, 0, p[k], u)
		}
		pq, pd := 0.0, 0.0
		for _, k := range act {
			q[k] = op.rowDot(k, 0, u)
			pq += p[k] * q[k]
			pd += op.g[6*k] * p[k] * p[k]
		}
		s.st.ContactCG++
		if !(pq > 0) {
			break
		}
		if pq < nullDirection*pd {
			// p lies in A's null space (redundant contacts) while the residual does not: the
			// active rows are inconsistent, and the step would be unbounded. Stop, widen the
			// shift, and leave the set to clipping and the sweeps.
			ic.widen()
			break
		}
		a := rz / pq
		for _, k := range act {
			alpha[k] += a * p[k]
			r[k] -= a * q[k]
		}
		axpy(a, u, v)
		rzNew := 0.0
		rmax = 0
		if useIC {
			ic.solve(r, z, 1, 0)
			for _, k := range act {
				rzNew += r[k] * z[k]
				rmax = max(rmax, math.Abs(r[k]))
			}
		} else {
			for _, k := range act {
				z[k] = r[k] / op.g[6*k]
				rzNew += r[k] * z[k]
				rmax = max(rmax, math.Abs(r[k]))
			}
		}
		if !(rz > 0) {
			break
		}
		beta := rzNew / rz
		rz = rzNew
		for _, k := range act {
			p[k] = z[k] + beta*p[k]
		}
	}
	return true, rmax0
}
