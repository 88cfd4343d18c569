package physics

import (
	"fmt"
	"math"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/stagger-physics/stagger/collide"
	"github.com/stagger-physics/stagger/ecs"
)

// collisionBody is one body with a collider, as the current step sees it.
type collisionBody struct {
	entity   ecs.Entity
	body     *RigidBody
	shape    collide.Shape
	pose     collide.Pose
	model    int // index of the body's dynamic model, or -1 for a static or kinematic body
	proxy    collide.ProxyID
	material [2]float64 // friction, restitution
	// sweep bounds how far any point of the body can move over the step, m.
	sweep float64
	// motion is the body's expected motion over the step (its velocities times the step), by
	// which the narrow phase keeps the points that motion would carry into contact.
	motion collide.Motion
	// reach bounds the distance of the shape's points from the body's origin, m (from the
	// shape's bounds; huge for a half-space).
	reach float64
	// still: the body cannot move this step unless its island wakes — a static body, a
	// kinematic one at rest that the game has not moved, or a dynamic one asleep. A pair of still
	// bodies keeps last step's manifold.
	still bool
	// sensor: the collider is a sensor (Collider.Sensor), whose pairs report overlaps only.
	sensor bool
}

// proxyRecord is the collision world's record of one broad-phase entry, indexed by ProxyID.
type proxyRecord struct {
	owner ecs.Entity
	seen  uint64 // the step that last saw the owner's collider
	body  int    // index into collisionWorld.bodies during the step that saw it
	alive bool
	// layer and mask are the entry's filter in the broad phase (Collider.layers); static, whether
	// the broad phase treats it as static (any body that is not dynamic).
	layer, mask uint32
	static      bool
	// query is the collider as the world queries last saw it (query.go).
	query queryRecord
}

// pairState is one broad-phase pair (A < B by proxy id) and what it keeps from step to step: the
// last manifold (for the narrow phase's reference-face hysteresis and for matching feature ids)
// and the impulses its points received, to warm-start the next step's solve.
type pairState struct {
	pair           collide.Pair
	ownerA, ownerB ecs.Entity
	// sensor: one side is a sensor, so the pair reports an overlap (a manifold with a gap <= 0)
	// and no contact.
	sensor   bool
	manifold collide.Manifold
	// alpha and friction are the normal impulses and the world-frame friction impulses of the
	// manifold's points after the last solve.
	alpha    [collide.MaxManifoldPoints]float64
	friction [collide.MaxManifoldPoints]mgl64.Vec3
	// poseA, poseB, shapeA, shapeB and look are the bodies' poses and shapes and the look-ahead
	// distance the manifold was computed with (see narrowPhase.collide, which keeps it while the
	// shapes are the same and the bodies stay within manifoldReuseDistance of these poses).
	poseA, poseB   collide.Pose
	shapeA, shapeB collide.Shape
	look           float64
}

// collisionWorld finds the step's contacts: a broad phase over every collider, then the narrow
// phase on each candidate pair with a dynamic side, and lists their points for the contact stage
// (contactList). Pairs persist in (A, B) order, so matching last step's pairs with this step's is
// a merge of two sorted lists: deterministic and free of map iteration. Each pair keeps its points'
// impulses for the next step's warm start (storeImpulses).
type collisionWorld struct {
	broad   *collide.BroadPhase
	proxyOf map[ecs.Entity]collide.ProxyID // lookup only, never iterated
	proxies []proxyRecord
	bodies  []collisionBody
	pairs   []pairState // this step's pairs, sorted by (A, B)
	spare   []pairState // last step's pairs while merging
	narrow  narrowPhase
	step    uint64
	h       float64
}

// newCollisionWorld returns an empty collision world whose broad phase fattens boxes by margin.
func newCollisionWorld(margin float64) (*collisionWorld, error) {
	bp, err := collide.NewBroadPhase(margin)
	if err != nil {
		return nil, err
	}
	return &collisionWorld{broad: bp, proxyOf: make(map[ecs.Entity]collide.ProxyID)}, nil
}

// begin starts a step of length h: the bodies gathered last step are forgotten.
func (c *collisionWorld) begin(h float64) {
	c.step++
	c.h = h
	c.bodies = c.bodies[:0]
}

