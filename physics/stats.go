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
	NonFinite int // bodies whose update came out non-finite and was discarded
	// Elapsed is the wall time of the whole step, Simulation.Step from call to return.
	Elapsed time.Duration
	// Phases splits Elapsed into the step's phases, as Box2D's b2Profile and Rapier's Counters do.
	Phases PhaseTimes
}

// PhaseTimes are the wall times of one step's phases, in the order the step runs them
// (docs/architecture.md, The fixed step). They are consecutive and do not overlap, so they sum to
// Elapsed less the few instructions between the phases and after the last. Each phase's work on
// the worker pool counts once, as the wall time the stepping goroutine waits for it, not the sum
// over workers. They are diagnostics: no result depends on them. The step has no separate sleeping
// phase: which islands stay asleep is decided while the islands are built (Islands), and which fall
// asleep as their bodies advance (Integrate). The plugin's contact events and its copy of poses
// into g3n nodes run after the step and are not counted.
type PhaseTimes struct {
	// Gather: validating every body and loading the dynamic ones, refitting each collider's
	// broad-phase box (done body by body as they are loaded), removing the entries of colliders
	// that are gone, and the predictor q̇ᴾ.
	Gather time.Duration
	// BroadPhase: the broad phase's candidate pairs, skipping those with no dynamic side, merged
	// with last step's pairs, and the list of pairs the narrow phase must compute.
	BroadPhase time.Duration
	// NarrowPhase: the manifolds of the listed pairs (on the worker pool when there are many),
	// dropping the pairs that do not touch, and the step's flat contact list.
	NarrowPhase time.Duration
	// Islands: joining bodies through their contacts (union-find), listing each island's bodies
	// and contacts, and deciding which islands stay asleep.
	Islands time.Duration
	// Solve: the contact stage less Islands — tangent bases, each island's problem assembly and
	// solve (fallbacks included) on the worker pool, the answer's velocities and impulses, and
	// storing every contact point's impulse for the next step's warm start.
	Solve time.Duration
	// Integrate: advancing every awake dynamic body (positions, orientations, velocities),
	// putting islands that came to rest to sleep, writing the bodies back into their RigidBody
	// components, and moving the kinematic bodies.
	Integrate time.Duration
}

// Total is the sum of the phases.
func (p PhaseTimes) Total() time.Duration {
	return p.Gather + p.BroadPhase + p.NarrowPhase + p.Islands + p.Solve + p.Integrate
}
