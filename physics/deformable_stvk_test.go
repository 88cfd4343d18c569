package physics

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/stagger-physics/stagger/deform"
	"github.com/stagger-physics/stagger/ecs"
)

// spawnStVKBlock adds a StVK cube of half-extent half, cells cells a side, of material mat with
// modes free modes and a basis of basis vectors, at p, with Rayleigh damping alpha, beta.
func spawnStVKBlock(t testing.TB, w *ecs.World, half float64, cells int, mat deform.Material, modes, basis int, p mgl64.Vec3, alpha, beta float64) *ReducedDeformable {
	t.Helper()
	d, err := NewDeformableBox(mgl64.Vec3{half, half, half}, cells, mat, modes)
	if err != nil {
		t.Fatal(err)
	}
	d.Model, d.Basis = StVK, basis
	d.Position = p
	d.Alpha, d.Beta = alpha, beta
	e, err := SpawnDeformable(w, d)
	if err != nil {
		t.Fatal(err)
	}
	c, ok := ecs.Get[ReducedDeformable](w, e)
	if !ok {
		t.Fatal("no ReducedDeformable on the spawned entity")
	}
	return c
}

// leastTetVolume returns the least signed volume of d's tetrahedra at their deformed world
// positions (the body's Position of every mesh vertex).
func leastTetVolume(t testing.TB, d *ReducedDeformable) float64 {
	t.Helper()
	m := d.Mesh
	x := make([]mgl64.Vec3, m.NumVertices())
	for a := range x {
		p, err := d.model.body.Position(deform.VertexPoint(a))
		if err != nil {
			t.Fatal(err)
		}
		x[a] = p
	}
	least := math.Inf(1)
	for i := 0; i < m.NumTets(); i++ {
		c := m.Tet(i)
		e1, e2, e3 := x[c[1]].Sub(x[c[0]]), x[c[2]].Sub(x[c[0]]), x[c[3]].Sub(x[c[0]])
		least = math.Min(least, e1.Dot(e2.Cross(e3))/6)
	}
	return least
}

// A soft StVK block (0.4 m, 20 kPa, 2 cells a side, 4 modes and 8 basis vectors: it sags under
// its own weight by centimetres) dropped 0.2 m onto the ground, tilted, settles; over 60 s at
// h = 0.01, with sleeping off so that the step itself must hold it at rest, its state stays
// finite, no element of the deformed mesh inverts (checked every 0.5 s), it stays on the ground
// near rest (centre of mass between half and the rigid height, kinetic energy below 5e-4 of
// m g L, linear speed below 1 mm/s), and it holds the strain energy its weight puts in it. The
// resting block is not quite still: on its soft contacts it slowly gains a vibration and a twist,
// 0.01–0.02 J of m g L = 63 J by 60 s (the figure moves with round-off; about 0.002 J at
// h = 0.005, more with a cold-started solve); with M(z) and g_qv taken at the start of the step
// rather than its midpoint (modal_step.go) it gained 0.048 J, which the bound refuses.
func TestStVKBlockDropSettlesFor60s(t *testing.T) {
	const h, half = 0.01, 0.2
	cfg := DefaultConfig()
	cfg.SleepTime = 0
	app := newTestApp(t, h, cfg)
	spawnGround(t, app.World, mgl64.Vec3{0, 0, 1}, 0.8)
	soft := deform.Material{Young: 2e4, Poisson: 0.3, Density: 500}
	d := spawnStVKBlock(t, app.World, half, 2, soft, 4, 8, mgl64.Vec3{0, 0, half + 0.2}, 1, 0.005)
	d.Orientation = mgl64.QuatRotate(0.3, mgl64.Vec3{1, 1, 0}.Normalize())
	sim, _ := SimulationOf(app.World)
	least := math.Inf(1)
	for step := 1; step <= 6000; step++ {
		if err := sim.Step(h, uint64(step)); err != nil {
			t.Fatalf("step %d: %v", step, err)
		}
		if !d.model.finite() {
			t.Fatalf("step %d: the state is not finite", step)
		}
		if step%50 == 0 {
			least = math.Min(least, leastTetVolume(t, d))
		}
	}
	c := d.CentreOfMass()
	mgl := d.Mass() * 9.81 * half
	t.Logf("at 60 s: centre %.4f m (rigid %.2f), speed %.3g m/s, spin %.3g rad/s, kinetic %.3g J, strain %.4g J of m g L = %.4g J, least tet volume %.3g m³",
		c[2], half, d.LinearVelocity.Len(), d.AngularVelocity.Len(), d.KineticEnergy(), d.ElasticEnergy(), mgl, least)
	if !(least > 0) {
		t.Errorf("an element inverted (least volume %.3g m³)", least)
	}
	if !(c[2] > 0.5*half && c[2] < half+0.005) {
		t.Errorf("centre of mass at height %.4f m, not resting on the ground", c[2])
	}
	if !(d.LinearVelocity.Len() < 1e-3 && d.KineticEnergy() < 5e-4*mgl) {
		t.Errorf("still moving after 60 s: %.3g m/s, kinetic energy %.3g J", d.LinearVelocity.Len(), d.KineticEnergy())
	}
	if !(d.ElasticEnergy() > 1e-4*mgl) {
		t.Errorf("strain energy %.3g J at rest: the weight does not deform the block", d.ElasticEnergy())
	}
}

