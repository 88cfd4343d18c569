package solver

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

func newRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 99)) }

// Random problems: random SPD blocks of mixed sizes, random Jacobians, hundreds of contacts.

// Every contact sub-solver, the DoF-sized forms included, is contact-exact by the checker on random
// problems and reaches ContactAuto's velocity, the QP's unique answer.
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
		for _, cs := range []ContactSolver{ContactAuto, ContactInterior, ContactActiveSet, ContactPGSSM, ContactPivot} {
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

// gameModels are the configuration the physics pipeline ships (GameOptions: joint sticking solve,
// settling, sharpening, no warm-start check) with each friction set, solved to the projections'
// own accuracy like models.
func gameModels() []struct {
	name string
	opts Options
} {
	disc, pyramid := GameOptions(), GameOptions()
	pyramid.Friction = Pyramid
	out := []struct {
		name string
		opts Options
	}{{"game disc", disc}, {"game pyramid", pyramid}}
	for i := range out {
		out[i].opts.Epsilon, out[i].opts.MaxIters, out[i].opts.FrictionTol = 1e-24, 300, 1e-13
	}
	return out
}

// Staggered projections on random problems, with and without the joint sticking solve, and
// under the pipeline's preset: contact-exact after every solve whatever MaxIters; the fixed point
// (eq. 26) when converged.
func TestRandomStaggered(t *testing.T) {
	for _, md := range append(models, gameModels()...) {
		for _, maxIters := range []int{1, 3, 100} {
			for seed := uint64(1); seed <= 6; seed++ {
				joint := seed > 3 || md.opts.Joint
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

// The pipeline's preset at its shipping accuracy (ε = 1e-4) on random problems: every answer is
// contact-exact, and an answer the loop did not converge (MaxIters 1 and 3) has been repaired so
// that its friction lies in its sets and does no positive work along the slip it leaves
// (dissipate.go). A converged answer carries no such guarantee at ε = 1e-4: after the final
// contact projection its friction can sit a few per cent of the velocity scale outside its sets.
func TestRandomStaggeredGameOptions(t *testing.T) {
	for _, friction := range []FrictionModel{Disc, Pyramid} {
		for _, maxIters := range []int{1, 3, 0} { // 0: the default, which converges
			for seed := uint64(1); seed <= 6; seed++ {
				var p Problem
				randomProblem(&p, newRand(seed+40), []int{6, 9}, 50, 200)
				o := GameOptions()
				o.Friction, o.MaxIters = friction, maxIters
				s := mustSolver(t, o)
				var res Result
				if err := s.Solve(&p, &res); err != nil {
					t.Fatal(err)
				}
				name := fmt.Sprintf("friction %d maxIters %d seed %d", friction, maxIters, seed)
				rep := CheckFixedPoint(&p, spec(o), res.Alpha, res.Friction, res.Qdot)
				if rep.ContactPrimal > 1e-9*res.Stats.Scale || rep.Complementarity > 1e-9*res.Stats.Scale || !res.Stats.ContactExact {
					t.Errorf("%s: not contact-exact: %v", name, rep)
				}
				if res.Stats.Converged {
					continue
				}
				if rep.FrictionFeasibility > 1e-9*res.Stats.Scale {
					t.Errorf("%s: friction outside its set (scale %.3g conv %v iters %d repairs %d): %v", name, res.Stats.Scale, res.Stats.Converged, res.Stats.Iterations, res.Stats.Repairs, rep)
				}
				if work := frictionPower(&p, res); work > 1e-9*res.Stats.Scale {
					t.Errorf("%s: friction does positive work %.3g along the slip", name, work)
				}
			}
		}
	}
}

// frictionPower returns Σ_k max(0, f_kᵀs_k) at the answer: the friction power along the tangential
// velocities s_k it leaves, computed from the problem's rows.
func frictionPower(p *Problem, res Result) float64 {
	work := 0.0
	for k := 0; k < p.NumContacts(); k++ {
		s1, s2 := tangentialVelocity(p, k, res.Qdot)
		work += max(0, res.Friction[2*k]*s1+res.Friction[2*k+1]*s2)
	}
	return work
}

// tangentialVelocity returns contact k's tangential velocity (t̂₁, t̂₂ rows) at qdot, from the
// problem's public rows.
func tangentialVelocity(p *Problem, k int, qdot []float64) (s1, s2 float64) {
	c := p.Contact(k)
	for side, rows := range [2][]float64{p.RowsA(k), p.RowsB(k)} {
		if rows == nil {
			continue
		}
		body := c.BodyA
		if side == 1 {
			body = c.BodyB
		}
		bl := p.BlockAt(body)
		v := qdot[bl.Offset : bl.Offset+bl.Size]
		for i, x := range v {
			s1 += rows[bl.Size+i] * x
			s2 += rows[2*bl.Size+i] * x
		}
	}
	return s1, s2
}
