package headless

import (
	"math"
	"runtime"
	"testing"

	"github.com/stagger-physics/stagger/ecs"
	"github.com/stagger-physics/stagger/physics"
)

// benchScene measures whole fixed steps of scene name at size n with sleeping off, so every step
// runs collision and the solve, after a second of simulated time has settled its contacts and
// warm starts, and after the scene's script has acted for the last time (scripted scenes: the
// steps timed are those after its bodies arrive). n 0 takes the scene's default. The scene's script
// runs before every step, as the runner runs it; it does nothing and allocates nothing in the
// timed steps. Profile with -cpuprofile to see where a step goes.
func benchScene(b *testing.B, name string, n int) {
	o := DefaultOptions()
	o.Scene, o.N, o.Sleep = name, n, false
	sc, p, err := o.Resolve(map[string]bool{"n": n > 0})
	if err != nil {
		b.Fatal(err)
	}
	app, err := ecs.NewApp(o.Dt, 1)
	if err != nil {
		b.Fatal(err)
	}
	if err := app.AddPlugin(physics.NewPlugin(o.PhysicsConfig())); err != nil {
		b.Fatal(err)
	}
	if err := sc.Build(app.World, p); err != nil {
		b.Fatal(err)
	}
	step := 0
	advance := func() {
		if _, err := sc.Advance(app.World, p, float64(step)*o.Dt); err != nil {
			b.Fatal(err)
		}
		if err := app.StepFixed(); err != nil {
			b.Fatal(err)
		}
		step++
	}
	// Untimed: one second, and at least the step at the script's last action.
	for float64(step)*o.Dt < math.Max(1, sc.ScriptEnd()+o.Dt/2) {
		advance()
	}
	sim, _ := physics.SimulationOf(app.World)
	// Collect the set-up's garbage now, so that no collection started by it runs during the timed
	// steps (which allocate nothing).
	runtime.GC()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		advance()
	}
	st := sim.Stats()
	b.ReportMetric(float64(st.Contacts), "contacts")
	b.ReportMetric(float64(st.Iterations), "iterations")
	b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N), "ms/step")
}

// BenchmarkScenePyramid20 is the pyramid 20 wall solved every step (no sleeping).
func BenchmarkScenePyramid20(b *testing.B) { benchScene(b, "pyramid", 20) }

// BenchmarkSceneStack40 is the 40-box tower solved every step (no sleeping).
func BenchmarkSceneStack40(b *testing.B) { benchScene(b, "stack", 40) }

// BenchmarkScenePile100 is the pile of 100 mixed bodies from its second second on, while bodies
// still tumble and slide (no sleeping).
func BenchmarkScenePile100(b *testing.B) { benchScene(b, "pile", 100) }

// BenchmarkSceneImpact is the 3-level card house from the step after its script drops the five
// blocks (1 s) on, while they strike it and it falls (no sleeping).
func BenchmarkSceneImpact(b *testing.B) { benchScene(b, "impact", 0) }

// BenchmarkSceneJelly is the jelly scene at n = 10 — 15 deformable blocks, five stacked on
// others — from their second second on, as they land, wobble and settle on their boxes and on
// each other.
func BenchmarkSceneJelly(b *testing.B) { benchScene(b, "jelly", 10) }
