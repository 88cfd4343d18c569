package bullet

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/stagger-physics/stagger/collide"
	"github.com/stagger-physics/stagger/ecs"
	"github.com/stagger-physics/stagger/physics"
	"github.com/stagger-physics/stagger/scenes"
)

const testDt = 0.01

// buildHarness builds the harness or fails the test: scripts/setup.sh installs Bullet, so a
// missing library is a broken setup, not a reason to skip.
func buildHarness(t *testing.T) Harness {
	t.Helper()
	h, err := Build()
	if err != nil {
		t.Fatalf("building the Bullet harness: %v", err)
	}
	return h
}

// TestHarnessPile runs a small pile in Bullet and checks the run's bookkeeping and that the
// bodies fell into the bin without blowing up.
func TestHarnessPile(t *testing.T) {
	h := buildHarness(t)
	sc, err := scenes.Lookup("pile")
	if err != nil {
		t.Fatal(err)
	}
	p := sc.Defaults
	p.N, p.Seed = 10, 1
	cfg := physics.DefaultConfig()
	app, err := SceneWorld(sc, p, cfg, testDt)
	if err != nil {
		t.Fatal(err)
	}
	bodies := ecs.Count[physics.RigidBody](app.World)
	r, err := h.RunScene(sc, p, cfg, testDt, RunOptions{Seconds: 0.5})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%+v", r)
	if r.Scene != "pile" || r.N != 10 || r.Seed != 1 || r.Dt != testDt {
		t.Errorf("scene %q n %d seed %d dt %v, want pile 10 1 %v", r.Scene, r.N, r.Seed, r.Dt, testDt)
	}
	if r.Steps != 50 {
		t.Errorf("steps %d, want 0.5 s / 0.01 s = 50", r.Steps)
	}
	if r.Bodies != bodies || bodies != 15 {
		t.Errorf("bodies %d, world has %d, want 15 (ground, four walls, ten bodies)", r.Bodies, bodies)
	}
	if r.Bullet != h.Version || r.Precision != "float" || r.Sleep != "scene" {
		t.Errorf("bullet %q precision %q sleep %q, want %q float scene", r.Bullet, r.Precision, r.Sleep, h.Version)
	}
	for name, x := range map[string]float64{"ms_median": r.MsMedian, "ms_p95": r.MsP95, "ms_max": r.MsMax,
		"max_penetration": r.MaxPenetration, "max_drop": r.MaxDrop, "max_shift": r.MaxShift, "contacts_mean": r.ContactsMean} {
		if math.IsNaN(x) || math.IsInf(x, 0) || x < 0 {
			t.Errorf("%s = %v, want finite and >= 0", name, x)
		}
	}
	if r.NonFinite {
		t.Error("nonfinite state")
	}
	if !(r.MsMedian > 0 && r.MsMedian <= r.MsP95 && r.MsP95 <= r.MsMax) {
		t.Errorf("step times median %v, p95 %v, max %v: want 0 < median <= p95 <= max", r.MsMedian, r.MsP95, r.MsMax)
	}
	// Released from 0.5 m, bodies at most 0.2 m in half-size land at least 0.3 m lower, with
	// contacts; Bullet's penetration on landing is centimetres, not decimetres.
	if r.MaxDrop < 0.3 || r.MaxDrop > 0.5 {
		t.Errorf("max_drop %v m, want between 0.3 and 0.5", r.MaxDrop)
	}
	if r.ContactsMean <= 0 {
		t.Errorf("contacts_mean %v, want > 0", r.ContactsMean)
	}
	if r.MaxPenetration > 0.05 {
		t.Errorf("max_penetration %v m, want under 5 cm", r.MaxPenetration)
	}
}

// testWorld is a hand-built world for comparing the two engines.
type testWorld struct {
	app *ecs.App
	cfg physics.Config
	dt  float64
}

func newTestWorld(t *testing.T, cfg physics.Config, dt float64) *testWorld {
	t.Helper()
	app, err := ecs.NewApp(dt, 1)
	if err != nil {
		t.Fatal(err)
	}
	if err := app.AddPlugin(physics.NewPlugin(cfg)); err != nil {
		t.Fatal(err)
	}
	return &testWorld{app: app, cfg: cfg, dt: dt}
}

func (w *testWorld) spawn(t *testing.T, b physics.RigidBody, s collide.Shape) {
	t.Helper()
	if _, err := physics.Spawn(w.app.World, b, physics.Collider{Shape: s}); err != nil {
		t.Fatal(err)
	}
}

