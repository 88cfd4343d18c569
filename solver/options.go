package solver

import (
	"fmt"
	"time"
)

// Method names a solver selectable in Options.Method.
const (
	// MethodSP is Staggered Projections (paper Algorithm 1), the default.
	MethodSP = "sp"
	// MethodPGS is projected Gauss–Seidel / sequential impulses with box friction and a fixed
	// iteration count, the way ODE's quick step and Bullet solve contact. A baseline.
	MethodPGS = "pgs"
	// MethodLCP is the Stewart–Trinkle polyhedral LCP solved directly by Lemke's algorithm. A
	// baseline for small problems; it returns a *SolveError rather than hang on large ones.
	MethodLCP = "lcp"
)

// FrictionModel selects the friction set F(α).
type FrictionModel int

const (
	// Pyramid is the paper's linearised Coulomb set (eq. 7, 23): d symmetric tangent samples,
	// e_kᵀβ_k ≤ μ_k α_k, β_k ≥ 0 — in the tangent plane, the regular d-gon inscribed in the disc.
	Pyramid FrictionModel = iota
	// Disc is the exact isotropic Coulomb set ‖f_k‖ ≤ μ_k α_k (paper eq. 6; not used in the
	// paper's solver).
	Disc
)

// ContactSolver selects the sub-solver for the contact projection P_C.
type ContactSolver int

const (
	// ContactAuto runs PGS-SM (below) with a small budget of conjugate-gradient iterations, about
	// three per contact; if it stalls, a DoF-sized form takes the island for the rest of the
	// solve: the active set (ContactActiveSet) when its rank bound min(contacts, DoFs) is at most
	// 1,000, beyond it the interior point (ContactInterior). PGS-SM is the faster on resting,
	// consistent problems (tall stacks, resting piles), the DoF-sized forms where redundant rows
	// stall it (a struck pyramid of crates, a heap of hundreds). The default.
	ContactAuto ContactSolver = iota
	// ContactPGSSM is projected Gauss–Seidel sweeps finished by Jacobi-preconditioned conjugate
	// gradients on the predicted active set, repeated until the LCP holds to ContactTol (course
	// notes §3.2.6), falling back to ContactPivot on small islands if it stalls. Its
	// clip-and-resolve loop can stall on nearly redundant contacts whose gap terms differ.
	ContactPGSSM
	// ContactPivot is Baraff's (1994) Dantzig-style principal pivoting on the dense Delassus
	// matrix: exact in finitely many pivots, O(m³) and more; the reference, for small islands.
	ContactPivot
	// ContactActiveSet is the DoF-sized active-set projection (paper §6.3; activeset.go):
	// pivoting on a linearly independent working set of clamped contacts, never more than the
	// island's DoFs, whose Delassus factor is updated a row at a time and kept across the
	// projections of a solve. Exact to round-off whatever the redundancy of the rows.
	ContactActiveSet
	// ContactInterior is the interior-point projection (interior.go): a primal–dual method whose
	// Newton matrix M + NDNᵀ is DoF-sized and factored over the island's body graph, for islands
	// beyond the active set's dense factor. Stops when the LCP holds to ContactTol.
	ContactInterior
)

