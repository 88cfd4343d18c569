package solver

import (
	"math"
	"time"
)

// Friction projection P_F(α) (paper eq. 24; docs/architecture.md, The two projections): given α, find the friction impulse
//
//	f = argmin_{f_k ∈ μ_kα_k K} ½‖q̇ᴾ + M⁻¹(Nα + Σ_k t-rows f_k)‖²_M,
//
// where K is the unit disc (Disc) or the regular d-gon spanned by the pyramid's tangent samples
// (Pyramid, eq. 7/23: {Σ_j β_j u_j : β ≥ 0, Σβ ≤ 1} for unit samples u_j at angles 2πj/d). Its KKT
// conditions are the discrete maximal dissipation principle (eq. 18): each f_k minimises s_kᵀy over
// μ_kα_kK, s_k being contact k's tangential velocity. The sub-solver is block Gauss–Seidel over
// contacts; each contact's 2-D sub-problem min ½yᵀG_k y + gᵀy over its disc or polygon is solved
// exactly (a 2-D trust-region problem, or an edge search).

// frictionRounds bounds the sweep/subspace rounds of one friction projection, and
// frictionCGBudget its CG iterations per contact (plus frictionCGExtra). frictionGapRounds ends a
// projection whose CG steps are cut and whose target is the dissipation gap (project).
const (
	frictionRounds    = 200
	frictionGapRounds = 25
	frictionCGBudget  = 20
	frictionCGExtra   = 2000
)

// stableUpdate: a per-contact update that changes the contact's own tangential velocity by at
// most this fraction of the projection's tolerance is rounding and is skipped, so that f stays
// bit-stable at a solution (and the staggered loop can recognise an exact fixed point).
const stableUpdate = 1e-3

// frictionWork counts what friction projections did (the Stats fields of the same names).
type frictionWork struct {
	Sweeps, CG int
}

// frictionProjection is the friction projection's workspace: the friction set, the scratch of its
// subspace solve, and the incomplete Cholesky factor kept between the projections of one solve.
// Its input and output are project's arguments; the fields below "bound" are those arguments,
// set for the duration of one projection so that the helpers share them.
type frictionProjection struct {
	set frictionSet

	// bound: the operator, the normal impulses α (read only), the velocity q̇ᴾ + M⁻¹(Nα + f) kept
	// consistent with f, the deadline (zero: none) and the work counted.
	op       *operator
	alpha, v []float64
	deadline time.Time
	work     frictionWork
	// maxPasses bounds work.Sweeps + work.CG (frictionTarget.maxPasses).
	maxPasses int
	// kinetic is ‖Df‖²_{M⁻¹} as gapMet last measured it in this projection (−1: not yet), and
	// gapChecks counts gapMet's calls.
	kinetic   float64
	gapChecks int

	r, z, p, q   []float64 // 2m: CG vectors, a 2-vector per contact
	u            []float64 // ndof
	fSave, tSave []float64 // 2m: friction and tangential velocities before a subspace step
	fStep        []float64 // 2m: the subspace CG's point before clip
	vSave        []float64 // ndof: the velocity before a subspace step
	active       []int
	// rimDir and rimCurv describe the subspace CG's sliding contacts (slidingOnRim): the unit
	// tangent of the rim along which contact k moves (2m) and the rim's curvature term; rimCurv
	// is negative for a contact the CG moves in both directions.
	rimDir, rimCurv []float64
	ic              delassusIC // preconditioner of the subspace CG (always the wide shift)
	newton          frictionNewton
	// eigen caches each contact's discEigen for the solve; eigenSet marks those computed.
	eigen    []discEigen
	eigenSet []bool
	// cutSteps: the subspace CG stops each step at the first set boundary (subspaceStep).
	cutSteps bool
	// turned: the last subspace CG moved sliding contacts along their rims.
	turned bool
}

// resize sizes the scratch for op and forgets the factor: a new solve.
func (fp *frictionProjection) resize(op *operator) {
	m, n := op.m, op.ndof
	fp.r = grow(fp.r, 2*m)
	fp.z = grow(fp.z, 2*m)
	fp.p = grow(fp.p, 2*m)
	fp.q = grow(fp.q, 2*m)
	fp.u = grow(fp.u, n)
	fp.fSave = grow(fp.fSave, 2*m)
	fp.fStep = grow(fp.fStep, 2*m)
	fp.tSave = grow(fp.tSave, 2*m)
	fp.vSave = grow(fp.vSave, n)
	fp.active = grow(fp.active, m)
	fp.rimDir = grow(fp.rimDir, 2*m)
	fp.rimCurv = grow(fp.rimCurv, m)
	fp.ic.invalidate()
	fp.newton.resize(op)
	fp.eigen = grow(fp.eigen, m)
	fp.eigenSet = grow(fp.eigenSet, m)
	clear(fp.eigenSet)
}

