package physics

import (
	"errors"
	"math"
	"slices"
	"sync/atomic"
	"time"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/stagger-physics/stagger/solver"
)

// contactStage turns the step's contact list into one solver.Problem per island, solves each with
// Staggered Projections (or the configured baseline), and returns the constrained velocity q̇ᵗ⁺¹ and
// the contact impulse M(q̇ᵗ⁺¹ − q̇ᴾ) of every body that touched something, and every contact point's
// impulse. Islands are solved on the caller's worker pool; an island's solve reads and writes only
// its own bodies' entries and its own contacts' impulses, and depends on nothing but its own
// problem, so the result is bit-identical for any number of workers. A warm stage does not
// allocate.
type contactStage struct {
	workers []islandWorker
	next    atomic.Int64
	// in is the current solve's input, shared read-only by the workers while they solve.
	in contactInput

	isl      islands
	tangents [][2]mgl64.Vec3  // per contact of the list: its tangent basis (tangentBasis)
	block    []int            // per model: its block in its island's problem
	qdot     []float64        // q̇ᵗ⁺¹ in the step's layout (valid for bodies in an island)
	impulse  []float64        // M(q̇ᵗ⁺¹ − q̇ᴾ) in the step's layout
	shift    []float64        // the separation's displacement Δq in the step's layout (separation.go)
	impulses []contactImpulse // per contact of the list
	outcomes []islandOutcome  // per island
	// order lists the awake islands, those with the most contacts first, in the order the workers
	// take them (orderIslands).
	order []int
	// epsilon is the configured solver's ε (its default filled in), which rel_err is measured
	// against in contactStats.maxErrRatio.
	epsilon float64
	// kept holds the previous solve's answers while a re-solve reuses them (keepUntouched).
	kept keptAnswers
}

// contactInput is what the contact stage reads in one step. The stage keeps none of it past the
// solve.
type contactInput struct {
	h float64 // the step, s
	// models are the step's dynamic bodies, placed in layout; qdotP is their predicted velocity q̇ᴾ
	// in that layout, and asleep, per model, whether the body slept at the start of the step
	// (sleeping.go).
	models []rigidModel
	// deformables are the step's reduced deformable bodies, models len(models) + j in layout
	// (deformable_model.go): the rigid bodies keep their own slice, so their hot paths call
	// rigidModel directly.
	deformables []*deformableModel
	layout      *Layout
	qdotP       []float64
	asleep      []bool
	// contacts are the step's contact points, from the collision stage.
	contacts *contactList
	// config gives the gap term's RestingGap, PenetrationRecovery and MaxRecoverySpeed, and
	// ColdStart.
	config *Config
	// pool's helpers share the islands with the calling goroutine (nil: it solves them alone), at
	// most one per worker the stage was made with, beyond the first.
	pool *workerPool
	// woken is nil, or it marks per model the bodies woken since the stage's previous solve of
	// the same step (Simulation.wakePressed), which this solve repeats: an island with none of
	// them is the previous solve's island, with the same problem, and keeps its answer
	// (keepUntouched).
	woken []bool
}

// contactOutput is what the contact stage returns of one step. Its slices and islands are the
// stage's buffers: the caller reads them, and they hold until the stage's next solve.
type contactOutput struct {
	stats contactStats
	// islands splits the models and contacts into islands; outcomes says, per island, what its
	// solve reported, or that it was left asleep.
	islands  *islands
	outcomes []islandOutcome
	// qdot is q̇ᵗ⁺¹ and impulse the contact impulse M(q̇ᵗ⁺¹ − q̇ᴾ), in the step's layout; both
	// valid for the bodies of the islands solved. shift is the separation's displacement, valid
	// for the bodies of the islands whose outcome says separated.
	qdot, impulse, shift []float64
	// impulses is, per contact of the list, the impulse of the solve. The contacts of an island
	// left asleep, or whose problem was malformed, keep their warm start.
	impulses []contactImpulse
}