// addBody places entity e's collider for this step, adding or updating its broad-phase entry.
// displacement is the body's motion over the step at its current velocity (the broad phase's
// stretch), sweep a bound on how far any of its points can move (see sweepBound), and endVelocity
// the velocity it would end the step with if nothing touched it: the narrow phase keeps the
// points that velocity and the angular one would carry into contact (collide.CollideMoving).
func (c *collisionWorld) addBody(e ecs.Entity, b *RigidBody, collider *Collider, model int, displacement mgl64.Vec3, sweep float64, endVelocity mgl64.Vec3, still bool) error {
	shape := collider.Shape
	pose := collide.Pose{Position: b.Position, Rotation: b.Orientation}
	bounds := shape.Bounds(pose)
	var motion collide.Motion
	if b.Kind == Static {
		displacement, sweep = mgl64.Vec3{}, 0
	} else {
		motion = collide.Motion{Linear: endVelocity.Mul(c.h), Angular: b.AngularVelocity.Mul(c.h)}
		if _, infinite := shape.(*collide.HalfSpace); !infinite {
			spin := b.AngularVelocity.Len()
			if b.Kind == Dynamic && b.torque != (mgl64.Vec3{}) {
				// The game's torque turns the body faster by up to h |I_world⁻¹ τ| within the step.
				spin += b.WorldInertia().Inv().Mul3x1(b.torque).Len() * c.h
			}
			sweep += spin * 0.5 * bounds.Max.Sub(bounds.Min).Len() * c.h
		}
	}
	id, err := c.place(e, b, collider, bounds, displacement)
	if err != nil {
		return err
	}
	c.proxies[id].seen = c.step
	c.proxies[id].body = len(c.bodies)
	var far mgl64.Vec3
	for i := 0; i < 3; i++ {
		far[i] = max(math.Abs(bounds.Max[i]-pose.Position[i]), math.Abs(bounds.Min[i]-pose.Position[i]))
	}
	c.bodies = append(c.bodies, collisionBody{
		entity: e, body: b, shape: shape, pose: pose, model: model, proxy: id,
		material: [2]float64{b.Friction, b.Restitution}, sweep: sweep, motion: motion, reach: far.Len(), still: still,
		sensor: collider.Sensor,
	})
	return nil
}

// place gives entity e's collider the tight box bounds in the broad phase, stretched by
// displacement, adding its entry if it has none, and brings the entry's layers up to date. It
// returns the entry. The step (addBody) and the world queries (refreshBody) both place colliders
// this way, so a query between steps leaves the broad phase as the next step would.
func (c *collisionWorld) place(e ecs.Entity, b *RigidBody, collider *Collider, bounds collide.AABB, displacement mgl64.Vec3) (collide.ProxyID, error) {
	layer, mask := collider.layers()
	id, ok := c.proxyOf[e]
	if ok {
		if _, err := c.broad.Update(id, bounds, displacement); err != nil {
			return id, withEntity(e, fmt.Errorf("physics: Collider.Shape bounds: %w", err))
		}
		r := &c.proxies[id]
		if r.layer != layer || r.mask != mask {
			if err := c.broad.SetLayers(id, layer, mask); err != nil {
				return id, fmt.Errorf("physics: %w", err)
			}
			r.layer, r.mask = layer, mask
		}
		// A body the game turned from static or kinematic into dynamic must pair with static
		// bodies from now on (and the reverse must stop).
		if static := b.Kind != Dynamic; r.static != static {
			if err := c.broad.SetStatic(id, static); err != nil {
				return id, fmt.Errorf("physics: %w", err)
			}
			r.static = static
		}
		return id, nil
	}
	id, err := c.broad.Add(bounds, displacement, collide.ProxyOptions{Static: b.Kind != Dynamic, Layer: layer, Mask: mask})
	if err != nil {
		return id, withEntity(e, fmt.Errorf("physics: Collider.Shape bounds: %w", err))
	}
	c.proxyOf[e] = id
	for int(id) >= len(c.proxies) {
		c.proxies = append(c.proxies, proxyRecord{})
	}
	c.proxies[id] = proxyRecord{owner: e, alive: true, layer: layer, mask: mask, static: b.Kind != Dynamic}
	return id, nil
}

// prune removes the broad-phase entries of colliders this step did not see (despawned entities,
// removed components), in proxy-id order.
func (c *collisionWorld) prune() error {
	for id := range c.proxies {
		r := &c.proxies[id]
		if !r.alive || r.seen == c.step {
			continue
		}
		if err := c.broad.Remove(collide.ProxyID(id)); err != nil {
			return fmt.Errorf("physics: %w", err)
		}
		delete(c.proxyOf, r.owner)
		*r = proxyRecord{}
	}
	return nil
}

// The collision stage runs in two calls, findPairs then collidePairs, so that the step can time the
// broad and the narrow phase apart (StepStats.Phases). Together they keep this step's touching
// pairs, with their manifolds and last step's impulses, in c.pairs, and list their points for the
// contact stage.

