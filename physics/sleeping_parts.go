package physics

// Sleeping by parts (docs/architecture.md, Islands; Advance, sleeping, write-back). Every contact
// between two dynamic bodies joins their islands, speculative ones too (a gap within
// ContactMargin), so a ball that rolls past a resting heap within the margin, touching nothing,
// would keep the whole heap awake and solved every step for as long as it rolls. In the 100-body
// pile, spheres and capsules rolling for seconds kept most of the settled boxes awake. Two rules
// let the resting part of such an island sleep, with every step's contact answer still exact:
//
//   - sleepRestingParts: in an awake island, the parts joined by touching contacts — a normal
//     impulse this step, or a gap within RestingGap, the touch of contact events — whose bodies
//     have all been at rest for SleepTime fall asleep on their own;
//   - detached: a speculative contact between an awake rigid body and a sleeping one, which
//     carried no impulse last step, joins no islands, and the sleeping body counts as fixed in
//     the awake island's problem (it is at rest). If the solve presses on such a contact,
//     wakePressed wakes the sleeping island and the step's contacts are solved again with it
//     awake, until none presses: a body that slept is never held fixed by a contact that needs
//     it to move.
//
// On the pile's settled steps (3–4 s, seeds 1–3) this cut the median work of a step from 33k,
// 8.3k and 9.4k contact updates to 14k, 1.1k and 0.9k, with 54, 70 and 57 of the 100 bodies
// asleep at 4 s instead of 35, 39 and 48. Detached contacts pressed 17 to 25 times in such a 4 s
// run, each time costing the step a second solve of the islands the woken bodies join
// (resolve_kept.go).

// detached reports whether contact c joins an awake rigid body to a sleeping one (asleep: per
// model, at the start of the step; models below rigid are rigid) without touching it: its gap is
// beyond restingGap and it carried no normal impulse last step.
func detached(c *contactPoint, asleep []bool, rigid int, restingGap float64) bool {
	a, b := c.a.model, c.b.model
	return a >= 0 && b >= 0 && a < rigid && b < rigid && asleep[a] != asleep[b] &&
		c.gap > restingGap && !(c.warm.normal > 0)
}

// detached reports whether contact c is detached in the step of in.
func (in *contactInput) detached(c *contactPoint) bool {
	return detached(c, in.asleep, len(in.models), in.config.RestingGap)
}

// wakePressed wakes the sleeping islands of the detached contacts that the step's solve, out,
// pressed on (a positive normal impulse), marking their bodies awake for the step as well and in
// s.woken, and reports whether it woke any: the contacts must then be solved again.
func (s *Simulation) wakePressed(out *contactOutput) bool {
	points := s.contacts.points
	isl := out.islands
	woke := false
	s.woken = growBools(s.woken, len(s.asleep))
	clear(s.woken)
	for k := range points {
		c := &points[k]
		if !(out.impulses[k].normal > 0) || !detached(c, s.asleep, len(s.models), s.config.RestingGap) {
			continue
		}
		sleeper := c.a.model
		if !s.asleep[sleeper] {
			sleeper = c.b.model
		}
		if is := isl.islandOf[sleeper]; is >= 0 {
			for _, mi := range isl.bodies[isl.bodyStart[is]:isl.bodyStart[is+1]] {
				s.wakeModel(mi)
			}
		} else {
			s.wakeModel(sleeper) // touching nothing but the detached contact
		}
		woke = true
	}
	return woke
}

// wakeModel marks model mi, rigid or deformable, awake for the step and from now on, and woken
// (wakePressed sizes s.woken).
func (s *Simulation) wakeModel(mi int) {
	s.asleep[mi], s.woken[mi] = false, true
	if mi < len(s.models) {
		s.components[mi].wake()
		return
	}
	s.deformables[mi-len(s.models)].wake()
}

// sleepRestingParts puts to sleep the parts of the awake island is (of the contact stage's output
// out) whose bodies have all been at rest for SleepTime, parts being joined by touching contacts,
// and returns how many bodies it put to sleep; they are marked in s.partSlept. Islands with a
// reduced deformable body sleep only as a whole.
func (s *Simulation) sleepRestingParts(is int, out *contactOutput) int {
	isl := out.islands
	bodies := isl.bodies[isl.bodyStart[is]:isl.bodyStart[is+1]]
	if !(s.config.SleepTime > 0) {
		return 0
	}
	for _, mi := range bodies {
		if mi >= len(s.models) {
			return 0
		}
	}
	s.parts.resetSets(len(s.models), bodies)
	points := s.contacts.points
	for _, k := range isl.contacts[isl.contactStart[is]:isl.contactStart[is+1]] {
		c := &points[k]
		a, b := c.a.model, c.b.model
		if a < 0 || b < 0 || isl.islandOf[a] != is || isl.islandOf[b] != is ||
			c.gap > s.config.RestingGap && !(out.impulses[k].normal > 0) {
			continue // a detached contact's sleeping side is in another island
		}
		s.parts.union(a, b)
	}
	// restless marks the roots of the parts with a body not yet at rest for SleepTime.
	s.restless = growBools(s.restless, len(s.models))
	for _, mi := range bodies {
		s.restless[mi] = false
	}
	for _, mi := range bodies {
		if s.components[mi].rest < s.config.SleepTime {
			s.restless[s.parts.find(mi)] = true
		}
	}
	slept := 0
	for _, mi := range bodies {
		if !s.restless[s.parts.find(mi)] {
			s.components[mi].sleep()
			s.partSlept[mi] = true
			slept++
		}
	}
	return slept
}

// growBools returns s resized to n, reusing its capacity.
func growBools(s []bool, n int) []bool {
	if cap(s) < n {
		return make([]bool, n)
	}
	return s[:n]
}