// bind sets the projection's problem; unbind clears it.
func (fp *frictionProjection) bind(op *operator, alpha, v []float64, deadline time.Time) {
	fp.op, fp.alpha, fp.v, fp.deadline, fp.work = op, alpha, v, deadline, frictionWork{}
	fp.kinetic, fp.gapChecks = -1, 0
}

func (fp *frictionProjection) unbind() { fp.op, fp.alpha, fp.v = nil, nil, nil }

// frictionTarget says when a friction projection stops.
type frictionTarget struct {
	// tol: a block Gauss–Seidel sweep changed no contact's tangential velocity by more than tol.
	tol float64
	// gap (0: off): the dissipation gap is at most gap·½‖Df‖²_{M⁻¹} (gapMet).
	gap float64
	// maxSweeps bounds the sweeps (Options.FrictionMaxSweeps); maxPasses the sweeps and CG
	// iterations together (what is left of Options.WorkBudget).
	maxSweeps, maxPasses int
	deadline             time.Time // zero: none
}

// gapEvery is how many sweeps pass between evaluations of the dissipation gap, which costs about
// a sweep and a half (less when the kinetic term is reused, gapMet). On islands of rigid bodies
// above newtonLimit contacts it is evaluated after every sweep, so that a projection stops within
// a sweep of meeting it rather than up to four sweeps and two subspace steps later: on islands
// captured from the pile, impact and sphere scenes and replayed, the work fell 7–16 % (every
// answer converged, none gaining energy). On smaller islands and with a reduced deformable the
// extra sweeps mattered: evaluated after every sweep there, a resting StVK block kept a spin of
// 0.14 rad/s after 60 s (TestStVKBlockDropSettlesFor60s), and the incline's slide moved 1.3e-12
// off the discrete Coulomb answer (TestValidationInclineSlides).
func gapEvery(op *operator) int {
	if op.m > newtonLimit && op.allRigid {
		return 1
	}
	return 4
}

