package physics

import (
	"fmt"
	"time"

	"github.com/stagger-physics/stagger/ecs"
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
	kinematic  []*RigidBody
	layout     Layout
	qdotP      []float64
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
	s := &Simulation{config: config, bodies: q, world: world}
	s.gatherFn = s.gatherBody
	return s, nil
}

// Config returns the simulation's settings.
func (s *Simulation) Config() Config { return s.config }

// Stats returns the statistics of the last step.
func (s *Simulation) Stats() StepStats { return s.stats }

// Step advances every body of the world by one fixed step of length h. Bad input in a component is
// reported as a *FieldError naming the entity and field, before anything is written. A body whose
// update comes out non-finite keeps its last state (counted in Stats().NonFinite).
func (s *Simulation) Step(h float64, tick uint64) error {
	start := time.Now()
	if !finite(h) || h <= 0 {
		return fieldError("step h", "must be finite and > 0, got %v", h)
	}
	if err := s.gather(); err != nil {
		return err
	}
	n := s.layout.DoFs()
	s.qdotP = grow(s.qdotP, n)
	for i := range s.models {
		s.models[i].PredictVelocity(h, s.config.Gravity, s.layout.Span(s.qdotP, i))
	}
	nonFinite := 0
	for i := range s.models {
		m := &s.models[i]
		m.Advance(h, s.layout.Span(s.qdotP, i), nil)
		if !m.store(s.components[i]) {
			nonFinite++
		}
	}
	for _, b := range s.kinematic {
		advanceKinematic(b, h)
	}
	s.stats = StepStats{
		Tick:      tick,
		Bodies:    s.bodies.Count(),
		Dynamic:   len(s.models),
		DoFs:      n,
		NonFinite: nonFinite,
		Elapsed:   time.Since(start),
	}
	return nil
}

// gather validates every body and loads the dynamic ones into models, in query order.
func (s *Simulation) gather() error {
	s.models = s.models[:0]
	s.components = s.components[:0]
	s.kinematic = s.kinematic[:0]
	s.layout.Reset()
	s.gatherErr = nil
	if err := s.bodies.Each(s.gatherFn); err != nil {
		return fmt.Errorf("physics: %w", err)
	}
	return s.gatherErr
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
	switch b.Kind {
	case Dynamic:
		s.models = append(s.models, rigidModel{})
		s.models[len(s.models)-1].load(b)
		s.components = append(s.components, b)
		s.layout.Add(rigidDoFs)
	case Kinematic:
		s.kinematic = append(s.kinematic, b)
	}
}

// advanceKinematic moves a kinematic body with its own velocities.
func advanceKinematic(b *RigidBody, h float64) {
	b.Position = b.Position.Add(b.LinearVelocity.Mul(h))
	wBody := b.Orientation.Conjugate().Rotate(b.AngularVelocity)
	b.Orientation = normalizeQuat(b.Orientation.Mul(cayleyRotation(wBody.Mul(h))))
}
