package physics

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/stagger-physics/stagger/ecs"
)

// overlapScene spawns, on the ground, two unit cubes 0.2 m into each other along x and, 3 m away,
// a cube resting alone, with cfg; it returns the app and the three cubes.
func overlapScene(t *testing.T, cfg Config) (*ecs.App, [3]ecs.Entity) {
	t.Helper()
	app := newTestApp(t, 0.01, cfg)
	spawnGround(t, app.World, mgl64.Vec3{0, 0, 1}, 0.6)
	var cubes [3]ecs.Entity
	cubes[0] = spawnCube(t, app.World, mgl64.Vec3{-0.4, 0, 0.5}, mgl64.QuatIdent(), 0.6)
	cubes[1] = spawnCube(t, app.World, mgl64.Vec3{0.4, 0, 0.5}, mgl64.QuatIdent(), 0.6)
	cubes[2] = spawnCube(t, app.World, mgl64.Vec3{3, 0, 0.5}, mgl64.QuatIdent(), 0.6)
	return app, cubes
}

// TestSeparationPushesOverlapsApart checks the separation of overlaps (docs/architecture.md,
// Separation): two cubes spawned 0.2 m into each other come apart within 1 s, never faster than
// 2 m/s, without any body gaining kinetic energy, and the cube that overlapped nothing steps
// exactly as it does with the separation off.
func TestSeparationPushesOverlapsApart(t *testing.T) {
	cfg := DefaultConfig()
	app, cubes := overlapScene(t, cfg)
	off := DefaultConfig()
	off.SeparationSpeed = 0
	ref, refCubes := overlapScene(t, off)
	h := 0.01
	prev := [2]mgl64.Vec3{bodyOf(t, app.World, cubes[0]).Position, bodyOf(t, app.World, cubes[1]).Position}
	for step := 0; step < 100; step++ {
		if err := app.StepFixed(); err != nil {
			t.Fatal(err)
		}
		if err := ref.StepFixed(); err != nil {
			t.Fatal(err)
		}
		for i := range 2 {
			b := bodyOf(t, app.World, cubes[i])
			// The speed of the correction: how far the body moved in the step, over h.
			if speed := b.Position.Sub(prev[i]).Len() / h; speed > 2 {
				t.Fatalf("step %d: cube %d moved at %.3g m/s", step, i, speed)
			}
			prev[i] = b.Position
			// Velocities come from the solve alone: two cubes at rest on the ground gain none.
			if ke := 0.5*b.Mass*b.LinearVelocity.LenSqr() + 0.5*b.AngularVelocity.Dot(b.Inertia.Mul3x1(b.AngularVelocity)); ke > 1e-9 {
				t.Fatalf("step %d: cube %d has kinetic energy %.3g J", step, i, ke)
			}
		}
	}
	a, b := bodyOf(t, app.World, cubes[0]), bodyOf(t, app.World, cubes[1])
	if d := b.Position[0] - a.Position[0]; d < 1-2*cfg.SeparationSlop {
		t.Errorf("after 1 s the cubes' centres are %.4f m apart, want ≥ %.4f (no overlap beyond the slop)", d, 1-2*cfg.SeparationSlop)
	}
	for i, c := range []RigidBody{a, b} {
		if z := c.Position[2]; math.Abs(z-0.5) > cfg.SeparationSlop {
			t.Errorf("cube %d ended at z = %.6f, want 0.5 (pushed apart sideways, not lifted or sunk)", i, z)
		}
	}
	// The lone cube's island has no overlap: it must step exactly as with the separation off.
	got, want := bodyOf(t, app.World, cubes[2]), bodyOf(t, ref.World, refCubes[2])
	if got.Position != want.Position || got.Orientation != want.Orientation || got.LinearVelocity != want.LinearVelocity {
		t.Errorf("the cube that overlapped nothing ended at %v, %v; without separation at %v, %v", got.Position, got.LinearVelocity, want.Position, want.LinearVelocity)
	}
	sim, _ := SimulationOf(app.World)
	if st := sim.Stats(); st.Separated != 0 {
		t.Errorf("still separating after 1 s: %+v", st)
	}
}

// TestSeparationOff checks that SeparationSpeed 0 is the paper's choice: the velocity solve keeps
// the overlap from growing and never opens it.
func TestSeparationOff(t *testing.T) {
	cfg := DefaultConfig()
	cfg.SeparationSpeed = 0
	app, cubes := overlapScene(t, cfg)
	for step := 0; step < 100; step++ {
		if err := app.StepFixed(); err != nil {
			t.Fatal(err)
		}
	}
	a, b := bodyOf(t, app.World, cubes[0]), bodyOf(t, app.World, cubes[1])
	if d := b.Position[0] - a.Position[0]; math.Abs(d-0.8) > 1e-6 {
		t.Errorf("without separation the cubes' centres are %.6f m apart, want the 0.8 they started at", d)
	}
}
