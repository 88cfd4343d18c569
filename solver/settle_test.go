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
