package solver

import (
	"os"
	"testing"
	"time"
)

// TestSlidingSequences steps the sliding scenes 10 times with frozen geometry, each step
// warm-started from the previous one, and logs staggered iterations and time per step. It is long
// (the 20-base wall), so it runs only with STAGGER_LONG=1:
//
//	STAGGER_LONG=1 go test ./solver/ -run SlidingSequences -v -cpu 1
//
// It asserts contact exactness every step and ε = 1e-4 within 10 iterations on every warm step.
func TestSlidingSequences(t *testing.T) {
	if os.Getenv("STAGGER_LONG") == "" {
		t.Skip("set STAGGER_LONG=1")
	}
	for _, sc := range benchScenes[:2] {
		for _, fm := range []FrictionModel{Disc, Pyramid} {
			var p Problem
			sc.build(&p, true)
			s := mustSolver(t, Options{Friction: fm})
			var res Result
			var its []int
			var times []time.Duration
			for step := 0; step < 10; step++ {
				if err := s.Solve(&p, &res); err != nil {
					t.Fatal(err)
				}
				if !res.Stats.ContactExact {
					t.Errorf("%s step %d: not contact-exact", sc.name, step)
				}
				if step > 0 && (!res.Stats.Converged || res.Stats.Iterations > 10) {
					t.Errorf("%s friction %d step %d: %d iterations, converged %v", sc.name, fm, step, res.Stats.Iterations, res.Stats.Converged)
				}
				its = append(its, res.Stats.Iterations)
				times = append(times, res.Stats.Elapsed.Round(10*time.Microsecond))
				nextStep(&p, &res)
			}
			warm := 0
			for _, n := range its[1:] {
				warm += n
			}
			t.Logf("%s friction=%d: iterations %v (warm mean %.1f), times %v", sc.name, fm, its, float64(warm)/9, times)
		}
	}
}
