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
