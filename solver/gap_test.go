package solver

import (
	"math"
	"testing"
	"time"
)

// contactSlips returns each contact's tangential velocity (t̂₁, t̂₂ components) at the answer's
// velocity, as the independent checker recomputes it from the Problem.
func contactSlips(p *Problem, alpha, f []float64) [][2]float64 {
	c := newChecker(p, CheckSpec{Friction: Disc}, alpha, f, nil)
	s := make([][2]float64, p.NumContacts())
	for k := range s {
		s[k][0], _ = c.rowVec(k, 1, c.v)
		s[k][1], _ = c.rowVec(k, 2, c.v)
	}
	return s
}

// frictionFigures recomputes through the independent checker the dissipation gap
// Σ_k f_kᵀs_k + μ_kα_k‖s_k‖ of the answer (alpha, f) at its own velocity, and ½‖Df‖² in the
// kinetic metric, ½ fᵀT(M⁻¹Df), M⁻¹Df being the velocity f alone adds to q̇ᴾ.
func frictionFigures(p *Problem, alpha, f []float64) (dual, kinetic float64) {
	withF := newChecker(p, CheckSpec{Friction: Disc}, make([]float64, len(alpha)), f, nil)
	for k := 0; k < p.NumContacts(); k++ {
		for row := 1; row <= 2; row++ {
			after, _ := withF.rowVec(k, row, withF.v)
			before, _ := withF.rowVec(k, row, p.QdotP)
			kinetic += 0.5 * f[2*k+row-1] * (after - before)
		}
	}
	for k, s := range contactSlips(p, alpha, f) {
		dual += f[2*k]*s[0] + f[2*k+1]*s[1] + p.Contact(k).Mu*alpha[k]*math.Hypot(s[0], s[1])
	}
	return dual, kinetic
}

// An island of the moving pile (testdata/pile_islands.json: 75 contacts among boxes, capsules and
// hulls), projected cold: its redundant sticking corner contacts make the projection stall short
// of FrictionTol. With FrictionGap the projection must stop far sooner, feasible, with a
// dissipation gap, recomputed independently from the Problem, within FrictionGap·½‖Df‖²; and the
// paper's velocity test alone must indeed have run on much longer.
func TestFrictionGapStopsStalledProjection(t *testing.T) {
	var p Problem
	readIslands(t, "testdata/pile_islands.json")[1].build(&p)
	const gap = 1e-4
	sweeps := map[float64]int{}
	for _, g := range []float64{0, gap} {
		s := mustSolver(t, Options{Friction: Disc, FrictionGap: g})
		s.prepare(&p)
		s.projectContact(s.f, false)
		s.projectFriction(s.f, s.opts.FrictionTol*s.op.scale, g, time.Time{})
		sweeps[g] = s.st.FrictionSweeps
		if g == 0 {
			continue
		}
		rep := CheckFriction(&p, CheckSpec{Friction: Disc}, s.alpha, s.f, nil)
		if rep.FrictionFeasibility > 1e-12 {
			t.Errorf("friction infeasible: %v", rep)
		}
		dual, kinetic := frictionFigures(&p, s.alpha, s.f)
		if !(kinetic > 0) || dual > gap*kinetic*(1+1e-6) {
			t.Errorf("dissipation gap %.3g J, want ≤ %.0e·½‖Df‖² = %.3g J", dual, gap, gap*kinetic)
		}
	}
	t.Logf("friction sweeps: %d to FrictionTol alone, %d with FrictionGap %g", sweeps[0], sweeps[gap], gap)
	if sweeps[gap]*4 > sweeps[0] {
		t.Errorf("FrictionGap stopped after %d sweeps, the velocity test alone after %d: want at least 4× fewer", sweeps[gap], sweeps[0])
	}
}
