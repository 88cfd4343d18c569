package physics

import (
	"errors"
	"fmt"

	"github.com/stagger-physics/stagger/ecs"
	"github.com/stagger-physics/stagger/solver"
)

// SolveFailedEvent is sent through ecs.Events[SolveFailedEvent] after a fixed step for each body
// of an island whose contact solve refused its problem (docs/architecture.md, Errors): two bodies
// touch whose masses differ by more than MaxMassRatio, or the solver found input it cannot
// handle — a mass matrix that is not positive definite, say — that the limits at Spawn did not
// catch. The island's bodies were held for the step (their state
// unchanged), and will be again until the game changes what makes the problem unsolvable; the
// rest of the world stepped on. Err names the body or contact the solver refused, by entity.
// StepStats.Failed counts these bodies and Simulation.FailedBodies lists them.
type SolveFailedEvent struct {
	Entity ecs.Entity
	Tick   uint64 // the fixed step's tick
	Err    error
}

// FailedBodies returns the bodies held by the last step because their island's solve failed, with
// the reason (SolveFailedEvent; Tick is the step's). The slice is reused by the next step.
func (s *Simulation) FailedBodies() []SolveFailedEvent { return s.failed }

// massRatioError is an island's refusal for a contact between dynamic models a and b whose masses
// differ by more than MaxMassRatio; Simulation.islandFailure names their entities.
type massRatioError struct {
	a, b   int // models
	ma, mb float64
}

// Error implements error, without the entities (see islandFailure).
func (e *massRatioError) Error() string {
	return fmt.Sprintf("physics: bodies of %g kg and %g kg touch: mass ratio %.3g is beyond physics.MaxMassRatio = %g",
		e.ma, e.mb, max(e.ma, e.mb)/min(e.ma, e.mb), float64(MaxMassRatio))
}

// checkMassRatios returns a *massRatioError for the first of the island's contacts (indices into
// contacts) between two dynamic models whose masses differ by more than MaxMassRatio, or nil.
func checkMassRatios(in *contactInput, points []contactPoint, contacts []int) error {
	for _, k := range contacts {
		a, b := points[k].a.model, points[k].b.model
		if a < 0 || b < 0 {
			continue
		}
		ma, mb := in.mass(a), in.mass(b)
		if max(ma, mb) > MaxMassRatio*min(ma, mb) {
			return &massRatioError{a: a, b: b, ma: ma, mb: mb}
		}
	}
	return nil
}

// islandFailure names what the solver refused in an island whose bodies are models: the body of a
// refused block or the two sides of a refused contact, by entity.
func (s *Simulation) islandFailure(err error, bodies []int, contacts []int) error {
	var mr *massRatioError
	if errors.As(err, &mr) {
		return fmt.Errorf("physics: %v (%g kg) and %v (%g kg) touch: mass ratio %.3g is beyond physics.MaxMassRatio = %g",
			s.entities[mr.a], mr.ma, s.entities[mr.b], mr.mb, max(mr.ma, mr.mb)/min(mr.ma, mr.mb), float64(MaxMassRatio))
	}
	var in *solver.InputError
	if errors.As(err, &in) && in.Index >= 0 {
		switch {
		case in.Item == "block" && in.Index < len(bodies):
			return fmt.Errorf("physics: %v: contact solve refused the body: %w", s.entities[bodies[in.Index]], err)
		case in.Item == "contact" && in.Index < len(contacts) && s.contacts.points[contacts[in.Index]].pair >= 0:
			st := &s.collision.pairs[s.contacts.points[contacts[in.Index]].pair]
			return fmt.Errorf("physics: contact of %v and %v: contact solve refused it: %w", st.ownerA, st.ownerB, err)
		}
	}
	return fmt.Errorf("physics: island of %v: contact solve refused its problem: %w", s.entities[bodies[0]], err)
}
