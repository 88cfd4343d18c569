package solver

import (
	"math"
	"time"
)

// Staggered Projections, paper Algorithm 1: from the warm start f⁰, alternate the contact
// projection (line 5) and the friction projection (line 6), measure rel_err (eq. 28) and the
// residual (eq. 29), keep the best iterate (lines 9–12), stop at ε, MaxIters or the time budget,
// and finish with a contact projection for the kept friction impulse (line 16), so that the
// returned velocity is contact-exact whether or not friction converged (§7). Around that loop
// stand named policies, each a function below:
//
//   - inexact subsequences (frictionTolerance, contactTolerance): until the loop nears its fixed
//     point, the friction projection is solved only to a fraction of the previous subsequence's
//     largest velocity change (a forcing term, as in inexact Newton methods), and on large
//     islands the contact projection likewise at every subsequence after the first; an iterate
//     that meets ε that way is finished to full accuracy and measured again (finishLoose,
//     finishContact);
//   - Anderson acceleration of the fixed-point map (anderson.go) and, after a poor warm start, a
//     probe of the map at f = 0 (nextInput);
//   - the joint sticking solve (joint.go), tried after a first subsequence that missed ε and after
//     an iterate that met ε without being exact, then certified by the next subsequence
//     (polishing, in stopEarlier);
//   - sharpening (Options.Sharpen): with every loaded contact sliding, run on past ε while rel_err
//     keeps falling (afterConvergence);
//   - graceful degradation: the time budget, and the repair or settling of the final answer
//     (finalProjection, dissipate.go);
//   - the energy certificate (energy.go): a settled answer whose step would still gain energy is
//     solved on to a tighter ε (Solve, certifyEnergy).
//
// A subsequence whose contact projection is not exact ends the loop (solveSP).
//
// Two deliberate readings of Algorithm 1: MaxIters counts subsequences actually run (line 4's
// "i < max_iters" would run max_iters−1), and an iterate that meets ε is kept even if an earlier
// one had a smaller eq. 29 residual (it is the one the stopping test certified).

// zeroProbe is the first-iteration rel_err above which the warm start is complemented by a probe
// of the map at f = 0.
const zeroProbe = 1e-2

// looseTol (times the problem's velocity scale) is the tolerance of the staggered loop's first
// friction projection, forcing the fraction of a subsequence's largest velocity change to which
// the next one's friction projection is solved, until rel_err falls below tightenAt·ε.
const (
	looseTol  = 1e-6
	forcing   = 0.01
	tightenAt = 100 // rel_err, in units of ε, below which the friction projections are full-accuracy
)

// contactForcing is the fraction of the previous subsequence's largest velocity change to which
// the contact projection is solved (contactTolerance), on islands with more than newtonLimit
// contacts, until an iterate meets ε. Unlike the friction's forcing it is not tightened near the
// fixed point: most of the saving is in the last subsequences, whose exact projections each cost a
// pile of spheres a hundred CG iterations (docs/architecture.md, Algorithm 1). On smaller islands
// finishing the iterate that met ε costs more than their cheap projections save.
const contactForcing = 0.03

// loopState is the staggered loop's state between subsequences: the accuracy policy, the kept
// iterate's figures, and the polishing and sharpening phases.
type loopState struct {
	maxIters int
	// eps is the loop's ε: Options.Epsilon, or less when the energy certificate runs it on
	// (certifyEnergy); the friction projections' dissipation-gap target shrinks with it.
	eps      float64
	deadline time.Time // zero: no time budget
	joint    bool      // the joint sticking solve may be tried
	// warm: f⁰ ≠ 0, so the first friction projection is full-accuracy (a warm start is expected
	// near the fixed point); tight: every friction projection is full-accuracy from here on.
	warm, tight bool
	ftol, loose float64 // full accuracy FrictionTol·scale; the inexact projections' tolerance
	minRes      float64 // the kept iterate's eq. 29 residual
	relErr      float64 // eq. 28 of the last iterate measured (or of the one kept, on exit)
	// leastRel is the smallest eq. 28 measured so far, at subsequence leastRelAt (StallIters).
	leastRel   float64
	leastRelAt int
	// bestExact: the kept α is the exact contact projection of the kept f, so line 16 is skipped.
	bestExact bool
	// polishing: the iterate before this one met ε (rel_err polishRel) and was replaced by a
	// joint candidate, kept only if this subsequence measures it at least as converged;
	// jointBefore is Stats.JointAccepted before the candidate.
	polishing, jointBefore bool
	polishRel              float64
	// sharpening: an iterate met ε with every loaded contact sliding and the loop ran on;
	// sharpenRel is the rel_err of the last iterate that met ε, which is kept.
	sharpening            bool
	sharpenRel            float64
	lastIter, lastContact time.Duration
	// rmax is the last iterate's largest velocity change, which forces the next contact
	// projection's tolerance; exactContact: every contact projection is to ContactTol from here
	// (an iterate met ε with an inexact one).
	rmax         float64
	exactContact bool
}

