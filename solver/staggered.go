package solver

import (
	"math"
	"time"
)

// solveSP runs Staggered Projections (paper Algorithm 1) from the warm start f⁰ in s.f:
// alternate the contact projection (line 5) and the friction projection (line 6), measure rel_err
// (eq. 28) and the residual (eq. 29), cache the best iterate (lines 9–12), stop at ε, MaxIters or
// the time budget, and finish with a contact projection using the kept friction impulse (line 16),
// so that the returned velocity is contact-exact whether or not friction converged (§7). The
// fixed-point map is optionally Anderson-accelerated (anderson.go).
//
// Two deliberate readings of Algorithm 1: MaxIters counts subsequences actually run (line 4's
// "i < max_iters" would run max_iters−1), and an iterate that meets ε is kept even if an earlier
// one had a smaller eq. 29 residual (it is the one the stopping test certified).
// zeroProbe is the first-iteration rel_err above which the warm start is complemented by a
// probe of the map at f = 0.
const zeroProbe = 1e-2

// looseTol (times the problem's velocity scale) is the tolerance of the staggered loop's first
// friction projection, forcing the fraction of a subsequence's largest velocity change to which
// the next one's friction projection is solved, until rel_err falls below tightenAt·ε.
const (
	looseTol  = 1e-6
	forcing   = 0.01
	tightenAt = 100 // rel_err, in units of ε, below which the projections are full-accuracy
)

