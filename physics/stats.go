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
	// Work sums the contact updates of the step's island solves (solver Stats.Work: a pass of a
	// projection or of the joint sticking solve over an island of m contacts counts m), the unit
	// of solver Options.WorkBudget: a measure of the solve's cost that is the same on every
	// machine and run.
	Work int
	// MaxRelErr is the largest relative error rel_err (paper eq. 28, solver Stats.RelErr) among
	// the step's island solves, as the configured solver left it (an island that fell back to the
	// baseline reports the configured solver's figure); 0 when no island was solved. It is ≤ ε
	// when every solve converged, and may be +Inf when one did not (see MaxErrRatio). The PGS and
	// LCP baselines do not measure it and report 0.
	MaxRelErr float64
	// MaxResidual is the largest residual (paper eq. 29, solver Stats.Residual) of the kept
	// iterate among the step's island solves, in the same sense as MaxRelErr; 0 when no island
	// was solved.
	MaxResidual float64
	// Fallbacks counts islands whose solve could not make the contact projection exact and were
	// solved again by the bounded projected Gauss–Seidel baseline.
	Fallbacks int
	// CutShort counts the islands whose Staggered Projections solve stopped on a work bound before
	// rel_err met ε: MaxIters subsequences run, StallIters subsequences without a smaller rel_err
	// (solver Options.StallIters: an island whose iterates circle, as a card house struck by
	// falling blocks), the time budget (solver Options.TimeBudget), or a non-finite measure that
	// ended the loop. (A friction projection stopped by FrictionMaxSweeps does not end the loop;
	// it leaves an inexact iterate, and the loop then runs on to one of those bounds.) Such an
	// island keeps the solver's answer — the best iterate, its contact projection exact — which
	// may let bodies slide more than Coulomb's law allows but never interpenetrate further
	// (docs/architecture.md, Graceful degradation). An island that fell back is counted in
	// Fallbacks instead, whatever its rel_err, so with the "sp" method every solved island is
	// exactly one of Converged, CutShort and Fallbacks. The baselines do not measure ε and never
	// count here.
	CutShort int
	// BudgetCut counts those of CutShort that a budget stopped: the time budget or the work budget
	// (solver Stats.BudgetHit, WorkHit); the others ran MaxIters subsequences, stalled (solver
	// Stats.Stalled) or met a non-finite measure. Always 0 without a budget.
	BudgetCut int
	// MaxErrRatio is MaxRelErr/ε, ε the solver's tolerance (its default when Config.Solver leaves it
	// 0): how far the step's worst island solve ended from ε. It is ≤ 1 when every solve
	// converged, and 3 means an island stopped at three times ε. It is +Inf when some island's
	// rel_err is infinite. Eq. 28 divides by the size of the subsequence's input friction
	// impulse, so a loop cut short right after a subsequence that started from zero friction (a
	// cold start, or the probe at f = 0 after a poor warm start) ends with an infinite rel_err;
	// so does a solve whose first subsequence a time budget stopped before any iterate was
	// measured, or whose measure came out non-finite. 0 when no island was solved and for the
	// baselines.
	MaxErrRatio float64
	// MinGap is the smallest signed gap among the step's contacts before the solve, m (negative:
	// the deepest penetration); 0 without contacts.
	MinGap float64
	// Separated counts the islands whose overlaps the separation pushed apart this step
	// (Config.SeparationSpeed); SeparationWork is the potential energy, J, that its displacements
	// added in gravity (negative when they lowered bodies). It adds no kinetic energy.
	Separated      int
	SeparationWork float64
	// Bounced counts the islands with contacts that bounced this step (Config.RestitutionThreshold;
	// docs/architecture.md, Restitution).
	Bounced int
	// KeptPairs counts the touching pairs of awake bodies whose contact manifold was kept from
	// the step before rather than computed again, because neither body had moved by more than
	// 1e-9 m since it was computed (resting contact; see physics/narrowphase.go).
	KeptPairs int
	// SampleTests counts the narrow phase's tests of deformable surface samples: one per sample
	// tested against a collider's shape (a sensor's included) and one per (sample, triangle) tested
	// against another deformable's surface. KeptDeformable counts the deformable–collider and
	// deformable–deformable pairs whose contacts were kept from the step before without a test,
	// because nothing they were computed from had changed: a sleeping deformable against a static
	// or sleeping body (docs/architecture.md, Deformable bodies; physics/deformable_reuse.go).
	SampleTests    int
	KeptDeformable int
	NonFinite      int // bodies whose update came out non-finite and was discarded
	// Failed counts the bodies held for the step because their island's contact solve refused
	// its problem (SolveFailedEvent).
	Failed int
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
