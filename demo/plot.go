package main

import (
	"image"
	"image/color"
	"math"
)

// The HUD plot's history and picture: plotSteps fixed steps, drawn plotWidth × plotHeight pixels,
// newest at the right.
const (
	plotSteps  = 120
	plotWidth  = 240
	plotHeight = 60
)

// Colours of the plot: its backing, its half-scale line, and the two series.
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

// plotRow returns the pixel row of value v on a scale whose top is scale, in a picture of height
// rows: 0 at the top for v = scale, height − 1 at the bottom for v = 0, clamped to the picture.
func plotRow(v, scale float64, height int) int {
	y := float64(height-1) * (1 - v/scale)
	return int(math.Round(math.Max(0, math.Min(float64(height-1), y))))
}

// plotColumn returns the pixel column of the i-th of n samples in a picture of width columns, the
// newest (i = n − 1) at the right edge and one sample every width/plotSteps pixels.
func plotColumn(i, n, width int) int {
	return width - 1 - int(math.Round(float64(n-1-i)*float64(width-1)/float64(plotSteps-1)))
}

// drawPlot draws h into img (plotWidth × plotHeight or any size): the backing, a line at half
// scale, and the step times and iterations as two polylines on their scales.
func drawPlot(img *image.RGBA, h *stepHistory, msScale, iterScale float64) {
	b := img.Bounds()
	w, ht := b.Dx(), b.Dy()
	for y := 0; y < ht; y++ {
		for x := 0; x < w; x++ {
			img.SetRGBA(b.Min.X+x, b.Min.Y+y, plotBackground)
		}
	}
	for x := 0; x < w; x += 3 { // dotted
		img.SetRGBA(b.Min.X+x, b.Min.Y+plotRow(0.5, 1, ht), plotGrid)
	}
	for series := 0; series < 2; series++ {
		scale, col := msScale, plotMsColour
		if series == 1 {
			scale, col = iterScale, plotIterColour
		}
		px, py := 0, 0
		for i := 0; i < h.n; i++ {
			ms, it := h.at(i)
			v := ms
			if series == 1 {
				v = it
			}
			x, y := plotColumn(i, h.n, w), plotRow(v, scale, ht)
			if i == 0 {
				px, py = x, y
			}
			drawLine(img, b.Min.X+px, b.Min.Y+py, b.Min.X+x, b.Min.Y+y, col)
			px, py = x, y
		}
	}
}

// drawLine sets the pixels of the segment from (x0, y0) to (x1, y1), both ends included
// (Bresenham's algorithm).
func drawLine(img *image.RGBA, x0, y0, x1, y1 int, c color.RGBA) {
	dx, dy := abs(x1-x0), -abs(y1-y0)
	sx, sy := 1, 1
	if x0 > x1 {
		sx = -1
	}
	if y0 > y1 {
		sy = -1
	}
	e := dx + dy
	for {
		img.SetRGBA(x0, y0, c)
		if x0 == x1 && y0 == y1 {
			return
		}
		e2 := 2 * e
		if e2 >= dy {
			e += dy
			x0 += sx
		}
		if e2 <= dx {
			e += dx
			y0 += sy
		}
	}
}

// abs is |v|.
func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}
