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
// keeps the answer contact-exact.
func TestSettleStopsFrictionPushing(t *testing.T) {
	for _, sc := range []struct {
		name string
		gen  func(*Problem)
	}{
		{"tower40-sliding", func(p *Problem) { genTower(p, 40, true, 1) }},
		{"pyramid6-sliding", func(p *Problem) { genPyramid(p, 6, true, 1) }},
	} {
		var push [2]float64
		for i, settle := range []bool{false, true} {
			var p Problem
			sc.gen(&p)
			s := mustSolver(t, Options{Friction: Disc, Settle: settle})
			var res Result
			if err := s.Solve(&p, &res); err != nil {
				t.Fatal(err)
			}
			push[i] = frictionPush(&p, &res)
			if rep := CheckContact(&p, res.Alpha, res.Friction, res.Qdot); rep.Worst > 1e-9*res.Stats.Scale || !res.Stats.ContactExact {
				t.Errorf("%s settle %v: not contact-exact: %v", sc.name, settle, rep)
			}
		}
		if !(push[0] > 0) || push[1] > 0.7*push[0] {
			t.Errorf("%s: friction push %.3g settled, %.3g as converged: want a clear drop", sc.name, push[1], push[0])
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
