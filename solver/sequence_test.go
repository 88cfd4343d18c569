package solver

import "testing"

// TestSlidingSequences steps the sliding 40-box tower and 20-base wall 10 times with frozen
// geometry, each step warm-started from the previous one, with the solver's defaults and with the
// pipeline's preset. Every step must be contact-exact, and every warm step must meet ε = 1e-4
// within MaxIters (the paper's §6.4: warm starts keep the loop short).
func TestSlidingSequences(t *testing.T) {
	for _, sc := range benchScenes[:2] {
		for _, o := range []Options{{Friction: Disc}, {Friction: Pyramid}, unboundedGameOptions()} {
			fm := o.Friction
			var p Problem
			sc.build(&p, true)
			s := mustSolver(t, o)
			var res Result
			for step := 0; step < 10; step++ {
				if err := s.Solve(&p, &res); err != nil {
					t.Fatal(err)
				}
				if !res.Stats.ContactExact {
					t.Errorf("%s step %d: not contact-exact", sc.name, step)
				}
				if step > 0 && !res.Stats.Converged {
					t.Errorf("%s friction %d step %d: not converged in %d iterations", sc.name, fm, step, res.Stats.Iterations)
				}
				nextStep(&p, &res)
			}
		}
	}
}
