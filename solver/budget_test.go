package solver

import (
	"math"
	"testing"
)

// Under WorkBudget the staggered loop on the sliding 40-box tower (whose joint sticking solve alone
// runs thousands of CG iterations a step) stops early, deterministically, and the answer is still
// graceful: contact-exact by the independent checker, its friction feasible and doing no positive
// work at the answer's own velocity (recomputed from the Problem), so the step cannot gain energy.
func TestWorkBudgetStopsGracefully(t *testing.T) {
	var p Problem
	genTower(&p, 40, true, 1)
	free := mustSolver(t, GameOptions())
	var ref Result
	if err := free.Solve(&p, &ref); err != nil {
		t.Fatal(err)
	}
	o := GameOptions()
	o.WorkBudget = 20000
	var res [2]Result
	for i := range res {
		if err := mustSolver(t, o).Solve(&p, &res[i]); err != nil {
			t.Fatal(err)
		}
	}
	st := res[0].Stats
	if !st.WorkHit || st.Work*5 > ref.Stats.Work {
		t.Errorf("work %d (hit %v) under a budget of %d; %d without: want the budget to stop the loop", st.Work, st.WorkHit, o.WorkBudget, ref.Stats.Work)
	}
	if !bitsEqual(res[0].Qdot, res[1].Qdot) || !bitsEqual(res[0].Friction, res[1].Friction) {
		t.Error("two solves under the same work budget differ")
	}
	if rep := CheckContact(&p, res[0].Alpha, res[0].Friction, res[0].Qdot); rep.Worst > 1e-9*st.Scale {
		t.Errorf("not contact-exact: %v", rep)
	}
	rep := CheckFriction(&p, CheckSpec{Friction: Disc}, res[0].Alpha, res[0].Friction, nil)
	if rep.FrictionFeasibility > 1e-12 {
		t.Errorf("friction infeasible: %v", rep)
	}
	slips := contactSlips(&p, res[0].Alpha, res[0].Friction)
	for k, s := range slips {
		f1, f2 := res[0].Friction[2*k], res[0].Friction[2*k+1]
		if w := f1*s[0] + f2*s[1]; w > 1e-12*math.Hypot(f1, f2) {
			t.Errorf("contact %d: friction does positive work %.3g", k, w)
		}
	}
}
