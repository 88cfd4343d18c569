package main

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestFramesTableWithoutXvfb checks that a machine without xvfb-run gets the frames table with a row
// of dashes per level and a note saying why, instead of a failed report, and that another failure
// fails it.
func TestFramesTableWithoutXvfb(t *testing.T) {
	saved := measureFrames
	defer func() { measureFrames = saved }()
	measureFrames = func() ([]frameReport, error) { return nil, errNoXvfb }
	tb, err := framesTable()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(tb.note, "Frames not measured: ") || !strings.Contains(tb.note, "xvfb-run not found") {
		t.Errorf("note %q: want it to say the frames were not measured and why", tb.note)
	}
	if !strings.Contains(tb.title, "llvmpipe") {
		t.Errorf("title %q: want it to name the renderer the table is for", tb.title)
	}
	if len(tb.rows) != len(frameLevels) {
		t.Fatalf("%d rows for %d levels", len(tb.rows), len(frameLevels))
	}
	for i, r := range tb.rows {
		if len(r) != len(tb.header) || r[1] != frameLevels[i] || r[len(r)-1] != "–" {
			t.Errorf("row %v: want the level's scene and dashes under %v", r, tb.header)
		}
	}
	measureFrames = func() ([]frameReport, error) { return nil, fmt.Errorf("demo -scene arch under xvfb-run: boom") }
	if _, err := framesTable(); err == nil || !strings.Contains(err.Error(), "boom") {
		t.Errorf("a failed run gave error %v, want it passed on", err)
	}
}

// TestFramesTableJudgesTarget checks the table made of known reports, three runs a level going
// round the levels: each level's figures, the medians of its runs', in its columns, the range of
// its frame p95s, the renderer named in the title, and the 16 ms target judged on the medians of
// the frame's median and 95th percentile (a p95 of exactly 16 ms meets it).
func TestFramesTableJudgesTarget(t *testing.T) {
	saved := measureFrames
	defer func() { measureFrames = saved }()
	mk := func(scene string, frames int, physics, median, p95 float64) frameReport {
		return frameReport{Scene: scene, Level: "L " + scene, Throws: 1, Bodies: 15, Renderer: "llvmpipe (LLVM 15.0.6, 256 bits)",
			Frames: frames, PhysicsMsMedian: physics, PhysicsMsP95: 2, RenderMsMedian: 3, RenderMsP95: 4, FrameMsMedian: median, FrameMsP95: p95}
	}
	measureFrames = func() ([]frameReport, error) {
		return []frameReport{
			mk("cardhouse", 60, 1.04, 10, 16), mk("stack", 50, 1, 12, 30), mk("pyramid", 70, 1, 17, 40),
			mk("cardhouse", 62, 5, 11, 33.3), mk("stack", 52, 1, 20, 12), mk("pyramid", 71, 1, 15, 15),
			mk("cardhouse", 58, 0.5, 9, 12), mk("stack", 51, 1, 13, 17), mk("pyramid", 72, 1, 18, 16.5),
		}, nil
	}
	tb, err := framesTable()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(tb.title, "OpenGL renderer llvmpipe (LLVM 15.0.6, 256 bits)") {
		t.Errorf("title %q: want the reported renderer", tb.title)
	}
	want := [][]string{
		{"L cardhouse", "cardhouse", "15", "60", "1.0", "2.0", "3.0", "4.0", "10.0", "16.0", "12.0–33.3", "yes"},
		{"L stack", "stack", "15", "51", "1.0", "2.0", "3.0", "4.0", "13.0", "17.0", "12.0–30.0", "median only"},
		{"L pyramid", "pyramid", "15", "71", "1.0", "2.0", "3.0", "4.0", "17.0", "16.5", "15.0–40.0", "no"},
	}
	if len(tb.rows) != len(want) {
		t.Fatalf("rows %v, want %v", tb.rows, want)
	}
	for i := range want {
		if !slices.Equal(tb.rows[i], want[i]) {
			t.Errorf("row %d: %v, want %v", i, tb.rows[i], want[i])
		}
		if len(tb.rows[i]) != len(tb.header) {
			t.Errorf("row %d has %d cells for %d columns", i, len(tb.rows[i]), len(tb.header))
		}
	}
}
