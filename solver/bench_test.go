package solver

import (
	"fmt"
	"testing"
	"time"
)

// Benchmarks on generated scenes (gen_test.go). Run single-core:
//
//	go test ./solver/ -run '^$' -bench . -benchmem -cpu 1 -count 3
//
// "cold": no warm start; "warm": warm-started from the previous step's answer (resting: the same
// problem's converged answer; sliding: step 1 of a frozen-geometry sequence warm-started from
// step 0).

type scene struct {
	name  string
	build func(p *Problem, sliding bool)
}

var benchScenes = []scene{
	{"tower40", func(p *Problem, s bool) { genTower(p, 40, s, 1) }},
	{"pyramid20", func(p *Problem, s bool) { genPyramid(p, 20, s, 1) }},
	{"pyramid30", func(p *Problem, s bool) { genPyramid(p, 30, s, 1) }},
}

// The 1,015-sphere pile is not at rest (base spheres roll outwards), so its solves are long; it
// is benchmarked separately with a time budget (BenchmarkSpherePile).
var spherePile = scene{"spheres1015", func(p *Problem, s bool) { genSpherePile(p, 14, s, 1) }}

func benchSolve(b *testing.B, o Options, build func(*Problem, bool), sliding, warm bool) {
	var p Problem
	build(&p, sliding)
	s := mustSolver(b, o)
	var res Result
	if warm {
		if err := s.Solve(&p, &res); err != nil {
			b.Fatal(err)
		}
		if sliding {
			nextStep(&p, &res)
		} else {
			warmFrom(&p, &res)
		}
	}
	// one untimed solve to grow buffers
	if err := s.Solve(&p, &res); err != nil && o.Method != MethodLCP {
		b.Fatal(err)
	}
	var iters, sweeps, fsweeps, cg, fcg int
	b.ReportAllocs()
	b.ResetTimer()
	start := time.Now()
	for i := 0; i < b.N; i++ {
		_ = s.Solve(&p, &res)
		iters += res.Stats.Iterations
		sweeps += res.Stats.ContactSweeps
		fsweeps += res.Stats.FrictionSweeps
		cg += res.Stats.ContactCG
		fcg += res.Stats.FrictionCG + res.Stats.JointCG
	}
	el := time.Since(start)
	n := float64(b.N)
	b.ReportMetric(float64(p.NumContacts()), "contacts")
	b.ReportMetric(float64(iters)/n, "iters")
	b.ReportMetric(float64(sweeps)/n, "csweeps")
	b.ReportMetric(float64(cg)/n, "cg")
	b.ReportMetric(float64(fcg)/n, "fcg")
	b.ReportMetric(float64(fsweeps)/n, "fsweeps")
	b.ReportMetric(el.Seconds()*1e3/n, "ms/solve")
	if res.Stats.Method == MethodSP && !res.Stats.ContactExact {
		b.Errorf("not contact-exact: %+v", res.Stats)
	}
}

func BenchmarkSP(b *testing.B) {
	for _, sc := range benchScenes {
		for _, sliding := range []bool{false, true} {
			for _, warm := range []bool{false, true} {
				name := fmt.Sprintf("%s/%s/%s", sc.name, map[bool]string{false: "resting", true: "sliding"}[sliding], map[bool]string{false: "cold", true: "warm"}[warm])
				b.Run(name, func(b *testing.B) {
					benchSolve(b, Options{Friction: Disc}, sc.build, sliding, warm)
				})
			}
		}
	}
}

func BenchmarkSpherePile(b *testing.B) {
	for _, sliding := range []bool{false, true} {
		for _, warm := range []bool{false, true} {
			name := fmt.Sprintf("%s/%s/%s/budget1s", spherePile.name, map[bool]string{false: "resting", true: "sliding"}[sliding], map[bool]string{false: "cold", true: "warm"}[warm])
			b.Run(name, func(b *testing.B) {
				benchSolve(b, Options{Friction: Disc, TimeBudget: time.Second}, spherePile.build, sliding, warm)
			})
		}
	}
}