// Options configure a Solver. The zero value of every field selects its default; Validate lists
// the range of each field.
type Options struct {
	// Method is MethodSP (default), MethodPGS or MethodLCP.
	Method string
	// Friction is Pyramid (default, as in the paper) or Disc.
	Friction FrictionModel
	// Tangents is d, the number of tangent samples per contact for the pyramid and for MethodLCP
	// (even, in [4, MaxTangents]; default 8 as in the paper's Table 1).
	Tangents int
	// Epsilon is ε, the threshold on rel_err (paper eq. 28), in (0, 1); default 1e-4.
	Epsilon float64
	// MaxIters bounds the number of staggered subsequences (contact then friction projection);
	// default 50, ≥ 0. Algorithm 1 always adds the final contact projection.
	MaxIters int
	// StallIters, if positive (it must be ≥ 0), also stops the staggered loop once that many
	// subsequences in a row have not lowered rel_err (eq. 28) below its smallest so far, while
	// that smallest is still more than 10·ε (a loop that came near ε is left to MaxIters): the
	// answer is then the kept iterate (Algorithm 1, lines 9–12) after the exact final contact
	// projection and the repair that keeps its step from gaining energy, as when MaxIters runs out
	// (paper §7), and Stats.Stalled says so. Some islands of a struck card house never converge:
	// their iterates circle 10²–10³·ε away for as long as the loop runs, and the iterate kept after
	// 100 subsequences is no better than after 30, while each subsequence costs a step's worth of
	// frame time. A bound counted in subsequences is deterministic. It is not applied while the
	// loop polishes a joint candidate or sharpens a sliding answer. A cold pile of spheres, whose
	// rel_err wanders for up to 60 subsequences on its way to ε after about 150, does not
	// converge within the game's MaxIters either. 0 (the zero value, the paper's loop): off;
	// GameOptions: 20.
	StallIters int
	// TimeBudget, if positive (it must be ≥ 0), bounds the wall time of one Solve: the staggered loop stops early
	// and returns the best iterate, contact-exact (paper §7, graceful degradation). The repair that
	// makes an unconverged answer's friction dissipative (dissipate.go) runs only while the budget
	// lasts. The first and the final contact projections are not cut short (exactness comes
	// first), so a budget below their cost is exceeded. The friction projection is given the
	// budget less twice the last contact projection's time; if it is stopped there, its output is
	// no iterate and is dropped: the answer carries the best complete iterate, or the warm start
	// with its exact contact projection when none completed (no further projection is paid for).
	TimeBudget time.Duration
	// ContactSolver picks the contact projection's sub-solver (default ContactAuto).
	ContactSolver ContactSolver
	// ContactTol is the accuracy of the contact projection in velocity units relative to the
	// problem's velocity scale max(1, max_k |n_kᵀq̇ᴾ + b_k|): every contact ends with
	// min(A_kk α_k, w_k) within ContactTol·scale of zero. (On islands of more than 64 contacts the
	// staggered loop's intermediate projections are looser until an iterate meets ε; the answer's
	// is always to ContactTol: docs/architecture.md, Algorithm 1.) In (0, 1); default 1e-10.
	ContactTol float64
	// PivotLimit is the largest island (in contacts) on which the iterative sub-solvers fall back to the
	// pivoting reference when it stalls; default 400, at most MaxPivotLimit.
	PivotLimit int
	// FrictionTol stops the friction projection's block Gauss–Seidel when no contact's tangential
	// velocity changes by more than FrictionTol·scale in a sweep. In (0, 1); default 1e-9.
	FrictionTol float64
	// FrictionMaxSweeps bounds the block Gauss–Seidel sweeps of one friction projection; default
	// 2000. A bound reached leaves an inexact projection; the answer stays contact-exact.
	FrictionMaxSweeps int
	// FrictionGap, if positive, also stops a friction projection once its dissipation gap (the
	// optimality gap of the maximal dissipation principle, eq. 18) is at most FrictionGap·½‖Df‖²
	// in the kinetic metric of eq. 28: the projection's error then adds at most about FrictionGap
	// to rel_err, so FrictionGap = ε solves each projection as accurately as the loop's stopping
	// test can see. On piles, whose redundant sticking contacts make block Gauss–Seidel stall
	// short of FrictionTol for thousands of sweeps, it is met within a few dozen. It is not
	// applied while sharpening (Sharpen), which wants the fixed point to working accuracy. 0 (the
	// zero value, the paper's loop) turns it off; GameOptions sets it to ε's default. In [0, 1).
	FrictionGap float64
	// WorkBudget, if positive (it must be ≥ 0), bounds the work of one Solve in contact updates: a Gauss–Seidel
	// sweep or a conjugate-gradient iteration of either projection or of the joint sticking solve
	// on an island of m contacts counts m. When it is spent the staggered loop stops as under
	// TimeBudget, returning the best iterate after an exact final contact projection and the
	// repair that keeps its step from gaining energy (paper §7); a friction projection is given what
	// is left, and the joint sticking solve is tried only within it. The contact projections are
	// counted but never cut short (exactness first), so a budget below their cost is exceeded.
	// Unlike TimeBudget it is deterministic. 0 (the zero value, the paper's loop): no bound;
	// GameOptions: 500,000, about 30 ms of a struck pyramid's island on a 2-core machine. It
	// bounds only a solve with a warm start (some Contact.WarmNormal or WarmFriction nonzero): a
	// structure's first, cold solve is left to converge (the 20-box pyramid's takes about
	// 5 million contact updates, then 1,600 a step). Stats.WorkHit reports a solve it stopped.
	WorkBudget int
	// Anderson is the depth of Anderson acceleration of the staggered fixed-point map, applied to
	// the body-space friction impulse in the kinetic metric (docs/architecture.md, Anderson acceleration); 0 selects the default 5,
	// a negative value disables it (the paper's plain loop); at most MaxAnderson.
	Anderson int
	// Joint enables the joint sticking solve (joint.go). The solve tries it when the first
	// subsequence has not converged, and once more when an iterate meets ε without being an exact
	// fixed point: it snaps structures held by friction (card houses, arches) onto their fixed
	// point, where an ε-converged iterate's friction would do work and pump energy in step after
	// step. An answer reached through it whose friction does positive work is discarded and the
	// solve rerun without it. Off by default in the solver (the paper's loop, whose warm-start
	// properties the tests check); the physics pipeline turns it on (physics.DefaultConfig).
	Joint bool
	// Settle re-solves, after the final contact projection of an answer that met ε, the friction
	// of the contacts whose kept friction now pushes along their slip, and projects contact
	// again (dissipate.go, settleFriction): without it such an answer can add an ε-sized fraction
	// of the friction's work to the step's energy, millijoules on a forming pile. On an island of
	// rigid bodies it settles only an answer whose step gains energy by the energy certificate
	// (energy.go); an answer whose step still gains energy after settling is solved on to a
	// tighter ε. Off by default in the solver (the paper's loop, whose converged answers it may
	// move); the physics pipeline turns it on.
	Settle bool
	// Sharpen runs the staggered loop on after an iterate meets ε while every loaded contact
	// slides, for as long as rel_err keeps falling, until the update is a fixed point to working
	// accuracy (no velocity moved by more than FrictionTol·scale) or MaxIters. With every contact
	// sliding the fixed-point map is nearly affine and the Anderson-accelerated loop reaches that
	// in a few more subsequences, whereas an ε-converged answer leaves up to ε of the friction
	// impulse misdirected, which shows as a sliding box spinning about its normal and travelling a
	// few parts in a million further than Coulomb's law lets it (the incline scene's validation test).
	// Off by default in the solver (the paper's loop); the physics pipeline turns it on.
	Sharpen bool
	// SkipWarmCheck turns off the check that returns a warm start which already satisfies both
	// projections' optimality conditions as the answer, without projecting (warmcheck.go). The
	// check makes a converged warm start nearly free (paper §6.4). The physics pipeline turns it
	// off: there a resting island's warm start misses the conditions by a few ContactTol, the
	// check's pass is then wasted, and the answers it does accept leave residuals that later steps
	// pay for.
	SkipWarmCheck bool
	// Presolve, if positive (it must be ≥ 0), bounds the coupled projected Gauss–Seidel sweeps
	// that bring a poor warm start near the staggered map's fixed point before the loop starts
	// (presolve.go), on islands of more than 64 contacts: each sweep projects each contact's
	// normal impulse and then its friction, exactly for that contact, and the sweeps stop when
	// one changes the impulses by a small fraction of their size. A warm start that the first
	// sweep barely moves (a resting island) is kept as it was. The loop that follows, its
	// stopping test and its final contact projection are Algorithm 1's, so the answer is as exact
	// as from any other warm start. On a flowing pile of a thousand spheres it cut the loop from
	// 30–50 subsequences a step to one or two and the solve's time to a sixth. 0 (the zero value,
	// the paper's loop): off; GameOptions: 300.
	Presolve int
	// PGSIters is MethodPGS's fixed number of sweeps; default 50.
	PGSIters int
	// LCPMaxSize is MethodLCP's largest LCP dimension (contacts × (d+2)); default 2000, at most
	// MaxLCPSize.
	LCPMaxSize int
	// LCPMaxPivots bounds Lemke's pivots; default 50 × the LCP dimension.
	LCPMaxPivots int
}

