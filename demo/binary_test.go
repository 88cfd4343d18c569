package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// buildDemo compiles the demo binary into a temporary directory.
func buildDemo(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "demo")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// runDemo runs the binary with args and returns stdout, stderr and the exit code. Its star
// record is a file in a temporary directory (from $STAGGER_RECORD when the test set it), never the
// user's.
func runDemo(t *testing.T, bin string, timeout time.Duration, args ...string) (string, string, int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	if os.Getenv(recordEnv) == "" {
		cmd.Env = append(os.Environ(), recordEnv+"="+filepath.Join(t.TempDir(), "stars.json"))
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("demo %v did not finish within %v", args, timeout)
	}
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return stdout.String(), stderr.String(), code
}

// TestHeadlessCommandLine checks the runner's contract as a command: one JSON object and nothing else
// on stdout with -json, the same hash twice and for any worker count, and a one-line error with a
// non-zero exit for an unknown scene or a bad flag.
func TestHeadlessCommandLine(t *testing.T) {
	bin := buildDemo(t)
	var hashes []string
	for _, workers := range []string{"1", "2", "2"} {
		out, errOut, code := runDemo(t, bin, time.Minute, "-headless", "-scene", "tumble", "-seconds", "2", "-json", "-workers", workers)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		dec := json.NewDecoder(strings.NewReader(out))
		var res map[string]any
		if err := dec.Decode(&res); err != nil {
			t.Fatalf("stdout is not a JSON object: %v\n%s", err, out)
		}
		if dec.More() {
			t.Fatalf("stdout holds more than one JSON value:\n%s", out)
		}
		for _, field := range []string{"scene", "n", "seed", "solver", "dt", "steps", "bodies", "contacts_mean", "contacts_max", "islands_mean", "ms_median", "ms_p95", "phase_ms_mean", "phase_ms_p95", "iters_mean", "converged_frac", "cut_short", "cut_short_frac", "err_ratio_max", "max_shift", "max_drop", "min_z", "max_penetration", "max_penetration_late", "slide", "slide_expected", "energy_rise", "nonfinite", "hash"} {
			if _, ok := res[field]; !ok {
				t.Errorf("JSON lacks field %q", field)
			}
		}
		if res["nonfinite"] != false || res["steps"] != float64(200) {
			t.Errorf("nonfinite %v, steps %v", res["nonfinite"], res["steps"])
		}
		hashes = append(hashes, res["hash"].(string))
	}
	if hashes[0] != hashes[1] || hashes[1] != hashes[2] {
		t.Errorf("hashes differ between runs: %v", hashes)
	}
	for _, args := range [][]string{
		{"-headless", "-scene", "nosuchscene"},
		{"-headless", "-dt", "-1"},
		{"-headless", "-solver", "magic"},
		{"-headless", "-friction", "cone"},
		{"-headless", "-n", "0"},
		{"-headless", "-mu", "-0.5"},
		{"-headless", "-e", "2"},
		{"-headless", "-workers", "0"},
		{"-headless", "-workers", "100000"},
		{"-headless", "-dt", "1e9"},
		{"-headless", "-seconds", "0.001"},
		{"-headless", "-eps", "NaN"},
		{"-headless", "-bogus"},
		{"-headless", "stray"},
	} {
		out, errOut, code := runDemo(t, bin, time.Minute, args...)
		if code == 0 {
			t.Errorf("%v: exit 0, want non-zero", args)
		}
		if out != "" {
			t.Errorf("%v: printed on stdout: %q", args, out)
		}
		if lines := strings.Count(strings.TrimRight(errOut, "\n"), "\n"); lines != 0 || errOut == "" {
			t.Errorf("%v: want a one-line error, got %q", args, errOut)
		}
	}
}

