package physics

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/stagger-physics/stagger/collide"
	"github.com/stagger-physics/stagger/ecs"
)

// dropOnCube spawns the ground, a cube resting on it and a second cube 1 m above the first, with
// the given colliders' layers and masks; it steps 1.5 s (the top cube lands within 0.5 s) and
// returns the resting cube's and the dropped cube's final heights.
func dropOnCube(t *testing.T, setup func(sim *Simulation, lower, upper *Collider)) (float64, float64) {
	t.Helper()
	app := newTestApp(t, 0.01, DefaultConfig())
	spawnGround(t, app.World, mgl64.Vec3{0, 0, 1}, 0.8)
	lower := spawnCube(t, app.World, mgl64.Vec3{0, 0, 0.5}, mgl64.QuatIdent(), 0.8)
	upper := spawnCube(t, app.World, mgl64.Vec3{0, 0, 2.5}, mgl64.QuatIdent(), 0.8)
	sim, _ := SimulationOf(app.World)
	cl, _ := ecs.Get[Collider](app.World, lower)
	cu, _ := ecs.Get[Collider](app.World, upper)
	setup(sim, cl, cu)
	for step := 0; step < 150; step++ {
		if err := app.StepFixed(); err != nil {
			t.Fatal(err)
		}
	}
	return bodyOf(t, app.World, lower).Position[2], bodyOf(t, app.World, upper).Position[2]
}

// TestLayersThatDoNotMeetPassThrough drops a cube onto another: with the default layers it comes
// to rest on top (z = 1.5); on layers whose masks exclude each other (but both collide with the
// ground on the default layer) it falls through the lower cube to the ground (z = 0.5), and the
// lower cube does not move.
func TestLayersThatDoNotMeetPassThrough(t *testing.T) {
	_, top := dropOnCube(t, func(*Simulation, *Collider, *Collider) {})
	if math.Abs(top-1.5) > 1e-3 {
		t.Fatalf("with the default layers the dropped cube rests at z = %.4f, want 1.5", top)
	}
	low, top := dropOnCube(t, func(_ *Simulation, lower, upper *Collider) {
		lower.Layer, lower.Mask = 2, DefaultLayer|2 // sees the ground and its own layer
		upper.Layer, upper.Mask = 4, DefaultLayer|4
	})
	if math.Abs(top-0.5) > 1e-3 || math.Abs(low-0.5) > 1e-6 {
		t.Fatalf("cubes on layers 2 and 4: the dropped cube ends at z = %.4f (want 0.5, through the other), the resting one at %.6f (want 0.5)", top, low)
	}
	// One-sided: the lower cube would collide with layer 4, but the upper cube's mask leaves out
	// layer 2, so the pair is not tested either.
	_, top = dropOnCube(t, func(_ *Simulation, lower, upper *Collider) {
		lower.Layer = 2
		upper.Layer, upper.Mask = 4, DefaultLayer
	})
	if math.Abs(top-0.5) > 1e-3 {
		t.Fatalf("a mask that leaves out the other's layer: the dropped cube ends at z = %.4f, want 0.5", top)
	}
}

// TestLayersChangedByTheGame: layers changed while the world runs take effect at the next step,
// in both directions. A cube dropped on layers that exclude the cube below lands on it when the
// game restores the default layers in mid-fall; a cube asleep on another wakes and falls through
// it when the game moves the two to such layers.
func TestLayersChangedByTheGame(t *testing.T) {
	app := newTestApp(t, 0.01, DefaultConfig())
	spawnGround(t, app.World, mgl64.Vec3{0, 0, 1}, 0.8)
	lower := spawnCube(t, app.World, mgl64.Vec3{0, 0, 0.5}, mgl64.QuatIdent(), 0.8)
	upper := spawnCube(t, app.World, mgl64.Vec3{0, 0, 2.5}, mgl64.QuatIdent(), 0.8)
	cl, _ := ecs.Get[Collider](app.World, lower)
	cu, _ := ecs.Get[Collider](app.World, upper)
	cl.Layer, cl.Mask = 2, DefaultLayer|2
	cu.Layer, cu.Mask = 4, DefaultLayer|4
	run := func(steps int) {
		for range steps {
			if err := app.StepFixed(); err != nil {
				t.Fatal(err)
			}
		}
	}
	run(10) // 0.1 s: the upper cube has fallen 5 cm
	if z := bodyOf(t, app.World, upper).Position[2]; z < 2.4 {
		t.Fatalf("after 0.1 s the upper cube is at z = %.3f, want still above 2.4", z)
	}
	cl.Layer, cl.Mask, cu.Layer, cu.Mask = 0, 0, 0, 0
	run(140)
	if z := bodyOf(t, app.World, upper).Position[2]; math.Abs(z-1.5) > 1e-3 {
		t.Fatalf("default layers restored in mid-fall: the cube rests at z = %.4f, want 1.5 on the other", z)
	}
	cl.Layer = 2
	cu.Layer, cu.Mask = 4, DefaultLayer // sees the ground only
	run(100)
	if z := bodyOf(t, app.World, upper).Position[2]; math.Abs(z-0.5) > 1e-3 {
		t.Fatalf("moved to layer 4 while resting on the other cube: it ends at z = %.4f, want 0.5 on the ground", z)
	}
	if z := bodyOf(t, app.World, lower).Position[2]; math.Abs(z-0.5) > 1e-6 {
		t.Fatalf("the lower cube ends at z = %.6f, want 0.5", z)
	}
}

