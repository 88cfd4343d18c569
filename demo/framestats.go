package main

import (
	"math"
	"slices"
	"time"
)

// frameCapacity is how many frames a frameClock holds without growing: over four minutes at 60
// frames a second, more than any scripted run records.
const frameCapacity = 1 << 14

// frameClock splits each window frame's time into physics, the fixed steps run in the frame
// (timed from the first fixed-update system to the last), and render, the rest of the frame:
// the scene's sync to g3n, the game's bookkeeping, drawing, the GUI and the buffer swap, which is
// where a software renderer such as llvmpipe does most of its work. A frame's time is the wall
// time from its start to the next frame's start, so every frame is closed at the next one's
// begin.
type frameClock struct {
	stepStart time.Time
	physics   time.Duration // the fixed steps of the frame under way, so far
	// lastPhysics is the physics time of the frame that the next begin closes.
	lastPhysics time.Duration
	// Smoothed frame, physics and render times, ms, for the HUD.
	frameMs, physicsMs, renderMs float64
	// recording makes begin keep each closed frame's times for summary.
	recording bool
	frames    []float64 // ms per recorded frame
	physicsOf []float64 // ms of physics in each recorded frame
}

// newFrameClock returns a clock with room for frameCapacity recorded frames.
func newFrameClock() *frameClock {
	return &frameClock{frames: make([]float64, 0, frameCapacity), physicsOf: make([]float64, 0, frameCapacity)}
}

// begin starts a frame: prev is the time since the previous frame began (g3n's frame delta),
// which closes that frame with the physics time measured in it.
func (c *frameClock) begin(prev time.Duration) {
	frame := float64(prev.Nanoseconds()) / 1e6
	phys := float64(c.physics.Nanoseconds()) / 1e6
	c.lastPhysics, c.physics = c.physics, 0
	// The physics ran inside the frame, so the frame is at least as long; the clamp only guards
	// against a clock that is coarser than the frame.
	render := math.Max(0, frame-phys)
	c.frameMs = 0.9*c.frameMs + 0.1*frame
	c.physicsMs = 0.9*c.physicsMs + 0.1*phys
	c.renderMs = 0.9*c.renderMs + 0.1*render
	if c.recording && prev > 0 {
		c.frames = append(c.frames, frame)
		c.physicsOf = append(c.physicsOf, phys)
	}
}

// stepBegins marks the start of a fixed step; stepEnds adds the time since to the frame's physics.
func (c *frameClock) stepBegins() { c.stepStart = time.Now() }

// stepEnds adds the fixed step begun at the last stepBegins to the frame's physics time.
func (c *frameClock) stepEnds() { c.physics += time.Since(c.stepStart) }

// summary returns the statistics of the recorded frames.
func (c *frameClock) summary() frameSummary { return summarizeFrames(c.frames, c.physicsOf) }

// frameSummary is the frame-time statistics of the window report, ms: each frame's whole time,
// its physics (fixed steps) and its render (the rest), median and 95th percentile by nearest rank.
type frameSummary struct {
	Frames          int     `json:"frames"`
	RenderMsMedian  float64 `json:"render_ms_median"`
	RenderMsP95     float64 `json:"render_ms_p95"`
	PhysicsMsMedian float64 `json:"physics_ms_median"`
	PhysicsMsP95    float64 `json:"physics_ms_p95"`
	FrameMsMedian   float64 `json:"frame_ms_median"`
	FrameMsP95      float64 `json:"frame_ms_p95"`
}

// summarizeFrames summarises frames whose whole times are frame and physics times physics (ms,
// the same length); each frame's render time is its whole time less its physics. The percentiles
// are of each series by itself, so a frame's render and physics percentiles need not add up to its
// frame percentile. No frames give a summary of zeros.
func summarizeFrames(frame, physics []float64) frameSummary {
	n := min(len(frame), len(physics))
	s := frameSummary{Frames: n}
	if n == 0 {
		return s
	}
	render := make([]float64, n)
	for i := range n {
		render[i] = math.Max(0, frame[i]-physics[i])
	}
	s.FrameMsMedian, s.FrameMsP95 = quantiles(frame[:n])
	s.PhysicsMsMedian, s.PhysicsMsP95 = quantiles(physics[:n])
	s.RenderMsMedian, s.RenderMsP95 = quantiles(render)
	return s
}

// quantiles returns the median and 95th percentile of xs (nearest rank), sorting a copy.
func quantiles(xs []float64) (median, p95 float64) {
	s := slices.Clone(xs)
	slices.Sort(s)
	return nearestRank(s, 0.5), nearestRank(s, 0.95)
}

// nearestRank returns the q-quantile of the sorted, non-empty s: the least element such that at
// least a fraction q of s is no greater, as the headless runner's percentiles are taken.
func nearestRank(s []float64, q float64) float64 {
	i := int(math.Ceil(q*float64(len(s)))) - 1
	return s[max(0, min(i, len(s)-1))]
}
