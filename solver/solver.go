package solver

import (
	"fmt"
	"math"
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
	// three per contact, and, if it has not converged, MPRGP from the same start; then, on small
	// islands, the pivoting reference. PGS-SM is the faster on consistent problems (tall stacks,
	// resting piles), MPRGP the one that cannot diverge. The default.
	ContactAuto ContactSolver = iota
	// ContactPGSSM is projected Gauss–Seidel sweeps finished by Jacobi-preconditioned conjugate
	// gradients on the predicted active set, repeated until the LCP holds to ContactTol (course
	// notes §3.2.6), falling back to ContactPivot on small islands if it stalls. Its
	// clip-and-resolve loop can stall on nearly redundant contacts whose gap terms differ
	// (BENCHMARKS.md).
	ContactPGSSM
	// ContactMPRGP is Dostál's MPRGP (mprgp.go) in Jacobi-scaled variables, after three projected
	// Gauss–Seidel sweeps when cold: conjugate gradients on the free face with feasible step
	// lengths, expansion and proportioning steps, monotone in the objective, so nearly redundant
	// contacts cannot make it diverge. Falls back to ContactPivot on small islands if it stalls.
	ContactMPRGP
	// ContactPivot is Baraff's (1994) Dantzig-style principal pivoting on the dense Delassus
	// matrix: exact in finitely many pivots, O(m³) and more; the reference, for small islands.
	ContactPivot
)

// Options configure a Solver. The zero value of every field selects its default.
type Options struct {
	// Method is MethodSP (default), MethodPGS or MethodLCP.
	Method string
	// Friction is Pyramid (default, as in the paper) or Disc.
	Friction FrictionModel
	// Tangents is d, the number of tangent samples per contact for the pyramid and for MethodLCP
	// (even, ≥ 4; default 8 as in the paper's Table 1).
	Tangents int
	// Epsilon is ε, the threshold on rel_err (paper eq. 28); default 1e-4.
	Epsilon float64
	// MaxIters bounds the number of staggered subsequences (contact then friction projection);
	// default 50. Algorithm 1 always adds the final contact projection.
	MaxIters int
	// TimeBudget, if positive, bounds the wall time of one Solve: the staggered loop stops early
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
	// min(A_kk α_k, w_k) within ContactTol·scale of zero. Default 1e-10.
	ContactTol float64
	// PivotLimit is the largest island (in contacts) on which the iterative sub-solvers fall back to the
	// pivoting reference when it stalls; default 400.
	PivotLimit int
	// FrictionTol stops the friction projection's block Gauss–Seidel when no contact's tangential
	// velocity changes by more than FrictionTol·scale in a sweep. Default 1e-9.
	FrictionTol float64
	// FrictionMaxSweeps bounds the friction projection's sweeps; default 2000.
	FrictionMaxSweeps int
	// Anderson is the depth of Anderson acceleration of the staggered fixed-point map, applied to
	// the body-space friction impulse in the kinetic metric (DESIGN.md); 0 selects the default 5,
	// a negative value disables it (the paper's plain loop).
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
	// of the friction's work to the step's energy, millijoules on a forming pile. Off by default
	// in the solver (the paper's loop: it moves converged answers, and a sliding tower's next
	// warm step then takes 11 subsequences instead of 10); the physics pipeline turns it on.
	Settle bool
	// Sharpen runs the staggered loop on after an iterate meets ε while every loaded contact
	// slides, for as long as rel_err keeps falling, until the update is a fixed point to working
	// accuracy (no velocity moved by more than FrictionTol·scale) or MaxIters. With every contact
	// sliding the fixed-point map is nearly affine and the Anderson-accelerated loop reaches that
	// in a few more subsequences, whereas an ε-converged answer leaves up to ε of the friction
	// impulse misdirected, which shows as a sliding box spinning about its normal and travelling a
	// few parts in a million further than Coulomb's law lets it (the incline scene, BENCHMARKS.md).
	// Off by default in the solver (the paper's loop); the physics pipeline turns it on.
	Sharpen bool
	// SkipWarmCheck turns off the check that returns a warm start which already satisfies both
	// projections' optimality conditions as the answer, without projecting (warmcheck.go). The
	// check makes a converged warm start nearly free (paper §6.4). The physics pipeline turns it
	// off: there a resting island's warm start misses the conditions by a few ContactTol, the
	// check's pass is then wasted, and the answers it does accept leave residuals that later steps
	// pay for (BENCHMARKS.md).
	SkipWarmCheck bool
	// PGSIters is MethodPGS's fixed number of sweeps; default 50.
	PGSIters int
	// LCPMaxSize is MethodLCP's largest LCP dimension (contacts × (d+2)); default 2000.
	LCPMaxSize int
	// LCPMaxPivots bounds Lemke's pivots; default 50 × the LCP dimension.
	LCPMaxPivots int
}

