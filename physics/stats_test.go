package physics

import (
	"math"
	"testing"
	"time"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/stagger-physics/stagger/ecs"
)

// checkErrorStats asserts a step's MaxRelErr and MaxResidual are finite and ≥ 0, 0 when no island
// was solved, and MaxRelErr ≤ ε when every solve converged.
func checkErrorStats(t *testing.T, step int, st StepStats, eps float64) {
	t.Helper()
	for name, v := range map[string]float64{"MaxRelErr": st.MaxRelErr, "MaxResidual": st.MaxResidual} {
		if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
			t.Fatalf("step %d: %s = %v, want finite and ≥ 0", step, name, v)
		}
		if st.Islands == 0 && v != 0 {
			t.Fatalf("step %d: no island solved but %s = %v", step, name, v)
		}
	}
	if st.Islands > 0 && st.Converged == st.Islands && st.MaxRelErr > eps {
		t.Fatalf("step %d: all %d solves converged but MaxRelErr %.3g > ε %.3g", step, st.Islands, st.MaxRelErr, eps)
	}
}

// TestStepStatsErrorsOfASlidingCube: a cube launched along the ground at 3 m/s slides to rest and
// falls asleep; every step's worst rel_err and residual are finite, ≥ 0, within ε when all solves
// converged, and 0 once the cube sleeps (contacts, but no island solved). A cube falling freely,
// with no contact at all, reports 0 too.
func TestStepStatsErrorsOfASlidingCube(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Solver.Epsilon = 1e-4
	app := newTestApp(t, 0.01, cfg)
	spawnGround(t, app.World, mgl64.Vec3{0, 0, 1}, 0.5)
	e := spawnCube(t, app.World, mgl64.Vec3{0, 0, 0.5}, mgl64.QuatIdent(), 0.5)
	b, _ := ecs.Get[RigidBody](app.World, e)
	b.LinearVelocity = mgl64.Vec3{3, 0, 0}
	sim, _ := SimulationOf(app.World)
	solved, asleep := 0, 0
	for step := 0; step < 200; step++ {
		if err := app.StepFixed(); err != nil {
			t.Fatal(err)
		}
		st := sim.Stats()
		checkErrorStats(t, step, st, cfg.Solver.Epsilon)
		solved += st.Islands
		if st.Contacts > 0 && st.Islands == 0 {
			asleep++
		}
	}
	if solved < 50 || asleep == 0 {
		t.Fatalf("%d island solves and %d steps asleep; the test needs a slide and a sleep", solved, asleep)
	}

	free := newTestApp(t, 0.01, cfg)
	spawnCube(t, free.World, mgl64.Vec3{0, 0, 10}, mgl64.QuatIdent(), 0.5)
	fsim, _ := SimulationOf(free.World)
	for step := 0; step < 3; step++ {
		if err := free.StepFixed(); err != nil {
			t.Fatal(err)
		}
		if st := fsim.Stats(); st.Contacts != 0 || st.MaxRelErr != 0 || st.MaxResidual != 0 {
			t.Fatalf("free fall step %d: %+v, want no contact and zero errors", step, st)
		}
	}
}

// TestStepPhasesPartitionTheStep: a cube dropped onto a resting one, both on the ground, so that
// every phase has work in the steps checked (a narrow phase, an island, a solve). Every phase's
// time is ≥ 0, together they fit in Elapsed (they are consecutive and disjoint), and the contact
// stage's solve is measured whenever an island was solved.
func TestStepPhasesPartitionTheStep(t *testing.T) {
	cfg := DefaultConfig()
	cfg.SleepTime = 0 // every step solves the island
	app := newTestApp(t, 0.01, cfg)
	spawnGround(t, app.World, mgl64.Vec3{0, 0, 1}, 0.6)
	spawnCube(t, app.World, mgl64.Vec3{0, 0, 0.5}, mgl64.QuatIdent(), 0.6)
	spawnCube(t, app.World, mgl64.Vec3{0.2, 0, 2}, mgl64.QuatRotate(0.3, mgl64.Vec3{1, 1, 0}.Normalize()), 0.6)
	sim, _ := SimulationOf(app.World)
	solved := 0
	for step := 0; step < 100; step++ {
		if err := app.StepFixed(); err != nil {
			t.Fatal(err)
		}
		st := sim.Stats()
		ph := st.Phases
		for name, d := range map[string]time.Duration{
			"Gather": ph.Gather, "BroadPhase": ph.BroadPhase, "NarrowPhase": ph.NarrowPhase,
			"Islands": ph.Islands, "Solve": ph.Solve, "Integrate": ph.Integrate,
		} {
			if d < 0 {
				t.Fatalf("step %d: %s = %v, want ≥ 0", step, name, d)
			}
		}
		if ph.Total() > st.Elapsed {
			t.Fatalf("step %d: the phases sum to %v, more than the step's %v: %+v", step, ph.Total(), st.Elapsed, ph)
		}
		if st.Islands > 0 {
			solved++
			if ph.Solve <= 0 {
				t.Fatalf("step %d: %d islands solved in Solve = %v", step, st.Islands, ph.Solve)
			}
		}
	}
	if solved < 50 {
		t.Fatalf("only %d steps solved an island; the test needs contact", solved)
	}
}
