package solver

import (
	"math"
	"time"
)

// Graceful degradation that cannot add energy. When the staggered loop stops before its fixed
// point, Algorithm 1 (line 16) still ends with an exact contact projection, but the kept friction
// impulse was projected for another α: after the final P_C some f_k may lie outside μ_kα_kK, or
// push along the contact's new tangential velocity. The impulse P = Nα + Df changes the kinetic
// energy by
//
//	ΔKE = Pᵀq̇ᵗ⁺¹ − ½(q̇ᵗ⁺¹ − q̇ᴾ)ᵀM(q̇ᵗ⁺¹ − q̇ᴾ) ≤ αᵀNᵀq̇ᵗ⁺¹ + Σ_k f_kᵀs_k = −αᵀb + Σ_k f_kᵀs_k,
//
// using complementarity of the exact P_C (s_k is contact k's tangential velocity after the step;
// restitution and a kinematic side's tangential velocity Contact.BT aside: a moving platform may
// well speed up what rests on it). With b ≥ 0 (touching or speculative contacts) the step therefore
// cannot gain energy when every f_k is feasible and does no positive work, f_kᵀs_k ≤ 0: the two
// conditions the maximal dissipation principle (eq. 18) guarantees at the fixed point.

// On an island of rigid bodies the step's change of energy can be measured directly (the energy
// certificate, energy.go), and it is measured instead of imposed: dropping every offending impulse
// can leave a large moving pile without friction for the step (on a 3,400-contact pile of spheres
// cut short at MaxIters, the first round dropped half the friction, each contact projection made
// new offenders, and after four rounds all friction went), so that it flows instead of settling
// and every later step is cut short in turn. There the repair only scales infeasible impulses
// back onto their set, and keeps the answer when the step gains no energy (repairUnconverged).

// dissipateRounds bounds the repair rounds; the last one drops every offending friction impulse.
const dissipateRounds = 4

// feasibleRounds bounds scaleOntoSet's rounds.
const feasibleRounds = 4

// repairUnconverged makes an unconverged answer safe to step with after its final contact
// projection, and reports the repair rounds run. On an island of rigid bodies it scales
// infeasible friction onto its set (scaleOntoSet) and keeps the result when that comes within ε of
// the set and the step gains no energy at all (the certificate's excess is at most zero: an answer
// that did not converge is not given a converged answer's energyTolerance); otherwise, and on
// islands with a reduced deformable, it makes the friction dissipative (makeDissipative).
func (s *Solver) repairUnconverged(p *Problem, deadline time.Time, lastContact time.Duration) int {
	rounds := 0
	if s.op.allRigid {
		var feasible bool
		rounds, feasible = s.scaleOntoSet(deadline, lastContact)
		if feasible {
			if excess, ok := s.energyExcess(p); ok && excess <= 0 {
				return rounds
			}
		}
	}
	return rounds + s.makeDissipative(deadline, lastContact)
}

// scaleOntoSet scales each friction impulse outside its set onto it (drops it where α_k = 0) and
// projects contact again, until the impulses lie within ε of their sets in sum,
//
//	Σ_k max(0, ‖f_k‖_K − μ_kα_k) ≤ ε Σ_k μ_kα_k,
//
// or feasibleRounds rounds have run. Each projection moves α again, and on a large moving pile the
// excess halves or so a round rather than vanishing, so the sum is held to the loop's accuracy
// (the answer is at least ε off anyway). It reports the rounds run and whether the friction ended
// within ε of its set; a round starts only while the deadline allows (roundFits).
func (s *Solver) scaleOntoSet(deadline time.Time, lastContact time.Duration) (int, bool) {
	op := &s.op
	for rounds := 0; ; rounds++ {
		excess, bound := 0.0, 0.0
		for k := 0; k < op.m; k++ {
			rad := op.mu[k] * s.alpha[k]
			bound += rad
			excess += max(0, s.set.gauge(s.f[2*k], s.f[2*k+1])-rad)
		}
		if excess <= s.opts.Epsilon*bound {
			return rounds, true
		}
		if rounds == feasibleRounds || !roundFits(deadline, lastContact) {
			return rounds, false
		}
		for k := 0; k < op.m; k++ {
			f1, f2 := s.f[2*k], s.f[2*k+1]
			rad, g := op.mu[k]*s.alpha[k], s.set.gauge(f1, f2)
			switch {
			case g <= rad:
			case rad > 0:
				s.f[2*k], s.f[2*k+1] = f1*rad/g, f2*rad/g
			default:
				s.f[2*k], s.f[2*k+1] = 0, 0
			}
		}
		s.projectContact(s.f, true)
	}
}

// roundFits reports whether a repair round, a contact projection taking as long as lastContact,
// still fits before the deadline (always without one).
func roundFits(deadline time.Time, lastContact time.Duration) bool {
	return deadline.IsZero() || !time.Now().Add(lastContact).After(deadline)
}

