package ecs

import (
	"math"
	"strings"
	"testing"
)

func TestFixedClockAccumulatesAndKeepsRemainder(t *testing.T) {
	c, err := NewFixedClock(0.01, 10)
	if err != nil {
		t.Fatal(err)
	}
	if c.Step() != 0.01 || c.MaxSteps() != 10 {
		t.Fatalf("Step/MaxSteps = %v/%v", c.Step(), c.MaxSteps())
	}
	steps, err := c.Advance(0.025)
	if err != nil || steps != 2 {
		t.Fatalf("Advance(0.025) = %d, %v; want 2", steps, err)
	}
	if a := c.Alpha(); math.Abs(a-0.5) > 1e-12 {
		t.Fatalf("Alpha = %v, want 0.5", a)
	}
	// The half step carries over: another 0.005 completes a step.
	steps, err = c.Advance(0.005)
	if err != nil || steps != 1 {
		t.Fatalf("Advance(0.005) = %d, %v; want 1", steps, err)
	}
	if a := c.Alpha(); a > 1e-9 && a < 1-1e-9 {
		t.Fatalf("Alpha after completing a step = %v, want ~0", a)
	}
	steps, _ = c.Advance(0.004)
	if steps != 0 {
		t.Fatalf("Advance(0.004) = %d, want 0", steps)
	}
	if c.Ticks() != 3 || c.Dropped() != 0 {
		t.Fatalf("Ticks/Dropped = %d/%d, want 3/0", c.Ticks(), c.Dropped())
	}
}

func TestFixedClockManySmallFramesDoNotDrift(t *testing.T) {
	c, _ := NewFixedClock(1.0/60, 4)
	total := 0
	for range 6000 {
		n, err := c.Advance(1.0 / 240)
		if err != nil {
			t.Fatal(err)
		}
		total += n
	}
	if total != 1500 {
		t.Fatalf("ran %d steps in 25 s at 60 Hz, want 1500", total)
	}
	if a := c.Alpha(); a < 0 || a >= 1 {
		t.Fatalf("Alpha %v out of [0,1)", a)
	}
}

func TestFixedClockCapDropsExcessKeepsRemainder(t *testing.T) {
	c, _ := NewFixedClock(0.01, 5)
	steps, err := c.Advance(1.0)
	if err != nil || steps != 5 {
		t.Fatalf("Advance(1.0) = %d, %v; want 5", steps, err)
	}
	if c.Dropped() != 95 {
		t.Fatalf("Dropped = %d, want 95", c.Dropped())
	}
	if c.Ticks() != 5 {
		t.Fatalf("Ticks = %d, want 5", c.Ticks())
	}
	// A frame with a sub-step remainder: 0.1234 owes 12 steps, 7 dropped, 0.0034 carried.
	steps, _ = c.Advance(0.1234)
	if steps != 5 || c.Dropped() != 102 {
		t.Fatalf("Advance(0.1234) = %d, Dropped %d; want 5, 102", steps, c.Dropped())
	}
	if a := c.Alpha(); math.Abs(a-0.34) > 1e-9 {
		t.Fatalf("Alpha = %v, want 0.34", a)
	}
	// The remainder carries: 0.0066 more completes exactly one step.
	steps, _ = c.Advance(0.0067)
	if steps != 1 || c.Dropped() != 102 {
		t.Fatalf("carry: steps %d dropped %d; want 1, 102", steps, c.Dropped())
	}
	if a := c.Alpha(); math.Abs(a-0.01) > 1e-9 {
		t.Fatalf("Alpha after carry = %v, want 0.01", a)
	}
}

func TestFixedClockDecimalFramesGiveWholeSteps(t *testing.T) {
	for _, tc := range []struct {
		step, frame float64
		want        int
	}{{0.01, 0.03, 3}, {0.01, 0.07, 7}, {0.1, 0.3, 3}, {0.001, 1.0, 1000}, {1.0 / 60, 0.05, 3}} {
		c, _ := NewFixedClock(tc.step, 1<<20)
		n, err := c.Advance(tc.frame)
		if err != nil || n != tc.want {
			t.Errorf("step %v frame %v: %d steps (%v), want %d", tc.step, tc.frame, n, err, tc.want)
		}
		if a := c.Alpha(); a > 1e-6 {
			t.Errorf("step %v frame %v: Alpha %v, want ~0", tc.step, tc.frame, a)
		}
	}
}

func TestFixedClockHugeFrameSaturatesDropped(t *testing.T) {
	c, _ := NewFixedClock(1e-300, 3)
	steps, err := c.Advance(1e300)
	if err != nil || steps != 3 {
		t.Fatalf("Advance = %d, %v", steps, err)
	}
	if c.Dropped() != math.MaxUint64 {
		t.Fatalf("Dropped = %d, want saturated", c.Dropped())
	}
}

func TestFixedClockInvalidInputs(t *testing.T) {
	for _, step := range []float64{0, -1, math.NaN(), math.Inf(1), math.Inf(-1)} {
		if _, err := NewFixedClock(step, 1); err == nil || !strings.Contains(err.Error(), "step") {
			t.Errorf("NewFixedClock(%v, 1) = %v, want error naming step", step, err)
		}
	}
	for _, max := range []int{0, -3} {
		if _, err := NewFixedClock(0.01, max); err == nil || !strings.Contains(err.Error(), "maxSteps") {
			t.Errorf("NewFixedClock(0.01, %d) = %v, want error naming maxSteps", max, err)
		}
	}
	c, _ := NewFixedClock(0.01, 5)
	_, _ = c.Advance(0.015)
	for _, f := range []float64{-0.001, math.NaN(), math.Inf(1), math.Inf(-1)} {
		n, err := c.Advance(f)
		if err == nil || n != 0 {
			t.Errorf("Advance(%v) = %d, %v; want error", f, n, err)
		}
	}
	if c.Ticks() != 1 || math.Abs(c.Alpha()-0.5) > 1e-12 {
		t.Fatalf("invalid input changed the clock: ticks %d alpha %v", c.Ticks(), c.Alpha())
	}
	if n, err := c.Advance(0); err != nil || n != 0 {
		t.Fatalf("Advance(0) = %d, %v", n, err)
	}
}