// bullet runs the world in the harness for seconds and returns its result with final states.
func (w *testWorld) bullet(t *testing.T, h Harness, seconds float64) Result {
	t.Helper()
	var buf bytes.Buffer
	if err := WriteWorld(&buf, w.app.World, Header{Scene: "test", N: 1, Dt: w.dt, Config: w.cfg}); err != nil {
		t.Fatal(err)
	}
	r, err := h.Run(&buf, RunOptions{Seconds: seconds, Final: true})
	if err != nil {
		t.Fatal(err)
	}
	if r.NonFinite || len(r.Final) != ecs.Count[physics.RigidBody](w.app.World) {
		t.Fatalf("nonfinite %v, %d final states for %d bodies", r.NonFinite, len(r.Final), ecs.Count[physics.RigidBody](w.app.World))
	}
	return r
}

// stagger steps the world for seconds and returns every body in query order (the export's).
func (w *testWorld) stagger(t *testing.T, seconds float64) []physics.RigidBody {
	t.Helper()
	for i := 0; i < int(math.Round(seconds/w.dt)); i++ {
		if err := w.app.StepFixed(); err != nil {
			t.Fatal(err)
		}
	}
	return w.bodies(t)
}

func (w *testWorld) bodies(t *testing.T) []physics.RigidBody {
	t.Helper()
	q, err := ecs.NewQuery1[physics.RigidBody](w.app.World)
	if err != nil {
		t.Fatal(err)
	}
	var out []physics.RigidBody
	if err := q.Each(func(_ ecs.Entity, b *physics.RigidBody) { out = append(out, *b) }); err != nil {
		t.Fatal(err)
	}
	return out
}

// state splits a final state into position, orientation and velocities.
func state(x [13]float64) (p mgl64.Vec3, q mgl64.Quat, v, w mgl64.Vec3) {
	return mgl64.Vec3{x[0], x[1], x[2]}, mgl64.Quat{W: x[3], V: mgl64.Vec3{x[4], x[5], x[6]}},
		mgl64.Vec3{x[7], x[8], x[9]}, mgl64.Vec3{x[10], x[11], x[12]}
}

// angle returns the angle of the rotation between two orientations, rad.
func angle(a, b mgl64.Quat) float64 {
	d := math.Abs(a.Normalize().Dot(b.Normalize())) // Bullet's float quaternions are unit only to 1e-7
	return 2 * math.Acos(math.Min(1, d))
}