// islandWorker is one worker's solvers and scratch buffers.
type islandWorker struct {
	solver *solver.Solver
	// fallback solves an island again when the configured solver could not make the contact
	// projection exact: projected Gauss–Seidel, which is inexact but bounded, so a failed solve
	// never hands the step a wild velocity (docs/architecture.md, Errors).
	fallback *solver.Solver
	// separator solves the position problem of the separation (separation.go) into shift; gaps
	// holds the island's contact gaps for it.
	separator *solver.Solver
	problem   solver.Problem
	result    solver.Result
	shift     solver.Result
	gaps      []float64
	mass      []float64 // scratch mass block
	// restitution holds the collision rounds' buffers (restitution.go).
	restitution restitutionScratch
}

// islandOutcome is what one island's solve reports.
type islandOutcome struct {
	iterations int
	work       int // the configured solver's contact updates (solver Stats.Work)
	// converged: the solve met ε with an exact contact projection; fellBack: its contact
	// projection was inexact and PGS solved the island again; cutShort: a Staggered Projections
	// solve kept its contact-exact answer without meeting ε (StepStats.CutShort), budgetCut
	// when the time budget was what stopped it. At most one of the first three holds.
	converged, fellBack, cutShort, budgetCut bool
	// relErr and residual are the configured solver's eq. 28 and eq. 29 figures (solver.Stats),
	// kept before a fallback solve overwrites the result; relErr is +Inf when it is unknown (NaN).
	relErr, residual float64
	err              error
	// sleeping: every body of the island sleeps and nothing touches it that moves; the island is
	// not solved and its bodies stay where they are.
	sleeping bool
	// separated: the separation moved the island's bodies by contactStage.shift, adding
	// separationWork of potential energy, J.
	separated      bool
	separationWork float64
	// bounced: some of the island's contacts bounced (restitution.go), and contactStage.shift
	// holds the displacement h(q̇ₛ − q̇ᵗ⁺¹) that moves its bodies with the first solve's velocity.
	bounced bool
	// kept: a re-solve of the step took this outcome and the island's answers from the solve
	// before it (keepUntouched); its work was counted there.
	kept bool
	// failed is the refusal of the island's problem (a *solver.InputError, or a contact beyond
	// MaxMassRatio: *massRatioError): the island was not solved, and its bodies are held for the
	// step (failed.go).
	failed error
}

// displaced reports whether the island's bodies move by contactStage.shift besides h·q̇ᵗ⁺¹.
func (o *islandOutcome) displaced() bool { return o.separated || o.bounced }

// newContactStage returns a stage with workers solvers configured by cfg.
func newContactStage(cfg *Config, workers int) (*contactStage, error) {
	cs := &contactStage{workers: make([]islandWorker, workers)}
	for i := range cs.workers {
		w := &cs.workers[i]
		var err error
		if w.solver, err = solver.NewSolver(cfg.Solver); err != nil {
			return nil, fieldError("Config.Solver", "%v", err)
		}
		fb := solver.Options{Method: solver.MethodPGS, Friction: cfg.Solver.Friction, Tangents: cfg.Solver.Tangents}
		if w.fallback, err = solver.NewSolver(fb); err != nil {
			return nil, fieldError("Config.Solver", "%v", err)
		}
		// Frictionless: the separation's problem has μ = 0, so one contact projection solves it.
		sep := solver.Options{Method: solver.MethodSP, Friction: cfg.Solver.Friction, Tangents: cfg.Solver.Tangents, SkipWarmCheck: true}
		if w.separator, err = solver.NewSolver(sep); err != nil {
			return nil, fieldError("Config.Solver", "%v", err)
		}
	}
	cs.epsilon = cs.workers[0].solver.Options().Epsilon
	return cs, nil
}

// contactStats is what the stage reports about one step.
type contactStats struct {
	contacts, islands, iterations, converged, fallbacks int
	work                                                int // StepStats.Work
	failedIslands                                       int // islands whose solve refused the problem
	cutShort, budgetCut                                 int // StepStats.CutShort, BudgetCut
	sleeping                                            int // islands left asleep
	minGap                                              float64
	maxRelErr, maxResidual                              float64 // over the islands solved
	maxErrRatio                                         float64 // maxRelErr/ε
	separated                                           int     // StepStats.Separated
	separationWork                                      float64 // StepStats.SeparationWork
	bounced                                             int     // StepStats.Bounced
	// islandTime is the wall time of building the islands and marking the sleeping ones
	// (StepStats.Phases.Islands); the rest of the stage is the solve.
	islandTime time.Duration
}

