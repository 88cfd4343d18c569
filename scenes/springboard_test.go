package scenes

import (
	"math"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/stagger-physics/stagger/collide"
	"github.com/stagger-physics/stagger/deform"
	"github.com/stagger-physics/stagger/ecs"
	"github.com/stagger-physics/stagger/physics"
)

// springboardRun is the springboard scene built in an app stepping 10 ms with cfg: its plank, the
// plank's Springboard component and the crates.
type springboardRun struct {
	app    *ecs.App
	sim    *physics.Simulation
	plank  *physics.ReducedDeformable
	board  Springboard
	crates []ecs.Entity
}

func startSpringboard(t *testing.T, cfg physics.Config, p Params) *springboardRun {
	t.Helper()
	sc, err := Lookup("springboard")
	if err != nil {
		t.Fatal(err)
	}
	app, err := ecs.NewApp(testStep, 1)
	if err != nil {
		t.Fatal(err)
	}
	if err := app.AddPlugin(physics.NewPlugin(cfg)); err != nil {
		t.Fatal(err)
	}
	if err := sc.Build(app.World, p); err != nil {
		t.Fatal(err)
	}
	r := &springboardRun{app: app}
	r.sim, _ = physics.SimulationOf(app.World)
	q, err := ecs.NewQuery2[physics.ReducedDeformable, Springboard](app.World)
	if err != nil {
		t.Fatal(err)
	}
	_ = q.Each(func(_ ecs.Entity, d *physics.ReducedDeformable, s *Springboard) { r.plank, r.board = d, *s })
	if r.plank == nil {
		t.Fatal("the springboard scene has no plank with a Springboard")
	}
	bq, err := ecs.NewQuery1[physics.RigidBody](app.World)
	if err != nil {
		t.Fatal(err)
	}
	_ = bq.Each(func(e ecs.Entity, b *physics.RigidBody) {
		if b.Kind == physics.Dynamic {
			r.crates = append(r.crates, e)
		}
	})
	return r
}

// step runs one step and fails on a non-finite state or penetration deeper than 5 mm.
func (r *springboardRun) step(t *testing.T) {
	t.Helper()
	if err := r.app.StepFixed(); err != nil {
		t.Fatal(err)
	}
	st := r.sim.Stats()
	if st.NonFinite > 0 || st.MinGap < -5e-3 {
		t.Fatalf("tick %d: %d non-finite updates, deepest gap %.3g m", st.Tick, st.NonFinite, st.MinGap)
	}
}

// crate returns crate i's body.
func (r *springboardRun) crate(t *testing.T, i int) *physics.RigidBody {
	t.Helper()
	b, ok := ecs.Get[physics.RigidBody](r.app.World, r.crates[i])
	if !ok {
		t.Fatalf("crate %d has left the world", i)
	}
	return b
}

// The scene builds with its defaults: three dynamic 0.3 m crates of 5.4 kg standing on the plank's
// free end, one above the other and clear of the plank (no overlap, the bottom one touching it),
// the plank clamped with its tip 2 m out from the post and its centre line 1.2 m up, and n outside
// [1, 6] refused, naming n.
func TestSpringboardBuilds(t *testing.T) {
	r := startSpringboard(t, physics.DefaultConfig(), springboard().Defaults)
	if len(r.crates) != 3 {
		t.Fatalf("%d dynamic bodies, want 3 crates", len(r.crates))
	}
	surface := r.plank.SurfaceVertices(nil)
	if tip := r.board.Rest; math.Abs(tip[0]-springboardFree) > 1e-9 || math.Abs(tip[2]-springboardHeight-springboardThick/2) > 1e-9 {
		t.Errorf("the tip's rest position %v, want x %.2f on the top face at %.3f m", tip, springboardFree, springboardHeight+springboardThick/2)
	}
	if sag := r.board.Sag(surface); !(sag > 0.01) {
		t.Errorf("the plank starts with a tip sag of %.4f m, want it bent under the crates", sag)
	}
	top := math.Inf(-1)
	for i := range r.crates {
		b := r.crate(t, i)
		c, _ := ecs.Get[physics.Collider](r.app.World, r.crates[i])
		box, ok := c.Shape.(*collide.Box)
		if !ok || box.HalfExtents != (mgl64.Vec3{0.15, 0.15, 0.15}) || math.Abs(b.Mass-5.4) > 1e-9 {
			t.Fatalf("crate %d: shape %T, mass %.3f kg; want a 0.3 m box of 5.4 kg", i, c.Shape, b.Mass)
		}
		if b.Position[0] < 1.5 || b.Position[0] > springboardFree {
			t.Errorf("crate %d at x %.3f, want it over the plank's free end", i, b.Position[0])
		}
		top = math.Max(top, b.Position[2])
		// The plank's samples (its contact points) never start inside a crate.
		nearest := math.Inf(1)
		for _, s := range surface {
			d, _ := box.SignedDistance(b.Orientation.Inverse().Rotate(s.Sub(b.Position)))
			if d < -1e-9 {
				t.Errorf("crate %d: plank sample %v is %.3g m inside it", i, s, -d)
			}
			nearest = math.Min(nearest, d)
		}
		if i == 0 && nearest > 1e-6 {
			t.Errorf("the bottom crate is %.3g m above the plank, want it resting on it", nearest)
		}
	}
	// The third crate's centre is 2.5 crates above the plank's top, less the sag.
	if want := springboardHeight + springboardThick/2 + 2.5*0.3 - 0.1; top < want {
		t.Errorf("the highest crate's centre at %.3f m, below %.3f m: not stacked", top, want)
	}
	sc := springboard()
	for _, n := range []int{0, 7} {
		p := sc.Defaults
		p.N = n
		app, err := ecs.NewApp(testStep, 1)
		if err != nil {
			t.Fatal(err)
		}
		if err := app.AddPlugin(physics.NewPlugin(physics.DefaultConfig())); err != nil {
			t.Fatal(err)
		}
		if err := sc.Build(app.World, p); err == nil || !strings.Contains(err.Error(), "n ") {
			t.Errorf("n = %d: error %v, want one naming n", n, err)
		}
	}
}

