package physics

import (
	"testing"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/stagger-physics/stagger/collide"
)

// BenchmarkStepFreeBodies steps 1,000 spinning boxes in free flight (gather, predict with the
// gyroscopic midpoint solve, advance, scatter). Allocations must be 0 once warm.
func BenchmarkStepFreeBodies(b *testing.B) {
	app := newTestApp(b, 0.01, DefaultConfig())
	box, err := collide.NewBox(mgl64.Vec3{0.5, 0.3, 0.1})
	if err != nil {
		b.Fatal(err)
	}
	const n = 1000
	for i := 0; i < n; i++ {
		body := NewDynamic(mgl64.Vec3{2 * float64(i%32), 2 * float64(i/32), 10}, 500) // 2 m apart: no contact
		body.AngularVelocity = mgl64.Vec3{0.1, 5, 0.2 * float64(i%7)}
		if _, err := Spawn(app.World, body, Collider{Shape: box}); err != nil {
			b.Fatal(err)
		}
	}
	if err := app.StepFixed(); err != nil { // warm
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := app.StepFixed(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/1e6/float64(b.N), "ms/step")
	b.ReportMetric(n, "bodies")
}

// BenchmarkStepStack steps a resting tower of 20 unit cubes on the ground: collision, one island
// of 80 contacts warm-started by feature id, the Staggered Projections solve, advance. It reports
// contacts and staggered iterations per step; allocations must be 0 once warm. Sleeping is off, so
// every step does the full work; BenchmarkStepStackAsleep measures the same tower asleep.
func BenchmarkStepStack(b *testing.B) {
	cfg := DefaultConfig()
	cfg.SleepTime = 0
	benchStack(b, cfg)
}

// BenchmarkStepStackAsleep is BenchmarkStepStack with sleeping on: the tower sleeps after 0.5 s,
// and a step is the broad phase, kept manifolds and bookkeeping.
func BenchmarkStepStackAsleep(b *testing.B) { benchStack(b, DefaultConfig()) }

func benchStack(b *testing.B, cfg Config) {
	app := newTestApp(b, 0.01, cfg)
	spawnGround(b, app.World, mgl64.Vec3{0, 0, 1}, 0.8)
	for i := 0; i < 20; i++ {
		spawnCube(b, app.World, mgl64.Vec3{0, 0, 0.5 + float64(i)}, mgl64.QuatIdent(), 0.8)
	}
	for i := 0; i < 100; i++ { // settle, warm the buffers (and fall asleep, if sleeping is on)
		if err := app.StepFixed(); err != nil {
			b.Fatal(err)
		}
	}
	sim, _ := SimulationOf(app.World)
	iters := 0
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := app.StepFixed(); err != nil {
			b.Fatal(err)
		}
		iters += sim.Stats().Iterations
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/1e6/float64(b.N), "ms/step")
	b.ReportMetric(float64(sim.Stats().Contacts), "contacts")
	b.ReportMetric(float64(iters)/float64(b.N), "iters")
}

// BenchmarkStepPiles steps 16 separate piles of two cubes settling on the ground (many islands,
// solved on the worker pool), sleeping off. Allocations must be 0 once warm.
func BenchmarkStepPiles(b *testing.B) {
	cfg := DefaultConfig()
	cfg.SleepTime = 0
	app := newTestApp(b, 0.01, cfg)
	spawnPiles(b, app.World)
	for i := 0; i < 100; i++ {
		if err := app.StepFixed(); err != nil {
			b.Fatal(err)
		}
	}
	sim, _ := SimulationOf(app.World)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := app.StepFixed(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/1e6/float64(b.N), "ms/step")
	b.ReportMetric(float64(sim.Stats().Islands), "islands")
	b.ReportMetric(float64(sim.Stats().Contacts), "contacts")
}

// queryBenchWorld spawns 1,000 boxes in free flight over a ground, 2 m apart on a 32 × 32 grid,
// and steps once.
func queryBenchWorld(b *testing.B) *Simulation {
	app := newTestApp(b, 0.01, DefaultConfig())
	spawnGround(b, app.World, mgl64.Vec3{0, 0, 1}, 0.8)
	box, err := collide.NewBox(mgl64.Vec3{0.5, 0.3, 0.1})
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; i < 1000; i++ {
		body := NewDynamic(mgl64.Vec3{2 * float64(i%32), 2 * float64(i/32), 10}, 500)
		body.AngularVelocity = mgl64.Vec3{0.1, 5, 0.2 * float64(i%7)}
		if _, err := Spawn(app.World, body, Collider{Shape: box}); err != nil {
			b.Fatal(err)
		}
	}
	if err := app.StepFixed(); err != nil {
		b.Fatal(err)
	}
	sim, _ := SimulationOf(app.World)
	return sim
}

// BenchmarkCastRay casts rays down onto the 1,000 boxes of queryBenchWorld, each from a different
// point, with the queries already refreshed: the cost of one CastRay through the broad phase.
func BenchmarkCastRay(b *testing.B) {
	sim := queryBenchWorld(b)
	if err := sim.RefreshQueries(); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		o := mgl64.Vec3{float64(i%64) + 0.1, float64(i/64%64) + 0.1, 20}
		if _, _, err := sim.CastRay(o, mgl64.Vec3{0.01, 0, -1}, 100, QueryFilter{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRefreshQueries is the pass over the bodies that the first query after each step makes,
// on the 1,000 moving boxes of queryBenchWorld.
func BenchmarkRefreshQueries(b *testing.B) {
	sim := queryBenchWorld(b)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := sim.RefreshQueries(); err != nil {
			b.Fatal(err)
		}
	}
}
