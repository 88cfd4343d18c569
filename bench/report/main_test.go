package main

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/stagger-physics/stagger/bench/bullet"
	"github.com/stagger-physics/stagger/demo/headless"
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
	if pile := tb.rows[0]; pile[0] != "pile" || pile[1] != "100" || pile[4] != "40" || pile[5] != "400" {
		t.Errorf("pile row %v: want stagger's median 40 and p95 400", pile)
	}
	var md bytes.Buffer
	writeTable(&md, tb)
	if !strings.Contains(md.String(), "## Bullet on the same scenes") || !strings.Contains(md.String(), "Bullet not measured") {
		t.Errorf("markdown:\n%s", md.String())
	}
}
