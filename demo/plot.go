package main

import (
	"image/color"
	"math"

	"github.com/g3n/engine/math32"
)

// The HUD plot's history and drawing: plotSteps fixed steps, drawn in plotWidth × plotHeight
// pixels, newest at the right.
const (
	plotSteps  = 120
	plotWidth  = 240
	plotHeight = 60
)

// Colours of the plot: its backing, its half-scale line, and the two series (and their labels).
var (
	plotBackground = color.RGBA{R: 26, G: 28, B: 33, A: 200}
	plotGrid       = color.RGBA{R: 70, G: 74, B: 84, A: 255}
	plotMsColour   = color.RGBA{R: 255, G: 170, B: 40, A: 255}
	plotIterColour = color.RGBA{R: 80, G: 200, B: 255, A: 255}
)

// stepHistory is a ring of the last plotSteps steps' wall time (ms) and staggered iterations.
type stepHistory struct {
	ms, iters [plotSteps]float64
	start, n  int // the oldest sample's slot, and how many are held
}

// push adds a step's figures, dropping the oldest when the ring is full. A non-finite or negative
// figure is kept as 0, so the plot never scales to it.
func (h *stepHistory) push(ms, iters float64) {
	clean := func(v float64) float64 {
		if !(v >= 0) || math.IsInf(v, 1) {
			return 0
		}
		return v
	}
	i := (h.start + h.n) % plotSteps
	if h.n == plotSteps {
		h.start = (h.start + 1) % plotSteps
	} else {
		h.n++
	}
	h.ms[i], h.iters[i] = clean(ms), clean(iters)
}

// at returns the i-th sample held, 0 the oldest.
func (h *stepHistory) at(i int) (ms, iters float64) {
	j := (h.start + i) % plotSteps
	return h.ms[j], h.iters[j]
}

// peaks returns the largest step time and iteration count held.
func (h *stepHistory) peaks() (ms, iters float64) {
	for i := 0; i < h.n; i++ {
		m, it := h.at(i)
		ms, iters = math.Max(ms, m), math.Max(iters, it)
	}
	return ms, iters
}

// niceCeil returns the least number of the form 1, 2 or 5 × 10ᵏ that is at least x, and at least
// least (a positive floor, so that an idle history still has a scale): the plot's scales, which
// then change only now and then and read well on the labels.
func niceCeil(x, least float64) float64 {
	if !(x > least) || math.IsInf(x, 1) {
		x = least
	}
	p := math.Pow(10, math.Floor(math.Log10(x)))
	for _, m := range [...]float64{1, 2, 5, 10} {
		// The small tolerance keeps an exact 2 × 10ᵏ from rounding up to 5 × 10ᵏ.
		if m*p >= x*(1-1e-12) {
			return m * p
		}
	}
	return 10 * p
}

// The plot's vertex buffer: gls.LINES segments, each vertex plotVertexFloats floats (x, y and z in
// the panel frame of plotX and plotY, then the colour), one dash every plotDashPeriod pixels of
// the line at half scale, and a segment between each two neighbouring samples of each series.
// plotBufferFloats is the most it holds, so that a buffer made that large is never reallocated.
const (
	plotVertexFloats = 6
	plotDashPeriod   = 4
	plotDashes       = plotWidth / plotDashPeriod
	plotBufferFloats = (plotDashes + 2*(plotSteps-1)) * 2 * plotVertexFloats
)

// plotX returns where the i-th of n samples is drawn across the plot, as a fraction of its width
// from its left edge (the x of g3n's panel frame): the middle of a pixel column, the newest
// (i = n − 1) in the rightmost and one sample every (plotWidth − 1)/(plotSteps − 1) pixels, so
// that a full history spans the whole width.
func plotX(i, n int) float32 {
	col := float64(plotWidth-1) - float64(n-1-i)*float64(plotWidth-1)/float64(plotSteps-1)
	return float32((col + 0.5) / plotWidth)
}

// plotY returns the height of value v on a scale whose top is scale, as g3n's panel frame has it:
// the fraction of the plot's height below its top edge, negated; the middle of the top pixel row
// for v = scale, of the bottom row for v = 0, and clamped between them.
func plotY(v, scale float64) float32 {
	f := math.Max(0, math.Min(1, v/scale))
	row := float64(plotHeight-1)*(1-f) + 0.5
	return float32(-row / plotHeight)
}

// plotVertices writes the plot of h into buf from its start and returns it: the dashed line at
// half scale, then the step times on msScale and the iterations on iterScale, each a polyline
// (the iterations last, so they show where the two cross). A buf of capacity plotBufferFloats is
// written in place: a redraw allocates nothing.
func plotVertices(buf math32.ArrayF32, h *stepHistory, msScale, iterScale float64) math32.ArrayF32 {
	buf = buf[:0]
	vertex := func(x, y float32, c color.RGBA) {
		buf = append(buf, x, y, 0, float32(c.R)/255, float32(c.G)/255, float32(c.B)/255)
	}
	// Each dash runs from a pixel column's left edge over two columns, through the middles of
	// both: a segment lights the pixels whose middles it passes, and no others.
	half := plotY(0.5, 1)
	for d := 0; d < plotDashes; d++ {
		x := float32(d * plotDashPeriod)
		vertex(x/plotWidth, half, plotGrid)
		vertex((x+2)/plotWidth, half, plotGrid)
	}
	for series := 0; series < 2; series++ {
		scale, col := msScale, plotMsColour
		if series == 1 {
			scale, col = iterScale, plotIterColour
		}
		var px, py float32
		for i := 0; i < h.n; i++ {
			ms, it := h.at(i)
			v := ms
			if series == 1 {
				v = it
			}
			x, y := plotX(i, h.n), plotY(v, scale)
			if i > 0 {
				vertex(px, py, col)
				vertex(x, y, col)
			}
			px, py = x, y
		}
	}
	return buf
}
