package physics

import "math"

// Sleeping islands. An island whose bodies have all moved slower than Config.SleepLinear and
// Config.SleepAngular for Config.SleepTime (a deformable's modes too: deformable_sleep.go) falls
// asleep where it stands: its velocities are zeroed and, from then on, its pairs keep their
// manifolds and impulses without a narrow phase and the island is not solved. Parts of an island
// can sleep on their own (sleeping_parts.go). It wakes when an awake body joins it through a
// contact (a detached one only if it presses), when a kinematic body touching it moves (or the
// game moves it), when one of its bodies loses every contact, or when the game changes or pushes
// one of its bodies (RigidBody.wakeOrSleepByGame; the push methods of forces.go clear Sleeping).
// A step that puts an island to sleep leaves its bodies at the poses its contacts were found at,
// so the kept manifolds describe them exactly.

// markSleepingIslands decides, before the solve, which islands stay asleep: those whose bodies all
// slept at the start of the step (in.asleep) and none of whose contacts involves a kinematic body
// that moves or that the game moved. The other islands are solved, and Simulation.store wakes their
// bodies. It resets the outcomes and returns the number of sleeping islands.
func (cs *contactStage) markSleepingIslands(in *contactInput) int {
	isl := &cs.isl
	points := in.contacts.points
	sleeping := 0
	for is := range cs.outcomes {
		asleep := true
		for _, mi := range isl.bodies[isl.bodyStart[is]:isl.bodyStart[is+1]] {
			if !in.asleep[mi] {
				asleep = false
				break
			}
		}
		if asleep {
			for _, k := range isl.contacts[isl.contactStart[is]:isl.contactStart[is+1]] {
				if points[k].a.moving || points[k].b.moving {
					asleep = false
					break
				}
			}
		}
		cs.outcomes[is] = islandOutcome{sleeping: asleep}
		if asleep {
			sleeping++
		}
	}
	return sleeping
}

// advance moves every awake dynamic body with its velocity after the contact stage's solve out
// (q̇ᵗ⁺¹ in an island, q̇ᴾ otherwise), writes it back, and puts islands that have come to rest to
// sleep. It lists the entities whose update was non-finite (and discarded) in s.nonFinite and
// returns the number of bodies asleep afterwards.
func (s *Simulation) advance(h float64, out *contactOutput, tick uint64) (sleeping int) {
	isl := out.islands
	s.partSlept = growBools(s.partSlept, len(s.models))
	clear(s.partSlept)
	for is := range out.outcomes {
		bodies := isl.bodies[isl.bodyStart[is]:isl.bodyStart[is+1]]
		if out.outcomes[is].sleeping {
			sleeping += len(bodies)
			continue
		}
		if err := out.outcomes[is].failed; err != nil {
			// Held: the island was not solved, so its bodies keep their state (failed.go).
			err = s.islandFailure(err, bodies, isl.contacts[isl.contactStart[is]:isl.contactStart[is+1]])
			for _, mi := range bodies {
				s.failed = append(s.failed, SolveFailedEvent{Entity: s.entities[mi], Tick: tick, Err: err})
			}
			continue
		}
		// An island still being pushed apart, or bouncing, is not at rest, whatever its velocities.
		// One that is not at rest as a whole may still have parts that are (sleepRestingParts).
		rests, displaced := s.comesToRest(h, bodies, out.qdot), out.outcomes[is].displaced()
		if !rests && !displaced {
			sleeping += s.sleepRestingParts(is, out)
		}
		if rests && !displaced {
			for _, mi := range bodies {
				if mi >= len(s.models) {
					s.deformables[mi-len(s.models)].sleep()
					continue
				}
				s.components[mi].sleep()
			}
			sleeping += len(bodies)
			continue
		}
		scale := s.rotationScale(h, bodies, out.qdot)
		for _, mi := range bodies {
			if mi < len(s.models) && s.partSlept[mi] {
				continue // fell asleep with its part: left where its contacts were found
			}
			var shift []float64
			if out.outcomes[is].displaced() {
				shift = s.layout.Span(out.shift, mi)
			}
			qdot := s.layout.Span(out.qdot, mi)
			if scale < 1 {
				for i := range qdot {
					qdot[i] *= scale
				}
				// A bounce's shift, h(q̇ₛ − q̇ᵗ⁺¹), completes the motion to h q̇ₛ; scaled with
				// q̇ᵗ⁺¹, the body moves by h·scale·q̇ₛ, which keeps every contact's constraint
				// (a separation's part only shrinks).
				for i := range shift {
					shift[i] *= scale
				}
			}
			if !s.store(mi, qdot, s.layout.Span(out.impulse, mi), shift, h, scale) {
				s.nonFinite = append(s.nonFinite, s.entities[mi])
			}
		}
	}
	for j, d := range s.deformables {
		mi := len(s.models) + j
		if isl.islandOf[mi] >= 0 {
			continue
		}
		// As for rigid bodies below: one the game put to sleep stays put, any other flies.
		if s.asleep[mi] && d.sleepState.gameSlept {
			sleeping++
			continue
		}
		d.sleepState.rest = 0
		if !s.store(mi, s.layout.Span(s.qdotP, mi), nil, nil, h, 1) {
			s.nonFinite = append(s.nonFinite, s.entities[mi])
		}
	}
	for mi := range s.models {
		if isl.islandOf[mi] >= 0 {
			continue
		}
		// In no island: in flight, a body the game put to sleep (which stays put), or a sleeper
		// whose support has gone (which wakes and falls).
		if b := s.components[mi]; s.asleep[mi] && b.gameSlept {
			sleeping++
			continue
		}
		s.components[mi].rest = 0
		if !s.store(mi, s.layout.Span(s.qdotP, mi), nil, nil, h, 1) {
			s.nonFinite = append(s.nonFinite, s.entities[mi])
		}
	}
	return sleeping
}

