package solver

import (
	"math"
	"time"
)

// Contact projection P_C (paper eq. 25, docs/architecture.md): given the friction impulse f, find
// α ≥ 0 with
//
//	w = (NᵀM⁻¹N)α + Nᵀ(q̇ᴾ + M⁻¹f) + b ≥ 0,  α ≥ 0,  wᵀα = 0,
//
// the KKT conditions of min_{α≥0} ½‖q̇ᴾ + M⁻¹(Nα + f)‖²_M + bᵀα. The production sub-solver is
// PGS-SM (course notes §3.2.6): projected Gauss–Seidel sweeps predict the active set, conjugate
// gradients solve the active rows w_F = 0 exactly (the Delassus block may be singular — redundant
// contacts — but the system is consistent, and CG converges on it without regularisation),
// negative impulses are clipped and the reduced set re-solved, and the loop repeats until the
// LCP's natural residual max_k |min(A_kk α_k, w_k)| is within tolerance. Where it stalls, a
// DoF-sized form takes over: the active set (activeset.go) or the interior point (interior.go).
// Principal pivoting (pivot.go) is the reference for small islands.

// dofRankLimit is the largest rank bound min(contacts, DoFs) of an island that ContactAuto hands to
// the DoF-sized active set: its factor holds up to that many rows squared (8 MB at 1,000), and
// building it from a warm start costs up to a third of their cube.
const dofRankLimit = 1000

// nullDirection: a CG direction p with pᵀAp < nullDirection · pᵀdiag(A)p lies in A's null space
// (redundant contacts). The smallest such ratio of a consistent solve in the benchmark scenes is
// 3.5e-4 (the tower's softest mode); an inconsistent active set gave 3e-31.
const nullDirection = 1e-10

// The PGS-SM variant's bounds. contactRounds and contactReSolves bound its outer rounds and the
// clip-and-resolve passes within one; the CG budgets are per contact plus a constant. The ContactAuto
// budget is small on purpose: it decides when PGS-SM has had its chance and a DoF-sized form
// takes over.
const (
	contactRounds   = 40   // PGS-SM rounds before falling back
	contactReSolves = 8    // clip-and-resolve passes per round
	contactCGBudget = 20   // CG iterations per contact (plus contactCGExtra) before giving up
	contactCGExtra  = 2000 // the constant part of contactCGBudget
	autoCGBudget    = 3    // ContactAuto: PGS-SM's CG iterations per contact (plus autoCGExtra)
	autoCGExtra     = 200  // the constant part of autoCGBudget
	// ContactAuto: PGS-SM rounds in a row that do not halve the LCP residual, after a CG iteration
	// per contact, before a DoF-sized form takes over.
	pgssmStalls = 2
	// ContactAuto on an island beyond the active set's rank limit: PGS-SM's CG budget is one per
	// largeCGShare contacts (plus autoCGExtra), so that a stalled attempt costs a fraction of the
	// interior point that follows it (docs/decisions.md).
	largeCGShare = 4

	// Sweeps that predict the active set: a cold round starts with coldSweeps, later rounds with
	// roundSweeps; a warm α predicts it well and is polished by CG at once.
	coldSweeps  = 3
	roundSweeps = 2
)

// contactWork counts what contact projections did (the Stats fields of the same names).
type contactWork struct {
	Sweeps, CG, Pivots, Fallbacks int
	// Interior counts interior-point iterations. FactorWork is the active set's factor work beyond
	// its pivots' passes and the interior point's whole work, in contact updates.
	Interior, FactorWork int
}

// contactProjection is the contact projection's workspace: its configuration, the scratch vectors
// of its variants and the incomplete Cholesky factor it keeps between the projections of one
// solve. Its input and output are project's arguments; the fields below "bound" are those
// arguments, set by project for the duration of one projection so that the variants' helpers
// share them.
type contactProjection struct {
	method     ContactSolver
	pivotLimit int
	relTol     float64 // Options.ContactTol

	// bound: the operator, the friction impulse projected for, the normal impulses moved (warm
	// start in, answer out), the velocity q̇ᴾ + M⁻¹(Nα + f) kept consistent with them, the
	// absolute tolerance, whether α comes from a previous projection, and the work counted.
	op       *operator
	f, alpha []float64
	v        []float64
	tol      float64
	warm     bool
	work     contactWork

	r, z, p, q, u []float64 // CG vectors (m; u: ndof)
	saved         []float64 // ContactAuto's start, for a DoF-sized form after PGS-SM
	active        []int
	ic            delassusIC // preconditioner of the subspace CG
	pivot         pivotBuffers
	dof           activeSet
	interior      interiorPoint
	// dofActive and interiorActive record that ContactAuto handed a stalled projection to the
	// active set or to the interior-point projection, for the rest of the solve.
	dofActive, interiorActive bool
	// cgCap is the CG count at which the running PGS-SM's budget is spent (math.MaxInt outside).
	cgCap int
}