func (s *Solver) solveSP(p *Problem, start time.Time) {
	op := &s.op
	m := op.m
	if m == 0 {
		s.st.Converged = true
		return
	}
	var deadline time.Time
	if s.opts.TimeBudget > 0 {
		deadline = start.Add(s.opts.TimeBudget)
	}
	x, g := s.x, s.f
	copy(x, s.f) // f⁰
	copy(s.fBest, x)
	copy(s.alphaBest, s.alpha)
	s.aa.reset(s.opts.Anderson, 2*m, op.ndof)
	minRes := math.Inf(1)
	ftol := s.opts.FrictionTol * s.scale
	relErr := math.Inf(1)
	// Inexact subsequences: until the loop nears its fixed point, the friction projection is solved
	// only to a tenth of the previous subsequence's largest velocity change (a forcing term, as in
	// inexact Newton methods), and never more loosely than looseTol. An iterate that meets ε with a
	// loose projection is accepted only if, its projection finished to FrictionTol, it is a fixed
	// point to working accuracy; otherwise the loop runs on with full-accuracy projections. The contact projection stays exact: inexact ones cost more iterations than they
	// save (BENCHMARKS.md).
	// A warm start is expected to be near the fixed point: its first projection is full-accuracy.
	tight, warm := false, false
	for _, fk := range x {
		if fk != 0 {
			warm = true
			break
		}
	}
	loose := looseTol * s.scale
	// polishing: the iterate before this one met ε and was replaced by a joint candidate, to be
	// kept only if this subsequence measures it at least as converged (rel_err ≤ polishRel).
	polishing, polishRel, jointBefore := false, 0.0, false
	joint := s.opts.Joint && !s.noJoint
	var lastIter, lastContact time.Duration
	// sharpening: an iterate met ε with every loaded contact sliding and the loop ran on
	// (Options.Sharpen); sharpenRel is the rel_err of the last iterate that met ε, which is kept.
	sharpening, sharpenRel := false, math.Inf(1)
	for i := 1; i <= s.opts.MaxIters; i++ {
		itStart := time.Now()
		ft := ftol
		if !tight && !(warm && i == 1) {
			ft = max(ftol, loose)
		}
		// Line 5: Nα^i ← P_C(−Mq̇ᴾ − f^{i−1}).
		s.warmContact = i > 1 || s.warmAlpha
		if i == 2 || !s.warmContact {
			// A cold start, and every projection after the first: see icNarrowShift.
			s.icContact.useNarrow()
		}
		contactOK := s.projectContact(x)
		lastContact = time.Since(itStart)
		// Line 6: f^i ← P_F(α^i)(−Mq̇ᴾ − Nα^i), warm-started from f^{i−1}.
		copy(g, x)
		var fdl time.Time
		if !deadline.IsZero() {
			fdl = deadline.Add(-2 * lastContact)
		}
		sweeps, cut := s.projectFriction(g, ft, s.opts.FrictionMaxSweeps, fdl)
		s.st.FrictionSweeps += sweeps
		s.st.Iterations = i
		if cut {
			// The budget ran out inside the friction projection: g is not an iterate of the map,
			// and projecting contact for it would cost a full projection more. Keep the best
			// iterate so far; in the first subsequence that is the warm start f⁰, whose α was
			// just projected exactly.
			if s.st.BestIter == 0 {
				copy(s.fBest, x)
				copy(s.alphaBest, s.alpha)
			}
			s.st.BudgetHit = true
			break
		}
		res, rr, xx, rmax, rel := s.measure(x, g, ftol)
		relErr = rel
		if !isFinite(res) || !isFinite(rr) {
			break // numeric failure: keep the best iterate
		}
		converged := relErr <= s.opts.Epsilon
		if converged && ft > ftol {
			// Met ε with a loose friction projection: finish that projection to full accuracy
			// and measure again; from here on every projection is full-accuracy.
			tight = true
			sweeps, _ = s.projectFriction(g, ftol, s.opts.FrictionMaxSweeps, fdl)
			s.st.FrictionSweeps += sweeps
			res, rr, xx, rmax, relErr = s.measure(x, g, ftol)
			if !isFinite(res) || !isFinite(rr) {
				break
			}
			// Accept at once only a fixed point to working accuracy (as a converged warm start
			// is); otherwise run on with full-accuracy projections, which the stopping test
			// then certifies.
			converged = rmax <= ftol
		}
		loose = min(loose, forcing*rmax)
		if relErr <= tightenAt*s.opts.Epsilon {
			tight = true // near the fixed point: full-accuracy projections from here
		}
		if polishing && relErr > polishRel {
			// The candidate was no better: keep the iterate that met ε before it.
			s.st.Converged = true
			s.st.JointAccepted = jointBefore
			relErr = polishRel
			break
		}
		if sharpening && converged && !(relErr < sharpenRel) {
			// Met ε again but no sharper: keep the iterate that met ε before this one.
			s.st.Converged = true
			relErr = sharpenRel
			break
		}
		// While sharpening, the kept iterate is the last one that met ε: an iterate that misses
		// it (Anderson's steps are not monotone) does not replace it, whatever its residual.
		if res < minRes && !sharpening || converged {
			minRes = res
			copy(s.fBest, g)
			copy(s.alphaBest, s.alpha)
			s.st.BestIter = i
			// α^i was projected for x; it is also the exact projection for g when g = x or when the
			// LCP still holds at (α^i, g) — then the final projection is skipped, which matters
			// with redundant contacts, whose α it could redistribute under a fixed friction.
			s.bestExact = contactOK && (bitsEqual(g, x) || s.contactError(s.v) <= s.opts.ContactTol*s.scale)
			s.st.Residual = res
		}
		if converged && !polishing && relErr > 0 && joint && i < s.opts.MaxIters && s.jointStick(g, x) {
			// Met ε but not exactly: the joint sticking candidate is the exact fixed point if the
			// sets are right; one more subsequence certifies it (or the kept iterate stands).
			polishing, polishRel, jointBefore = true, relErr, s.st.JointAccepted
			s.st.JointAccepted = true
			s.aa.reset(s.opts.Anderson, 2*m, op.ndof)
			continue
		}
		if converged && s.opts.Sharpen && relErr > 0 && relErr < sharpenRel && i < s.opts.MaxIters && s.allSliding(g) {
			// Met ε with every loaded contact sliding: run on while rel_err keeps falling (Options.Sharpen).
			sharpening, sharpenRel = true, relErr
			converged = false
		}
		if converged {
			s.st.Converged = true
			break
		}
		if i == s.opts.MaxIters {
			break
		}
		if s.aa.next(x, g, rr) {
			s.st.AndersonResets++
		}
		if i == 1 && joint && s.jointStick(g, x) {
			// A feasible joint sticking candidate replaces the next iterate; the mixing history
			// no longer describes the sequence.
			s.st.JointAccepted = true
			s.aa.reset(s.opts.Anderson, 2*m, op.ndof)
		} else if i == 1 && relErr > zeroProbe && xx > 0 && s.opts.Anderson > 0 {
			// The warm start looks poor (typically: last step's friction opposed motion that has
			// since stopped). Evaluate the map at f = 0 next, so that the accelerated sequence can
			// mix the warm and the cold start.
			clear(x)
		}
		lastIter = time.Since(itStart)
		if !deadline.IsZero() && time.Now().Add(lastIter+lastContact).After(deadline) {
			s.st.BudgetHit = true
			break
		}
	}
	if sharpening && !s.st.Converged {
		// Stopped (MaxIters, time budget, numeric failure) while sharpening: the kept iterate
		// met ε.
		s.st.Converged = true
		relErr = sharpenRel
	}
	s.st.RelErr = relErr
	// Lines 15–17: f^{t+1} ← f*, α^{t+1} ← P_C(−Mq̇ᴾ − f^{t+1}), warm from the kept α.
	if s.st.BestIter > 0 && s.bestExact {
		// The kept friction impulse is bit-identical to the one its α was projected with: that α
		// is already the exact P_C of it.
		copy(s.f, s.fBest)
		copy(s.alpha, s.alphaBest)
		return
	}
	copy(s.f, s.fBest)
	copy(s.alpha, s.alphaBest)
	s.warmContact = true
	finalStart := time.Now()
	s.projectContact(s.f)
	switch {
	case !s.st.Converged:
		s.st.Repairs = s.makeDissipative(deadline, time.Since(finalStart))
	case s.opts.Settle && s.frictionDoesWork():
		// Met ε, but the final projection moved α and friction now pushes along some slips.
		s.settleFriction(s.opts.FrictionTol * s.scale)
	}
	s.warmContact = false
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

// measure returns, for the map's input x and output g = P_F(α)(…) with s.v at (α, g), the residual
// of eq. 29, the kinetic norms ‖D(g−x)‖² and ‖Dx‖² and the largest velocity change (residualNorms),
// and rel_err of eq. 28. An update that moves no velocity by more than ftol, the friction
// projection's own tolerance, is a fixed point to working accuracy: rel_err 0 (this also makes
// f = 0 ⇒ f = 0 exact, where eq. 28 is 0/0).
func (s *Solver) measure(x, g []float64, ftol float64) (res, rr, xx, rmax, relErr float64) {
	op := &s.op
	// Line 8: residual, eq. 29, at α^i and f^i (s.v = q̇ᴾ + M⁻¹(Nα^i + Df^i)).
	for k := 0; k < op.m; k++ {
		if a := s.alpha[k]; a != 0 {
			res += math.Abs(a * (op.rowDot(k, 0, s.v) + op.bEff[k]))
		}
	}
	// Line 7: rel_err, eq. 28, in the kinetic metric M⁻¹ on generalized impulses.
	rr, xx, rmax = s.residualNorms(x, g)
	switch {
	case rmax <= ftol, xx <= 0 && rr == 0:
		relErr = 0
	case xx > 0:
		relErr = rr / xx
	default:
		relErr = math.Inf(1)
	}
	return res, rr, xx, rmax, relErr
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
		if s.sticks(k, f[2*k], f[2*k+1]) {
			return false
		}
	}
	return true
}
