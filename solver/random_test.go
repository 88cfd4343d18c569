package solver

import (
	"math"
	"math/rand/v2"
	"testing"
)

func newRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 99)) }

// Random problems: random SPD blocks of mixed sizes, random Jacobians, hundreds of contacts.

func TestRandomContactProjection(t *testing.T) {
	for seed := uint64(1); seed <= 6; seed++ {
		var p Problem
		rng := newRand(seed)
		randomProblem(&p, rng, []int{3, 6, 9}, 60, 300)
		f := make([]float64, 2*p.NumContacts())
		for i := range f {
			f[i] = 0.2 * rng.NormFloat64()
		}
		var ref Result
		for _, cs := range []ContactSolver{ContactAuto, ContactMPRGP, ContactPGSSM, ContactPivot} {
			s := mustSolver(t, Options{ContactSolver: cs})
			var res Result
			if err := s.ProjectContact(&p, f, &res); err != nil {
				t.Fatal(err)
			}
			rep := CheckContact(&p, res.Alpha, f, res.Qdot)
			if rep.Worst > 1e-9*res.Stats.Scale || !res.Stats.ContactExact {
				t.Errorf("seed %d solver %d: exact %v %v", seed, cs, res.Stats.ContactExact, rep)
			}
			if cs == ContactAuto {
				ref = res
				ref.Qdot = append([]float64(nil), res.Qdot...)
				continue
			}
			// The velocity of the contact projection is unique (strictly convex in q̇).
			for i := range res.Qdot {
				if math.Abs(res.Qdot[i]-ref.Qdot[i]) > 1e-7 {
					t.Errorf("seed %d: sub-solvers %d and 0 (auto) velocities differ at %d: %v vs %v", seed, cs, i, ref.Qdot[i], res.Qdot[i])
					break
				}
			}
		}
	}
}

func TestRandomFrictionProjection(t *testing.T) {
	for _, md := range models {
		for seed := uint64(1); seed <= 4; seed++ {
			var p Problem
			rng := newRand(seed + 10)
			randomProblem(&p, rng, []int{3, 6, 9}, 60, 300)
			alpha := make([]float64, p.NumContacts())
			for i := range alpha {
				if rng.IntN(4) != 0 {
					alpha[i] = 0.5 * rng.Float64()
				}
			}
			o := md.opts
			o.FrictionTol = 1e-13
			o.FrictionMaxSweeps = 100000
			s := mustSolver(t, o)
			var res Result
			if err := s.ProjectFriction(&p, alpha, &res); err != nil {
				t.Fatal(err)
			}
			rep := CheckFriction(&p, spec(o), alpha, res.Friction, res.Qdot)
			if rep.Worst > 1e-8*res.Stats.Scale {
				t.Errorf("%s seed %d (%d sweeps): %v", md.name, seed, res.Stats.FrictionSweeps, rep)
			}
		}
	}
}

// Staggered projections on random problems, with and without the joint sticking solve:
// contact-exact after every solve whatever MaxIters; the fixed point (eq. 26) when converged.
func TestRandomStaggered(t *testing.T) {
	for _, md := range models {
		for _, maxIters := range []int{1, 3, 100} {
			for seed := uint64(1); seed <= 6; seed++ {
				joint := seed > 3
				var p Problem
				rng := newRand((seed-1)%3 + 21)
				randomProblem(&p, rng, []int{6, 9}, 50, 200)
				o := md.opts
				o.MaxIters = maxIters
				o.Joint = joint
				s := mustSolver(t, o)
				var res Result
				if err := s.Solve(&p, &res); err != nil {
					t.Fatal(err)
				}
				rep := CheckContact(&p, res.Alpha, res.Friction, res.Qdot)
				if rep.Worst > 1e-9*res.Stats.Scale || !res.Stats.ContactExact {
					t.Errorf("%s maxIters %d seed %d: %v", md.name, maxIters, seed, rep)
				}
				if res.Stats.Iterations > maxIters {
					t.Errorf("%s maxIters %d seed %d joint %v: ran %d subsequences", md.name, maxIters, seed, joint, res.Stats.Iterations)
				}
				if res.Stats.Converged {
					fp := CheckFixedPoint(&p, spec(o), res.Alpha, res.Friction, res.Qdot)
					if fp.Worst > 1e-5*res.Stats.Scale {
						t.Errorf("%s maxIters %d seed %d converged (%d iters, rel %.2g) but %v", md.name, maxIters, seed, res.Stats.Iterations, res.Stats.RelErr, fp)
					}
				}
				t.Logf("%s maxIters %d seed %d joint %v (accepted %v): iters %d conv %v rel %.2g sweeps %d/%d cg %d", md.name, maxIters, seed,
					joint, res.Stats.JointAccepted, res.Stats.Iterations, res.Stats.Converged, res.Stats.RelErr, res.Stats.ContactSweeps, res.Stats.FrictionSweeps, res.Stats.ContactCG)
			}
		}
	}
}