// iterateFigures are what a subsequence measures of its iterate (line 7–8).
type iterateFigures struct {
	contactExact bool // the contact projection met its tolerance
	// looseContact: the contact projection was solved to contactTolerance and its answer misses
	// ContactTol, so that the iterate is one of an inexact map.
	looseContact bool
	// res is eq. 29; rr and xx the kinetic norms ‖D(g−x)‖² and ‖Dx‖²; rmax the largest velocity
	// change of the update; relErr eq. 28.
	res, rr, xx, rmax, relErr float64
	converged                 bool
}

// convergenceAction is what the loop does after an iterate that may have met ε.
type convergenceAction int

const (
	goOn    convergenceAction = iota // next subsequence
	restart                          // a joint candidate replaced the iterate: next subsequence now
	stop                             // the answer is found
)

// solveSP runs Algorithm 1 on the prepared problem p from the warm start in (s.alpha, s.f), with
// at most maxIters subsequences, the threshold eps on rel_err, and the joint sticking solve if
// joint.
func (s *Solver) solveSP(p *Problem, start time.Time, maxIters int, eps float64, joint bool) {
	if s.op.m == 0 {
		s.st.Converged = true
		return
	}
	l := s.startLoop(start, maxIters, eps, joint)
	for i := 1; i <= l.maxIters; i++ {
		itStart := time.Now()
		it, ok := s.subsequence(&l, i, itStart) // lines 5–8
		if !ok || s.stopEarlier(&l, it) {
			break
		}
		if !it.contactExact {
			// The contact projection spent its whole budget without reaching ContactTol (an
			// island too large to pivot, whose iterative projection stalls): every further
			// subsequence would pay that again. The kept iterate stands; the final projection
			// decides whether the answer is exact.
			break
		}
		s.keepBest(&l, i, it) // lines 9–12
		if it.relErr < l.leastRel {
			l.leastRel, l.leastRelAt = it.relErr, i
		}
		action := s.afterConvergence(&l, i, &it)
		if action == restart {
			continue
		}
		if action == stop || i == l.maxIters {
			break
		}
		if s.stalled(&l, i) {
			s.st.Stalled = true
			break
		}
		s.nextInput(&l, i, it)
		if s.workSpent() {
			s.st.WorkHit = true
			break
		}
		l.lastIter = time.Since(itStart)
		if !l.deadline.IsZero() && time.Now().Add(l.lastIter+l.lastContact).After(l.deadline) {
			s.st.BudgetHit = true
			break
		}
	}
	if l.sharpening && !s.st.Converged {
		// Stopped (MaxIters, time budget, numeric failure) while sharpening: the kept iterate
		// met ε.
		s.st.Converged = true
		l.relErr = l.sharpenRel
	}
	s.st.RelErr = l.relErr
	s.finalProjection(p, &l) // lines 15–17
}

// stalled reports whether Options.StallIters subsequences up to i have passed without a smaller
// rel_err while the smallest is still more than stallFar·ε, outside polishing and sharpening.
func (s *Solver) stalled(l *loopState, i int) bool {
	return s.opts.StallIters > 0 && !l.polishing && !l.sharpening && i-l.leastRelAt >= s.opts.StallIters &&
		l.leastRel > stallFar*l.eps
}

