package physics

import (
	"testing"

	"github.com/stagger-physics/stagger/ecs"
)

// TestParallelStepRace steps sixteen small piles (sixteen islands) on four workers, so that the
// worker pool solves islands and runs the narrow phase concurrently, and checks the state against
// one worker after every step. `make test` runs it under the race detector (the race target); it is
// short enough for that, where TestWorkersGiveIdenticalResults is not.
func TestParallelStepRace(t *testing.T) {
	type run struct {
		es  []ecs.Entity
		app *ecs.App
	}
	start := func(workers int) run {
		cfg := DefaultConfig()
		cfg.Workers = workers
		app := newTestApp(t, 0.01, cfg)
		return run{spawnPiles(t, app.World), app}
	}
	one, four := start(1), start(4)
	for step := 0; step < 20; step++ {
		for _, r := range []run{one, four} {
			if err := r.app.StepFixed(); err != nil {
				t.Fatal(err)
			}
		}
		for i := range one.es {
			a, b := bodyOf(t, one.app.World, one.es[i]), bodyOf(t, four.app.World, four.es[i])
			if a.Position != b.Position || a.Orientation != b.Orientation || a.LinearVelocity != b.LinearVelocity || a.AngularVelocity != b.AngularVelocity {
				t.Fatalf("step %d, cube %d: 1 worker %v, 4 workers %v", step, i, a.Position, b.Position)
			}
		}
	}
}
