package physics

import (
	"slices"

	"github.com/stagger-physics/stagger/ecs"
)

// appendDeformableContactEvents appends to dst one ContactEvent (its Phase left to the caller) per
// touching pair of a deformable with a collider and per touching pair of two deformables, in no
// particular order; the caller sorts. The contacts of a deformable with a collider live in the
// deformable's model, sorted by (proxy, sample), so each collider's are adjacent; those of two
// deformables j and k live in both models (j's samples on k's faces in j's, k's on j's in k's),
// each sorted by (other body, sample), and make one event. It appends to dst's storage only.
func (s *Simulation) appendDeformableContactEvents(dst []ContactEvent) []ContactEvent {
	nr := len(s.models)
	rest := s.config.RestingGap
	for j, m := range s.deformModels {
		e := s.entities[nr+j]
		withColliders := m.contacts[:m.peers]
		for i := 0; i < len(withColliders); {
			n := i + 1
			for n < len(withColliders) && withColliders[n].proxy == withColliders[i].proxy {
				n++
			}
			ev, best := pairEvent(withColliders[i].other, e), -1.0
			ev.addTouching(withColliders[i:n], &best, rest)
			if ev.Points > 0 {
				dst = append(dst, ev)
			}
			i = n
		}
		peers := m.contacts[m.peers:]
		for i := 0; i < len(peers); {
			n := i + 1
			for n < len(peers) && peers[n].other == peers[i].other {
				n++
			}
			k := peers[i].peer
			back := peerContacts(s.deformModels[k], e)
			// The pair's event is made once, at the lower index that has contacts of the pair:
			// j when j < k; at k > j, only if j had none.
			if k < j && len(back) > 0 {
				i = n
				continue
			}
			ev, best := pairEvent(peers[i].other, e), -1.0
			ev.addTouching(peers[i:n], &best, rest)
			if k > j {
				ev.addTouching(back, &best, rest)
			}
			if ev.Points > 0 {
				dst = append(dst, ev)
			}
			i = n
		}
	}
	return dst
}

// pairEvent returns the empty event of the pair of x and y, A's index below B's.
func pairEvent(x, y ecs.Entity) ContactEvent {
	if compareEntities(y, x) < 0 {
		x, y = y, x
	}
	return ContactEvent{A: x, B: y}
}

// addTouching adds to ev the touching points of cs, contacts of one body's samples with the other
// body of ev's pair: those that carry a normal impulse or lie within restingGap, as for rigid
// pairs. best is the largest impulse so far (start with −1); the point that beats it gives ev its
// Point and Normal. A contact's normal points from its other body to the sample, so it is flipped
// when the other body is B.
func (ev *ContactEvent) addTouching(cs []deformContact, best *float64, restingGap float64) {
	for i := range cs {
		c := &cs[i]
		if !(c.alpha > 0) && c.gap > restingGap {
			continue
		}
		ev.Points++
		ev.Impulse += c.alpha
		if c.alpha > *best {
			*best = c.alpha
			ev.Point, ev.Normal = c.position, c.normal
			if c.other != ev.A {
				ev.Normal = ev.Normal.Mul(-1)
			}
		}
	}
}

// peerContacts returns the contacts of model m's samples with the deformable of entity e, adjacent
// in m's list of contacts with deformables, sorted by (other body, sample).
func peerContacts(m *deformableModel, e ecs.Entity) []deformContact {
	peers := m.contacts[m.peers:]
	lo, _ := slices.BinarySearchFunc(peers, e, func(c deformContact, e ecs.Entity) int {
		return compareEntities(c.other, e)
	})
	hi := lo
	for hi < len(peers) && peers[hi].other == e {
		hi++
	}
	return peers[lo:hi]
}
