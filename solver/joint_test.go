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
