package solver

import (
	"fmt"
	"math"
	"time"
)

// exactFactor is the margin between ContactTol, the contact projection's target, and the bound
// Stats.ContactExact certifies: the LCP residual of an exact answer is at most
// exactFactor·ContactTol·scale (1e-9·scale by default; docs/architecture.md, Contact projection).
const exactFactor = 10

// Stats describes one Solve.
type Stats struct {
	Method     string
	Contacts   int
	Iterations int     // staggered subsequences run (paper Table 1 "iters.")
	RelErr     float64 // eq. 28 at exit
	Residual   float64 // eq. 29 of the kept iterate
	Converged  bool    // RelErr ≤ ε (or the fixed point was exact)
	BestIter   int     // subsequence whose friction impulse was kept (0: the warm start)
	// ContactSweeps, ContactCG and ContactPivots count the contact projections' PGS sweeps,
	// conjugate-gradient iterations and pivoting steps (Lemke's pivots for MethodLCP);
	// FrictionSweeps and FrictionCG the friction projections' block Gauss–Seidel sweeps and
	// conjugate-gradient iterations (for MethodPGS, the PGS sweeps).
	ContactSweeps, ContactCG, ContactPivots, FrictionSweeps, FrictionCG int
	// PresolveSweeps counts the presolve's coupled Gauss–Seidel sweeps (Options.Presolve).
	PresolveSweeps int
	// ContactInterior counts the interior-point iterations of the contact projections
	// (ContactInterior, and ContactAuto on islands beyond the active set's rank limit).
	ContactInterior int
	// JointCG counts the joint sticking solve's CG iterations; JointAccepted whether its
	// candidate was feasible and used.
	JointCG       int
	JointAccepted bool
	// ContactError is the final contact projection's worst LCP residual max_k |min(A_kk α_k, w_k)|
	// (velocity units, unscaled); ContactExact reports ContactError ≤ 10·ContactTol·scale
	// (1e-9·scale with the default ContactTol).
	ContactError float64
	ContactExact bool
	// MinGap is min_k (n_kᵀq̇ᵗ⁺¹ + b_k + e_k n_kᵀq̇ᵗ), ≥ −ContactTol·scale when ContactExact.
	MinGap float64
	// Fallbacks counts contact projections that fell back to the pivoting reference.
	Fallbacks int
	// AndersonResets counts safeguard rejections of an accelerated step.
	AndersonResets int
	// WarmExact reports that the warm start already met the optimality conditions of both
	// projections (warmcheck.go) and was returned as the answer without running a projection;
	// ContactError then bounds the LCP residual by |w_k| on touching contacts.
	WarmExact bool
	// BudgetHit reports that TimeBudget stopped the staggered loop; WorkHit that WorkBudget did;
	// Stalled that StallIters did.
	BudgetHit, WorkHit, Stalled bool
	// Work counts the solve's contact updates, as Options.WorkBudget counts them.
	Work int
	// Repairs counts the rounds (contact projections) that repaired an unconverged answer's friction
	// after the final contact projection (dissipate.go); 0 when none was needed.
	Repairs int
	// EnergyRuns counts the times an answer that met ε failed the energy certificate and the loop
	// ran on to a tighter ε (energy.go).
	EnergyRuns int
	// Scale is the problem's velocity scale max(1, max_k |n_kᵀq̇ᴾ + b_k|) that tolerances multiply.
	Scale   float64
	Elapsed time.Duration
}

// Result is a Solver's answer, reused across solves.
type Result struct {
	// Alpha is the normal impulse α_k per contact.
	Alpha []float64
	// Friction holds each contact's friction impulse in its (t̂₁, t̂₂) basis, 2 entries per contact:
	// f_k = Friction[2k] t̂₁ + Friction[2k+1] t̂₂, generalized D_kβ_k = Friction[2k] t₁ + Friction[2k+1] t₂.
	Friction []float64
	// Qdot is q̇ᵗ⁺¹ = q̇ᴾ + M⁻¹(Nα + Dβ) (paper eq. 13).
	Qdot  []float64
	Stats Stats
}

// Beta writes contact k's pyramid magnitudes β_k (paper eq. 7, d = len(dst) samples at angles
// 2πj/d) reproducing its friction vector: the two samples bracketing the vector's direction carry
// it. The result satisfies Σβ_k ≤ μ_kα_k whenever the vector lies in the d-gon. Like a slice
// index, it panics if k is not a contact of the result (in [0, len(Friction)/2)).
func (r *Result) Beta(k int, dst []float64) []float64 {
	if k < 0 || k >= len(r.Friction)/2 {
		panic(fmt.Sprintf("solver: Result.Beta: contact index %d out of range [0, %d)", k, len(r.Friction)/2))
	}
	for i := range dst {
		dst[i] = 0
	}
	d := len(dst)
	x, y := r.Friction[2*k], r.Friction[2*k+1]
	if d < 2 || (x == 0 && y == 0) {
		return dst
	}
	th := math.Atan2(y, x)
	if th < 0 {
		th += 2 * math.Pi
	}
	step := 2 * math.Pi / float64(d)
	j := int(th / step)
	if j >= d {
		j = d - 1
	}
	t0, t1 := float64(j)*step, float64(j+1)*step
	// Solve b0 u(t0) + b1 u(t1) = (x, y).
	c0, s0 := math.Cos(t0), math.Sin(t0)
	c1, s1 := math.Cos(t1), math.Sin(t1)
	det := c0*s1 - s0*c1
	b0 := (x*s1 - y*c1) / det
	b1 := (c0*y - s0*x) / det
	dst[j] = max(b0, 0)
	dst[(j+1)%d] = max(b1, 0)
	return dst
}
