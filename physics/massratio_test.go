package physics

import (
	"math"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/stagger-physics/stagger/collide"
	"github.com/stagger-physics/stagger/ecs"
)

// stackOfThree spawns three unit cubes of the given masses on the ground, bottom first, and a
// 1 kg cube 5 m away dropped from 0.2 m.
func stackOfThree(t *testing.T, masses [3]float64) (*ecs.App, [3]ecs.Entity, ecs.Entity) {
	t.Helper()
	app := newTestApp(t, 0.01, DefaultConfig())
	spawnGround(t, app.World, mgl64.Vec3{0, 0, 1}, 0.8)
	cube, err := collide.NewBox(mgl64.Vec3{0.5, 0.5, 0.5})
	if err != nil {
		t.Fatal(err)
	}
	var stack [3]ecs.Entity
	for i, m := range masses {
		b := NewDynamic(mgl64.Vec3{0, 0, 0.5 + float64(i)}, 1)
		b.Mass = m
		if stack[i], err = Spawn(app.World, b, Collider{Shape: cube}); err != nil {
			t.Fatal(err)
		}
	}
	return app, stack, spawnCube(t, app.World, mgl64.Vec3{5, 0, 0.7}, mgl64.QuatIdent(), 0.8)
}

// Stacks of three cubes with a mass ratio up to MaxMassRatio hold, whichever cube is the heavy one:
// no cube moves by 1 mm in 5 s.
func TestMassRatioUpToTheLimitHolds(t *testing.T) {
	for _, masses := range [][3]float64{{1, MaxMassRatio, 1}, {MaxMassRatio, 1, 1}, {1, 1, MaxMassRatio}} {
		app, stack, _ := stackOfThree(t, masses)
		for n := 0; n < 500; n++ {
			if err := app.StepFixed(); err != nil {
				t.Fatal(err)
			}
		}
		for i, e := range stack {
			if d := bodyOf(t, app.World, e).Position.Sub(mgl64.Vec3{0, 0, 0.5 + float64(i)}).Len(); d > 1e-3 {
				t.Errorf("masses %v: cube %d moved %.3g m", masses, i, d)
			}
		}
		sim, _ := SimulationOf(app.World)
		if sim.Stats().Failed != 0 {
			t.Errorf("masses %v: %d bodies held", masses, sim.Stats().Failed)
		}
	}
}

// Beyond MaxMassRatio (a light box under one 1e8 times heavier fell through it, and 1e8 in a
// light–heavy–light stack threw a box to 33 km), the stack is held and reported by entity, naming
// the limit, while the world steps on: the cube elsewhere lands; nothing is thrown or sinks.
func TestMassRatioBeyondTheLimitIsHeldAndReported(t *testing.T) {
	for _, r := range []float64{1e8, 1e10} {
		for _, masses := range [][3]float64{{1, r, 1}, {r, 1, 1}, {1, 1, r}} {
			app, stack, other := stackOfThree(t, masses)
			sim, _ := SimulationOf(app.World)
			for n := 0; n < 200; n++ {
				if err := app.StepFixed(); err != nil {
					t.Fatalf("masses %v, step %d: %v; want the world to step on", masses, n, err)
				}
				failed := sim.FailedBodies()
				if len(failed) != 3 {
					t.Fatalf("masses %v, step %d: %d bodies held, want the stack's 3", masses, n, len(failed))
				}
				msg := failed[0].Err.Error()
				if !strings.Contains(msg, "MaxMassRatio") || !strings.Contains(msg, stack[1].String()) {
					t.Fatalf("masses %v: %q; want the limit and the bodies named", masses, msg)
				}
			}
			for i, e := range stack {
				if d := bodyOf(t, app.World, e).Position.Sub(mgl64.Vec3{0, 0, 0.5 + float64(i)}).Len(); d > 1e-3 {
					t.Errorf("masses %v: cube %d moved %.3g m", masses, i, d)
				}
			}
			if b := bodyOf(t, app.World, other); math.Abs(b.Position[2]-0.5) > 1e-3 {
				t.Errorf("masses %v: the cube elsewhere is at z %.4f, want resting at 0.5", masses, b.Position[2])
			}
		}
	}
}
