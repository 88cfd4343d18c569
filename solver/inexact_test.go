package solver

import (
	"errors"
	"testing"
)

// TestInexactContactProjectionEndsTheLoop: when the contact projection cannot reach ContactTol (here
// a tolerance below rounding, with pivoting off so that nothing can reach it), the staggered loop
// stops after the first subsequence and the answer is refused at once, instead of paying a full
// projection's budget in each of MaxIters subsequences and in each repair of the final answer.
func TestInexactContactProjectionEndsTheLoop(t *testing.T) {
	var p Problem
	genPyramid(&p, 6, true, 3)
	opts := GameOptions()
	opts.ContactTol = 1e-18
	opts.PivotLimit = 0
	s, err := NewSolver(opts)
	if err != nil {
		t.Fatal(err)
	}
	var res Result
	err = s.Solve(&p, &res)
	var se *SolveError
	if !errors.As(err, &se) {
		t.Fatalf("Solve: %v, want a SolveError for an inexact contact projection", err)
	}
	st := res.Stats
	if st.ContactExact || st.Converged {
		t.Errorf("ContactExact %v, Converged %v: want both false", st.ContactExact, st.Converged)
	}
	// One subsequence's projection and the final one, each at most PGS-SM's budget and MPRGP's.
	perProjection := autoCGBudget*st.Contacts + autoCGExtra + mprgpBudget*st.Contacts + mprgpExtra
	if st.Iterations != 1 || st.ContactCG > 2*perProjection {
		t.Errorf("%d subsequences and %d contact CG iterations, want 1 and at most %d", st.Iterations, st.ContactCG, 2*perProjection)
	}
	if st.Repairs != 0 {
		t.Errorf("%d repairs of an answer that is refused anyway", st.Repairs)
	}
}

// The card house struck by falling blocks (testdata/struck_card_house_sliding.json: 175
// contacts, about half of the loaded ones sliding): the staggered loop's contact projections are
// solved to a fraction of the previous subsequence's largest velocity change until an iterate
// meets ε, then finished to ContactTol. The answer must be ε-converged, contact-exact by the
// independent checker (solveCapturedExact) and gain no energy beyond the contacts' biases, with at
// most 600 contact CG iterations in all: every projection to ContactTol took 958.
func TestInexactContactProjectionsOnStruckCardHouse(t *testing.T) {
	p, res := solveCapturedExact(t, "testdata/struck_card_house_sliding.json", GameOptions())
	st := res.Stats
	if !st.Converged {
		t.Errorf("not converged: rel_err %.3g after %d subsequences", st.RelErr, st.Iterations)
	}
	if change, designed := stepEnergyChange(t, p, res.Alpha, res.Qdot); change > designed+1e-6 {
		t.Errorf("the step gains %.3g J, more than the biases' %.3g J", change, designed)
	}
	if st.ContactCG > 600 {
		t.Errorf("%d contact CG iterations, want ≤ 600", st.ContactCG)
	}
}
