package physics

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/stagger-physics/stagger/collide"
	"github.com/stagger-physics/stagger/ecs"
	"github.com/stagger-physics/stagger/solver"
)

// An island whose contact solve refuses its problem (here a mass matrix made indefinite behind
// the limits' back, as a body that slipped past them would give) no longer stops the world: its
// body is held where it was and reported by entity, through FailedBodies, StepStats.Failed and a
// SolveFailedEvent whose error names it and wraps the solver's; a cube elsewhere falls and lands
// on the ground as if nothing had happened, with 1 and 4 workers alike.
func TestFailedIslandIsHeldAndTheWorldStepsOn(t *testing.T) {
	const heavy = 8.0 // kg: the cube whose island the hook breaks
	testProblemHook = func(p *solver.Problem) {
		for b := 0; b < p.NumBlocks(); b++ {
			if inv := p.InvMass(b); inv[0] == 1/heavy {
				inv[0] = -1
			}
		}
	}
	defer func() { testProblemHook = nil }()
	var hashes []mgl64.Vec3
	for _, workers := range []int{1, 4} {
		cfg := DefaultConfig()
		cfg.Workers = workers
		app := newTestApp(t, 0.01, cfg)
		spawnGround(t, app.World, mgl64.Vec3{0, 0, 1}, 0.8)
		healthy := spawnCube(t, app.World, mgl64.Vec3{5, 0, 0.7}, mgl64.QuatIdent(), 0.8)
		cube, err := collide.NewBox(mgl64.Vec3{0.5, 0.5, 0.5})
		if err != nil {
			t.Fatal(err)
		}
		bad, err := Spawn(app.World, NewDynamic(mgl64.Vec3{0, 0, 0.5}, heavy), Collider{Shape: cube})
		if err != nil {
			t.Fatal(err)
		}
		start := bodyOf(t, app.World, bad)
		sim, _ := SimulationOf(app.World)
		var r ecs.EventReader[SolveFailedEvent]
		for n := 0; n < 100; n++ {
			if err := app.StepFixed(); err != nil {
				t.Fatalf("workers %d, step %d: %v; want the world to step on", workers, n, err)
			}
			failed := sim.FailedBodies()
			if len(failed) != 1 || failed[0].Entity != bad || sim.Stats().Failed != 1 {
				t.Fatalf("workers %d, step %d: failed bodies %v (Stats().Failed %d); want %v alone", workers, n, failed, sim.Stats().Failed, bad)
			}
			var in *solver.InputError
			if e := failed[0].Err; !errors.As(e, &in) || in.Field != "InvMass" || !strings.Contains(e.Error(), bad.String()) {
				t.Fatalf("failure %v: want the solver's InvMass refusal, naming %v", e, bad)
			}
			if got := bodyOf(t, app.World, bad); got.Position != start.Position || got.Orientation != start.Orientation {
				t.Fatalf("workers %d, step %d: held cube moved from %v to %v", workers, n, start.Position, got.Position)
			}
			ev, ok := ecs.GetResource[ecs.Events[SolveFailedEvent]](app.World)
			if !ok {
				t.Fatal("no ecs.Events[SolveFailedEvent] resource")
			}
			var got []SolveFailedEvent
			r.Read(ev, func(e SolveFailedEvent) { got = append(got, e) })
			if len(got) != 1 || got[0].Entity != bad || got[0].Tick != sim.Stats().Tick {
				t.Fatalf("workers %d, step %d: events %v; want one for %v at tick %d", workers, n, got, bad, sim.Stats().Tick)
			}
		}
		// The healthy cube fell 0.2 m and rests on the ground.
		b := bodyOf(t, app.World, healthy)
		if math.Abs(b.Position[2]-0.5) > 1e-3 || b.LinearVelocity.Len() > 1e-6 {
			t.Errorf("workers %d: healthy cube at z %.6f, speed %.3g; want resting at 0.5", workers, b.Position[2], b.LinearVelocity.Len())
		}
		hashes = append(hashes, b.Position)
	}
	if hashes[0] != hashes[1] {
		t.Errorf("workers 1 and 4 differ: %v vs %v", hashes[0], hashes[1])
	}
}
