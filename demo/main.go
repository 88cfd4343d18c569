// Command demo is stagger's demo game and its headless scene runner.
//
//	go run ./demo                      opens the game at its level list
//	go run ./demo -scene pyramid       opens a window on that scene's level (or free play)
//	go run ./demo -headless -scene tumble -seconds 10 -json
//
// docs/scenes.md describes the headless runner's flags and JSON fields. Built for js/wasm
// (demo/web serves it) the same game runs in a browser, its settings given as the page's query
// parameters (query.go). In the window: click to
// throw at what the cursor points at (hold to throw harder; 1, 2, 3 choose a ball, a brick or a
// heavy ball), drag to orbit, wheel to zoom, Esc the menu, P pause, N single step while paused,
// R restart, Tab next level, Enter next level after a win, S cycle the contact solver, V the
// level side by side in Staggered Projections and PGS, F switch the friction model, D the
// solver's figures, C draw contacts, G the plot of step time and iterations. Impacts knock where there is a sound device. level.go defines the levels.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/stagger-physics/stagger/demo/headless"
)

// windowOptions are the flags of the window mode only.
type windowOptions struct {
	screenshot      string
	screenshotAfter time.Duration
	contacts        bool // start with contact points and normals drawn
	// throwAfter, when positive, throws once at the middle of the window that long after the
	// start (the scripted throw of the window test), and makes the demo print the level's report
	// as one JSON line when it exits.
	throwAfter time.Duration
	// split opens the window split, as the V key does: the level in Staggered Projections on the
	// left and PGS on the right.
	split bool
	// msaa keeps g3n's multisampled window where the renderer draws on the CPU, which otherwise
	// gets a single-sample one (useSingleSampleWindow).
	msaa bool
}

// windowScene is the scene behind the level list when -scene is not given: the first level's.
var windowScene = levels[0].scene

// run parses args and runs the window or the headless runner.
func run(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("demo", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	opts := headless.DefaultOptions()
	opts.Register(fs)
	isHeadless := fs.Bool("headless", false, "simulate without a window and report")
	var win windowOptions
	fs.StringVar(&win.screenshot, "screenshot", "", "window mode: save a PNG of the window to this path and exit")
	fs.DurationVar(&win.screenshotAfter, "screenshot-after", 2*time.Second, "window mode: when to take the -screenshot")
	fs.BoolVar(&win.contacts, "contacts", false, "window mode: draw contact points and normals from the start (key C)")
	fs.BoolVar(&win.split, "split", false, "window mode: start with the window split, Staggered Projections left and PGS right (key V)")
	fs.BoolVar(&win.msaa, "msaa", false, "window mode: keep the multisampled (antialiased) window on a software OpenGL renderer too")
	fs.DurationVar(&win.throwAfter, "throw-after", 0, "window mode: throw once at the window's middle after this long, and print a JSON report of the level at exit")
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			fs.SetOutput(stderr)
			fs.PrintDefaults()
			return nil
		}
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	set := headless.SetFlags(fs)
	if !*isHeadless && !set["scene"] {
		opts.Scene = windowScene
	}
	sc, params, err := opts.Resolve(set)
	if err != nil {
		return err
	}
	if !*isHeadless {
		if win.screenshotAfter <= 0 {
			return fmt.Errorf("-screenshot-after must be > 0, got %v", win.screenshotAfter)
		}
		if win.throwAfter < 0 {
			return fmt.Errorf("-throw-after must be >= 0, got %v", win.throwAfter)
		}
		return runWindow(opts, set, win, stdout)
	}
	var progress io.Writer
	if isTerminal(stderr) {
		progress = stderr
	}
	res, err := headless.Run(opts, sc, params, progress)
	if err != nil {
		return err
	}
	if opts.JSON {
		enc := json.NewEncoder(stdout)
		return enc.Encode(res)
	}
	fmt.Fprintf(stdout, "%s n=%d: %d steps, %d bodies, step median %.3f ms (p95 %.3f), max shift %.4g m, max drop %.4g m, energy rise %.3g J, hash %s\n",
		res.Scene, res.N, res.Steps, res.Bodies, res.MsMedian, res.MsP95, res.MaxShift, res.MaxDrop, res.EnergyRise, res.Hash[:16])
	return nil
}

// isTerminal reports whether w is a character device (a terminal).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
