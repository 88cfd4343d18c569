package main

import (
	"math/rand/v2"
	"testing"
	"time"
)

// TestNearestRankAgainstCounting checks the quantiles on shuffled data against the definition,
// counted by brute force: the median and p95 are elements of the data, at least half (95 %) of the
// data is no greater, and no smaller element of the data has that property. 1…100 has median 50
// and p95 95 exactly.
func TestNearestRankAgainstCounting(t *testing.T) {
	xs := make([]float64, 100)
	for i := range xs {
		xs[i] = float64(i + 1)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	rng.Shuffle(len(xs), func(i, j int) { xs[i], xs[j] = xs[j], xs[i] })
	if m, p := quantiles(xs); m != 50 || p != 95 {
		t.Errorf("1…100: median %v, p95 %v; want 50 and 95", m, p)
	}
	if xs[0] == 1 && xs[99] == 100 {
		t.Fatal("the shuffle left the data sorted")
	}
	for _, n := range []int{1, 2, 3, 7, 20, 101} {
		data := make([]float64, n)
		for i := range data {
			data[i] = float64(rng.IntN(10)) + rng.Float64()
		}
		m, p := quantiles(data)
		for _, c := range []struct {
			q, got float64
		}{{0.5, m}, {0.95, p}} {
			want, found := 0.0, false
			for _, cand := range data {
				atMost := 0
				for _, x := range data {
					if x <= cand {
						atMost++
					}
				}
				if float64(atMost) >= c.q*float64(n) && (!found || cand < want) {
					want, found = cand, true
				}
			}
			if c.got != want {
				t.Errorf("n %d, q %v: got %v, want %v (by counting)", n, c.q, c.got, want)
			}
		}
	}
}

// TestSummarizeFrames checks the summary of known frames: render is each frame less its physics,
// each series has its own percentiles, and no frames give zeros rather than NaN.
func TestSummarizeFrames(t *testing.T) {
	// Frames 10…29 ms; physics 1 ms, except one slow frame of 29 ms with 20 ms of physics.
	var frame, physics []float64
	for i := range 20 {
		frame = append(frame, float64(10+i))
		physics = append(physics, 1)
	}
	physics[19] = 20
	s := summarizeFrames(frame, physics)
	want := frameSummary{Frames: 20, FrameMsMedian: 19, FrameMsP95: 28, PhysicsMsMedian: 1, PhysicsMsP95: 1,
		// render: 9…27 from the first 19 frames and 9 from the slow one; sorted 9, 9, 10, …, 27.
		RenderMsMedian: 17, RenderMsP95: 26}
	if s != want {
		t.Errorf("got %+v\nwant %+v", s, want)
	}
	if z := summarizeFrames(nil, nil); z != (frameSummary{}) {
		t.Errorf("no frames: %+v, want zeros", z)
	}
}

// TestFrameClock drives the clock through frames with known lengths and fixed steps slept through:
// each recorded frame's physics is its steps' time (at least the sleeps, well under the frame),
// frames before recording starts are not kept, and recording allocates nothing once made.
func TestFrameClock(t *testing.T) {
	c := newFrameClock()
	c.stepBegins()
	time.Sleep(2 * time.Millisecond)
	c.stepEnds()
	c.begin(40 * time.Millisecond) // closes a frame while not recording
	if len(c.frames) != 0 {
		t.Fatalf("recorded %d frames before recording started", len(c.frames))
	}
	c.recording = true
	for range 2 {
		c.stepBegins()
		time.Sleep(3 * time.Millisecond)
		c.stepEnds()
	}
	c.begin(50 * time.Millisecond)
	if len(c.frames) != 1 || c.frames[0] != 50 {
		t.Fatalf("frames %v, want [50]", c.frames)
	}
	if p := c.physicsOf[0]; p < 6 || p > 40 {
		t.Errorf("physics %v ms for two 3 ms steps", p)
	}
	if c.physics != 0 {
		t.Errorf("the next frame starts with %v of physics", c.physics)
	}
	allocs := testing.AllocsPerRun(100, func() {
		c.stepBegins()
		c.stepEnds()
		c.begin(16 * time.Millisecond)
	})
	if allocs != 0 {
		t.Errorf("%v allocations a frame", allocs)
	}
	s := c.summary()
	if s.Frames != len(c.frames) || s.FrameMsMedian != 16 || s.RenderMsMedian > 16 || s.RenderMsMedian < 15 {
		t.Errorf("summary %+v", s)
	}
}
