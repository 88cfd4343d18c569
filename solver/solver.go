package solver

import (
	"fmt"
	"math"
	"time"
)

// Solver solves Problems. It owns every buffer of a solve and reuses them across steps: once its
// buffers have grown to an island's size, Solve does not allocate. A Solver is not safe for
// concurrent use; use one per worker. Results are bit-identical for identical inputs. The zero
// Solver solves with the default Options, like NewSolver(Options{}).
//
// Its parts are the sub-solvers' workspaces, each with explicit inputs and outputs: the contact
// projection (contact.go, activeset.go, interior.go, pivot.go), the friction projection (friction.go), the joint
// sticking solve (joint.go), Anderson acceleration (anderson.go) and the warm-start check
// (warmcheck.go). The staggered loop (staggered.go) and the repair of its answer (dissipate.go)
// drive them on the solve's iterate.
type Solver struct {
	opts Options
	set  frictionSet
	op   operator

	// The solve's iterate: normal impulses α (m), friction impulses f (2m) and the velocity
	// v = q̇ᴾ + M⁻¹(Nα + Df) (ndof) of the last evaluation.
	alpha, f, v []float64
	// The staggered loop's map input x (2m) and its kept iterate.
	x, alphaBest, fBest []float64
	// alphaSettle and fSettle keep the answer settleFriction starts from; alphaStart and fStart
	// the warm start the presolve may restore.
	alphaSettle, fSettle, alphaStart, fStart []float64
	// presolved: the presolve replaced the warm start (presolve.go), and the energy certificate
	// charges the answer's normal impulses ContactTol (energyTolerance).
	presolved bool
	// warmAlpha: the iterate's normal impulse is nonzero and warm (last step's answer, or the
	// presolve's), so the first contact projection starts from it. warm: the problem came with a
	// warm start at all (hasWarm), which the work budget needs (budget.go).
	warmAlpha, hasWarm bool

	contact  contactProjection
	friction frictionProjection
	joint    jointSolve
	accel    anderson
	warm     warmCheck
	lcp      lemkeBuffers

	lemkeFailure string
	st           Stats
	// workBefore is the work of an earlier attempt of this Solve (retryWithoutJoint), which the
	// work budget counts; factorWork the active set's factor work so far (contactWork.FactorWork).
	workBefore, factorWork int
}

// NewSolver returns a Solver with opts, after filling in defaults. It fails with an *InputError
// naming the field on options that Options.Validate refuses.
func NewSolver(opts Options) (*Solver, error) {
	opts, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	s := &Solver{}
	s.init(opts)
	return s, nil
}

// init configures s for opts, whose defaults are filled in.
func (s *Solver) init(opts Options) {
	s.opts, s.set = opts, newFrictionSet(opts.Friction, opts.Tangents)
	s.contact = newContactProjection(&opts)
	s.friction.set = s.set
	s.joint.set, s.joint.relTol = s.set, opts.ContactTol
}

// ready makes the zero Solver one with the default options, as NewSolver(Options{}) returns,
// and refuses a nil problem or result.
func (s *Solver) ready(p *Problem, res *Result) error {
	if s.opts.Method == "" { // every configured Solver has a method
		opts, _ := Options{}.withDefaults()
		s.init(opts)
	}
	if p == nil {
		return &InputError{Item: "problem", Index: -1, Field: "p", Reason: "must not be nil"}
	}
	if res == nil {
		return &InputError{Item: "problem", Index: -1, Field: "res", Reason: "must not be nil"}
	}
	return nil
}

// Options returns the solver's options with defaults filled in (the default options for the zero
// Solver).
func (s *Solver) Options() Options {
	if s.opts.Method == "" {
		opts, _ := Options{}.withDefaults()
		return opts
	}
	return s.opts
}

