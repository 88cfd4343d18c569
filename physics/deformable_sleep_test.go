package physics

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/stagger-physics/stagger/collide"
	"github.com/stagger-physics/stagger/deform"
	"github.com/stagger-physics/stagger/ecs"
)

// droppedJelly is a deformable block dropped 5 cm onto the ground, stepped until it sleeps (at
// most 5 s); it returns the app, the block's entity and component, and the steps it took.
func droppedJelly(t *testing.T) (*ecs.App, ecs.Entity, *ReducedDeformable, int) {
	t.Helper()
	app := newTestApp(t, 0.01, DefaultConfig())
	spawnGround(t, app.World, mgl64.Vec3{0, 0, 1}, 0.6)
	e, d := spawnBlock(t, app.World, mgl64.Vec3{0.1, -0.2, blockHalf + 0.05}, 10)
	sim, _ := SimulationOf(app.World)
	for i := 1; i <= 500; i++ {
		if err := app.StepFixed(); err != nil {
			t.Fatal(err)
		}
		if sim.Stats().Sleeping == 1 {
			return app, e, d, i
		}
		if d.Sleeping {
			t.Fatalf("step %d: the block sleeps but Stats counts %d sleepers", i, sim.Stats().Sleeping)
		}
	}
	t.Fatalf("the block is not asleep after 5 s: v %v, ω %v, ż %v", d.LinearVelocity, d.AngularVelocity, d.ModalVelocities(nil))
	return nil, ecs.Entity{}, nil, 0
}

// TestDeformableFallsAsleepAndKeepsItsShape: a jelly block dropped on the ground falls asleep
// within 5 s, no sooner than SleepTime after its landing could start; asleep, its frame and modal
// velocities are exactly zero, a step solves no island and does no solver iteration, and 100 steps
// leave every surface vertex and modal coordinate bit-identical, its deformation included.
func TestDeformableFallsAsleepAndKeepsItsShape(t *testing.T) {
	app, _, d, steps := droppedJelly(t)
	sim, _ := SimulationOf(app.World)
	// The fall of 5 cm alone takes 0.1 s.
	if float64(steps)*0.01 < 0.1+DefaultConfig().SleepTime {
		t.Fatalf("asleep after %d steps, before it can have rested SleepTime", steps)
	}
	if !d.Sleeping || d.LinearVelocity != (mgl64.Vec3{}) || d.AngularVelocity != (mgl64.Vec3{}) {
		t.Fatalf("Sleeping %v, v %v, ω %v: want asleep with zero frame velocities", d.Sleeping, d.LinearVelocity, d.AngularVelocity)
	}
	for k, zd := range d.ModalVelocities(nil) {
		if zd != 0 {
			t.Fatalf("ż[%d] = %v while asleep", k, zd)
		}
	}
	z0 := d.Modal(nil)
	verts0 := d.SurfaceVertices(nil)
	strain := d.ElasticEnergy()
	if !(strain > 0) {
		t.Fatal("asleep undeformed: the contacts' deformation was not kept")
	}
	for i := 0; i < 100; i++ {
		if err := app.StepFixed(); err != nil {
			t.Fatal(err)
		}
		if st := sim.Stats(); st.Islands != 0 || st.Iterations != 0 || st.Sleeping != 1 || st.Contacts == 0 {
			t.Fatalf("asleep step %d: %d islands solved, %d iterations, %d asleep, %d contacts; want 0, 0, 1, the block's",
				i, st.Islands, st.Iterations, st.Sleeping, st.Contacts)
		}
	}
	for k, z := range d.Modal(nil) {
		if z != z0[k] {
			t.Fatalf("z[%d] drifted while asleep: %v → %v", k, z0[k], z)
		}
	}
	for i, p := range d.SurfaceVertices(nil) {
		if p != verts0[i] {
			t.Fatalf("surface vertex %d moved while asleep: %v → %v", i, verts0[i], p)
		}
	}
}