// TestWindowScreenshot opens the real demo window (under Xvfb in `make test`) on a small stack solved
// by PGS with its contacts drawn, lets it render for two seconds, saves a screenshot and fails if the
// process failed, the picture is blank or the HUD plot's lines are missing from it. It needs a
// display, so it runs only when STAGGER_WINDOW_TEST=1; STAGGER_SCREENSHOT keeps the picture.
func TestWindowScreenshot(t *testing.T) {
	if os.Getenv("STAGGER_WINDOW_TEST") != "1" {
		t.Skip("set STAGGER_WINDOW_TEST=1 and provide a display (make smoke runs it under Xvfb)")
	}
	if os.Getenv("DISPLAY") == "" {
		t.Fatal("STAGGER_WINDOW_TEST=1 but DISPLAY is empty")
	}
	shot := os.Getenv("STAGGER_SCREENSHOT")
	if shot == "" {
		shot = filepath.Join(t.TempDir(), "demo-window.png")
	}
	bin := buildDemo(t)
	// A stack with contacts drawn and the PGS baseline, so the contact drawing and the solver
	// settings of the window are exercised too.
	_, errOut, code := runDemo(t, bin, 2*time.Minute, "-scene", "stack", "-n", "5", "-solver", "pgs", "-contacts",
		"-screenshot", shot, "-screenshot-after", "2s")
	if code != 0 {
		t.Fatalf("demo exited %d: %s", code, errOut)
	}
	img := readPNG(t, shot)
	colours := distinctColours(img)
	if colours < 2 {
		t.Fatalf("the screenshot is blank: %d colour(s)", colours)
	}
	t.Logf("screenshot %s: %v, %d distinct colours", shot, img.Bounds().Size(), colours)
	// The HUD plot's lines are drawn, over their backing: nothing else in the window is in the
	// series' colours but a few pixels of their labels, and a series spanning a quarter of the
	// plot's width lights a pixel in each column of it at least.
	for _, c := range []color.RGBA{plotMsColour, plotIterColour} {
		if n := colourPixels(img, c); n < plotWidth/4 {
			t.Errorf("%d pixels in the plot colour %v, want at least %d", n, c, plotWidth/4)
		}
	}
}

// colourPixels counts the pixels of img in colour c exactly.
func colourPixels(img image.Image, c color.RGBA) int {
	n := 0
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if color.RGBAModel.Convert(img.At(x, y)).(color.RGBA) == (color.RGBA{R: c.R, G: c.G, B: c.B, A: 255}) {
				n++
			}
		}
	}
	return n
}

// TestWindowThrows plays one scripted throw per level in the real window (under Xvfb in `make
// test`): a click at the level's middle body (the top of its highest for a level that drops
// weights), held for half the charge, one second in. The demo's report at exit must count the
// throw, in the level's count too, and show that some body of the level moved by more than a
// millimetre in the following two and a half seconds, or that the weight dropped rests on top, and
// give those frames' times (checkFrameTimes); and where the machine has no sound device
// the audio library must not have written to the console. Like TestWindowScreenshot it needs a display
// and runs only when STAGGER_WINDOW_TEST=1.
func TestWindowThrows(t *testing.T) {
	if os.Getenv("STAGGER_WINDOW_TEST") != "1" {
		t.Skip("set STAGGER_WINDOW_TEST=1 and provide a display (make smoke runs it under Xvfb)")
	}
	bin := buildDemo(t)
	for _, level := range [][]string{
		{"-scene", "pyramid", "-n", "5"},
		{"-scene", "stack", "-n", "10"},
		{"-scene", "cardhouse"},
		{"-scene", "arch"},
		{"-scene", "ratio"},
		{"-scene", "jelly"},
		{"-scene", "springboard"},
	} {
		args := append(append([]string{}, level...), "-throw-after", "1s",
			"-screenshot", filepath.Join(t.TempDir(), "throw.png"), "-screenshot-after", "3.5s")
		r, errOut := runLevel(t, bin, fmt.Sprint(level), args...)
		if strings.Contains(errOut, "ALSA") || strings.Contains(errOut, "AL lib") {
			t.Errorf("%v: the audio library wrote to the console where there is no sound device:\n%s", level, errOut)
		}
		if _, err := os.Stat("/dev/snd"); err != nil && os.Getenv("ALSOFT_DRIVERS") == "" && r.Knocks != 0 {
			t.Errorf("%v: %d knocks played where there is no sound device; want the game silent", level, r.Knocks)
		}
		if r.Throws != 1 || r.Bodies == 0 {
			t.Errorf("%v: %+v; want one throw at a level of bodies", level, r)
		}
		// The level counted the throw and judged it: a throw moves the structure; a weight
		// dropped on the top of the mass-ratio stack rests there, and the stack stands.
		switch {
		case r.Level == "" || r.LevelThrows != 1 || (r.State != "playing" && r.State != "won" && r.State != "lost"):
			t.Errorf("%v: %+v; want the level to count one throw", level, r)
		case r.Goal == "stand" && (r.Held != 1 || r.State != "playing"):
			t.Errorf("%v: %+v; want the dropped weight held on top", level, r)
		case r.Goal != "stand" && !(r.Moved > 1e-3):
			t.Errorf("%v: %+v; want one throw that moves the level", level, r)
		}
		checkFrameTimes(t, level, r)
		t.Logf("%v: %+v", level, r)
	}
}

