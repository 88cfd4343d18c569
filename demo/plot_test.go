package main

import (
	"image"
	"math"
	"testing"
	"time"
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

// TestDrawPlot draws histories whose pictures are known: a step time held at half its scale is the
// row halfway down across the full width; iterations at the top of their scale are the top row;
// a history of one sample lights only the right edge; and a warm redraw allocates nothing.
func TestDrawPlot(t *testing.T) {
	img := image.NewRGBA(image.Rect(0, 0, plotWidth, plotHeight))
	var h stepHistory
	for i := 0; i < 3*plotSteps; i++ {
		h.push(1, 10)
	}
	drawPlot(img, &h, 2, 10)
	mid := int(math.Round(float64(plotHeight-1) / 2))
	for x := 0; x < plotWidth; x++ {
		if c := img.RGBAAt(x, mid); c != plotMsColour {
			t.Fatalf("(%d, %d) is %v, want the step time's colour", x, mid, c)
		}
		if c := img.RGBAAt(x, 0); c != plotIterColour {
			t.Fatalf("(%d, 0) is %v, want the iterations' colour", x, c)
		}
		for _, y := range []int{mid / 2, plotHeight - 1} {
			if c := img.RGBAAt(x, y); c != plotBackground {
				t.Fatalf("(%d, %d) is %v, want the backing", x, y, c)
			}
		}
	}
	if a := testing.AllocsPerRun(10, func() { drawPlot(img, &h, 2, 10) }); a != 0 {
		t.Errorf("a redraw allocates %v times", a)
	}
	var one stepHistory
	one.push(0, 0)
	drawPlot(img, &one, 1, 1)
	lit := 0
	for y := 0; y < plotHeight; y++ {
		for x := 0; x < plotWidth; x++ {
			if c := img.RGBAAt(x, y); c == plotMsColour || c == plotIterColour {
				lit++
				if x != plotWidth-1 || y != plotHeight-1 {
					t.Errorf("one sample lit (%d, %d)", x, y)
				}
			}
		}
	}
	if lit != 1 {
		t.Errorf("one sample of zeros lit %d pixels, want the bottom right one", lit)
	}
}

// TestDrawLineConnects: every segment, in each of the eight directions and steep or shallow,
// returns, and lights both ends and exactly max(|dx|, |dy|) + 1 pixels, one per step along its
// longer axis.
func TestDrawLineConnects(t *testing.T) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		for _, d := range [][2]int{{7, 0}, {0, 5}, {9, 4}, {4, 9}, {-9, 4}, {-4, -9}, {9, -4}, {-7, 0}, {0, -5}, {0, 0}, {6, 6}} {
			img := image.NewRGBA(image.Rect(0, 0, 40, 40))
			x0, y0 := 20, 20
			drawLine(img, x0, y0, x0+d[0], y0+d[1], plotMsColour)
			lit := 0
			for y := 0; y < 40; y++ {
				for x := 0; x < 40; x++ {
					if img.RGBAAt(x, y) == plotMsColour {
						lit++
					}
				}
			}
			want := max(abs(d[0]), abs(d[1])) + 1
			if lit != want || img.RGBAAt(x0, y0) != plotMsColour || img.RGBAAt(x0+d[0], y0+d[1]) != plotMsColour {
				t.Errorf("segment %v: %d pixels lit, want %d with both ends", d, lit, want)
			}
		}
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("drawLine did not return")
	}
}
