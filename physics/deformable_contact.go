package physics

import (
	"slices"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/stagger-physics/stagger/collide"
	"github.com/stagger-physics/stagger/ecs"
)

// deformContact is one contact of a reduced deformable body's surface sample with a collider,
// found by the collider shape's signed distance at the sample, or with another deformable's
// surface (deformable_pair.go; docs/architecture.md, Deformable bodies). It persists from one step
// to the next in its model, keyed by (collider, sample) or (other body, sample), for the warm
// start.
type deformContact struct {
	proxy  collide.ProxyID // the collider's proxy, or noProxy for another deformable
	other  ecs.Entity      // the collider's entity, or the other deformable's
	sample int32
	// position is midway between the sample and the other body's surface, normal points from the
	// other body to the sample, gap is the sample's signed distance; alpha and friction are the
	// step's impulses (N·s), after the solve.
	position, normal mgl64.Vec3
	gap              float64
	alpha            float64
	friction         mgl64.Vec3
	// With another deformable: peer is its index among the step's deformables, and the contact
	// holds the sample against the point of its surface triangle face with barycentric weights
	// bary.
	peer int
	face int32
	bary [3]float64
}

// deformCollision finds the contacts of the step's deformable bodies with the colliders of the
// collision world. Its buffers are reused from step to step.
type deformCollision struct {
	ids     []collide.ProxyID
	visitFn func(collide.ProxyID) bool
	// For the contacts between deformables (deformable_pair.go): per deformable, whether its
	// BD-tree holds its configuration this step; a pair's overlapping leaves; and one side's
	// candidate triangles per sample (deformable_candidates.go): the rows of bits, rowWords words
	// each, the samples that have one in the order marked, and per sample its row's index or −1.
	fitted   []treeFit
	leaves   [][2]int32
	bits     []uint64
	rowWords int
	marked   []int32
	slot     []int32
	// sampleTests and kept are the step's StepStats.SampleTests and KeptDeformable.
	sampleTests, kept int
	// sensed lists the step's overlaps of deformables with sensor colliders, for the sensor
	// events (sensorEvents.emit).
	sensed []SensorEvent
}

// visit collects a broad-phase entry the deformable's box overlaps.
func (dc *deformCollision) visit(id collide.ProxyID) bool {
	dc.ids = append(dc.ids, id)
	return true
}

