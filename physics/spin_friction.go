package physics

import (
	"math"

	"github.com/go-gl/mathgl/mgl64"
)

// Torsional friction (docs/architecture.md, Torsional friction). A point contact cannot resist
// spin about its own normal: the paper's friction acts in the tangent plane (eq. 6–7), so a ball
// spinning on the floor like a turntable, or two balls turning against each other about their
// line of centres, spin for ever and keep their island awake. A real contact is a small patch,
// whose friction resists such spin with a torque up to about μ·a·N for a patch of radius a.
//
// applyTorsionalFriction gives each contact point of rigid bodies that pressed last step that
// angular impulse about its normal before the solve, as part of the bodies' unconstrained velocity q̇ᴾ: bounded by
// μ·TorsionalPatchRadius·α with α the normal impulse the same point received last step (its warm
// start; a new point resists no spin in its first step), and never more than the impulse that
// stops the relative spin. The contacts are visited once, in the list's order (the same for any
// number of workers), each with the spin the earlier ones left, so each impulse only lowers the
// kinetic energy, and the solve that follows sees the slowed spin: every contact stays exact.
// Deformable bodies' contacts resist no spin.

// torsionalSlipTol, m/s, is the slip at the patch's rim below which a relative spin is left
// alone: the solve resolves sliding no finer (the friction projection's default tolerance,
// solver.Options.FrictionTol, of a velocity scale of at least 1 m/s), so such a spin is its
// round-off. Stopping it would feed that round-off back into every step's problem, which a resting
// tower of 100 cubes amplifies into a twist that grows for a minute until its solves no longer
// converge.
const torsionalSlipTol = 1e-9

// torsionalImpulse is the angular impulse about the contact normal n that stops a relative spin
// rel = (ω_a − ω_b)·n, given the summed inverse inertia k = nᵀI_a⁻¹n + nᵀI_b⁻¹n about n, clamped
// to the patch's bound: the impulse on side b; side a receives its opposite.
func torsionalImpulse(rel, k, bound float64) float64 {
	return min(max(rel/k, -bound), bound)
}

// applyTorsionalFriction applies the step's torsional friction (above) to the unconstrained
// velocities qdotP of the awake rigid models, recording each model's angular impulse so that its
// end-of-step angular momentum carries it (rigidModel.momentum). Sleeping bodies are held, as
// the contact stage holds them.
func (s *Simulation) applyTorsionalFriction(h float64) {
	radius := s.config.TorsionalPatchRadius
	if !(radius > 0) {
		return
	}
	touched := false
	for i := range s.contacts.points {
		c := &s.contacts.points[i]
		if c.pair < 0 || !(c.warm.normal > 0) || !(c.friction > 0) {
			continue
		}
		n := c.normal
		wa, ia, da := s.spinSide(&c.a, n)
		wb, ib, db := s.spinSide(&c.b, n)
		inertia := n.Dot(ia) + n.Dot(ib)
		if !(inertia > 0) {
			continue
		}
		rel := wa.Sub(wb).Dot(n)
		if math.Abs(rel)*radius <= torsionalSlipTol {
			continue
		}
		lambda := torsionalImpulse(rel, inertia, c.friction*radius*c.warm.normal)
		if lambda == 0 {
			continue
		}
		if da != nil {
			s.models[c.a.model].spinImpulse = s.models[c.a.model].spinImpulse.Sub(n.Mul(lambda))
			addAngular(da, ia.Mul(-lambda))
		}
		if db != nil {
			s.models[c.b.model].spinImpulse = s.models[c.b.model].spinImpulse.Add(n.Mul(lambda))
			addAngular(db, ib.Mul(lambda))
		}
		touched = true
	}
	if !touched {
		return
	}
	// The sweep moved ω linearly, through the start-of-step inertia; the predictor turns the
	// new momentum into the step's midpoint angular velocity, as it does a game's torque.
	for i := range s.models {
		if s.models[i].spinImpulse != (mgl64.Vec3{}) {
			s.models[i].PredictVelocity(h, s.config.Gravity, s.layout.Span(s.qdotP, i))
		}
	}
}

// spinSide returns one side of a contact as torsional friction sees it: its angular velocity,
// its inverse world inertia applied to n (zero for a body that does not respond), and its
// unconstrained velocity block, nil unless it is an awake dynamic rigid body.
func (s *Simulation) spinSide(side *contactSide, n mgl64.Vec3) (w, invIn mgl64.Vec3, qdotP []float64) {
	switch {
	case side.model >= 0 && !s.asleep[side.model]:
		qdotP = s.layout.Span(s.qdotP, side.model)
		return mgl64.Vec3{qdotP[3], qdotP[4], qdotP[5]}, s.models[side.model].worldInverseInertia(n), qdotP
	case side.kinematic:
		return side.angular, mgl64.Vec3{}, nil
	}
	return mgl64.Vec3{}, mgl64.Vec3{}, nil
}

// addAngular adds dw to the angular part of a rigid body's velocity block.
func addAngular(qdot []float64, dw mgl64.Vec3) {
	qdot[3] += dw[0]
	qdot[4] += dw[1]
	qdot[5] += dw[2]
}