// solve solves the contacts of the step. On an error (an island's problem was malformed) the
// output still holds what the other islands' solves found.
func (cs *contactStage) solve(in contactInput) (contactOutput, error) {
	if in.woken != nil {
		cs.kept.save(cs) // before the buffers are rebuilt
	}
	var st contactStats
	st.minGap = math.Inf(1)
	points := in.contacts.points
	cs.tangents = cs.tangents[:0]
	cs.impulses = cs.impulses[:0]
	var n, t1, t2 mgl64.Vec3
	for k := range points {
		c := &points[k]
		if k == 0 || c.pair != points[k-1].pair || c.normal != n {
			// Once per distinct normal of a manifold.
			n = c.normal
			t1, t2 = tangentBasis(n)
		}
		cs.tangents = append(cs.tangents, [2]mgl64.Vec3{t1, t2})
		cs.impulses = append(cs.impulses, c.warm)
		st.minGap = min(st.minGap, c.gap)
	}
	st.contacts = len(points)
	if st.contacts == 0 {
		st.minGap = 0
	}
	islandStart := time.Now()
	nm := in.count()
	cs.isl.reset(nm)
	// A detached contact (sleeping_parts.go) joins no islands and belongs to its awake body's.
	for k := range points {
		if a, b := points[k].a.model, points[k].b.model; a >= 0 && b >= 0 && !in.detached(&points[k]) {
			cs.isl.union(a, b)
		}
	}
	st.islands = cs.isl.build(nm, len(points), func(k int) int {
		c := &points[k]
		if in.detached(c) && in.asleep[c.a.model] {
			return c.b.model
		}
		if a := c.a.model; a >= 0 {
			return a
		}
		return c.b.model
	})
	dofs := in.layout.DoFs()
	cs.qdot = grow(cs.qdot, dofs)
	cs.impulse = grow(cs.impulse, dofs)
	cs.shift = grow(cs.shift, dofs)
	cs.block = growInts(cs.block, nm)
	if cap(cs.outcomes) < st.islands {
		cs.outcomes = make([]islandOutcome, st.islands)
	}
	cs.outcomes = cs.outcomes[:st.islands]
	st.sleeping = cs.markSleepingIslands(&in)
	st.islands -= st.sleeping
	if in.woken != nil {
		cs.keepUntouched(&in)
	}
	cs.orderIslands()
	st.islandTime = time.Since(islandStart)
	cs.in = in
	cs.next.Store(0)
	helpers := 0
	if in.pool != nil {
		helpers = max(0, min(len(cs.workers)-1, len(cs.order)-1))
		in.pool.start(cs, helpers)
	}
	cs.work(0)
	if in.pool != nil {
		in.pool.wait()
	}
	cs.in = contactInput{}
	out := contactOutput{
		islands: &cs.isl, outcomes: cs.outcomes, qdot: cs.qdot, impulse: cs.impulse, shift: cs.shift, impulses: cs.impulses,
	}
	for is := range cs.outcomes {
		o := &cs.outcomes[is]
		if o.err != nil {
			out.stats = st
			return out, o.err
		}
		if o.sleeping {
			continue
		}
		if o.failed != nil {
			st.failedIslands++
			continue
		}
		// Sums and maxima do not depend on the order the workers finished in.
		if !o.kept {
			st.iterations += o.iterations
			st.work += o.work
		}
		st.maxRelErr = max(st.maxRelErr, o.relErr)
		st.maxResidual = max(st.maxResidual, o.residual)
		if o.converged {
			st.converged++
		}
		if o.fellBack {
			st.fallbacks++
		}
		if o.cutShort {
			st.cutShort++
		}
		if o.budgetCut {
			st.budgetCut++
		}
		if o.separated {
			st.separated++
			st.separationWork += o.separationWork
		}
		if o.bounced {
			st.bounced++
		}
	}
	st.maxErrRatio = st.maxRelErr / cs.epsilon
	out.stats = st
	return out, nil
}

