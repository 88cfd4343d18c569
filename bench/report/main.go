// Command report runs stagger's benchmarks and the headless runner on every scene, times some of
// the scenes in Bullet (bench/bullet), the browser build and the demo's window on every level, and
// writes BENCHMARKS.md (one current table per area, with the machine, date and command) and a CSV
// file per table under bench/. `make bench` runs it from the repository root; history lives in git.
//
// -only NAME runs one table (solver, step, scenes-step, collide, ecs, deform, deform-step, scenes,
// bullet, browser or frames) and prints it on stdout, writing no file: for checking a table
// without the whole report's minutes.
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/stagger-physics/stagger/bench/bullet"
	"github.com/stagger-physics/stagger/demo/headless"
	"github.com/stagger-physics/stagger/demo/web"
	"github.com/stagger-physics/stagger/scenes"
)

// table is one area's figures: a title, the command that produced them, an optional note, a
// header and rows.
type table struct {
	name, title, command string
	note                 string // a paragraph under the command; may be empty
	header               []string
	rows                 [][]string
}

func main() {
	out := flag.String("o", "BENCHMARKS.md", "the report to write")
	dir := flag.String("csv", "bench", "the directory for the CSV files")
	only := flag.String("only", "", "run only this table and print it on stdout (solver, step, scenes-step, collide, ecs, deform, deform-step, scenes, bullet, browser, frames)")
	flag.Parse()
	if err := run(*out, *dir, *only); err != nil {
		fmt.Fprintln(os.Stderr, "report:", err)
		os.Exit(1)
	}
}

func run(out, dir, only string) error {
	known := []string{"scenes", "bullet", "browser", "frames"}
	for _, b := range benchmarks {
		known = append(known, b.name)
	}
	if only != "" && !slices.Contains(known, only) {
		return fmt.Errorf("-only %q: no such table (have %v)", only, known)
	}
	var tables []table
	for _, b := range benchmarks {
		if only != "" && only != b.name {
			continue
		}
		fmt.Fprintf(os.Stderr, "report: %s\n", b.command)
		t, err := b.run()
		if err != nil {
			return err
		}
		tables = append(tables, t)
	}
	if only == "" || only == "scenes" || only == "bullet" {
		// The Bullet table reuses the scene table's runner results; alone, it runs only the
		// runner cases it needs.
		runs := sceneRuns
		if only == "bullet" {
			runs = staggerRunsForBullet()
		}
		fmt.Fprintln(os.Stderr, "report: scenes")
		t, results, err := sceneTable(runs)
		if err != nil {
			return err
		}
		if only != "bullet" {
			tables = append(tables, t)
		}
		if only == "" || only == "bullet" {
			fmt.Fprintln(os.Stderr, "report: bullet")
			t, err := bulletTable(results)
			if err != nil {
				return err
			}
			tables = append(tables, t)
		}
	}
	if only == "" || only == "browser" {
		fmt.Fprintln(os.Stderr, "report: browser")
		t, err := browserTable()
		if err != nil {
			return err
		}
		tables = append(tables, t)
	}
	if only == "" || only == "frames" {
		fmt.Fprintln(os.Stderr, "report: frames")
		t, err := framesTable()
		if err != nil {
			return err
		}
		tables = append(tables, t)
	}
	if only != "" {
		var md bytes.Buffer
		for _, t := range tables {
			writeTable(&md, t)
		}
		_, err := os.Stdout.Write(md.Bytes())
		return err
	}
	var md bytes.Buffer
	writeReport(&md, tables)
	if err := os.WriteFile(out, md.Bytes(), 0o644); err != nil {
		return err
	}
	for _, t := range tables {
		if err := writeCSV(filepath.Join(dir, t.name+".csv"), t); err != nil {
			return err
		}
	}
	return nil
}

// benchmark is a `go test -bench` run whose result lines become a table: the benchmark's name
// (without its package prefix and GOMAXPROCS suffix) and the metrics named in columns.
type benchmark struct {
	name, title string
	args        []string
	columns     []string // metric units, e.g. "ms/step", "allocs/op"
	command     string
}

var benchmarks = func() []benchmark {
	bs := []benchmark{
		{name: "solver", title: "Solver: one island's solve (generated scenes)",
			args:    []string{"./solver/", "-run", "^$", "-bench", "^Benchmark(SP|Variants|Baselines)$", "-benchmem", "-benchtime", "3x"},
			columns: []string{"ms/solve", "contacts", "iters", "cg", "fcg", "fsweeps", "csweeps", "max-penetration-m/s", "allocs/op"}},
		{name: "step", title: "Physics: whole fixed steps",
			args:    []string{"./physics/", "-run", "^$", "-bench", ".", "-benchmem", "-benchtime", "20x"},
			columns: []string{"ms/step", "bodies", "contacts", "islands", "iters", "allocs/op"}},
		{name: "scenes-step", title: "Scenes: whole fixed steps, sleeping off, after one simulated second",
			args:    []string{"./demo/headless/", "-run", "^$", "-bench", ".", "-benchmem", "-benchtime", "20x"},
			columns: []string{"ms/step", "contacts", "iterations", "allocs/op"}},
		{name: "collide", title: "Collision",
			args:    []string{"./collide/", "-run", "^$", "-bench", ".", "-benchmem"},
			columns: []string{"ns/op", "allocs/op"}},
		{name: "ecs", title: "ECS",
			args:    []string{"./ecs/", "-run", "^$", "-bench", ".", "-benchmem"},
			columns: []string{"ns/op", "allocs/op"}},
		{name: "deform", title: "Deformable bodies: precomputation",
			args:    []string{"./deform/", "-run", "^$", "-bench", "Modes|Basis|Precompute", "-benchtime", "1x"},
			columns: []string{"s/op", "vertices", "iterations"}},
		{name: "deform-step", title: "Deformable bodies: per step",
			args:    []string{"./deform/", "-run", "^$", "-bench", "Step|Evaluate", "-benchmem", "-benchtime", "200x"},
			columns: []string{"ns/op", "allocs/op"}},
	}
	for i := range bs {
		bs[i].command = "go test " + strings.Join(quoteArgs(bs[i].args), " ")
	}
	return bs
}()

// quoteArgs single-quotes the arguments a shell would change.
func quoteArgs(args []string) []string {
	q := make([]string, len(args))
	for i, a := range args {
		if strings.ContainsAny(a, "^$|()*") {
			a = "'" + a + "'"
		}
		q[i] = a
	}
	return q
}

// run runs the benchmark and parses its result lines.
func (b benchmark) run() (table, error) {
	cmd := exec.Command("go", append([]string{"test"}, b.args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.Output()
	if err != nil {
		return table{}, fmt.Errorf("%s: %v\n%s%s", b.command, err, stdout, stderr.Bytes())
	}
	t := table{name: b.name, title: b.title, command: b.command, header: append([]string{"benchmark"}, b.columns...)}
	sc := bufio.NewScanner(bytes.NewReader(stdout))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 3 || !strings.HasPrefix(f[0], "Benchmark") {
			continue
		}
		name := strings.TrimPrefix(f[0], "Benchmark")
		if i := strings.LastIndex(name, "-"); i > 0 {
			name = name[:i]
		}
		metrics := map[string]string{}
		for i := 2; i+1 < len(f); i += 2 {
			metrics[f[i+1]] = f[i]
		}
		row := []string{name}
		for _, c := range b.columns {
			row = append(row, formatFigure(metrics[c]))
		}
		t.rows = append(t.rows, row)
	}
	return t, nil
}

// formatFigure shortens a figure to four significant digits; an absent one is "–".
func formatFigure(s string) string {
	if s == "" {
		return "–"
	}
	x, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return s
	}
	return strconv.FormatFloat(x, 'g', 4, 64)
}

// sceneRun is one runner case of the scene table.
type sceneRun struct {
	scene   string
	n       int
	seconds float64
}

