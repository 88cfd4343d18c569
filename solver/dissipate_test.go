package solver

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
)

// tumblingTower builds a tower of n unit cubes (4 corner contacts per face, b = 0, no restitution)
// whose cubes slide and spin fast in random directions, so that one or two staggered iterations
// are far from the fixed point.
func tumblingTower(p *Problem, n int, seed uint64) {
	p.Reset()
	rng := rand.New(rand.NewPCG(seed, 3))
	bodies := make([]rigidBody, n)
	for i := range bodies {
		th := 2 * math.Pi * rng.Float64()
		bodies[i] = rigidBody{c: mgl64.Vec3{0, 0, float64(i) + 0.5}, mass: 1, inert: 1.0 / 6,
			vel: mgl64.Vec3{math.Cos(th), math.Sin(th), 0}.Mul(2 * rng.Float64())}
		b := addRigid(p, bodies[i])
		off := p.BlockAt(b).Offset
		for d := 3; d < 6; d++ {
			p.QdotP[off+d] = 4 * (rng.Float64() - 0.5)
		}
	}
	for i := 0; i < n; i++ {
		addFaceContact(p, bodies, i-1, i, -0.5, 0.5, -0.5, 0.5, float64(i))
	}
}

// kineticEnergy returns ½ q̇ᵀMq̇ for the generators' diagonal blocks (M = diag(1/M⁻¹_ii)).
func kineticEnergy(p *Problem, qdot []float64) float64 {
	e := 0.0
	for b := 0; b < p.NumBlocks(); b++ {
		bl := p.BlockAt(b)
		minv := p.InvMass(b)
		for i := 0; i < bl.Size; i++ {
			e += 0.5 * qdot[bl.Offset+i] * qdot[bl.Offset+i] / minv[i*bl.Size+i]
		}
	}
	return e
}

// TestUnconvergedSolveNeverGainsEnergy stops Staggered Projections after one to three iterations
// on fast, spinning towers. Whatever the friction accuracy, the answer must be contact-exact, its
// friction inside the Coulomb set (checked independently), and the contact impulse must not raise
// the kinetic energy above the predictor's (b = 0, no restitution; docs/architecture.md, Graceful degradation).
func TestUnconvergedSolveNeverGainsEnergy(t *testing.T) {
	var p Problem
	repaired := 0
	for _, md := range models {
		for seed := uint64(1); seed <= 8; seed++ {
			for iters := 1; iters <= 3; iters++ {
				tumblingTower(&p, 6, seed)
				o := md.opts
				o.MaxIters = iters
				s := mustSolver(t, o)
				var res Result
				if err := s.Solve(&p, &res); err != nil {
					t.Fatal(err)
				}
				if !res.Stats.ContactExact {
					t.Fatalf("%s seed %d iters %d: not contact-exact", md.name, seed, iters)
				}
				spec := CheckSpec{Friction: o.Friction, Tangents: 8}
				rep := CheckFriction(&p, spec, res.Alpha, res.Friction, res.Qdot)
				if rep.FrictionFeasibility > 1e-9 {
					t.Errorf("%s seed %d iters %d: friction outside its set: %v", md.name, seed, iters, rep)
				}
				before, after := kineticEnergy(&p, p.QdotP), kineticEnergy(&p, res.Qdot)
				if after > before*(1+1e-12) {
					t.Errorf("%s seed %d iters %d: kinetic energy rose from %.9g to %.9g J", md.name, seed, iters, before, after)
				}
				if res.Stats.Repairs > 0 {
					repaired++
				}
			}
		}
	}
	if repaired == 0 {
		t.Fatal("no solve needed a repair: the test does not exercise it")
	}
}

// coulombExcess returns how far the disc friction impulses lie outside their sets in sum,
// Σ_k max(0, ‖f_k‖ − μ_kα_k), and the sum of the discs' radii Σ_k μ_kα_k.
func coulombExcess(p *Problem, alpha, f []float64) (excess, bound float64) {
	for k := 0; k < p.NumContacts(); k++ {
		rad := p.Contact(k).Mu * alpha[k]
		bound += rad
		excess += math.Max(0, math.Hypot(f[2*k], f[2*k+1])-rad)
	}
	return excess, bound
}

// A solve cut short at MaxIters on a sliding tower, a sliding pyramid or a tumbling tower keeps
// most of its friction: its step dissipates at least 60 % of the energy the converged answer's
// step does (both changes computed from their definition, stepEnergyChange), where dropping the
// offending impulses (makeDissipative alone) left the sliding tower 0.2 % and the pyramid 23 % of
// it. The answer stays contact-exact (independent checker), its friction within ε of its discs in
// sum, and its step gains no energy. The presolve is off: from its warm start most of these solves
// meet ε within three subsequences, and the test is of the answers that do not.
func TestCutShortAnswerKeepsFriction(t *testing.T) {
	scenes := []struct {
		name string
		gen  func(*Problem)
	}{
		{"tower40-sliding", func(p *Problem) { genTower(p, 40, true, 1) }},
		{"pyramid6-sliding", func(p *Problem) { genPyramid(p, 6, true, 1) }},
		{"tumbling6-seed1", func(p *Problem) { tumblingTower(p, 6, 1) }},
		{"tumbling6-seed2", func(p *Problem) { tumblingTower(p, 6, 2) }},
	}
	cut := 0
	for _, sc := range scenes {
		var p Problem
		sc.gen(&p)
		o := unboundedGameOptions()
		o.Presolve = 0
		var conv Result
		if err := mustSolver(t, o).Solve(&p, &conv); err != nil {
			t.Fatal(err)
		}
		converged, _ := stepEnergyChange(t, &p, conv.Alpha, conv.Qdot)
		if !conv.Stats.Converged || !(converged < 0) {
			t.Fatalf("%s: converged %v, energy change %.3g J: want a converged answer that dissipates", sc.name, conv.Stats.Converged, converged)
		}
		for iters := 1; iters <= 3; iters++ {
			o.MaxIters = iters
			var res Result
			if err := mustSolver(t, o).Solve(&p, &res); err != nil {
				t.Fatal(err)
			}
			if res.Stats.Converged {
				continue
			}
			cut++
			if rep := CheckContact(&p, res.Alpha, res.Friction, res.Qdot); rep.Worst > 1e-9*res.Stats.Scale {
				t.Errorf("%s, %d iterations: not contact-exact: %v", sc.name, iters, rep)
			}
			if excess, bound := coulombExcess(&p, res.Alpha, res.Friction); excess > defaultEpsilon*bound {
				t.Errorf("%s, %d iterations: friction outside its discs by %.3g in sum, ε of Σ μα is %.3g", sc.name, iters, excess, defaultEpsilon*bound)
			}
			change, designed := stepEnergyChange(t, &p, res.Alpha, res.Qdot)
			if change-designed > 1e-9 {
				t.Errorf("%s, %d iterations: the step gains %.3g J", sc.name, iters, change)
			}
			if change > 0.6*converged {
				t.Errorf("%s, %d iterations: the step dissipates %.3g J, the converged step %.3g J: friction was lost", sc.name, iters, -change, -converged)
			}
		}
	}
	if cut < 8 {
		t.Fatalf("only %d solves were cut short: the test does not exercise the repair", cut)
	}
}