// TestWindowSplit plays the tower split (-split, as the V key does: Staggered Projections in the
// left half, PGS in the right) in the real window: a screenshot before a throw, one 2.5 s after a
// throw at the tower's middle, and the control, one 3.5 s in without a throw. The throw must land
// in both simulations (the report counts it in each and shows a body moved in each) and change the
// picture of each half where the tower stands, while the halves of the control match the picture
// before. Like TestWindowScreenshot it needs a display and runs only when STAGGER_WINDOW_TEST=1.
func TestWindowSplit(t *testing.T) {
	if os.Getenv("STAGGER_WINDOW_TEST") != "1" {
		t.Skip("set STAGGER_WINDOW_TEST=1 and provide a display (make smoke runs it under Xvfb)")
	}
	bin := buildDemo(t)
	shoot := func(name string, args ...string) (image.Image, levelReport) {
		t.Helper()
		shot := filepath.Join(t.TempDir(), name+".png")
		args = append([]string{"-scene", "stack", "-n", "10", "-split", "-screenshot", shot}, args...)
		return shootLevel(t, bin, name, shot, args...)
	}
	before, _ := shoot("before", "-throw-after", "60s", "-screenshot-after", "1.5s")
	after, r := shoot("after", "-throw-after", "1s", "-screenshot-after", "3.5s")
	still, rs := shoot("still", "-throw-after", "60s", "-screenshot-after", "3.5s")
	if !r.Split || r.Throws != 1 || r.TwinThrows != 1 || !(r.Moved > 1e-3) || !(r.TwinMoved > 1e-3) {
		t.Errorf("after a throw: %+v; want one throw in each half, moving a body in each", r)
	}
	if !rs.Split || rs.Throws != 0 || rs.TwinThrows != 0 {
		t.Errorf("without a throw: %+v", rs)
	}
	for half, name := range []string{"left", "right"} {
		moved, rest := halfChange(before, after, half), halfChange(before, still, half)
		t.Logf("%s half: %.2f %% of its middle changed by the throw, %.2f %% without", name, 100*moved, 100*rest)
		if moved < 0.01 || rest > moved/5 {
			t.Errorf("%s half: %.2f %% of its middle changed by the throw, %.2f %% without; want at least 1 %% and five times the control",
				name, 100*moved, 100*rest)
		}
	}
}

// halfChange is the fraction of the pixels of the middle band of a window's left (half 0) or
// right (1) half, 30 % to 75 % down, clear of the HUD above and the labels below, that differ
// between a and b by more than 40 in a channel.
func halfChange(a, b image.Image, half int) float64 {
	bd := a.Bounds()
	x0 := bd.Min.X + half*bd.Dx()/2
	changed, all := 0, 0
	for y := bd.Min.Y + bd.Dy()*30/100; y < bd.Min.Y+bd.Dy()*75/100; y++ {
		for x := x0 + 4; x < x0+bd.Dx()/2-4; x++ {
			r1, g1, b1, _ := a.At(x, y).RGBA()
			r2, g2, b2, _ := b.At(x, y).RGBA()
			d := max(absDiff(r1, r2), absDiff(g1, g2), absDiff(b1, b2)) >> 8
			all++
			if d > 40 {
				changed++
			}
		}
	}
	return float64(changed) / float64(all)
}