// exactFactor is the margin between ContactTol, the contact projection's target, and the bound
// Stats.ContactExact certifies: the LCP residual of an exact answer is at most
// exactFactor·ContactTol·scale (1e-9·scale by default, the contract of DESIGN.md).
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
	// BudgetHit reports that TimeBudget stopped the staggered loop.
	BudgetHit bool
	// Repairs counts the rounds that made an unconverged answer's friction feasible and
	// dissipative after the final contact projection (dissipate.go); 0 when none was needed.
	Repairs int
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
// it. The result satisfies Σβ_k ≤ μ_kα_k whenever the vector lies in the d-gon.
func (r *Result) Beta(k int, dst []float64) []float64 {
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

// Solver owns every buffer of a solve and reuses them across steps: once its buffers have grown
// to an island's size, Solve does not allocate. A Solver is not safe for concurrent use; use one
// per worker. Results are bit-identical for identical inputs.
type Solver struct {
	opts Options
	op   operator

	scale float64 // velocity scale of the current problem

	// shared vectors
	v, u, imp        []float64 // ndof
	alpha, alphaBest []float64 // m
	f, fBest, x      []float64 // 2m
	w, r, z, p, q    []float64 // m (contact CG)
	sd, isd          []float64 // m: √A_kk and its inverse (MPRGP scaling)
	alphaSave        []float64 // m: ContactAuto's start, for MPRGP after PGS-SM
	fSave, tSave     []float64 // 2m: friction and tangential velocities before a subspace step
	vSave            []float64 // ndof: the velocity before a friction subspace step
	fr, fz, fp, fq   []float64 // 2m (friction CG)
	ja, jf           []float64 // joint candidate (m, 2m)
	jr, jz, jp, jq   []float64 // 3m (joint CG)
	jmask            []int8
	active           []int
	// The incomplete Cholesky preconditioners of the contact and friction CGs.
	icContact, icFriction delassusIC
	// coupling holds the Delassus blocks the factors gather from, assembled once per solve.
	coupling delassusCoupling

	// pyramid tables
	cosT, sinT []float64

	// pivoting reference
	pv pivotBuffers
	// Anderson acceleration
	aa anderson
	// Lemke
	lk           lemkeBuffers
	lemkeFailure string

	st Stats
	// warmContact tells projectContact that s.alpha came from a previous projection; warmAlpha
	// that the problem supplied a nonzero warm normal impulse (last step's answer).
	warmContact, warmAlpha bool
	// bestExact: the kept (α, f) pair is an exact contact projection of f.
	bestExact bool
	// noJoint turns the joint sticking solve off for the current solve (the retry without it).
	noJoint bool
	// fdeadline is the current friction projection's deadline (zero: none).
	fdeadline time.Time
}

// NewSolver returns a Solver with opts, after filling in defaults. It fails on an unknown method
// or an invalid tangent count.
func NewSolver(opts Options) (*Solver, error) {
	if opts.Method == "" {
		opts.Method = MethodSP
	}
	switch opts.Method {
	case MethodSP, MethodPGS, MethodLCP:
	default:
		return nil, &InputError{Item: "problem", Index: -1, Field: "Options.Method", Reason: "must be \"sp\", \"pgs\" or \"lcp\""}
	}
	if opts.Tangents == 0 {
		opts.Tangents = 8
	}
	if opts.Tangents < 4 || opts.Tangents%2 != 0 {
		return nil, &InputError{Item: "problem", Index: -1, Field: "Options.Tangents", Reason: "must be even and ≥ 4"}
	}
	if opts.Friction != Pyramid && opts.Friction != Disc {
		return nil, &InputError{Item: "problem", Index: -1, Field: "Options.Friction", Reason: "is unknown"}
	}
	if opts.Epsilon <= 0 {
		opts.Epsilon = 1e-4
	}
	if opts.MaxIters <= 0 {
		opts.MaxIters = 50
	}
	if opts.ContactTol <= 0 {
		opts.ContactTol = 1e-10
	}
	if opts.PivotLimit <= 0 {
		opts.PivotLimit = 400
	}
	if opts.FrictionTol <= 0 {
		opts.FrictionTol = 1e-9
	}
	if opts.FrictionMaxSweeps <= 0 {
		opts.FrictionMaxSweeps = 2000
	}
	if opts.Anderson == 0 {
		opts.Anderson = 5
	}
	if opts.PGSIters <= 0 {
		opts.PGSIters = 50
	}
	if opts.LCPMaxSize <= 0 {
		opts.LCPMaxSize = 2000
	}
	s := &Solver{opts: opts}
	s.icContact.narrow = icNarrowShift
	d := opts.Tangents
	s.cosT = make([]float64, d)
	s.sinT = make([]float64, d)
	for j := 0; j < d; j++ {
		th := 2 * math.Pi * float64(j) / float64(d)
		s.cosT[j], s.sinT[j] = math.Cos(th), math.Sin(th)
	}
	return s, nil
}

// Options returns the solver's options with defaults filled in.
func (s *Solver) Options() Options { return s.opts }

// Solve validates p and solves it with the configured method into res. On invalid input it
// returns an *InputError and leaves res untouched. Otherwise res always holds finite values; a
// *SolveError reports that the method could not reach its promised accuracy (res then holds the
// best iterate, still contact-exact for MethodSP whenever res.Stats.ContactExact).
func (s *Solver) Solve(p *Problem, res *Result) error {
	if err := p.Validate(); err != nil {
		return err
	}
	start := time.Now()
	if s.opts.Method == MethodSP && !s.opts.SkipWarmCheck && s.acceptWarmStart(p, res, start) {
		return nil
	}
	s.prepare(p)
	var err error
	switch s.opts.Method {
	case MethodPGS:
		s.solvePGS(p)
	case MethodLCP:
		err = s.solveLCP(p)
	default:
		s.solveSP(p, start)
		if s.st.JointAccepted && s.st.Iterations < s.opts.MaxIters && s.frictionDoesWork() {
			s.retryWithoutJoint(p, start)
		}
	}
	s.finish(res, start)
	if err == nil && s.opts.Method == MethodSP && !res.Stats.ContactExact {
		// SP promises contact exactness; an answer without it is the best available, not a
		// converged one.
		res.Stats.Converged = false
		err = &SolveError{Method: MethodSP, Reason: fmt.Sprintf("contact projection inexact: LCP residual %.3g m/s", res.Stats.ContactError)}
	}
	return err
}

// prepare compiles the operator and sizes the buffers for p.
func (s *Solver) prepare(p *Problem) {
	s.op.compile(p)
	m, n := s.op.m, s.op.ndof
	s.v = growF(s.v, n)
	s.u = growF(s.u, n)
	s.imp = growF(s.imp, n)
	s.alpha = growF(s.alpha, m)
	s.alphaBest = growF(s.alphaBest, m)
	s.f = growF(s.f, 2*m)
	s.fBest = growF(s.fBest, 2*m)
	s.x = growF(s.x, 2*m)
	s.fr = growF(s.fr, 2*m)
	s.fz = growF(s.fz, 2*m)
	s.fp = growF(s.fp, 2*m)
	s.fq = growF(s.fq, 2*m)
	s.ja = growF(s.ja, m)
	s.jf = growF(s.jf, 2*m)
	s.jr = growF(s.jr, 3*m)
	s.jz = growF(s.jz, 3*m)
	s.jp = growF(s.jp, 3*m)
	s.jq = growF(s.jq, 3*m)
	if cap(s.jmask) < m {
		s.jmask = make([]int8, m)
	}
	s.jmask = s.jmask[:m]
	s.w = growF(s.w, m)
	s.r = growF(s.r, m)
	s.z = growF(s.z, m)
	s.p = growF(s.p, m)
	s.q = growF(s.q, m)
	s.sd = growF(s.sd, m)
	s.isd = growF(s.isd, m)
	s.alphaSave = growF(s.alphaSave, m)
	s.fSave = growF(s.fSave, 2*m)
	s.tSave = growF(s.tSave, 2*m)
	s.vSave = growF(s.vSave, n)
	s.active = growI(s.active, m)
	s.icContact.invalidate()
	s.icFriction.invalidate()
	s.coupling.invalidate()
	s.warmStart(p)
	s.scale = s.op.scale
	s.st = Stats{Method: s.opts.Method, Contacts: m, Scale: s.scale}
}

// warmStart sets (s.alpha, s.f) to p's warm start.
func (s *Solver) warmStart(p *Problem) {
	s.warmAlpha = false
	for k := range p.contacts {
		c := &p.contacts[k]
		s.alpha[k] = max(c.WarmNormal, 0)
		if s.alpha[k] > 0 {
			s.warmAlpha = true
		}
		s.f[2*k], s.f[2*k+1] = c.WarmFriction[0], c.WarmFriction[1]
	}
	s.bestExact = false
}

// finish copies the current answer (s.alpha, s.f) into res with the final velocity and gaps.
func (s *Solver) finish(res *Result, start time.Time) {
	m, n := s.op.m, s.op.ndof
	res.Alpha = growF(res.Alpha, m)
	res.Friction = growF(res.Friction, 2*m)
	res.Qdot = growF(res.Qdot, n)
	// Never return NaN: sanitize (a no-op unless a numeric failure slipped through).
	for k := 0; k < m; k++ {
		if !isFinite(s.alpha[k]) || s.alpha[k] < 0 {
			s.alpha[k] = 0
		}
		if !isFinite(s.f[2*k]) || !isFinite(s.f[2*k+1]) {
			s.f[2*k], s.f[2*k+1] = 0, 0
		}
	}
	copy(res.Alpha, s.alpha)
	copy(res.Friction, s.f)
	s.op.velocity(s.alpha, s.f, res.Qdot)
	minGap := math.Inf(1)
	worst := 0.0
	for k := 0; k < m; k++ {
		w := s.op.rowDot(k, 0, res.Qdot) + s.op.bEff[k]
		minGap = min(minGap, w)
		worst = max(worst, math.Abs(min(s.alpha[k]*s.op.g[6*k], w)))
	}
	if m == 0 {
		minGap = 0
	}
	s.st.MinGap = minGap
	s.st.ContactError = worst
	s.st.ContactExact = worst <= s.opts.ContactTol*s.scale*exactFactor
	s.st.Elapsed = time.Since(start)
	res.Stats = s.st
}
