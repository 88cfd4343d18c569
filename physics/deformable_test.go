package physics

import (
	"errors"
	"hash/fnv"
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/stagger-physics/stagger/collide"
	"github.com/stagger-physics/stagger/deform"
	"github.com/stagger-physics/stagger/ecs"
	"github.com/stagger-physics/stagger/solver"
)

// rubber is a soft material: a 0.5 m block of it sags by millimetres under its own weight.
var rubber = deform.Material{Young: 2e5, Poisson: 0.3, Density: 500}

// blockHalf is the half-extent of the test blocks, m.
const blockHalf = 0.25

// spawnBlock adds a deformable cube of half-extent blockHalf, 3 cells a side, at p.
func spawnBlock(t testing.TB, w *ecs.World, p mgl64.Vec3, r int) (ecs.Entity, *ReducedDeformable) {
	t.Helper()
	d, err := NewDeformableBox(mgl64.Vec3{blockHalf, blockHalf, blockHalf}, 3, rubber, r)
	if err != nil {
		t.Fatal(err)
	}
	d.Position = p
	d.Alpha, d.Beta = 0.5, 0.002
	e, err := SpawnDeformable(w, d)
	if err != nil {
		t.Fatal(err)
	}
	c, ok := ecs.Get[ReducedDeformable](w, e)
	if !ok {
		t.Fatal("no ReducedDeformable on the spawned entity")
	}
	return e, c
}

// deformEnergy is the block's kinetic, elastic and gravitational energy, J.
func deformEnergy(d *ReducedDeformable, g mgl64.Vec3) float64 {
	return d.KineticEnergy() + d.ElasticEnergy() - d.Mass()*g.Dot(d.Position)
}

// lowestSample is the lowest z of the block's deformed surface.
func lowestSample(d *ReducedDeformable, buf []mgl64.Vec3) float64 {
	low := math.Inf(1)
	for _, p := range d.SurfaceVertices(buf) {
		low = min(low, p[2])
	}
	return low
}

// TestDeformableBlockComesToRestOnGround drops a deformable block 5 cm onto the ground and steps
// 3 s: the deformed surface never sinks more than 5 mm below the ground, every value stays finite,
// the block ends at rest with its centre at its half-height less a sag of at most 1 cm, and the
// total energy (kinetic + elastic + gravitational) does not rise through contact: at most 1e-9 of
// m g L in any step and in all (round-off and the first-order exchange between rotation and modes:
// 7e-10 J of 153 J measured; with the kinetic mass in the solve instead of the step's effective
// mass it was 4e-6 J), while the impact takes most of the fall's energy. Without the deformable's
// contacts it would fall through the ground.
func TestDeformableBlockComesToRestOnGround(t *testing.T) {
	const h = 0.01
	cfg := DefaultConfig()
	app := newTestApp(t, h, cfg)
	spawnGround(t, app.World, mgl64.Vec3{0, 0, 1}, 0.6)
	_, d := spawnBlock(t, app.World, mgl64.Vec3{0.1, -0.2, blockHalf + 0.05}, 10)
	sim, _ := SimulationOf(app.World)
	g := cfg.Gravity
	buf := make([]mgl64.Vec3, 0, 64)
	prev := deformEnergy(d, g)
	scale := d.Mass() * g.Len() * blockHalf
	var z []float64
	rises := 0.0
	start := prev
	for step := 1; step <= 300; step++ {
		if err := sim.Step(h, uint64(step)); err != nil {
			t.Fatal(err)
		}
		if low := lowestSample(d, buf); !(low > -0.005) {
			t.Fatalf("step %d: the surface is %.4g m below the ground", step, -low)
		}
		e := deformEnergy(d, g)
		if !finite(e) {
			t.Fatalf("step %d: energy %v", step, e)
		}
		if e > prev {
			rises += e - prev
		}
		if e > prev+1e-9*scale {
			t.Fatalf("step %d: energy rose by %.3g J (from %.9g to %.9g)", step, e-prev, prev, e)
		}
		prev = e
		z = d.Modal(z)
		for k, x := range z {
			if !finite(x) {
				t.Fatalf("step %d: z[%d] = %v", step, k, x)
			}
		}
	}
	if rises > 1e-9*scale {
		t.Fatalf("the energy rose by %.3g J in all", rises)
	}
	if drop := d.Mass() * g.Len() * 0.05; !(start-prev > 0.5*drop) {
		t.Fatalf("the impact dissipated %.4g J of the %.4g J the fall released", start-prev, drop)
	}
	if v := d.LinearVelocity.Len() + d.AngularVelocity.Len()*blockHalf; v > 1e-3 {
		t.Fatalf("not at rest after 3 s: point speeds up to %.3g m/s", v)
	}
	// The ground's friction makes the bottom's contacts stick on landing, and sticking contacts
	// under the whole face leave the modes no motion, so an exact answer keeps the block
	// undeformed (frictionless, the same drop compresses it by 0.3–0.5 mm): it must not stand
	// above its half-height by more than rounding.
	if sag := blockHalf - d.Position[2]; sag < -1e-9 || sag > 0.01 {
		t.Fatalf("centre at %.9g m, want its half-height %.3g less a sag of at most 1 cm", d.Position[2], blockHalf)
	}
}