// Solve validates p and solves it with the configured method into res. On invalid input (a nil
// p or res included) it returns an *InputError and leaves res untouched. Otherwise res always
// holds finite values; a *SolveError reports that the method could not reach its promised
// accuracy (res then holds the best iterate, still contact-exact for MethodSP whenever
// res.Stats.ContactExact). The zero Solver solves with the default Options.
func (s *Solver) Solve(p *Problem, res *Result) error {
	if err := s.ready(p, res); err != nil {
		return err
	}
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
		s.solvePGS()
	case MethodLCP:
		err = s.solveLCP()
	default:
		s.presolve()
		s.solveSP(p, start, s.opts.MaxIters, s.opts.Epsilon, s.opts.Joint)
		// An answer reached through the joint candidate is solved again without it only if its
		// friction does more work than a loop converged to ε may leave (docs/architecture.md,
		// Joint sticking solve); below that it is settled like any converged answer.
		if s.st.JointAccepted && s.st.Iterations < s.opts.MaxIters && s.frictionWork() > max(s.opts.Epsilon, s.opts.FrictionTol) {
			s.retryWithoutJoint(p, start)
		}
		s.certifyEnergy(p, start)
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

// projectContact runs the contact projection for the friction impulse f on the solve's iterate
// (s.alpha in and out, s.v out) to ContactTol, counting its work; warm: s.alpha came from a
// previous projection or from last step's answer.
func (s *Solver) projectContact(f []float64, warm bool) bool {
	return s.projectContactTo(f, warm, 0)
}

// projectContactTo is projectContact to the looser absolute tolerance loose where that exceeds
// ContactTol·scale (the staggered loop's inexact subsequences); it reports whether the projection
// met its tolerance.
func (s *Solver) projectContactTo(f []float64, warm bool, loose float64) bool {
	exact, w := s.contact.project(&s.op, f, s.alpha, s.v, warm, loose)
	s.st.ContactSweeps += w.Sweeps
	s.st.ContactCG += w.CG
	s.st.ContactPivots += w.Pivots
	s.st.ContactInterior += w.Interior
	s.factorWork += w.FactorWork
	s.st.Fallbacks += w.Fallbacks
	return exact
}

// projectFriction runs the friction projection for s.alpha into f (warm-started from f) to tol,
// and to the relative dissipation gap gap if positive, within what is left of the work budget,
// keeping s.v, counting its work. It reports whether the deadline (zero: none) stopped it.
func (s *Solver) projectFriction(f []float64, tol, gap float64, deadline time.Time) bool {
	tg := frictionTarget{tol: tol, gap: gap, maxSweeps: s.opts.FrictionMaxSweeps, maxPasses: s.passesLeft(minFrictionPasses), deadline: deadline}
	w, cut := s.friction.project(&s.op, s.alpha, f, s.v, tg)
	s.st.FrictionSweeps += w.Sweeps
	s.st.FrictionCG += w.CG
	return cut
}

// prepare compiles the operator and sizes the buffers for p.
func (s *Solver) prepare(p *Problem) {
	s.op.compile(p)
	m, n := s.op.m, s.op.ndof
	s.v = grow(s.v, n)
	s.alpha = grow(s.alpha, m)
	s.alphaBest = grow(s.alphaBest, m)
	s.f = grow(s.f, 2*m)
	s.fBest = grow(s.fBest, 2*m)
	s.alphaSettle = grow(s.alphaSettle, m)
	s.fSettle = grow(s.fSettle, 2*m)
	s.alphaStart = grow(s.alphaStart, m)
	s.fStart = grow(s.fStart, 2*m)
	s.x = grow(s.x, 2*m)
	s.contact.resize(&s.op)
	s.friction.resize(&s.op)
	s.joint.resize(&s.op)
	s.warmStart(p)
	s.st = Stats{Method: s.opts.Method, Contacts: m, Scale: s.op.scale}
	s.factorWork = 0
}

// warmStart sets (s.alpha, s.f) to p's warm start.
func (s *Solver) warmStart(p *Problem) {
	s.warmAlpha, s.hasWarm = false, false
	for k := range p.contacts {
		c := &p.contacts[k]
		s.alpha[k] = max(c.WarmNormal, 0)
		if s.alpha[k] > 0 {
			s.warmAlpha = true
		}
		s.f[2*k], s.f[2*k+1] = c.WarmFriction[0], c.WarmFriction[1]
		if s.f[2*k] != 0 || s.f[2*k+1] != 0 {
			s.hasWarm = true
		}
	}
	s.hasWarm = s.hasWarm || s.warmAlpha
}

// finish copies the current answer (s.alpha, s.f) into res with the final velocity and gaps.
func (s *Solver) finish(res *Result, start time.Time) {
	m, n := s.op.m, s.op.ndof
	res.Alpha = grow(res.Alpha, m)
	res.Friction = grow(res.Friction, 2*m)
	res.Qdot = grow(res.Qdot, n)
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
	s.st.ContactExact = worst <= s.opts.ContactTol*s.op.scale*exactFactor
	s.st.Work = s.workDone()
	s.st.Elapsed = time.Since(start)
	res.Stats = s.st
}
