package physics

import (
	"testing"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/stagger-physics/stagger/ecs"
)

// sleepyStack builds the ground and a column of n unit cubes resting exactly on each other.
func sleepyStack(t *testing.T, cfg Config, n int) (*ecs.App, []ecs.Entity) {
	t.Helper()
	app := newTestApp(t, 0.01, cfg)
	spawnGround(t, app.World, mgl64.Vec3{0, 0, 1}, 0.8)
	var cubes []ecs.Entity
	for i := 0; i < n; i++ {
		cubes = append(cubes, spawnCube(t, app.World, mgl64.Vec3{0, 0, 0.5 + float64(i)}, mgl64.QuatIdent(), 0.8))
	}
	return app, cubes
}

// stepUntilAsleep steps until want bodies sleep, failing after limit steps.
func stepUntilAsleep(t *testing.T, app *ecs.App, want, limit int) int {
	t.Helper()
	sim, _ := SimulationOf(app.World)
	for i := 0; i < limit; i++ {
		if err := app.StepFixed(); err != nil {
			t.Fatal(err)
		}
		if sim.Stats().Sleeping == want {
			return i + 1
		}
	}
	t.Fatalf("after %d steps %d bodies sleep, want %d", limit, sim.Stats().Sleeping, want)
	return 0
}

// A resting stack falls asleep after SleepTime, and while asleep no island is solved and no
// body moves by a single bit.
func TestStackFallsAsleepAndStaysPut(t *testing.T) {
	cfg := DefaultConfig()
	app, cubes := sleepyStack(t, cfg, 5)
	steps := stepUntilAsleep(t, app, 5, 200)
	if float64(steps)*0.01 < cfg.SleepTime-1e-9 {
		t.Errorf("asleep after %d steps, before SleepTime %v s", steps, cfg.SleepTime)
	}
	before := make([]RigidBody, len(cubes))
	for i, e := range cubes {
		before[i] = bodyOf(t, app.World, e)
		if !before[i].Sleeping || before[i].LinearVelocity != (mgl64.Vec3{}) || before[i].AngularVelocity != (mgl64.Vec3{}) {
			t.Fatalf("cube %d: Sleeping %v, v %v, ω %v; want asleep at rest", i, before[i].Sleeping, before[i].LinearVelocity, before[i].AngularVelocity)
		}
	}
	sim, _ := SimulationOf(app.World)
	for i := 0; i < 100; i++ {
		if err := app.StepFixed(); err != nil {
			t.Fatal(err)
		}
		if st := sim.Stats(); st.Islands != 0 || st.Sleeping != 5 || st.Contacts != 20 {
			t.Fatalf("asleep step %d: %+v, want no island solved, 5 asleep, 20 contacts kept", i, st)
		}
	}
	for i, e := range cubes {
		if b := bodyOf(t, app.World, e); b.Position != before[i].Position || b.Orientation != before[i].Orientation {
			t.Errorf("cube %d moved while asleep: %v → %v", i, before[i].Position, b.Position)
		}
	}
	// The kept contacts still carry the stack's weight: Σα = 15 m g h over the ground's four.
	total := 0.0
	sim.Contacts(func(c ContactPoint) { total += c.NormalImpulse })
	want := (5 + 4 + 3 + 2 + 1) * StandardGravity * 0.01
	if total < 0.99*want || total > 1.01*want {
		t.Errorf("kept impulses sum to %v N·s, want %v", total, want)
	}
}