// TestDeformableFreeVibrationConservesMomentum spins and shakes a deformable block in zero gravity
// for 500 steps through the whole pipeline: its linear and angular momentum (the modes' share
// included) stay at their initial values to 1e-9 relative, as nothing outside acts on it.
func TestDeformableFreeVibrationConservesMomentum(t *testing.T) {
	const h = 0.005
	cfg := DefaultConfig()
	cfg.Gravity = mgl64.Vec3{}
	app := newTestApp(t, h, cfg)
	_, d := spawnBlock(t, app.World, mgl64.Vec3{1, 2, 3}, 8)
	d.LinearVelocity = mgl64.Vec3{0.3, -0.1, 0.2}
	d.AngularVelocity = mgl64.Vec3{0.4, 1.1, -0.3}
	z := make([]float64, 8)
	zd := make([]float64, 8)
	for k := range z {
		z[k] = 0.01 * math.Sin(float64(k+1))
		zd[k] = 0.1 * math.Cos(float64(2*k+1))
	}
	if err := d.SetModalState(z, zd); err != nil {
		t.Fatal(err)
	}
	sim, _ := SimulationOf(app.World)
	if err := sim.Step(h, 1); err != nil { // takes the game's velocities
		t.Fatal(err)
	}
	p0, l0 := d.LinearMomentum(), d.AngularMomentum()
	for step := 2; step <= 500; step++ {
		if err := sim.Step(h, uint64(step)); err != nil {
			t.Fatal(err)
		}
	}
	if dp := d.LinearMomentum().Sub(p0).Len(); dp > 1e-9*p0.Len() {
		t.Fatalf("linear momentum moved by %.3g of %.3g", dp, p0.Len())
	}
	if dl := d.AngularMomentum().Sub(l0).Len(); dl > 1e-9*l0.Len() {
		t.Fatalf("angular momentum moved by %.3g of %.3g", dl, l0.Len())
	}
	if d.ElasticEnergy() == 0 {
		t.Fatal("the block stopped vibrating")
	}
	if sim.Stats().Contacts != 0 {
		t.Fatalf("%d contacts in empty space", sim.Stats().Contacts)
	}
}

// softStack is a deformable block resting on the ground with a rigid 30 kg box of 0.3 m dropped
// onto it from 2 cm, off the block's centre so that it bends the block as well as squashing it.
func softStack(t testing.TB, cfg Config) (*ecs.App, *ReducedDeformable, ecs.Entity) {
	t.Helper()
	app := newTestApp(t, 0.01, cfg)
	spawnGround(t, app.World, mgl64.Vec3{0, 0, 1}, 0.6)
	_, d := spawnBlock(t, app.World, mgl64.Vec3{0, 0, blockHalf}, 10)
	box, err := collide.NewBox(mgl64.Vec3{0.15, 0.15, 0.15})
	if err != nil {
		t.Fatal(err)
	}
	b := NewDynamic(mgl64.Vec3{0.08, -0.01, 2*blockHalf + 0.15 + 0.02}, 30/0.027) // density: 30 kg
	e, err := Spawn(app.World, b, Collider{Shape: box})
	if err != nil {
		t.Fatal(err)
	}
	return app, d, e
}