// TestContactFilterDropsPairs: a contact filter that refuses every pair lets both cubes fall
// through the ground, called with the lower entity index first; one that refuses only the two
// cubes' pair lets the dropped cube fall through the resting one onto the ground.
func TestContactFilterDropsPairs(t *testing.T) {
	calls := 0
	low, top := dropOnCube(t, func(sim *Simulation, _, _ *Collider) {
		sim.SetContactFilter(func(a, b ecs.Entity) bool {
			calls++
			if compareEntities(a, b) >= 0 {
				t.Errorf("filter called with %v, %v: want the lower index first", a, b)
			}
			return false
		})
	})
	// Free fall for 1.5 s from 0.5 m and 2.5 m ends about 11 m below the ground.
	if low > -5 || top > -5 || calls == 0 {
		t.Fatalf("a filter refusing every pair: the cubes end at z = %.3f and %.3f (want in free fall below the ground), %d calls", low, top, calls)
	}
	low, top = dropOnCube(t, func(sim *Simulation, _, _ *Collider) {
		sim.SetContactFilter(func(a, b ecs.Entity) bool {
			ca, _ := ecs.Get[Collider](sim.world, a)
			cb, _ := ecs.Get[Collider](sim.world, b)
			_, groundA := ca.Shape.(*collide.HalfSpace)
			_, groundB := cb.Shape.(*collide.HalfSpace)
			return groundA || groundB
		})
	})
	if math.Abs(top-0.5) > 1e-3 || math.Abs(low-0.5) > 1e-6 {
		t.Fatalf("a filter refusing the cubes' pair: the dropped cube ends at z = %.4f (want 0.5), the resting one at %.6f (want 0.5)", top, low)
	}
}

// TestKindChangedByTheGame: a cube spawned static (or kinematic) 1.5 m above the ground and made
// dynamic by the game falls and lands on the static ground (the broad phase must stop treating
// it as static, or its pair with the ground is never reported and it falls through).
func TestKindChangedByTheGame(t *testing.T) {
	for _, kind := range []BodyKind{Static, Kinematic} {
		app := newTestApp(t, 0.01, DefaultConfig())
		spawnGround(t, app.World, mgl64.Vec3{0, 0, 1}, 0.8)
		box, err := collide.NewBox(mgl64.Vec3{0.5, 0.5, 0.5})
		if err != nil {
			t.Fatal(err)
		}
		b := NewStatic(mgl64.Vec3{0, 0, 2})
		b.Kind, b.Density = kind, 100
		e, err := Spawn(app.World, b, Collider{Shape: box})
		if err != nil {
			t.Fatal(err)
		}
		if err := app.StepFixed(); err != nil {
			t.Fatal(err)
		}
		rb, _ := ecs.Get[RigidBody](app.World, e)
		rb.Kind = Dynamic
		for range 150 {
			if err := app.StepFixed(); err != nil {
				t.Fatal(err)
			}
		}
		if z := bodyOf(t, app.World, e).Position[2]; math.Abs(z-0.5) > 1e-3 {
			t.Errorf("a %v cube made dynamic ends at z = %.4f, want 0.5 on the ground", kind, z)
		}
	}
}