// work solves islands with worker w's buffers until none is left.
func (cs *contactStage) work(w int) {
	for {
		i := int(cs.next.Add(1) - 1)
		if i >= len(cs.order) {
			return
		}
		is := cs.order[i]
		o := &cs.outcomes[is]
		o.err = cs.workers[w].solveIsland(cs, is, o)
	}
}

// orderIslands lists the awake islands to solve (not kept) in cs.order, those with the most
// contacts first (ties in island order). Workers take islands in this order, so that the largest
// solves start first and the small ones fill the gaps, instead of a large island found last
// leaving the other workers idle while it runs. Each island's solve is independent of which
// worker runs it and when, so the order changes no result.
func (cs *contactStage) orderIslands() {
	cs.order = cs.order[:0]
	for is := range cs.outcomes {
		if o := &cs.outcomes[is]; !o.sleeping && !o.kept {
			cs.order = append(cs.order, is)
		}
	}
	start := cs.isl.contactStart
	slices.SortStableFunc(cs.order, func(a, b int) int {
		return (start[b+1] - start[b]) - (start[a+1] - start[a])
	})
}

// solveIsland assembles island is into the problem, solves it and scatters the answer. It reports
// in o the staggered iterations, the configured solver's error figures, and whether the solve met
// ε with an exact contact projection, was cut short or had to fall back to the bounded baseline.
func (wk *islandWorker) solveIsland(cs *contactStage, is int, o *islandOutcome) error {
	in := &cs.in
	models, layout, qdotP := in.models, in.layout, in.qdotP
	p := &wk.problem
	p.Reset()
	bodies := cs.isl.bodies[cs.isl.bodyStart[is]:cs.isl.bodyStart[is+1]]
	for _, mi := range bodies {
		if mi >= len(models) {
			wk.addBody(cs, mi, in.deformables[mi-len(models)])
			continue
		}
		m := &models[mi]
		size := m.DoFs()
		b := p.AddBlock(size)
		cs.block[mi] = b
		m.InverseMassBlock(p.InvMass(b)) // checked by Solve's validation
		off := p.BlockAt(b).Offset
		copy(p.QdotP[off:off+size], layout.Span(qdotP, mi))
		m.Velocity(p.QdotT[off : off+size])
	}
	contacts := cs.isl.contacts[cs.isl.contactStart[is]:cs.isl.contactStart[is+1]]
	wk.restitution.bkin = wk.restitution.bkin[:0]
	for _, k := range contacts {
		wk.addContact(cs, k)
	}
	if err := checkMassRatios(in, in.contacts.points, contacts); err != nil {
		return wk.fail(cs, contacts, o, err)
	}
	if testProblemHook != nil {
		testProblemHook(p)
	}
	err := wk.solver.Solve(p, &wk.result)
	if testSolvedHook != nil {
		testSolvedHook(p, &wk.result)
	}
	if err != nil && !isSolveError(err) {
		return wk.fail(cs, contacts, o, err)
	}
	res := &wk.result
	rs := &res.Stats
	o.iterations, o.work, o.relErr, o.residual = rs.Iterations, rs.Work, rs.RelErr, rs.Residual
	if math.IsNaN(o.relErr) {
		// A measure that came out non-finite ended the loop: the error is unknown, and a NaN
		// would also hide every other island's figure from the step's maximum.
		o.relErr = math.Inf(1)
	}
	exact := err == nil && (rs.Method != solver.MethodSP || rs.ContactExact)
	o.converged = exact && rs.Converged
	o.fellBack = !exact && rs.Method != solver.MethodPGS
	// Only Staggered Projections measures ε; the baselines never report Converged.
	o.cutShort = exact && !rs.Converged && rs.Method == solver.MethodSP
	o.budgetCut = o.cutShort && (rs.BudgetHit || rs.WorkHit)
	if o.fellBack {
		if err := wk.fallback.Solve(p, &wk.result); err != nil && !isSolveError(err) {
			return wk.fail(cs, contacts, o, err)
		}
	}
	qpos := res.Qdot // the velocity that moves the bodies
	if wk.bounceCandidates(cs, contacts) {
		if err := wk.bounce(cs, contacts); err != nil {
			return err
		}
		o.bounced = true
		qpos = wk.restitution.qpos
	}
	for _, mi := range bodies {
		bl := p.BlockAt(cs.block[mi])
		q := res.Qdot[bl.Offset : bl.Offset+bl.Size]
		dst := layout.Span(cs.qdot, mi)
		copy(dst, q)
		// The contact impulse M(q̇ᵗ⁺¹ − q̇ᴾ) (paper eq. 13 rearranged).
		wk.mass = grow(wk.mass, bl.Size*bl.Size)
		if mi < len(models) {
			models[mi].MassBlock(wk.mass)
		} else {
			in.deformables[mi-len(models)].MassBlock(wk.mass)
		}
		imp := layout.Span(cs.impulse, mi)
		qp := layout.Span(qdotP, mi)
		for r := 0; r < bl.Size; r++ {
			acc := 0.0
			for c := 0; c < bl.Size; c++ {
				acc += wk.mass[r*bl.Size+c] * (q[c] - qp[c])
			}
			imp[r] = acc
		}
	}
	for j, k := range contacts {
		t := &cs.tangents[k]
		a, f1, f2 := res.Alpha[j], res.Friction[2*j], res.Friction[2*j+1]
		if o.bounced {
			// The step's impulse includes the collision rounds'.
			imp := wk.restitution.impulse[3*j : 3*j+3]
			a, f1, f2 = a+imp[0], f1+imp[1], f2+imp[2]
		}
		cs.impulses[k] = contactImpulse{normal: a, friction: t[0].Mul(f1).Add(t[1].Mul(f2))}
	}
	if in.config.SeparationSpeed > 0 {
		// It rewrites the problem in place: after everything else that reads it.
		o.separated, o.separationWork = wk.separate(cs, bodies, contacts, qpos)
	}
	if o.bounced {
		// Move with q̇ₛ: q + h q̇ᵗ⁺¹ + h(q̇ₛ − q̇ᵗ⁺¹), on top of the separation's displacement.
		for _, mi := range bodies {
			bl := p.BlockAt(cs.block[mi])
			dst := in.layout.Span(cs.shift, mi)
			if !o.separated {
				clear(dst)
			}
			for i := range dst {
				dst[i] += in.h * (qpos[bl.Offset+i] - res.Qdot[bl.Offset+i])
			}
		}
	}
	return nil
}