// project solves P_F(α) on op into f (warm-started from f) until the target is met or its work
// bounds are reached. Like PGS-SM for the contact projection, sweeps alternate with a subspace
// solve: the contacts strictly inside their friction set (sticking) are solved jointly by
// block-Jacobi-preconditioned CG with the others held, then clipped back into their sets. A
// subspace step that rose above the sweeps' point is undone. On a large island of rigid bodies
// each CG step is cut at the first set boundary it would cross, from the start with a
// dissipation-gap target and after such a step without one; elsewhere the sweeps go on alone after
// it. Every sweep leaves f feasible, so a projection stopped by a work bound still returns an
// iterate. On return v = q̇ᴾ + M⁻¹(Nα + f). It returns the work done and whether the deadline
// stopped it before the target was met. On a small island with disc friction, sweeps that have not
// met the target within newtonAfter(m) give way to dense Newton steps (newtonPhase). On a large
// island whose CG steps are cut and whose target is a dissipation gap, the projection ends after
// frictionGapRounds rounds rather than going on with sweeps alone.
func (fp *frictionProjection) project(op *operator, alpha, f, v []float64, tg frictionTarget) (frictionWork, bool) {
	fp.bind(op, alpha, v, tg.deadline)
	fp.maxPasses = tg.maxPasses
	defer fp.unbind()
	op.velocity(alpha, f, v)
	dense := op.m <= newtonLimit && fp.set.model == Disc
	subspace := true
	// On a large island of rigid bodies whose projections stop at the dissipation-gap target (the
	// game's), the subspace CG steps are cut at the sets' boundaries from the start. Without that
	// target a projection must reach the sweep tolerance, and solves that end at each cut leave the
	// sweeps to finish along near-null directions: a sliding 30-row pyramid's projections ran to
	// FrictionMaxSweeps. Small islands, which the Newton phase finishes, and islands with a reduced
	// deformable cut them never: there cut steps cost more than they saved (the jelly scene's
	// work rose 16 %, a struck tower's 25 %), and a resting StVK block gained a slow twist (0.048 J
	// in 60 s against 0.007 J). Where contacts slide, the CG turns them along their rims
	// (subspace), so that the cuts at sticking contacts' boundaries do not leave the rims to the
	// sweeps.
	mayCut := !dense && op.allRigid
	fp.cutSteps = mayCut && tg.gap > 0
	for round := 0; fp.work.Sweeps < tg.maxSweeps && fp.passes() < tg.maxPasses; round++ {
		if dense && fp.work.Sweeps >= newtonAfter(op.m) {
			return fp.newtonPhase(f, tg)
		}
		n := 2
		switch {
		case round == 0:
			n = 1
		case round >= frictionGapRounds && fp.cutSteps && tg.gap > 0:
			// A projection that has not met the gap in these rounds stalls: on the settling debris
			// of a struck card house (about 200 contacts) projections ran all 200 rounds without
			// it, and sweeps alone from there to FrictionMaxSweeps did not meet it either. The
			// iterate goes back to the loop inexact, as at FrictionMaxSweeps, and the next
			// subsequence's projection starts from it with a new α. Ending after 25 rounds rather
			// than 200 cut the replayed late impact's work by 30–48 % for as many subsequences;
			// after 12, more solves were cut short. Piles and sphere heaps never reach 25.
			return fp.work, false
		case !subspace || round >= frictionRounds || fp.work.CG >= frictionCGBudget*op.m+frictionCGExtra:
			subspace = false
			n = tg.maxSweeps
		}
		if dense {
			n = min(n, newtonAfter(op.m)-fp.work.Sweeps)
		}
		if done, cut := fp.sweeps(n, f, tg); done {
			return fp.work, cut
		}
		if subspace && !fp.subspaceStep(f, tg.tol) {
			// The clipped CG step rose above the sweeps' point: redundant sticking contacts. On a
			// large island of rigid bodies the subspace solves go on with CG steps cut at the
			// sets' boundaries, which never rise; elsewhere the sweeps go on alone.
			subspace = mayCut && !fp.cutSteps
			fp.cutSteps = subspace
		}
	}
	return fp.work, false
}

// newtonPhase ends project on a small island with disc friction whose sweeps and subspace solves
// have not met the target within newtonAfter(m) sweeps: dense Newton steps follow
// (friction_newton.go), checked by a sweep after every second full step. A Newton step that
// cannot lower the objective counts as a failure; after newtonFailures of them, or newtonSteps
// steps, the sweeps go on alone.
func (fp *frictionProjection) newtonPhase(f []float64, tg frictionTarget) (frictionWork, bool) {
	failures, full := 0, 0
	for steps := 0; steps < newtonSteps(fp.op.m) && failures < newtonFailures && fp.work.Sweeps < tg.maxSweeps && fp.passes() < tg.maxPasses; steps++ {
		if fp.pastDeadline() {
			return fp.work, true
		}
		switch fp.newtonStep(f) {
		case newtonFailed:
			failures++
			full = 0
		case newtonShort:
			// A contact reached its rim or the step was halved: the classification changes, and
			// Newton goes on from there before sweeps are spent.
			full = 0
			continue
		case newtonFull:
			// Newton converges quadratically once the classification holds: a second full step
			// takes the answer from the tolerance to rounding, as the sweeps' own fixed point.
			if full++; full < 2 {
				continue
			}
		}
		if done, cut := fp.sweeps(1, f, tg); done {
			return fp.work, cut
		}
		if tg.gap > 0 && fp.gapMet(f, tg.gap*denseGap) {
			return fp.work, false
		}
	}
	_, cut := fp.sweeps(tg.maxSweeps, f, tg)
	return fp.work, cut
}

// newtonFailures is how many Newton steps of one projection may fail to lower its objective
// before the projection goes on with sweeps alone.
const newtonFailures = 3

// newtonSteps bounds the Newton steps of one projection on m contacts: each short step puts a
// contact on its rim, so identifying the sliding set takes up to about m of them, and a few full
// steps finish.
func newtonSteps(m int) int { return 2*m + 16 }

