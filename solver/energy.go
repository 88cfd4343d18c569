package solver

import (
	"math"
	"time"
)

// The energy certificate of a converged answer. An answer that met ε (eq. 28) is 1 % off in its
// impulses, and after the final contact projection its friction may push along the slip it left
// (dissipate.go). Most often the step's own dissipation hides that, but under a heavy body at rest
// the push is the step's whole energy change: an arch stone that met ε gained a tenth of a joule
// in one step. The certificate measures the step's change of energy directly, and a converged
// answer that fails it is solved on to a tighter ε (Solve).
//
// With symplectic Euler and the forces in q̇ᴾ held over the step (gravity), the step changes the
// island's energy by
//
//	ΔE = Pᵀq̇ᵗ⁺¹ − ½(q̇ᵗ⁺¹ − q̇ᵗ)ᵀM(q̇ᵗ⁺¹ − q̇ᵗ),   P = Nα + Df,
//
// (expand ½q̇ᵗ⁺¹ᵀMq̇ᵗ⁺¹ − ½q̇ᵗᵀMq̇ᵗ less the forces' work Gᵀq̇ᵗ⁺¹, G = M(q̇ᴾ − q̇ᵗ), with
// q̇ᵗ⁺¹ = q̇ᴾ + M⁻¹P). Contact k contributes α_k n_kᵀq̇ᵗ⁺¹ + f_kᵀD_kᵀq̇ᵗ⁺¹; at an exact answer the
// first is −α_k b_k, which is positive only where b_k < 0 puts energy in by design (restitution,
// a kinematic side approaching, penetration recovery), and the friction's work along the slip
// s_k is at most zero, less the work a kinematic side's tangential motion (Contact.BT) does. The
// excess is ΔE with those designed inputs taken out:
//
//	excess = Σ_k α_k (n_kᵀq̇ᵗ⁺¹ + min(b_k, 0)) + f_kᵀs_k − ½(q̇ᵗ⁺¹ − q̇ᵗ)ᵀM(q̇ᵗ⁺¹ − q̇ᵗ),
//
// at most zero at the fixed point. It reads Problem.QdotT.
//
// The identity needs M and the forces constant over the step, which holds for rigid bodies (up to
// the turn of the world inertia within the step) but not for a reduced deformable, whose mass
// depends on its modes and whose predictor holds elastic forces: islands with a block other than
// a rigid body's are not certified.

// energyExcess returns the certificate's excess of the answer (s.alpha, s.f) on p, and false if
// p has a block that is not a rigid body's (operator.rigid) or whose inverse mass is not positive
// definite. It leaves s.v at the answer's velocity. The kinetic term dᵀMd, d = q̇ᵗ⁺¹ − q̇ᵗ, is
// ‖L⁻¹d‖² for the Cholesky factor M⁻¹ = LLᵀ of each block.
func (s *Solver) energyExcess(p *Problem) (float64, bool) {
	op := &s.op
	op.velocity(s.alpha, s.f, s.v)
	excess := 0.0
	for k := 0; k < op.m; k++ {
		s1, s2 := op.slip(k, s.v)
		excess += s.alpha[k]*(op.rowDot(k, 0, s.v)+min(op.bEff[k], 0)) + s.f[2*k]*s1 + s.f[2*k+1]*s2
	}
	var l [rigidSize * rigidSize]float64
	var y [rigidSize]float64
	for b, bl := range p.blocks {
		n := bl.Size
		if !op.rigid[b] || !choleskyOK(p.InvMass(b), l[:], n) {
			return 0, false
		}
		// Forward substitution L y = d, row by row: ‖y‖² = dᵀMd.
		for i := 0; i < n; i++ {
			yi := s.v[bl.Offset+i] - p.QdotT[bl.Offset+i]
			for k := 0; k < i; k++ {
				yi -= l[i*n+k] * y[k]
			}
			y[i] = yi / l[i*n+i]
			excess -= 0.5 * y[i] * y[i]
		}
	}
	return excess, true
}

// energyTolerance is the excess a converged answer may carry: FrictionTol of the work its
// impulses would do at the problem's velocity scale, as frictionDoesWork allows friction. An
// answer whose warm start the presolve replaced (s.presolved) is charged each impulse's own
// projection's accuracy instead, ContactTol·scale for the normal impulses: the looser tolerance
// serves resting islands, whose warm-started answers carry a round-off excess step after step
// that settling would turn into drift (a 100-box tower, settled whenever its step gained energy,
// shifted 1.7 mm in 60 s), and the presolve leaves a resting island's warm start untouched. On the
// struck arch's island, the keystone under two blocks, the presolved answer's step gained 1.2e-6 J
// under the looser tolerance of 1.8e-6 J; the tighter one, 3.9e-7 J, has it settled.
func (s *Solver) energyTolerance() float64 {
	op := &s.op
	normal, friction := 0.0, 0.0
	for k := 0; k < op.m; k++ {
		normal += s.alpha[k]
		friction += math.Hypot(s.f[2*k], s.f[2*k+1])
	}
	if s.presolved {
		return (s.opts.ContactTol*normal + s.opts.FrictionTol*friction) * op.scale
	}
	return s.opts.FrictionTol * op.scale * (normal + friction)
}

// energyCertified reports whether the answer (s.alpha, s.f) passes the certificate: every block of
// p is a rigid body's and the excess is at most energyTolerance. It leaves s.v at the answer's
// velocity.
func (s *Solver) energyCertified(p *Problem) bool {
	excess, ok := s.energyExcess(p)
	return ok && excess <= s.energyTolerance()
}

// Running on after a failed certificate: each round divides ε by certifyTighter, for at most
// certifyRounds rounds (down to ε/6561). Small steps find the loosest ε whose answer passes:
// dividing by 100 at once solved the settling debris of a struck card house to 10⁻⁶, where its
// friction projections' shrinking gap target cost up to 30,000 sweeps a solve, while the
// certificate passed at a few times 10⁻⁵ (replayed: a fifth to a twentieth of the work on those
// islands, half on the whole late impact).
const (
	certifyTighter = 3
	certifyRounds  = 8
)

// certifyEnergy checks an answer that met ε and whose friction does work after settling
// (Options.Settle): while its excess exceeds energyTolerance, the loop runs on from it with ε
// divided by certifyTighter, within what is left of MaxIters and the budgets. An attempt that
// stops short of its ε ends as any unconverged answer does, made dissipative (dissipate.go).
func (s *Solver) certifyEnergy(p *Problem, start time.Time) {
	eps := s.opts.Epsilon
	for round := 0; round < certifyRounds; round++ {
		if !s.opts.Settle || !s.st.Converged || s.st.Iterations >= s.opts.MaxIters || s.workSpent() || !s.frictionDoesWork() {
			return
		}
		if excess, ok := s.energyExcess(p); !ok || excess <= s.energyTolerance() {
			return
		}
		eps /= certifyTighter
		first := s.beginAttempt()
		s.warmAlpha = true // the answer's α warm-starts the contact projection
		s.solveSP(p, start, s.opts.MaxIters-first.Iterations, eps, s.opts.Joint)
		s.endAttempt(first)
		s.st.EnergyRuns++
	}
}