// GameOptions returns the configuration the physics pipeline ships with (physics.DefaultConfig):
// Staggered Projections with the exact disc and the paper's defaults otherwise, plus the joint
// sticking solve, the settling of converged friction, the sharpening of sliding islands, the
// friction projections' dissipation-gap target (FrictionGap = ε), the stop of stalled loops
// (StallIters), the presolve (Presolve) and a work budget (WorkBudget), and without the
// warm-start check. Each of those eight options documents why it is off in the zero value (the
// paper's plain loop) and on here. Tests that check the solver as games run it use this.
func GameOptions() Options {
	return Options{Method: MethodSP, Friction: Disc, Joint: true, Settle: true, Sharpen: true, SkipWarmCheck: true,
		FrictionGap: defaultEpsilon, StallIters: gameStallIters, Presolve: gamePresolve, WorkBudget: gameWorkBudget}
}

// gameWorkBudget is GameOptions' WorkBudget, in contact updates: a struck pyramid's island does
// about 17,000 a millisecond (the throw scene, 2 cores), so the loop stops after about 30 ms; its
// final contact projection and the repair of its friction come on top (throw: p95 91 ms, worst
// 162 ms over 3 s, against 380 ms and 510 ms unbounded). A smaller bound cuts struck steps
// shorter (200,000: p95 62 ms) but also the steps of the 100-box tower kept awake, whose joint
// sticking solve needs 100,000–400,000 a step: cut short, their repaired friction let it slide
// 0.14 m in 60 s (`make validate`), against 1.3e-6 m at 500,000.
const gameWorkBudget = 500_000

