package main

import (
	"image/color"
	"math"
	"testing"

	"github.com/g3n/engine/math32"
)

// TestStepHistoryRing: the ring holds the last plotSteps samples, oldest first, after filling and
// wrapping; its peaks are those of the samples held (a dropped spike no longer counts); a
// non-finite or negative figure is held as 0.
func TestStepHistoryRing(t *testing.T) {
	var h stepHistory
	h.push(1000, 1000) // a spike that the ring must drop
	total := 2*plotSteps + 17
	for k := 1; k < total; k++ {
		h.push(float64(k), float64(2*k))
	}
	if h.n != plotSteps {
		t.Fatalf("holds %d samples, want %d", h.n, plotSteps)
	}
	for i := 0; i < plotSteps; i++ {
		k := total - plotSteps + i
		if ms, it := h.at(i); ms != float64(k) || it != float64(2*k) {
			t.Fatalf("sample %d: (%v, %v), want (%d, %d)", i, ms, it, k, 2*k)
		}
	}
	if ms, it := h.peaks(); ms != float64(total-1) || it != float64(2*(total-1)) {
		t.Errorf("peaks (%v, %v), want (%d, %d)", ms, it, total-1, 2*(total-1))
	}
	h.push(math.NaN(), math.Inf(1))
	h.push(-2, math.Inf(-1))
	for i := plotSteps - 2; i < plotSteps; i++ {
		if ms, it := h.at(i); ms != 0 || it != 0 {
			t.Errorf("bad figures held as (%v, %v), want 0", ms, it)
		}
	}
}

// TestNiceCeil: the scale is the least 1, 2 or 5 × 10ᵏ at or above the value, checked against a
// scan of all such numbers, never below the floor, and the floor for an idle or bad value.
func TestNiceCeil(t *testing.T) {
	var nice []float64
	for k := -3; k <= 4; k++ {
		for _, m := range []float64{1, 2, 5} {
			nice = append(nice, m*math.Pow(10, float64(k)))
		}
	}
	for _, x := range []float64{0.0011, 0.0123, 0.1, 0.15, 0.2, 0.21, 0.5, 0.99, 1, 1.01, 2, 3, 4.99, 5, 7, 10, 19, 20, 21, 49, 51, 100, 333, 999, 1001} {
		want := math.Inf(1)
		for _, v := range nice {
			if v >= x*(1-1e-9) && v < want {
				want = v
			}
		}
		if got := niceCeil(x, 0.001); math.Abs(got-want) > 1e-9*want {
			t.Errorf("niceCeil(%v) = %v, want %v", x, got, want)
		}
	}
	for _, x := range []float64{0, -1, math.NaN(), math.Inf(1), 0.05} {
		if got := niceCeil(x, 0.1); math.Abs(got-0.1) > 1e-12 {
			t.Errorf("niceCeil(%v, 0.1) = %v, want the floor 0.1", x, got)
		}
	}
}

// TestPlotY: a value's height is the middle of the pixel row at its fraction of the scale, from
// the bottom row's for 0 to the top row's for the scale's top, clamped beyond them.
func TestPlotY(t *testing.T) {
	row := func(r float64) float32 { return float32(-(r + 0.5) / plotHeight) }
	for _, c := range []struct {
		v, scale float64
		want     float32
	}{
		{0, 2, row(plotHeight - 1)},
		{2, 2, row(0)},
		{1, 2, row(float64(plotHeight-1) / 2)},
		{5, 20, row(0.75 * float64(plotHeight-1))},
		{0.3, 0.1, row(0)},
		{-1, 2, row(plotHeight - 1)},
	} {
		if got := plotY(c.v, c.scale); math.Abs(float64(got-c.want)) > 1e-6 {
			t.Errorf("plotY(%v, %v) = %v, want %v", c.v, c.scale, got, c.want)
		}
	}
}

// plotVertex is one vertex of plotVertices's buffer.
type plotVertex struct {
	x, y float32
	c    color.RGBA
}

// plotVertexList reads buf as plotVertices writes it, the colours back in bytes.
func plotVertexList(t *testing.T, buf []float32) []plotVertex {
	t.Helper()
	if len(buf)%plotVertexFloats != 0 {
		t.Fatalf("%d floats are not whole vertices", len(buf))
	}
	var vs []plotVertex
	for i := 0; i < len(buf); i += plotVertexFloats {
		b := func(f float32) uint8 { return uint8(math.Round(float64(f) * 255)) }
		if buf[i+2] != 0 {
			t.Fatalf("vertex %d has z %v", i/plotVertexFloats, buf[i+2])
		}
		vs = append(vs, plotVertex{buf[i], buf[i+1], color.RGBA{R: b(buf[i+3]), G: b(buf[i+4]), B: b(buf[i+5]), A: 255}})
	}
	return vs
}

