package main

import (
	"strings"
	"testing"
)

// TestSolverNoticeNamesEachSolver: the banner of the S key names the solver switched to and what
// to watch for, for each method the key cycles through, and nothing for an unknown one.
func TestSolverNoticeNamesEachSolver(t *testing.T) {
	for method, want := range map[string]string{"sp": "Staggered Projections", "pgs": "Gauss–Seidel", "lcp": "LCP"} {
		if n := solverNotice(method); !strings.Contains(n, want) || !strings.Contains(n, "S:") {
			t.Errorf("%s: notice %q does not name %q and the key", method, n, want)
		}
	}
	if n := solverNotice("bogus"); n != "" {
		t.Errorf("unknown method: notice %q", n)
	}
}