// sceneRuns are the runner's cases: each scene at its default size for a few simulated seconds
// (spheres at 200 too; the scripted impact and archimpact 3 s, their blows included; jelly the
// 60 s its acceptance names; throw the 3 s after its throw), with the default configuration
// (sleeping on). The 1,000 spheres' 4 s are their flowing phase, the runner's default 10 s adding
// the settled pile. Churn runs at 250 crates: its islands at the default 750 are beyond the
// DoF-sized contact projection's rank limit (docs/architecture.md, Contact projection).
var sceneRuns = []sceneRun{
	{"arch", 0, 4}, {"archimpact", 0, 3}, {"beam", 0, 4}, {"cardhouse", 0, 4}, {"churn", 250, 4}, {"freefall", 0, 2},
	{"heap", 0, 4}, {"impact", 0, 3}, {"incline", 45, 2}, {"jelly", 0, 60}, {"pile", 0, 4}, {"pyramid", 0, 4},
	{"ratio", 1000, 4}, {"spheres", 200, 4}, {"spheres", 1000, 4}, {"springboard", 0, 4}, {"stack", 40, 4}, {"throw", 0, 4},
	{"topple", 0, 4}, {"tumble", 0, 4},
}

// sceneRunNames returns how many different scenes sceneRuns runs.
func sceneRunNames() int {
	names := map[string]bool{}
	for _, r := range sceneRuns {
		names[r.scene] = true
	}
	return len(names)
}

// args returns the runner's command-line arguments for the case.
func (r sceneRun) args() []string {
	args := []string{"-scene", r.scene, "-seconds", strconv.FormatFloat(r.seconds, 'g', -1, 64)}
	if r.n > 0 {
		args = append(args, "-n", strconv.Itoa(r.n))
	}
	return args
}

// resolve returns the runner's options, scene and parameters for the case.
func (r sceneRun) resolve() (headless.Options, scenes.Scene, scenes.Params, error) {
	o, set, err := headless.ParseArgs(r.args())
	if err != nil {
		return o, scenes.Scene{}, scenes.Params{}, err
	}
	sc, p, err := o.Resolve(set)
	return o, sc, p, err
}

// runKey names a case by its resolved scene, n and seconds, so that a case written with the
// scene's default n (0) and one written with that n are the same.
func runKey(scene string, n int, seconds float64) string {
	return fmt.Sprintf("%s/%d/%g", scene, n, seconds)
}

// g formats a figure to three significant digits.
func g(x float64) string { return strconv.FormatFloat(x, 'g', 3, 64) }

// sceneTable runs each of the runner's cases runRepeats times through demo/headless and returns
// the table and each case's result by runKey, with its times the medians over the runs. The runs
// of a case must end in the same state (the runner's hash): the physics is deterministic, so every
// figure but the times is the same in each. With every case of sceneRuns it checks that the table
// covers every scene.
func sceneTable(runs []sceneRun) (table, map[string]headless.Result, error) {
	t := table{name: "scenes", title: "Scenes: the headless runner, default configuration",
		command: "go run ./demo -headless -scene S [-n N] -seconds T -json",
		header: []string{"scene", "n", "seconds", "bodies", "contacts_mean", "ms_median", "ms_median range", "ms_p95", "ms_p95 range",
			"iters_mean", "converged_frac", "max_penetration m", "energy_rise J", "max_drop m"},
		note: fmt.Sprintf("Each case runs %d times; ms_median and ms_p95 are the medians of the runs' figures, and "+
			"the range columns their smallest and largest. The runs end in the same state (the runner's hash), "+
			"so the other figures are each run's.", runRepeats)}
	results := map[string]headless.Result{}
	for _, r := range runs {
		o, sc, p, err := r.resolve()
		if err != nil {
			return t, nil, err
		}
		var rs []headless.Result
		for range runRepeats {
			res, err := headless.Run(o, sc, p, io.Discard)
			if err != nil {
				return t, nil, fmt.Errorf("scene %s: %w", r.scene, err)
			}
			rs = append(rs, res)
		}
		if err := sameEverywhere("scene "+sc.Name+": the runner's final state differs between runs", rs,
			func(r headless.Result) string { return r.Hash }); err != nil {
			return t, nil, err
		}
		medians := collect(rs, func(r headless.Result) float64 { return r.MsMedian })
		p95s := collect(rs, func(r headless.Result) float64 { return r.MsP95 })
		res := rs[0]
		res.MsMedian, res.MsP95 = web.MedianMs(medians), web.MedianMs(p95s)
		results[runKey(sc.Name, p.N, r.seconds)] = res
		t.rows = append(t.rows, []string{sc.Name, strconv.Itoa(p.N), g(r.seconds), strconv.Itoa(res.Bodies), g(res.ContactsMean),
			g(res.MsMedian), spread(medians, g), g(res.MsP95), spread(p95s, g), g(res.ItersMean), g(res.ConvergedFrac),
			g(res.MaxPenetration), g(res.EnergyRise), g(res.MaxDrop)})
	}
	if covered := sceneRunNames(); len(runs) == len(sceneRuns) && (len(t.rows) != len(sceneRuns) || covered != len(scenes.Names())) {
		return t, nil, fmt.Errorf("the scene table covers %d of the %d scenes", covered, len(scenes.Names()))
	}
	return t, results, nil
}

// bulletRuns are the cases timed in Bullet: every case of the scene table that Bullet can run (no
// deformable bodies), next to it. The scripted scenes get the bodies their scripts spawn, and
// churn's removals, at the same steps (bullet.ExportScene).
var bulletRuns = []sceneRun{
	{"arch", 0, 4}, {"archimpact", 0, 3}, {"cardhouse", 0, 4}, {"churn", 250, 4}, {"freefall", 0, 2},
	{"impact", 0, 3}, {"incline", 45, 2}, {"pile", 0, 4}, {"pyramid", 0, 4}, {"ratio", 1000, 4},
	{"spheres", 200, 4}, {"spheres", 1000, 4}, {"stack", 40, 4}, {"throw", 0, 4}, {"topple", 0, 4}, {"tumble", 0, 4},
}

// staggerRunsForBullet returns the scene table's cases that bulletRuns reuse.
func staggerRunsForBullet() []sceneRun {
	want := map[string]bool{}
	for _, r := range bulletRuns {
		if _, sc, p, err := r.resolve(); err == nil {
			want[runKey(sc.Name, p.N, r.seconds)] = true
		}
	}
	var runs []sceneRun
	for _, r := range sceneRuns {
		if _, sc, p, err := r.resolve(); err == nil && want[runKey(sc.Name, p.N, r.seconds)] {
			runs = append(runs, r)
		}
	}
	return runs
}

// buildBullet builds the Bullet harness; a variable so that a test can stand in a machine without
// Bullet.
var buildBullet = bullet.Build

