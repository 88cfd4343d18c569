package physics

import "github.com/stagger-physics/stagger/ecs"

// ContactFilter decides whether two bodies that the broad phase found near each other, and whose
// layers agree, may touch: return false to drop the pair for this step, so the two bodies pass
// through each other (and a sensor does not see the other body). The bodies are colliders or
// reduced deformables (a deformable with a collider, or two deformables whose bounds meet). a and
// b are the two entities, a's index below b's.
//
// The step calls the filter once per candidate pair with a dynamic side, every step, in a fixed
// order (the colliders' pairs, then each deformable's colliders, then the deformables' pairs), on
// the goroutine that calls Step and never concurrently. For the step to stay deterministic the
// answer must depend only on its arguments and on state that does not change during the step. The filter may read components; it must not add or remove entities or
// components, nor call Step or a world query (which refuse to run then).
type ContactFilter func(a, b ecs.Entity) bool

// SetContactFilter installs f as the simulation's contact filter from the next step on; nil
// removes it. See ContactFilter and docs/architecture.md, Layers, sensors and filters.
func (s *Simulation) SetContactFilter(f ContactFilter) { s.filter = f }

// callFilter asks filter about the pair of x and y, passing them in entity order.
func callFilter(filter ContactFilter, x, y ecs.Entity) bool {
	if compareEntities(y, x) < 0 {
		x, y = y, x
	}
	return filter(x, y)
}
