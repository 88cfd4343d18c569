package physics

import (
	"math"
	"testing"
	"time"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/stagger-physics/stagger/ecs"
	"github.com/stagger-physics/stagger/solver"
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

// TestCutShortIslandsAreCounted bounds Staggered Projections at one subsequence with ε 1e-12 on a
// cube sliding down a 45° incline (μ 0.8), a single island that one subsequence cannot bring to
// that ε. Each step's CutShort, MaxRelErr and MaxErrRatio must be what the island's solver
// reported (its Stats, read from the worker's result), and with the default MaxIters and ε the
// same slide is never cut short.
func TestCutShortIslandsAreCounted(t *testing.T) {
	run := func(maxIters int, eps float64, check func(step int, st StepStats, rs *solver.Stats)) {
		cfg := DefaultConfig()
		cfg.Workers = 1 // one worker's result holds the island's solver statistics
		cfg.Solver.MaxIters, cfg.Solver.Epsilon = maxIters, eps
		theta, mu := 45*math.Pi/180, 0.8
		app := newTestApp(t, 0.01, cfg)
		n := mgl64.Vec3{-math.Sin(theta), 0, math.Cos(theta)}
		spawnGround(t, app.World, n, mu)
		spawnCube(t, app.World, n.Mul(0.5), mgl64.QuatRotate(-theta, mgl64.Vec3{0, 1, 0}), mu)
		sim, _ := SimulationOf(app.World)
		for step := 0; step < 50; step++ {
			if err := app.StepFixed(); err != nil {
				t.Fatal(err)
			}
			st := sim.Stats()
			if st.Islands != 1 || st.Fallbacks != 0 || st.BudgetCut != 0 {
				t.Fatalf("step %d: %+v, want one island solved, no fallback, no budget", step, st)
			}
			check(step, st, &sim.contact.workers[0].result.Stats)
		}
	}

	cut := 0
	run(1, 1e-12, func(step int, st StepStats, rs *solver.Stats) {
		wantCut := 0
		if !rs.Converged {
			wantCut = 1
		}
		if st.CutShort != wantCut || st.Converged+st.CutShort != st.Islands {
			t.Fatalf("step %d: CutShort %d, Converged %d; the solver's Converged is %v", step, st.CutShort, st.Converged, rs.Converged)
		}
		if st.Iterations != 1 || st.MaxRelErr != rs.RelErr || st.MaxErrRatio != rs.RelErr/1e-12 {
			t.Fatalf("step %d: %+v; the solver reported %d iterations, rel_err %v", step, st, rs.Iterations, rs.RelErr)
		}
		if st.CutShort > 0 && !(st.MaxErrRatio > 1) {
			t.Fatalf("step %d: cut short at MaxErrRatio %v, want > 1", step, st.MaxErrRatio)
		}
		cut += st.CutShort
	})
	if cut < 40 {
		t.Fatalf("%d of 50 solves were cut short; one subsequence should rarely reach ε 1e-12", cut)
	}

	run(0, 0, func(step int, st StepStats, rs *solver.Stats) {
		if st.CutShort != 0 || st.Converged != 1 || st.MaxErrRatio > 1 || st.MaxErrRatio != st.MaxRelErr/1e-4 {
			t.Fatalf("step %d, default MaxIters and ε: %+v", step, st)
		}
	})
}

// TestCutShortAcrossIslands: sixteen small piles with MaxIters 1 (many islands, many cut short,
// some cold-started, whose one subsequence has an infinite rel_err relative to a zero input), then
// with a one-nanosecond time budget (cut short by the budget). Every step, with the "sp" method,
// each solved island is exactly one of Converged, CutShort and Fallbacks, BudgetCut ≤ CutShort,
// and MaxErrRatio is MaxRelErr/ε, above 1 whenever an island was cut short.
func TestCutShortAcrossIslands(t *testing.T) {
	for _, tc := range []struct {
		name   string
		iters  int
		budget time.Duration
	}{{"MaxIters 1", 1, 0}, {"budget 1ns", 0, time.Nanosecond}} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := DefaultConfig()
			cfg.SleepTime = 0
			cfg.Workers = 4
			cfg.Solver.MaxIters, cfg.Solver.TimeBudget = tc.iters, tc.budget
			app := newTestApp(t, 0.01, cfg)
			spawnPiles(t, app.World)
			sim, _ := SimulationOf(app.World)
			cut, budgetCut := 0, 0
			for step := 0; step < 60; step++ {
				if err := app.StepFixed(); err != nil {
					t.Fatal(err)
				}
				st := sim.Stats()
				if st.Converged+st.CutShort+st.Fallbacks != st.Islands || st.BudgetCut > st.CutShort {
					t.Fatalf("step %d: %+v: islands are not split into converged, cut short and fallbacks", step, st)
				}
				if math.Float64bits(st.MaxErrRatio) != math.Float64bits(st.MaxRelErr/1e-4) {
					t.Fatalf("step %d: MaxErrRatio %v, MaxRelErr/ε %v", step, st.MaxErrRatio, st.MaxRelErr/1e-4)
				}
				if st.CutShort > 0 && !(st.MaxErrRatio > 1) {
					t.Fatalf("step %d: %d islands cut short at MaxErrRatio %v", step, st.CutShort, st.MaxErrRatio)
				}
				if tc.budget == 0 && st.BudgetCut != 0 {
					t.Fatalf("step %d: BudgetCut %d without a budget", step, st.BudgetCut)
				}
				cut += st.CutShort
				budgetCut += st.BudgetCut
			}
			if cut < 100 || (tc.budget > 0 && budgetCut < 100) {
				t.Fatalf("%d islands cut short, %d by the budget; the test needs many", cut, budgetCut)
			}
		})
	}
}