// stallFar is how far from ε, as a multiple of it, a loop's smallest rel_err must be for
// StallIters to stop it. Loops that came within it of ε and then wander (the cubes of a struck
// pyramid's top settling) are left to MaxIters: stopped at any distance, the pyramid level's
// slowest physics steps after a throw took 2–3 times as long, its repaired answers dropping
// friction from cubes that had held.
const stallFar = 10

// startLoop sets up the loop: f⁰ is copied to the map's input x and kept as the best iterate.
func (s *Solver) startLoop(start time.Time, maxIters int, eps float64, joint bool) loopState {
	m := s.op.m
	l := loopState{maxIters: maxIters, eps: eps, joint: joint, minRes: math.Inf(1), relErr: math.Inf(1), sharpenRel: math.Inf(1), leastRel: math.Inf(1)}
	if s.opts.TimeBudget > 0 {
		l.deadline = start.Add(s.opts.TimeBudget)
	}
	copy(s.x, s.f)
	copy(s.fBest, s.x)
	copy(s.alphaBest, s.alpha)
	s.accel.reset(s.opts.Anderson, 2*m, s.op.ndof)
	l.ftol = s.opts.FrictionTol * s.op.scale
	for _, fk := range s.x {
		if fk != 0 {
			l.warm = true
			break
		}
	}
	l.loose = looseTol * s.op.scale
	return l
}

// subsequence runs lines 5–8 for iteration i: the contact projection for the map's input x, the
// friction projection into s.f warm-started from x, and the measures of the iterate. It reports
// false when the loop must stop at once: the time budget ran out inside the friction projection,
// or a measure came out non-finite (the best iterate so far is kept).
func (s *Solver) subsequence(l *loopState, i int, itStart time.Time) (iterateFigures, bool) {
	var it iterateFigures
	ft := s.frictionTolerance(l, i)
	// Line 5: Nα^i ← P_C(−Mq̇ᴾ − f^{i−1}).
	warm := i > 1 || s.warmAlpha
	if i == 2 || !warm {
		s.contact.ic.useNarrow() // a cold start, and every projection after the first: see icNarrowShift
	}
	ct := s.contactTolerance(l, i)
	it.contactExact = s.projectContactTo(s.x, warm, ct)
	it.looseContact = ct > 0 && lcpError(&s.op, s.alpha, s.v) > s.opts.ContactTol*s.op.scale
	l.lastContact = time.Since(itStart)
	// Line 6: f^i ← P_F(α^i)(−Mq̇ᴾ − Nα^i), warm-started from f^{i−1}.
	copy(s.f, s.x)
	var fdl time.Time
	if !l.deadline.IsZero() {
		fdl = l.deadline.Add(-2 * l.lastContact)
	}
	cut := s.projectFriction(s.f, ft, s.frictionGap(l), fdl)
	s.st.Iterations = i
	if cut {
		// The budget ran out inside the friction projection: s.f is not an iterate of the map,
		// and projecting contact for it would cost a full projection more. Keep the best iterate
		// so far; in the first subsequence that is the warm start f⁰, whose α was just projected
		// exactly.
		if s.st.BestIter == 0 {
			copy(s.fBest, s.x)
			copy(s.alphaBest, s.alpha)
		}
		s.st.BudgetHit = true
		return it, false
	}
	// Lines 7–8.
	if !s.measure(l, &it) {
		return it, false
	}
	it.converged = it.relErr <= l.eps
	if it.converged && it.looseContact && !s.finishContact(l, i, &it, ft, fdl) {
		return it, false
	}
	if it.converged && ft > l.ftol && !s.finishLoose(l, &it, fdl) {
		return it, false
	}
	l.loose = min(l.loose, forcing*it.rmax)
	l.rmax = it.rmax
	if it.relErr <= tightenAt*l.eps {
		l.tight = true // near the fixed point: full-accuracy projections from here
	}
	return it, true
}

// frictionTolerance is the inexact-subsequence policy: iteration i's friction projection is solved
// to the loose tolerance until the loop is near its fixed point, except a warm start's first.
func (s *Solver) frictionTolerance(l *loopState, i int) float64 {
	if !l.tight && !(l.warm && i == 1) {
		return max(l.ftol, l.loose)
	}
	return l.ftol
}