// absDiff is |a − b|.
func absDiff(a, b uint32) uint32 {
	if a > b {
		return a - b
	}
	return b - a
}

// checkFrameTimes checks a window report's frame times over the 2.5 s from the scripted throw to the
// screenshot: some frames (the window draws at least a few a second), with each series' median no
// more than its 95th percentile, physics time in frames that step moving bodies, and a frame no
// shorter than the physics it ran.
func checkFrameTimes(t *testing.T, level []string, r levelReport) {
	t.Helper()
	s := r.frameSummary
	switch {
	case s.Frames < 5:
		t.Errorf("%v: %d frames in the 2.5 s after the throw", level, s.Frames)
	case !(s.PhysicsMsP95 > 0) || !(s.RenderMsMedian > 0):
		// A frame runs the fixed steps that fell due in it, so where frames take less than a
		// step (10 ms) most run none and the physics median is 0; a frame under llvmpipe takes
		// about 2 ms or more, so at least a fifth of them step.
		t.Errorf("%v: %+v; want render time in every frame and physics time in the frames that step", level, s)
	case s.FrameMsMedian > s.FrameMsP95 || s.PhysicsMsMedian > s.PhysicsMsP95 || s.RenderMsMedian > s.RenderMsP95:
		t.Errorf("%v: %+v; a median above its 95th percentile", level, s)
	case s.PhysicsMsMedian > s.FrameMsP95 || s.RenderMsMedian > s.FrameMsP95:
		t.Errorf("%v: %+v; a part's median longer than the frame's 95th percentile", level, s)
	}
	if r.Renderer == "" {
		t.Errorf("%v: the report does not name the renderer", level)
	}
}

// TestWindowKnocks plays the pyramid's scripted throw with OpenAL's null backend chosen
// (ALSOFT_DRIVERS=null): a device that works and plays into nothing, so the impact sounds run
// through g3n's players where the machine has no sound card. The throw must start at least one
// knock, and the audio library must write nothing to the console. The control: the arch, whose
// first step begins contacts carrying tens of N·s, left alone for 2.5 s makes no sound. Like
// TestWindowScreenshot it needs a display and runs only when STAGGER_WINDOW_TEST=1.
func TestWindowKnocks(t *testing.T) {
	if os.Getenv("STAGGER_WINDOW_TEST") != "1" {
		t.Skip("set STAGGER_WINDOW_TEST=1 and provide a display (make smoke runs it under Xvfb)")
	}
	t.Setenv("ALSOFT_DRIVERS", "null")
	bin := buildDemo(t)
	out, errOut, code := runDemo(t, bin, 2*time.Minute, "-scene", "pyramid", "-n", "5", "-throw-after", "1s",
		"-screenshot", filepath.Join(t.TempDir(), "knock.png"), "-screenshot-after", "3.5s")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var r levelReport
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("the report is not JSON: %v\n%s", err, out)
	}
	if r.Throws != 1 || r.Knocks < 1 {
		t.Errorf("%+v; want one throw that knocks", r)
	}
	if errOut != "" {
		t.Errorf("the demo wrote to the console:\n%s", errOut)
	}
	t.Logf("%+v", r)
	// The report comes at exit; the throw, due after the screenshot, never happens.
	out, errOut, code = runDemo(t, bin, 2*time.Minute, "-scene", "arch", "-throw-after", "60s",
		"-screenshot", filepath.Join(t.TempDir(), "rest.png"), "-screenshot-after", "2.5s")
	if code != 0 {
		t.Fatalf("arch at rest: exit %d: %s", code, errOut)
	}
	var rest levelReport
	if err := json.Unmarshal([]byte(out), &rest); err != nil {
		t.Fatalf("the report is not JSON: %v\n%s", err, out)
	}
	if rest.Throws != 0 || rest.Knocks != 0 {
		t.Errorf("the arch left alone: %+v; want no throw and no knock", rest)
	}
}