// sweeps runs up to n block Gauss–Seidel sweeps within tg's work bounds. It reports done when the
// target is met (the sweep tolerance or the dissipation gap) or the deadline has passed, and cut
// for the latter.
func (fp *frictionProjection) sweeps(n int, f []float64, tg frictionTarget) (done, cut bool) {
	for i := 0; i < n && fp.work.Sweeps < tg.maxSweeps && fp.passes() < tg.maxPasses; i++ {
		fp.work.Sweeps++
		if fp.sweep(f, tg.tol) <= tg.tol {
			return true, false
		}
		if tg.gap > 0 && (fp.work.Sweeps-1)%gapEvery(fp.op) == 0 && fp.gapMet(f, tg.gap) {
			return true, false
		}
		if !tg.deadline.IsZero() && time.Now().After(tg.deadline) {
			return true, true
		}
	}
	return false, false
}

// passes is the work done so far: sweeps plus CG iterations.
func (fp *frictionProjection) passes() int { return fp.work.Sweeps + fp.work.CG }

// gapMet reports whether f is optimal to the relative accuracy gap: the dissipation gap of the
// maximal dissipation principle (eq. 18), Σ_k f_kᵀs_k + μ_kα_k‖s_k‖ with s_k contact k's
// tangential velocity, is at most gap·½‖Df‖²_{M⁻¹}. The gap is the Frank–Wolfe gap of the
// projection's objective, so it bounds the objective's excess, and the excess bounds the distance
// to the projection, ½‖D(f − f*)‖²_{M⁻¹}: the projection's error in eq. 28's norm is then at most
// gap relative to ‖Df‖². Unlike the velocity test it is met by block Gauss–Seidel within a few
// dozen sweeps where redundant sticking contacts make the velocity test stall for thousands.
//
// The kinetic term costs a pass over the island and changes slowly between checks, so a check
// whose dual term is more than twice what the last measured kinetic term would allow reports
// false without measuring it again; the test is made only on a measured kinetic term, which is
// measured at least every kineticEvery checks.
func (fp *frictionProjection) gapMet(f []float64, gap float64) bool {
	op := fp.op
	dual := 0.0
	for k := 0; k < op.m; k++ {
		r := op.mu[k] * fp.alpha[k]
		if !(r > 0) {
			continue // update keeps f_k = 0 here
		}
		s1, s2 := op.slip(k, fp.v)
		dual += f[2*k]*s1 + f[2*k+1]*s2 + r*norm2(s1, s2)
	}
	fp.gapChecks++
	if fp.kinetic >= 0 && fp.gapChecks%kineticEvery != 0 && dual > gap*fp.kinetic {
		return false
	}
	u := fp.u
	clear(u)
	for k := 0; k < op.m; k++ {
		if op.mu[k]*fp.alpha[k] > 0 {
			op.addWT(k, f[2*k], f[2*k+1], u)
		}
	}
	kinetic := 0.0
	for k := 0; k < op.m; k++ {
		q1, q2 := op.tangentDot(k, u)
		kinetic += f[2*k]*q1 + f[2*k+1]*q2
	}
	fp.kinetic = kinetic
	return dual <= gap*0.5*kinetic
}

// kineticEvery is how many dissipation-gap checks may reuse the last measured kinetic term.
const kineticEvery = 4

// settleContact re-solves contact k's friction sub-problem exactly for the velocity v, with the
// other contacts held, keeping v consistent (settleFriction).
func (fp *frictionProjection) settleContact(op *operator, alpha, f, v []float64, k int) {
	fp.bind(op, alpha, v, time.Time{})
	fp.update(k, f, 0)
	fp.unbind()
}

// subspaceStep runs subspace and clip, and keeps the result only if it lowered the projection's
// objective ½‖q̇‖²_M. On nearly redundant sticking contacts the subspace system is nearly
// singular, CG may head far along its near-null direction, and clipping the result back into the
// sets can then land above where the sweeps were; such a step is undone, and it reports false.
// With fp.cutSteps each CG step stops at the first set boundary a sticking contact reaches (the
// feasible step of Dostál's MPRGP), so the objective falls step by step and clip only removes
// rounding, unless the CG turned sliding contacts: their clipped point lies above the model's
// where the rim's curvature outgrows it, and such a step is first shortened (shortenAlongArc).
func (fp *frictionProjection) subspaceStep(f []float64, tol float64) bool {
	op := fp.op
	copy(fp.fSave, f)
	copy(fp.vSave, fp.v)
	for k := 0; k < op.m; k++ {
		fp.tSave[2*k], fp.tSave[2*k+1] = op.slip(k, fp.v)
	}
	if !fp.subspace(f, tol) {
		return true
	}
	copy(fp.fStep, f)
	fp.clip(f)
	if fp.objectiveChange(f) <= 0 || fp.turned && fp.shortenAlongArc(f) {
		return true
	}
	copy(f, fp.fSave)
	copy(fp.v, fp.vSave)
	return false
}