// TestPlotVertices reads back the buffers of histories whose drawings are known: the dashes of
// the line at half scale across the width; a full history of a step time at half its scale and
// iterations at the top of theirs as two level polylines of one segment a pair of neighbouring
// samples, the oldest at the left edge and the newest at the right; a short history of rising
// figures at the right, each sample at its height on its own scale; and one sample, which has no
// segment. A redraw into a buffer of plotBufferFloats allocates nothing and keeps its array.
func TestPlotVertices(t *testing.T) {
	near := func(a, b float32) bool { return math.Abs(float64(a-b)) < 1e-6 }
	buf := make(math32.ArrayF32, 0, plotBufferFloats)
	var h stepHistory
	for i := 0; i < 3*plotSteps; i++ {
		h.push(1, 10)
	}
	buf = plotVertices(buf, &h, 2, 10)
	if len(buf) != plotBufferFloats {
		t.Fatalf("a full history wrote %d floats, want %d", len(buf), plotBufferFloats)
	}
	vs := plotVertexList(t, buf)
	grid, series := vs[:2*plotDashes], vs[2*plotDashes:]
	for i, v := range grid {
		if v.c != plotGrid || !near(v.y, -0.5) || v.x < 0 || v.x > 1 || (i > 0 && v.x <= grid[i-1].x) {
			t.Fatalf("dash vertex %d is %+v, want the grid's colour at half height, left to right", i, v)
		}
	}
	if grid[0].x != 0 || grid[len(grid)-1].x < 0.95 {
		t.Errorf("the dashes span x %v to %v, want the plot's width", grid[0].x, grid[len(grid)-1].x)
	}
	segs := 2 * (plotSteps - 1)
	if len(series) != 2*segs {
		t.Fatalf("%d series vertices, want %d", len(series), 2*segs)
	}
	for s, want := range []struct {
		c color.RGBA
		y float32
	}{{plotMsColour, plotY(1, 2)}, {plotIterColour, plotY(10, 10)}} {
		line := series[s*segs : (s+1)*segs]
		for i, v := range line {
			if v.c != want.c || !near(v.y, want.y) {
				t.Fatalf("series %d vertex %d is %+v, want %v at y %v", s, i, v, want.c, want.y)
			}
			// The segments join: each starts where the one before ended.
			if i%2 == 0 && i > 0 && v.x != line[i-1].x {
				t.Fatalf("series %d segment %d starts at x %v, the one before ends at %v", s, i/2, v.x, line[i-1].x)
			}
		}
		if !near(line[0].x, 0.5/plotWidth) || !near(line[len(line)-1].x, (plotWidth-0.5)/plotWidth) {
			t.Errorf("series %d spans x %v to %v, want the middles of the first and last columns", s, line[0].x, line[len(line)-1].x)
		}
	}
	if !near(series[0].y, -0.5) || !near(series[segs].y, -0.5/plotHeight) {
		t.Errorf("half scale at y %v, the top of the scale at %v; want −0.5 and the top row's middle", series[0].y, series[segs].y)
	}
	array := &buf[:1][0]
	if a := testing.AllocsPerRun(10, func() { buf = plotVertices(buf, &h, 2, 10) }); a != 0 {
		t.Errorf("a redraw allocates %v times", a)
	}
	if &buf[:1][0] != array {
		t.Error("a redraw moved the buffer")
	}

	var short stepHistory
	short.push(0, 0)
	short.push(1, 4)
	short.push(2, 8)
	vs = plotVertexList(t, plotVertices(buf, &short, 2, 8))[2*plotDashes:]
	step := float32(plotWidth-1) / (plotSteps - 1) / plotWidth
	right := float32(plotWidth-0.5) / plotWidth
	want := []plotVertex{
		{right - 2*step, plotY(0, 2), plotMsColour}, {right - step, plotY(1, 2), plotMsColour},
		{right - step, plotY(1, 2), plotMsColour}, {right, plotY(2, 2), plotMsColour},
		{right - 2*step, plotY(0, 8), plotIterColour}, {right - step, plotY(4, 8), plotIterColour},
		{right - step, plotY(4, 8), plotIterColour}, {right, plotY(8, 8), plotIterColour},
	}
	if len(vs) != len(want) {
		t.Fatalf("three samples: %d series vertices, want %d", len(vs), len(want))
	}
	for i := range want {
		if !near(vs[i].x, want[i].x) || !near(vs[i].y, want[i].y) || vs[i].c != want[i].c {
			t.Errorf("three samples: vertex %d is %+v, want %+v", i, vs[i], want[i])
		}
	}
	var one stepHistory
	one.push(3, 3)
	if n := len(plotVertices(buf, &one, 1, 1)); n != 2*plotDashes*plotVertexFloats {
		t.Errorf("one sample wrote %d floats, want the dashes' %d alone", n, 2*plotDashes*plotVertexFloats)
	}
}

// TestHUDPlotUpdate: the plot's update draws into the lines' vertex buffer only while the panel
// is shown, sets the scales (and their labels) to the nice ceilings of the history's peaks, and
// once the scales hold it allocates nothing.
func TestHUDPlotUpdate(t *testing.T) {
	p := newHUDPlot()
	p.update()
	if n := len(*p.lines.vbo.Buffer()); n != 2*plotDashes*plotVertexFloats {
		t.Fatalf("an empty history drew %d floats, want the dashes alone", n)
	}
	p.record(3.2, 17)
	p.record(0.4, 9)
	p.panel.SetVisible(false)
	p.update()
	if n := len(*p.lines.vbo.Buffer()); n != 2*plotDashes*plotVertexFloats {
		t.Fatalf("the hidden plot drew %d floats", n)
	}
	p.panel.SetVisible(true)
	p.update()
	if p.msScale != 5 || p.itScale != 20 {
		t.Errorf("scales %v ms and %v iterations, want 5 and 20", p.msScale, p.itScale)
	}
	if ms, it := p.msLabel.Text(), p.itLabel.Text(); ms != "step time, top 5 ms" || it != "iterations, top 20" {
		t.Errorf("labels %q and %q", ms, it)
	}
	vs := plotVertexList(t, *p.lines.vbo.Buffer())[2*plotDashes:]
	if len(vs) != 4 || vs[1].y != plotY(0.4, 5) || vs[3].y != plotY(9, 20) {
		t.Errorf("two samples drew %+v; want a segment on each scale, ending at 0.4 ms and 9 iterations", vs)
	}
	if a := testing.AllocsPerRun(10, func() { p.record(1, 10); p.update() }); a != 0 {
		t.Errorf("a step and a redraw allocate %v times", a)
	}
}
