package solver

import (
	"errors"
	"math"
	"strings"
	"testing"
	"time"
)

// Warm-starting with a converged answer returns in one iteration (paper §6.4).
func TestWarmStartConvergedOneIteration(t *testing.T) {
	for _, md := range models {
		for _, tc := range []struct {
			name  string
			build func(p *Problem)
		}{
			{"tower40-sliding", func(p *Problem) { genTower(p, 40, true, 3) }},
			{"pyramid6-sliding", func(p *Problem) { genPyramid(p, 6, true, 3) }},
			{"random", func(p *Problem) { randomProblem(p, newRand(5), []int{6, 9}, 30, 120) }},
		} {
			var p Problem
			tc.build(&p)
			o := md.opts
			o.Epsilon, o.FrictionTol = 1e-8, 0
			s := mustSolver(t, o)
			var res Result
			if err := s.Solve(&p, &res); err != nil {
				t.Fatal(err)
			}
			if !res.Stats.Converged {
				t.Fatalf("%s %s: cold solve did not converge: %+v", md.name, tc.name, res.Stats)
			}
			warmFrom(&p, &res)
			o.Epsilon = 1e-4
			s = mustSolver(t, o)
			if err := s.Solve(&p, &res); err != nil {
				t.Fatal(err)
			}
			if res.Stats.Iterations != 1 || !res.Stats.Converged || !res.Stats.ContactExact {
				t.Errorf("%s %s: warm (α and f) took %d iterations, converged %v", md.name, tc.name, res.Stats.Iterations, res.Stats.Converged)
			}
			// Friction impulse alone (the paper's warm start).
			for k := 0; k < p.NumContacts(); k++ {
				p.Contact(k).WarmNormal = 0
			}
			if err := s.Solve(&p, &res); err != nil {
				t.Fatal(err)
			}
			if res.Stats.Iterations != 1 || !res.Stats.Converged {
				t.Errorf("%s %s: warm (f only) took %d iterations, converged %v", md.name, tc.name, res.Stats.Iterations, res.Stats.Converged)
			}
		}
	}
}

// The staggered loop reaches ε = 1e-4 within 6.4 iterations per step on average when warm-started
// from the previous step (paper Table 1: 2.4–6.4), on the sliding tower, and within 12 in any
// step; contact-exact every step. (The island has 160 contacts, so its contact projections are
// inexact until an iterate meets ε; step 1 then takes 11 subsequences, one more than with exact
// ones, and the average is unchanged at 4.8.)
func TestSlidingTowerWarmSteps(t *testing.T) {
	for _, md := range models {
		var p Problem
		genTower(&p, 40, true, 1)
		o := md.opts
		o.Epsilon = 1e-4
		o.FrictionTol = 0
		o.MaxIters = 0
		s := mustSolver(t, o)
		var res Result
		total := 0
		for step := 0; step < 10; step++ {
			if err := s.Solve(&p, &res); err != nil {
				t.Fatal(err)
			}
			if !res.Stats.ContactExact {
				t.Fatalf("%s step %d: not contact-exact: %+v", md.name, step, res.Stats)
			}
			if step > 0 {
				total += res.Stats.Iterations
				if res.Stats.Iterations > 12 || !res.Stats.Converged {
					t.Errorf("%s step %d: %d iterations, converged %v, rel_err %.3g", md.name, step, res.Stats.Iterations, res.Stats.Converged, res.Stats.RelErr)
				}
			}
			nextStep(&p, &res)
		}
		if mean := float64(total) / 9; mean > 6.4 {
			t.Errorf("%s: %.1f iterations/step over 9 warm steps, want ≤ 6.4", md.name, mean)
		}
	}
}