// subspaceHalvings bounds the halvings of shortenAlongArc.
const subspaceHalvings = 8

// shortenAlongArc searches the projected arc clip(f₀ + t(f₁ − f₀)) from the subspace step's start
// f₀ (fSave) to the CG's point f₁ (fStep), halving t from ½ until the objective falls, at most
// subspaceHalvings times. It leaves f and v at the first point that lowers the objective and
// reports whether it found one. Along the arc the objective falls for small t wherever the CG's
// direction descends.
func (fp *frictionProjection) shortenAlongArc(f []float64) bool {
	op := fp.op
	for h, t := 0, 0.5; h < subspaceHalvings; h, t = h+1, t/2 {
		copy(fp.v, fp.vSave)
		for k := 0; k < op.m; k++ {
			d1 := t * (fp.fStep[2*k] - fp.fSave[2*k])
			d2 := t * (fp.fStep[2*k+1] - fp.fSave[2*k+1])
			f[2*k], f[2*k+1] = fp.fSave[2*k]+d1, fp.fSave[2*k+1]+d2
			op.addWT(k, d1, d2, fp.v)
		}
		fp.clip(f)
		if fp.objectiveChange(f) <= 0 {
			return true
		}
	}
	return false
}

// objectiveChange returns the change of the projection's objective from fSave to f. The objective
// is quadratic in f with gradient the tangential velocities, so its change is
// ½ Δfᵀ(s_old + s_new) exactly.
func (fp *frictionProjection) objectiveChange(f []float64) float64 {
	op := fp.op
	change := 0.0
	for k := 0; k < op.m; k++ {
		n1, n2 := op.slip(k, fp.v)
		change += (f[2*k]-fp.fSave[2*k])*(fp.tSave[2*k]+n1) + (f[2*k+1]-fp.fSave[2*k+1])*(fp.tSave[2*k+1]+n2)
	}
	return change
}

// sweep is one block Gauss–Seidel sweep with the exact per-contact sub-problem. It returns the
// largest change of a contact's own tangential velocity, ‖G_k Δf_k‖∞.
func (fp *frictionProjection) sweep(f []float64, tol float64) float64 {
	worst := 0.0
	for k := 0; k < fp.op.m; k++ {
		if dv := fp.update(k, f, tol); dv > worst {
			worst = dv
		}
	}
	return worst
}

// update solves contact k's friction sub-problem exactly with the other contacts held, keeping v
// consistent, and returns the largest change of its tangential velocity (0 when the update is at
// rounding level, stableUpdate·tol, and skipped).
func (fp *frictionProjection) update(k int, f []float64, tol float64) float64 {
	op, v := fp.op, fp.v
	rad := op.mu[k] * fp.alpha[k]
	f1, f2 := f[2*k], f[2*k+1]
	if !(rad > 0) {
		if f1 != 0 || f2 != 0 {
			op.addWT(k, -f1, -f2, v)
			f[2*k], f[2*k+1] = 0, 0
		}
		return 0
	}
	g := op.g[6*k : 6*k+6]
	a, b, c := g[3], g[4], g[5]
	s1, s2 := op.slip(k, v)
	l1 := s1 - (a*f1 + b*f2)
	l2 := s2 - (b*f1 + c*f2)
	y1, y2 := fp.minimize(k, a, b, c, l1, l2, rad)
	d1, d2 := y1-f1, y2-f2
	dv := max(math.Abs(a*d1+b*d2), math.Abs(b*d1+c*d2))
	if dv <= stableUpdate*tol {
		return 0
	}
	op.addWT(k, d1, d2, v)
	f[2*k], f[2*k+1] = y1, y2
	return dv
}

