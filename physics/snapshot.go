package physics

import (
	"fmt"

	"github.com/stagger-physics/stagger/collide"
	"github.com/stagger-physics/stagger/deform"
	"github.com/stagger-physics/stagger/ecs"
)

// Snapshot is the whole state of a Simulation and of its world's bodies between two steps
// (docs/architecture.md, Snapshot and restore): every RigidBody and Collider component, the
// collision world's broad phase and pairs (manifolds and the impulses that warm-start the next
// solve), sleeping timers, pending forces, and what the contact and sensor events compare with;
// and every ReducedDeformable, with its modal state and its contacts' warm starts.
// Restoring it makes the following steps bit-identical to those that followed the snapshot, so a
// game can save a moment, rewind to it, or run rollback netcode on the deterministic step. A zero
// Snapshot is empty; Simulation.Snapshot fills one, reusing its storage.
type Snapshot struct {
	taken     bool
	tick      uint64 // Stats().Tick when taken
	entities  []ecs.Entity
	bodies    []RigidBody
	colliders []Collider
	collided  []bool // the entity has a Collider

	broad   *collide.BroadPhase
	proxyOf map[ecs.Entity]collide.ProxyID
	proxies []proxyRecord
	pairs   []pairState
	step    uint64
	stats   StepStats

	events  []ContactEvent
	sensors []SensorEvent

	// The reduced deformable bodies, in storage order: the component (whose model, the modal
	// body, is the world's own and is not copied), the model's state and last step's contacts.
	deformEntities []ecs.Entity
	deformables    []ReducedDeformable
	deformStates   []deform.ModalState
	deformContacts [][]deformContact
	// deformPeers is where each deformable's contacts with other deformables start in its list.
	deformPeers []int
}

// Tick returns the tick of the last step before the snapshot was taken (StepStats.Tick).
func (sn *Snapshot) Tick() uint64 { return sn.tick }

// Snapshot copies the simulation's state into dst (see Snapshot), reusing dst's storage: once dst
// has held a snapshot of a world this size, taking another allocates nothing but the copy of the
// broad phase's entity lookup. It refuses a nil dst, and a call during Step (from a contact
// filter).
func (s *Simulation) Snapshot(dst *Snapshot) error {
	if dst == nil {
		return fieldError("Snapshot dst", "must not be nil")
	}
	if s.stepping {
		return fieldError("Snapshot", "must not be called during Step")
	}
	dst.entities, dst.bodies = dst.entities[:0], dst.bodies[:0]
	dst.colliders, dst.collided = dst.colliders[:0], dst.collided[:0]
	err := s.bodies.Each(func(e ecs.Entity, b *RigidBody) {
		dst.entities = append(dst.entities, e)
		dst.bodies = append(dst.bodies, *b)
		c, ok := ecs.Get[Collider](s.world, e)
		if ok {
			dst.colliders = append(dst.colliders, *c)
		} else {
			dst.colliders = append(dst.colliders, Collider{})
		}
		dst.collided = append(dst.collided, ok)
	})
	if err != nil {
		return err
	}
	cw := s.collision
	if dst.broad == nil {
		dst.broad = &collide.BroadPhase{}
	}
	dst.broad.CopyFrom(cw.broad)
	if dst.proxyOf == nil {
		dst.proxyOf = make(map[ecs.Entity]collide.ProxyID, len(cw.proxyOf))
	}
	clear(dst.proxyOf)
	for e, id := range cw.proxyOf { // copied whole: the order of the copy does not matter
		dst.proxyOf[e] = id
	}
	dst.proxies = append(dst.proxies[:0], cw.proxies...)
	dst.pairs = append(dst.pairs[:0], cw.pairs...)
	dst.step = cw.step
	dst.stats = s.stats
	dst.tick = s.stats.Tick
	dst.events = append(dst.events[:0], s.events.prev...)
	dst.sensors = append(dst.sensors[:0], s.sensors.prev...)
	if err := s.snapshotDeformables(dst); err != nil {
		return err
	}
	dst.taken = true
	return nil
}

// Restore puts the simulation and its world's bodies back into the state src holds. The world must
// hold the same physics entities, in the same order, with the same Colliders present, as when src
// was taken (the order of the world's storage is part of what makes the step deterministic): an
// entity with a RigidBody spawned or despawned since, or a Collider added or removed, is refused
// with an error naming it, and nothing is changed. It refuses a nil or empty src, and a call
// during Step.
func (s *Simulation) Restore(src *Snapshot) error {
	switch {
	case src == nil:
		return fieldError("Restore src", "must not be nil")
	case !src.taken:
		return fieldError("Restore src", "holds no snapshot (fill it with Simulation.Snapshot)")
	case s.stepping:
		return fieldError("Restore", "must not be called during Step")
	}
	i := 0
	var mismatch error
	err := s.bodies.Each(func(e ecs.Entity, _ *RigidBody) {
		switch {
		case mismatch != nil:
		case i >= len(src.entities):
			mismatch = fmt.Errorf("physics: Restore: %v was spawned after the snapshot", e)
		case src.entities[i] != e:
			mismatch = fmt.Errorf("physics: Restore: %v is not the snapshot's body %d (%v): bodies were spawned or despawned since", e, i, src.entities[i])
		}
		i++
	})
	if err != nil {
		return err
	}
	if mismatch == nil && i < len(src.entities) {
		mismatch = fmt.Errorf("physics: Restore: %v was despawned after the snapshot", src.entities[i])
	}
	for k, e := range src.entities {
		if mismatch != nil {
			break
		}
		if _, has := ecs.Get[Collider](s.world, e); has != src.collided[k] {
			mismatch = fmt.Errorf("physics: Restore: %v's Collider was added or removed after the snapshot", e)
		}
	}
	if mismatch != nil {
		return mismatch
	}
	if err := s.checkDeformables(src); err != nil {
		return err
	}
	for k, e := range src.entities {
		b, _ := ecs.Get[RigidBody](s.world, e)
		*b = src.bodies[k]
		if c, has := ecs.Get[Collider](s.world, e); has {
			*c = src.colliders[k]
		}
	}
	cw := s.collision
	cw.broad.CopyFrom(src.broad)
	clear(cw.proxyOf)
	for e, id := range src.proxyOf {
		cw.proxyOf[e] = id
	}
	cw.proxies = append(cw.proxies[:0], src.proxies...)
	cw.pairs = append(cw.pairs[:0], src.pairs...)
	cw.step = src.step
	s.stats = src.stats
	s.events.prev = append(s.events.prev[:0], src.events...)
	s.sensors.prev = append(s.sensors.prev[:0], src.sensors...)
	s.restoreDeformables(src)
	s.nonFinite, s.failed = s.nonFinite[:0], s.failed[:0]
	s.queries.stale = true // the queries' records describe the poses before the restore
	return nil
}
