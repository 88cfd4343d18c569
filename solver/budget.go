package solver

import "math"

// The work budget (Options.WorkBudget): a deterministic bound on one Solve's work, counted in
// contact updates. Every pass over the island — a Gauss–Seidel sweep or a conjugate-gradient
// iteration of the contact projection, the friction projection or the joint sticking solve —
// costs about the same per contact, so a pass on an island of m contacts counts m. A pivot of the
// pivoting reference updates every contact's velocity too, and counts as a pass.

// minFrictionPasses is the least a friction projection is given when the budget is nearly spent:
// a few sweeps still turn the contact projection's α into a feasible, partly optimal friction
// impulse, which the final repair then keeps from adding energy.
const minFrictionPasses = 4

// workDone is the solve's work so far, in contact updates.
func (s *Solver) workDone() int {
	st := &s.st
	passes := st.ContactSweeps + st.ContactCG + st.ContactPivots + st.FrictionSweeps + st.FrictionCG + st.JointCG + st.PresolveSweeps
	return s.workBefore + passes*s.op.m + s.factorWork
}

// budgeted reports whether the work budget bounds this solve: there is one, the solve has a warm
// start, and its contact projections are not the interior point's, whose repairs after a cut
// cost more than the loop would have (docs/decisions.md). A cold solve (a structure's first step, or physics Config.ColdStart) is not bounded:
// cut short at 500,000 contact updates, the first solve of the resting 30-box pyramid of `make
// validate` left friction that moved it 6 mm and put 4 mJ into it, where the solves after it,
// warm-started, need 1,600 a step.
func (s *Solver) budgeted() bool {
	return s.opts.WorkBudget > 0 && s.hasWarm && !s.contact.interiorActive
}

// workSpent reports whether the work budget (if it bounds the solve) is spent.
func (s *Solver) workSpent() bool {
	return s.budgeted() && s.workDone() >= s.opts.WorkBudget
}

// passesLeft is what is left of the work budget in passes over the island, at least least;
// math.MaxInt without a budget.
func (s *Solver) passesLeft(least int) int {
	if !s.budgeted() || s.op.m == 0 {
		return math.MaxInt
	}
	return max(least, (s.opts.WorkBudget-s.workDone())/s.op.m)
}