// springboardStaticSag solves the whole mesh's linear elastic equilibrium (deform.SolveStatic,
// the root held as the scene holds it) under the plank's own weight, lumped at the vertices, and
// the crates' weight spread evenly over the top-face vertices under the bottom crate, and returns
// the tip's deflection. It is the answer of the full model, with none of the scene's modal
// reduction, contact or time stepping.
func springboardStaticSag(t *testing.T, r *springboardRun) float64 {
	t.Helper()
	m := r.plank.Mesh
	k, err := deform.Stiffness(m, r.plank.Material)
	if err != nil {
		t.Fatal(err)
	}
	mass := deform.LumpedMass(m, r.plank.Material.Density)
	fixed := make([]bool, m.NumVertices())
	for _, a := range r.plank.Held {
		fixed[a] = true
	}
	f := make([]float64, 3*m.NumVertices())
	var under []int
	tip := -1
	for a := 0; a < m.NumVertices(); a++ {
		f[3*a+2] = -mass[a] * physics.StandardGravity
		p := m.Vertex(a).Add(r.plank.Position)
		onTop := p[2] > springboardHeight+springboardThick/2-1e-9
		if onTop && math.Abs(p[0]-r.board.LoadAt) <= springboardCrateHalf+1e-9 && math.Abs(p[1]) <= springboardCrateHalf+1e-9 {
			under = append(under, a)
		}
		if p.Sub(r.board.Rest).Len() < 1e-9 {
			tip = a
		}
	}
	if tip < 0 || len(under) == 0 {
		t.Fatalf("tip vertex %d, %d vertices under the crates", tip, len(under))
	}
	for _, a := range under {
		f[3*a+2] -= r.board.Load / float64(len(under))
	}
	u, err := deform.SolveStatic(k, f, fixed, 1e-10, 20000)
	if err != nil {
		t.Fatal(err)
	}
	return -u[3*tip+2]
}

// The scene left alone for 5 s stands: no crate moves by 1 cm or more from where it started at any
// step, and the plank's tip rests at the sag of the whole mesh's static equilibrium under its own
// weight and the crates' (springboardStaticSag) within 5 % — the modal truncation, the crates'
// contact and the step together. Euler–Bernoulli's cantilever under its weight wL⁴/(8EI) and the
// crates' load P at a from the root, Pa²(3L − a)/(6EI), bounds it from above: linear tetrahedra two
// layers thick and cells twice as long as they are thick lock in bending, so the mesh sags about a
// sixth of the beam's answer (docs/scenes.md, springboard); the band 0.1–0.3 catches a change of
// the mesh or of the plank's section that the scene's modulus was not chosen for.
func TestSpringboardStandsAtRest(t *testing.T) {
	r := startSpringboard(t, physics.DefaultConfig(), springboard().Defaults)
	start := make([]mgl64.Vec3, len(r.crates))
	for i := range r.crates {
		start[i] = r.crate(t, i).Position
	}
	drift := 0.0
	for n := 0; n < 500; n++ {
		r.step(t)
		for i := range r.crates {
			drift = math.Max(drift, r.crate(t, i).Position.Sub(start[i]).Len())
		}
	}
	sag := r.board.Sag(r.plank.SurfaceVertices(nil))
	static := springboardStaticSag(t, r)
	mat := r.plank.Material
	ei := mat.Young * springboardWidth * math.Pow(springboardThick, 3) / 12
	w := mat.Density * springboardWidth * springboardThick * physics.StandardGravity
	a := r.board.LoadAt
	beam := w*math.Pow(springboardFree, 4)/(8*ei) + r.board.Load*a*a*(3*springboardFree-a)/(6*ei)
	t.Logf("crates' largest drift %.4f m; tip sag %.5f m, whole-mesh static %.5f m (%+.2f %%), Euler–Bernoulli %.5f m (mesh/beam %.2f)",
		drift, sag, static, 100*(sag/static-1), beam, static/beam)
	if drift >= 0.01 {
		t.Errorf("a crate moved by %.4f m at rest, want less than 1 cm", drift)
	}
	if math.Abs(sag/static-1) > 0.05 {
		t.Errorf("tip sag %.5f m, the whole mesh's static sag %.5f m: more than 5 %% apart", sag, static)
	}
	if sag < 0.02 || sag > 0.1 {
		t.Errorf("tip sag %.4f m, want centimetres (2–10 cm)", sag)
	}
	if ratio := static / beam; ratio < 0.1 || ratio > 0.3 {
		t.Errorf("the mesh's static sag is %.2f of Euler–Bernoulli's, want 0.1–0.3", ratio)
	}
}

