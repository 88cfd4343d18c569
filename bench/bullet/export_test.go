package bullet

import (
	"bytes"
	"strconv"
	"strings"
	"testing"

	"github.com/stagger-physics/stagger/collide"
	"github.com/stagger-physics/stagger/ecs"
	"github.com/stagger-physics/stagger/physics"
	"github.com/stagger-physics/stagger/scenes"
)

// TestExportSceneFormat exports a pile of every shape kind and reads the text back: the header,
// six lines a body in the documented order, and numbers that give back the world's values
// exactly.
func TestExportSceneFormat(t *testing.T) {
	sc, err := scenes.Lookup("pile")
	if err != nil {
		t.Fatal(err)
	}
	p := sc.Defaults
	p.N, p.Seed = 8, 3
	cfg := physics.DefaultConfig()
	var buf bytes.Buffer
	if err := ExportScene(&buf, sc, p, cfg, 0.01, 3); err != nil {
		t.Fatal(err)
	}
	app, err := SceneWorld(sc, p, cfg, 0.01)
	if err != nil {
		t.Fatal(err)
	}
	var bodies []physics.RigidBody
	var shapes []collide.Shape
	q, _ := ecs.NewQuery2[physics.RigidBody, physics.Collider](app.World)
	_ = q.Each(func(_ ecs.Entity, b *physics.RigidBody, c *physics.Collider) {
		bodies, shapes = append(bodies, *b), append(shapes, c.Shape)
	})

	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	header := []string{"stagger-scene 3", "scene pile", "n 8", "seed 3", "dt 0.01", "gravity 0 0 -9.80665", "sleep 0.5 0.01 0.035", "bodies 13"}
	for i, want := range header {
		if lines[i] != want {
			t.Fatalf("line %d: %q, want %q", i+1, lines[i], want)
		}
	}
	if len(bodies) != 13 || len(lines) != len(header)+6*len(bodies)+3 || lines[len(lines)-3] != "spawns 0" || lines[len(lines)-2] != "removals 0" || lines[len(lines)-1] != "end" {
		t.Fatalf("%d lines for %d bodies, last %q: want %d lines ending with spawns 0, removals 0 and end", len(lines), len(bodies), lines[len(lines)-1], len(header)+6*13+3)
	}
	numbers := func(line, keyword string) []float64 {
		f := strings.Fields(line)
		if f[0] != keyword {
			t.Fatalf("line %q: want keyword %s", line, keyword)
		}
		var xs []float64
		for _, s := range f[1:] {
			x, err := strconv.ParseFloat(s, 64)
			if err != nil {
				t.Fatalf("line %q: %v", line, err)
			}
			xs = append(xs, x)
		}
		return xs
	}
	kinds := map[string]int{}
	for i, b := range bodies {
		l := lines[len(header)+6*i:]
		if l[0] != "body "+b.Kind.String() {
			t.Errorf("body %d: %q, want body %v", i, l[0], b.Kind)
		}
		pose := numbers(l[1], "pose")
		want := []float64{b.Position[0], b.Position[1], b.Position[2], b.Orientation.W, b.Orientation.V[0], b.Orientation.V[1], b.Orientation.V[2]}
		if !equal(pose, want) {
			t.Errorf("body %d: pose %v, want %v", i, pose, want)
		}
		v, w := b.LinearVelocity, b.AngularVelocity
		if got := numbers(l[2], "velocity"); !equal(got, []float64{v[0], v[1], v[2], w[0], w[1], w[2]}) {
			t.Errorf("body %d: velocity %v, want %v %v", i, got, v, w)
		}
		mass := numbers(l[3], "mass")
		wantMass := []float64{b.Mass}
		for r := 0; r < 3; r++ {
			for c := 0; c < 3; c++ {
				wantMass = append(wantMass, b.Inertia.At(r, c))
			}
		}
		if !equal(mass, wantMass) || (b.Kind == physics.Dynamic) != (mass[0] > 0) {
			t.Errorf("body %d (%v): mass %v, want %v", i, b.Kind, mass, wantMass)
		}
		if m := numbers(l[4], "material"); !equal(m, []float64{b.Friction, b.Restitution}) {
			t.Errorf("body %d: material %v", i, m)
		}
		shape := strings.Fields(l[5])
		kinds[shape[1]]++
		switch s := shapes[i].(type) {
		case *collide.Capsule:
			if got := numbers(strings.Join(shape[1:], " "), "capsule"); !equal(got, []float64{s.Radius, s.HalfHeight}) {
				t.Errorf("body %d: %q, want radius %v half-height %v", i, l[5], s.Radius, s.HalfHeight)
			}
		case *collide.ConvexHull:
			nv := len(s.Vertices())
			if len(shape) != 3+3*nv+1+4*s.NumFaces() || shape[2] != strconv.Itoa(nv) || shape[3+3*nv] != strconv.Itoa(s.NumFaces()) {
				t.Errorf("body %d: hull line of %d fields for %d vertices and %d faces", i, len(shape), nv, s.NumFaces())
			}
		}
	}
	for _, k := range []string{"halfspace", "box", "sphere", "capsule", "hull"} {
		if kinds[k] == 0 {
			t.Errorf("no %s in the export (have %v)", k, kinds)
		}
	}
}

// equal reports whether two slices hold the same values.
func equal(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
