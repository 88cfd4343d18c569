package main

import (
	"strings"
	"testing"
)

// TestSpread checks the range the repeated runs are summed up by.
func TestSpread(t *testing.T) {
	if s := spread([]float64{2.5, 0.25, 1}, g); s != "0.25–2.5" {
		t.Errorf("spread = %q, want 0.25–2.5", s)
	}
	if s := spread(nil, g); s != "–" {
		t.Errorf("spread of nothing = %q, want –", s)
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