// newContactProjection returns a workspace configured by opts (defaults filled in).
func newContactProjection(opts *Options) contactProjection {
	cp := contactProjection{method: opts.ContactSolver, pivotLimit: opts.PivotLimit, relTol: opts.ContactTol}
	cp.ic.narrow = icNarrowShift
	cp.cgCap = math.MaxInt
	return cp
}

// resize sizes the scratch for op and forgets the factor: a new solve.
func (cp *contactProjection) resize(op *operator) {
	m, n := op.m, op.ndof
	cp.r = grow(cp.r, m)
	cp.z = grow(cp.z, m)
	cp.p = grow(cp.p, m)
	cp.q = grow(cp.q, m)
	cp.u = grow(cp.u, n)
	cp.saved = grow(cp.saved, m)
	cp.active = grow(cp.active, m)
	cp.ic.invalidate()
	cp.dof.resize(op)
	cp.interior.resize(op)
	cp.dofActive, cp.interiorActive = false, false
}

// project solves P_C on op for the friction impulse f into alpha, warm-started from alpha
// (warm: it came from a previous projection of this solve or from last step's answer), to the
// absolute tolerance max(ContactTol·op.scale, loose) on the LCP's natural residual. On return
// v = q̇ᴾ + M⁻¹(Nα + f). It reports whether the LCP holds to that tolerance, and the work done.
func (cp *contactProjection) project(op *operator, f, alpha, v []float64, warm bool, loose float64) (bool, contactWork) {
	cp.op, cp.f, cp.alpha, cp.v = op, f, alpha, v
	cp.tol, cp.warm, cp.work = max(cp.relTol*op.scale, loose), warm, contactWork{}
	exact := cp.run()
	cp.op, cp.f, cp.alpha, cp.v = nil, nil, nil, nil
	return exact, cp.work
}

// run dispatches to the configured variant, then to the pivoting fallback.
func (cp *contactProjection) run() bool {
	op, alpha, v, f := cp.op, cp.alpha, cp.v, cp.f
	if cp.method == ContactActiveSet || cp.dofActive {
		return cp.dofProject()
	}
	if cp.method == ContactInterior || cp.interiorActive {
		return cp.interiorProject()
	}
	if cp.method == ContactPivot {
		ok := cp.pivotProject()
		op.velocity(alpha, f, v)
		return ok
	}
	for k := 0; k < op.m; k++ {
		if !(alpha[k] > 0) {
			alpha[k] = 0
		}
	}
	op.velocity(alpha, f, v)
	if cp.lcpError() <= cp.tol {
		return true
	}
	switch cp.method {
	case ContactPGSSM:
		if cp.pgssm(contactCGBudget*op.m+contactCGExtra, false) {
			return true
		}
	default:
		// PGS-SM with a small budget; if it stalls, a DoF-sized form. More rows than DoFs alone
		// does not foretell a stall: PGS-SM solves the resting 20-base wall from its warm start
		// (TestSlidingSequences).
		copy(cp.saved, alpha)
		budget := autoCGBudget*op.m + autoCGExtra
		if min(op.m, op.ndof) > dofRankLimit {
			budget = op.m/largeCGShare + autoCGExtra
		}
		if cp.pgssm(budget, true) {
			return true
		}
		copy(alpha, cp.saved)
		op.velocity(alpha, f, v)
		// PGS-SM stalled: the island's rows are redundant or badly scaled. A DoF-sized form takes
		// over for the rest of the solve: the active set, keeping its working set, while its
		// dense factor fits, else the interior-point projection over the body graph.
		if min(op.m, op.ndof) <= dofRankLimit {
			cp.dofActive = true
			return cp.dofProject()
		}
		cp.interiorActive = true
		return cp.interiorProject()
	}
	return cp.fallback()
}

// dofProject runs the DoF-sized active-set projection (activeset.go), then the fallback.
func (cp *contactProjection) dofProject() bool {
	ok := cp.dof.project(cp.op, cp.f, cp.alpha, cp.v, cp.tol)
	cp.work.Pivots += cp.dof.work.Pivots
	cp.work.FactorWork += cp.dof.work.FactorWork
	if ok {
		return true
	}
	return cp.fallback()
}

