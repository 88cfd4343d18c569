package solver

import "testing"

// An island of the card house as the falling blocks strike it (testdata/
// struck_card_house_circling.json: 102 contacts, impact scene seed 1, step 104), whose staggered
// iterates circle 10²–10³·ε away from a fixed point. (Its iterates with inexact contact
// projections meet ε at the 13th subsequence, but the exact map, finishing that iterate, measures
// rel_err 2e-2: the answer must not be taken from the inexact iterates, and the stall count starts
// again there.) With MaxIters 100, as the runner solves, the game's options (without their work
// budget, which would stop it sooner) must stop it early,
// StallIters subsequences after its smallest rel_err of the exact map,
// reporting Stalled, with an answer that is contact-exact (CheckContact), whose friction is
// feasible and does no work along the slip (the repair of an unconverged answer), and whose step
// gains no energy beyond what the contacts' biases put in (stepEnergyChange). The control:
// without the bound the loop runs all 100 subsequences and does not converge either.
//
// The presolve is off here: from its warm start the loop meets ε (TestPresolveSettlesTheCirclingIsland).
func TestStalledLoopStopsWithADissipativeAnswer(t *testing.T) {
	o := unboundedGameOptions()
	o.MaxIters = 100
	o.Presolve = 0
	p, res := solveCapturedExact(t, "testdata/struck_card_house_circling.json", o)
	st := res.Stats
	if !st.Stalled || st.Converged || st.Iterations >= o.MaxIters {
		t.Fatalf("stalled %v, converged %v after %d subsequences: want a stall before %d", st.Stalled, st.Converged, st.Iterations, o.MaxIters)
	}
	if fr := CheckFriction(p, CheckSpec{Friction: Disc}, res.Alpha, res.Friction, res.Qdot); fr.FrictionFeasibility > 1e-12 {
		t.Errorf("friction outside its discs: %v", fr)
	}
	if push := frictionPush(p, res); push > 0 {
		t.Errorf("friction pushes along the slip with %.3g J", push)
	}
	if change, designed := stepEnergyChange(t, p, res.Alpha, res.Qdot); change > designed+1e-9 {
		t.Errorf("the step gains %.3g J, more than the biases' %.3g J", change, designed)
	}

	o.StallIters = 0
	if err := mustSolver(t, o).Solve(p, res); err != nil {
		t.Fatal(err)
	}
	if st := res.Stats; st.Stalled || st.Converged || st.Iterations != o.MaxIters {
		t.Errorf("without StallIters: stalled %v, converged %v after %d subsequences; want %d, unconverged",
			st.Stalled, st.Converged, st.Iterations, o.MaxIters)
	}
}