// contactTolerance is the contact projection's inexact-subsequence policy: iteration i's
// projection is solved to contactForcing times the previous iterate's largest velocity change, on
// islands with more than newtonLimit contacts, from the second subsequence until an iterate meets
// ε. 0: to ContactTol.
func (s *Solver) contactTolerance(l *loopState, i int) float64 {
	if i == 1 || l.exactContact || s.op.m <= newtonLimit {
		return 0
	}
	return contactForcing * l.rmax
}

// finishContact handles an iterate that met ε with an inexact contact projection: the projection
// is finished to ContactTol for the same input, the friction projection run again from the
// iterate, and the result measured again; from here on every contact projection is exact. If the
// finished iterate misses ε, the inexact iterates' rel_err did not describe the exact map (with
// redundant contacts a small error in α can move the friction a long way): the stall measure
// starts again and Anderson's history, which mixed the inexact map, is dropped. It reports false
// on a non-finite measure.
func (s *Solver) finishContact(l *loopState, i int, it *iterateFigures, ft float64, deadline time.Time) bool {
	l.exactContact = true
	if !s.projectContact(s.x, true) {
		it.contactExact, it.converged = false, false
		return true
	}
	it.looseContact = false
	s.projectFriction(s.f, ft, s.frictionGap(l), deadline)
	if !s.measure(l, it) {
		return false
	}
	it.converged = it.relErr <= l.eps
	if !it.converged {
		l.leastRel, l.leastRelAt = math.Inf(1), i
		s.accel.reset(s.opts.Anderson, 2*s.op.m, s.op.ndof)
	}
	return true
}

// frictionGap is the friction projections' relative dissipation-gap target (Options.FrictionGap,
// scaled by the loop's ε over Options.Epsilon), off while sharpening: that phase runs on to the
// fixed point to working accuracy.
func (s *Solver) frictionGap(l *loopState) float64 {
	if l.sharpening {
		return 0
	}
	return s.opts.FrictionGap * (l.eps / s.opts.Epsilon)
}

// finishLoose handles an iterate that met ε with a loose friction projection: the projection is
// finished to full accuracy and the iterate measured again; from here on every projection is
// full-accuracy. It is accepted at once only if it is a fixed point to working accuracy (as a
// converged warm start is); otherwise the loop runs on, and the stopping test certifies a later
// iterate. It reports false on a non-finite measure.
func (s *Solver) finishLoose(l *loopState, it *iterateFigures, deadline time.Time) bool {
	l.tight = true
	s.projectFriction(s.f, l.ftol, s.frictionGap(l), deadline)
	if !s.measure(l, it) {
		return false
	}
	it.converged = it.rmax <= l.ftol
	return true
}

// stopEarlier decides whether an earlier iterate stands as the answer: the one that met ε before
// a joint candidate that this subsequence measures as less converged (polishing), or, while
// sharpening, the one that met ε before an iterate that meets it again but no more sharply.
func (s *Solver) stopEarlier(l *loopState, it iterateFigures) bool {
	switch {
	case l.polishing && it.relErr > l.polishRel:
		s.st.Converged = true
		s.st.JointAccepted = l.jointBefore
		l.relErr = l.polishRel
		return true
	case l.sharpening && it.converged && !(it.relErr < l.sharpenRel):
		s.st.Converged = true
		l.relErr = l.sharpenRel
		return true
	}
	return false
}

// keepBest is lines 9–12: the iterate is kept if its eq. 29 residual is the smallest so far, or
// if it met ε. While sharpening, the kept iterate is the last one that met ε: an iterate that
// misses it (Anderson's steps are not monotone) does not replace it, whatever its residual.
func (s *Solver) keepBest(l *loopState, i int, it iterateFigures) {
	if !(it.res < l.minRes && !l.sharpening || it.converged) {
		return
	}
	l.minRes = it.res
	copy(s.fBest, s.f)
	copy(s.alphaBest, s.alpha)
	s.st.BestIter = i
	// α^i was projected for x; it is also the exact projection for f^i when f^i = x or when the
	// LCP still holds at (α^i, f^i) — then the final projection is skipped, which matters with
	// redundant contacts, whose α it could redistribute under a fixed friction.
	l.bestExact = it.contactExact && (bitsEqual(s.f, s.x) && !it.looseContact || lcpError(&s.op, s.alpha, s.v) <= s.opts.ContactTol*s.op.scale)
	s.st.Residual = it.res
}