// subspace runs preconditioned CG on the sticking contacts (strictly inside their sets) and, on a
// large island with disc friction, on the sliding contacts along their rims (slidingOnRim),
// minimising the kinetic energy over their tangential impulses with the other contacts held, until
// its tolerance, its iteration bound or, with fp.cutSteps, a step that carries a sticking contact
// to its set's boundary (feasibleStep), where it stops with that contact on its rim; the sweeps
// that follow decide whether it leaves it. It reports whether any contact was free. The
// preconditioner is the contacts' 2×2 blocks until the incomplete Cholesky factor of their tangent
// rows is due (delassusIC.due), each restricted to a sliding contact's rim tangent.
//
// A sliding contact k keeps ‖f_k‖ and turns along its rim. The objective along the rim's arc
// length has second derivative e_kᵀG_k e_k − s_kᵀf_k/‖f_k‖² (e_k the rim's unit tangent, G_k the
// contact's tangential Delassus block, s_k its slip): the reduced Hessian of the dense Newton step
// (friction_newton.go) in arc length. The CG minimises that quadratic model, moving sliding
// contacts along the lines tangent to their rims; clip puts them back on the rims and
// subspaceStep keeps the step only where the objective fell. Without them, where half of an
// island's loaded contacts slide (a struck card house), the CG moved the sticking contacts alone
// and the sweeps turned the rims one contact at a time, to FrictionMaxSweeps. Islands of at most
// newtonLimit contacts leave their rims to the Newton phase.
func (fp *frictionProjection) subspace(f []float64, tol float64) bool {
	op := fp.op
	rims := fp.set.model == Disc && op.m > newtonLimit
	fp.turned = false
	act := fp.active[:0]
	for k := 0; k < op.m; k++ {
		rad := op.mu[k] * fp.alpha[k]
		if !(rad > 0) {
			continue
		}
		if fp.set.gauge(f[2*k], f[2*k+1]) < rad*(1-freeMargin) {
			fp.rimCurv[k] = -1
			act = append(act, k)
		} else if rims && fp.slidingOnRim(k, f) {
			fp.turned = true
			act = append(act, k)
		}
	}
	if len(act) == 0 {
		return false
	}
	r, z, p := fp.r, fp.z, fp.p
	rz, rmax := 0.0, 0.0
	for _, k := range act {
		s1, s2 := op.slip(k, fp.v)
		r1, r2 := fp.onRim(k, -s1, -s2)
		r[2*k], r[2*k+1] = r1, r2
		z1, z2 := fp.precond(k, r1, r2)
		z[2*k], z[2*k+1] = z1, z2
		p[2*k], p[2*k+1] = z1, z2
		rz += r1*z1 + r2*z2
		rmax = max(rmax, max(math.Abs(r1), math.Abs(r2)))
	}
	cg := subspaceRun{act: act, rz: rz, rmax: rmax, rmax0: rmax, best: rmax}
	for it := 0; it < cgIterations(len(act)) && cg.rmax > cgTarget*tol && fp.passes() < fp.maxPasses; it++ {
		if !fp.cgIteration(&cg, it, f, tol) {
			break
		}
	}
	return true
}

// slidingOnRim reports whether contact k, on its rim, slides (its slip points out of the disc:
// s_kᵀf_k < 0) with a rim curvature term no larger than its own stiffness along the rim,
// e_kᵀG_k e_k, and if so records its rim tangent and curvature term for the subspace CG. A fast
// slip under a light load curves the rim so sharply that the contact barely turns in the model,
// and the factor, which does not hold the curvature, then preconditions the CG badly: such a
// contact is held, as a sticking one on its rim is.
func (fp *frictionProjection) slidingOnRim(k int, f []float64) bool {
	f1, f2 := f[2*k], f[2*k+1]
	s1, s2 := fp.op.slip(k, fp.v)
	n2 := f1*f1 + f2*f2
	sf := s1*f1 + s2*f2
	if !(sf < 0) || !(n2 > 0) {
		return false
	}
	n := math.Sqrt(n2)
	e1, e2 := -f2/n, f1/n
	g := fp.op.g[6*k : 6*k+6]
	curv := -sf / n2
	if curv > e1*(g[3]*e1+g[4]*e2)+e2*(g[4]*e1+g[5]*e2) {
		return false
	}
	fp.rimDir[2*k], fp.rimDir[2*k+1] = e1, e2
	fp.rimCurv[k] = curv
	return true
}

// onRim restricts the 2-vector (x1, x2) of contact k to its rim tangent if it slides.
func (fp *frictionProjection) onRim(k int, x1, x2 float64) (float64, float64) {
	if fp.rimCurv[k] < 0 {
		return x1, x2
	}
	e1, e2 := fp.rimDir[2*k], fp.rimDir[2*k+1]
	t := e1*x1 + e2*x2
	return t * e1, t * e2
}