// TestRigidBoxOnDeformableBlock drops a rigid box off-centre on a deformable block standing on the
// ground: under the box the block's strain energy ends several times what its own weight alone
// gives (measured on the same block without the box), no surface vertex of the block is ever more
// than 5 mm inside the box (the box's own signed distance), and after 3 s the stack rests with
// the box touching the block's top.
func TestRigidBoxOnDeformableBlock(t *testing.T) {
	cfg := DefaultConfig()
	alone := newTestApp(t, 0.01, cfg)
	spawnGround(t, alone.World, mgl64.Vec3{0, 0, 1}, 0.6)
	_, ref := spawnBlock(t, alone.World, mgl64.Vec3{0, 0, blockHalf}, 10)
	stepFor(t, alone, 300)

	app, d, e := softStack(t, cfg)
	box, err := collide.NewBox(mgl64.Vec3{0.15, 0.15, 0.15})
	if err != nil {
		t.Fatal(err)
	}
	sim, _ := SimulationOf(app.World)
	var buf []mgl64.Vec3
	nearest := func() float64 {
		b := bodyOf(t, app.World, e)
		pose := collide.Pose{Position: b.Position, Rotation: b.Orientation}
		low := math.Inf(1)
		buf = d.SurfaceVertices(buf)
		for _, p := range buf {
			dist, _ := box.SignedDistance(pose.ApplyInverse(p))
			low = min(low, dist)
		}
		return low
	}
	for step := 1; step <= 300; step++ {
		if err := sim.Step(0.01, uint64(step)); err != nil {
			t.Fatal(err)
		}
		if dist := nearest(); dist < -0.005 {
			t.Fatalf("step %d: a vertex of the block is %.4g m inside the box", step, -dist)
		}
	}
	b := bodyOf(t, app.World, e)
	if v := b.LinearVelocity.Len() + d.LinearVelocity.Len(); v > 2e-3 {
		t.Fatalf("stack not at rest: box %v, block %v m/s", b.LinearVelocity, d.LinearVelocity)
	}
	if dist := nearest(); dist > 0.002 {
		t.Fatalf("the box rests %.4g m above the block", dist)
	}
	if got, alone := d.ElasticEnergy(), ref.ElasticEnergy(); !(got > 2*alone) {
		t.Fatalf("strain energy %.4g J under the box, %.4g J alone: the box does not deform the block", got, alone)
	}
	norm := 0.0
	for _, x := range d.Modal(nil) {
		norm += x * x
	}
	if norm == 0 {
		t.Fatal("modal coordinates zero under load")
	}
}

// TestDeformableIslandPassesKKTCheck solves the stack's mixed rigid–deformable islands with
// Staggered Projections run to a tight ε and checks each converged answer with the solver's
// independent checker: the contact projection's KKT conditions (eq. 25) hold to 1e-9 m/s and the
// friction projection's (eq. 24) to 1e-6 m/s.
func TestDeformableIslandPassesKKTCheck(t *testing.T) {
	cfg := tightKKTConfig()
	app, _, _ := softStack(t, cfg)
	checkIslandsKKT(t, app, cfg, 150, 1, 100)
}

// tightKKTConfig is DefaultConfig with one worker and Staggered Projections run to a tight ε, so
// that converged answers can be held to the checker's KKT tolerances.
func tightKKTConfig() Config {
	cfg := DefaultConfig()
	cfg.Workers = 1
	cfg.Solver = solver.Options{Method: solver.MethodSP, Friction: solver.Disc, Epsilon: 1e-20, MaxIters: 300, FrictionTol: 1e-13}
	return cfg
}

// checkIslandsKKT steps app for steps steps and checks every converged island solve holding at
// least deformables deformable bodies (blocks of other than a rigid body's size) with the solver's
// independent checker: contact KKT (eq. 25) to 1e-9 m/s, friction KKT (eq. 24) to 1e-6 m/s. It
// fails unless at least minChecked islands were checked.
func checkIslandsKKT(t *testing.T, app *ecs.App, cfg Config, steps int, deformables, minChecked int) {
	t.Helper()
	spec := solver.CheckSpec{Friction: cfg.Solver.Friction, Tangents: cfg.Solver.Tangents}
	checked := 0
	var failure string
	worstC, worstF := 0.0, 0.0
	testSolvedHook = func(p *solver.Problem, r *solver.Result) {
		n := 0
		for b := 0; b < p.NumBlocks(); b++ {
			if p.BlockAt(b).Size != rigidDoFs {
				n++
			}
		}
		if n < deformables || p.NumContacts() == 0 || !r.Stats.Converged {
			return
		}
		checked++
		rep := solver.CheckContact(p, r.Alpha, r.Friction, r.Qdot)
		if worstC = max(worstC, rep.Worst); rep.Worst > 1e-9 && failure == "" {
			failure = "contact: " + rep.String()
		}
		rep = solver.CheckFriction(p, spec, r.Alpha, r.Friction, r.Qdot)
		if worstF = max(worstF, rep.Worst); rep.Worst > 1e-6 && failure == "" {
			failure = "friction: " + rep.String()
		}
	}
	defer func() { testSolvedHook = nil }()
	stepFor(t, app, steps)
	if failure != "" {
		t.Fatal(failure)
	}
	if checked < minChecked {
		t.Fatalf("only %d converged islands with %d or more deformables checked", checked, deformables)
	}
	t.Logf("%d islands: worst contact KKT %.3g m/s, friction %.3g m/s", checked, worstC, worstF)
}

