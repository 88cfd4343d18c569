package solver

import "testing"

// The joint sticking solve is skipped where the coupling it exists for is absent: in a pile of
// spheres every contact normal passes through both centres of mass, so no normal impulse turns a
// body, and the pipeline's options solve a cold pile without a joint CG iteration (with it, about
// 9,000 were spent for the same 160 subsequences) and meet ε with an exact contact projection. A
// sliding pyramid of boxes, whose corner contacts couple, still tries it (the control: the test
// sees the mechanism).
func TestJointSkipsUncoupledContacts(t *testing.T) {
	o := GameOptions()
	o.MaxIters = 300 // a cold sphere pile needs about 160 subsequences
	for _, c := range []struct {
		name    string
		build   func(p *Problem)
		coupled bool
	}{
		{"sphere pile", func(p *Problem) { genSpherePile(p, 6, false, 1) }, false},
		{"sliding sphere pile", func(p *Problem) { genSpherePile(p, 6, true, 2) }, false},
		{"sliding box pyramid", func(p *Problem) { genPyramid(p, 6, true, 1) }, true},
	} {
		var p Problem
		c.build(&p)
		res := solveContactExact(t, c.name, &p, o)
		st := res.Stats
		if !st.Converged {
			t.Errorf("%s: not converged (%d iterations, rel_err %.3g)", c.name, st.Iterations, st.RelErr)
			continue
		}
		if tried := st.JointCG > 0; tried != c.coupled {
			t.Errorf("%s: joint CG iterations %d; want the joint solve tried: %v", c.name, st.JointCG, c.coupled)
		}
	}
}

// rowsCoupled on hand-made Delassus blocks: a sphere on a plane (diagonal) and a box corner whose
// normal impulse turns the box (off-diagonal n–t entries).
func TestRowsCoupled(t *testing.T) {
	sphere := []float64{1, 0, 0, 3.5, 0, 3.5}
	corner := []float64{4, 1.5, -0.5, 4, 0.2, 3}
	rounding := []float64{1, 1e-12, 0, 3.5, 0, 3.5}
	if rowsCoupled(sphere) || rowsCoupled(rounding) {
		t.Errorf("a sphere's block counts as coupled")
	}
	if !rowsCoupled(corner) {
		t.Errorf("a box corner's block counts as uncoupled")
	}
}

// The jelly scene's captured islands (testdata/jelly_islands.json, as in
// TestFrictionNewtonOnJellyIslands): on three of them — soft blocks with few sticking contacts
// among many sliding ones — the joint candidate's active-set corrections cycle, releasing a
// contact they had re-admitted, until the round bound, and the candidate is infeasible anyway
// (245 CG iterations spent for nothing on the single block, 868 and 605 on the stacked pairs). The
// candidate gives up at the first such cycle: at most 300 joint CG iterations on each island, and
// the fourth, a rigid box whose candidate is feasible, still has it accepted.
func TestJointGivesUpOnCyclingSets(t *testing.T) {
	islands := readIslands(t, "testdata/jelly_islands.json")
	s := mustSolver(t, GameOptions())
	for _, ci := range islands {
		var p Problem
		var res Result
		ci.build(&p)
		if err := s.Solve(&p, &res); err != nil {
			t.Fatalf("step %d: %v", ci.Step, err)
		}
		st := res.Stats
		if !st.Converged || !st.ContactExact {
			t.Errorf("step %d: converged %v, contact-exact %v", ci.Step, st.Converged, st.ContactExact)
		}
		if st.JointCG > 300 {
			t.Errorf("step %d: %d joint CG iterations, want ≤ 300", ci.Step, st.JointCG)
		}
		if ci.Step == 699 && !st.JointAccepted {
			t.Errorf("step 699: the rigid box's joint candidate was not accepted")
		}
	}
}