// strike drops a ball like the demo's (12 cm, 1,200 kg/m³, 8.7 kg) at 12 m/s straight down onto
// the plank's free end, between the crates and the tip, released 8 cm above the plank.
func (r *springboardRun) strike(t *testing.T) ecs.Entity {
	t.Helper()
	ball, err := collide.NewSphere(0.12)
	if err != nil {
		t.Fatal(err)
	}
	b := physics.NewDynamic(mgl64.Vec3{springboardFree - 0.05, 0.2, springboardHeight + springboardThick/2 + 0.2}, 1200)
	b.LinearVelocity = mgl64.Vec3{0, 0, -12}
	e, err := physics.Spawn(r.app.World, b, physics.Collider{Shape: ball})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// A ball dropped hard on the plank's free end beside the crates bends it down and it springs back
// up past its unloaded line, tossing the crates: 3 s later every crate lies on the ground (its
// centre below 0.5 m; the plank's top is at 1.2 m), and no step has penetrated 5 mm.
func TestSpringboardStrikeSpillsCrates(t *testing.T) {
	r := startSpringboard(t, physics.DefaultConfig(), springboard().Defaults)
	for n := 0; n < 50; n++ {
		r.step(t)
	}
	r.strike(t)
	surface := r.plank.SurfaceVertices(nil)
	rest := r.board.Sag(surface)
	low, high := rest, rest
	for n := 0; n < 300; n++ {
		r.step(t)
		surface = r.plank.SurfaceVertices(surface)
		low, high = math.Min(low, r.board.Sag(surface)), math.Max(high, r.board.Sag(surface))
	}
	t.Logf("tip sag at rest %.4f m; after the strike from %.4f m (up) to %.4f m (down)", rest, low, high)
	if !(high > rest+0.02) || !(low < 0) {
		t.Errorf("the struck tip sagged to %.4f m and rose to %.4f m, want it pressed 2 cm below its rest (%.4f m) and springing above its unloaded line", high, low, rest)
	}
	for i := range r.crates {
		if z := r.crate(t, i).Position[2]; z > 0.5 {
			t.Errorf("crate %d at height %.3f m 3 s after the strike, want it on the ground", i, z)
		}
	}
}

// The scene, left to rest for 0.5 s and then struck (as TestSpringboardStrikeSpillsCrates), gives
// bit-identical crates, ball and plank (frame and modal state) with one worker and two.
func TestSpringboardDeterministicAcrossWorkers(t *testing.T) {
	run := func(workers int) []float64 {
		cfg := physics.DefaultConfig()
		cfg.Workers = workers
		r := startSpringboard(t, cfg, springboard().Defaults)
		for n := 0; n < 50; n++ {
			r.step(t)
		}
		bodies := append(r.crates, r.strike(t))
		for n := 0; n < 150; n++ {
			r.step(t)
		}
		var state []float64
		for _, e := range bodies {
			b, ok := ecs.Get[physics.RigidBody](r.app.World, e)
			if !ok {
				t.Fatalf("workers %d: body %v left the world", workers, e)
			}
			p, q, v, w := b.Position, b.Orientation, b.LinearVelocity, b.AngularVelocity
			state = append(state, p[0], p[1], p[2], q.W, q.V[0], q.V[1], q.V[2], v[0], v[1], v[2], w[0], w[1], w[2])
		}
		state = append(state, r.plank.Modal(nil)...)
		return append(state, r.plank.ModalVelocities(nil)...)
	}
	a, b := run(1), run(2)
	if len(a) != len(b) {
		t.Fatalf("%d and %d state values", len(a), len(b))
	}
	for i := range a {
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
			t.Fatalf("state value %d: 1 worker %v, 2 workers %v", i, a[i], b[i])
		}
	}
}
