package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/stagger-physics/stagger/demo/web"
)

// frameTargetMs is the frame time every level must keep while its bodies move: 60 frames a second.
const frameTargetMs = 16

// frameLevels are the scenes of the demo's levels (demo/level.go), in the level list's order;
// -scene opens a scene's level at the level's size.
var frameLevels = []string{"cardhouse", "stack", "pyramid", "arch", "ratio", "jelly", "springboard"}

// The scripted run of each level: the throw one second in, and the frames of the next four seconds.
const (
	frameThrowAfter = "1s"
	frameRunFor     = "5s"
	// frameScreen is the Xvfb screen; the demo's window is g3n's default 800 × 600 on it.
	frameScreen = "-screen 0 1280x800x24"
)

// errNoXvfb is returned by measureFrames where xvfb-run is not installed.
var errNoXvfb = errors.New("xvfb-run not found (Debian/Ubuntu: apt-get install xvfb)")

// frameReport holds the fields of the demo's window report (its levelReport, printed at exit after
// -throw-after) that the frames table uses.
type frameReport struct {
	Scene           string  `json:"scene"`
	Level           string  `json:"level"`
	Throws          int     `json:"throws"`
	Bodies          int     `json:"bodies"`
	Renderer        string  `json:"renderer"`
	Frames          int     `json:"frames"`
	RenderMsMedian  float64 `json:"render_ms_median"`
	RenderMsP95     float64 `json:"render_ms_p95"`
	PhysicsMsMedian float64 `json:"physics_ms_median"`
	PhysicsMsP95    float64 `json:"physics_ms_p95"`
	FrameMsMedian   float64 `json:"frame_ms_median"`
	FrameMsP95      float64 `json:"frame_ms_p95"`
}

// frameArgs returns the demo's arguments for a scripted run of scene, with the screenshot that ends
// the run written to shot.
func frameArgs(scene, shot string) []string {
	return []string{"-scene", scene, "-throw-after", frameThrowAfter, "-screenshot", shot, "-screenshot-after", frameRunFor}
}