// boxHull returns the convex hull of the corners of a box of half extents half turned by rot:
// its inertia is not diagonal in its own frame.
func boxHull(t *testing.T, half mgl64.Vec3, rot mgl64.Quat) *collide.ConvexHull {
	t.Helper()
	var pts []mgl64.Vec3
	for i := 0; i < 8; i++ {
		c := half
		for k := 0; k < 3; k++ {
			if i&(1<<k) != 0 {
				c[k] = -c[k]
			}
		}
		pts = append(pts, rot.Rotate(c))
	}
	h, _, err := collide.NewConvexHullCentered(pts)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// skewInertia returns an inertia tensor that is not diagonal: diag(0.05, 0.08, 0.1) kg·m² turned by
// hullTurn.
func skewInertia() mgl64.Mat3 {
	r := hullTurn.Mat4().Mat3()
	return r.Mul3(mgl64.Diag3(mgl64.Vec3{0.05, 0.08, 0.1})).Mul3(r.Transpose())
}

// hullTurn is the rotation of boxHull's corners in the tests: a turn about a skew axis.
var hullTurn = mgl64.QuatRotate(0.7, mgl64.Vec3{1, 2, 3}.Normalize())

// TestHarnessFreeFlightMatchesStagger throws a sphere, a box, a capsule, a hull whose inertia
// is not diagonal and a box given such an inertia, each spinning about a general axis, with no contact, and compares Bullet's
// final states with stagger's. Positions follow the same semi-implicit Euler in both (to float
// precision); spins differ only by the two engines' gyroscopic integrators, far less than a
// wrong mass distribution, principal frame or axis convention would make them differ.
func TestHarnessFreeFlightMatchesStagger(t *testing.T) {
	h := buildHarness(t)
	w := newTestWorld(t, physics.DefaultConfig(), 0.001)
	sphere, _ := collide.NewSphere(0.3)
	box, _ := collide.NewBox(mgl64.Vec3{0.4, 0.25, 0.1})
	capsule, _ := collide.NewCapsule(0.1, 0.4)
	hull := boxHull(t, mgl64.Vec3{0.3, 0.2, 0.1}, hullTurn)
	for i, s := range []collide.Shape{sphere, box, capsule, hull, box} {
		b := physics.NewDynamic(mgl64.Vec3{1.2*float64(i) - 2.4, 0, 0}, 500+100*float64(i))
		if i == 4 {
			// A game's own inertia, not diagonal in the body frame: the harness's compound path.
			b.Mass, b.Inertia = 2, skewInertia()
		}
		b.Orientation = mgl64.QuatRotate(0.3+0.4*float64(i), mgl64.Vec3{1, -1, 2}.Normalize())
		b.LinearVelocity = mgl64.Vec3{1, -0.5, 2}
		b.AngularVelocity = mgl64.Vec3{1.5, -2, 1}
		w.spawn(t, b, s)
	}
	const seconds = 0.5
	r := w.bullet(t, h, seconds)
	want := w.stagger(t, seconds)
	for i, b := range want {
		p, q, v, om := state(r.Final[i])
		t.Logf("body %d: %.2g m, %.2g m/s, %.2g rad, %.2g rad/s apart", i, p.Sub(b.Position).Len(), v.Sub(b.LinearVelocity).Len(),
			angle(q, b.Orientation), om.Sub(b.AngularVelocity).Len())
		if d := p.Sub(b.Position).Len(); d > 1e-4 {
			t.Errorf("body %d: position %v, stagger %v (%.3g m apart)", i, p, b.Position, d)
		}
		if d := v.Sub(b.LinearVelocity).Len(); d > 1e-4 {
			t.Errorf("body %d: velocity %v, stagger %v", i, v, b.LinearVelocity)
		}
		if a := angle(q, b.Orientation); a > 2e-3 {
			t.Errorf("body %d: orientation %v, stagger %v (%.3g rad apart)", i, q, b.Orientation, a)
		}
		if d := om.Sub(b.AngularVelocity).Len(); d > 5e-3*b.AngularVelocity.Len() {
			t.Errorf("body %d: angular velocity %v, stagger %v", i, om, b.AngularVelocity)
		}
	}
}

// TestHarnessRestingShapes stands a capsule on its end, a box on a side turned about two axes, a
// hull of turned box corners on a face, a sphere, and a box with a non-diagonal inertia on its
// largest face, on a ground half-space whose body is not at the origin. Each starts exactly touching; in Bullet each must stay where it is. A capsule built
// along the wrong axis, a quaternion read in the wrong order, a hull in the wrong frame or a
// misplaced plane would make a body fall, tip or be pushed up.
func TestHarnessRestingShapes(t *testing.T) {
	h := buildHarness(t)
	cfg := physics.DefaultConfig()
	cfg.SleepTime = 0 // keep every body awake and measured
	w := newTestWorld(t, cfg, testDt)
	plane, _ := collide.NewHalfSpace(mgl64.Vec3{0, 0, 1}, 1)
	ground := physics.NewStatic(mgl64.Vec3{0, 0, -1}) // the plane n·x ≤ 1 placed 1 m down: z ≤ 0
	w.spawn(t, ground, plane)

	capsule, _ := collide.NewCapsule(0.1, 0.3)
	standing := physics.NewDynamic(mgl64.Vec3{0, 0, 0.4}, 500)
	w.spawn(t, standing, capsule)

	box, _ := collide.NewBox(mgl64.Vec3{0.1, 0.2, 0.4})
	turned := physics.NewDynamic(mgl64.Vec3{2, 0, 0.2}, 500) // local y ends up along world z
	turned.Orientation = mgl64.QuatRotate(math.Pi/6, mgl64.Vec3{0, 0, 1}).Mul(mgl64.QuatRotate(math.Pi/2, mgl64.Vec3{1, 0, 0}))
	w.spawn(t, turned, box)

	hull := boxHull(t, mgl64.Vec3{0.3, 0.2, 0.1}, hullTurn)
	flat := physics.NewDynamic(mgl64.Vec3{4, 0, 0.1}, 500) // turned back: the corners' box is axis-aligned
	flat.Orientation = hullTurn.Inverse()
	w.spawn(t, flat, hull)

	sphere, _ := collide.NewSphere(0.2)
	w.spawn(t, physics.NewDynamic(mgl64.Vec3{6, 0, 0.2}, 500), sphere)

	lying := physics.NewDynamic(mgl64.Vec3{8, 0, 0.1}, 0) // the box on its largest face
	lying.Mass, lying.Inertia = 2, skewInertia()          // placed in Bullet through a compound shape
	lying.Orientation = mgl64.QuatRotate(math.Pi/2, mgl64.Vec3{0, 1, 0})
	w.spawn(t, lying, box)

	start := w.bodies(t)
	r := w.bullet(t, h, 1)
	t.Logf("max_drop %.3g m, max_shift %.3g m, max_penetration %.3g m", r.MaxDrop, r.MaxShift, r.MaxPenetration)
	for i, b := range start {
		if b.Kind != physics.Dynamic {
			continue
		}
		p, q, _, _ := state(r.Final[i])
		if d := p.Sub(b.Position).Len(); d > 2e-3 {
			t.Errorf("body %d (%v): moved from %v to %v (%.3g m)", i, b.Kind, b.Position, p, d)
		}
		if a := angle(q, b.Orientation); a > 1e-2 {
			t.Errorf("body %d: turned by %.3g rad", i, a)
		}
	}
	if r.MaxDrop > 2e-3 || r.MaxPenetration > 2e-3 {
		t.Errorf("max_drop %v m, max_penetration %v m: want both under 2 mm", r.MaxDrop, r.MaxPenetration)
	}
}

// TestHarnessMassAndRestitution collides a 1 kg sphere with restitution 1 head-on with a resting
// 3 kg sphere with restitution 0, without gravity. Stagger's rule e = max(ea, eb) makes the
// contact elastic, so the light sphere bounces back (elastic: −1 m/s; Bullet's Baumgarte push out
// of the contact's centimetre of penetration adds about 0.3 m/s), where Bullet's own product rule
// (e = 0) would leave it moving forward; and momentum (2 kg·m/s) is conserved only with the
// exported masses.
func TestHarnessMassAndRestitution(t *testing.T) {
	h := buildHarness(t)
	cfg := physics.DefaultConfig()
	cfg.Gravity = mgl64.Vec3{}
	w := newTestWorld(t, cfg, testDt)
	ball, _ := collide.NewSphere(0.2)
	density := 1 / ball.Volume()
	light := physics.NewDynamic(mgl64.Vec3{-1, 0, 0}, density)
	light.LinearVelocity = mgl64.Vec3{2, 0, 0}
	light.Restitution = 1
	w.spawn(t, light, ball)
	w.spawn(t, physics.NewDynamic(mgl64.Vec3{0, 0, 0}, 3*density), ball)
	r := w.bullet(t, h, 1)
	_, _, v0, _ := state(r.Final[0])
	_, _, v1, _ := state(r.Final[1])
	t.Logf("velocities after the collision: %v, %v", v0, v1)
	if p := v0.Add(v1.Mul(3)); p.Sub(mgl64.Vec3{2, 0, 0}).Len() > 0.01 {
		t.Errorf("momentum after the collision %v kg·m/s, want (2, 0, 0)", p)
	}
	if v0[0] > -0.5 || v1[0] < 0.5 {
		t.Errorf("velocities after the collision %v and %v: want the light sphere to bounce back", v0, v1)
	}
}

// TestWriteWorldRefuses checks that shapes without a harness counterpart are refused by kind, and
// that the harness refuses input that is not the scene format.
func TestWriteWorldRefuses(t *testing.T) {
	w := newTestWorld(t, physics.DefaultConfig(), testDt)
	mesh, err := collide.NewTriangleMesh([]mgl64.Vec3{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}, [][3]int{{0, 1, 2}})
	if err != nil {
		t.Fatal(err)
	}
	w.spawn(t, physics.NewStatic(mgl64.Vec3{}), mesh)
	err = WriteWorld(&bytes.Buffer{}, w.app.World, Header{Scene: "test", Dt: testDt, Config: w.cfg})
	if !errors.Is(err, ErrUnsupportedShape) || !strings.Contains(err.Error(), "TriangleMesh") {
		t.Errorf("WriteWorld with a triangle mesh: %v, want an error naming TriangleMesh", err)
	}

	h := buildHarness(t)
	_, err = h.Run(strings.NewReader("stagger-scene 1\n"), RunOptions{Seconds: 1})
	if err == nil || !strings.Contains(err.Error(), "format version") {
		t.Errorf("harness on version 1: %v, want a format version error", err)
	}
	if errors.Is(err, ErrUnavailable) {
		t.Errorf("a bad scene reported as ErrUnavailable: %v", err)
	}
}

// TestHarnessScriptedSpawns exports the impact scene, whose script drops five blocks on the card
// house at 1 s, and runs it in Bullet: the export lists the blocks as spawns before step 100 (the
// runner's script spawns them before the step that starts at 1 s), and in Bullet they are absent
// for the first 100 steps, then appear and fall: half a second later each is lower than where it
// appeared.
func TestHarnessScriptedSpawns(t *testing.T) {
	sc, err := scenes.Lookup("impact")
	if err != nil {
		t.Fatal(err)
	}
	cfg := physics.DefaultConfig()
	var buf bytes.Buffer
	if err := ExportScene(&buf, sc, sc.Defaults, cfg, testDt, 3); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(buf.String(), "\n")
	at := -1
	for i, l := range lines {
		if strings.HasPrefix(l, "spawns ") {
			at = i
		}
	}
	if at < 0 || lines[at] != "spawns 5" {
		t.Fatalf("export of impact: no \"spawns 5\" line (found at line %d)", at+1)
	}
	var spawnZ []float64
	for k := 0; k < 5; k++ {
		l := lines[at+1+7*k:]
		if l[0] != "at 100" || l[1] != "body dynamic" || !strings.HasPrefix(l[2], "pose ") {
			t.Fatalf("spawn %d: %q, %q, %q; want at 100, a dynamic body and its pose", k, l[0], l[1], l[2])
		}
		var x, y, z float64
		if _, err := fmt.Sscan(strings.TrimPrefix(l[2], "pose "), &x, &y, &z); err != nil {
			t.Fatal(err)
		}
		spawnZ = append(spawnZ, z)
	}
	h := buildHarness(t)
	early, err := h.Run(bytes.NewReader(buf.Bytes()), RunOptions{Seconds: 1, Final: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(early.Final) != early.Bodies-5 {
		t.Fatalf("after 100 steps %d bodies are in Bullet's world, want the %d built at the start", len(early.Final), early.Bodies-5)
	}
	r, err := h.Run(&buf, RunOptions{Seconds: 1.5, Final: true})
	if err != nil {
		t.Fatal(err)
	}
	if r.NonFinite || r.Steps != 150 || len(r.Final) != r.Bodies {
		t.Fatalf("nonfinite %v, %d steps, %d final states for %d bodies", r.NonFinite, r.Steps, len(r.Final), r.Bodies)
	}
	for k, z0 := range spawnZ {
		if z := r.Final[r.Bodies-5+k][2]; !(z < z0-0.05) {
			t.Errorf("block %d: at z %.3f after the run, want below where it appeared, %.3f", k, z, z0)
		}
	}
}

// TestHarnessScriptedRemovals exports the churn scene at n = 20 for 0.5 s, which spawns five crates
// every step and removes each four steps after its own: every spawned crate still alive after
// four steps is listed for removal before the step four after its spawn, and Bullet runs the 50
// steps with the crates coming and going, nothing non-finite.
func TestHarnessScriptedRemovals(t *testing.T) {
	sc, err := scenes.Lookup("churn")
	if err != nil {
		t.Fatal(err)
	}
	p := sc.Defaults
	p.N = 20
	var buf bytes.Buffer
	if err := ExportScene(&buf, sc, p, physics.DefaultConfig(), testDt, 0.5); err != nil {
		t.Fatal(err)
	}
	var spawnedAt []int64 // by spawn, in order
	bodies := 0
	removed := map[int64]int64{} // body index → step
	for _, l := range strings.Split(buf.String(), "\n") {
		var a, b int64
		switch {
		case strings.HasPrefix(l, "bodies "):
			fmt.Sscan(strings.TrimPrefix(l, "bodies "), &bodies)
		case strings.HasPrefix(l, "at "):
			fmt.Sscan(strings.TrimPrefix(l, "at "), &a)
			spawnedAt = append(spawnedAt, a)
		case strings.HasPrefix(l, "remove "):
			fmt.Sscan(strings.TrimPrefix(l, "remove "), &a, &b)
			removed[b] = a
		}
	}
	if len(spawnedAt) == 0 || len(removed) == 0 {
		t.Fatalf("%d spawns and %d removals exported, want both", len(spawnedAt), len(removed))
	}
	for i, at := range spawnedAt {
		step, ok := removed[int64(bodies+i)]
		if at+4 < 50 && (!ok || step != at+4) {
			t.Errorf("crate spawned before step %d: removed before step %d (listed %v), want %d", at, step, ok, at+4)
		}
		if at+4 >= 50 && ok {
			t.Errorf("crate spawned before step %d removed before step %d, after the run", at, step)
		}
	}
	r, err := buildHarness(t).Run(&buf, RunOptions{Seconds: 0.5})
	if err != nil {
		t.Fatal(err)
	}
	if r.NonFinite || r.Steps != 50 {
		t.Fatalf("nonfinite %v after %d steps, want 50 finite steps", r.NonFinite, r.Steps)
	}
}