// A game that pushes a sleeping body wakes its island, and the body moves.
func TestGameChangeWakesIsland(t *testing.T) {
	app, cubes := sleepyStack(t, DefaultConfig(), 3)
	stepUntilAsleep(t, app, 3, 200)
	top, _ := ecs.Get[RigidBody](app.World, cubes[2])
	top.LinearVelocity = mgl64.Vec3{1, 0, 0}
	x0 := top.Position[0]
	if err := app.StepFixed(); err != nil {
		t.Fatal(err)
	}
	sim, _ := SimulationOf(app.World)
	if st := sim.Stats(); st.Sleeping != 0 || st.Islands != 1 {
		t.Fatalf("after the push: %+v, want the whole island awake and solved", st)
	}
	if b := bodyOf(t, app.World, cubes[2]); b.Sleeping || b.Position[0] <= x0 {
		t.Errorf("pushed cube: Sleeping %v, x %v → %v; want awake and moving", b.Sleeping, x0, b.Position[0])
	}
	// Clearing Sleeping wakes a body too.
	stepUntilAsleep(t, app, 3, 300)
	bottom, _ := ecs.Get[RigidBody](app.World, cubes[0])
	bottom.Sleeping = false
	if err := app.StepFixed(); err != nil {
		t.Fatal(err)
	}
	if st := sim.Stats(); st.Islands != 1 {
		t.Errorf("after clearing Sleeping: %+v, want the island solved", st)
	}
}

// An awake box dropped onto a sleeping pile wakes it through the new contact, and the pile takes
// the blow: the struck cube is pushed down into its support, which it could not be while asleep.
func TestFallingBoxWakesSleepingPile(t *testing.T) {
	app, cubes := sleepyStack(t, DefaultConfig(), 2)
	stepUntilAsleep(t, app, 2, 200)
	falling := spawnCube(t, app.World, mgl64.Vec3{0.2, 0, 3.0}, mgl64.QuatIdent(), 0.8)
	sim, _ := SimulationOf(app.World)
	woke, struck := false, false
	for i := 0; i < 100; i++ {
		if err := app.StepFixed(); err != nil {
			t.Fatal(err)
		}
		if bodyOf(t, app.World, falling).Position[2] < 2.6 && sim.Stats().Sleeping < 2 {
			woke = true
		}
		if !bodyOf(t, app.World, cubes[1]).Sleeping && sim.Stats().Islands > 0 {
			struck = true
		}
	}
	if !woke || !struck {
		t.Fatalf("the pile did not wake when struck (woke %v, solved %v)", woke, struck)
	}
	if z := bodyOf(t, app.World, falling).Position[2]; z < 2.5-1e-6 {
		t.Errorf("the dropped box sank into the pile: z %v", z)
	}
}

// A sleeping body whose support is removed wakes and falls.
func TestSleeperWithoutSupportFalls(t *testing.T) {
	app := newTestApp(t, 0.01, DefaultConfig())
	spawnGround(t, app.World, mgl64.Vec3{0, 0, 1}, 0.8)
	base := spawnCube(t, app.World, mgl64.Vec3{0, 0, 0.5}, mgl64.QuatIdent(), 0.8)
	baseBody, _ := ecs.Get[RigidBody](app.World, base)
	baseBody.Kind = Static
	top := spawnCube(t, app.World, mgl64.Vec3{0, 0, 1.5}, mgl64.QuatIdent(), 0.8)
	stepUntilAsleep(t, app, 1, 200)
	if err := app.World.Despawn(base); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 20; i++ {
		if err := app.StepFixed(); err != nil {
			t.Fatal(err)
		}
	}
	if b := bodyOf(t, app.World, top); b.Sleeping || b.Position[2] > 1.4 {
		t.Errorf("unsupported sleeper: Sleeping %v, z %v; want awake and falling", b.Sleeping, b.Position[2])
	}
}

// SleepTime 0 turns sleeping off.
func TestSleepTimeZeroNeverSleeps(t *testing.T) {
	cfg := DefaultConfig()
	cfg.SleepTime = 0
	app, _ := sleepyStack(t, cfg, 2)
	sim, _ := SimulationOf(app.World)
	for i := 0; i < 200; i++ {
		if err := app.StepFixed(); err != nil {
			t.Fatal(err)
		}
		if st := sim.Stats(); st.Sleeping != 0 || st.Islands != 1 {
			t.Fatalf("step %d: %+v, want one island solved and nothing asleep", i, st)
		}
	}
}

