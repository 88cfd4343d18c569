package physics

import "github.com/stagger-physics/stagger/solver"

// Separation of overlapping bodies (docs/architecture.md, Separation). The velocity solve keeps a
// penetrating contact from closing further (b = 0) but never opens it, so bodies that were spawned
// into each other, or whose contact a fast rotation skipped, would stay interpenetrated. After the
// velocity solve, an island whose contacts would still overlap by more than Config.SeparationSlop
// at the end of the step gets a position correction Δq (post-stabilisation, Cline & Pai 2003): the
// same projection as the contact solve's (paper eq. 24 with μ = 0), on displacements instead of
// velocities,
//
//	Δq = argmin ½ ΔqᵀMΔq  subject to  n_kᵀΔq + b_k ≥ 0 for every contact k,
//
// with b_k = max(φ'_k + slop/2, −SeparationSpeed·h) and φ'_k the contact's gap at the end of the
// step to first order. A contact overlapping by more than the slop is opened by up to
// SeparationSpeed·h a step, to half the slop; every other contact may close at most to half the
// slop, so the correction pushes no body into a third one. Correcting past the threshold leaves
// an island at rest alone once it is corrected, rather than nudged at the threshold every step,
// which would also keep it from sleeping. The
// velocities are left as the solve made them: the correction adds no kinetic energy, and the
// potential energy it adds is reported in StepStats.SeparationWork.

// maxSeparationSpeed, m/s, bounds Config.SeparationSpeed: faster, a correction would throw bodies
// apart visibly in one step, which is what the velocity solve's b = 0 exists to avoid.
const maxSeparationSpeed = 10

// separationProblem turns the island's solved velocity problem p into the position problem above,
// in place, and reports whether any contact needs it. qdot is the velocity that moves the bodies
// in this step (the solve's answer, or its first answer when contacts bounced: restitution.go).
// gaps[j] is the gap of p's contact j at the start of the step; velocity terms are those the solve
// used.
func separationProblem(p *solver.Problem, qdot []float64, gaps []float64, h float64, cfg *Config) bool {
	slop, push := cfg.SeparationSlop, cfg.SeparationSpeed*h
	overlap := false
	for j := range gaps {
		// φ' = φ + h·(relative normal velocity at q̇ᵗ⁺¹): the constraint's value n_kᵀq̇ + b_k less the
		// gap term, which is the only part of b_k that is not a velocity.
		w := contactValue(p, j, qdot) - gapTerm(gaps[j], h, cfg)
		end := gaps[j] + h*w
		if end < -slop {
			overlap = true
		}
		c := p.Contact(j)
		c.B = max(end+0.5*slop, -push)
		c.Mu, c.E = 0, 0
		c.WarmNormal, c.WarmFriction = 0, [2]float64{}
	}
	if !overlap {
		return false
	}
	clear(p.QdotP)
	clear(p.QdotT)
	return true
}

// contactValue is n_kᵀq̇ + b_k for contact k of p at the velocity qdot (p's layout).
func contactValue(p *solver.Problem, k int, qdot []float64) float64 {
	return normalRowDot(p, k, qdot, p.Contact(k).B)
}

// separate runs the separation for island is, whose velocity problem wk.problem was just solved
// (qdot: the velocity that moves its bodies, in the problem's layout), and writes each of its bodies' displacement into cs.shift. It reports whether it
// moved anything and the potential energy the displacement adds in gravity. A separation that
// fails leaves the island as the velocity solve left it: it is a correction, never a reason to
// stop the step.
func (wk *islandWorker) separate(cs *contactStage, bodies, contacts []int, qdot []float64) (moved bool, work float64) {
	in := &cs.in
	wk.gaps = wk.gaps[:0]
	for _, k := range contacts {
		wk.gaps = append(wk.gaps, in.contacts.points[k].gap)
	}
	p := &wk.problem
	if !separationProblem(p, qdot, wk.gaps, in.h, in.config) {
		return false, 0
	}
	if err := wk.separator.Solve(p, &wk.shift); err != nil || !wk.shift.Stats.ContactExact {
		return false, 0
	}
	g := in.config.Gravity
	for _, mi := range bodies {
		bl := p.BlockAt(cs.block[mi])
		dq := wk.shift.Qdot[bl.Offset : bl.Offset+bl.Size]
		if !finiteSlice(dq) {
			return false, 0
		}
		copy(in.layout.Span(cs.shift, mi), dq)
		if mi >= len(in.models) {
			work += in.deformables[mi-len(in.models)].gravityWork(g, dq)
			continue
		}
		work -= in.mass(mi) * in.gravityScale(mi) * (g[0]*dq[0] + g[1]*dq[1] + g[2]*dq[2])
	}
	return true, work
}

// finiteSlice reports whether every entry of x is finite.
func finiteSlice(x []float64) bool {
	for _, v := range x {
		if !finite(v) {
			return false
		}
	}
	return true
}
