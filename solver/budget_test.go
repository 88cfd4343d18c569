package solver

import (
	"testing"
)

// Under WorkBudget the staggered loop on the sliding 40-box tower (whose joint sticking solve alone
// runs thousands of CG iterations a step) stops early, deterministically, and the answer is still
// graceful: contact-exact by the independent checker, its friction within ε of its discs in sum
// (coulombExcess), and its step gaining no energy by the change computed from its definition
// (stepEnergyChange).
func TestWorkBudgetStopsGracefully(t *testing.T) {
	var p Problem
	genTower(&p, 40, true, 1)
	// The budget bounds warm-started solves: start from one subsequence's answer.
	var first Result
	o1 := unboundedGameOptions()
	o1.MaxIters = 1
	if err := mustSolver(t, o1).Solve(&p, &first); err != nil {
		t.Fatal(err)
	}
	warmFrom(&p, &first)
	free := mustSolver(t, unboundedGameOptions())
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
	if excess, bound := coulombExcess(&p, res[0].Alpha, res[0].Friction); excess > defaultEpsilon*bound {
		t.Errorf("friction outside its discs by %.3g in sum, ε of Σ μα is %.3g", excess, defaultEpsilon*bound)
	}
	if change, designed := stepEnergyChange(t, &p, res[0].Alpha, res[0].Qdot); change-designed > 1e-9 {
		t.Errorf("the step gains %.3g J (%.3g J put in by the biases)", change, designed)
	}
}
