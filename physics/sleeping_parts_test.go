package physics

import (
	"math"
	"sync/atomic"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/stagger-physics/stagger/collide"
	"github.com/stagger-physics/stagger/ecs"
	"github.com/stagger-physics/stagger/solver"
)

// spawnShape adds a dynamic body of density 1000 with shape at p, friction mu, and returns it.
func spawnShape(t *testing.T, w *ecs.World, shape collide.Shape, p mgl64.Vec3, mu float64) ecs.Entity {
	t.Helper()
	b := NewDynamic(p, 1000)
	b.Friction = mu
	e, err := Spawn(w, b, Collider{Shape: shape})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// boxShape returns a box of half-extents half.
func boxShape(t *testing.T, half mgl64.Vec3) *collide.Box {
	t.Helper()
	b, err := collide.NewBox(half)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// sphereShape returns a sphere of radius r.
func sphereShape(t *testing.T, r float64) *collide.Sphere {
	t.Helper()
	sp, err := collide.NewSphere(r)
	if err != nil {
		t.Fatal(err)
	}
	return sp
}

// A ball rolls along a resting block 1 cm from its side, inside the contact margin, touching
// nothing: the block falls asleep after SleepTime, where it stands, while the ball rolls on
// (sleeping_parts.go). Joined to the ball's island by their speculative contact, it was kept
// awake and solved for as long as the ball rolled.
func TestRestingPartSleepsBesideARollingBall(t *testing.T) {
	app := newTestApp(t, 0.01, DefaultConfig())
	spawnGround(t, app.World, mgl64.Vec3{0, 0, 1}, 0.8)
	block := spawnShape(t, app.World, boxShape(t, mgl64.Vec3{2, 0.25, 0.25}), mgl64.Vec3{0, 0, 0.25}, 0.8)
	ball := spawnShape(t, app.World, sphereShape(t, 0.2), mgl64.Vec3{-1.5, 0.25 + 0.2 + 0.01, 0.2}, 0.8)
	b, _ := ecs.Get[RigidBody](app.World, ball)
	b.LinearVelocity = mgl64.Vec3{0.5, 0, 0}
	b.AngularVelocity = mgl64.Vec3{0, 0.5 / 0.2, 0} // rolling
	start := bodyOf(t, app.World, block).Position
	sim, _ := SimulationOf(app.World)
	near := 0
	for i := 0; i < 200; i++ {
		if err := app.StepFixed(); err != nil {
			t.Fatal(err)
		}
		sim.Contacts(func(c ContactPoint) {
			if (c.A == ball || c.B == ball) && (c.A == block || c.B == block) && c.Gap > 0 && c.Gap < 0.02 {
				near++
			}
		})
	}
	if near < 100 {
		t.Fatalf("the ball and the block had a speculative contact in %d steps of 200; the test needs one throughout", near)
	}
	bl, bb := bodyOf(t, app.World, block), bodyOf(t, app.World, ball)
	if !bl.Sleeping || bl.Position.Sub(start).Len() > 1e-6 {
		t.Errorf("block: Sleeping %v, moved %.3g m; want asleep where it stood", bl.Sleeping, bl.Position.Sub(start).Len())
	}
	if bb.Sleeping || bb.LinearVelocity[0] < 0.4 {
		t.Errorf("ball: Sleeping %v, v %v; want it rolling on", bb.Sleeping, bb.LinearVelocity)
	}
}

// A ball slides, on frictionless ground, into a block asleep there. The contact that meets the
// block is detached (the block slept, the ball did not touch it), so the block counts as fixed in
// the ball's problem; the solve presses on it, and the step is solved again with the block awake.
// (Without that second solve, the colliding step kept 41 % of the momentum.)
// The collision is inelastic and nothing else pushes along x, so the two bodies' momentum along x
// is the ball's throughout, and after the collision both move at half the ball's speed: a block
// held fixed for the colliding step would have stopped the ball and lost the momentum.
func TestPressedSleeperWakesWithinTheStep(t *testing.T) {
	app := newTestApp(t, 0.01, DefaultConfig())
	spawnGround(t, app.World, mgl64.Vec3{0, 0, 1}, 0)
	block := spawnShape(t, app.World, boxShape(t, mgl64.Vec3{0.25, 0.25, 0.25}), mgl64.Vec3{0, 0, 0.25}, 0)
	ball := spawnShape(t, app.World, sphereShape(t, 0.25), mgl64.Vec3{-1, 0, 0.25}, 0)
	stepUntilAsleep(t, app, 2, 200)
	bb, _ := ecs.Get[RigidBody](app.World, ball)
	// Faster than 1 cm a step, so that the ball closes the last of the gap within a step and
	// presses on the block through the detached contact; at 1 m/s it would close it exactly and
	// meet the block touching, which joins their islands.
	const v0 = 1.7
	bb.LinearVelocity = mgl64.Vec3{v0, 0, 0}
	p0 := bb.Mass * v0
	asleepWhenMet := false
	for i := 0; i < 100; i++ {
		before := bodyOf(t, app.World, block)
		if err := app.StepFixed(); err != nil {
			t.Fatal(err)
		}
		bl, ba := bodyOf(t, app.World, block), bodyOf(t, app.World, ball)
		if bl.LinearVelocity[0] > 0 && before.LinearVelocity[0] == 0 {
			asleepWhenMet = before.Sleeping
		}
		if p := bl.Mass*bl.LinearVelocity[0] + ba.Mass*ba.LinearVelocity[0]; math.Abs(p-p0) > 1e-6*p0 {
			t.Fatalf("step %d: momentum along x %.9g, want %.9g (block v %v, asleep before %v)", i, p, p0, bl.LinearVelocity, before.Sleeping)
		}
	}
	bl, ba := bodyOf(t, app.World, block), bodyOf(t, app.World, ball)
	if !asleepWhenMet {
		t.Error("the block was not asleep when the ball met it; the test needs it asleep")
	}
	want := ba.Mass * v0 / (ba.Mass + bl.Mass)
	if math.Abs(bl.LinearVelocity[0]-want) > 1e-3 || math.Abs(ba.LinearVelocity[0]-want) > 1e-3 {
		t.Errorf("after the collision: block %.4f m/s, ball %.4f m/s; want both %.4f", bl.LinearVelocity[0], ba.LinearVelocity[0], want)
	}
}

// A ball slides into a box asleep on a deformable block (asleep with it): the detached contact
// presses, and the whole sleeping island, the deformable block too, wakes and is solved in that
// step.
func TestPressedSleeperWakesItsDeformableSupport(t *testing.T) {
	app := newTestApp(t, 0.01, DefaultConfig())
	spawnGround(t, app.World, mgl64.Vec3{0, 0, 1}, 0.8)
	_, soft := spawnBlock(t, app.World, mgl64.Vec3{0, 0, blockHalf}, 4)
	box := spawnShape(t, app.World, boxShape(t, mgl64.Vec3{0.1, 0.1, 0.1}), mgl64.Vec3{0, 0, 2*blockHalf + 0.1}, 0.8)
	ball := NewDynamic(mgl64.Vec3{-1, 0, 2*blockHalf + 0.1}, 1000)
	if err := ball.SetGravityScale(0); err != nil { // it flies level into the box
		t.Fatal(err)
	}
	ballE, err := Spawn(app.World, ball, Collider{Shape: sphereShape(t, 0.05)})
	if err != nil {
		t.Fatal(err)
	}
	sim, _ := SimulationOf(app.World)
	for i := 0; i < 400 && !(bodyOf(t, app.World, box).Sleeping && soft.Sleeping); i++ {
		if err := app.StepFixed(); err != nil {
			t.Fatal(err)
		}
	}
	if !bodyOf(t, app.World, box).Sleeping || !soft.Sleeping {
		t.Fatal("the box and the block did not fall asleep; the test needs them asleep")
	}
	b, _ := ecs.Get[RigidBody](app.World, ballE)
	b.LinearVelocity = mgl64.Vec3{3.7, 0, 0}
	for i := 0; i < 60; i++ {
		if err := app.StepFixed(); err != nil {
			t.Fatal(err)
		}
		if bx := bodyOf(t, app.World, box); bx.LinearVelocity[0] > 0 {
			if bx.Sleeping || soft.Sleeping {
				t.Errorf("step %d: the box moves, but box asleep %v, block asleep %v; want the island awake", i, bx.Sleeping, soft.Sleeping)
			}
			if st := sim.Stats(); st.NonFinite != 0 {
				t.Errorf("step %d: %d non-finite updates", i, st.NonFinite)
			}
			return
		}
	}
	t.Error("the ball never moved the box")
}

// The same collision with a box sliding on its own far away: the step whose solve presses on the
// sleeping block solves the ball's island again with the block awake, and keeps the sliding box's
// island from the first solve (resolve_kept.go) instead of solving it twice. Counted through the
// problems handed to the solver: two in the first solve, one in the second. The kept answer is
// the one a second solve would give: the box slides on at its speed, unchanged to rounding.
func TestResolveKeepsUntouchedIslands(t *testing.T) {
	app := newTestApp(t, 0.01, DefaultConfig())
	spawnGround(t, app.World, mgl64.Vec3{0, 0, 1}, 0)
	block := spawnShape(t, app.World, boxShape(t, mgl64.Vec3{0.25, 0.25, 0.25}), mgl64.Vec3{0, 0, 0.25}, 0)
	ball := spawnShape(t, app.World, sphereShape(t, 0.25), mgl64.Vec3{-1, 0, 0.25}, 0)
	slider := spawnShape(t, app.World, boxShape(t, mgl64.Vec3{0.25, 0.25, 0.25}), mgl64.Vec3{0, 3, 0.25}, 0)
	const vs = 0.5
	sb, _ := ecs.Get[RigidBody](app.World, slider)
	sb.LinearVelocity = mgl64.Vec3{0, vs, 0}
	stepUntilAsleep(t, app, 2, 200)
	bb, _ := ecs.Get[RigidBody](app.World, ball)
	bb.LinearVelocity = mgl64.Vec3{1.7, 0, 0}
	var solves atomic.Int64 // the islands may be solved on two workers at once
	testProblemHook = func(*solver.Problem) { solves.Add(1) }
	defer func() { testProblemHook = nil }()
	met := false
	for i := 0; i < 100; i++ {
		before := bodyOf(t, app.World, block)
		solves.Store(0)
		if err := app.StepFixed(); err != nil {
			t.Fatal(err)
		}
		if bl := bodyOf(t, app.World, block); bl.LinearVelocity[0] > 0 && before.LinearVelocity[0] == 0 {
			met = true
			if !before.Sleeping {
				t.Fatal("the block was not asleep when the ball met it; the test needs it asleep")
			}
			if n := solves.Load(); n != 3 {
				t.Errorf("step %d: %d island problems solved, want 3 (the ball's and the slider's, then the ball's with the block)", i, n)
			}
		}
		if v := bodyOf(t, app.World, slider).LinearVelocity; math.Abs(v[1]-vs) > 1e-9 || math.Abs(v[0]) > 1e-9 {
			t.Fatalf("step %d: the slider moves at %v, want (0, %g, 0)", i, v, vs)
		}
	}
	if !met {
		t.Error("the ball never moved the block")
	}
}