// TestStVKCornerDropDoesNotGainEnergy drops undamped StVK cubes (0.4 m, 3 cells a side, 6 modes
// and 12 basis vectors) of 1 MPa and 200 kPa 0.3 m onto a corner and steps 2 s: the total energy
// (kinetic + StVK strain + gravitational) never rises in a step by more than 1e-6 of m g L, and the
// run loses more than half of m g L, as cornerDrop's linear modal blocks do.
func TestStVKCornerDropDoesNotGainEnergy(t *testing.T) {
	for _, young := range []float64{1e6, 2e5} {
		worst, rises, lost, scale := cornerDropModel(t, young, StVK, 6, 12)
		t.Logf("E = %.3g Pa: worst rise %.3g J, all rises %.3g J, lost %.4g J of m g L = %.4g J", young, worst, rises, lost, scale)
		if worst > 1e-6*scale {
			t.Errorf("E = %.3g Pa: the energy rose by %.3g J in a step (m g L = %.4g J)", young, worst, scale)
		}
		if rises > 1e-5*scale {
			t.Errorf("E = %.3g Pa: the energy rose by %.3g J in all", young, rises)
		}
		if !(lost > 0.5*scale) {
			t.Errorf("E = %.3g Pa: the run lost only %.4g J (m g L = %.4g J)", young, lost, scale)
		}
	}
}

// A spinning StVK block vibrating far in zero gravity keeps its linear and angular momentum to
// 1e-9 relative over 1,000 steps through the pipeline.
func TestStVKFreeVibrationConservesMomentum(t *testing.T) {
	const h = 0.01
	cfg := DefaultConfig()
	cfg.Gravity = mgl64.Vec3{}
	app := newTestApp(t, h, cfg)
	d := spawnStVKBlock(t, app.World, blockHalf, 2, rubber, 4, 10, mgl64.Vec3{1, 2, 3}, 0, 0)
	d.LinearVelocity = mgl64.Vec3{0.3, -0.1, 0.2}
	d.AngularVelocity = mgl64.Vec3{0.4, 1.1, -0.3}
	z, zd := make([]float64, 10), make([]float64, 10)
	z[0], z[1], zd[2] = 0.05, -0.03, 0.3
	if err := d.SetModalState(z, zd); err != nil {
		t.Fatal(err)
	}
	sim, _ := SimulationOf(app.World)
	if err := sim.Step(h, 1); err != nil {
		t.Fatal(err)
	}
	p0, l0 := d.LinearMomentum(), d.AngularMomentum()
	for step := 2; step <= 1000; step++ {
		if err := sim.Step(h, uint64(step)); err != nil {
			t.Fatal(err)
		}
	}
	if dp := d.LinearMomentum().Sub(p0).Len(); !(dp <= 1e-9*p0.Len()) {
		t.Fatalf("linear momentum moved by %.3g of %.3g", dp, p0.Len())
	}
	if dl := d.AngularMomentum().Sub(l0).Len(); !(dl <= 1e-9*l0.Len()) {
		t.Fatalf("angular momentum moved by %.3g of %.3g", dl, l0.Len())
	}
	if d.ElasticEnergy() == 0 {
		t.Fatal("the block stopped vibrating")
	}
}

