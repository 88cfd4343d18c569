package ecs

import (
	"fmt"
	"math"
)

// stepTolerance is the relative distance below a whole number of steps at which accumulated time
// counts as that whole number. It absorbs binary rounding of decimal frame times and steps.
const stepTolerance = 1e-9

// FixedClock turns variable frame times into a whole number of fixed steps. Frame time
// accumulates; each Advance hands out the whole steps the accumulator holds, at most MaxSteps of
// them. Whole steps beyond the cap are dropped, so that a slow frame cannot make the next frame
// slower still, while the remainder smaller than one step carries over to the next frame.
// Accumulated time within a relative 1e-9 of a step below a whole number of steps counts as that
// whole number, so that, for example, a frame of 0.03 s with a 0.01 s step runs 3 steps even though
// neither number is exact in binary.
type FixedClock struct {
	step     float64
	maxSteps int
	acc      float64 // accumulated time not yet handed out, in [0, step)
	ticks    uint64
	dropped  uint64
}

// NewFixedClock returns a clock with the given step length in seconds and cap on steps per
// Advance. step must be finite and greater than zero, and maxSteps at least 1; otherwise the
// error names the offending field.
func NewFixedClock(step float64, maxSteps int) (*FixedClock, error) {
	if math.IsNaN(step) || math.IsInf(step, 0) || step <= 0 {
		return nil, fmt.Errorf("ecs: NewFixedClock: step must be finite and > 0, got %v", step)
	}
	if maxSteps < 1 {
		return nil, fmt.Errorf("ecs: NewFixedClock: maxSteps must be >= 1, got %d", maxSteps)
	}
	return &FixedClock{step: step, maxSteps: maxSteps}, nil
}

// Step returns the fixed step length in seconds.
func (c *FixedClock) Step() float64 { return c.step }

// MaxSteps returns the maximum number of fixed steps one Advance hands out.
func (c *FixedClock) MaxSteps() int { return c.maxSteps }

// Advance adds frameSeconds to the accumulator and returns the number of fixed steps to run now,
// between 0 and MaxSteps. Owed steps beyond MaxSteps are dropped (see Dropped); the remainder
// smaller than one step is kept (see Alpha). A negative, NaN or infinite frame time is an error
// and leaves the clock unchanged.
func (c *FixedClock) Advance(frameSeconds float64) (steps int, err error) {
	if math.IsNaN(frameSeconds) || math.IsInf(frameSeconds, 0) || frameSeconds < 0 {
		return 0, fmt.Errorf("ecs: FixedClock.Advance: frameSeconds must be finite and >= 0, got %v", frameSeconds)
	}
	acc := c.acc + frameSeconds
	if math.IsInf(acc, 0) {
		return 0, fmt.Errorf("ecs: FixedClock.Advance: frameSeconds %v overflows the accumulator", frameSeconds)
	}
	// math.Mod is exact, so acc-rem is a whole multiple of step up to one rounding and the
	// quotient rounds to the true number of whole steps; rem is always in [0, step).
	rem := math.Mod(acc, c.step)
	owed := math.Round((acc - rem) / c.step)
	if c.step-rem <= c.step*stepTolerance {
		// Binary rounding left a hair less than a whole step (1.0 is not 100 steps of 0.01
		// in float64): count it as the whole step it was meant to be.
		owed++
		rem = 0
	}
	c.acc = rem
	if owed > float64(c.maxSteps) {
		excess := owed - float64(c.maxSteps)
		if excess >= math.MaxUint64 || float64(c.dropped)+excess >= math.MaxUint64 {
			c.dropped = math.MaxUint64
		} else {
			c.dropped += uint64(excess)
		}
		steps = c.maxSteps
	} else {
		steps = int(owed)
	}
	c.ticks += uint64(steps)
	return steps, nil
}

// Alpha returns the accumulated remainder as a fraction of one step, in [0, 1): how far the
// current time lies between the last fixed step and the next, for interpolating what is drawn.
func (c *FixedClock) Alpha() float64 {
	a := c.acc / c.step
	if a >= 1 {
		return math.Nextafter(1, 0)
	}
	if a < 0 {
		return 0
	}
	return a
}

// Ticks returns the number of fixed steps handed out so far. Steps that an App could not run
// because a system failed earlier in the same update are counted as dropped instead.
func (c *FixedClock) Ticks() uint64 { return c.ticks }

// Dropped returns the number of owed fixed steps dropped so far.
func (c *FixedClock) Dropped() uint64 { return c.dropped }

// tick counts one fixed step run outside Advance and returns its index.
func (c *FixedClock) tick() uint64 {
	c.ticks++
	return c.ticks - 1
}

// abandon reclassifies the last n steps handed out by Advance, which were never run, as dropped.
func (c *FixedClock) abandon(n int) {
	if n <= 0 {
		return
	}
	c.ticks -= uint64(n)
	c.dropped += uint64(n)
}

// FixedTime is a resource that an App keeps current while it runs systems.
type FixedTime struct {
	// Step is the fixed step length h in seconds.
	Step float64
	// Tick is the zero-based index of the fixed step now running during FixedUpdate, and of the
	// last fixed step run during the other stages (0 before any fixed step has run).
	Tick uint64
	// Alpha is the clock's interpolation fraction in [0, 1) after the current frame's time was
	// accumulated; see FixedClock.Alpha.
	Alpha float64
}