// Sub-solver and acceleration alternatives on the same scenes.
func BenchmarkVariants(b *testing.B) {
	tower := benchScenes[0].build
	pyr := benchScenes[1].build
	spheres10 := func(p *Problem, s bool) { genSpherePile(p, 10, s, 1) }
	noPresolve := GameOptions()
	noPresolve.Presolve = 0
	cases := []struct {
		name          string
		o             Options
		build         func(*Problem, bool)
		sliding, warm bool
	}{
		{"tower40/resting/cold/contact=pivot", Options{Friction: Disc, ContactSolver: ContactPivot}, tower, false, false},
		{"tower40/resting/cold/contact=pgssm", Options{Friction: Disc, ContactSolver: ContactPGSSM}, tower, false, false},
		{"tower40/resting/cold/contact=interior", Options{Friction: Disc, ContactSolver: ContactInterior}, tower, false, false},
		{"tower40/sliding/warm/contact=pgssm", Options{Friction: Disc, ContactSolver: ContactPGSSM}, tower, true, true},
		{"tower40/sliding/warm/contact=interior", Options{Friction: Disc, ContactSolver: ContactInterior}, tower, true, true},
		{"pyramid20/resting/cold/contact=pgssm", Options{Friction: Disc, ContactSolver: ContactPGSSM}, pyr, false, false},
		{"pyramid20/resting/cold/contact=interior", Options{Friction: Disc, ContactSolver: ContactInterior}, pyr, false, false},
		{"tower40/sliding/warm/plain-loop", Options{Friction: Disc, Anderson: -1, MaxIters: 200}, tower, true, true},
		{"tower40/sliding/warm/joint", Options{Friction: Disc, Joint: true}, tower, true, true},
		{"tower40/sliding/warm/pyramid-d8", Options{Friction: Pyramid}, tower, true, true},
		{"pyramid20/sliding/warm/plain-loop", Options{Friction: Disc, Anderson: -1, MaxIters: 200}, pyr, true, true},
		{"pyramid20/sliding/warm/joint", Options{Friction: Disc, Joint: true}, pyr, true, true},
		{"pyramid20/sliding/warm/pyramid-d8", Options{Friction: Pyramid}, pyr, true, true},
		{"pyramid20/sliding/cold/budget2ms", Options{Friction: Disc, TimeBudget: 2 * time.Millisecond}, pyr, true, false},
		{"pyramid20/sliding/warm/budget2ms", Options{Friction: Disc, TimeBudget: 2 * time.Millisecond}, pyr, true, true},
		{"wall12/resting/cold", Options{Friction: Disc}, func(p *Problem, s bool) { genPyramid(p, 12, s, 1) }, false, false},
		{"spheres10/resting/cold/one-iteration", Options{Friction: Disc, MaxIters: 1}, func(p *Problem, s bool) { genSpherePile(p, 10, s, 1) }, false, false},
		{"tower40/sliding/warm/game", GameOptions(), tower, true, true},
		{"pyramid20/sliding/warm/game", GameOptions(), pyr, true, true},
		{"spheres10/sliding/warm/game", GameOptions(), spheres10, true, true},
		{"spheres10/sliding/warm/game-no-presolve", noPresolve, spheres10, true, true},
		{"spheres10/sliding/cold/game", GameOptions(), spheres10, true, false},
		{"spheres10/sliding/cold/game-no-presolve", noPresolve, spheres10, true, false},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) { benchSolve(b, c.o, c.build, c.sliding, c.warm) })
	}
}

// Baselines: PGS with 50 sweeps (reports the worst contact violation it leaves) and Lemke.
func BenchmarkBaselines(b *testing.B) {
	for _, sc := range benchScenes[:2] {
		for _, sliding := range []bool{false, true} {
			name := fmt.Sprintf("pgs50/%s/%s", sc.name, map[bool]string{false: "resting", true: "sliding"}[sliding])
			b.Run(name, func(b *testing.B) {
				benchSolve(b, Options{Method: MethodPGS, PGSIters: 50}, sc.build, sliding, true)
				b.StopTimer()
				var p Problem
				sc.build(&p, sliding)
				s := mustSolver(b, Options{Method: MethodPGS, PGSIters: 50})
				var res Result
				_ = s.Solve(&p, &res)
				rep := CheckContact(&p, res.Alpha, res.Friction, res.Qdot)
				b.ReportMetric(rep.ContactPrimal, "max-penetration-m/s")
			})
		}
	}
	for _, n := range []int{2, 5, 10} {
		b.Run(fmt.Sprintf("lcp/tower%d/sliding", n), func(b *testing.B) {
			benchSolve(b, Options{Method: MethodLCP}, func(p *Problem, s bool) { genTower(p, n, s, 1) }, true, false)
		})
	}
	b.Run("lcp/pyramid20/resting(size-limit error)", func(b *testing.B) {
		var p Problem
		genPyramid(&p, 20, false, 1)
		s := mustSolver(b, Options{Method: MethodLCP})
		var res Result
		for i := 0; i < b.N; i++ {
			if err := s.Solve(&p, &res); err == nil {
				b.Fatal("expected a size-limit error")
			}
		}
	})
}
