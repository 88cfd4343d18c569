package physics

import (
	"fmt"

	"github.com/stagger-physics/stagger/solver"
)

// Restitution (docs/architecture.md, Restitution). The paper's restitution (footnote 4,
// n_kᵀ(q̇ᵗ⁺¹ + e q̇ᵗ) ≥ 0) does not survive speculative contacts: a falling ball's contact stops it
// exactly at the ground (b = φ/h) with a small velocity, so at the next step q̇ᵗ is small and the
// bounce is lost. Instead, a contact that closes within the step and approaches faster than
// Config.RestitutionThreshold bounces, in three parts:
//
//  1. the island is solved as before, with no restitution; that answer q̇ₛ moves the bodies, so
//     the bouncing bodies end the step where their speculative contacts stopped them, in touch;
//  2. collision rounds (Guendelman, Bridson, Fedkiw 2003, §4): from u = q̇ᴾ, the contacts that
//     approach faster than the threshold at u and close within the step are solved alone with
//     n̂ᵀ(relative velocity) ≥ 0 (compression), and each then receives e_k times its compression
//     impulse again (restitution, Poisson's law); u takes the result, and rounds repeat while
//     contacts approach fast (a ball that hits a box on the ground sends the box into the ground,
//     off which it bounces in the next round if that contact has restitution, or which stops it
//     in the final solve if not, as in Box2D's restitution pass; a Newton's cradle passes its
//     impulse on one ball a round);
//  3. the island is solved once more from u with no restitution, which stops whatever the rounds
//     left approaching (slower than the threshold) and settles the contacts that rest.
//
// For one contact Poisson's law is Newton's: the contact leaves at e times its approach speed.
// For several at once it cannot add kinetic energy, which Newton's law, a target speed per
// contact, can: with the compression's velocity u_c and impulse P, complementarity and the
// friction's maximal dissipation give Pᵀu_c ≤ 0 (no kinematic side: a moving one may push), so
// ½‖u_c + eM⁻¹P‖²_M − ½‖u_c − M⁻¹P‖²_M ≤ ½(e² − 1)‖P‖²_{M⁻¹} ≤ 0 for a common e.
//
// The last answer is the bodies' velocity q̇ᵗ⁺¹; positions move with q̇ₛ, through the step's
// displacement h(q̇ₛ − q̇ᵗ⁺¹) (contactStage.shift). A contact bounces in the first round only if its
// approach speed at the start of the step, from q̇ᵗ, exceeds the threshold, so that resting bodies,
// which approach at most at |g|·h in the predictor, never bounce; but it bounces off its approach
// speed at q̇ᴾ, the speed at which the semi-implicit Euler trajectory meets the surface. A ball
// then keeps semi-implicit Euler's own energy (½m|v|² − m g·x + ½m h g·v) through an e = 1 bounce
// (it rebounds to 98 % of a 3 m drop at 60 Hz, every time) instead of losing |g|h of speed to it
// (94 %, then 86 %, ...); the plain ½m|v|² − m g·x may then rise by up to m|g|h·v_n in the step.

// maxBounceRounds bounds the collision rounds of one island's step: a chain passes its impulse one
// contact a round (a cradle of n balls takes n − 1), and what is still approaching after the last
// round is stopped inelastically by the final solve.
const maxBounceRounds = 16

// restitutionScratch is an island worker's buffers for the collision rounds.
type restitutionScratch struct {
	problem solver.Problem
	result  solver.Result
	// bkin is, per contact of the island's problem, the kinematic sides' normal velocity that its
	// B holds besides the gap term; normal velocities of the relative motion are n_kᵀq̇ + bkin.
	bkin []float64
	// qpos is the first solve's velocity q̇ₛ, which moves the bodies; u the rounds' velocity.
	qpos, u []float64
	// active lists the contacts of the current round and restitution their e; impulse accumulates
	// the rounds' impulses per contact (α and the friction pair, 3 per contact); gen is the
	// restitution phase's generalized impulse.
	active      []int
	restitution []float64
	impulse     []float64
	gen         []float64
}

// bounceCandidates reports whether any of the island's contacts bounces in the first round: its
// restitution is positive, its approach speed at q̇ᵗ exceeds the threshold and it closes within the
// step at its approach speed at q̇ᴾ. It leaves them in rs.active and their e in rs.restitution.
func (wk *islandWorker) bounceCandidates(cs *contactStage, contacts []int) bool {
	return wk.listBouncing(cs, contacts, wk.problem.QdotT, wk.problem.QdotP)
}

// nextRound lists in rs.active the contacts that bounce in a later round: positive restitution,
// an approach speed at rs.u above the threshold, and closing within the step at that speed.
func (wk *islandWorker) nextRound(cs *contactStage, contacts []int) bool {
	return wk.listBouncing(cs, contacts, wk.restitution.u, wk.restitution.u)
}

// listBouncing lists in rs.active (with their e in rs.restitution) the contacts with positive
// restitution whose approach speed at the velocity approach exceeds the threshold and which close
// within the step at their approach speed at the velocity closing; it reports whether there are any.
func (wk *islandWorker) listBouncing(cs *contactStage, contacts []int, approach, closing []float64) bool {
	in := &cs.in
	p, rs := &wk.problem, &wk.restitution
	rs.active, rs.restitution = rs.active[:0], rs.restitution[:0]
	for j, k := range contacts {
		c := &in.contacts.points[k]
		if c.restitution == 0 {
			continue
		}
		if !(-(normalVelocity(p, j, approach) + rs.bkin[j]) > in.config.RestitutionThreshold) {
			continue
		}
		if vn := -(normalVelocity(p, j, closing) + rs.bkin[j]); vn > 0 && c.gap < in.h*vn {
			rs.active = append(rs.active, j)
			rs.restitution = append(rs.restitution, c.restitution)
		}
	}
	return len(rs.active) > 0
}

