package physics

import (
	"fmt"
	"math"
	"runtime"
	"time"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/stagger-physics/stagger/collide"
	"github.com/stagger-physics/stagger/ecs"
	"github.com/stagger-physics/stagger/solver"
)

// Simulation is the per-world physics state: the buffers one step works in, reused from step to step
// so that a warm step does not allocate. The Plugin keeps it as an ecs resource (*Simulation).
type Simulation struct {
	config Config
	stats  StepStats

	bodies    *ecs.Query1[RigidBody]
	gatherFn  func(ecs.Entity, *RigidBody)
	world     *ecs.World
	gatherErr error

	models     []rigidModel
	components []*RigidBody
	entities   []ecs.Entity // per model, rigid then deformable: its entity
	asleep     []bool       // per model: asleep at the start of the step (sleeping.go)
	// woken marks per model the bodies that wakePressed woke for the contact stage's re-solve.
	woken []bool
	// parts and restless are sleepRestingParts' scratch, per model; partSlept marks the models it
	// put to sleep in the step.
	parts               unionFind
	restless, partSlept []bool
	// deformables and deformModels are the step's reduced deformable bodies, in query order: model
	// len(models) + j is deformModels[j] (deformable.go). deformQuery is nil until the component
	// is registered.
	deformables  []*ReducedDeformable
	deformModels []*deformableModel
	deformQuery  *ecs.Query1[ReducedDeformable]
	deformFn     func(ecs.Entity, *ReducedDeformable)
	deformCol    deformCollision
	kinematic    []*RigidBody
	kinematicE   []ecs.Entity // per kinematic body: its entity
	// nonFinite lists the entities whose update of the last step came out non-finite and was
	// discarded (NonFiniteBodies).
	nonFinite []ecs.Entity
	// failed lists the bodies the last step held because their island's solve failed
	// (FailedBodies).
	failed []SolveFailedEvent
	layout Layout
	qdotP  []float64

	h         float64 // the current step's length, for gather's broad-phase displacement
	collision *collisionWorld
	contacts  contactList // the step's contact points, from collision to the contact stage
	contact   *contactStage

	// workers goroutines share the narrow phase and the island solves: the stepping goroutine and
	// pool's helpers (pool is nil with one worker). The simulation owns the pool and hands it to
	// the stages.
	workers int
	pool    *workerPool

	// filter is the game's contact filter (SetContactFilter), nil for none.
	filter ContactFilter
	// stepping is set while Step runs, when the world queries refuse to run.
	stepping bool
	// queries holds the world queries' state (query.go).
	queries queryState
	// events and sensors remember last step's touching pairs and sensor overlaps, from which the
	// Plugin's events say what began and ended (events.go, sensor.go).
	events  contactEvents
	sensors sensorEvents
}

// NewSimulation returns a simulation of world's bodies. RigidBody and Collider must be registered.
func NewSimulation(world *ecs.World, config Config) (*Simulation, error) {
	if err := config.Validate(); err != nil {
		return nil, err
	}
	q, err := ecs.NewQuery1[RigidBody](world)
	if err != nil {
		return nil, fmt.Errorf("physics: %w", err)
	}
	cw, err := newCollisionWorld(config.BroadPhaseMargin)
	if err != nil {
		return nil, fmt.Errorf("physics: %w", err)
	}
	workers := config.Workers
	if workers == 0 {
		workers = min(runtime.NumCPU(), MaxWorkers)
	}
	cs, err := newContactStage(&config, workers)
	if err != nil {
		return nil, err
	}
	s := &Simulation{config: config, bodies: q, world: world, collision: cw, contact: cs, workers: workers}
	if workers > 1 {
		s.pool = newWorkerPool(workers - 1)
		// The helpers reference only the pool, never the simulation: once the simulation is
		// unreachable this ends them.
		runtime.AddCleanup(s, func(p *workerPool) { p.stop() }, s.pool)
	}
	s.gatherFn = s.gatherBody
	s.queries.init(s)
	return s, nil
}

// Config returns the simulation's settings.
func (s *Simulation) Config() Config { return s.config }

// Stats returns the statistics of the last step.
func (s *Simulation) Stats() StepStats { return s.stats }

