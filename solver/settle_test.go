package solver

import (
	"math"
	"testing"
)

// frictionPush returns Σ_k max(0, f_kᵀs_k) for an answer: the power with which friction pushes
// along its contacts' tangential velocity s_k at q̇ᵗ⁺¹, computed from the problem's rows.
func frictionPush(p *Problem, res *Result) float64 {
	push := 0.0
	for k := 0; k < p.NumContacts(); k++ {
		c := p.Contact(k)
		s1, s2 := 0.0, 0.0
		for side, body := range [2]int{c.BodyA, c.BodyB} {
			if body < 0 {
				continue
			}
			bl := p.BlockAt(body)
			rows := p.RowsA(k)
			if side == 1 {
				rows = p.RowsB(k)
			}
			n := bl.Size
			for i := 0; i < n; i++ {
				s1 += rows[n+i] * res.Qdot[bl.Offset+i]
				s2 += rows[2*n+i] * res.Qdot[bl.Offset+i]
			}
		}
		push += math.Max(0, res.Friction[2*k]*s1+res.Friction[2*k+1]*s2)
	}
	return push
}

// Settling an ε-converged answer whose final contact projection moved α lowers the power with
// which its friction pushes along the slip (the source of the energy a forming pile gained), and
// keeps the answer contact-exact. The repair is run on the converged answers directly: their steps
// pass the energy certificate, so Solve does not settle them (TestSettleSkipsCertifiedAnswers).
func TestSettleStopsFrictionPushing(t *testing.T) {
	for _, sc := range settleScenes {
		var p Problem
		sc.gen(&p)
		s := mustSolver(t, Options{Friction: Disc})
		var res Result
		if err := s.Solve(&p, &res); err != nil {
			t.Fatal(err)
		}
		before := frictionPush(&p, &res)
		s.settleFriction(s.opts.FrictionTol * s.op.scale)
		s.op.velocity(s.alpha, s.f, s.v)
		settled := Result{Alpha: s.alpha, Friction: s.f, Qdot: s.v}
		after := frictionPush(&p, &settled)
		if rep := CheckContact(&p, settled.Alpha, settled.Friction, settled.Qdot); rep.Worst > 1e-9*res.Stats.Scale {
			t.Errorf("%s settled: not contact-exact: %v", sc.name, rep)
		}
		if !(before > 0) || after > 0.7*before {
			t.Errorf("%s: friction push %.3g settled, %.3g as converged: want a clear drop", sc.name, after, before)
		}
	}
}

// settleScenes are islands whose ε-converged answer leaves friction pushing along the slip.
var settleScenes = []struct {
	name string
	gen  func(*Problem)
}{
	{"tower40-sliding", func(p *Problem) { genTower(p, 40, true, 1) }},
	{"pyramid6-sliding", func(p *Problem) { genPyramid(p, 6, true, 1) }},
}

// An ε-converged answer whose friction pushes along its slip but whose step gains no energy, by
// the step's change of energy computed from its definition (stepEnergyChange), is returned as the
// loop left it: with Settle on, the answer and its contact CG iterations are those of the solve
// without it (settling would cost exact contact projections for nothing).
func TestSettleSkipsCertifiedAnswers(t *testing.T) {
	for _, sc := range settleScenes {
		var res [2]Result
		var p Problem
		sc.gen(&p)
		for i, settle := range []bool{false, true} {
			if err := mustSolver(t, Options{Friction: Disc, Settle: settle}).Solve(&p, &res[i]); err != nil {
				t.Fatal(err)
			}
		}
		change, designed := stepEnergyChange(t, &p, res[1].Alpha, res[1].Qdot)
		if change-designed > 1e-9 {
			t.Fatalf("%s: the step gains %.3g J (%.3g J put in by the biases): settling was due", sc.name, change, designed)
		}
		if !(frictionPush(&p, &res[1]) > 0) {
			t.Fatalf("%s: friction does not push along the slip: the test needs an answer that settling would move", sc.name)
		}
		if res[1].Stats.ContactCG != res[0].Stats.ContactCG || !bitsEqual(res[1].Friction, res[0].Friction) || !bitsEqual(res[1].Alpha, res[0].Alpha) {
			t.Errorf("%s: settled although the step gains no energy (contact CG %d, %d without Settle)", sc.name, res[1].Stats.ContactCG, res[0].Stats.ContactCG)
		}
	}
}

// A soft block's island as the step built it while the block settles after landing
// (testdata/landing_block.json: 16 contacts on one 16-DoF body). Its loop meets ε after 7
// subsequences, and the final contact projection leaves friction pushing along the slip at some
// contacts; settling them and projecting again moved α so that other contacts pushed harder
// (7.3e-4 J of positive work against 7.7e-5 J before). Solved with the default options, the
// answer must be contact-exact and friction must push no harder than in the same solve without
// settling, both measured independently from the rows (frictionPush).
func TestSettleKeepsTheLessPushingAnswer(t *testing.T) {
	islands := readIslands(t, "testdata/landing_block.json")
	var p Problem
	islands[0].build(&p)
	plain := GameOptions()
	plain.Settle = false
	var without, with Result
	if err := mustSolver(t, plain).Solve(&p, &without); err != nil {
		t.Fatal(err)
	}
	if err := mustSolver(t, GameOptions()).Solve(&p, &with); err != nil {
		t.Fatal(err)
	}
	if !with.Stats.Converged || !with.Stats.ContactExact {
		t.Fatalf("converged %v, contact-exact %v", with.Stats.Converged, with.Stats.ContactExact)
	}
	rep := CheckContact(&p, with.Alpha, with.Friction, with.Qdot)
	if rep.ContactPrimal > 1e-9 || rep.Complementarity > 1e-9 || rep.VelocityMismatch > 1e-9 {
		t.Errorf("%v", rep)
	}
	if a, b := frictionPush(&p, &with), frictionPush(&p, &without); a > b {
		t.Errorf("friction pushes with %.3g J after settling, %.3g J without", a, b)
	}
}
