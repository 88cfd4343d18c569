package physics

import "github.com/stagger-physics/stagger/ecs"

// NonFiniteEvent is sent through ecs.Events[NonFiniteEvent] after a fixed step for each body whose
// update came out non-finite (an overflow, say): the body kept its previous state, and will again
// until the game changes it. StepStats.NonFinite counts these bodies and
// Simulation.NonFiniteBodies lists them.
type NonFiniteEvent struct {
	Entity ecs.Entity
	Tick   uint64 // the fixed step's tick
}
