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
	// One subsequence's projection and the final one, each at most PGS-SM's budget twice (its
	// attempt, and its polish after an interior answer).
	perProjection := 2 * (autoCGBudget*st.Contacts + autoCGExtra)
	if st.Iterations != 1 || st.ContactCG > 2*perProjection {
		t.Errorf("%d subsequences and %d contact CG iterations, want 1 and at most %d", st.Iterations, st.ContactCG, 2*perProjection)
	}
	if st.Repairs != 0 {
		t.Errorf("%d repairs of an answer that is refused anyway", st.Repairs)
	}
}