// TestWindowStartScreen opens the game as `make demo` does, with no -scene, so it starts at the
// level list, and takes a screenshot after two seconds: the picture must not be blank, and the
// list's dark panel must cover most of the middle of the window, where the level shows through
// when no panel is there. Then the best stars: opened again over a record of three stars on every
// level, the list shows more star-coloured pixels (filled stars) than over the empty record
// (hollow ones), at least 1.4 times as many (a hollow star is drawn in a thick outline). Like
// TestWindowScreenshot it needs a display and runs only when STAGGER_WINDOW_TEST=1.
func TestWindowStartScreen(t *testing.T) {
	if os.Getenv("STAGGER_WINDOW_TEST") != "1" {
		t.Skip("set STAGGER_WINDOW_TEST=1 and provide a display (make smoke runs it under Xvfb)")
	}
	bin := buildDemo(t)
	shot := filepath.Join(t.TempDir(), "start.png")
	_, errOut, code := runDemo(t, bin, 2*time.Minute, "-screenshot", shot, "-screenshot-after", "2s")
	if code != 0 {
		t.Fatalf("demo exited %d: %s", code, errOut)
	}
	img := readPNG(t, shot)
	if colours := distinctColours(img); colours < 2 {
		t.Fatalf("the start screen is blank: %d colour(s)", colours)
	}
	// The panel is a dark grey (panelColour, nearly opaque); count such pixels in the box from
	// 40 % to 60 % across and 25 % to 40 % down, between the buttons' rows and beside them.
	b := img.Bounds()
	dark, all := 0, 0
	for y := b.Min.Y + b.Dy()*25/100; y < b.Min.Y+b.Dy()*40/100; y++ {
		for x := b.Min.X + b.Dx()*40/100; x < b.Min.X+b.Dx()*60/100; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			hi, lo := max(r, g, bl)>>8, min(r, g, bl)>>8
			all++
			if hi < 90 && hi-lo < 20 {
				dark++
			}
		}
	}
	if frac := float64(dark) / float64(all); frac < 0.3 {
		t.Errorf("only %.0f %% of the window's middle is the level list's panel", 100*frac)
	}
	hollow := starPixels(img)
	full := starRecord{}
	for _, l := range levels {
		full[l.scene] = 3
	}
	record := filepath.Join(t.TempDir(), "stars.json")
	if err := os.WriteFile(record, full.encode(), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv(recordEnv, record)
	shot = filepath.Join(t.TempDir(), "start-stars.png")
	if _, errOut, code := runDemo(t, bin, 2*time.Minute, "-screenshot", shot, "-screenshot-after", "2s"); code != 0 {
		t.Fatalf("demo exited %d: %s", code, errOut)
	}
	img2 := readPNG(t, shot)
	filled := starPixels(img2)
	if hollow == 0 || 10*filled < 14*hollow {
		t.Errorf("star-coloured pixels: %d with no record, %d with three stars on every level; want hollow stars, then at least 1.4 times as many", hollow, filled)
	}
	t.Logf("star-coloured pixels: %d hollow, %d filled", hollow, filled)
}

// starPixels counts the pixels of img near starColour (a saturated yellow nothing else in the
// game is drawn in) in the start screen's column of stars: 60 % to 80 % across, 20 % to 70 % down,
// clear of the HUD's stars in the top right corner.
func starPixels(img image.Image) int {
	n := 0
	b := img.Bounds()
	for y := b.Min.Y + b.Dy()*20/100; y < b.Min.Y+b.Dy()*70/100; y++ {
		for x := b.Min.X + b.Dx()*60/100; x < b.Min.X+b.Dx()*80/100; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			if r>>8 > 200 && g>>8 > 150 && g>>8 < 230 && bl>>8 < 90 {
				n++
			}
		}
	}
	return n
}

// distinctColours counts the distinct colours of img, stopping at 1,000.
func distinctColours(img image.Image) int {
	seen := map[[4]uint32]bool{}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, a := img.At(x, y).RGBA()
			seen[[4]uint32{r, g, bl, a}] = true
			if len(seen) >= 1000 {
				return len(seen)
			}
		}
	}
	return len(seen)
}