// Step advances every body of the world by one fixed step of length h: gather and validate the
// bodies, predict their unconstrained velocities q̇ᴾ, find the contacts (broad and narrow phase),
// split them into islands and solve each with the configured contact solver, then move the bodies
// with q̇ᵗ⁺¹ and write them back. Bad input in a component is reported as a *FieldError naming the
// entity and field, before anything is written. A body whose update comes out non-finite keeps its
// last state (counted in Stats().NonFinite); an island whose solve refuses its problem is held
// for the step while the rest of the world moves (FailedBodies, Stats().Failed). Stats().Phases times the step's phases, read at their
// boundaries (time.Now does not allocate, and nothing the step computes reads the clock's values).
func (s *Simulation) Step(h float64, tick uint64) error {
	start := time.Now()
	if !finite(h) || h <= 0 {
		return fieldError("step h", "must be finite and > 0, got %v", h)
	}
	s.h = h
	s.stepping = true
	defer s.endStep()
	s.queries.stale = true
	s.collision.begin(h)
	if err := s.gather(); err != nil {
		return err
	}
	if err := s.collision.prune(); err != nil {
		return err
	}
	n := s.layout.DoFs()
	s.qdotP = grow(s.qdotP, n)
	for i := range s.models {
		s.models[i].PredictVelocity(h, s.config.Gravity, s.layout.Span(s.qdotP, i))
	}
	for j, m := range s.deformModels {
		m.PredictVelocity(h, s.config.Gravity, s.layout.Span(s.qdotP, len(s.models)+j))
	}
	broadStart := time.Now()
	s.collision.findPairs(s.config.ContactMargin, s.filter)
	narrowStart := time.Now()
	if err := s.collision.collidePairs(s.pool, s.workers, &s.contacts); err != nil {
		return err
	}
	s.collideDeformables(s.config.ContactMargin)
	s.applyTorsionalFriction(h)
	contactStart := time.Now()
	in := contactInput{
		h: h, models: s.models, deformables: s.deformModels, layout: &s.layout, qdotP: s.qdotP, asleep: s.asleep,
		contacts: &s.contacts, config: &s.config, pool: s.pool,
	}
	out, err := s.contact.solve(in)
	for err == nil && s.wakePressed(&out) {
		// A detached contact pressed on a sleeping body: solve again with its island awake
		// (sleeping_parts.go), until no such contact presses. Each round wakes an island, so the
		// rounds end; the islands the woken bodies do not join keep their answers
		// (resolve_kept.go). The step's work counts every solve.
		before := out.stats
		in.woken = s.woken
		out, err = s.contact.solve(in)
		out.stats.iterations += before.iterations
		out.stats.work += before.work
		out.stats.islandTime += before.islandTime
	}
	// Even after an error, the islands that were solved keep their impulses.
	s.collision.storeImpulses(&s.contacts, out.impulses)
	s.storeDeformImpulses(out.impulses)
	if err != nil {
		return err
	}
	cst := &out.stats
	integrateStart := time.Now()
	s.nonFinite = s.nonFinite[:0]
	s.failed = s.failed[:0]
	sleeping := s.advance(h, &out, tick)
	for _, b := range s.components {
		b.clearApplied() // the forces acted for this step only
	}
	for i, b := range s.kinematic {
		if !advanceKinematic(b, h) {
			s.nonFinite = append(s.nonFinite, s.kinematicE[i])
		}
	}
	nonFinite := len(s.nonFinite)
	end := time.Now()
	s.stats = StepStats{
		Tick:           tick,
		Bodies:         s.bodies.Count() + len(s.deformables),
		Dynamic:        len(s.models) + len(s.deformables),
		DoFs:           n,
		Contacts:       cst.contacts,
		Islands:        cst.islands,
		Iterations:     cst.iterations,
		Work:           cst.work,
		Converged:      cst.converged,
		MaxRelErr:      cst.maxRelErr,
		MaxResidual:    cst.maxResidual,
		Fallbacks:      cst.fallbacks,
		CutShort:       cst.cutShort,
		BudgetCut:      cst.budgetCut,
		MaxErrRatio:    cst.maxErrRatio,
		Sleeping:       sleeping,
		MinGap:         cst.minGap,
		Separated:      cst.separated,
		SeparationWork: cst.separationWork,
		Bounced:        cst.bounced,
		KeptPairs:      s.collision.keptPairs(),
		SampleTests:    s.deformCol.sampleTests,
		KeptDeformable: s.deformCol.kept,
		NonFinite:      nonFinite,
		Failed:         len(s.failed),
		Phases: PhaseTimes{
			Gather:      broadStart.Sub(start),
			BroadPhase:  narrowStart.Sub(broadStart),
			NarrowPhase: contactStart.Sub(narrowStart),
			Islands:     cst.islandTime,
			// The island build runs inside the contact stage, so it is taken out of the stage's
			// time rather than counted twice.
			Solve:     integrateStart.Sub(contactStart) - cst.islandTime,
			Integrate: end.Sub(integrateStart),
		},
	}
	// Read last, so that Elapsed covers the phases and the work of filling in the stats.
	s.stats.Elapsed = time.Since(start)
	return nil
}

