package physics

import (
	"fmt"

	"github.com/stagger-physics/stagger/deform"
	"github.com/stagger-physics/stagger/ecs"
)

// Snapshots of reduced deformable bodies (docs/architecture.md, Snapshot and restore). What a step
// reads of a deformable that an earlier step wrote is its component (the frame fields, the state
// the step last wrote, its sleep record), its modal body's state (frame, z, ż: everything else
// the body holds is either fixed at spawn or recomputed from that state each step) and last step's
// contacts, whose impulses warm-start the next solve. The modal body itself, with its modes and
// precomputed coefficients, is not copied: a restore requires each deformable to still have the
// component it had, and puts the state back into it.

// snapshotDeformables copies every deformable's component, modal state and contacts into dst,
// reusing dst's storage.
func (s *Simulation) snapshotDeformables(dst *Snapshot) error {
	dst.deformEntities, dst.deformables = dst.deformEntities[:0], dst.deformables[:0]
	n := 0
	if err := s.registerDeformables(); err != nil || s.deformQuery == nil {
		dst.deformStates, dst.deformContacts = dst.deformStates[:0], dst.deformContacts[:0]
		dst.deformPeers = dst.deformPeers[:0]
		return err
	}
	err := s.deformQuery.Each(func(e ecs.Entity, d *ReducedDeformable) {
		dst.deformEntities = append(dst.deformEntities, e)
		dst.deformables = append(dst.deformables, *d)
		if n == len(dst.deformStates) {
			dst.deformStates = append(dst.deformStates, deform.ModalState{})
			dst.deformContacts = append(dst.deformContacts, nil)
		}
		dst.deformStates = dst.deformStates[:n+1]
		dst.deformContacts = dst.deformContacts[:n+1]
		dst.deformPeers = append(dst.deformPeers[:n], 0)
		if m := d.model; m != nil {
			m.body.State(&dst.deformStates[n])
			dst.deformContacts[n] = append(dst.deformContacts[n][:0], m.contacts...)
			dst.deformPeers[n] = m.peers
		}
		n++
	})
	dst.deformStates, dst.deformContacts = dst.deformStates[:n], dst.deformContacts[:n]
	return err
}

// checkDeformables refuses a restore of src into a world whose deformables are not the snapshot's:
// one spawned or despawned since, or whose ReducedDeformable was replaced (its modes may differ),
// naming the entity.
func (s *Simulation) checkDeformables(src *Snapshot) error {
	if err := s.registerDeformables(); err != nil {
		return err
	}
	i := 0
	var mismatch error
	if s.deformQuery != nil {
		err := s.deformQuery.Each(func(e ecs.Entity, d *ReducedDeformable) {
			switch {
			case mismatch != nil:
			case i >= len(src.deformEntities):
				mismatch = fmt.Errorf("physics: Restore: deformable %v was spawned after the snapshot", e)
			case src.deformEntities[i] != e:
				mismatch = fmt.Errorf("physics: Restore: %v is not the snapshot's deformable %d (%v): deformables were spawned or despawned since", e, i, src.deformEntities[i])
			case src.deformables[i].model != d.model:
				mismatch = fmt.Errorf("physics: Restore: %v's ReducedDeformable was replaced after the snapshot", e)
			}
			i++
		})
		if err != nil {
			return err
		}
	}
	if mismatch == nil && i < len(src.deformEntities) {
		mismatch = fmt.Errorf("physics: Restore: deformable %v was despawned after the snapshot", src.deformEntities[i])
	}
	return mismatch
}

// restoreDeformables puts src's deformables back; checkDeformables has accepted src.
func (s *Simulation) restoreDeformables(src *Snapshot) {
	for k, e := range src.deformEntities {
		d, _ := ecs.Get[ReducedDeformable](s.world, e)
		*d = src.deformables[k]
		if m := d.model; m != nil {
			// The state is one the body held, so SetState cannot refuse it.
			_ = m.body.SetState(src.deformStates[k])
			m.contacts = append(m.contacts[:0], src.deformContacts[k]...)
			m.peers = src.deformPeers[k]
			m.err = nil
			// The contacts put back were not computed from what the model remembers.
			m.forget()
		}
	}
}