// afterConvergence decides what follows an iterate: if it met ε without being exact and the joint
// sticking solve finds a candidate, the candidate replaces it (restart, polishing); if it met ε
// with every loaded contact sliding, the loop runs on to sharpen it (Options.Sharpen); otherwise a
// converged iterate stops the loop.
func (s *Solver) afterConvergence(l *loopState, i int, it *iterateFigures) convergenceAction {
	more := i < l.maxIters
	if it.converged && !l.polishing && it.relErr > 0 && l.joint && more && s.tryJoint(it.relErr) {
		// One more subsequence certifies the candidate (or the kept iterate stands).
		l.polishing, l.polishRel, l.jointBefore = true, it.relErr, s.st.JointAccepted
		s.st.JointAccepted = true
		s.accel.reset(s.opts.Anderson, 2*s.op.m, s.op.ndof)
		return restart
	}
	if it.converged && s.opts.Sharpen && it.relErr > 0 && it.relErr < l.sharpenRel && more && s.allSliding(s.f) {
		l.sharpening, l.sharpenRel = true, it.relErr
		it.converged = false
	}
	if it.converged {
		s.st.Converged = true
		return stop
	}
	return goOn
}

// nextInput sets the map's next input x from its output (line 14): the Anderson-mixed step; after
// the first subsequence a feasible joint candidate instead, or, when the warm start looks poor
// (typically last step's friction opposing motion that has since stopped), the map's value at
// f = 0, so that the accelerated sequence can mix the warm and the cold start.
func (s *Solver) nextInput(l *loopState, i int, it iterateFigures) {
	if s.accel.next(s.x, s.f, it.rr) {
		s.st.AndersonResets++
	}
	if i != 1 {
		return
	}
	// The candidate is taken here whatever rel_err it predicts: it exists to leave the slow
	// two-block contraction of stacks and leaning cards. Gated here too, the sliding 40-box
	// tower's warm steps no longer met ε within 50 subsequences (TestSlidingSequences).
	if l.joint && s.tryJoint(math.Inf(1)) {
		// The mixing history no longer describes the sequence.
		s.st.JointAccepted = true
		s.accel.reset(s.opts.Anderson, 2*s.op.m, s.op.ndof)
	} else if it.relErr > zeroProbe && it.xx > 0 && s.opts.Anderson > 0 {
		clear(s.x)
	}
}

// tryJoint builds the joint sticking candidate from the iterate (s.alpha, s.f), whose rel_err is
// relErr; a feasible one that does not predict a much larger rel_err (jointSolve.candidate; +Inf:
// any) replaces s.alpha and the map's input s.x.
func (s *Solver) tryJoint(relErr float64) bool {
	ok, cg := s.joint.candidate(&s.op, s.alpha, s.f, s.x, s.v, s.passesLeft(0), relErr)
	s.st.JointCG += cg
	return ok
}

// finalProjection is lines 15–17: f^{t+1} ← f*, α^{t+1} ← P_C(−Mq̇ᴾ − f^{t+1}), warm from the kept
// α; then an unconverged answer is repaired (repairUnconverged), and a converged one whose
// friction does work after the projection is settled (dissipate.go) unless the energy certificate
// shows that its step gains no energy (energy.go): the positive work bounds the gain, which the
// step's own dissipation usually hides, and on a resting 1,000-sphere pile a thousand contacts
// offend in every settling round, and four rounds of exact contact projections (half the step's
// work) lowered it by a third.
func (s *Solver) finalProjection(p *Problem, l *loopState) {
	copy(s.f, s.fBest)
	copy(s.alpha, s.alphaBest)
	if s.st.BestIter > 0 && l.bestExact {
		return // the kept α is already the exact P_C of the kept f
	}
	finalStart := time.Now()
	if !s.projectContact(s.f, true) {
		// Solve refuses an inexact answer (SolveError), and the caller solves the island another
		// way: repairing its friction would only run more projections that stall in the same way.
		return
	}
	switch {
	case !s.st.Converged:
		s.st.Repairs = s.repairUnconverged(p, l.deadline, time.Since(finalStart))
	case s.opts.Settle && s.frictionDoesWork() && !s.energyCertified(p):
		s.settleFriction(s.opts.FrictionTol * s.op.scale)
	}
}