// interiorProject runs the interior-point projection (interior.go). Cut short, its answer is
// crossed over to a vertex guess and polished by PGS-SM from there, then the fallback; a polish
// that does worse leaves the interior answer.
func (cp *contactProjection) interiorProject() bool {
	ok := cp.interior.project(cp.op, cp.f, cp.alpha, cp.v, cp.tol)
	cp.work.Interior += cp.interior.work.Iterations
	cp.work.FactorWork += cp.interior.work.FactorWork
	if ok {
		return true
	}
	before := cp.lcpError()
	copy(cp.saved, cp.alpha)
	cp.interior.crossover(cp.op, cp.f, cp.alpha, cp.v)
	cp.warm = true
	if cp.pgssm(autoCGBudget*cp.op.m+autoCGExtra, true) {
		return true
	}
	if !(cp.lcpError() <= before) {
		copy(cp.alpha, cp.saved) // the polish made it worse: keep the interior answer
	}
	return cp.fallback()
}

// pgssm runs PGS-SM rounds from α (with v consistent, and the LCP not yet within tol) until the
// LCP holds to tol or cgBudget conjugate-gradient iterations are spent, and reports success. With
// giveUp it also stops once it has spent a CG iteration per contact and its last pgssmStalls
// rounds have not halved the LCP residual: its rounds are cycling (the sweeps re-activate what
// clipping removed), and ContactAuto hands the projection to a DoF-sized form, which cannot.
func (cp *contactProjection) pgssm(cgBudget int, giveUp bool) bool {
	op, alpha, v, f := cp.op, cp.alpha, cp.v, cp.f
	cgStart := cp.work.CG
	cp.cgCap = cgStart + cgBudget
	defer func() { cp.cgCap = math.MaxInt }()
	bestErr, stalled := math.Inf(1), 0
	for round := 0; round < contactRounds && cp.work.CG-cgStart < cgBudget; round++ {
		if round > 0 {
			// Recompute v from α, dropping the round-off the updates accumulated.
			op.velocity(alpha, f, v)
			e := cp.lcpError()
			if e <= cp.tol {
				return true
			}
			if e < 0.5*bestErr {
				bestErr, stalled = e, 0
			} else {
				stalled++
			}
			if giveUp && stalled >= pgssmStalls && cp.work.CG-cgStart >= op.m {
				return false
			}
		}
		n := roundSweeps
		if round == 0 {
			n = coldSweeps
			if cp.warm {
				n = 0 // a warm α predicts the active set well: polish it before sweeping
			}
		}
		if n > 0 {
			cp.sweeps(n)
			if cp.lcpError() <= cp.tol {
				return true
			}
		}
		cp.clipAndResolve()
	}
	op.velocity(alpha, f, v)
	return cp.lcpError() <= cp.tol
}

// clipAndResolve solves the active rows by subspace CG, clips the negative impulses, and
// re-solves on the reduced set, up to contactReSolves times. A pass that starts icNullMove times
// above the previous one's start shows a null-space move: the factor's shift is widened.
func (cp *contactProjection) clipAndResolve() {
	op, alpha, v := cp.op, cp.alpha, cp.v
	prevStart := 0.0
	for pass := 0; pass < contactReSolves; pass++ {
		ran, start := cp.subspaceCG()
		if !ran {
			return
		}
		if pass > 0 && start > icNullMove*prevStart {
			cp.ic.widen()
		}
		prevStart = start
		clipped := false
		for k := 0; k < op.m; k++ {
			if alpha[k] < 0 {
				op.addW(k, 0, -alpha[k], v)
				alpha[k] = 0
				clipped = true
			}
		}
		if !clipped {
			return
		}
	}
}

// fallback finishes a projection whose iterative variant stalled: by the pivoting reference on
// islands of at most PivotLimit contacts. It reports exactness.
func (cp *contactProjection) fallback() bool {
	op, alpha, v, f := cp.op, cp.alpha, cp.v, cp.f
	op.velocity(alpha, f, v)
	if cp.lcpError() <= cp.tol {
		return true
	}
	if op.m <= cp.pivotLimit {
		cp.work.Fallbacks++
		ok := cp.pivotProject()
		op.velocity(alpha, f, v)
		return ok
	}
	return false
}

// lcpError returns max_k |min(A_kk α_k, w_k)| at the bound velocity.
func (cp *contactProjection) lcpError() float64 {
	return lcpError(cp.op, cp.alpha, cp.v)
}

// lcpError returns the contact LCP's natural residual max_k |min(A_kk α_k, w_k)| of op at normal
// impulses alpha and velocity v.
func lcpError(op *operator, alpha, v []float64) float64 {
	worst := 0.0
	for k := 0; k < op.m; k++ {
		w := op.rowDot(k, 0, v) + op.bEff[k]
		e := math.Abs(min(alpha[k]*op.g[6*k], w))
		if !(e <= worst) {
			worst = e
		}
	}
	return worst
}