// A StVK block resting on the ground under a rigid box: once warm, a step allocates nothing.
func TestStVKWarmStepDoesNotAllocate(t *testing.T) {
	const h = 0.01
	cfg := DefaultConfig()
	cfg.Workers = 2
	app := newTestApp(t, h, cfg)
	spawnGround(t, app.World, mgl64.Vec3{0, 0, 1}, 0.6)
	spawnStVKBlock(t, app.World, blockHalf, 3, rubber, 6, 12, mgl64.Vec3{0, 0, blockHalf}, 0.5, 0.002)
	spawnCube(t, app.World, mgl64.Vec3{0.05, 0, 2*blockHalf + 0.6}, mgl64.QuatIdent(), 0.6)
	sim, _ := SimulationOf(app.World)
	if allocs := warmStepAllocs(t, sim, h); allocs != 0 {
		t.Fatalf("%v allocations per warm step", allocs)
	}
	if sim.Stats().Contacts == 0 {
		t.Fatal("no contacts: the scene does not exercise the deformable's contacts")
	}
}

// The StVK model's fields are validated with a *FieldError naming the field, and a cache
// directory is filled at the first spawn and serves the second identically.
func TestStVKDeformableFields(t *testing.T) {
	good, err := NewDeformableBox(mgl64.Vec3{0.2, 0.2, 0.2}, 2, rubber, 4)
	if err != nil {
		t.Fatal(err)
	}
	good.Model = StVK
	for _, tc := range []struct {
		field string
		edit  func(d *ReducedDeformable)
	}{
		{"ReducedDeformable.Model", func(d *ReducedDeformable) { d.Model = 7 }},
		{"ReducedDeformable.Model", func(d *ReducedDeformable) { d.Held = []int32{0, 1, 2} }},
		{"ReducedDeformable.Basis", func(d *ReducedDeformable) { d.Basis = 3 }},
		{"ReducedDeformable.Basis", func(d *ReducedDeformable) { d.Basis = 65 }},
		{"ReducedDeformable.Basis", func(d *ReducedDeformable) { d.Model, d.Basis = LinearModal, 8 }},
	} {
		app := newTestApp(t, 0.01, DefaultConfig())
		d := good
		tc.edit(&d)
		_, err := SpawnDeformable(app.World, d)
		var fe *FieldError
		if !errors.As(err, &fe) || fe.Field != tc.field || fe.Entity.IsZero() {
			t.Fatalf("%s: got %v, want a *FieldError naming the entity and the field", tc.field, err)
		}
	}
	dir := t.TempDir()
	app := newTestApp(t, 0.01, DefaultConfig())
	d := good
	d.CacheDir = dir
	e1, err := SpawnDeformable(app.World, d)
	if err != nil {
		t.Fatal(err)
	}
	files, err := filepath.Glob(filepath.Join(dir, "*.stvk"))
	if err != nil || len(files) != 1 {
		t.Fatalf("cache files %v (%v), want one", files, err)
	}
	before, err := os.Stat(files[0])
	if err != nil {
		t.Fatal(err)
	}
	e2, err := SpawnDeformable(app.World, d)
	if err != nil {
		t.Fatal(err)
	}
	after, err := os.Stat(files[0])
	if err != nil || !after.ModTime().Equal(before.ModTime()) {
		t.Fatalf("the second spawn rewrote the cache file (%v)", err)
	}
	a, _ := ecs.Get[ReducedDeformable](app.World, e1)
	b, _ := ecs.Get[ReducedDeformable](app.World, e2)
	if a.model.n != 6+8 || b.model.n != a.model.n {
		t.Fatalf("DoFs %d and %d, want 14 (6 + twice 4 modes)", a.model.n, b.model.n)
	}
	z := []float64{0.01, -0.02, 0.005, 0, 0.01, 0, -0.01, 0.02}
	zd := make([]float64, 8)
	if a.SetModalState(z, zd) != nil || b.SetModalState(z, zd) != nil {
		t.Fatal("modal state refused")
	}
	if ea, eb := a.ElasticEnergy(), b.ElasticEnergy(); ea != eb || !(ea > 0) {
		t.Fatalf("strain energies %v (computed) and %v (cached) differ", ea, eb)
	}
}
