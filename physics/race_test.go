package physics

import (
	"slices"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/stagger-physics/stagger/collide"
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

// TestSensorsAndLayersParallelRace is TestParallelStepRace with a static sensor slab through the
// lower half of every pile, the upper cube of every other pile on a layer that does not meet the
// lower cubes, and a contact filter: 1 and 4 workers must give the same states and the same
// sensor events every step (sensor pairs run in the parallel narrow phase too).
func TestSensorsAndLayersParallelRace(t *testing.T) {
	type run struct {
		es     []ecs.Entity
		app    *ecs.App
		events []SensorEvent
		reader ecs.EventReader[SensorEvent]
	}
	start := func(workers int) *run {
		cfg := DefaultConfig()
		cfg.Workers = workers
		app := newTestApp(t, 0.01, cfg)
		es := spawnPiles(t, app.World)
		for i := 1; i < len(es); i += 4 {
			c, _ := ecs.Get[Collider](app.World, es[i])
			c.Layer, c.Mask = 2, DefaultLayer|2
			lower, _ := ecs.Get[Collider](app.World, es[i-1])
			lower.Mask = DefaultLayer
		}
		slab, err := collide.NewBox(mgl64.Vec3{6, 6, 0.2})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Spawn(app.World, NewStatic(mgl64.Vec3{4.5, 4.5, 0.6}), Collider{Shape: slab, Sensor: true}); err != nil {
			t.Fatal(err)
		}
		sim, _ := SimulationOf(app.World)
		sim.SetContactFilter(func(a, b ecs.Entity) bool { return a.Index()+b.Index() != 7 })
		return &run{es: es, app: app}
	}
	one, four := start(1), start(4)
	for step := 0; step < 30; step++ {
		for _, r := range []*run{one, four} {
			if err := r.app.StepFixed(); err != nil {
				t.Fatal(err)
			}
			out, _ := ecs.GetResource[ecs.Events[SensorEvent]](r.app.World)
			r.reader.Read(out, func(ev SensorEvent) { r.events = append(r.events, ev) })
		}
		for i := range one.es {
			a, b := bodyOf(t, one.app.World, one.es[i]), bodyOf(t, four.app.World, four.es[i])
			if a.Position != b.Position || a.Orientation != b.Orientation || a.LinearVelocity != b.LinearVelocity || a.AngularVelocity != b.AngularVelocity {
				t.Fatalf("step %d, cube %d: 1 worker %v, 4 workers %v", step, i, a.Position, b.Position)
			}
		}
		if !slices.Equal(one.events, four.events) {
			t.Fatalf("step %d: sensor events differ: 1 worker %v, 4 workers %v", step, one.events, four.events)
		}
	}
	if len(one.events) < 16 {
		t.Fatalf("only %d sensor events: the slab should see every pile", len(one.events))
	}
}