// store advances model mi with velocity qdot (and contact impulse, or nil), displaces it by the
// separation's shift (or nil), scales its end-of-step angular velocity by scale (qdot comes scaled;
// see rotationScale), and writes it into its component, which is awake from now on. It reports
// whether the update was finite.
func (s *Simulation) store(mi int, qdot, impulse, shift []float64, h, scale float64) bool {
	if mi >= len(s.models) {
		return s.storeDeformable(mi-len(s.models), qdot, impulse, shift, h)
	}
	b := s.components[mi]
	if b.asleep {
		b.wake()
	}
	m := &s.models[mi]
	m.Advance(h, qdot, impulse)
	if scale < 1 {
		// Advance took the linear velocity from qdot, already scaled; the angular velocity comes
		// from the momentum plus the contact's (unscaled) angular impulse.
		m.angularVel = m.angularVel.Mul(scale)
	}
	if shift != nil {
		m.Displace(shift)
	}
	ok := m.store(b)
	b.written = b.state()
	return ok
}

// storeDeformable advances deformable j with velocity qdot (and contact impulse, or nil), displaces
// it by the separation's shift (or nil) and writes its frame into its component, which is awake
// from now on. It reports whether the update was finite; a deformable whose update was not keeps
// its last state.
func (s *Simulation) storeDeformable(j int, qdot, impulse, shift []float64, h float64) bool {
	if d := s.deformables[j]; d.sleepState.asleep {
		d.wake()
	}
	m := s.deformModels[j]
	m.body.State(&m.saved)
	m.Advance(h, qdot, impulse)
	if shift != nil && m.err == nil {
		m.Displace(shift)
	}
	if m.err == nil && !m.finite() {
		m.err = errNonFinite
	}
	if m.err != nil {
		// Only SetState's checks can refuse the saved state, which was the body's own.
		_ = m.body.SetState(m.saved)
		m.err = nil
		return false
	}
	return s.deformables[j].store()
}

// comesToRest accumulates the rest time of an island's bodies from their velocities after the
// solve, qdot (in the step's layout), and reports whether every one has now been at rest for
// Config.SleepTime.
func (s *Simulation) comesToRest(h float64, bodies []int, qdot []float64) bool {
	cfg := &s.config
	all := cfg.SleepTime > 0
	for _, mi := range bodies {
		q := s.layout.Span(qdot, mi)
		if mi >= len(s.models) {
			d := s.deformables[mi-len(s.models)]
			if d.model.atRest(q, cfg.SleepLinear, cfg.SleepAngular) {
				d.sleepState.rest += h
			} else {
				d.sleepState.rest = 0
			}
			if d.sleepState.rest < cfg.SleepTime {
				all = false
			}
			continue
		}
		b := s.components[mi]
		v := q[0]*q[0] + q[1]*q[1] + q[2]*q[2]
		w := q[3]*q[3] + q[4]*q[4] + q[5]*q[5]
		if v < cfg.SleepLinear*cfg.SleepLinear && w < cfg.SleepAngular*cfg.SleepAngular {
			b.rest += h
		} else {
			b.rest = 0
		}
		if b.rest < cfg.SleepTime {
			all = false
		}
	}
	return all
}

// maxContactRotation is the largest angle, rad, a body in contact may turn in one step (Box2D and
// Jolt bound a step's rotation alike). A contact constrains the velocity of its point to first
// order, which describes a turn of a quarter of a half-turn well; a body spun faster by an
// off-centre impact, a small box hit at hundreds of m/s say, would otherwise turn several times in
// a step while its contacts assume it barely turned, and swing through what it hit.
const maxContactRotation = 0.25 * math.Pi

// rotationScale returns the factor, at most 1, by which an island's velocities after the solve
// (qdot, in the step's layout) are scaled so that none of its bodies turns by more than
// maxContactRotation in the step of length h. A sphere may spin at any rate: turning does not move
// its surface. Scaling every velocity of the island by the same factor keeps each contact's
// constraint n_kᵀq̇ + b_k ≥ 0 met, since b_k ≥ 0 (docs/architecture.md, Sign conventions), except
// against a moving kinematic body.
func (s *Simulation) rotationScale(h float64, bodies []int, qdot []float64) float64 {
	scale := 1.0
	for _, mi := range bodies {
		if mi >= len(s.models) || s.models[mi].round {
			// A deformable body's angular velocity comes from its momentum after Advance
			// (storeDeformable), which the scale could not reach; it is not bounded here.
			continue
		}
		q := s.layout.Span(qdot, mi)
		if turn := h * math.Sqrt(q[3]*q[3]+q[4]*q[4]+q[5]*q[5]); turn > maxContactRotation {
			scale = min(scale, maxContactRotation/turn)
		}
	}
	return scale
}