// fail records that the solver refused island problem's input with err: the island's contacts get
// no impulse (nothing is carried to the next step's warm start) and its bodies are held (advance).
// The step goes on.
func (wk *islandWorker) fail(cs *contactStage, contacts []int, o *islandOutcome, err error) error {
	o.failed = err
	o.iterations, o.work, o.relErr, o.residual = 0, 0, 0, 0
	o.converged, o.fellBack, o.cutShort, o.budgetCut, o.bounced, o.separated = false, false, false, false, false, false
	for _, k := range contacts {
		cs.impulses[k] = contactImpulse{}
	}
	return nil
}

// testProblemHook, when set by a test, edits each island's problem before it is solved: the only
// way to reach the solver's refusal of input that the limits at Spawn keep out.
var testProblemHook func(p *solver.Problem)

// testSolvedHook, when set by a test, reads each island's problem and the configured solver's
// answer right after the solve, for the independent optimality checks (solver.CheckFixedPoint).
var testSolvedHook func(p *solver.Problem, r *solver.Result)

// addBody appends model mi, a BodyModel of any block size, to the island's problem (the rigid
// bodies take an inlined path in solveIsland).
func (wk *islandWorker) addBody(cs *contactStage, mi int, m BodyModel) {
	in := &cs.in
	p := &wk.problem
	size := m.DoFs()
	b := p.AddBlock(size)
	cs.block[mi] = b
	m.InverseMassBlock(p.InvMass(b)) // checked by Solve's validation
	off := p.BlockAt(b).Offset
	copy(p.QdotP[off:off+size], in.layout.Span(in.qdotP, mi))
	m.Velocity(p.QdotT[off : off+size])
}

// count returns the number of dynamic models, rigid and deformable.
func (in *contactInput) count() int { return len(in.models) + len(in.deformables) }