// bulletTable times bulletRuns in Bullet (bench/bullet) and sets them beside stagger's runner
// results by runKey. If the harness cannot be built (no Bullet), the table keeps stagger's figures
// and says why Bullet's are missing.
func bulletTable(stagger map[string]headless.Result) (table, error) {
	t := table{name: "bullet", title: "Bullet on the same scenes",
		command: "go run ./bench/bullet/run -scene S [-n N] -seconds T",
		header: []string{"scene", "n", "seconds", "bodies", "stagger ms_median", "stagger ms_p95", "Bullet ms_median", "Bullet ms_p95",
			"ratio median", "ratio p95", "stagger max_penetration m", "Bullet max_penetration m"}}
	h, buildErr := buildBullet()
	if buildErr != nil && !errors.Is(buildErr, bullet.ErrUnavailable) {
		return t, buildErr
	}
	var unsupported []string
	for _, r := range bulletRuns {
		o, sc, p, err := r.resolve()
		if err != nil {
			if _, lookupErr := scenes.Lookup(r.scene); lookupErr != nil {
				continue // the scene does not exist (yet)
			}
			return t, err
		}
		row := []string{sc.Name, strconv.Itoa(p.N), g(r.seconds), "–", "–", "–", "–", "–", "–", "–", "–", "–"}
		s, haveStagger := stagger[runKey(sc.Name, p.N, r.seconds)]
		if haveStagger {
			row[3], row[4], row[5], row[10] = strconv.Itoa(s.Bodies), g(s.MsMedian), g(s.MsP95), g(s.MaxPenetration)
		}
		if buildErr == nil {
			bs, err := runBullet(h, sc, p, o, r.seconds)
			if errors.Is(err, bullet.ErrUnsupportedShape) {
				// A known limit of the exporter, not a failure of the harness: say so and go on.
				unsupported = append(unsupported, fmt.Sprintf("%s is not run in Bullet (%v)", sc.Name, err))
				t.rows = append(t.rows, row)
				continue
			}
			if err != nil {
				return t, fmt.Errorf("bullet: scene %s: %w", sc.Name, err)
			}
			b := bs[0]
			bMedian := web.MedianMs(collect(bs, func(r bullet.Result) float64 { return r.MsMedian }))
			bP95 := web.MedianMs(collect(bs, func(r bullet.Result) float64 { return r.MsP95 }))
			row[3], row[6], row[7], row[11] = strconv.Itoa(b.Bodies), g(bMedian), g(bP95), g(b.MaxPenetration)
			if haveStagger {
				row[8], row[9] = g(s.MsMedian/bMedian), g(s.MsP95/bP95)
			}
		}
		t.rows = append(t.rows, row)
	}
	if buildErr != nil {
		t.note = "Bullet not measured: " + buildErr.Error() + "."
		return t, nil
	}
	t.note = fmt.Sprintf("Bullet %s (pkg-config %s: single precision, one thread; btDbvtBroadphase, "+
		"btSequentialImpulseConstraintSolver with its default 10 iterations, one internal step of dt per step) on each scene "+
		"as the runner builds it (the scripted impact and archimpact with the blocks their scripts drop and throw, at the same steps, "+
		"placed against the scene as built), with stagger's sleeping thresholds and contact material rules; shapes and masses are mapped "+
		"as bench/bullet/doc.go describes. Bullet's card house does not stand: it falls within its first second, before the "+
		"impact's blocks arrive. stagger's figures are the scene table's (default configuration, %d workers), "+
		"medians of its runs; Bullet's are the medians of %d runs of each case. Ratio is stagger's time over Bullet's.", h.Version, bullet.PkgConfigPackage, runtime.NumCPU(), runRepeats)
	for _, u := range unsupported {
		t.note += " " + u + "."
	}
	return t, nil
}

// runBullet runs scene sc (parameters p, the runner's options o) for seconds in Bullet runRepeats
// times. The runs must agree on the deepest penetration: Bullet's single-threaded step is
// deterministic, so a difference means the runs did not simulate the same thing.
func runBullet(h bullet.Harness, sc scenes.Scene, p scenes.Params, o headless.Options, seconds float64) ([]bullet.Result, error) {
	var bs []bullet.Result
	for range runRepeats {
		b, err := h.RunScene(sc, p, o.PhysicsConfig(), o.Dt, bullet.RunOptions{Seconds: seconds})
		if err != nil {
			return nil, err
		}
		bs = append(bs, b)
	}
	if err := sameEverywhere("the deepest penetration differs between runs", bs,
		func(r bullet.Result) float64 { return r.MaxPenetration }); err != nil {
		return nil, err
	}
	return bs, nil
}

// browserReloads is how many visits after the first the browser table times.
const browserReloads = 4