// gamePresolve is GameOptions' Presolve: a flowing pile of a thousand spheres meets the
// presolve's tolerance within 200–300 sweeps; a bound there leaves the rest to the loop.
const gamePresolve = 300

// gameStallIters is GameOptions' StallIters: on 350 islands captured from the struck card house
// and solved with MaxIters 100, it stops the three that circle and no solve that converges.
const gameStallIters = 20

// Defaults of the zero-valued Options fields (paper Table 1 where it gives one).
const (
	defaultTangents          = 8
	defaultEpsilon           = 1e-4
	defaultMaxIters          = 50
	defaultContactTol        = 1e-10
	defaultPivotLimit        = 400
	defaultFrictionTol       = 1e-9
	defaultFrictionMaxSweeps = 2000
	defaultAnderson          = 5
	defaultPGSIters          = 50
	defaultLCPMaxSize        = 2000
)

// Upper limits of the Options fields that size a Solver's buffers, so that no setting can make
// it allocate without bound. Validate refuses larger values.
const (
	// MaxTangents is the largest Options.Tangents. The friction set stores d samples and MethodLCP
	// builds an LCP of dimension m(d+2); the paper uses 8, and 64 already puts the pyramid within
	// 0.5 % of the disc.
	MaxTangents = 64
	// MaxAnderson is the largest Options.Anderson depth: the history holds depth × (2m + 2·ndof)
	// numbers and a depth × depth least-squares system; depths beyond about 10 stop paying.
	MaxAnderson = 64
	// MaxPivotLimit is the largest Options.PivotLimit: the pivoting reference stores two dense
	// m × m matrices, 64 MB at 2000 contacts, and costs O(m³) per solve.
	MaxPivotLimit = 2000
	// MaxLCPSize is the largest Options.LCPMaxSize: Lemke's method stores about three dense n × n
	// matrices, 384 MB at n = 4000.
	MaxLCPSize = 4000
)

// Validate reports an Options field the solver cannot use, as an *InputError naming the field
// (Item "options"), with the value found and the range allowed. A zero field always passes: it
// selects its default. Otherwise:
//
//   - Method is "sp", "pgs" or "lcp"; Friction is Pyramid or Disc; ContactSolver is one of
//     ContactAuto, ContactPGSSM, ContactPivot, ContactActiveSet and ContactInterior;
//   - Tangents is even, in [4, MaxTangents];
//   - Epsilon, ContactTol and FrictionTol are finite and in (0, 1), FrictionGap finite and in
//     [0, 1): each is relative to a scale, and a value of the scale itself would accept any
//     answer;
//   - MaxIters, StallIters, FrictionMaxSweeps, Presolve, PGSIters, LCPMaxPivots, WorkBudget and
//     TimeBudget are ≥ 0 (they bound work, not memory, so they have no upper limit);
//   - PivotLimit is in [0, MaxPivotLimit], LCPMaxSize in [0, MaxLCPSize], Anderson at most
//     MaxAnderson (a negative depth turns acceleration off).
//
// NewSolver calls it.
func (opts Options) Validate() error {
	_, err := opts.withDefaults()
	return err
}

// optionsError builds the *InputError for an invalid Options field.
func optionsError(field, format string, args ...any) error {
	return &InputError{Item: "options", Index: -1, Field: "Options." + field, Reason: fmt.Sprintf(format, args...)}
}

