package physics

// A step whose solve pressed on a sleeping body solves its contacts again with that body's island
// awake (Simulation.wakePressed, sleeping_parts.go). Only the islands that the woken bodies join
// change: every other island has the same bodies, contacts and warm starts as in the solve before,
// so its answer would come out bit for bit the same. The re-solve keeps those answers instead of
// computing them again, and solves only the islands with a woken body.

// keptAnswers is the previous solve's answers, saved at the start of a re-solve before the
// stage's buffers are rebuilt: per model its island, per island its outcome and body count, and
// per contact its impulse. The velocities and impulses in the step's layout (contactStage.qdot,
// impulse, shift) need no copy: a re-solve writes only its solved islands' bodies. A warm
// keptAnswers does not allocate.
type keptAnswers struct {
	islandOf []int
	outcomes []islandOutcome
	bodies   []int
	impulses []contactImpulse
}

// save copies cs's answers of its last solve.
func (ka *keptAnswers) save(cs *contactStage) {
	isl := &cs.isl
	ka.islandOf = append(ka.islandOf[:0], isl.islandOf...)
	ka.outcomes = append(ka.outcomes[:0], cs.outcomes...)
	ka.bodies = ka.bodies[:0]
	for is := range cs.outcomes {
		ka.bodies = append(ka.bodies, isl.bodyStart[is+1]-isl.bodyStart[is])
	}
	ka.impulses = append(ka.impulses[:0], cs.impulses...)
}

// keepUntouched marks kept each awake island of the current solve that no body of in.woken joins,
// taking its outcome and its contacts' impulses from the saved solve. Islands only merge between
// the two solves (a detached contact joins the islands of a body woken since), so such an island
// is the saved solve's island of its first body; its body count is compared all the same.
func (cs *contactStage) keepUntouched(in *contactInput) {
	isl := &cs.isl
	ka := &cs.kept
	for is := range cs.outcomes {
		if cs.outcomes[is].sleeping {
			continue
		}
		bodies := isl.bodies[isl.bodyStart[is]:isl.bodyStart[is+1]]
		touched := false
		for _, mi := range bodies {
			if in.woken[mi] {
				touched = true
				break
			}
		}
		if touched || len(bodies) == 0 {
			continue
		}
		prev := ka.islandOf[bodies[0]]
		if prev < 0 || ka.outcomes[prev].sleeping || ka.bodies[prev] != len(bodies) {
			continue
		}
		o := ka.outcomes[prev]
		o.kept = true
		cs.outcomes[is] = o
		for _, k := range isl.contacts[isl.contactStart[is]:isl.contactStart[is+1]] {
			cs.impulses[k] = ka.impulses[k]
		}
	}
}
