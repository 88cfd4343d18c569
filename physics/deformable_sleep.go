package physics

import "github.com/go-gl/mathgl/mgl64"

// Sleeping of reduced deformable bodies. A deformable sleeps with its island, by the rigid bodies'
// rule (sleeping.go): every body of the island below the thresholds for Config.SleepTime. A
// deformable is below them when its frame's linear and angular velocities are below SleepLinear
// and SleepAngular and its modes' velocity ż is too, measured as
//
//	v_modal = √(żᵀż / m),
//
// the root mean square, weighted by mass, of the speed the modes give the mesh's vertices: the
// modes are mass-orthonormal, so żᵀż = Σ_a m_a |Φ_a ż|² is twice the modal kinetic energy, and
// v_modal compares with SleepLinear as a speed. It costs r products a step, where the largest
// sample speed would take a point Jacobian per surface vertex; a vibration that moves a corner
// fast moves the bulk too, so the mean does not hide it (a mode is spread over the whole mesh).
// A sleeping deformable keeps its modal coordinates z, its deformed shape, and its ż and frame
// velocities are zero, as a sleeping rigid body's velocities are.

// deformableSleep is a ReducedDeformable's sleep record, as RigidBody keeps its own.
type deformableSleep struct {
	asleep bool // the simulation's own record of Sleeping, to tell the game's changes apart
	// gameSlept: the game put the body to sleep, so it sleeps even with no contact to rest on.
	gameSlept bool
	rest      float64 // seconds the body has stayed below the sleep thresholds
}

// wakeOrSleepByGame applies what the game did to the body's sleep state since the last step, as
// RigidBody.wakeOrSleepByGame does: a sleeping body whose frame the game changed (changed, from
// check) or that it set awake wakes; a body the game set Sleeping on falls asleep where it is. It
// reports whether the body is asleep for this step.
func (d *ReducedDeformable) wakeOrSleepByGame(changed bool) bool {
	st := &d.sleepState
	switch {
	case d.Sleeping && st.asleep:
		if changed {
			d.wake()
		}
	case d.Sleeping:
		d.sleep()
		st.gameSlept = true
	case st.asleep:
		d.wake()
	}
	return st.asleep
}

// wake marks the body awake, its rest time restarting.
func (d *ReducedDeformable) wake() {
	d.Sleeping = false
	d.sleepState = deformableSleep{}
}

// sleep marks the body asleep where it is: its frame's velocities and its modal velocities are
// zeroed, its pose and modal coordinates kept.
func (d *ReducedDeformable) sleep() {
	d.Sleeping = true
	d.sleepState.asleep, d.sleepState.gameSlept = true, false
	d.LinearVelocity, d.AngularVelocity = mgl64.Vec3{}, mgl64.Vec3{}
	if m := d.model; m != nil {
		st := &m.state
		m.body.State(st)
		st.LinearVelocity, st.AngularVelocity = mgl64.Vec3{}, mgl64.Vec3{}
		clear(st.ZDot)
		// The state is the body's own with zeros for velocities, which SetState cannot refuse.
		_ = m.body.SetState(*st)
	}
	d.written = d.frame()
}

// atRest reports whether the generalised velocity qdot (6 + r entries, or r for a held body) is
// below the thresholds: frame speeds below linear and angular, and the modal speed v_modal below
// linear.
func (m *deformableModel) atRest(qdot []float64, linear, angular float64) bool {
	modal := qdot
	if m.held == nil {
		v := qdot[0]*qdot[0] + qdot[1]*qdot[1] + qdot[2]*qdot[2]
		w := qdot[3]*qdot[3] + qdot[4]*qdot[4] + qdot[5]*qdot[5]
		if !(v < linear*linear) || !(w < angular*angular) {
			return false
		}
		modal = qdot[6:]
	}
	zz := 0.0
	for _, x := range modal {
		zz += x * x
	}
	return zz < linear*linear*m.mass
}
