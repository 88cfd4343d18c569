package main

import (
	"strings"
	"testing"
)

// TestMedianAndSpread checks the figures the repeated runs are summed up by: the median of an odd
// and an even count (the input left in its order), and the range.
func TestMedianAndSpread(t *testing.T) {
	xs := []float64{3, 1, 2}
	if m := median(xs); m != 2 || xs[0] != 3 {
		t.Errorf("median(3 1 2) = %v (input now %v), want 2 and the input unchanged", m, xs)
	}
	if m := median([]float64{4, 1, 3, 2}); m != 2.5 {
		t.Errorf("median(4 1 3 2) = %v, want 2.5", m)
	}
	if s := spread([]float64{2.5, 0.25, 1}, g); s != "0.25–2.5" {
		t.Errorf("spread = %q, want 0.25–2.5", s)
	}
}

// TestRunsMustAgree: runs of a case that end in different states are an error naming the case,
// not a row.
func TestRunsMustAgree(t *testing.T) {
	key := func(s string) string { return s }
	if err := sameEverywhere("pile", []string{"a", "a", "a"}, key); err != nil {
		t.Errorf("equal runs: %v", err)
	}
	err := sameEverywhere("pile", []string{"a", "a", "b"}, key)
	if err == nil || !strings.Contains(err.Error(), "pile") || !strings.Contains(err.Error(), "run 3") {
		t.Errorf("differing runs gave %v, want an error naming the case and the run", err)
	}
}
