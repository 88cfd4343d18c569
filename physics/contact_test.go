package physics

import (
	"math"
	"math/rand/v2"
	"runtime"
	"testing"
	"time"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/stagger-physics/stagger/collide"
	"github.com/stagger-physics/stagger/ecs"
)

// spawnGround adds a static ground: the half-space below the plane through the origin with the
// given unit normal, with friction mu.
func spawnGround(t testing.TB, w *ecs.World, normal mgl64.Vec3, mu float64) {
	t.Helper()
	plane, err := collide.NewHalfSpace(normal, 0)
	if err != nil {
		t.Fatal(err)
	}
	ground := NewStatic(mgl64.Vec3{})
	ground.Friction = mu
	if _, err := Spawn(w, ground, Collider{Shape: plane}); err != nil {
		t.Fatal(err)
	}
}

// spawnCube adds a unit cube of 1 kg at position p, turned by q.
func spawnCube(t testing.TB, w *ecs.World, p mgl64.Vec3, q mgl64.Quat, mu float64) ecs.Entity {
	t.Helper()
	cube, err := collide.NewBox(mgl64.Vec3{0.5, 0.5, 0.5})
	if err != nil {
		t.Fatal(err)
	}
	b := NewDynamic(p, 1)
	b.Orientation = q
	b.Friction = mu
	e, err := Spawn(w, b, Collider{Shape: cube})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// bodyOf returns a copy of e's RigidBody.
func bodyOf(t testing.TB, w *ecs.World, e ecs.Entity) RigidBody {
	t.Helper()
	b, ok := ecs.Get[RigidBody](w, e)
	if !ok {
		t.Fatalf("%v has no RigidBody", e)
	}
	return *b
}

// TestBoxLandsAndRests drops a cube onto the ground: it must stop on the surface (the speculative
// contact lets it close the gap exactly), not sink, and stay at rest.
func TestBoxLandsAndRests(t *testing.T) {
	app := newTestApp(t, 0.01, DefaultConfig())
	spawnGround(t, app.World, mgl64.Vec3{0, 0, 1}, 0.8)
	e := spawnCube(t, app.World, mgl64.Vec3{0, 0, 1.5}, mgl64.QuatIdent(), 0.8)
	for i := 0; i < 300; i++ {
		if err := app.StepFixed(); err != nil {
			t.Fatal(err)
		}
		b := bodyOf(t, app.World, e)
		if b.Position[2] < 0.5-1e-6 {
			t.Fatalf("step %d: the cube sank to z = %.9f", i, b.Position[2])
		}
	}
	b := bodyOf(t, app.World, e)
	if math.Abs(b.Position[2]-0.5) > 1e-6 || b.LinearVelocity.Len() > 1e-6 || b.AngularVelocity.Len() > 1e-6 {
		t.Fatalf("not at rest on the ground: x %v v %v ω %v", b.Position, b.LinearVelocity, b.AngularVelocity)
	}
	sim, _ := SimulationOf(app.World)
	if st := sim.Stats(); st.Contacts != 4 || st.Sleeping != 1 {
		t.Fatalf("resting stats %+v, want 4 contacts and the cube asleep", st)
	}
}

// TestStackHolds builds a tower of ten unit cubes, each displaced up to ±2 cm and turned up to ±3°
// about z, and checks that after 5 s no cube moved sideways or dropped by more than 1 mm.
func TestStackHolds(t *testing.T) {
	app := newTestApp(t, 0.01, DefaultConfig())
	spawnGround(t, app.World, mgl64.Vec3{0, 0, 1}, 0.8)
	r := rand.New(rand.NewPCG(7, 11))
	var cubes []ecs.Entity
	var start []mgl64.Vec3
	for i := 0; i < 10; i++ {
		p := mgl64.Vec3{0.04 * (r.Float64() - 0.5), 0.04 * (r.Float64() - 0.5), 0.5 + float64(i)}
		q := mgl64.QuatRotate((r.Float64()-0.5)*6*math.Pi/180, mgl64.Vec3{0, 0, 1})
		cubes = append(cubes, spawnCube(t, app.World, p, q, 0.8))
		start = append(start, p)
	}
	energy := func() float64 {
		e, err := Energy(app.World, DefaultConfig().Gravity)
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	last := energy()
	for step := 0; step < 500; step++ {
		if err := app.StepFixed(); err != nil {
			t.Fatal(err)
		}
		now := energy()
		if now > last+1e-9 {
			t.Fatalf("step %d: energy rose by %g J", step, now-last)
		}
		last = now
	}
	for i, e := range cubes {
		b := bodyOf(t, app.World, e)
		shift := math.Hypot(b.Position[0]-start[i][0], b.Position[1]-start[i][1])
		drop := start[i][2] - b.Position[2]
		if shift > 1e-3 || drop > 1e-3 {
			t.Errorf("cube %d: shift %.3g m, drop %.3g m", i, shift, drop)
		}
	}
}

// inclineSlide releases a unit cube at rest on a plane tilted by theta with friction mu and
// returns how far it moved down the slope after steps of h.
func inclineSlide(t *testing.T, theta, mu, h float64, steps int) float64 {
	app := newTestApp(t, h, DefaultConfig())
	n := mgl64.Vec3{-math.Sin(theta), 0, math.Cos(theta)}
	spawnGround(t, app.World, n, mu)
	q := mgl64.QuatRotate(-theta, mgl64.Vec3{0, 1, 0})
	p0 := n.Mul(0.5)
	e := spawnCube(t, app.World, p0, q, mu)
	for i := 0; i < steps; i++ {
		if err := app.StepFixed(); err != nil {
			t.Fatal(err)
		}
	}
	down := mgl64.Vec3{-math.Cos(theta), 0, -math.Sin(theta)}
	b := bodyOf(t, app.World, e)
	if off := b.Position.Sub(p0).Dot(n); math.Abs(off) > 1e-6 {
		t.Errorf("the cube left the plane by %.3g m", off)
	}
	return b.Position.Sub(p0).Dot(down)
}

// TestInclineSticksBelowFrictionAngle: tan 30° < 0.8, so Coulomb friction holds the cube.
func TestInclineSticksBelowFrictionAngle(t *testing.T) {
	if s := inclineSlide(t, 30*math.Pi/180, 0.8, 0.01, 200); math.Abs(s) > 1e-6 {
		t.Fatalf("slid %.3g m at 30° with μ 0.8", s)
	}
}

// TestInclineSlidesWithCoulombAcceleration: above the friction angle the cube slides with
// a = g(sin θ − μ cos θ). Semi-implicit Euler covers a h² N(N+1)/2 in N steps from rest, which is
// asserted to 0.5 %; the continuous ½ a t² is within 1.5 %.
func TestInclineSlidesWithCoulombAcceleration(t *testing.T) {
	const h, steps = 0.01, 100
	theta, mu := 45*math.Pi/180, 0.8
	a := StandardGravity * (math.Sin(theta) - mu*math.Cos(theta))
	discrete := a * h * h * steps * (steps + 1) / 2
	continuous := 0.5 * a * (h * steps) * (h * steps)
	s := inclineSlide(t, theta, mu, h, steps)
	if math.Abs(s-discrete) > 5e-3*discrete || math.Abs(s-continuous) > 1.5e-2*continuous {
		t.Fatalf("slid %.5f m; Coulomb gives %.5f m (discrete %.5f m)", s, continuous, discrete)
	}
}

// TestHeavyBoxOnLightBoxDoesNotSink: the middle of three stacked cubes is 1,000 times denser; the
// exact contact projection must hold it up (other engines let it sink).
func TestHeavyBoxOnLightBoxDoesNotSink(t *testing.T) {
	app := newTestApp(t, 0.01, DefaultConfig())
	spawnGround(t, app.World, mgl64.Vec3{0, 0, 1}, 0.8)
	cube, err := collide.NewBox(mgl64.Vec3{0.5, 0.5, 0.5})
	if err != nil {
		t.Fatal(err)
	}
	var es []ecs.Entity
	for i, density := range []float64{1, 1000, 1} {
		b := NewDynamic(mgl64.Vec3{0, 0, 0.5 + float64(i)}, density)
		e, err := Spawn(app.World, b, Collider{Shape: cube})
		if err != nil {
			t.Fatal(err)
		}
		es = append(es, e)
	}
	for step := 0; step < 300; step++ {
		if err := app.StepFixed(); err != nil {
			t.Fatal(err)
		}
	}
	for i, e := range es {
		if drop := 0.5 + float64(i) - bodyOf(t, app.World, e).Position[2]; drop > 1e-3 {
			t.Errorf("cube %d dropped %.3g m", i, drop)
		}
	}
}

// spawnPiles drops 16 separate piles of two tilted cubes, so a step has many islands of varying
// size as they land and settle.
func spawnPiles(t testing.TB, w *ecs.World) []ecs.Entity {
	t.Helper()
	spawnGround(t, w, mgl64.Vec3{0, 0, 1}, 0.6)
	r := rand.New(rand.NewPCG(3, 5))
	var es []ecs.Entity
	for pile := 0; pile < 16; pile++ {
		x, y := 3*float64(pile%4), 3*float64(pile/4)
		for i := 0; i < 2; i++ {
			axis := mgl64.Vec3{r.Float64() - 0.5, r.Float64() - 0.5, r.Float64() - 0.5}.Normalize()
			q := mgl64.QuatRotate(0.4*r.Float64(), axis)
			es = append(es, spawnCube(t, w, mgl64.Vec3{x + 0.3*r.Float64(), y, 0.8 + 1.3*float64(i)}, q, 0.6))
		}
	}
	return es
}

// TestWorkersGiveIdenticalResults steps the same many-island scene with 1 and with 4 workers:
// every body's state and the step's statistics (but its wall times) must be bit-identical after
// each of 100 steps, among them the worst rel_err and residual, which must also be finite, within
// ε when every solve converged, and measured (nonzero in some step), not left at 0.
func TestWorkersGiveIdenticalResults(t *testing.T) {
	run := func(workers int) ([]ecs.Entity, *ecs.App, *Simulation) {
		cfg := DefaultConfig()
		cfg.Workers = workers
		app := newTestApp(t, 0.01, cfg)
		es := spawnPiles(t, app.World)
		sim, _ := SimulationOf(app.World)
		return es, app, sim
	}
	es1, app1, sim1 := run(1)
	es4, app4, sim4 := run(4)
	eps := sim1.Config().Solver.Epsilon
	if eps == 0 {
		eps = 1e-4 // the solver's default
	}
	maxIslands := 0
	nonzeroRel, nonzeroRes := false, false
	for step := 0; step < 100; step++ {
		if err := app1.StepFixed(); err != nil {
			t.Fatal(err)
		}
		if err := app4.StepFixed(); err != nil {
			t.Fatal(err)
		}
		s1, s4 := sim1.Stats(), sim4.Stats()
		maxIslands = max(maxIslands, s4.Islands)
		for i := range es1 {
			a, b := bodyOf(t, app1.World, es1[i]), bodyOf(t, app4.World, es4[i])
			if a.Position != b.Position || a.Orientation != b.Orientation || a.LinearVelocity != b.LinearVelocity || a.AngularVelocity != b.AngularVelocity {
				t.Fatalf("step %d, cube %d: 1 worker %v, 4 workers %v", step, i, a.Position, b.Position)
			}
		}
		checkErrorStats(t, step, s1, eps)
		if math.Float64bits(s1.MaxRelErr) != math.Float64bits(s4.MaxRelErr) || math.Float64bits(s1.MaxResidual) != math.Float64bits(s4.MaxResidual) {
			t.Fatalf("step %d: 1 worker rel err %v residual %v; 4 workers %v, %v", step, s1.MaxRelErr, s1.MaxResidual, s4.MaxRelErr, s4.MaxResidual)
		}
		// Wall times are the only figures that may differ.
		s1.Elapsed, s4.Elapsed = 0, 0
		s1.Phases, s4.Phases = PhaseTimes{}, PhaseTimes{}
		if s1 != s4 {
			t.Fatalf("step %d: 1 worker %+v; 4 workers %+v", step, s1, s4)
		}
		nonzeroRel = nonzeroRel || s1.MaxRelErr > 0
		nonzeroRes = nonzeroRes || s1.MaxResidual > 0
	}
	if maxIslands < 8 {
		t.Fatalf("the scene had at most %d islands; the test needs many", maxIslands)
	}
	if !nonzeroRel || !nonzeroRes {
		t.Fatalf("rel err nonzero in some step: %v, residual: %v", nonzeroRel, nonzeroRes)
	}
}

// TestSetSolverAndContacts switches a resting cube's solve to the PGS baseline and back, and reads
// the contacts: four corners on the ground carrying the cube's weight.
func TestSetSolverAndContacts(t *testing.T) {
	const h = 0.01
	app := newTestApp(t, h, DefaultConfig())
	spawnGround(t, app.World, mgl64.Vec3{0, 0, 1}, 0.8)
	spawnCube(t, app.World, mgl64.Vec3{0, 0, 0.5}, mgl64.QuatIdent(), 0.8)
	sim, _ := SimulationOf(app.World)
	bad := sim.Config().Solver
	bad.Method = "magic"
	if err := sim.SetSolver(bad); err == nil {
		t.Fatal("an unknown method was accepted")
	}
	for _, method := range []string{"pgs", "sp"} {
		setMethod(t, sim, method)
		if err := app.StepFixed(); err != nil {
			t.Fatal(err)
		}
		n, total := 0, 0.0
		sim.Contacts(func(c ContactPoint) {
			n++
			total += c.NormalImpulse * c.Normal[2]
		})
		// The ground carries the cube's weight over the step: Σα = m g h (PGS to its tolerance).
		if want := StandardGravity * h; n != 4 || math.Abs(total-want) > 1e-3*want {
			t.Errorf("%s: %d contacts carrying %.6g N·s, want 4 carrying %.6g", method, n, total, want)
		}
	}
}

// setMethod switches sim's solver to method, keeping its other options.
func setMethod(t *testing.T, sim *Simulation, method string) {
	t.Helper()
	o := sim.Config().Solver
	o.Method = method
	if err := sim.SetSolver(o); err != nil {
		t.Fatal(err)
	}
}

// TestSetSolverThenCollect drops simulations whose solver was switched (the demo does this on
// every reset): each simulation keeps its worker pool across SetSolver and steps with it, and once
// the simulations are unreachable their cleanups stop the pools: the pools' goroutines end.
func TestSetSolverThenCollect(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Workers = 2
	// Pools of simulations that earlier tests dropped stop when collections find them
	// unreachable; counted in before and stopping during this test, they could hide this test's
	// pools. Collect until the count has not fallen for three collections.
	before := runtime.NumGoroutine()
	for i, steady := 0, 0; i < 100 && steady < 3; i++ {
		runtime.GC()
		time.Sleep(5 * time.Millisecond)
		if n := runtime.NumGoroutine(); n < before {
			before, steady = n, 0
		} else {
			steady++
		}
	}
	func() {
		for i := 0; i < 4; i++ {
			app := newTestApp(t, 0.01, cfg)
			sim, _ := SimulationOf(app.World)
			pool := sim.pool
			for _, method := range []string{"pgs", "sp"} {
				setMethod(t, sim, method)
			}
			if sim.pool != pool || pool == nil {
				t.Fatalf("SetSolver replaced the worker pool")
			}
			if err := app.StepFixed(); err != nil {
				t.Fatal(err)
			}
		}
		if runtime.NumGoroutine() <= before {
			t.Fatalf("%d goroutines with four 2-worker simulations, %d before: the pools run none", runtime.NumGoroutine(), before)
		}
	}()
	// The cleanups run after collections that find the simulations unreachable; give them up to
	// 200 collections.
	for i := 0; i < 200 && runtime.NumGoroutine() > before; i++ {
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		t.Errorf("%d goroutines after the simulations were dropped, %d before: a pool was not stopped", n, before)
	}
}
