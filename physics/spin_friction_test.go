package physics

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/stagger-physics/stagger/ecs"
)

// spawnSpinningBall adds spawnBall's ball at p, at rest but spinning at omega, friction mu.
func spawnSpinningBall(t *testing.T, w *ecs.World, p, omega mgl64.Vec3, mu float64) ecs.Entity {
	t.Helper()
	e := spawnBall(t, w, p, mgl64.Vec3{}, mu, 0)
	b, ok := ecs.Get[RigidBody](w, e)
	if !ok {
		t.Fatalf("the ball %v has no RigidBody", e)
	}
	b.AngularVelocity = omega
	return e
}

// spinDecay is the change of spin per step that torsional friction gives a ball of ballRadius and
// 1 kg resting on a surface, both of friction mu: the angular impulse μ·a·α with α = m g h, the
// ball's weight over the step, over its inertia 2/5 m r².
func spinDecay(mu, h float64) float64 {
	return mu * testPatchRadius * StandardGravity * h / (0.4 * ballRadius * ballRadius)
}

// testPatchRadius is the torsional friction tests' Config.TorsionalPatchRadius, m.
const testPatchRadius = 0.01

// torsionConfig returns DefaultConfig with torsional friction on, at testPatchRadius.
func torsionConfig() Config {
	cfg := DefaultConfig()
	cfg.TorsionalPatchRadius = testPatchRadius
	return cfg
}

// A ball spinning on the floor about the vertical like a turntable, which point contacts cannot
// slow, slows at the constant rate μ·a·m·g / I of a patch of radius a (from its second step, the
// first step's point having no normal impulse of its own yet), stops without turning back, and
// then sleeps. Without a patch (TorsionalPatchRadius 0, the paper's point contact) it spins on.
func TestTorsionalFrictionStopsSpinningBall(t *testing.T) {
	const mu, w0 = 0.5, 10.0
	h := bounceStep
	for _, radius := range []float64{0, testPatchRadius} {
		cfg := torsionConfig()
		cfg.TorsionalPatchRadius = radius
		app := newTestApp(t, h, cfg)
		spawnPlane(t, app.World, mgl64.Vec3{0, 0, 1}, mu, 0)
		ball := spawnSpinningBall(t, app.World, mgl64.Vec3{0, 0, ballRadius}, mgl64.Vec3{0, 0, w0}, mu)
		decay := 0.0
		if radius > 0 {
			decay = spinDecay(mu, h)
		}
		const steps = 120 // 2 s; the spin stops after w0/decay ≈ 49 steps
		for i := 1; i <= steps; i++ {
			stepN(t, app, 1)
			b := bodyOf(t, app.World, ball)
			want := max(w0-float64(i-1)*decay, 0)
			if got := b.AngularVelocity; math.Abs(got[2]-want) > 1e-6*w0 || math.Hypot(got[0], got[1]) > 1e-9 {
				t.Fatalf("patch %v m, step %d: ω = %v, want (0, 0, %.6f)", radius, i, got, want)
			}
			if b.LinearVelocity.Len() > 1e-9 || math.Abs(b.Position[2]-ballRadius) > 1e-9 {
				t.Fatalf("patch %v m, step %d: the spinning ball moved: x %v, v %v", radius, i, b.Position, b.LinearVelocity)
			}
		}
		if b := bodyOf(t, app.World, ball); (radius > 0) != b.Sleeping {
			t.Errorf("patch %v m: after 2 s the ball sleeps: %v (ω %v)", radius, b.Sleeping, b.AngularVelocity)
		}
	}
}

// A ball resting on the axis of a kinematic turntable is spun up by torsional friction at the
// same constant rate to the table's ω, and then turns with it: the friction acts on the relative
// spin, and never more than stops it.
func TestTorsionalFrictionSpinsBallUpOnTurntable(t *testing.T) {
	const mu, omega = 0.5, 3.0
	h := kinematicStep
	app := newTestApp(t, h, torsionConfig())
	const top = 0.1
	spawnPlatform(t, app.World, mgl64.Vec3{3, 3, top}, mgl64.Vec3{}, mgl64.Vec3{}, mgl64.Vec3{0, 0, omega}, mu)
	ball := spawnSpinningBall(t, app.World, mgl64.Vec3{0, 0, top + ballRadius}, mgl64.Vec3{}, mu)
	decay := spinDecay(mu, h)
	for i := 1; i <= 60; i++ {
		stepN(t, app, 1)
		b := bodyOf(t, app.World, ball)
		want := min(float64(i-1)*decay, omega)
		if got := b.AngularVelocity; math.Abs(got[2]-want) > 1e-6*omega || math.Hypot(got[0], got[1]) > 1e-9 {
			t.Fatalf("step %d: ω = %v, want (0, 0, %.6f)", i, got, want)
		}
		if b.LinearVelocity.Len() > 1e-9 {
			t.Fatalf("step %d: the ball on the axis drifts at %v", i, b.LinearVelocity)
		}
	}
}

// A resting tower's spins are the solve's round-off, far below what torsional friction acts on:
// a tower of 10 cubes standing for 3 s, sleeping off, moves bit for bit as without it. (Stopping
// such spins fed the round-off back into every step's problem, and a 100-cube tower twisted until
// its solves were cut short.)
func TestTorsionalFrictionLeavesARestingTowerAlone(t *testing.T) {
	run := func(radius float64) []RigidBody {
		cfg := DefaultConfig()
		cfg.TorsionalPatchRadius, cfg.SleepTime = radius, 0
		app := newTestApp(t, 0.01, cfg)
		spawnPlane(t, app.World, mgl64.Vec3{0, 0, 1}, 0.8, 0)
		var cubes []ecs.Entity
		for i := 0; i < 10; i++ {
			cubes = append(cubes, spawnCube(t, app.World, mgl64.Vec3{0, 0, 0.5 + float64(i)}, mgl64.QuatIdent(), 0.8))
		}
		stepN(t, app, 300)
		var out []RigidBody
		for _, e := range cubes {
			out = append(out, bodyOf(t, app.World, e))
		}
		return out
	}
	without, with := run(0), run(testPatchRadius)
	for i := range with {
		a, b := with[i], without[i]
		if a.Position != b.Position || a.Orientation != b.Orientation || a.LinearVelocity != b.LinearVelocity || a.AngularVelocity != b.AngularVelocity {
			t.Errorf("cube %d: with torsional friction at %v, %v; without at %v, %v", i, a.Position, a.Orientation, b.Position, b.Orientation)
		}
	}
}