// putDeformable passes d's frame, velocities and modal state to put, in a fixed order, for the
// state hashes of the deformable tests.
func putDeformable(put func(...float64), d *ReducedDeformable) {
	put(d.Position[:]...)
	put(d.Orientation.W, d.Orientation.V[0], d.Orientation.V[1], d.Orientation.V[2])
	put(d.LinearVelocity[:]...)
	put(d.AngularVelocity[:]...)
	put(d.Modal(nil)...)
	put(d.ModalVelocities(nil)...)
}

// warmStepAllocs steps sim 100 times with steps of h, then returns the allocations of a further
// step (testing.AllocsPerRun over 20).
func warmStepAllocs(t *testing.T, sim *Simulation, h float64) float64 {
	t.Helper()
	tick := uint64(0)
	step := func() {
		tick++
		if err := sim.Step(h, tick); err != nil {
			t.Fatal(err)
		}
	}
	for i := 0; i < 100; i++ {
		step()
	}
	return testing.AllocsPerRun(20, step)
}

// stateHash hashes every body's state, bit for bit.
func stateHash(t testing.TB, app *ecs.App, d *ReducedDeformable, e ecs.Entity) uint64 {
	h := fnv.New64a()
	put := func(xs ...float64) {
		var b [8]byte
		for _, x := range xs {
			u := math.Float64bits(x)
			for i := range b {
				b[i] = byte(u >> (8 * i))
			}
			h.Write(b[:])
		}
	}
	b := bodyOf(t, app.World, e)
	put(b.Position[:]...)
	put(b.Orientation.W, b.Orientation.V[0], b.Orientation.V[1], b.Orientation.V[2])
	put(b.LinearVelocity[:]...)
	put(b.AngularVelocity[:]...)
	putDeformable(put, d)
	return h.Sum64()
}

// TestDeformableStackDeterministic steps the stack with one and with two workers: the states are
// bit-identical after every step of 1 s.
func TestDeformableStackDeterministic(t *testing.T) {
	var apps [2]*ecs.App
	var ds [2]*ReducedDeformable
	var es [2]ecs.Entity
	for i := range apps {
		cfg := DefaultConfig()
		cfg.Workers = i + 1
		apps[i], ds[i], es[i] = softStack(t, cfg)
	}
	for step := 0; step < 100; step++ {
		var hs [2]uint64
		for i := range apps {
			stepFor(t, apps[i], 1)
			hs[i] = stateHash(t, apps[i], ds[i], es[i])
		}
		if hs[0] != hs[1] {
			t.Fatalf("step %d: state hash %x with one worker, %x with two", step, hs[0], hs[1])
		}
	}
}

// TestDeformableWarmStepDoesNotAllocate: once warm, a step of the stack allocates nothing.
func TestDeformableWarmStepDoesNotAllocate(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Workers = 2
	app, _, _ := softStack(t, cfg)
	sim, _ := SimulationOf(app.World)
	if allocs := warmStepAllocs(t, sim, 0.01); allocs != 0 {
		t.Fatalf("%v allocations per warm step", allocs)
	}
	if sim.Stats().Contacts == 0 {
		t.Fatal("no contacts: the scene does not exercise the deformable's contacts")
	}
}

