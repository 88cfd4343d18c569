package main

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/stagger-physics/stagger/bench/bullet"
	"github.com/stagger-physics/stagger/demo/headless"
	"github.com/stagger-physics/stagger/demo/web"
	"github.com/stagger-physics/stagger/scenes"
)

// TestBulletTableWithoutBullet checks that a machine without Bullet gets the Bullet table with
// stagger's figures, dashes for Bullet's and a note saying why, instead of a failed report.
func TestBulletTableWithoutBullet(t *testing.T) {
	saved := buildBullet
	defer func() { buildBullet = saved }()
	buildBullet = func() (bullet.Harness, error) {
		return bullet.Harness{}, fmt.Errorf("%w: pkg-config: bullet not found", bullet.ErrUnavailable)
	}
	stagger := map[string]headless.Result{runKey("pile", 100, 4): {Bodies: 105, MsMedian: 40, MsP95: 400, MaxPenetration: 0.05}}
	tb, err := bulletTable(stagger)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(tb.note, "Bullet not measured: ") || !strings.Contains(tb.note, "libbullet-dev") {
		t.Errorf("note %q: want it to say Bullet was not measured and why", tb.note)
	}
	if len(tb.rows) == 0 {
		t.Fatal("no rows")
	}
	for _, r := range tb.rows {
		if len(r) != len(tb.header) {
			t.Fatalf("row %v has %d cells for %d columns", r, len(r), len(tb.header))
		}
		if r[6] != "–" || r[7] != "–" || r[8] != "–" {
			t.Errorf("row %v: Bullet's cells should be dashes", r)
		}
	}
	var pile []string
	for _, r := range tb.rows {
		if r[0] == "pile" {
			pile = r
		}
	}
	if pile == nil || pile[1] != "100" || pile[4] != "40" || pile[5] != "400" {
		t.Errorf("pile row %v: want n 100, stagger's median 40 and p95 400", pile)
	}
	var md bytes.Buffer
	writeTable(&md, tb)
	if !strings.Contains(md.String(), "## Bullet on the same scenes") || !strings.Contains(md.String(), "Bullet not measured") {
		t.Errorf("markdown:\n%s", md.String())
	}
}

// TestBrowserTableWithoutBrowser checks that a machine without Chromium gets the browser table with
// dashes and a note saying why, instead of a failed report, and that another failure fails it.
func TestBrowserTableWithoutBrowser(t *testing.T) {
	saved := measureBrowser
	defer func() { measureBrowser = saved }()
	measureBrowser = func() (web.Measurement, error) {
		return web.Measurement{}, fmt.Errorf("%w (looked for chromium)", web.ErrNoBrowser)
	}
	tb, err := browserTable()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(tb.note, "Browser not measured: ") || !strings.Contains(tb.note, "no Chromium found") {
		t.Errorf("note %q: want it to say the browser build was not measured and why", tb.note)
	}
	if len(tb.rows) != 3 {
		t.Fatalf("%d rows, want 3", len(tb.rows))
	}
	for _, r := range tb.rows {
		if len(r) != len(tb.header) || r[1] != "–" {
			t.Errorf("row %v: want a dash under %v", r, tb.header)
		}
	}
	measureBrowser = func() (web.Measurement, error) {
		return web.Measurement{}, fmt.Errorf("web: the game reports an error: boom")
	}
	if _, err := browserTable(); err == nil || !strings.Contains(err.Error(), "boom") {
		t.Errorf("a failed measurement gave error %v, want it passed on", err)
	}
	measureBrowser = func() (web.Measurement, error) {
		return web.Measurement{WasmBytes: 10_560_000, FirstLoadMs: 1684.4, ReloadMs: []float64{900, 700, 800, 1000}}, nil
	}
	tb, err = browserTable()
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{{"wasm size, MB", "10.6"}, {"first visit to first frame, ms", "1684"}, {"later visits to first frame, median of 4, ms", "850"}}
	for i, r := range tb.rows {
		if i >= len(want) || strings.Join(r, "|") != strings.Join(want[i], "|") {
			t.Errorf("rows %v, want %v", tb.rows, want)
			break
		}
	}
}

// TestSceneRunsCoverEveryScene: the scene table runs every scene the runner knows, each case
// (scene, n and seconds, as runKey names it) once and each resolvable, so that a new scene cannot
// make `make bench` fail at its end.
func TestSceneRunsCoverEveryScene(t *testing.T) {
	seen, cases := map[string]bool{}, map[string]bool{}
	for _, r := range sceneRuns {
		seen[r.scene] = true
		_, sc, p, err := r.resolve()
		if err != nil {
			t.Errorf("scene %q: %v", r.scene, err)
			continue
		}
		if key := runKey(sc.Name, p.N, r.seconds); cases[key] {
			t.Errorf("case %s runs twice", key)
		} else {
			cases[key] = true
		}
	}
	for _, name := range scenes.Names() {
		if !seen[name] {
			t.Errorf("scene %q is not in the scene table", name)
		}
	}
}