// endStep marks the end of Step, successful or not.
func (s *Simulation) endStep() { s.stepping = false }

// gather validates every body and loads the dynamic ones into models, in query order.
func (s *Simulation) gather() error {
	s.models = s.models[:0]
	s.components = s.components[:0]
	s.entities = s.entities[:0]
	s.asleep = s.asleep[:0]
	s.kinematic = s.kinematic[:0]
	s.kinematicE = s.kinematicE[:0]
	s.layout.Reset()
	s.deformables = s.deformables[:0]
	s.deformModels = s.deformModels[:0]
	s.gatherErr = nil
	if err := s.bodies.Each(s.gatherFn); err != nil {
		return fmt.Errorf("physics: %w", err)
	}
	if s.gatherErr != nil {
		return s.gatherErr
	}
	if err := s.registerDeformables(); err != nil {
		return err
	}
	if s.deformQuery != nil {
		if err := s.deformQuery.Each(s.deformFn); err != nil {
			return fmt.Errorf("physics: %w", err)
		}
	}
	return s.gatherErr
}

// registerDeformables makes deformQuery once the ReducedDeformable component is registered; before
// that it stays nil.
func (s *Simulation) registerDeformables() error {
	if s.deformQuery != nil || !ecs.Registered[ReducedDeformable](s.world) {
		return nil
	}
	q, err := ecs.NewQuery1[ReducedDeformable](s.world)
	if err != nil {
		return fmt.Errorf("physics: %w", err)
	}
	s.deformQuery = q
	s.deformFn = s.gatherDeformable
	return nil
}

// gatherDeformable is the query callback of gather for reduced deformable bodies, which come after
// every rigid body in the model order.
func (s *Simulation) gatherDeformable(e ecs.Entity, d *ReducedDeformable) {
	if s.gatherErr != nil {
		return
	}
	changed, err := d.check()
	if err != nil {
		s.gatherErr = withEntity(e, err)
		return
	}
	if _, ok := ecs.Get[RigidBody](s.world, e); ok {
		s.gatherErr = withEntity(e, fieldError("ReducedDeformable", "the entity also has a RigidBody"))
		return
	}
	s.deformables = append(s.deformables, d)
	s.deformModels = append(s.deformModels, d.model)
	s.entities = append(s.entities, e)
	s.asleep = append(s.asleep, d.wakeOrSleepByGame(changed))
	s.layout.Add(d.model.n)
}

// gatherBody is the query callback of gather.
func (s *Simulation) gatherBody(e ecs.Entity, b *RigidBody) {
	if s.gatherErr != nil {
		return
	}
	collider, _ := ecs.Get[Collider](s.world, e)
	if err := prepareBody(b, collider); err != nil {
		s.gatherErr = withEntity(e, err)
		return
	}
	model := -1
	still := b.Kind == Static
	switch b.Kind {
	case Dynamic:
		if b.heldLinear != (mgl64.Vec3{}) || b.heldAngular != (mgl64.Vec3{}) {
			if err := b.applyHeldImpulse(); err != nil {
				s.gatherErr = withEntity(e, err)
				return
			}
		}
		if b.force != (mgl64.Vec3{}) || b.torque != (mgl64.Vec3{}) {
			if err := b.checkApplied(s.h); err != nil {
				s.gatherErr = withEntity(e, err)
				return
			}
		}
		still = b.wakeOrSleepByGame()
		s.asleep = append(s.asleep, still)
		model = len(s.models)
		s.models = append(s.models, rigidModel{})
		s.models[model].load(b)
		if collider != nil {
			_, s.models[model].round = collider.Shape.(*collide.Sphere)
		}
		s.components = append(s.components, b)
		s.entities = append(s.entities, e)
		s.layout.Add(rigidDoFs)
	case Kinematic:
		// A kinematic body at rest that the game has not moved since the last step cannot move
		// this step, so it lets the islands it supports sleep.
		still = b.LinearVelocity == (mgl64.Vec3{}) && b.AngularVelocity == (mgl64.Vec3{}) && b.state() == b.written
		s.kinematic = append(s.kinematic, b)
		s.kinematicE = append(s.kinematicE, e)
	}
	if b.Kind != Dynamic {
		// Nothing pushes a static or kinematic body; drop what was applied before a change of kind.
		b.clearApplied()
	}
	if collider != nil && collider.Shape != nil {
		// Over the step a dynamic body's velocity changes by at most h (|s g| + |F|/m) before
		// contact acts (gravity scale s, the game's force F).
		v := b.LinearVelocity
		speed := v.Len()
		end := v // the velocity at the step's end if nothing touches the body
		if b.Kind == Dynamic {
			speed += s.config.Gravity.Len() * math.Abs(b.GravityScale()) * s.h
			end = end.Add(s.config.Gravity.Mul(b.GravityScale() * s.h))
			if b.force != (mgl64.Vec3{}) {
				speed += b.force.Len() / b.Mass * s.h
				end = end.Add(b.force.Mul(s.h / b.Mass))
			}
		}
		if err := s.collision.addBody(e, b, collider, model, v.Mul(s.h), speed*s.h, end, still); err != nil {
			s.gatherErr = err
		}
	}
}