// findPairs is the broad phase: it takes the broad phase's candidate pairs, drops those with no
// dynamic side, merges them with last step's pairs (a pair of two still bodies keeps its manifold
// as it is) and lists the others for the narrow phase. margin is the speculative contact distance;
// each pair's narrow phase looks further by how far its two bodies can move in the step, so a fast
// body meets its speculative contact before it could pass through (the gap term then lets it close
// exactly the gap).
//
// The broad phase has already applied the colliders' layers. A pair of two sensors is dropped, a
// pair with one sensor is marked as a sensor pair, and filter (nil: none) is asked about every
// remaining pair, in pair order on the calling goroutine (see ContactFilter).
func (c *collisionWorld) findPairs(margin float64, filter ContactFilter) {
	candidates := c.broad.UpdatePairs()
	c.pairs, c.spare = c.spare[:0], c.pairs
	old := c.spare
	c.narrow.begin(margin)
	j := 0
	for _, pr := range candidates {
		ra, rb := &c.proxies[pr.A], &c.proxies[pr.B]
		a, b := &c.bodies[ra.body], &c.bodies[rb.body]
		if a.model < 0 && b.model < 0 {
			continue // kinematic–kinematic or kinematic–static: nothing to solve
		}
		if a.sensor && b.sensor {
			continue // sensors detect colliders, not one another
		}
		if filter != nil && !callFilter(filter, a.entity, b.entity) {
			continue
		}
		sensor := a.sensor || b.sensor
		for j < len(old) && pairLess(old[j].pair, pr) {
			j++
		}
		prev := -1
		if j < len(old) && old[j].pair == pr && old[j].ownerA == a.entity && old[j].ownerB == b.entity && old[j].sensor == sensor {
			prev = j
		}
		if a.still && b.still {
			// Neither body has moved since last step: last step's contact, if any, stands.
			if prev >= 0 {
				c.pairs = append(c.pairs, old[prev])
			}
			continue
		}
		c.pairs = append(c.pairs, pairState{pair: pr, ownerA: a.entity, ownerB: b.entity, sensor: sensor})
		c.narrow.add(len(c.pairs)-1, prev)
	}
}

// collidePairs is the narrow phase: it computes the manifolds of the pairs findPairs listed, keeps
// the touching ones and lists their points in out. It shares the pairs with pool's helpers (nil:
// none), workers in all counting the calling goroutine.
func (c *collisionWorld) collidePairs(pool *workerPool, workers int, out *contactList) error {
	c.narrow.run(c, pool, workers)
	if err := c.narrow.keepTouching(c); err != nil {
		return err
	}
	c.listContacts(out)
	return nil
}

// listContacts fills out with the points of this step's pairs, in pair order.
func (c *collisionWorld) listContacts(out *contactList) {
	out.reset()
	for p := range c.pairs {
		st := &c.pairs[p]
		if st.sensor {
			continue
		}
		a, b := &c.bodies[c.proxies[st.pair.A].body], &c.bodies[c.proxies[st.pair.B].body]
		friction := combineFriction(a.material[0], b.material[0])
		restitution := combineRestitution(a.material[1], b.material[1])
		for k := 0; k < st.manifold.Count; k++ {
			pt := &st.manifold.Points[k]
			out.add(contactPoint{
				pair: p, point: k,
				a: a.contactSide(pt.Point), b: b.contactSide(pt.Point),
				position: pt.Point, normal: pt.Normal, gap: pt.Gap,
				friction: friction, restitution: restitution,
				warm: contactImpulse{normal: st.alpha[k], friction: st.friction[k]},
			})
		}
	}
}

// contactSide describes the body as one side of a contact at point.
func (cb *collisionBody) contactSide(point mgl64.Vec3) contactSide {
	s := contactSide{model: cb.model}
	if b := cb.body; b.Kind == Kinematic {
		s.kinematic, s.moving = true, !cb.still
		s.velocity = b.LinearVelocity.Add(b.AngularVelocity.Cross(point.Sub(b.Position)))
		s.angular = b.AngularVelocity
	}
	return s
}

// storeImpulses keeps each listed point's impulse of the step (impulses, indexed like list's
// points) in its pair, where the next step's narrow phase finds its warm start and
// Simulation.Contacts and the contact events read it.
func (c *collisionWorld) storeImpulses(list *contactList, impulses []contactImpulse) {
	for i := range list.points {
		p := &list.points[i]
		if p.pair < 0 {
			continue // a deformable's (Simulation.storeDeformImpulses)
		}
		st := &c.pairs[p.pair]
		st.alpha[p.point] = impulses[i].normal
		st.friction[p.point] = impulses[i].friction
	}
}

// keptPairs is the number of pairs of the last collide whose manifold was kept from the step
// before.
func (c *collisionWorld) keptPairs() int { return c.narrow.kept }

// inheritImpulses gives each of st's points the impulses that last step's point with the same
// feature id received (paper §6.4's warm start, docs/architecture.md, Warm starts).
func (st *pairState) inheritImpulses(prev *pairState) {
	for i := 0; i < st.manifold.Count; i++ {
		id := st.manifold.Points[i].Feature
		for k := 0; k < prev.manifold.Count; k++ {
			if prev.manifold.Points[k].Feature == id {
				st.alpha[i] = prev.alpha[k]
				st.friction[i] = prev.friction[k]
				break
			}
		}
	}
}

// pairLess orders pairs by (A, B), the broad phase's order.
func pairLess(x, y collide.Pair) bool {
	if x.A != y.A {
		return x.A < y.A
	}
	return x.B < y.B
}
