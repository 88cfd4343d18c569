package physics

import (
	"cmp"
	"slices"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/stagger-physics/stagger/ecs"
)

// ContactPhase says where a touching pair is in its contact.
type ContactPhase int

const (
	// ContactBegan: the pair touches this step and did not the step before.
	ContactBegan ContactPhase = iota
	// ContactPersisted: the pair touched the step before and still does.
	ContactPersisted
	// ContactEnded: the pair touched the step before and no longer does.
	ContactEnded
)

// String returns "began", "persisted" or "ended".
func (p ContactPhase) String() string {
	switch p {
	case ContactBegan:
		return "began"
	case ContactPersisted:
		return "persisted"
	case ContactEnded:
		return "ended"
	}
	return "ContactPhase(?)"
}

// ContactEvent is sent through ecs.Events[ContactEvent] after each fixed step for every pair of
// entities that touches, or stopped touching, in that step (sensors send SensorEvents instead):
// rigid bodies and reduced deformables alike. A pair touches when one of its contact points
// carries a normal impulse or lies within Config.RestingGap; speculative contacts that the solve
// left open do not count. Two deformables make one pair, whose points are both bodies' surface
// vertices touching the other. Events of a step come in a deterministic order, sorted by (A, B).
type ContactEvent struct {
	Phase ContactPhase
	// A and B are the two entities, A's index below B's.
	A, B ecs.Entity
	// Points is the number of touching contact points, Impulse their total normal impulse (N·s),
	// Point the contact point carrying the largest impulse and Normal its unit normal from A to B;
	// all zero for ContactEnded.
	Points  int
	Impulse float64
	Point   mgl64.Vec3
	Normal  mgl64.Vec3
}

// contactEvents turns each step's touching pairs into ContactEvents by comparing them with the
// previous step's. Its buffers are reused, so a warm step does not allocate.
type contactEvents struct {
	prev, cur []ContactEvent // touching pairs, sorted by (A, B)
}

// emit sends the step's events to out.
func (ce *contactEvents) emit(s *Simulation, out *ecs.Events[ContactEvent]) {
	ce.cur = ce.cur[:0]
	for i := range s.collision.pairs {
		st := &s.collision.pairs[i]
		if st.sensor {
			continue
		}
		ev := ContactEvent{A: st.ownerA, B: st.ownerB}
		flip := compareEntities(st.ownerB, st.ownerA) < 0
		if flip {
			ev.A, ev.B = st.ownerB, st.ownerA
		}
		best := -1.0
		for k := 0; k < st.manifold.Count; k++ {
			c := &st.manifold.Points[k]
			if !(st.alpha[k] > 0) && c.Gap > s.config.RestingGap {
				continue
			}
			ev.Points++
			ev.Impulse += st.alpha[k]
			if st.alpha[k] > best {
				best = st.alpha[k]
				ev.Point, ev.Normal = c.Point, c.Normal
				if flip {
					ev.Normal = ev.Normal.Mul(-1)
				}
			}
		}
		if ev.Points > 0 {
			ce.cur = append(ce.cur, ev)
		}
	}
	ce.cur = s.appendDeformableContactEvents(ce.cur)
	slices.SortFunc(ce.cur, compareContactEvents)
	// Merge with the previous step's sorted list.
	i, j := 0, 0
	for i < len(ce.prev) || j < len(ce.cur) {
		switch {
		case j == len(ce.cur) || i < len(ce.prev) && compareContactEvents(ce.prev[i], ce.cur[j]) < 0:
			out.Send(ContactEvent{Phase: ContactEnded, A: ce.prev[i].A, B: ce.prev[i].B})
			i++
		case i == len(ce.prev) || compareContactEvents(ce.cur[j], ce.prev[i]) < 0:
			ev := ce.cur[j]
			ev.Phase = ContactBegan
			out.Send(ev)
			j++
		default:
			ev := ce.cur[j]
			ev.Phase = ContactPersisted
			out.Send(ev)
			i++
			j++
		}
	}
	ce.prev, ce.cur = ce.cur, ce.prev
}

// compareContactEvents orders events by (A, B).
func compareContactEvents(x, y ContactEvent) int {
	if c := compareEntities(x.A, y.A); c != 0 {
		return c
	}
	return compareEntities(x.B, y.B)
}

// compareEntities orders entities by index, then generation.
func compareEntities(a, b ecs.Entity) int {
	if c := cmp.Compare(a.Index(), b.Index()); c != 0 {
		return c
	}
	return cmp.Compare(a.Generation(), b.Generation())
}
