package physics

import "time"

// StepStats describes the last fixed step.
type StepStats struct {
	Tick     uint64 // index of the fixed step
	Bodies   int    // bodies in the world, any kind
	Dynamic  int    // dynamic bodies stepped
	DoFs     int    // generalized velocity entries of the dynamic bodies
	Contacts int    // contact points, those of sleeping islands included
	Islands  int    // contact islands solved (sleeping islands are not)
	Sleeping int    // dynamic bodies asleep after the step
	// Iterations sums the staggered iterations of the step's island solves; Converged counts the
	// solves that met ε (the others kept their best iterate, still contact-exact).
	Iterations int
	Converged  int
	// MaxRelErr is the largest relative error rel_err (paper eq. 28, solver Stats.RelErr) among
	// the step's island solves, as the configured solver left it (an island that fell back to the
	// baseline reports the configured solver's figure); 0 when no island was solved. It is ≤ ε
	// when every solve converged. The PGS and LCP baselines do not measure it and report 0.
	MaxRelErr float64
	// MaxResidual is the largest residual (paper eq. 29, solver Stats.Residual) of the kept
	// iterate among the step's island solves, in the same sense as MaxRelErr; 0 when no island
	// was solved.
	MaxResidual float64
	// Fallbacks counts islands whose solve could not make the contact projection exact and were
	// solved again by the bounded projected Gauss–Seidel baseline.
	Fallbacks int
	// MinGap is the smallest signed gap among the step's contacts before the solve, m (negative:
	// the deepest penetration); 0 without contacts.
	MinGap float64
	// KeptPairs counts the touching pairs of awake bodies whose contact manifold was kept from
	// the step before rather than computed again, because neither body had moved by more than
	// 1e-9 m since it was computed (resting contact; see physics/narrowphase.go).
	KeptPairs int
	NonFinite int           // bodies whose update came out non-finite and was discarded
	Elapsed   time.Duration // wall time of the whole step
}