// precond applies the subspace CG's block preconditioner to contact k's residual: the inverse
// 2×2 tangential Delassus block, or for a sliding contact the inverse of its Hessian along the
// rim.
func (fp *frictionProjection) precond(k int, r1, r2 float64) (float64, float64) {
	if fp.rimCurv[k] < 0 {
		return tangentPrecond(fp.op, k, r1, r2)
	}
	g := fp.op.g[6*k : 6*k+6]
	e1, e2 := fp.rimDir[2*k], fp.rimDir[2*k+1]
	h := e1*(g[3]*e1+g[4]*e2) + e2*(g[4]*e1+g[5]*e2) + fp.rimCurv[k]
	if !(h > 0) {
		return 0, 0
	}
	t := (e1*r1 + e2*r2) / h
	return t * e1, t * e2
}

// cgIteration takes one CG step of the subspace solve and reports whether to go on.
func (fp *frictionProjection) cgIteration(cg *subspaceRun, it int, f []float64, tol float64) bool {
	op, ic := fp.op, &fp.ic
	r, z, p, q, u := fp.r, fp.z, fp.p, fp.q, fp.u
	cg.best = min(cg.best, cg.rmax)
	if !cg.triedIC && ic.due(it, cg.rmax0, cg.best, cgTarget*tol) {
		cg.triedIC = true
		// Block-Jacobi scaling is converging slowly: restart from here preconditioned by the
		// incomplete Cholesky factor of the sticking contacts' tangent rows (unless the deadline
		// has passed: factoring is the CG's largest single step). Where CG steps are cut, the
		// rounds of one projection change the set by a contact or two (a step cut at a set's
		// boundary, a sweep freeing a contact), so on a large island the last factor is kept
		// within icStaleShare. Projections run to the sweep tolerance (without the gap target)
		// rebuild it: on the solver's sliding 20- and 30-row pyramids, solved to that tolerance,
		// the kept factor cost 66–80 % more friction CG and 29–39 % more time.
		if fp.pastDeadline() {
			return false
		}
		slack := 0
		if fp.cutSteps {
			slack = len(cg.act) / icStaleShare
		}
		if rzIC, ok := ic.restartNear(op, &op.blocks, cg.act, 1, 3, slack, r, z, p, fp.deadline); ok {
			cg.rz, cg.useIC = rzIC+fp.scaleExtras(r, z, p), true
			if fp.turned {
				cg.rz = fp.restrictToRims(cg.act, r, z, p)
			}
		}
	}
	clear(u)
	for _, k := range cg.act {
		op.addWT(k, p[2*k], p[2*k+1], u)
	}
	pq := 0.0
	for _, k := range cg.act {
		q1, q2 := op.tangentDot(k, u)
		if c := fp.rimCurv[k]; c >= 0 {
			q1, q2 = fp.onRim(k, q1, q2)
			q1 += c * p[2*k]
			q2 += c * p[2*k+1]
		}
		q[2*k], q[2*k+1] = q1, q2
		pq += p[2*k]*q1 + p[2*k+1]*q2
	}
	fp.work.CG++
	if !(pq > 0) || !(cg.rz > 0) || fp.pastDeadline() {
		return false
	}
	a := cg.rz / pq
	if fp.cutSteps {
		if reach := fp.feasibleStep(cg.act, f, p, a); reach < a {
			// The step would carry a sticking contact out of its set: stop at the first boundary.
			// The objective is convex along p and falls up to a, so this point is below the last
			// one.
			for _, k := range cg.act {
				f[2*k] += reach * p[2*k]
				f[2*k+1] += reach * p[2*k+1]
			}
			axpy(reach, u, fp.v)
			return false
		}
	}
	cg.rmax = 0
	for _, k := range cg.act {
		f[2*k] += a * p[2*k]
		f[2*k+1] += a * p[2*k+1]
		r[2*k] -= a * q[2*k]
		r[2*k+1] -= a * q[2*k+1]
		cg.rmax = max(cg.rmax, max(math.Abs(r[2*k]), math.Abs(r[2*k+1])))
	}
	if cg.useIC {
		ic.solve(r, z, 2, 1)
		fp.scaleExtras(r, z, nil)
		if fp.turned {
			for _, k := range cg.act {
				z[2*k], z[2*k+1] = fp.onRim(k, z[2*k], z[2*k+1])
			}
		}
	} else {
		for _, k := range cg.act {
			z[2*k], z[2*k+1] = fp.precond(k, r[2*k], r[2*k+1])
		}
	}
	rzNew := 0.0
	for _, k := range cg.act {
		rzNew += r[2*k]*z[2*k] + r[2*k+1]*z[2*k+1]
	}
	axpy(a, u, fp.v)
	beta := rzNew / cg.rz
	cg.rz = rzNew
	for _, k := range cg.act {
		p[2*k] = z[2*k] + beta*p[2*k]
		p[2*k+1] = z[2*k+1] + beta*p[2*k+1]
	}
	return true
}

