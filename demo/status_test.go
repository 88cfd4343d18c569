package main

import (
	"math"
	"testing"
	"time"

	"github.com/stagger-physics/stagger/physics"
)

// TestSolverHealthWords: the status line says "exact" only when every solved island converged,
// and otherwise counts the islands cut short (and those the time budget stopped) with the worst
// distance from ε, and the fallbacks; the baselines and a step without islands say so.
func TestSolverHealthWords(t *testing.T) {
	for _, tc := range []struct {
		method string
		st     physics.StepStats
		want   string
	}{
		{"sp", physics.StepStats{Islands: 3, Converged: 3, MaxErrRatio: 0.4}, "solver: exact"},
		{"sp", physics.StepStats{}, "solver: idle"},
		{"pgs", physics.StepStats{Islands: 2}, "solver: baseline (no ε)"},
		{"sp", physics.StepStats{Islands: 3, Converged: 2, CutShort: 1, MaxErrRatio: 3.14}, "solver: 1 island cut short (worst 3.1×ε)"},
		{"sp", physics.StepStats{Islands: 5, Converged: 3, CutShort: 2, BudgetCut: 1, MaxErrRatio: 15600},
			"solver: 2 islands cut short, 1 by a budget (worst 1.56e+04×ε)"},
		{"sp", physics.StepStats{Islands: 2, CutShort: 2, MaxErrRatio: math.Inf(1)}, "solver: 2 islands cut short (worst ∞×ε)"},
		{"sp", physics.StepStats{Islands: 4, Converged: 2, CutShort: 1, Fallbacks: 1, MaxErrRatio: 2},
			"solver: 1 island cut short (worst 2.0×ε), 1 island fell back to PGS"},
		{"sp", physics.StepStats{Islands: 2, Converged: 1, Fallbacks: 1}, "solver: 1 island fell back to PGS"},
		{"sp", physics.StepStats{Islands: 2, Converged: 1, Failed: 1}, "solver: 1 body held (problem refused); exact"},
		{"sp", physics.StepStats{Islands: 3, Converged: 1, CutShort: 1, Failed: 3, MaxErrRatio: 2},
			"solver: 3 bodies held (problem refused); 1 island cut short (worst 2.0×ε)"},
	} {
		if got := solverHealth(tc.st, tc.method); got != tc.want {
			t.Errorf("%s %+v: %q, want %q", tc.method, tc.st, got, tc.want)
		}
	}
}

// TestPhaseLine: each phase appears under its name, in ms, in the step's order.
func TestPhaseLine(t *testing.T) {
	p := physics.PhaseTimes{
		Gather: 100 * time.Microsecond, BroadPhase: 20 * time.Microsecond, NarrowPhase: 300 * time.Microsecond,
		Islands: 4 * time.Microsecond, Solve: 12 * time.Millisecond, Integrate: 50 * time.Microsecond,
	}
	want := "gather 0.10 | broad 0.02 | narrow 0.30 | islands 0.00 | solve 12.00 | integrate 0.05 ms"
	if got := phaseLine(p); got != want {
		t.Errorf("%q, want %q", got, want)
	}
}