// A box resting on a kinematic platform that does not move falls asleep and stays asleep; giving the platform a
// velocity wakes the box, which rides along.
func TestStillKinematicLetsIslandSleep(t *testing.T) {
	app := newTestApp(t, 0.01, DefaultConfig())
	platform := spawnCube(t, app.World, mgl64.Vec3{0, 0, 0.5}, mgl64.QuatIdent(), 0.8)
	pb, _ := ecs.Get[RigidBody](app.World, platform)
	pb.Kind = Kinematic
	top := spawnCube(t, app.World, mgl64.Vec3{0, 0, 1.5}, mgl64.QuatIdent(), 0.8)
	stepUntilAsleep(t, app, 1, 200)
	sim, _ := SimulationOf(app.World)
	for i := 0; i < 20; i++ {
		if err := app.StepFixed(); err != nil {
			t.Fatal(err)
		}
		if st := sim.Stats(); st.Islands != 0 || st.Sleeping != 1 {
			t.Fatalf("asleep on a still platform, step %d: %+v, want no island solved and the box asleep", i, st)
		}
	}
	z0 := bodyOf(t, app.World, top).Position
	pb, _ = ecs.Get[RigidBody](app.World, platform) // the spawn since may have moved the storage
	pb.LinearVelocity = mgl64.Vec3{0, 0, 0.5}
	if err := app.StepFixed(); err != nil {
		t.Fatal(err)
	}
	if st := sim.Stats(); st.Sleeping != 0 || st.Islands != 1 {
		t.Fatalf("platform set moving: %+v, want the box awake and solved", st)
	}
	for i := 0; i < 10; i++ {
		if err := app.StepFixed(); err != nil {
			t.Fatal(err)
		}
	}
	if b := bodyOf(t, app.World, top); b.Sleeping || b.Position[2] <= z0[2] {
		t.Errorf("box on a rising platform: Sleeping %v, z %v → %v; want awake and lifted", b.Sleeping, z0[2], b.Position[2])
	}
}

// A body the game puts to sleep in mid-air stays where it is, with zero velocity, until the game
// wakes it; then it falls.
func TestGameSleepsBodyInFlight(t *testing.T) {
	app := newTestApp(t, 0.01, DefaultConfig())
	c := spawnCube(t, app.World, mgl64.Vec3{0, 0, 5}, mgl64.QuatIdent(), 0.8)
	for i := 0; i < 5; i++ { // falling
		if err := app.StepFixed(); err != nil {
			t.Fatal(err)
		}
	}
	b, _ := ecs.Get[RigidBody](app.World, c)
	b.Sleeping = true
	sim, _ := SimulationOf(app.World)
	var held RigidBody
	for i := 0; i < 10; i++ {
		if err := app.StepFixed(); err != nil {
			t.Fatal(err)
		}
		now := bodyOf(t, app.World, c)
		if i == 0 {
			held = now
		}
		if st := sim.Stats(); !now.Sleeping || st.Sleeping != 1 || now.Position != held.Position || now.LinearVelocity != (mgl64.Vec3{}) {
			t.Fatalf("step %d after the game set Sleeping: Sleeping %v, stats %+v, p %v (held %v), v %v", i, now.Sleeping, st, now.Position, held.Position, now.LinearVelocity)
		}
	}
	b, _ = ecs.Get[RigidBody](app.World, c)
	b.Sleeping = false
	for i := 0; i < 5; i++ {
		if err := app.StepFixed(); err != nil {
			t.Fatal(err)
		}
	}
	if now := bodyOf(t, app.World, c); now.Sleeping || now.Position[2] >= held.Position[2] {
		t.Errorf("woken by the game: Sleeping %v, z %v → %v; want awake and falling", now.Sleeping, held.Position[2], now.Position[2])
	}
}