// checkRelTol refuses a relative tolerance that is not 0 (the default) or finite and in (0, 1).
func checkRelTol(field string, v, def float64) error {
	if v == 0 || (v > 0 && v < 1) {
		return nil
	}
	return optionsError(field, "must be finite and in (0, 1) (0 selects the default %v), got %v", def, v)
}

// checkCount refuses a negative count or bound (0 selects the default or no bound).
func checkCount(field string, v int) error {
	if v < 0 {
		return optionsError(field, "must be ≥ 0, got %d", v)
	}
	return nil
}

// withDefaults validates opts and fills in the defaults of its zero-valued fields.
func (opts Options) withDefaults() (Options, error) {
	if opts.Method == "" {
		opts.Method = MethodSP
	}
	switch opts.Method {
	case MethodSP, MethodPGS, MethodLCP:
	default:
		return opts, optionsError("Method", "must be \"sp\", \"pgs\" or \"lcp\", got %q", opts.Method)
	}
	if opts.Friction != Pyramid && opts.Friction != Disc {
		return opts, optionsError("Friction", "must be Pyramid (0) or Disc (1), got %d", opts.Friction)
	}
	if opts.Tangents == 0 {
		opts.Tangents = defaultTangents
	}
	if opts.Tangents < 4 || opts.Tangents > MaxTangents || opts.Tangents%2 != 0 {
		return opts, optionsError("Tangents", "must be even and in [4, %d], got %d", MaxTangents, opts.Tangents)
	}
	if opts.ContactSolver < ContactAuto || opts.ContactSolver > ContactInterior {
		return opts, optionsError("ContactSolver", "must be ContactAuto, ContactPGSSM, ContactPivot, ContactActiveSet or ContactInterior (0 to 4), got %d", opts.ContactSolver)
	}
	for _, c := range []struct {
		field string
		v     *float64
		def   float64
	}{{"Epsilon", &opts.Epsilon, defaultEpsilon}, {"ContactTol", &opts.ContactTol, defaultContactTol}, {"FrictionTol", &opts.FrictionTol, defaultFrictionTol}} {
		if err := checkRelTol(c.field, *c.v, c.def); err != nil {
			return opts, err
		}
		if *c.v == 0 {
			*c.v = c.def
		}
	}
	if !(opts.FrictionGap >= 0 && opts.FrictionGap < 1) {
		return opts, optionsError("FrictionGap", "must be finite and in [0, 1), got %v", opts.FrictionGap)
	}
	if opts.TimeBudget < 0 {
		return opts, optionsError("TimeBudget", "must be ≥ 0, got %v", opts.TimeBudget)
	}
	for _, c := range []struct {
		field string
		v     int
	}{{"MaxIters", opts.MaxIters}, {"StallIters", opts.StallIters}, {"FrictionMaxSweeps", opts.FrictionMaxSweeps}, {"WorkBudget", opts.WorkBudget},
		{"Presolve", opts.Presolve}, {"PGSIters", opts.PGSIters}, {"LCPMaxPivots", opts.LCPMaxPivots}} {
		if err := checkCount(c.field, c.v); err != nil {
			return opts, err
		}
	}
	if opts.PivotLimit < 0 || opts.PivotLimit > MaxPivotLimit {
		return opts, optionsError("PivotLimit", "must be in [0, %d], got %d", MaxPivotLimit, opts.PivotLimit)
	}
	if opts.LCPMaxSize < 0 || opts.LCPMaxSize > MaxLCPSize {
		return opts, optionsError("LCPMaxSize", "must be in [0, %d], got %d", MaxLCPSize, opts.LCPMaxSize)
	}
	if opts.Anderson > MaxAnderson {
		return opts, optionsError("Anderson", "must be at most %d (negative: off), got %d", MaxAnderson, opts.Anderson)
	}
	if opts.MaxIters == 0 {
		opts.MaxIters = defaultMaxIters
	}
	if opts.PivotLimit == 0 {
		opts.PivotLimit = defaultPivotLimit
	}
	if opts.FrictionMaxSweeps == 0 {
		opts.FrictionMaxSweeps = defaultFrictionMaxSweeps
	}
	if opts.Anderson == 0 {
		opts.Anderson = defaultAnderson
	}
	if opts.PGSIters == 0 {
		opts.PGSIters = defaultPGSIters
	}
	if opts.LCPMaxSize == 0 {
		opts.LCPMaxSize = defaultLCPMaxSize
	}
	return opts, nil
}