// measureBrowser measures the browser build; a variable so that a test can stand in a machine
// without Chromium.
var measureBrowser = func() (web.Measurement, error) {
	path, err := web.FindBrowser()
	if err != nil {
		return web.Measurement{}, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	return web.Measure(ctx, "", path, browserReloads)
}

// browserTable measures the browser build (demo/web): the wasm module's size and the time from
// navigation to the first level's first frame in headless Chromium with software WebGL. Without
// a Chromium the table has dashes and a note saying why.
func browserTable() (table, error) {
	t := table{name: "browser", title: "Browser build",
		command: fmt.Sprintf("web.Measure: GOOS=js GOARCH=wasm go build ./demo; headless Chromium opens /?scene=%s %d times", web.MeasureScene, browserReloads+1),
		header:  []string{"figure", "value"}}
	m, err := measureBrowser()
	if err != nil && !errors.Is(err, web.ErrNoBrowser) {
		return t, err
	}
	if err != nil {
		t.rows = [][]string{{"wasm size, MB", "–"}, {"first visit to first frame, ms", "–"}, {fmt.Sprintf("later visits to first frame, median of %d, ms", browserReloads), "–"}}
		t.note = "Browser not measured: " + err.Error() + "."
		return t, nil
	}
	t.rows = [][]string{
		{"wasm size, MB", fmt.Sprintf("%.1f", float64(m.WasmBytes)/1e6)},
		{"first visit to first frame, ms", fmt.Sprintf("%.0f", m.FirstLoadMs)},
		{fmt.Sprintf("later visits to first frame, median of %d, ms", len(m.ReloadMs)), fmt.Sprintf("%.0f", web.MedianMs(m.ReloadMs))},
	}
	t.note = "The time runs from navigation to the game's first drawn frame (performance.now() then): the page and " +
		"the module fetched from a loopback server, compiled and started, the level built and drawn once, with " +
		"WebGL drawn in software by SwiftShader (--use-angle=swiftshader), so a machine with a GPU draws faster. " +
		"Later visits may use the browser's caches."
	return t, nil
}

// writeReport writes BENCHMARKS.md.
func writeReport(w *bytes.Buffer, tables []table) {
	fmt.Fprintf(w, "# Benchmarks\n\n")
	fmt.Fprintf(w, "Generated by `make bench` (`go run ./bench/report`) on %s: %s, %d cores, %s, %s/%s. ",
		time.Now().UTC().Format("2006-01-02"), cpuModel(), runtime.NumCPU(), runtime.Version(), runtime.GOOS, runtime.GOARCH)
	fmt.Fprintf(w, "The machine may be shared, and its speed moves with its load: the scene, Bullet and frames "+
		"tables give the median of %d runs of each case (with the range where it says so), the go test tables "+
		"one run, so treat small differences there as noise. Each table is also in `bench/NAME.csv`. Earlier "+
		"figures are in git history.\n\n", runRepeats)
	fmt.Fprintf(w, "Scenes are described in `docs/scenes.md`; the solver's counters (iters: staggered "+
		"subsequences, cg: contact-projection CG iterations, fcg and fsweeps: friction-projection CG "+
		"iterations and block Gauss–Seidel sweeps) in `solver.Stats`.\n\n")
	for _, t := range tables {
		writeTable(w, t)
	}
	w.WriteString(tried)
}

// writeTable writes one table's section: title, command, note and the table.
func writeTable(w *bytes.Buffer, t table) {
	fmt.Fprintf(w, "## %s\n\n`%s`\n\n", t.title, t.command)
	if t.note != "" {
		fmt.Fprintf(w, "%s\n\n", t.note)
	}
	fmt.Fprintf(w, "| %s |\n|%s\n", strings.Join(t.header, " | "), strings.Repeat("---|", len(t.header)))
	for _, r := range t.rows {
		fmt.Fprintf(w, "| %s |\n", strings.Join(r, " | "))
	}
	fmt.Fprintln(w)
}

// tried is the report's hand-written part: what was measured and not kept, and why.
const tried = `## What we tried

- The contact projection in DoF space (paper §6.3) for islands with far more contact rows than
  DoFs: an augmented Lagrangian over the body graph, then the active set that was kept
  (docs/decisions.md).
- Contact projection: the dense pivoting reference (Baraff) as the default costs 2–3× PGS-SM on a
  resting 40-box tower. Inexact contact projections early in the staggered loop, when first tried
  (before Anderson acceleration and the finishing of inexact iterates), cost more subsequences
  than they saved (a sliding tower's warm step went from 10 to 23); the kept form is below.
- Staggered loop: without Anderson acceleration the sliding 40-box tower takes about four times the
  subsequences; the joint sticking solve on sliding islands is mostly rejected, so it is tried only
  where contacts stick.
- Friction projection: a matrix-free subspace step that lets contacts sliding on the disc's rim
  move along it (a Newton step with the rim's curvature), with step halving and retries, with or
  without a diagonal shift or a null-direction stop, made the 100-body pile 1.7–5× slower per step
  (steps along redundant sticking contacts' near-null directions are rejected); not kept. The
  dense version that is kept (solver/friction_newton.go) factors the Delassus matrix with pivoting
  and runs on islands of up to 64 contacts, after 24 sweeps up to 32 contacts and after
  24·(m/32)² beyond: on replayed islands the pile's CPU is unchanged, the first jelly scene's work
  fell 96M → 10M contact updates and the stacked jelly's CPU 12.3 s → 4.4–5.0 s. Starting it
  after 8 sweeps, after 24 sweeps on islands of 33–64 contacts, or on islands of up to 128 made
  the replayed pile 15–50 % slower.
- Joint sticking solve, rounds that only scale sliding friction onto its shrinking sets (the
  rows unchanged; most rounds on a moving pile): skipping their re-solve cut the replayed pile's
  joint work 60 %, but an arch that should stand then moved 0.1 mm and gained 0.16 J in a step.
  Starting those rounds from the last fresh solve's search directions cut the replayed pile's
  joint work 14 %, but in the pipeline the impact scene did 15–106 % more work on each of five
  seeds (the candidate's impulses among redundant contacts differ, and so do the next steps'
  warm starts). Neither kept.
- Joint sticking solve abandoned when its active-set corrections cycle (a contact re-admitted
  for penetrating released again): on soft blocks the rounds ran to their bound and the candidate
  was never feasible, and the jelly scene's work fell 12–14 %, the pile's 19 % over six seeds;
  but on the arch struck by blocks the abandoned candidates were the ones that kept four steps
  dissipative, and the loop's own ε-converged answers (rel_err 3e-6) then gained 0.02 J a step
  through friction pushing along the slip. Not kept.
- Joint sticking solve on small islands solved directly (the free rows' block of the dense
  Delassus matrix by pivoted Cholesky): 8× less joint work on the replayed jelly islands, the
  same CPU time, and the replayed pile 10 % slower; not kept.
- Bounding each friction projection at 200 sweeps instead of 2000 made the 100-body pile's median
  step about five times faster (runner, 4 s: 67 → 14 ms), but a 200-sphere pile then gained up to
  4 mJ in a step (the projections stop far from their answer, and the loop's stopping test passes
  anyway). Repairing answers whose kept projection hit the bound did not remove the gain;
  repairing also those whose friction still pushes after settling made the sphere pile at least
  three times slower (the run was stopped). Not kept: a bound needs a stopping test that knows the
  projection was cut short.
- Incomplete Cholesky: a narrow shift (1e-4) on a warm start's first contact projection made the
  resting 20-box stack 8 % slower; the friction projection keeps the wide shift (1e-2).
- Friction projection sweeps: alternating the sweep's direction (symmetric Gauss–Seidel) or
  over-relaxing each contact's update (ω 1.3 and 1.6, then clipped to the disc) did 20–70 % more
  friction work on the islands of the impact and pile scenes replayed from the pipeline; not kept.
- Joint sticking solve: 4 active-set rounds instead of 16 cut the replayed pile's work by 29 % (the
  impact's by 5 %) at the same convergence, but one replayed pile answer then left its friction
  doing +1.5 mJ of work (an ε-converged answer that settling does not fix); dropping such friction
  after settling removed that and let a 474 m/s box pass a 1 cm wall. Capping the joint solve's CG
  at 0.5–2 solves' worth saved nothing (the loop ran longer). Neither kept.
- A default work budget of 500k contact updates per island cut the worst step of a 5-level pyramid
  struck by a ball from 0.8 s to 0.2 s, but the 2 s after the throw took three times as long (cut
  islands do not settle), and half the impact scene's solves were cut; not the default.
- Joint sticking solve on soft islands: skipping it wherever every contact has a deformable side
  cut the jelly scene's work by 23–31 %, but a resting StVK block kept awake then gained a slow
  twist of 0.05 J in 60 s (0.007 J with it); abandoning it there when its active set cycles, 0.04
  J. Kept: skipping it only where two deformables touch.
- Friction projection: dense Newton steps up to 128 contacts (from 64) made the replayed archimpact
  islands 1.6–3× slower; a Newton step trying the full projected step before the one bounded at
  the first rim, and a subspace step that retreats inside the discs instead of being abandoned,
  left the replayed work unchanged; Nesterov-accelerated projected gradient with gradient restart
  and a backtracked step (per-contact scaling, or each contact's exact block sub-problem) in place
  of the plain sweeps that follow the subspace rounds cut the replayed impact's CPU by 10–15 % and
  the archimpact's by 3–20 %, and let the impact's friction do positive work of 2.6e-5 of its own
  (3.5e-11 before). Capping the loose (early) projections at 200 sweeps, where some spent the
  full 2,000 without meeting their tolerance, cut the replayed impact's work by 12 %, but in the
  pipeline the impact's work moved by +17, +43 and −34 % over three seeds, with a 6.4e-6 J step
  on one. None kept.
- Staggered loop: running a converged loop on with ε/10 (twice) while its friction pushes along
  the slip more than ε allows cut a card house impact's 1.9 mJ step (impact seed 3, 4.9 s) to
  4.4e-5 J, still above 1e-6 J, and doubled the impact scene's work (seed 1); not kept.
- Manifold reduction: counting a point as driven through by the sign of its gap after the motion,
  with no tolerance, let rounding choose a resting tower's manifolds: 100 boxes drifted 8 cm in
  60 s with every step solved.
- Friction projection, subspace CG cut at the first set boundary it would cross (the feasible step
  of MPRGP) instead of run to its end and clipped: on the struck card house 97 % of the sweeps ran
  after a failed clipped step had given up the subspace solves, and cut steps never fail. Kept on
  islands of rigid bodies above the Newton phase's 64 contacts, with the energy certificate (next):
  from the start with the dissipation-gap target (the game's options), after a failed clipped step
  without it. Work −18 % on the pile (six seeds, 4 s), −17 % on the impact (ten, 3 s), −49 % on the
  archimpact (18, 5 s); the topple, the jelly and the solver's pyramid benchmarks without the gap
  target unchanged. Not solved: the solver's fully sliding benchmarks with the game options now run
  their projections to FrictionMaxSweeps (tower 40: 97 → 131 ms a solve, pyramid 20: 392 → 851 ms),
  as each cut leaves a contact on its rim for the sweeps to bring back inside; going on with clipped
  steps after 100 sweeps fixed the pyramid but not the tower; with CG also taking back rim contacts
  whose slip runs along their friction, both (176 and 111 sweeps a solve), but the spheres scene's
  work rose 57 %; starting such projections again from their start with clipped steps after 100
  sweeps, both (147 and 111), with impact −17 % and every impact seed within 5 mm, but in the game's
  pyramid level a light ball at the top cube then displaced five other cubes and lost the level
  (TestTargetLevel). Not kept; MPRGP's expansion step is the missing piece. Two impact seeds then
  sank a block 10 and 13 mm (seed 8's spinning at 16 rad/s: the velocity-level contact follows a
  corner's tangent, not its arc); no other seed went deeper than 2.7 mm. Cut on every island from
  the start, the pile's work fell 19 % and the archimpact's 50 %, but the topple's work rose 25 %,
  the jelly's 16 %, a resting StVK block gained a 0.048 J twist in 60 s against 0.007 J, and without
  the gap target a sliding 30-row pyramid's projections ran to FrictionMaxSweeps (8 s a solve);
  starting CG again on the contacts still inside after each cut fixed the pyramid but doubled the
  impact's work. Cutting only after a failed clipped step, on every large island: impact −7 %,
  archimpact −31 %, the pile +17 %. Without the certificate three archimpact seeds gained 7–178 mJ
  in a step and two pile seeds 9 µJ and 1.7 mJ. Tried before it, not kept: removing the along-slip
  part of pushing friction after settling (an archimpact run gained 0.35 J); running the loop on to
  ε/10 wherever friction pushed along the slip by more than ε of the scale (positive work cut 4–40×,
  not to zero); retreating along the whole clipped CG step to the first boundary (impact work 2.7×).
- Energy certificate (kept): a settled answer that met ε is run on to ε/3 (then ε/9, … ε/6561)
  when the step would raise its island's energy beyond what the contacts' biases put in,
  measured directly (solver/energy.go). Run on to ε/100 at once (then ε/10⁴), as first kept, the
  settling debris of a struck card house (impact seed 8, 4–4.6 s, replayed) spent 60 million
  contact updates, up to 30,000 friction sweeps a solve, where their certificates passed at a few
  times 10⁻⁵: by thirds 32 million, by halves (13 rounds) 31 million with more runs. It also cures the code it joined: before either change three of 18
  archimpact seeds gained 1.8–178 mJ in a step. It triggers a few times per pile run; every
  archimpact seed and pile seed then stays below 1e-8 J. Triggered instead by friction's positive
  work after settling (frictionDoesWork, about 950 times per pile run), the run-ons hit MaxIters,
  the pile's work rose 66 %, the impact's 49 %, and three impact seeds sank cards 6–9 mm.
- Restitution: warm-starting the final solve after the collision rounds from the first solve's
  answer (all contacts, or those not bounced): impact work +4 % and −1 % over five seeds, within
  the seeds' spread, and one seed 5.1 mm deep; not kept.
- Staggered loop: ε 3e-4 or 1e-3 on the impact did not lower the work on every seed, let cards
  sink up to 11 mm, and with 1e-3 a step gained 26 mJ.
- Workers taking islands largest first (most contacts): the pile's median and p95 unchanged
  within run-to-run noise, its time being mostly one island at a time; not kept.
- Joint sticking solve, stepping back as the active-set method for nonnegative least squares does
  (Lawson–Hanson: from the round's start towards the solve's answer only until the first loaded
  contact reaches zero, releasing that one, and re-admitting contacts only after a solve with no
  negative impulse): on the struck arch's islands above it released one contact a round for ten
  rounds, then re-admitted 14 that penetrated, whose rows were inconsistent again; twice to three
  times the joint CG, and still no candidate. A diagonal shift of 10⁻⁸–10⁻⁴ of each row's own
  in its CG, to keep such rounds from diverging, left a residual above the contact tolerance and
  no candidate either. Not kept.
- Staggered loop, the impact's three solves that run to MaxIters (1.02–1.04 s, as the blocks land
  on the card house): rel_err falls to 3e-4, then circles between 10⁻³ and 10⁻² with a period of
  about five subsequences. Rejecting an Anderson step whose residual grew (restarting from the
  previous output) made one of the three converge and left two circling: the plain map is not a
  contraction there. Stopping a loop whose rel_err has not halved in 20 subsequences cut those
  solves to 29–39 subsequences, but over ten seeds more islands ended unconverged (their repaired
  answers slide), the work rose on five seeds, one card sank 13 cm and one step gained 0.6 mJ.
  Neither kept.
- Friction projection, a cut subspace solve restarting CG past its cuts with the rim contact held
  (Polyak's active-set CG, the factor restricted) while MPRGP's proportionality test holds, once
  the projection has run 32 sweeps: the solver's sliding tower-40 and pyramid-20 benchmarks with
  the game options take 72 and 36 friction sweeps a solve instead of 2,038 and 2,002 (189 → 152 ms,
  891 → 457 ms). On the same captured islands: impact +6 % work, pile +3 %, a struck arch −21 %;
  restarting from the first sweep, impact +9 %; restarting at every cut without the test, a struck
  arch's solve did 8× the work (sticking contacts pushed to their rims for the sweeps to pull
  back). Not on main: it changes the impact's trajectory, and make validate's impact seed 1 then
  sinks a block 11 mm (two blocks spinning at 31 and 20 rad/s; the reference face turns 18° in the
  step, and the linearised gap is off by the turn times the slide plus rθ²/2); also with the
  restarts from 100 sweeps. On top of the turn allowance of speculative contacts (which closed
  that case) validate passed, but over ten 5 s impact seeds the work doubled (836M → 1,627M
  contact updates; seed 3 478M against 45M) and the pile's rose 4 %. Restarting only after 200
  sweeps: the benchmarks take 240 and 204 sweeps, the impact's ten seeds 945M (+13 %); after 500,
  no change (the subspace solves have stopped by then). Kept on the branch solver-cut-restarts.
- Manifold, looking ahead: adding, for a pair sliding or turning by more than a tenth of its size
  in the step, the contacts of the poses its predicted motion reaches (carried back to the start,
  each along its own normal): the impact's work doubled over six seeds, and seed 1 still sank a
  block 10 mm (the predicted motion is not the solved one: a block spinning at 34 rad/s before
  the solve turned at 8 after it). Not kept.
- Staggered loop, no polishing (no joint candidate after an iterate that met ε inexactly): the
  pile's work −23 % over six seeds, but the impact's +12 % and +25 % over ten seeds on two codes;
  not kept.
- Friction projection, the loose (early) projections stopped at 10× the dissipation-gap target:
  on captured islands impact −11 %, pile −4 %; in the pipeline the pile −20 % (six seeds), the
  impact +4 % over 20 seeds with one seed sinking a card 10.5 mm, the archimpact +10 %. 100×:
  two of 350 replayed impact islands no longer converged. Not kept.
- Joint sticking solve's CG stopped at 10⁻⁷ (or 10⁻⁵) of the scale instead of 10⁻¹¹: the
  replayed pile −17 % (−20 %), the archimpact +5 % (+39 %, and friction doing positive work of
  1.6 mJ on the pile). Not kept.
- Energy certificate, a third round (ε 10⁻¹⁰): a falling card house's island that still gained
  1.5 µJ after two rounds then ran to MaxIters, and its repaired answer dropped friction (−0.05
  J). Not kept.
- Friction projection's Newton steps on degenerate islands (a box and a hull on it, eleven
  contacts, whose projections ran 1,000–2,000 sweeps after failed Newton steps): a 5 % band for
  sliding contacts near their rim, pivot thresholds of 10⁻¹⁰–10⁻⁶ instead of 10⁻¹³, a projected
  step clipped onto the discs before the one bounded at the first rim, and Newton on islands with
  up to 64 loaded contacts (of 175): no consistent saving on the captured islands. Not kept.
- Manifold, a separated polyhedral pair that turns more than 1 mrad in the step completed with the
  contacts of every vertex within the margin of the other shape (or only those the turn could
  reach): the deepest late penetration over 20 impact seeds fell from 4.4 to 2.6 mm, but the work
  rose 49 %. Not kept.
- Staggered loop, the impact's solves that circle to MaxIters: damping the map's input
  (x ← x + ω(f − x), Anderson's history dropped) once rel_err has not halved in 10
  subsequences: with ω 0.5 the three replayed solves end at rel_err 2e-3–7e-3 instead of
  1e-2–3e-2, still unconverged, and the replayed impact's work rose 2 %; with ω 0.3 one of them
  converged and another island no longer did. Not kept.
- Friction projection, the subspace CG turning sliding contacts along their rims (kept on islands
  above 64 contacts; replayed impact −22 %, 20 impact seeds −23 %, the pile −7 %, the solver's
  sliding pyramid 20 with the game options 762 → 258 ms a solve). Variants: also on islands the
  Newton steps finish (≤ 64 contacts): the replayed pile +20 %. Turning the sliding contacts whose
  rim curvature exceeds their own stiffness along the rim too: the replayed impact +26 % (the
  factor does not hold the curvature). Holding those whose curvature is below a hundredth of it
  (nearly sticking): the gain gone, +30 %. Bounding each CG step to turn no contact more than 0.5
  rad: lightly loaded contacts cut every CG step after one iteration, the replayed struck arch
  +20 %. Without the cut steps at sticking contacts' boundaries: the replayed impact 3.3×.
  Shortening every failed subspace step along the projected arc, not only those that turned
  rims: the jelly islands' Newton passes +43 %. Over 16 archimpact seeds the kept change's work
  rose 17 % (seeds 1–8 +37 %, 9–16 −3 %): on the slowest seed the arch crept at mm/s for a second
  longer after the strike, and its islands from that second cost 44 % less replayed with the
  change than without.
- Staggered loop, stopping a stalled loop (kept: 20 subsequences without a smaller rel_err, while
  the smallest is above 10·ε; impact −14 % over 20 seeds). Stopping it at any distance from ε:
  impact −32 %, but in the window the pyramid level's physics p95 after a throw rose from about 7
  to 17–25 ms, its repaired answers dropping friction from cubes that had held. Stopping on the
  kept iterate's eq. 29 residual: a cold sphere pile keeps its 21st iterate while rel_err falls to
  ε at the 145th; with it, 30 subsequences instead of 20: impact −24 % instead of −34 %, and one
  seed gained 1.2 µJ in a step.
- Joint sticking solve gated by the rel_err it predicts (kept after an ε-converged iterate on
  rigid islands: a candidate is used only if 2·gap/‖Df‖², its dissipation gap over its
  friction's kinetic norm, is at most ten times the iterate's rel_err). Replayed islands, work:
  pile's late steps −6 %, topple −2 %, pile −3 %, impact and arch −1 %; over 8 impact seeds (3 s)
  −2 %. Gating the first subsequence's candidate too: late pile −10 % more, but the sliding 40-box
  tower's warm steps no longer met ε within 50 subsequences. With 4 active-set rounds instead of
  16 as well: replays −3 to −24 % (wall), the sliding tower's game solve 54 → 18 ms, but the
  sliding 20-base pyramid's 2 → 9 subsequences, and over 8 impact seeds the pipeline did 17–23 %
  more work (the next steps' warm starts); not kept. Without any joint candidate: pile late
  islands −38 % but the arch +24 %, and a resting StVK block twists. No polishing candidate:
  replays −6 to −16 %, but earlier the pipeline's impact did 12–25 % more work; not kept.
- Friction Newton steps with the rim contacts they push out of their discs pinned to their rims
  (kept on islands with a reduced deformable body; solver/friction_newton.go): each step is
  solved again with such contacts moved along their rims before its step-length search, where
  clipping them back had bent the step along the near-null directions of a soft block's face
  contacts until no length lowered the objective. A settling jelly block's solve 3,712 → 235
  sweeps; work: jelly (2 blocks, 3 s) −18 %, jelly (20 s) −15 %, springboard −35 %; the
  springboard's largest one-step energy rise 4.9·10⁻⁶ → 5.4·10⁻⁶ J. On rigid islands too, the
  work moved by −6 to +15 % on three pile seeds, 0 to +14 % on three impact seeds and +17 % on
  the topple, so they clip. Tried before it
  and not kept: the contacts held, or moved along their rims, only after three failed steps (the
  springboard's rise 1.1·10⁻⁵ and 1.9·10⁻⁵ J; on rigid islands the captured pile and topple did
  25–64 % more work).
- Island order: workers take the awake islands largest first (kept): pile 100 with two workers,
  median 2.23 → 2.09 ms, p95 5.55 → 5.22 ms over five runs each; results bit-identical.
- Joint sticking solve, the loop's starting candidate deferred where the first subsequence came
  within 100 ε (built after the second only if rel_err fell by less than half there): on islands
  where spheres roll over a settled pile's boxes the starting candidate sent rel_err up 10–50
  times and the loop spent 5–10 costly subsequences returning. Replayed islands, work: settled
  pile −18 %, settling pile −5 %, topple −7 %, struck card house −4 %; but over eight seeds in the
  pipeline the pile did the same work (−0.6 %) and the impact 20 % more (255M → 306M contact
  updates, 3 s): the candidates the deferral skips are the exact sticking answers that warm-start
  the next steps. Not kept. Reverting to the first iterate when the candidate's subsequence measures
  ten times worse: settled pile −7 %, but the sliding 40-box tower's energy-certificate runs then
  missed ε within 50 subsequences.
- Sleeping by parts (kept; physics/sleeping_parts.go): in an awake island, parts joined by
  touching contacts that have rested for SleepTime sleep on their own, and a speculative,
  unloaded contact between an awake body and a sleeping one joins no islands (the sleeper counts
  as fixed; if the solve presses on it, its island wakes and the step is solved again). Pile 100,
  seeds 1–8, 4 s, two workers, interleaved: bodies asleep on average +6 to +11 on every seed,
  median step 3.56 → 3.20 ms (mean over seeds; six of eight faster), work −2 %; the settled
  steps (3–4 s) of seeds 1–3 did 14k, 1.1k and 0.9k contact updates at the median instead of
  33k, 8.3k and 9.4k. Impact, topple, jelly, springboard, card house: the same work within 1 %.
- A re-solve after a pressed sleeper keeps the answers of the islands that no woken body joins
  (kept; physics/resolve_kept.go): results bit-identical (runner hashes of pile seeds 1–5 and 7,
  impact, topple, archimpact, jelly, spheres 200), the pile's work −3 to −4 %, all of it in the
  16 or so re-solved steps of a 4 s run.
- Contact projection, the active rows solved directly (pivoted Cholesky of the dense normal rows
  on islands of up to 160 contacts, once the solve's CG had run m iterations): impact seed 3 −20 %
  work, seed 1 +61 %, the topple +20 %, and the jelly scene's largest one-step energy rise 0 →
  9.5·10⁻⁶ J. Not kept. On the impact's collapse islands (about 108 contacts, 40 subsequences) a
  projection calls the subspace solve about 11 times at about 7 CG iterations a call: finding the
  active set is the cost, not the linear solves.
- Settling converged answers whose friction lies outside its set after the final contact
  projection, as settleFriction settles friction that pushes along the slip: in 13 % of the pile's
  converged solves (4 s) some contact carries friction beyond μα by more than 0.1 %, up to the
  whole impulse at a contact the projection released. The count halved, not to zero, and the work
  moved by −7 to +15 % over pile, impact, jelly and topple. Not kept.
- The 1,000-sphere pile (one island of about 2,900 contacts; 30–36 subsequences a solve, rel_err
  falling by about 0.88 a subsequence, each with about 60 contact CG iterations and 40 friction
  passes; median 201 ms, p95 678 ms over 4 s): Anderson depth 15 or 30 instead of 5, work within
  2 %; ε 10⁻³ or 10⁻² (runs in pairs, 1.5 s), median 116 or 81 ms against 182; a work budget of
  300k or 1M contact updates a solve, median 298 or 181 ms and p95 8.8 or 1.0 s over 2 s (cut
  answers warm-start the next steps worse, and the final contact projections are never cut); the
  joint candidate built without its test that a sticking contact's own rows couple (a sphere's do
  not), +25 % work. PGS takes 11 ms a step on the same pile. None kept: reaching 20 ms needs a
  different outer iteration than the staggered one on such islands.
- Staggered loop, restarting from the least-error iterate (Anderson's history dropped) when
  rel_err rises to 4 times its least after coming within 100 ε (at most every 4 subsequences),
  for the impact's collapse islands whose rel_err reaches 3.5·10⁻⁴ and then circles between
  5·10⁻⁴ and 2·10⁻² for 30 more subsequences: over 8 impact seeds (3 s) the work fell 11–40 % on
  four (seed 3's p95 19.7 → 7.2 ms) and rose 84–175 % on three, 255M → 301M in all, with fewer
  islands converged (95.8 % on one seed); at 10 times its least within 10 ε, 255M → 263M, the
  worst seed's p95 18.7 ms against 19.7. Not kept.
- Inexact contact projections (kept; solver/staggered.go, contactTolerance and finishContact): on
  islands over 64 contacts each contact projection after the first is solved to 3 % of the
  previous subsequence's largest velocity change, and an iterate that meets ε that way is
  finished to ContactTol and measured again. Islands of 64 contacts or more captured from the
  pipeline and replayed: the impact's (seeds 1 and 3) −20 % and −26 % work, the 200-sphere
  pile's −33 %, the pile's −3 % and −6 %. In the pipeline (one run after another): eight impact
  seeds −8 % work and −7 % solve time, the worst seed's p95 20.0 → 13.8 ms; the 1,000-sphere
  pile (4 s) median step 191 → 167 ms, p95 652 → 503 ms, and over 2.5 s mean
  solve 341 → 256 ms, median step 321 → 265 ms, p95 721 → 528 ms; the 200-sphere pile's mean
  solve −19 % over three seeds (seed 1, the bench's, +5 %, its median step 14 → 20 ms); the
  pile's +1.4 % over six seeds (seed 1 +26 %, the others −12 to +6 %). Contact updates overstate
  the saving: the loop runs about a quarter more subsequences on the sphere piles, and their
  friction work rises by about as much. The solver's benchmarks of sliding pyramids (default
  options) take a subsequence more, 20 rows 40 → 53 ms a solve and 30 rows 118 → 142 ms; the
  sliding 40-box tower 2.2 → 1.9 ms. Variants: taking an
  iterate that met ε inexactly as it is let loops end on a stale α (a struck card house's island
  met ε inexactly at the 13th subsequence and measured 2·10⁻² when finished; on every island a
  resting StVK block kept moving after 60 s); going on to the next subsequence with exact
  projections instead of finishing, the pile's seeds 1 and 3 +25–29 % work; forcing 0.01 or 0.1
  instead of 0.03, within 5 % (with 0.1 one replayed impact island ended inexact); 0.3 or 1, no
  saving (the projections return at once and α stays stale until the finish); tightened to
  ContactTol below 100 ε as the friction's forcing is, the 1,000-sphere saving fell from 22 % to
  5 %; on islands of any size, the topple's work +49 %.
- Friction projections on islands over 64 contacts held to the forcing term to the end instead
  of full accuracy below 100 ε (finished when an iterate meets ε): replayed, the 200-sphere pile
  −17 % work and the impact −2 % and −5 %, the pile +4 %; the 1,000-sphere pile −13 % time over
  1.5 s; in the pipeline eight impact seeds −2 % in all but −19 to +54 % per seed (a p95 of 17.8
  ms), six pile seeds unchanged in all. Not kept. The friction factor with the narrow shift (10⁻³
  or 10⁻⁴) on such islands left the 1,000-sphere pile's work unchanged.
- Settling (kept; solver/staggered.go, finalProjection): an ε-converged answer on an island of
  rigid bodies is settled only when the energy certificate fails. On the resting 1,000-sphere
  pile about 1,100 of 2,900 contacts offended in each of the four settling rounds, their exact
  contact projections were half the step's contact CG, and positive work fell only by a third
  while the certificate showed the step losing energy. Replayed islands: the 1,000-sphere pile's
  −9 % work (its resting steps −40 %), the 200-sphere pile's −5 %, impact −3 to −4 %, pile −2 to
  −3 %, no certificate failing more often. In the pipeline (fresh builds, one after the other):
  the 1,000-sphere pile's solve −12 % over 4 s (median step 164 → 134 ms), the 200-sphere pile's
  −3.5 % (three seeds), pile and impact unchanged (6 and 16 seeds, solve +0 and −1 %).
- Friction projection, the dissipation-gap test after every sweep on islands of rigid bodies above
  64 contacts instead of every fourth (kept; solver/friction.go, gapEvery): replayed, work −7 to
  −16 % on the 1,000- and 200-sphere piles, the pile and the impact; in the pipeline the sphere
  piles' solve −9 and −10 %, the pile's +4 % and the impact's 0 % over their seeds (per seed
  −35 to +89 %). Every second sweep: −5 to −15 % work; every third: −1 to −8 %. On every island,
  a resting StVK block kept a spin of 0.14 rad/s after 60 s and the incline's slide moved 1.3e-12
  off the discrete Coulomb answer.
- The 1,000-sphere pile's settling solves (20–60 subsequences) traced contact by contact: rel_err
  falls from 10⁻³ to 10⁻⁴ over 40 subsequences while the largest velocity change stays 0.03–0.15
  m/s, at sliding contacts (‖f‖ = μα, slip 0.1–0.6 m/s) whose normal load moves to a neighbour by
  about 0.01 N·s a subsequence until one side's α reaches 0: friction proportional to α couples
  the two projections there, and the loop walks each such piece one active-set change at a time.
  With every contact projection exact and no friction forcing the settling islands take as many
  subsequences (365 against 368): the mode is the exact map's. Anderson's history is dropped
  about every sixth subsequence (its residual grew); keeping it through growth of up to 2× or 4×
  made the replayed sphere piles 7–30 % slower, and depth 15 saved 2 %. Without Anderson the
  settling islands took 11 % fewer subsequences, but a replayed impact island then ended with an
  inexact contact projection and the 200-sphere pile took 11 % more; mixing switched off after 2
  or 4 resets, −1 % there and up to +18 % elsewhere. Coupling each rim contact's friction to its α
  in projected Gauss–Seidel sweeps before each contact projection (f_k = μα_k d_k), 21–50 % more
  subsequences; warm starts extrapolated from the last two steps' answers, +4 % and +15 % work.
  The warm contact projection's factor built at once instead of after the CG's own scaling has
  had its chance: −20 % contact CG on the resting steps but −1 to −6 % time; not kept. Again
  at the default MaxIters on islands above 1,000 contacts: the 1,000-sphere pile 24.2 → 19.9 ms
  median over 10 s (p95 410 → 376) and 149 → 136 ms over 4 s, but the resting 20- and 30-row
  pyramids (sleeping off), whose warm projections finish on the CG's own scaling, +11 % solve;
  not kept. The pile
  stays awake long after it has settled: a dozen spheres on the ground spin about the vertical
  at up to 1.1 rad/s for as long as it runs, each a turntable under the sphere the release grid
  stacked on it, which rolls round on it without slipping (its contact sticks, 2 cm off the
  axis); the ground contact lies on the axis, and point contacts have no torsional friction or
  rolling resistance, so nothing dissipates, and the whole island stays awake. Joining sleeping
  parts only through loaded contacts changed nothing.
- The repair of a solve cut short at MaxIters (kept; solver/dissipate.go, repairUnconverged): with
  the physics default of 50 subsequences (the runner then used 100) the 1,000-sphere pile took
  625 ms median and 5.9 s p95 over 4 s. Dropping every friction impulse that pushed along its new
  slip cascaded on a 3,400-contact island: the first round dropped half the friction, its
  contact projection made new offenders, and after four rounds all friction went, so the pile
  flowed and every later step was cut short (221 solves). Scaling infeasible impulses onto their
  sets and keeping the answer when the energy certificate passes: 152 ms and 439 ms (17 cut
  short), the same as with 100 subsequences. The scaling rounds halve the sum of the excess each;
  scaling and dropping as before but the certificate in place of the final clearing still lost
  nearly all friction; settling the offenders (settleFriction) left as many infeasible. Over 16
  impact seeds of 5 s the solve +13 % (two seeds 2–3× slower late in the run, eight others
  faster) and p95 above 16 ms on 5 seeds against 8; the 200-sphere pile's seeds 2–4 unchanged,
  its seed 1 (the table's) 10 → 20 ms median, 19 solves cut short where there had been one.
- Friction projection on the struck card house's settling debris (about 200 contacts, impact
  seeds 1 and 8 after 4 s): a subsequence's projection ran its 200 rounds of two sweeps and a CG
  step cut at the first disc boundary (one or two CG iterations a round) without meeting the
  dissipation gap, then block Gauss–Seidel alone to FrictionMaxSweeps, 1,800 sweeps, without
  meeting it either. Ending it after the rounds (kept; solver/friction.go, project): replayed
  −13 to −23 % work, the earlier impact islands −4 %, pile and sphere islands unchanged; in the
  pipeline, 16 impact seeds over 5 s −7 % solve (−46 to +56 % per seed), p95 above 16 ms on 6
  seeds against 5 but the worst 26 ms against 38. Up to four cut subspace steps a round instead of
  one: −24 % on those islands, +15 to +50 % on the pile, sphere and early impact islands. Tying
  the projections' gap target to the loop's rel_err (a forcing term, gap = max(ε, η·rel_err),
  η 0.1–1): −3 % work on the settling spheres, −1 % on the late impact, −8 % on a pile; not kept.
  Ending those projections after 25 rounds instead of 200 (kept): the replayed late impact −30 to
  −48 % work for as many subsequences, impact over 5 s −23 % solve with every seed's p95 at most
  14.2 ms (five above 16 ms before), archimpact over 10 s −60 %; after 50 rounds −36 % on the
  replayed islands; after 12, −59 % but more solves cut short (one replayed set 0 → 2).
- Incomplete Cholesky factors that amplify residuals: on the flowing 1,000-sphere pile, where dropped
  fill let a pivot's breakdown grow through later rows, two friction CG runs in one step took
  7,000 iterations without progress on a factor returning residuals of 1e85. Refusing a factor
  whose first rᵀ(LLᵀ)⁻¹r exceeds ten times rᵀD⁻¹r/ε (kept; sound factors give about 0.03 of it):
  the pile's replayed islands −20 % work, cold sliding sphere piles −17 %, no other scene's
  trajectory changed. Dropping a broken-down row's entries instead (the row then truly diagonal):
  the same −20 % on the flowing pile, but cold sliding sphere piles +3 % (one seed +45 %);
  not kept.
- Friction factor kept across a projection's rounds while its set changes by at most 1 % of its
  contacts (kept): the replayed flowing and settling sphere piles −7 % time for 3 % more CG
  iterations; within 2 % or 5 % about the same, within 10 % no gain (24 % more CG). In the
  pipeline, spheres 1000 over 4 s, three seeds: solve −2 %, p95 −5 %. Also for projections run
  to the sweep tolerance (no gap target, CG steps not cut): the solver's sliding 20- and 30-row
  pyramids took 66–80 % more friction CG and 29–39 % more time, so those rebuild it.
- The contact CG's factor built at once on the 1,000-sphere pile's late resting steps (5–6 s,
  replayed): −13.5 % contact updates, −0.7 % time (the factorisations cost what the CG's own
  scaling saved); not kept.
- Torsional friction (kept, off by default; physics/spin_friction.go, Config.TorsionalPatchRadius)
  at 0.01 m on the 1,000-sphere pile: the turntable spheres stop (seed 1: 18 bodies still above
  the sleep thresholds at 8 s against 22 without it, 3 at 10 s), but the avalanches change with
  it: over 10 s the median moved both ways (seed 1 19.2 → 46.3 ms, seed 2 16.9 → 14.5 ms), the
  p95 fell 15 % and 9 % (340 → 287 ms, 332 → 300 ms) and the solves cut short 26 → 8 and
  22 → 5. On the 100-body pile it leaves seven of eight
  seeds within 2.2 mm, and seed 4 takes a one-step 5.2 mm penetration at 1.14 s, over
  make validate's 5 mm: a sphere spins a resting hull up to 20 rad/s within one step, which the
  step's linearisation does not follow. First without a floor on the spin it acts on, it fed
  the solve's round-off back into a resting 100-cube tower, whose twist grew over 40 s until its
  solves were cut short (shift 1.3 mm, make validate); spins slipping less than 1e-9 m/s at the
  patch's rim are now left alone.
- The 1,000-sphere pile's flowing steps (replayed, 1.4–1.65 s, about 2,870 contacts, 36–67
  subsequences a step): rel_err reaches 1e-3 within about 17 subsequences and then falls to ε
  (1e-4) over the next 20–40, by about 3 % a subsequence in norm, with thousands of velocities
  still changing in each (no few contacts cycling). Anderson depth 10 or 20 instead of 5: work
  within 1 %. Anderson off: −12 % time there (3 solves cut short at MaxIters instead of 7), but
  on other replayed sets +9 % (200-sphere pile), +31 % and −27 % (two impact sets), −4 % (the
  100-body pile), −5 % (the settling 1,000-sphere pile); plain steps only while rel_err is
  above 10 ε, or only below it, did 1–24 % more work than Anderson throughout on every set; a
  Tikhonov term of 1e-4 or 1e-2 of the Gram matrix's trace (instead of 1e-10) moved each set's
  work by at most 4 %, and resetting the history unless the residual falls by 5 % or 20 % added
  up to 21 %. No rule found that tells the sets apart. The friction projections' gap target raised to 0.1 or 0.3 times the last
  rel_err where that exceeds ε: −4 % and −9 % time, the same subsequences; lowered to 3e-5 or
  1e-5 (more accurate projections): the same subsequences again, +5 % and +17 % work, so the
  tail is the map's own contraction, not the projections' error. The narrow shift also on a
  warm step's first contact projection on islands above 1,000 contacts (the pile's late resting
  steps, replayed): −2 to −6 % time. None kept: the slow tail of the staggered loop itself, not
  the cost of its projections, is what the flowing phase needed cut (the presolve, next).
- The presolve (kept; solver/presolve.go): coupled projected Gauss–Seidel sweeps before the loop
  on islands above 64 contacts. Replayed, the flowing 1,000-sphere steps went from 7.4 s for 26
  steps (1,111 subsequences) to 1.2 s (30), the settling pile −81 %, the 200-sphere pile −76 %,
  the 100-body pile −51 %, two impact sets −56 % and −11 %, the late resting steps unchanged. A
  fixed 50 sweeps left 10–28 subsequences a flowing step; the first sweep's change told a resting
  warm start (1e-8–1e-7 of the impulses) from a flowing one (1e-3–1e-2). Its tolerance at 1e-6 or
  5e-6 instead of 2e-6: +5 to +25 % time on the sphere sets; on islands of any size or above 16
  contacts instead of 64: within 2 % except the 100-body pile (−2 %); above 100 or 150: the
  100-body pile +35 % and +90 %. Over-relaxed sweeps (ω 1.3, 1.6): the impact sets −24 to −43 % at
  1.6, the sphere sets up to 2.2× slower; sweeps alternating forward and backward: +6 to +29 %. A
  round of 100 sweeps after each subsequence that missed 100 ε: one impact set −20 %, the others
  within 3 %. Plain per-sweep largest velocity change as the stopping test does not work: on the
  flowing pile it stays near 2e-3 of the velocity scale for 400 sweeps. Restoring every warm
  normal impulse after the sweeps: the sphere sets +10 to +20 %; only a manifold's points' (their
  load distribution is not unique): the struck arch's island reached its fixed point, but the
  resting 100-box tower of make validate shifted 2.8 mm in 60 s (its presolved friction no longer
  matched the loads). Where it does not pay: the generated sliding pile of 1,900 spheres solved
  cold (no warm start; Variants spheres10/sliding/cold) meets the presolve's tolerance after 278
  sweeps, and the loop then comes to 4e-4 and wanders to MaxIters with costlier contact
  projections, 2.4× the work of the loop alone; its next, warm step takes a fifth of the work. The
  energy certificate's tolerance ContactTol·scale·Σα + FrictionTol·scale·Σ‖f‖ (kept for presolved
  answers only, for the struck arch's island), or settling every converged answer whose step gains
  energy, for every answer: the resting 100-box tower of make validate ran 8.5× and 3.7× slower,
  the second shifting 1.7 mm.
`

// cpuModel returns the CPU's model name from /proc/cpuinfo, or "unknown CPU".
func cpuModel() string {
	b, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return "unknown CPU"
	}
	for _, line := range strings.Split(string(b), "\n") {
		if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return "unknown CPU"
}

// writeCSV writes t as a CSV file with its header.
func writeCSV(path string, t table) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := csv.NewWriter(f)
	if err := w.Write(t.header); err != nil {
		f.Close()
		return err
	}
	if err := w.WriteAll(t.rows); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