// TestWindowSingleSample opens the tower at rest in the real window twice: as on any machine, and
// with -msaa, which keeps g3n's multisampled window. Under Xvfb the renderer draws on the CPU, so
// the first must draw into a framebuffer of one sample (GL_SAMPLES 0 or 1) and the second into a
// multisampled one; the drawing state the first set again in its new context must equal the one
// g3n set in the second's (gl_state, read back from OpenGL), and the two screenshots must agree
// but for at most 1 % of the pixels below the HUD (edges, where only the multisampled one
// antialiases). Like TestWindowScreenshot it needs a display and runs only when
// STAGGER_WINDOW_TEST=1.
func TestWindowSingleSample(t *testing.T) {
	if os.Getenv("STAGGER_WINDOW_TEST") != "1" {
		t.Skip("set STAGGER_WINDOW_TEST=1 and provide a display (make smoke runs it under Xvfb)")
	}
	bin := buildDemo(t)
	shoot := func(extra ...string) (image.Image, levelReport) {
		t.Helper()
		shot := filepath.Join(t.TempDir(), "shot.png")
		args := append([]string{"-scene", "stack", "-n", "5", "-throw-after", "60s", "-screenshot", shot, "-screenshot-after", "2s"}, extra...)
		return shootLevel(t, bin, fmt.Sprint(extra), shot, args...)
	}
	single, rs := shoot()
	multi, rm := shoot("-msaa")
	t.Logf("renderer %q: %d samples, with -msaa %d", rs.Renderer, rs.Samples, rm.Samples)
	if !softwareRenderer(rs.Renderer) {
		t.Fatalf("renderer %q: want a software renderer under Xvfb", rs.Renderer)
	}
	if rs.Samples != 0 && rs.Samples != 1 {
		t.Errorf("the window draws into %d samples a pixel on a software renderer; want 0 or 1", rs.Samples)
	}
	if rm.Samples < 2 {
		t.Errorf("with -msaa the window draws into %d samples a pixel; want a multisampled framebuffer", rm.Samples)
	}
	if len(rs.GLState) == 0 || len(rs.GLState) != len(rm.GLState) {
		t.Fatalf("gl_state %v, with -msaa %v; want the same state read back", rs.GLState, rm.GLState)
	}
	for name, v := range rm.GLState {
		if rs.GLState[name] != v {
			t.Errorf("%s is %#x in the single-sample window, %#x in g3n's", name, rs.GLState[name], v)
		}
	}
	b := single.Bounds()
	changed, all := 0, 0
	for y := b.Min.Y + b.Dy()*30/100; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r1, g1, b1, _ := single.At(x, y).RGBA()
			r2, g2, b2, _ := multi.At(x, y).RGBA()
			all++
			if max(absDiff(r1, r2), absDiff(g1, g2), absDiff(b1, b2))>>8 > 40 {
				changed++
			}
		}
	}
	t.Logf("%.2f %% of the pixels below the HUD differ from the multisampled window's", 100*float64(changed)/float64(all))
	if 100*changed > all {
		t.Errorf("%d of %d pixels below the HUD differ from the multisampled window's; want at most 1 %%", changed, all)
	}
}