// collideDeformables lists the contacts of every deformable model with the colliders in the broad
// phase, after the rigid bodies' (so that the contact list's rigid part is as it was without them),
// then those between deformables (collideDeformablePairs). Each sample of a deformable (a surface
// vertex, at its start-of-step position) is tested against every collider whose broad-phase box
// meets the deformable's box — its samples' bounds fattened by the look-ahead — by the collider
// shape's signed distance in the shape's frame; a sample within margin plus both bodies' sweeps is
// a contact, with the shape's outward gradient as normal.
//
// A collider is tested only when its layers and the deformable's meet (ReducedDeformable.Layer and
// Mask) and the contact filter, asked once per (deformable, collider) candidate in the loop's
// fixed order, keeps the pair. A sensor collider gives no contact: the deformable overlaps it when
// one of its samples lies in or on the sensor's shape (no look-ahead, as for rigid bodies), and
// the overlap is recorded for the sensor events.
func (s *Simulation) collideDeformables(margin float64) {
	c := s.collision
	dc := &s.deformCol
	if dc.visitFn == nil {
		dc.visitFn = dc.visit
	}
	dc.sensed = dc.sensed[:0]
	dc.sampleTests, dc.kept = 0, 0
	nr := len(s.models)
	for j, m := range s.deformModels {
		m.prev, m.contacts = m.contacts, m.prev[:0]
		m.prevPeers = m.peers
		m.prevColliders, m.colliders = m.colliders, m.prevColliders[:0]
		m.prevPeerKeys, m.peerKeys = m.peerKeys, m.prevPeerKeys[:0]
		mi := nr + j
		qdot := s.layout.Span(s.qdotP, mi)
		// An unchanged body (asleep, say) keeps its samples, sweep and box (deformable_reuse.go).
		if m.same = m.refreshKey(s.h, margin, qdot); m.same {
			continue
		}
		m.sweep = s.h * m.sampleSpeeds(qdot)
		box := collide.AABB{Min: m.samples[0], Max: m.samples[0]}
		for _, p := range m.samples[1:] {
			box = box.AddPoint(p)
		}
		m.box = box.Expand(margin + m.sweep)
	}
	for j, m := range s.deformModels {
		mi := nr + j
		sweep := m.sweep
		dc.ids = dc.ids[:0]
		c.broad.Query(m.box, dc.visitFn)
		slices.Sort(dc.ids)
		friction := s.deformables[j].Friction
		layer, mask := s.deformables[j].layers()
		e := s.entities[mi]
		old, at := 0, 0
		for _, id := range dc.ids {
			rec := &c.proxies[id]
			if !rec.alive || rec.seen != c.step || !layersMeet(layer, mask, rec.layer, rec.mask) {
				continue
			}
			cb := &c.bodies[rec.body]
			if s.filter != nil && !callFilter(s.filter, cb.entity, e) {
				continue
			}
			if cb.sensor {
				if m.overlaps(cb, &dc.sampleTests) {
					dc.sensed = append(dc.sensed, SensorEvent{Sensor: cb.entity, Other: e})
				}
				continue
			}
			mu := combineFriction(friction, cb.material[0])
			if m.keptCollider(m.same, id, cb, &at) {
				// Nothing the contacts were computed from has changed: last step's stand, with
				// their impulses as the warm start.
				for old < m.prevPeers && m.prev[old].proxy < id {
					old++
				}
				for ; old < m.prevPeers && m.prev[old].proxy == id; old++ {
					ct := m.prev[old]
					warm := contactImpulse{normal: ct.alpha, friction: ct.friction}
					ct.alpha, ct.friction = 0, mgl64.Vec3{}
					k := len(m.contacts)
					m.contacts = append(m.contacts, ct)
					s.contacts.add(contactPoint{
						pair: -1 - j, point: k,
						a: cb.contactSide(ct.position), b: contactSide{model: mi, sample: ct.sample},
						position: ct.position, normal: ct.normal, gap: ct.gap,
						friction: mu, restitution: combineRestitution(cb.material[1], 0),
						warm: warm,
					})
				}
				m.colliders = append(m.colliders, colliderKey{proxy: id, entity: cb.entity, pose: cb.pose, shape: cb.shape, sweep: cb.sweep})
				dc.kept++
				continue
			}
			m.colliders = append(m.colliders, colliderKey{proxy: id, entity: cb.entity, pose: cb.pose, shape: cb.shape, sweep: cb.sweep})
			dc.sampleTests += len(m.samples)
			look := margin + sweep + cb.sweep
			for si, p := range m.samples {
				local := cb.pose.ApplyInverse(p)
				d, grad := cb.shape.SignedDistance(local)
				if !(d <= look) {
					continue
				}
				n := cb.pose.Rotate(grad)
				pos := p.Sub(n.Mul(0.5 * d))
				ct := deformContact{proxy: id, other: cb.entity, sample: int32(si), position: pos, normal: n, gap: d}
				// Warm start from last step's contact of the same collider and sample: both lists
				// are sorted by (proxy, sample).
				for old < m.prevPeers && deformLess(&m.prev[old], &ct) {
					old++
				}
				var warm contactImpulse
				if old < m.prevPeers && m.prev[old].proxy == id && m.prev[old].sample == ct.sample && m.prev[old].other == ct.other {
					warm = contactImpulse{normal: m.prev[old].alpha, friction: m.prev[old].friction}
				}
				k := len(m.contacts)
				m.contacts = append(m.contacts, ct)
				s.contacts.add(contactPoint{
					pair: -1 - j, point: k,
					a: cb.contactSide(pos), b: contactSide{model: mi, sample: int32(si)},
					position: pos, normal: n, gap: d,
					friction: mu, restitution: combineRestitution(cb.material[1], 0),
					warm: warm,
				})
			}
		}
		m.peers = len(m.contacts)
	}
	s.collideDeformablePairs(margin)
}

// overlaps reports whether one of the model's samples lies in or on the collider's shape (a signed
// distance ≤ 0), adding the samples it tested to tests.
func (m *deformableModel) overlaps(cb *collisionBody, tests *int) bool {
	for _, p := range m.samples {
		*tests++
		if d, _ := cb.shape.SignedDistance(cb.pose.ApplyInverse(p)); d <= 0 {
			return true
		}
	}
	return false
}

// deformLess orders deformable contacts by (proxy, sample).
func deformLess(x, y *deformContact) bool {
	if x.proxy != y.proxy {
		return x.proxy < y.proxy
	}
	return x.sample < y.sample
}

// storeDeformImpulses keeps the solve's impulse of every deformable contact of the list in its
// model, for the next step's warm start and Simulation.Contacts.
func (s *Simulation) storeDeformImpulses(impulses []contactImpulse) {
	for i := range s.contacts.points {
		p := &s.contacts.points[i]
		if p.pair >= 0 {
			continue
		}
		ct := &s.deformModels[-1-p.pair].contacts[p.point]
		ct.alpha, ct.friction = impulses[i].normal, impulses[i].friction
	}
}