// bitsEqual reports whether a and b are identical element by element.
func bitsEqual(a, b []float64) bool {
	for i, x := range a {
		if x != b[i] {
			return false
		}
	}
	return true
}

// measure fills it with the measures of the map's input s.x and output s.f, with s.v at
// (α, s.f): the residual of eq. 29, the kinetic norms and the largest velocity change
// (anderson.residualNorms), and rel_err of eq. 28, which it also records in l. An update that
// moves no velocity by more than the friction projection's own tolerance is a fixed point to
// working accuracy: rel_err 0 (this also makes f = 0 ⇒ f = 0 exact, where eq. 28 is 0/0). It
// reports false if a figure is not finite.
func (s *Solver) measure(l *loopState, it *iterateFigures) bool {
	op := &s.op
	// Line 8: residual, eq. 29, at α^i and f^i (s.v = q̇ᴾ + M⁻¹(Nα^i + Df^i)).
	res := 0.0
	for k := 0; k < op.m; k++ {
		if a := s.alpha[k]; a != 0 {
			res += math.Abs(a * (op.rowDot(k, 0, s.v) + op.bEff[k]))
		}
	}
	// Line 7: rel_err, eq. 28, in the kinetic metric M⁻¹ on generalized impulses.
	rr, xx, rmax := s.accel.residualNorms(op, s.x, s.f)
	relErr := math.Inf(1)
	switch {
	case rmax <= l.ftol, xx <= 0 && rr == 0:
		relErr = 0
	case xx > 0:
		relErr = rr / xx
	}
	it.res, it.rr, it.xx, it.rmax, it.relErr = res, rr, xx, rmax, relErr
	l.relErr = relErr
	return isFinite(res) && isFinite(rr)
}

// allSliding reports whether every loaded contact's friction f lies on the rim of its set: the
// island slides, and the fixed-point map is nearly affine.
func (s *Solver) allSliding(f []float64) bool {
	op := &s.op
	for k := 0; k < op.m; k++ {
		a := s.alpha[k]
		if a <= 0 || !(op.g[6*k] > 0) {
			continue
		}
		if s.set.sticks(op.mu[k]*a, f[2*k], f[2*k+1]) {
			return false
		}
	}
	return true
}

// retryWithoutJoint solves again from p's warm start with the joint sticking solve off, after a
// candidate led the loop to an answer whose friction does positive work. The retry gets what is
// left of MaxIters and the same deadline; the statistics count both attempts.
func (s *Solver) retryWithoutJoint(p *Problem, start time.Time) {
	first := s.beginAttempt()
	s.warmStart(p)
	s.presolve()
	s.solveSP(p, start, s.opts.MaxIters-first.Iterations, s.opts.Epsilon, false)
	s.endAttempt(first)
}

// beginAttempt starts another attempt of this Solve (retryWithoutJoint, certifyEnergy): the work
// so far stays on the budget, and the statistics start over. It returns the earlier attempts'.
func (s *Solver) beginAttempt() Stats {
	first := s.st
	// The factor work stays counted as it is (it spans the attempts); the passes move here.
	s.workBefore = s.workDone() - s.factorWork
	s.st = Stats{Method: s.opts.Method, Contacts: s.op.m, Scale: s.op.scale}
	return first
}

// endAttempt adds the earlier attempts' statistics first to the attempt just ended.
func (s *Solver) endAttempt(first Stats) {
	s.st.Iterations += first.Iterations
	s.st.ContactSweeps += first.ContactSweeps
	s.st.ContactCG += first.ContactCG
	s.st.ContactPivots += first.ContactPivots
	s.st.ContactInterior += first.ContactInterior
	s.st.FrictionSweeps += first.FrictionSweeps
	s.st.FrictionCG += first.FrictionCG
	s.st.JointCG += first.JointCG
	s.st.PresolveSweeps += first.PresolveSweeps
	s.st.Fallbacks += first.Fallbacks
	s.st.AndersonResets += first.AndersonResets
	s.st.EnergyRuns += first.EnergyRuns
	s.st.WorkHit = s.st.WorkHit || first.WorkHit
	s.workBefore = 0
}