// mass returns model mi's total mass, kg.
func (in *contactInput) mass(mi int) float64 {
	if mi < len(in.models) {
		return in.models[mi].mass
	}
	return in.deformables[mi-len(in.models)].mass
}

// gravityScale returns model mi's gravity scale (a deformable body's is 1).
func (in *contactInput) gravityScale(mi int) float64 {
	if mi < len(in.models) {
		return in.models[mi].gravityScale
	}
	return 1
}

// addContact appends contact k of the list to the problem: its Jacobian rows per dynamic side
// (Γ = ∇x_B − ∇x_A; docs/architecture.md, Sign conventions), the gap term b, the combined material, and the warm start carried
// by feature id.
func (wk *islandWorker) addContact(cs *contactStage, k int) {
	in := &cs.in
	c := &in.contacts.points[k]
	n := c.normal
	t1, t2 := cs.tangents[k][0], cs.tangents[k][1]
	b := gapTerm(c.gap, in.h, in.config)
	if c.gap > in.config.RestingGap {
		// A speculative contact of turning bodies may close only what their turn leaves of the
		// gap (docs/architecture.md, Gap term).
		if e := cs.turnError(c); e > in.config.RestingGap {
			b = max(c.gap-e, 0) / in.h
		}
	}
	detached := in.detached(c)
	bkin := 0.0 // the kinematic sides' normal velocity
	var bt [2]float64
	sides := [2]*contactSide{&c.a, &c.b}
	blocks := [2]int{-1, -1}
	for s, side := range sides {
		sign := 1.0
		if s == 0 {
			sign = -1
		}
		// A detached contact's sleeping side is at rest and counts as fixed.
		if side.model >= 0 && !(detached && in.asleep[side.model]) {
			blocks[s] = cs.block[side.model]
			continue
		}
		if side.kinematic {
			// A kinematic side's known point velocity enters the constant terms, its normal part
			// the normal row's and its tangential part the friction rows' (solver.Contact.BT), so
			// that what rests on a moving platform is carried with it.
			bkin += sign * n.Dot(side.velocity)
			bt[0] += sign * t1.Dot(side.velocity)
			bt[1] += sign * t2.Dot(side.velocity)
		}
	}
	b += bkin
	wk.restitution.bkin = append(wk.restitution.bkin, bkin)
	// No restitution in the solve (E = 0): bouncing contacts are handled by collision rounds
	// (restitution.go), and the rest do not bounce.
	idx := wk.problem.AddContact(blocks[0], blocks[1], b, c.friction, 0)
	con := wk.problem.Contact(idx)
	con.BT = bt
	dirs := [3]mgl64.Vec3{n, t1, t2}
	for s, side := range sides {
		if blocks[s] < 0 {
			continue
		}
		rows, sign := wk.problem.RowsA(idx), -1.0
		if s == 1 {
			rows, sign = wk.problem.RowsB(idx), 1
		}
		if side.model < len(in.models) {
			in.models[side.model].contactRows(c.position, &dirs, sign, rows)
		} else if side.onFace {
			in.deformables[side.model-len(in.models)].faceRows(side.face, &side.bary, &dirs, sign, rows)
		} else {
			in.deformables[side.model-len(in.models)].sampleRows(side.sample, &dirs, sign, rows)
		}
	}
	if in.config.ColdStart {
		return
	}
	con = wk.problem.Contact(idx)
	con.WarmNormal = c.warm.normal
	f := c.warm.friction
	con.WarmFriction = [2]float64{f.Dot(t1), f.Dot(t2)}
}

// turnError bounds how far the linearised gap of speculative contact c, g + h n·(v_B − v_A) at the
// contact point, can overstate the gap the step ends with, at the bodies' predicted velocities
// (turnBound). A block spinning at 30 rad/s turns its face 18° in a step, and one sliding across
// that face at 2 m/s ended the step 11 mm inside it, the linear prediction having let it close the
// whole 8.6 mm gap. A reduced deformable's surface does not move as a rigid turn: 0.
func (cs *contactStage) turnError(c *contactPoint) float64 {
	in := &cs.in
	var sides [2]pointMotion
	for s, side := range [2]*contactSide{&c.a, &c.b} {
		switch {
		case side.model < 0:
			if side.kinematic {
				sides[s].velocity = side.velocity
			}
		case side.model >= len(in.models):
			return 0
		default:
			m := &in.models[side.model]
			q := in.layout.Span(in.qdotP, side.model)
			sides[s] = pointMotion{center: m.position, velocity: mgl64.Vec3{q[0], q[1], q[2]},
				angular: mgl64.Vec3{q[3], q[4], q[5]}, round: m.round}
		}
	}
	return turnBound(in.h, c.gap, c.position, c.normal, &sides)
}