// TestWindowInput checks that the window takes input through GLFW's events: with the tower open
// (no scripted throw), the V key made through the X server's XTEST extension (xInput) must split
// the window, and a left click below its middle then throw in both halves; the control, the same
// run without input, reports neither. On a software renderer this is the single-sample window that
// replaced g3n's (useSingleSampleWindow), which must have taken over g3n's callbacks. Like
// TestWindowScreenshot it needs a display and runs only when STAGGER_WINDOW_TEST=1.
func TestWindowInput(t *testing.T) {
	if os.Getenv("STAGGER_WINDOW_TEST") != "1" {
		t.Skip("set STAGGER_WINDOW_TEST=1 and provide a display (make smoke runs it under Xvfb)")
	}
	bin := buildDemo(t)
	x, err := dialX()
	if err != nil {
		t.Fatal(err)
	}
	defer x.close()
	if w, err := x.windowUnder(400, 450); err != nil || w != 0 {
		t.Fatalf("before the demo opens: window %#x under the pointer, %v; want none", w, err)
	}
	keyV, err := x.keycode('v')
	if err != nil {
		t.Fatal(err)
	}
	play := func(input bool) levelReport {
		t.Helper()
		args := []string{"-scene", "stack", "-n", "10", "-throw-after", "60s",
			"-screenshot", filepath.Join(t.TempDir(), "input.png"), "-screenshot-after", "8s"}
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, bin, args...)
		cmd.Env = append(os.Environ(), recordEnv+"="+filepath.Join(t.TempDir(), "stars.json"))
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		exited := make(chan error, 1)
		go func() { exited <- cmd.Wait() }()
		if input {
			// g3n's window is at the screen's corner (no window manager places it): wait for a
			// window under the window's middle that stays for a second. The single-sample window
			// replaces g3n's about 50 ms after it maps (events sent to the first are lost with it),
			// so a poll may see either or only the second; where no replacement comes, the first
			// stays.
			var seen uint32
			deadline, steady := time.Now().Add(time.Minute), time.Time{}
			for {
				w, err := x.windowUnder(400, 450)
				if err != nil {
					t.Fatal(err)
				}
				if w != seen {
					seen, steady = w, time.Now().Add(time.Second)
				}
				if seen != 0 && time.Now().After(steady) {
					t.Logf("window %#x under the pointer for a second", seen)
					break
				}
				if time.Now().After(deadline) {
					t.Fatal("no window opened under the screen's (400, 450) within a minute")
				}
				select {
				case err := <-exited:
					// A demo that ends before its window is found (a crash in the driver) says
					// why on stderr.
					t.Fatalf("the demo exited before the input was sent (window %#x last under (400, 450)): %v: %s", seen, err, stderr.String())
				default:
				}
				time.Sleep(50 * time.Millisecond)
			}
			time.Sleep(500 * time.Millisecond)
			// V first: splitting restarts the level, and the throw then lands in both halves.
			if err := x.tap(keyV); err != nil {
				t.Fatal(err)
			}
			time.Sleep(500 * time.Millisecond)
			if err := x.click(400, 450); err != nil {
				t.Fatal(err)
			}
		}
		if err := <-exited; err != nil {
			t.Fatalf("input %v: %v: %s", input, err, stderr.String())
		}
		var r levelReport
		if err := json.Unmarshal(stdout.Bytes(), &r); err != nil {
			t.Fatalf("input %v: the report is not JSON: %v\n%s", input, err, stdout.String())
		}
		return r
	}
	r := play(true)
	if !r.Split || r.Throws != 1 || r.TwinThrows != 1 {
		t.Errorf("after V and a click: %+v; want the window split and one throw in each half", r)
	}
	if c := play(false); c.Throws != 0 || c.Split {
		t.Errorf("without input: %+v; want no throw and the window whole", c)
	}
}

// shootLevel runs the demo binary bin with args, which write a screenshot to shot, and returns
// the screenshot and the level's JSON report; name labels the run in failures.
func shootLevel(t *testing.T, bin, name, shot string, args ...string) (image.Image, levelReport) {
	t.Helper()
	r, _ := runLevel(t, bin, name, args...)
	return readPNG(t, shot), r
}

// runLevel runs the demo binary bin with args and returns the level's JSON report and what the
// run wrote to stderr; name labels the run in failures.
func runLevel(t *testing.T, bin, name string, args ...string) (levelReport, string) {
	t.Helper()
	out, errOut, code := runDemo(t, bin, 2*time.Minute, args...)
	if code != 0 {
		t.Fatalf("%s: exit %d: %s", name, code, errOut)
	}
	var r levelReport
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("%s: the report is not JSON: %v\n%s", name, err, out)
	}
	return r, errOut
}

// readPNG decodes the PNG screenshot at path.
func readPNG(t *testing.T, path string) image.Image {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	return img
}