// scaleExtras applies the 2×2 block scaling to the contacts of a stale factor's set that are not
// its members (delassusIC.extra), setting z (and p, if not nil) there, and returns their rᵀz.
func (fp *frictionProjection) scaleExtras(r, z, p []float64) float64 {
	ic := &fp.ic
	if !ic.stale {
		return 0
	}
	rz := 0.0
	for _, k := range ic.extra {
		z1, z2 := tangentPrecond(fp.op, k, r[2*k], r[2*k+1])
		z[2*k], z[2*k+1] = z1, z2
		if p != nil {
			p[2*k], p[2*k+1] = z1, z2
		}
		rz += r[2*k]*z1 + r[2*k+1]*z2
	}
	return rz
}

// restrictToRims restricts the CG's restarted direction z = p (the factor's solve) to the sliding
// contacts' rim tangents, P(LLᵀ)⁻¹P being a preconditioner on their subspace, and returns rᵀz.
func (fp *frictionProjection) restrictToRims(act []int, r, z, p []float64) float64 {
	rz := 0.0
	for _, k := range act {
		z1, z2 := fp.onRim(k, z[2*k], z[2*k+1])
		z[2*k], z[2*k+1] = z1, z2
		p[2*k], p[2*k+1] = z1, z2
		rz += r[2*k]*z1 + r[2*k+1]*z2
	}
	return rz
}

// feasibleStep returns the largest step t ≤ a along the CG direction p that keeps every contact of
// act inside its friction set (each sticking one starts strictly inside).
func (fp *frictionProjection) feasibleStep(act []int, f, p []float64, a float64) float64 {
	op := fp.op
	for _, k := range act {
		if fp.rimCurv[k] >= 0 {
			continue // sliding: clip keeps it on its rim
		}
		rad := op.mu[k] * fp.alpha[k]
		if fp.set.model == Disc {
			if e1, e2 := f[2*k]+a*p[2*k], f[2*k+1]+a*p[2*k+1]; e1*e1+e2*e2 <= rad*rad {
				continue // the whole step stays inside: its boundary is beyond a
			}
		}
		a = min(a, fp.set.stepToBoundary(f[2*k], f[2*k+1], p[2*k], p[2*k+1], rad))
	}
	return a
}

// pastDeadline reports whether the projection's deadline (if any) has passed.
func (fp *frictionProjection) pastDeadline() bool {
	return !fp.deadline.IsZero() && time.Now().After(fp.deadline)
}

// tangentPrecond applies contact k's inverse 2×2 tangential Delassus block.
func tangentPrecond(op *operator, k int, r1, r2 float64) (float64, float64) {
	g := op.g[6*k : 6*k+6]
	a, b, c := g[3], g[4], g[5]
	det := a*c - b*b
	if !(det > 1e-14*a*c) {
		if a > 0 && c > 0 {
			return r1 / a, r2 / c
		}
		return 0, 0
	}
	return (c*r1 - b*r2) / det, (a*r2 - b*r1) / det
}

// clip scales every friction vector outside its set back onto the boundary, keeping v.
func (fp *frictionProjection) clip(f []float64) {
	op := fp.op
	for k := 0; k < op.m; k++ {
		rad := op.mu[k] * fp.alpha[k]
		f1, f2 := f[2*k], f[2*k+1]
		if f1 == 0 && f2 == 0 {
			continue
		}
		g := fp.set.gauge(f1, f2)
		if g <= rad {
			continue
		}
		sc := 0.0
		if rad > 0 {
			sc = rad / g
		}
		n1, n2 := f1*sc, f2*sc
		op.addWT(k, n1-f1, n2-f2, fp.v)
		f[2*k], f[2*k+1] = n1, n2
	}
}