// makeDissipative repairs s.f after the final contact projection: offending friction impulses are
// scaled onto their set (infeasible) or dropped (positive work), and the contact projection is
// redone with the repaired impulse, until no contact offends. It reports the repair rounds run.
// Dropped friction stays dropped for the step: a step that did not converge slides a little more
// rather than gain energy.
//
// With a deadline (TimeBudget), a round starts only if a contact projection taking as long as
// lastContact still fits: the answer then stays contact-exact and keeps the friction it has,
// at worst the best iterate unrepaired (paper §7).
func (s *Solver) makeDissipative(deadline time.Time, lastContact time.Duration) int {
	op := &s.op
	rounds := 0
	for ; rounds < dissipateRounds; rounds++ {
		if !roundFits(deadline, lastContact) {
			return rounds
		}
		op.velocity(s.alpha, s.f, s.v)
		changed := false
		for k := 0; k < op.m; k++ {
			f1, f2 := s.f[2*k], s.f[2*k+1]
			if f1 == 0 && f2 == 0 {
				continue
			}
			rad := op.mu[k] * s.alpha[k]
			s1, s2 := op.slip(k, s.v)
			switch {
			case f1*s1+f2*s2 > 0 || !(rad > 0) || rounds == dissipateRounds-1 && s.set.gauge(f1, f2) > rad:
				s.f[2*k], s.f[2*k+1] = 0, 0
				changed = true
			case s.set.gauge(f1, f2) > rad:
				sc := rad / s.set.gauge(f1, f2)
				s.f[2*k], s.f[2*k+1] = f1*sc, f2*sc
				changed = true
			}
		}
		if !changed {
			return rounds
		}
		s.projectContact(s.f, true)
	}
	// The last round dropped every offender; its contact projection may have left new ones (α
	// shrank again): drop all friction that still offends and project once more. Friction left
	// on is feasible and dissipative at this velocity or zero.
	if !roundFits(deadline, lastContact) {
		return rounds
	}
	op.velocity(s.alpha, s.f, s.v)
	for k := 0; k < op.m; k++ {
		s1, s2 := op.slip(k, s.v)
		if f1, f2 := s.f[2*k], s.f[2*k+1]; f1*s1+f2*s2 > 0 || s.set.gauge(f1, f2) > op.mu[k]*s.alpha[k] {
			clear(s.f)
			s.projectContact(s.f, true)
			break
		}
	}
	return rounds
}

// settleRounds bounds settleFriction's rounds.
const settleRounds = 4

// settleFriction repairs an answer that met ε but whose final contact projection moved α, so that
// some kept friction impulses now push along their contact's slip (f_kᵀs_k > slack·‖f_k‖) and the
// step could gain energy (a fraction ε of the friction's work, which on a large pile is
// millijoules). It re-solves those contacts' friction sub-problems for the current velocity (the
// maximal dissipation principle, eq. 18, holds for each after its update) and projects contact
// again, until none offends or settleRounds rounds have run; the answer stays contact-exact.
// Unlike makeDissipative it moves the answer towards the fixed point rather than dropping friction.
// Each projection moves α again, and the last one may leave friction pushing harder along the new
// slip than before the repair (a soft block landing: 7.3e-4 J of positive work after it, 7.7e-5 J
// before): the answer with the less positive work (positiveWork), the repaired one on a tie, is
// kept. finalProjection calls it on an island of rigid bodies only when the energy certificate
// fails: the positive work bounds the step's gain but rarely is one.
func (s *Solver) settleFriction(slack float64) {
	op := &s.op
	copy(s.alphaSettle, s.alpha)
	copy(s.fSettle, s.f)
	before := s.positiveWork()
	for round := 0; round < settleRounds; round++ {
		op.velocity(s.alpha, s.f, s.v)
		offends := false
		for k := 0; k < op.m; k++ {
			f1, f2 := s.f[2*k], s.f[2*k+1]
			if f1 == 0 && f2 == 0 {
				continue
			}
			s1, s2 := op.slip(k, s.v)
			if f1*s1+f2*s2 > slack*math.Hypot(f1, f2) {
				offends = true
				s.friction.settleContact(op, s.alpha, s.f, s.v, k)
			}
		}
		if !offends {
			return
		}
		s.projectContact(s.f, true)
	}
	if s.positiveWork() > before {
		copy(s.alpha, s.alphaSettle)
		copy(s.f, s.fSettle)
		op.velocity(s.alpha, s.f, s.v)
	}
}

// positiveWork returns Σ_k max(0, f_kᵀs_k), the work friction does along its contacts' slip at
// the current answer (s.alpha, s.f), with s.v set to its velocity.
func (s *Solver) positiveWork() float64 {
	op := &s.op
	op.velocity(s.alpha, s.f, s.v)
	pos := 0.0
	for k := 0; k < op.m; k++ {
		f1, f2 := s.f[2*k], s.f[2*k+1]
		if f1 == 0 && f2 == 0 {
			continue
		}
		u1, u2 := op.slip(k, s.v)
		pos += max(0, f1*u1+f2*u2)
	}
	return pos
}

// frictionWork measures how far, at the current answer (s.alpha, s.f), friction pushes along its
// contacts' slip: Σ_k max(0, f_kᵀD_kᵀq̇) / (scale·Σ_k ‖f_k‖), a velocity relative to the problem's
// scale (0 without friction). At a fixed point of eq. 26 each term is ≤ 0 (maximal dissipation).
func (s *Solver) frictionWork() float64 {
	pos := s.positiveWork()
	if pos == 0 {
		return 0
	}
	mag := 0.0
	for k := 0; k < s.op.m; k++ {
		mag += math.Hypot(s.f[2*k], s.f[2*k+1])
	}
	return pos / (s.op.scale * mag)
}

// frictionDoesWork reports whether friction pushes along its contacts' slip by more than the
// friction tolerance (frictionWork > FrictionTol).
func (s *Solver) frictionDoesWork() bool { return s.frictionWork() > s.opts.FrictionTol }