// TestRigidBoxWakesSleepingDeformable drops a 30 kg box onto a sleeping jelly block: the block
// wakes when the box reaches it, the box squashes it (its strain energy grows past twice what it
// slept with), the box never sinks more than 5 mm into it, and the two later fall asleep together.
func TestRigidBoxWakesSleepingDeformable(t *testing.T) {
	app, _, d, _ := droppedJelly(t)
	sim, _ := SimulationOf(app.World)
	slept := d.ElasticEnergy()
	top := math.Inf(-1)
	for _, p := range d.SurfaceVertices(nil) {
		top = max(top, p[2])
	}
	shape, err := collide.NewBox(mgl64.Vec3{0.15, 0.15, 0.15})
	if err != nil {
		t.Fatal(err)
	}
	box, err := Spawn(app.World, NewDynamic(mgl64.Vec3{d.Position[0] + 0.08, d.Position[1], top + 0.15 + 0.1}, 30/0.027), Collider{Shape: shape})
	if err != nil {
		t.Fatal(err)
	}
	woke, strained := false, false
	var buf []mgl64.Vec3
	for i := 0; i < 600 && sim.Stats().Sleeping != 2; i++ {
		if err := app.StepFixed(); err != nil {
			t.Fatal(err)
		}
		b := bodyOf(t, app.World, box)
		if !d.Sleeping {
			woke = true
		} else if !woke && b.Position[2]-0.15 < top-0.005 {
			t.Fatalf("step %d: the box is %.3g m into the block and the block still sleeps", i, top-(b.Position[2]-0.15))
		}
		strained = strained || d.ElasticEnergy() > 2*slept
		var depth float64
		if depth, buf = deepestVertexIn(d, shape, &b, buf); depth > 0.005 {
			t.Fatalf("step %d: a vertex of the block is %.3g m inside the box", i, depth)
		}
	}
	if !woke || !strained {
		t.Fatalf("the box did not wake the block (woke %v) or squash it (strain %.3g J, asleep %.3g J)", woke, d.ElasticEnergy(), slept)
	}
	if sim.Stats().Sleeping != 2 || !d.Sleeping || !bodyOf(t, app.World, box).Sleeping {
		t.Fatalf("the stack did not fall asleep again within 6 s: %d asleep", sim.Stats().Sleeping)
	}
	t.Logf("strain energy %.3g J asleep alone, %.3g J asleep under the box", slept, d.ElasticEnergy())
	// Asleep under the box, the block keeps the shape the box pressed it into.
	z := d.Modal(nil)
	if e := d.ElasticEnergy(); !(e > 2*slept) {
		t.Fatalf("asleep under the box with strain energy %.3g J, %.3g J alone", e, slept)
	}
	stepFor(t, app, 50)
	for k, x := range d.Modal(nil) {
		if x != z[k] {
			t.Fatalf("z[%d] drifted under the sleeping box: %v → %v", k, z[k], x)
		}
	}
}

// TestGameWakesSleepingDeformable: setting a sleeping block's velocity wakes it and it moves;
// SetModalState wakes it too; a block the game sets Sleeping on in mid-air stays there, its
// velocities zeroed, its deformation kept, until the game clears Sleeping, when it falls.
func TestGameWakesSleepingDeformable(t *testing.T) {
	app, _, d, _ := droppedJelly(t)
	x0 := d.Position
	d.LinearVelocity = mgl64.Vec3{0.5, 0, 0}
	stepFor(t, app, 1)
	if d.Sleeping || !(d.Position[0] > x0[0]) {
		t.Fatalf("after the game set its velocity: Sleeping %v, x %v → %v; want awake and moving +x", d.Sleeping, x0[0], d.Position[0])
	}

	app, _, d, _ = droppedJelly(t)
	z := d.Modal(nil)
	zd := make([]float64, len(z))
	zd[0] = 1
	if err := d.SetModalState(z, zd); err != nil {
		t.Fatal(err)
	}
	if d.Sleeping {
		t.Fatal("SetModalState left the block asleep")
	}
	stepFor(t, app, 1)
	if d.Sleeping || d.Modal(nil)[0] == z[0] {
		t.Fatalf("after SetModalState: Sleeping %v, z₀ %v → %v; want awake and vibrating", d.Sleeping, z[0], d.Modal(nil)[0])
	}

	app = newTestApp(t, 0.01, DefaultConfig())
	_, d = spawnBlock(t, app.World, mgl64.Vec3{0, 0, 3}, 6)
	zd = make([]float64, 6)
	zd[1] = 0.3
	if err := d.SetModalState([]float64{0.01, 0, 0, 0, 0, 0}, zd); err != nil {
		t.Fatal(err)
	}
	d.LinearVelocity = mgl64.Vec3{0, 0, 2}
	d.Sleeping = true
	sim, _ := SimulationOf(app.World)
	stepFor(t, app, 1)
	p := d.Position
	z = d.Modal(nil)
	stepFor(t, app, 10)
	if !d.Sleeping || d.Position != p || d.LinearVelocity != (mgl64.Vec3{}) || sim.Stats().Sleeping != 1 {
		t.Fatalf("game-slept block: Sleeping %v, %v → %v, v %v, %d asleep; want asleep in place", d.Sleeping, p, d.Position, d.LinearVelocity, sim.Stats().Sleeping)
	}
	if z[0] != 0.01 || d.Modal(nil)[0] != 0.01 || d.ModalVelocities(nil)[1] != 0 {
		t.Fatalf("game-slept block: z %v, ż %v; want the deformation kept and ż zero", d.Modal(nil), d.ModalVelocities(nil))
	}
	d.Sleeping = false
	stepFor(t, app, 10)
	if d.Sleeping || !(d.Position[2] < p[2]) {
		t.Fatalf("woken block: Sleeping %v, z %v → %v; want awake and falling", d.Sleeping, p[2], d.Position[2])
	}
}