func TestInputErrors(t *testing.T) {
	s := mustSolver(t, Options{})
	var res Result
	cases := []struct {
		name   string
		mutate func(p *Problem)
		want   string
	}{
		{"nan row", func(p *Problem) { p.RowsB(2)[3] = math.NaN() }, "contact 2: RowsB"},
		{"negative mu", func(p *Problem) { p.Contact(1).Mu = -0.1 }, "contact 1: Mu"},
		{"restitution", func(p *Problem) { p.Contact(3).E = 1.5 }, "contact 3: E"},
		{"inf gap", func(p *Problem) { p.Contact(0).B = math.Inf(1) }, "contact 0: B"},
		{"not spd", func(p *Problem) { p.InvMass(0)[0] = -1 }, "block 0: InvMass"},
		{"asymmetric", func(p *Problem) { p.InvMass(0)[1] = 0.5 }, "block 0: InvMass"},
		// Rigid-pattern blocks take a shorter path through the same checks.
		{"asymmetric angular", func(p *Problem) { p.InvMass(1)[23] += 0.5 }, "block 1: InvMass is not symmetric"},
		{"indefinite angular", func(p *Problem) {
			m := p.InvMass(1)
			m[22], m[27] = 10, 10 // |off-diagonal| above the diagonals' geometric mean
		}, "block 1: InvMass is not positive definite"},
		{"nan angular", func(p *Problem) { p.InvMass(2)[35] = math.NaN() }, "block 2: InvMass has a non-finite entry"},
		{"zero mass", func(p *Problem) { p.InvMass(0)[7] = 0 }, "block 0: InvMass is not positive definite"},
		{"nan velocity", func(p *Problem) { p.QdotP[7] = math.NaN() }, "block 1: QdotP"},
		{"both static", func(p *Problem) { p.Contact(0).BodyB = -1 }, "contact 0: BodyA"},
	}
	for _, c := range cases {
		var p Problem
		genTower(&p, 3, false, 1)
		c.mutate(&p)
		err := s.Solve(&p, &res)
		var ie *InputError
		if !errors.As(err, &ie) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want an InputError mentioning %q", c.name, err, c.want)
		}
	}
	var p Problem
	b := p.AddBlock(2)
	if err := p.SetMass(b, []float64{1, 2, 2, 1}); err == nil || !strings.Contains(err.Error(), "block 0: Mass") {
		t.Errorf("SetMass of an indefinite block: %v", err)
	}
	if _, err := NewSolver(Options{Method: "nope"}); err == nil {
		t.Error("unknown method accepted")
	}
	if _, err := NewSolver(Options{Tangents: 5}); err == nil {
		t.Error("odd tangent count accepted")
	}
}

func TestSetMassInverts(t *testing.T) {
	var p Problem
	b := p.AddBlock(3)
	m := []float64{4, 1, 0, 1, 3, 1, 0, 1, 2}
	if err := p.SetMass(b, m); err != nil {
		t.Fatal(err)
	}
	inv := p.InvMass(b)
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			s := 0.0
			for k := 0; k < 3; k++ {
				s += m[i*3+k] * inv[k*3+j]
			}
			want := 0.0
			if i == j {
				want = 1
			}
			if math.Abs(s-want) > 1e-12 {
				t.Fatalf("M·M⁻¹[%d][%d] = %v", i, j, s)
			}
		}
	}
}

// Identical inputs give bit-identical outputs.
func TestDeterminism(t *testing.T) {
	var p Problem
	genPyramid(&p, 8, true, 4)
	var r1, r2 Result
	for i, r := range []*Result{&r1, &r2} {
		s := mustSolver(t, Options{Friction: Disc})
		if err := s.Solve(&p, r); err != nil {
			t.Fatal(err)
		}
		_ = i
	}
	for i := range r1.Qdot {
		if math.Float64bits(r1.Qdot[i]) != math.Float64bits(r2.Qdot[i]) {
			t.Fatalf("q̇[%d] differs: %v vs %v", i, r1.Qdot[i], r2.Qdot[i])
		}
	}
	for i := range r1.Friction {
		if math.Float64bits(r1.Friction[i]) != math.Float64bits(r2.Friction[i]) {
			t.Fatalf("friction[%d] differs", i)
		}
	}
}

// A warm Solver does not allocate.
func TestZeroAllocations(t *testing.T) {
	for _, method := range []string{MethodSP, MethodPGS, MethodLCP} {
		var p Problem
		if method == MethodLCP {
			genTower(&p, 3, true, 1)
		} else {
			genPyramid(&p, 6, true, 1)
		}
		s := mustSolver(t, Options{Method: method, Friction: Disc, ContactSolver: ContactPGSSM})
		var res Result
		_ = s.Solve(&p, &res)
		allocs := testing.AllocsPerRun(5, func() { _ = s.Solve(&p, &res) })
		if allocs != 0 {
			t.Errorf("%s: %v allocations per warm solve", method, allocs)
		}
		// Refilling the problem reuses capacity too.
		allocs = testing.AllocsPerRun(5, func() {
			p.Reset()
			for b := 0; b < 3; b++ {
				p.AddBlock(6)
			}
			p.AddContact(-1, 0, 0, 0.5, 0)
			p.AddContact(0, 1, 0, 0.5, 0)
		})
		if allocs != 0 {
			t.Errorf("%s: %v allocations refilling a Problem", method, allocs)
		}
	}
}

