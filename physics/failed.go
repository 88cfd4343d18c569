package physics

import (
	"errors"
	"fmt"

	"github.com/stagger-physics/stagger/ecs"
	"github.com/stagger-physics/stagger/solver"
)

// SolveFailedEvent is sent through ecs.Events[SolveFailedEvent] after a fixed step for each body
// of an island whose contact solve refused its problem (docs/architecture.md, Errors): the
// solver found input it cannot handle — a mass matrix that is not positive definite, say — that
// the limits at Spawn did not catch. The island's bodies were held for the step (their state
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

// islandFailure names what the solver refused in an island whose bodies are models: the body of a
// refused block or the two sides of a refused contact, by entity.
func (s *Simulation) islandFailure(err error, bodies []int, contacts []int) error {
	var in *solver.InputError
	if errors.As(err, &in) && in.Index >= 0 {
		switch {
		case in.Item == "block" && in.Index < len(bodies):
			return fmt.Errorf("physics: %v: contact solve refused the body: %w", s.entities[bodies[in.Index]], err)
		case in.Item == "contact" && in.Index < len(contacts):
			st := &s.collision.pairs[s.contacts.points[contacts[in.Index]].pair]
			return fmt.Errorf("physics: contact of %v and %v: contact solve refused it: %w", st.ownerA, st.ownerB, err)
		}
	}
	return fmt.Errorf("physics: island of %v: contact solve refused its problem: %w", s.entities[bodies[0]], err)
}
