package solver

import (
	"encoding/json"
	"os"
	"testing"
)

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

// An island of the pile scene as its step built it (testdata/pile_island.json: 20 mixed bodies,
// 75 contacts), whose joint candidate spends most of its rounds scaling sliding contacts' held
// friction onto their shrinking sets: the rows stay the same and only the right-hand side moves,
// so each such round starts from the last fresh solve's search directions. Solved with the
// default options, the island must converge with the candidate accepted and its answer certified
// contact-exact by the independent checker, within 1,800 joint CG iterations (2,520 when every
// round started afresh).
func TestJointRecyclesDirections(t *testing.T) {
	raw, err := os.ReadFile("testdata/pile_island.json")
	if err != nil {
		t.Fatal(err)
	}
	var islands []capturedIsland
	if err := json.Unmarshal(raw, &islands); err != nil {
		t.Fatal(err)
	}
	s := mustSolver(t, GameOptions())
	var p Problem
	var res Result
	islands[0].build(&p)
	if err := s.Solve(&p, &res); err != nil {
		t.Fatal(err)
	}
	st := res.Stats
	if !st.Converged || !st.ContactExact || !st.JointAccepted {
		t.Errorf("converged %v, contact-exact %v, joint candidate accepted %v", st.Converged, st.ContactExact, st.JointAccepted)
	}
	rep := CheckContact(&p, res.Alpha, res.Friction, res.Qdot)
	if rep.ContactPrimal > 1e-9 || rep.Complementarity > 1e-9 || rep.VelocityMismatch > 1e-9 {
		t.Errorf("%v", rep)
	}
	if st.JointCG > 1800 {
		t.Errorf("the joint candidate took %d CG iterations, want ≤ 1800", st.JointCG)
	}
}