// advanceKinematic moves a kinematic body with its own velocities. A move that would leave the
// pose non-finite (a position beyond the largest float64) is not made; it reports whether the
// body moved.
func advanceKinematic(b *RigidBody, h float64) bool {
	p := b.Position.Add(b.LinearVelocity.Mul(h))
	wBody := b.Orientation.Conjugate().Rotate(b.AngularVelocity)
	q := normalizeQuat(b.Orientation.Mul(cayleyRotation(wBody.Mul(h))))
	if !finiteVec(p) || !finiteQuat(q) {
		return false
	}
	b.Position, b.Orientation = p, q
	b.written = b.state()
	return true
}

// NonFiniteBodies returns the entities whose update in the last step came out non-finite: each
// kept its previous state (docs/architecture.md, Errors). The Plugin sends a NonFiniteEvent for
// each. The slice is reused by the next step.
func (s *Simulation) NonFiniteBodies() []ecs.Entity { return s.nonFinite }

// SetSolver replaces the contact solver's options from the next step on, so a game (or the demo)
// can switch between Staggered Projections and the baselines, or between friction models, while
// it runs. Invalid options are refused with a *FieldError and change nothing.
func (s *Simulation) SetSolver(opts solver.Options) error {
	cfg := s.config
	cfg.Solver = opts
	if err := cfg.Validate(); err != nil {
		return err
	}
	cs, err := newContactStage(&cfg, s.workers)
	if err != nil {
		return err
	}
	s.config, s.contact = cfg, cs
	return nil
}

// ContactPoint is one contact of the last step, for drawing and for game logic.
type ContactPoint struct {
	// A and B are the two entities; Normal points from A to B.
	A, B ecs.Entity
	// Point is midway between the two surfaces, m; Normal is a unit vector; Gap is the signed
	// distance before the step's solve, m (negative: penetration).
	Point, Normal mgl64.Vec3
	Gap           float64
	// Normal impulse α and world-frame friction impulse of the step's solve, N·s.
	NormalImpulse   float64
	FrictionImpulse mgl64.Vec3
}

// Contacts calls visit for every contact point of the last step, in a deterministic order: the
// rigid bodies' pairs, then the deformable bodies' samples (A the collider or the other
// deformable, B the sample's deformable). Sensors have no contact points (see SensorEvent).
func (s *Simulation) Contacts(visit func(ContactPoint)) {
	for i := range s.collision.pairs {
		st := &s.collision.pairs[i]
		if st.sensor {
			continue
		}
		for k := 0; k < st.manifold.Count; k++ {
			c := &st.manifold.Points[k]
			visit(ContactPoint{
				A: st.ownerA, B: st.ownerB, Point: c.Point, Normal: c.Normal, Gap: c.Gap,
				NormalImpulse: st.alpha[k], FrictionImpulse: st.friction[k],
			})
		}
	}
	s.deformContacts(visit)
}

// deformContacts calls visit for every contact of the last step's deformable bodies.
func (s *Simulation) deformContacts(visit func(ContactPoint)) {
	for j, m := range s.deformModels {
		e := s.entities[len(s.models)+j]
		for i := range m.contacts {
			c := &m.contacts[i]
			visit(ContactPoint{
				A: c.other, B: e, Point: c.position, Normal: c.normal, Gap: c.gap,
				NormalImpulse: c.alpha, FrictionImpulse: c.friction,
			})
		}
	}
}