// TestSleepingDeformableWithoutSupportFalls: a block asleep on a static slab wakes and falls when
// the slab is despawned.
func TestSleepingDeformableWithoutSupportFalls(t *testing.T) {
	app := newTestApp(t, 0.01, DefaultConfig())
	shape, err := collide.NewBox(mgl64.Vec3{2, 2, 0.5})
	if err != nil {
		t.Fatal(err)
	}
	slab, err := Spawn(app.World, NewStatic(mgl64.Vec3{0, 0, -0.5}), Collider{Shape: shape})
	if err != nil {
		t.Fatal(err)
	}
	_, d := spawnBlock(t, app.World, mgl64.Vec3{0, 0, blockHalf + 0.01}, 6)
	stepUntilAsleep(t, app, 1, 500)
	p := d.Position
	if err := app.World.Despawn(slab); err != nil {
		t.Fatal(err)
	}
	stepFor(t, app, 20)
	if d.Sleeping || !(d.Position[2] < p[2]-0.1) {
		t.Fatalf("unsupported block: Sleeping %v, z %v → %v; want awake and falling", d.Sleeping, p[2], d.Position[2])
	}
}

// TestDeformableModalRestSpeed checks the modal speed the sleep rule compares with SleepLinear,
// √(żᵀż/m), against its meaning computed vertex by vertex: the mass-weighted root mean square of
// the speeds the modes give the mesh's vertices, Σ_a m_a |J_a q̇|² / m with the frame still, to
// 1e-9; and that atRest switches at SleepLinear on it.
func TestDeformableModalRestSpeed(t *testing.T) {
	app := newTestApp(t, 0.01, DefaultConfig())
	_, d := spawnBlock(t, app.World, mgl64.Vec3{1, 2, 3}, 8)
	d.Orientation = mgl64.QuatRotate(0.6, mgl64.Vec3{1, -1, 2}.Normalize())
	if _, err := d.check(); err != nil {
		t.Fatal(err)
	}
	m := d.model
	n := m.DoFs()
	qdot := make([]float64, n)
	for k := 6; k < n; k++ {
		qdot[k] = 0.01 * math.Sin(float64(3*k+1))
	}
	mass := deform.LumpedMass(d.Mesh, d.Material.Density)
	jac := make([]float64, 3*n)
	sum := 0.0
	for a, ma := range mass {
		if err := m.body.PointJacobian(deform.VertexPoint(a), jac); err != nil {
			t.Fatal(err)
		}
		for r := 0; r < 3; r++ {
			v := 0.0
			for c := 0; c < n; c++ {
				v += jac[r*n+c] * qdot[c]
			}
			sum += ma * v * v
		}
	}
	rms := math.Sqrt(sum / m.mass)
	zz := 0.0
	for _, x := range qdot[6:] {
		zz += x * x
	}
	if got := math.Sqrt(zz / m.mass); math.Abs(got-rms) > 1e-9*rms {
		t.Fatalf("√(żᵀż/m) = %.12g m/s, vertex by vertex %.12g m/s", got, rms)
	}
	if !m.atRest(qdot, 1.01*rms, 1) || m.atRest(qdot, 0.99*rms, 1) {
		t.Fatalf("atRest does not switch at the modal speed %.6g m/s", rms)
	}
	qdot[4] = 0.5
	if m.atRest(qdot, 2*rms, 0.4) {
		t.Fatal("atRest with the frame spinning above SleepAngular")
	}
}

// deepestVertexIn returns how deep the deepest surface vertex of d lies inside shape, placed at
// body b's pose (0 when none is inside), with buf reused for the vertices.
func deepestVertexIn(d *ReducedDeformable, shape collide.Shape, b *RigidBody, buf []mgl64.Vec3) (float64, []mgl64.Vec3) {
	pose := collide.Pose{Position: b.Position, Rotation: b.Orientation}
	buf = d.SurfaceVertices(buf)
	depth := 0.0
	for _, p := range buf {
		if dist, _ := shape.SignedDistance(pose.ApplyInverse(p)); -dist > depth {
			depth = -dist
		}
	}
	return depth, buf
}