// sweeps runs n projected Gauss–Seidel sweeps over the normal rows, keeping v consistent.
func (cp *contactProjection) sweeps(n int) {
	op, alpha, v := cp.op, cp.alpha, cp.v
	for it := 0; it < n; it++ {
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
	cp.work.Sweeps += n
}

// subspaceCG solves w_F = 0 on the active set F = {k : α_k > 0} by CG, Jacobi-preconditioned
// until the incomplete Cholesky factor is due (delassusIC.due), moving α_F (possibly negative) and
// v. It stops early, widening the factor's shift, when the active rows prove inconsistent (a
// direction in A's null space, or a diverging residual). It reports whether any contact was
// active and the max-norm residual it started from.
func (cp *contactProjection) subspaceCG() (bool, float64) {
	op, alpha := cp.op, cp.alpha
	act := cp.active[:0]
	for k := 0; k < op.m; k++ {
		if alpha[k] > 0 && op.g[6*k] > 0 {
			act = append(act, k)
		}
	}
	if len(act) == 0 {
		return false, 0
	}
	r, z, p := cp.r, cp.z, cp.p
	rz, rmax := 0.0, 0.0
	for _, k := range act {
		rk := -(op.rowDot(k, 0, cp.v) + op.bEff[k])
		r[k] = rk
		z[k] = rk / op.g[6*k]
		p[k] = z[k]
		rz += rk * z[k]
		rmax = max(rmax, math.Abs(rk))
	}
	cg := subspaceRun{act: act, rz: rz, rmax: rmax, rmax0: rmax, best: rmax}
	for it := 0; it < cgIterations(len(act)) && cg.rmax > cgTarget*cp.tol && cp.work.CG < cp.cgCap; it++ {
		if !cp.cgIteration(&cg, it) {
			break
		}
	}
	return true, cg.rmax0
}

// CG iteration bounds shared by the subspace solves: cgIterations(n) iterations for n unknown
// contacts, to a residual of cgTarget times the projection's tolerance (so that the LCP check
// after it passes with room for round-off).
const cgTarget = 0.1

func cgIterations(n int) int { return 4*n + 50 }

// subspaceRun is the state of one subspace CG between iterations.
type subspaceRun struct {
	act                   []int
	rz, rmax, rmax0, best float64
	useIC, triedIC        bool
}

// cgIteration takes one CG step of the subspace solve and reports whether to go on.
func (cp *contactProjection) cgIteration(cg *subspaceRun, it int) bool {
	op, alpha, ic := cp.op, cp.alpha, &cp.ic
	r, z, p, q, u := cp.r, cp.z, cp.p, cp.q, cp.u
	if cg.rmax > icDiverged*cg.best {
		// The residual has grown far past its best: CG is driving α along a near null space of
		// inconsistent rows, and round-off feeds back. Stop and widen the shift.
		ic.widen()
		return false
	}
	cg.best = min(cg.best, cg.rmax)
	if !cg.triedIC && ic.due(it, cg.rmax0, cg.best, cgTarget*cp.tol) {
		cg.triedIC = true
		// Jacobi scaling is converging slowly: restart from here preconditioned by the
		// incomplete Cholesky factor of A_FF + ε diag(A_FF).
		if rzIC, ok := ic.restart(op, &op.blocks, cg.act, 0, 1, r, z, p, time.Time{}); ok {
			cg.rz, cg.useIC = rzIC, true
			cg.best = cg.rmax
		}
	}
	clear(u)
	for _, k := range cg.act {
		op.addW(k, 0, p[k], u)
	}
	pq, pd := 0.0, 0.0
	for _, k := range cg.act {
		q[k] = op.rowDot(k, 0, u)
		pq += p[k] * q[k]
		pd += op.g[6*k] * p[k] * p[k]
	}
	cp.work.CG++
	if !(pq > 0) {
		return false
	}
	if pq < nullDirection*pd {
		// p lies in A's null space (redundant contacts) while the residual does not: the active
		// rows are inconsistent, and the step would be unbounded. Stop, widen the shift, and
		// leave the set to clipping and the sweeps.
		ic.widen()
		return false
	}
	a := cg.rz / pq
	for _, k := range cg.act {
		alpha[k] += a * p[k]
		r[k] -= a * q[k]
	}
	axpy(a, u, cp.v)
	rzNew := 0.0
	cg.rmax = 0
	if cg.useIC {
		ic.solve(r, z, 1, 0)
		for _, k := range cg.act {
			rzNew += r[k] * z[k]
			cg.rmax = max(cg.rmax, math.Abs(r[k]))
		}
	} else {
		for _, k := range cg.act {
			z[k] = r[k] / op.g[6*k]
			rzNew += r[k] * z[k]
			cg.rmax = max(cg.rmax, math.Abs(r[k]))
		}
	}
	if !(cg.rz > 0) {
		return false
	}
	beta := rzNew / cg.rz
	cg.rz = rzNew
	for _, k := range cg.act {
		p[k] = z[k] + beta*p[k]
	}
	return true
}
