package main

import (
	"fmt"
	"math"
	"testing"

	"github.com/g3n/engine/math32"
)

// TestFrameBoxFitsAndFills frames several boxes (scene coordinates, y up) for several fields of
// view, aspect ratios and view directions, and checks the result with a view computed here from
// the returned position and target alone: the camera must look along the requested direction;
// every corner must lie inside the frustum with a margin (within 95 % of the half view), beyond a
// near plane at half the reported nearest depth, at least frameDepth half diagonals away, and
// within the reported depths; and the box must not be tiny: its projection spans at least half
// the view in one axis.
func TestFrameBoxFitsAndFills(t *testing.T) {
	boxes := []struct {
		name     string
		min, max math32.Vector3
	}{
		{"tower 1×1×40", math32.Vector3{X: -0.5, Y: 0, Z: -0.5}, math32.Vector3{X: 0.5, Y: 40, Z: 0.5}},
		{"wall 30×1×15", math32.Vector3{X: -15, Y: 0, Z: -0.5}, math32.Vector3{X: 15, Y: 15, Z: 0.5}},
		{"tiny 0.1", math32.Vector3{X: -0.05, Y: 0, Z: -0.05}, math32.Vector3{X: 0.05, Y: 0.1, Z: 0.05}},
		{"offset 2×4×6", math32.Vector3{X: 49, Y: 1, Z: -23}, math32.Vector3{X: 51, Y: 5, Z: -17}},
		{"floor 40×0.2×40", math32.Vector3{X: -20, Y: 0, Z: -20}, math32.Vector3{X: 20, Y: 0.2, Z: 20}},
		{"point", math32.Vector3{X: 1, Y: 2, Z: 3}, math32.Vector3{X: 1, Y: 2, Z: 3}},
	}
	views := []struct {
		fov, aspect float32
		dir         math32.Vector3
		fills       bool // whether the box must fill half the view
	}{
		{60, 1.6, math32.Vector3{X: 9, Y: 5, Z: 14}, true}, // the demo's window and direction
		{60, 0.5, math32.Vector3{X: 9, Y: 5, Z: 14}, true}, // a tall, narrow window
		{30, 2.5, math32.Vector3{X: -3, Y: 8, Z: 1}, true}, // from high above, wide
		{90, 1, math32.Vector3{X: 0, Y: 0, Z: 1}, true},    // level, head on
		{120, 1, math32.Vector3{X: 1, Y: 1, Z: 1}, true},   // wide, along a cube's diagonal
		// Nearly 180°: only the least depth keeps the nearest corner off the camera.
		{179, 1, math32.Vector3{X: 1, Y: 1, Z: 1}, false},
	}
	for _, b := range boxes {
		for _, v := range views {
			name := fmt.Sprintf("%s fov %v aspect %v dir %v", b.name, v.fov, v.aspect, v.dir)
			f := frameBox(b.min, b.max, v.fov, v.aspect, v.dir)
			pos, target := f.position, f.target
			// No corner nearer than frameDepth half diagonals; the near plane at half the nearest.
			size := sub(vec(b.max), vec(b.min))
			minDepth := frameDepth * math.Max(0.5*math.Sqrt(dot3(size, size)), frameMinRadius)
			near := 0.5 * float64(f.nearest)
			if !(near > 0) {
				t.Errorf("%s: nearest corner at depth %v", name, f.nearest)
				continue
			}
			fwd := unit(sub(vec(target), vec(pos)))
			if want := unit(vec(v.dir)); math.Abs(dot3(fwd, want)+1) > 1e-6 {
				t.Errorf("%s: camera looks along %v, want %v", name, fwd, want)
				continue
			}
			right := unit(cross(fwd, [3]float64{0, 1, 0}))
			up := cross(right, fwd)
			ty := math.Tan(float64(v.fov) / 2 * math.Pi / 180)
			tx := ty * float64(v.aspect)
			lo, hi := [2]float64{math.Inf(1), math.Inf(1)}, [2]float64{math.Inf(-1), math.Inf(-1)}
			for i := 0; i < 8; i++ {
				p := vec(b.min)
				if i&1 != 0 {
					p[0] = float64(b.max.X)
				}
				if i&2 != 0 {
					p[1] = float64(b.max.Y)
				}
				if i&4 != 0 {
					p[2] = float64(b.max.Z)
				}
				d := sub(p, vec(pos))
				z := dot3(d, fwd)
				// float32 positions: allow their rounding.
				tol := 1e-6 * (math.Sqrt(dot3(vec(pos), vec(pos))) + z)
				if z <= near || z < minDepth-tol {
					t.Errorf("%s: corner %v at depth %.4g, not beyond the near plane %v or %v", name, p, z, near, minDepth)
					continue
				}
				if z < float64(f.nearest)-tol || z > float64(f.farthest)+tol {
					t.Errorf("%s: corner %v at depth %.6g, outside the reported [%v, %v]", name, p, z, f.nearest, f.farthest)
				}
				sx, sy := dot3(d, right)/z/tx, dot3(d, up)/z/ty // −1..1 across the view
				if math.Abs(sx) > 0.95 || math.Abs(sy) > 0.95 {
					t.Errorf("%s: corner %v projects to (%.3f, %.3f), outside the view or its margin", name, p, sx, sy)
				}
				lo[0], hi[0] = math.Min(lo[0], sx), math.Max(hi[0], sx)
				lo[1], hi[1] = math.Min(lo[1], sy), math.Max(hi[1], sy)
			}
			// The view spans 2 in each axis.
			fill := math.Max(hi[0]-lo[0], hi[1]-lo[1]) / 2
			if v.fills && b.name != "point" && fill < 0.5 {
				t.Errorf("%s: the box spans only %.0f %% of the view", name, 100*fill)
			}
		}
	}
}

// vec converts v to float64 components.
func vec(v math32.Vector3) [3]float64 { return [3]float64{float64(v.X), float64(v.Y), float64(v.Z)} }

// sub is a − b.
func sub(a, b [3]float64) [3]float64 { return [3]float64{a[0] - b[0], a[1] - b[1], a[2] - b[2]} }

// cross is a × b.
func cross(a, b [3]float64) [3]float64 {
	return [3]float64{a[1]*b[2] - a[2]*b[1], a[2]*b[0] - a[0]*b[2], a[0]*b[1] - a[1]*b[0]}
}

// unit is a scaled to length 1.
func unit(a [3]float64) [3]float64 {
	n := math.Sqrt(dot3(a, a))
	return [3]float64{a[0] / n, a[1] / n, a[2] / n}
}

// TestPanelTop: a menu panel sits a third of the way down a tall window; one tall enough to reach
// the HUD at the top left (the level list) starts below it; and in a window too short for both it
// stays inside the window, its bottom on the window's.
func TestPanelTop(t *testing.T) {
	for _, c := range []struct{ window, panel, hud, want float32 }{
		{900, 300, 158, 200},           // (900 − 300)/3 clears the HUD
		{600, 336, 158, 158 + menuGap}, // the level list at 800 × 600
		{400, 336, 158, 64},            // too short: the panel's bottom on the window's
		{300, 336, 158, 0},             // shorter than the panel: its top on the window's
	} {
		if got := panelTop(c.window, c.panel, c.hud); got != c.want {
			t.Errorf("panelTop(%v, %v, %v) = %v, want %v", c.window, c.panel, c.hud, got, c.want)
		}
	}
}