// measureFrames builds the demo and plays each of frameLevels in its window under xvfb-run with the
// scripted throw, runRepeats times, going round the levels; it returns the reports in the order
// run. A variable so that a test can stand in a machine without Xvfb.
var measureFrames = func() ([]frameReport, error) {
	xvfb, err := exec.LookPath("xvfb-run")
	if err != nil {
		return nil, errNoXvfb
	}
	dir, err := os.MkdirTemp("", "stagger-frames-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	bin := filepath.Join(dir, "demo")
	if out, err := exec.Command("go", "build", "-o", bin, "./demo").CombinedOutput(); err != nil {
		return nil, fmt.Errorf("go build ./demo: %v\n%s", err, out)
	}
	var reports []frameReport
	for range runRepeats {
		for _, scene := range frameLevels {
			r, err := playLevel(xvfb, bin, scene, filepath.Join(dir, scene+".png"))
			if err != nil {
				return nil, err
			}
			reports = append(reports, r)
		}
	}
	return reports, nil
}

// playLevel plays scene's level once in the demo bin under xvfb with the scripted throw, ending
// with a screenshot written to shot, and returns the demo's report.
func playLevel(xvfb, bin, scene, shot string) (frameReport, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	args := append([]string{"-a", "-s", frameScreen, bin}, frameArgs(scene, shot)...)
	cmd := exec.CommandContext(ctx, xvfb, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return frameReport{}, fmt.Errorf("demo -scene %s under xvfb-run: %v\n%s", scene, err, stderr.Bytes())
	}
	var r frameReport
	if err := json.Unmarshal(out, &r); err != nil {
		return r, fmt.Errorf("demo -scene %s: the report is not JSON: %v\n%s", scene, err, out)
	}
	if r.Level == "" || r.Throws != 1 || r.Frames == 0 {
		return r, fmt.Errorf("demo -scene %s: report %+v; want a level, one throw and the frames after it", scene, r)
	}
	return r, nil
}

// levelFigures are one level's figures over its runs: each the median of the runs', and the
// spread of the frame's 95th percentile.
type levelFigures struct {
	frameReport
	frameP95s []float64
}

// byLevel groups the reports by scene, in the order each scene first appears, and takes each
// figure's median over a level's runs.
func byLevel(reports []frameReport) []levelFigures {
	var order []string
	runs := map[string][]frameReport{}
	for _, r := range reports {
		if _, ok := runs[r.Scene]; !ok {
			order = append(order, r.Scene)
		}
		runs[r.Scene] = append(runs[r.Scene], r)
	}
	var out []levelFigures
	for _, scene := range order {
		rs := runs[scene]
		m := func(field func(frameReport) float64) float64 { return web.MedianMs(collect(rs, field)) }
		f := levelFigures{frameReport: rs[0], frameP95s: collect(rs, func(r frameReport) float64 { return r.FrameMsP95 })}
		f.Frames = int(m(func(r frameReport) float64 { return float64(r.Frames) }))
		f.PhysicsMsMedian = m(func(r frameReport) float64 { return r.PhysicsMsMedian })
		f.PhysicsMsP95 = m(func(r frameReport) float64 { return r.PhysicsMsP95 })
		f.RenderMsMedian = m(func(r frameReport) float64 { return r.RenderMsMedian })
		f.RenderMsP95 = m(func(r frameReport) float64 { return r.RenderMsP95 })
		f.FrameMsMedian = m(func(r frameReport) float64 { return r.FrameMsMedian })
		f.FrameMsP95 = web.MedianMs(f.frameP95s)
		out = append(out, f)
	}
	return out
}

// framesTable plays every level in the demo's window under Xvfb (measureFrames) and tabulates each
// level's frame, physics and render times after the scripted throw, medians over its runs, against
// frameTargetMs. Without xvfb-run the table has dashes and a note saying why.
func framesTable() (table, error) {
	t := table{name: "frames",
		title: fmt.Sprintf("Window: frame time per level after a throw, %s, %d cores, under Xvfb", cpuModel(), runtime.NumCPU()),
		command: fmt.Sprintf("xvfb-run -a -s '%s' demo -scene S %s (go build ./demo)", frameScreen,
			strings.Join(frameArgs("S", "F")[2:], " ")),
		header: []string{"level", "scene", "bodies", "frames", "physics ms median", "physics ms p95",
			"render ms median", "render ms p95", "frame ms median", "frame ms p95", "frame ms p95 range", fmt.Sprintf("≤ %d ms", frameTargetMs)}}
	reports, err := measureFrames()
	if err != nil && !errors.Is(err, errNoXvfb) {
		return t, err
	}
	if err != nil {
		t.title += " (Mesa llvmpipe)"
		for _, scene := range frameLevels {
			t.rows = append(t.rows, []string{"–", scene, "–", "–", "–", "–", "–", "–", "–", "–", "–", "–"})
		}
		t.note = "Frames not measured: " + err.Error() + "."
		return t, nil
	}
	renderers := map[string]bool{}
	var names []string
	for _, r := range reports {
		if !renderers[r.Renderer] {
			renderers[r.Renderer] = true
			names = append(names, r.Renderer)
		}
	}
	for _, r := range byLevel(reports) {
		t.rows = append(t.rows, []string{r.Level, r.Scene, strconv.Itoa(r.Bodies), strconv.Itoa(r.Frames),
			ms(r.PhysicsMsMedian), ms(r.PhysicsMsP95), ms(r.RenderMsMedian), ms(r.RenderMsP95),
			ms(r.FrameMsMedian), ms(r.FrameMsP95), spread(r.frameP95s, ms), withinTarget(r.frameReport)})
	}
	t.title += ", OpenGL renderer " + strings.Join(names, ", ")
	t.note = fmt.Sprintf("Each level is opened in the demo's window (800 × 600) on an Xvfb screen, drawn in software by "+
		"the OpenGL renderer named above, and struck by the scripted throw %s in (a click at its middle body, "+
		"half the charge); the figures are of the frames from the throw's to the exit %s in. A frame runs from "+
		"its start to the next frame's; its physics is the fixed steps run in it (at most 5 of 1/100 s), and its "+
		"render the rest: the scene's sync, the game, drawing, the GUI and the buffer swap. Each column's "+
		"median and 95th percentile are of that column alone. Each level is played %d times, going round the "+
		"levels; every figure is the median of its runs', and the range column gives the runs' smallest and "+
		"largest frame p95. The last column says which of the frame's median and 95th percentile are within the "+
		"%d ms target.", frameThrowAfter, frameRunFor, runRepeats, frameTargetMs)
	return t, nil
}

// ms formats a time in ms to one decimal place.
func ms(x float64) string { return strconv.FormatFloat(x, 'f', 1, 64) }

// withinTarget says which of a level's frame-time median and 95th percentile are within
// frameTargetMs: "yes" for both, "median only", or "no".
func withinTarget(r frameReport) string {
	switch {
	case r.FrameMsP95 <= frameTargetMs:
		return "yes"
	case r.FrameMsMedian <= frameTargetMs:
		return "median only"
	}
	return "no"
}