// bounce runs the collision rounds and the final solve for an island whose first solve, in
// wk.result, had bouncing contacts (bounceCandidates). On return wk.result holds the final answer,
// rs.qpos the first solve's velocity, and rs.impulse the rounds' impulses per contact.
func (wk *islandWorker) bounce(cs *contactStage, contacts []int) error {
	p, rs := &wk.problem, &wk.restitution
	n := p.NumDoF()
	rs.qpos = append(rs.qpos[:0], wk.result.Qdot[:n]...)
	rs.u = append(rs.u[:0], p.QdotP...)
	rs.impulse = grow(rs.impulse, 3*len(contacts))
	clear(rs.impulse)
	for round := 0; round < maxBounceRounds; round++ {
		if round > 0 && !wk.nextRound(cs, contacts) {
			break
		}
		q := &rs.problem
		q.Reset()
		for b := 0; b < p.NumBlocks(); b++ {
			q.AddBlock(p.BlockAt(b).Size)
			copy(q.InvMass(b), p.InvMass(b))
		}
		copy(q.QdotP, rs.u)
		for _, j := range rs.active {
			c := p.Contact(j)
			// Compression: n̂ᵀ(relative velocity) = n_kᵀq̇ + bkin ≥ 0.
			idx := q.AddContact(c.BodyA, c.BodyB, rs.bkin[j], c.Mu, 0)
			copy(q.RowsA(idx), p.RowsA(j))
			copy(q.RowsB(idx), p.RowsB(j))
			q.Contact(idx).BT = c.BT
		}
		if err := wk.solveBounded(q, &rs.result); err != nil {
			return err
		}
		// Restitution: e_k times each contact's compression impulse again (Poisson's law).
		copy(rs.u, rs.result.Qdot[:n])
		rs.gen = grow(rs.gen, n)
		clear(rs.gen)
		for i, j := range rs.active {
			e := rs.restitution[i]
			lam := [3]float64{rs.result.Alpha[i], rs.result.Friction[2*i], rs.result.Friction[2*i+1]}
			for s, rows := range [2][]float64{q.RowsA(i), q.RowsB(i)} {
				if rows == nil {
					continue
				}
				body := q.Contact(i).BodyA
				if s == 1 {
					body = q.Contact(i).BodyB
				}
				bl := q.BlockAt(body)
				for r := 0; r < solver.RowsPerSide; r++ {
					row := rows[r*bl.Size : (r+1)*bl.Size]
					for d, x := range row {
						rs.gen[bl.Offset+d] += e * lam[r] * x
					}
				}
			}
			for r := 0; r < 3; r++ {
				rs.impulse[3*j+r] += (1 + e) * lam[r]
			}
		}
		for b := 0; b < q.NumBlocks(); b++ {
			bl := q.BlockAt(b)
			minv := q.InvMass(b)
			for r := 0; r < bl.Size; r++ {
				acc := 0.0
				for c := 0; c < bl.Size; c++ {
					acc += minv[r*bl.Size+c] * rs.gen[bl.Offset+c]
				}
				rs.u[bl.Offset+r] += acc
			}
		}
	}
	// The final solve: the island's own problem from the rounds' velocity.
	copy(p.QdotP, rs.u)
	return wk.solveBounded(p, &wk.result)
}

// solveBounded solves p into res with the configured solver and, if its contact projection is
// inexact, again with the bounded PGS baseline, like an island's first solve.
func (wk *islandWorker) solveBounded(p *solver.Problem, res *solver.Result) error {
	err := wk.solver.Solve(p, res)
	if err != nil && !isSolveError(err) {
		return fmt.Errorf("physics: contact problem: %w", err)
	}
	rs := &res.Stats
	if exact := err == nil && (rs.Method != solver.MethodSP || rs.ContactExact); exact || rs.Method == solver.MethodPGS {
		return nil
	}
	if err := wk.fallback.Solve(p, res); err != nil && !isSolveError(err) {
		return fmt.Errorf("physics: contact problem: %w", err)
	}
	return nil
}

// normalVelocity is n_kᵀq̇ for contact k of p at the velocity qdot (p's layout): the dynamic
// sides' part of the relative normal velocity.
func normalVelocity(p *solver.Problem, k int, qdot []float64) float64 {
	return normalRowDot(p, k, qdot, 0)
}

// normalRowDot returns v0 + n_kᵀq̇ for contact k of p at the velocity qdot (p's layout), summed
// from v0 on.
func normalRowDot(p *solver.Problem, k int, qdot []float64, v0 float64) float64 {
	c := p.Contact(k)
	v := v0
	for s, rows := range [2][]float64{p.RowsA(k), p.RowsB(k)} {
		body := c.BodyA
		if s == 1 {
			body = c.BodyB
		}
		if rows == nil {
			continue
		}
		bl := p.BlockAt(body)
		for i, r := range rows[:bl.Size] {
			v += r * qdot[bl.Offset+i]
		}
	}
	return v
}