// pointMotion is how one side of a contact moves over the step: a rigid body's centre, velocity
// and angular velocity, round for a sphere (whose surface does not move as it spins); zero but
// for the velocity on a kinematic or static side.
type pointMotion struct {
	center, velocity, angular mgl64.Vec3
	round                     bool
}

// turnBound bounds, for a contact at point p with unit normal n (A → B) and gap g between sides A
// and B moving as given over a step h, how far the gap linearised in the velocities overstates the
// gap the step ends with when each side turns exactly. A side turning by θ = h|ω| moves a point at
// distance r from its centre off its tangent by at most ½θ²r, and turns a normal it carries by θ:
// against the linear prediction that tilts the gap by θ times the slide across the contact, h|v_t|,
// and shortens it by at most ½θ² of the normal distance, g + h|v_n|. The normal may be either
// side's, so the larger θ counts. All of it is second order in the motion.
func turnBound(h, g float64, p, n mgl64.Vec3, sides *[2]pointMotion) float64 {
	arc, turn := 0.0, 0.0
	var vel [2]mgl64.Vec3
	for s := range sides {
		sd := &sides[s]
		d := p.Sub(sd.center)
		vel[s] = sd.velocity.Add(sd.angular.Cross(d))
		if sd.round {
			continue // its surface and its normals do not move as it spins
		}
		a := h * sd.angular.Len()
		arc += 0.5 * a * a * d.Len()
		turn = max(turn, a)
	}
	rel := vel[1].Sub(vel[0])
	vn := rel.Dot(n)
	slide := rel.Sub(n.Mul(vn)).Len()
	return arc + turn*h*slide + 0.5*turn*turn*(math.Abs(g)+h*math.Abs(vn))
}

// gapTerm is the constant b_k of the contact constraint n_kᵀq̇ + b_k ≥ 0 for a contact with signed
// gap φ (docs/architecture.md, Sign conventions). A speculative contact (φ > RestingGap) allows approach at
// up to φ/h, so the bodies close the gap in the step but do not pass it; a touching one
// (0 ≤ φ ≤ RestingGap) gets b = 0, which neither pulls it shut nor lets it close. A penetrating contact (φ < 0)
// asks for a separation speed of PenetrationRecovery·|φ|/h, at most MaxRecoverySpeed; with the
// default recovery of 0 this is the paper's b = 0: no further penetration, and no energy added.
func gapTerm(gap, h float64, cfg *Config) float64 {
	if gap > cfg.RestingGap {
		return gap / h
	}
	if gap >= 0 {
		return 0
	}
	return max(cfg.PenetrationRecovery*gap/h, -cfg.MaxRecoverySpeed)
}

// tangentBasis returns a right-handed orthonormal pair (t₁, t₂) spanning the plane normal to the
// unit vector n, chosen from n alone, so the same normal always gets the same basis.
func tangentBasis(n mgl64.Vec3) (mgl64.Vec3, mgl64.Vec3) {
	// Project the world axis least aligned with n.
	a := mgl64.Vec3{1, 0, 0}
	if ax, ay, az := math.Abs(n[0]), math.Abs(n[1]), math.Abs(n[2]); ax > ay || ax > az {
		if ay <= az {
			a = mgl64.Vec3{0, 1, 0}
		} else {
			a = mgl64.Vec3{0, 0, 1}
		}
	}
	t1 := a.Sub(n.Mul(a.Dot(n))).Normalize()
	return t1, n.Cross(t1)
}

// isSolveError reports whether err says the solver fell short of its accuracy (its result is then
// the best iterate, finite and still usable) rather than that the problem was malformed.
func isSolveError(err error) bool {
	var serr *solver.SolveError
	return errors.As(err, &serr)
}