// TestDeformableMassBlockInverse checks InverseMassBlock against MassBlock (the effective mass of
// a prepared step) at a turned, deformed, spinning configuration: their product is the identity to
// 1e-12 and the inverse is exactly symmetric.
func TestDeformableMassBlockInverse(t *testing.T) {
	app := newTestApp(t, 0.01, DefaultConfig())
	_, d := spawnBlock(t, app.World, mgl64.Vec3{}, 6)
	z := []float64{0.02, -0.01, 0.015, 0.005, -0.02, 0.01}
	if err := d.SetModalState(z, make([]float64, 6)); err != nil {
		t.Fatal(err)
	}
	d.Orientation = mgl64.QuatRotate(0.7, mgl64.Vec3{1, 2, 3}.Normalize())
	if _, err := d.check(); err != nil {
		t.Fatal(err)
	}
	m := d.model
	n := m.DoFs()
	m.PredictVelocity(0.01, mgl64.Vec3{0, 0, -9.81}, make([]float64, n))
	mass, inv := make([]float64, n*n), make([]float64, n*n)
	m.MassBlock(mass)
	m.InverseMassBlock(inv)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			if inv[i*n+j] != inv[j*n+i] {
				t.Fatalf("inverse not symmetric at (%d, %d)", i, j)
			}
			s := 0.0
			for k := 0; k < n; k++ {
				s += mass[i*n+k] * inv[k*n+j]
			}
			want := 0.0
			if i == j {
				want = 1
			}
			if math.Abs(s-want) > 1e-12 {
				t.Fatalf("(M M⁻¹)[%d][%d] = %.15g, want %v", i, j, s, want)
			}
		}
	}
}

// TestSpawnDeformableRefusesBadInput: each bad field is refused with a *FieldError naming it, and
// nothing is spawned.
func TestSpawnDeformableRefusesBadInput(t *testing.T) {
	good, err := NewDeformableBox(mgl64.Vec3{0.2, 0.2, 0.2}, 2, rubber, 4)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		field string
		edit  func(d *ReducedDeformable)
	}{
		{"ReducedDeformable.Mesh", func(d *ReducedDeformable) { d.Mesh = nil }},
		{"ReducedDeformable.Material", func(d *ReducedDeformable) { d.Material.Young = 0 }},
		{"ReducedDeformable.Modes", func(d *ReducedDeformable) { d.Modes = 1000 }},
		{"ReducedDeformable.Alpha", func(d *ReducedDeformable) { d.Alpha = -1 }},
		{"ReducedDeformable.Beta", func(d *ReducedDeformable) { d.Beta = math.NaN() }},
		{"ReducedDeformable.Friction", func(d *ReducedDeformable) { d.Friction = math.Inf(1) }},
		{"ReducedDeformable.Position", func(d *ReducedDeformable) { d.Position[1] = math.NaN() }},
		{"ReducedDeformable.AngularVelocity", func(d *ReducedDeformable) { d.AngularVelocity[2] = math.Inf(-1) }},
	} {
		app := newTestApp(t, 0.01, DefaultConfig())
		d := good
		tc.edit(&d)
		_, err := SpawnDeformable(app.World, d)
		var fe *FieldError
		if !errors.As(err, &fe) || fe.Field != tc.field || fe.Entity.IsZero() {
			t.Fatalf("%s: got %v, want a *FieldError naming the entity and the field", tc.field, err)
		}
		sim, _ := SimulationOf(app.World)
		if err := sim.Step(0.01, 1); err != nil || sim.Stats().Bodies != 0 {
			t.Fatalf("%s: a refused body entered the world (%v, %d bodies)", tc.field, err, sim.Stats().Bodies)
		}
	}
	if _, err := NewDeformableBox(mgl64.Vec3{0.2, -1, 0.2}, 2, rubber, 4); err == nil {
		t.Fatal("a negative extent was accepted")
	}
}

// TestDeformableGameChangeIsChecked: a non-finite velocity the game writes between steps is refused
// by the step with a *FieldError naming the entity and the field.
func TestDeformableGameChangeIsChecked(t *testing.T) {
	app := newTestApp(t, 0.01, DefaultConfig())
	e, d := spawnBlock(t, app.World, mgl64.Vec3{}, 4)
	d.LinearVelocity[0] = math.NaN()
	sim, _ := SimulationOf(app.World)
	err := sim.Step(0.01, 1)
	var fe *FieldError
	if !errors.As(err, &fe) || fe.Field != "ReducedDeformable.LinearVelocity" || fe.Entity != e {
		t.Fatalf("got %v, want a *FieldError on %v's LinearVelocity", err, e)
	}
}