// With a time budget the solve stops early yet stays contact-exact and keeps the best iterate.
func TestTimeBudgetGracefulDegradation(t *testing.T) {
	var p Problem
	genPyramid(&p, 10, true, 2)
	s := mustSolver(t, Options{Friction: Disc, TimeBudget: time.Microsecond, Epsilon: 1e-12})
	var res Result
	if err := s.Solve(&p, &res); err != nil {
		t.Fatal(err)
	}
	if !res.Stats.BudgetHit || !res.Stats.ContactExact || res.Stats.Iterations != 1 {
		t.Errorf("budget: hit %v exact %v iterations %d", res.Stats.BudgetHit, res.Stats.ContactExact, res.Stats.Iterations)
	}
	// Past the budget the friction repair does not run: the answer carries the best iterate.
	if res.Stats.Repairs != 0 {
		t.Errorf("budget: %d repair rounds ran past the budget", res.Stats.Repairs)
	}
	if rep := CheckContact(&p, res.Alpha, res.Friction, res.Qdot); rep.Worst > 1e-9*res.Stats.Scale {
		t.Errorf("budget: %v", rep)
	}
	// Warm-started, the budget runs out inside the first friction projection. Its unfinished
	// output is no iterate of the map: the answer is the warm start f⁰ (Algorithm 1 stopped before
	// its first complete subsequence) with its exact contact projection, and no further contact
	// projection is paid for.
	full := mustSolver(t, Options{Friction: Disc})
	if err := full.Solve(&p, &res); err != nil {
		t.Fatal(err)
	}
	nextStep(&p, &res)
	if err := s.Solve(&p, &res); err != nil {
		t.Fatal(err)
	}
	if !res.Stats.BudgetHit || !res.Stats.ContactExact || res.Stats.Iterations != 1 || res.Stats.BestIter != 0 {
		t.Errorf("warm budget: hit %v exact %v iterations %d best %d", res.Stats.BudgetHit, res.Stats.ContactExact, res.Stats.Iterations, res.Stats.BestIter)
	}
	for k := 0; k < p.NumContacts(); k++ {
		if w := p.Contact(k).WarmFriction; res.Friction[2*k] != w[0] || res.Friction[2*k+1] != w[1] {
			t.Fatalf("warm budget: contact %d friction %v, want the warm start %v", k, res.Friction[2*k:2*k+2], w)
		}
	}
	if rep := CheckContact(&p, res.Alpha, res.Friction, res.Qdot); rep.Worst > 1e-9*res.Stats.Scale {
		t.Errorf("warm budget: %v", rep)
	}
}

// The PGS baseline returns finite impulses and approaches the exact answer on an easy problem.
func TestPGSBaseline(t *testing.T) {
	var p Problem
	boxOnPlane(&p, [3]float64{1, 0, 0}, 0.5)
	s := mustSolver(t, Options{Method: MethodPGS, PGSIters: 200})
	var res Result
	if err := s.Solve(&p, &res); err != nil {
		t.Fatal(err)
	}
	if rep := CheckContact(&p, res.Alpha, res.Friction, res.Qdot); rep.Worst > 1e-6 {
		t.Errorf("PGS box: %v", rep)
	}
	// Box friction along a sample axis equals the pyramid/disc answer here.
	if math.Abs(res.Qdot[0]-(1-0.5*genG*genH)) > 1e-6 {
		t.Errorf("PGS box: v = %v", res.Qdot[:3])
	}
}

// The Lemke baseline solves the Stewart–Trinkle LCP: its answer is a pyramid fixed point (eq. 26).
func TestLemkeBaseline(t *testing.T) {
	build := []func(p *Problem){
		func(p *Problem) { boxOnPlane(p, [3]float64{1, 0.3, 0}, 0.5) },
		func(p *Problem) { leaningRod(p, math.Pi/3, 0.2) },
		func(p *Problem) { genTower(p, 3, true, 1) },
		func(p *Problem) { randomProblem(p, newRand(3), []int{6}, 8, 12) },
	}
	for i, b := range build {
		var p Problem
		b(&p)
		s := mustSolver(t, Options{Method: MethodLCP})
		var res Result
		if err := s.Solve(&p, &res); err != nil {
			t.Errorf("case %d: %v", i, err)
			continue
		}
		rep := CheckFixedPoint(&p, CheckSpec{Friction: Pyramid, Tangents: 8}, res.Alpha, res.Friction, res.Qdot)
		if rep.Worst > 1e-8*res.Stats.Scale {
			t.Errorf("case %d: %v", i, rep)
		}
	}
	// Too large: an error, not a hang.
	var p Problem
	genPyramid(&p, 20, false, 1)
	s := mustSolver(t, Options{Method: MethodLCP})
	var res Result
	var se *SolveError
	if err := s.Solve(&p, &res); !errors.As(err, &se) {
		t.Errorf("large LCP: %v", err)
	}
	// Pivot limit: an error, not a hang.
	genTower(&p, 6, true, 1)
	s = mustSolver(t, Options{Method: MethodLCP, LCPMaxPivots: 3})
	if err := s.Solve(&p, &res); !errors.As(err, &se) {
		t.Errorf("pivot limit: %v", err)
	}
	for _, x := range res.Qdot {
		if !isFinite(x) {
			t.Fatal("non-finite velocity after a failed LCP")
		}
	}
}
