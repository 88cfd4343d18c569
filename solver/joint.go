package solver

import (
	"math"
	"time"
)

// Joint sticking solve: a candidate fixed point for the staggered loop (docs/architecture.md, Joint sticking solve).
// When every loaded contact sticks, the fixed point of eq. 26 solves one linear system: the normal
// and both tangential rows of the sticking contacts, and the normal rows of the sliding ones (their
// friction held), all with zero relative velocity. The staggered loop approaches it as a two-block
// Gauss–Seidel iteration between normal and tangential rows, which converges slowly when rotation
// couples them strongly (tall stacks, leaning cards). Solving the rows jointly by block-
// preconditioned CG jumps there in one solve. The candidate is used only if CG reached the
// tolerance and it is feasible — α ≥ 0, each sticking friction inside its set, no released contact
// penetrating — and it then merely restarts the staggered loop, whose own projections and stopping
// test certify it. solveSP tries it after a first subsequence that missed ε, and after an iterate
// that met ε without being exact, on an island of rigid bodies only if the rel_err it predicts is
// not far above the iterate's (predictedRelErr), and then kept only if the next subsequence
// measures it no worse. Solve discards an answer reached through it whose friction does more
// positive work than ε allows.

// jointRounds bounds the active-set corrections of the joint sticking solve; jointSlack is the
// relative margin on μ_kα_k by which a sticking contact's candidate friction may leave its set
// and still count as feasible (rounding). jointDiverged is the growth of the largest residual at
// which CG on the rows gives up: on redundant contacts the rows are singular, and once rounding
// has carried the iterate along a null direction the residual does not come back, so the rest of
// the iteration bound would be spent for no candidate.
const (
	jointRounds   = 16
	jointSlack    = 1e-9
	jointDiverged = 1e3
)

// jointPredictSlack: on an island of rigid bodies a candidate is used if the rel_err bound it
// predicts (predictedRelErr) is at most this multiple of the iterate's rel_err. The bound exceeded
// the rel_err then measured by 5 to 40 times on captured pile and card-house islands, so a tenth
// of it is the estimate. On an island with a reduced deformable body every feasible candidate is
// used: there it is what holds a soft block resting on rigid ground still, and gated, a resting
// StVK block gained a twist of 0.05 J in 60 s (0.01–0.02 J ungated;
// TestStVKBlockDropSettlesFor60s).
const jointPredictSlack = 10

// Row masks of the joint solve: a contact released from the system, one whose normal row alone is
// solved (sliding: its friction held), and one whose normal and tangent rows are solved (sticking).
const (
	jointReleased int8 = 0
	jointNormal   int8 = 1
	jointSticking int8 = 3
)

// jointSolve is the joint sticking solve's workspace: the candidate (α, f), the rows' masks and
// the CG vectors. Its input and output are candidate's arguments; op and v are bound for the
// duration of one call.
type jointSolve struct {
	set    frictionSet
	relTol float64 // Options.ContactTol

	op         *operator
	v          []float64
	cg, maxCG  int       // CG iterations spent, and the most candidate may spend
	alpha, f   []float64 // the candidate (m, 2m)
	r, z, p, q []float64 // 3m: a 3-vector per contact
	u          []float64 // ndof
	mask       []int8
	pre        []jointBlock // m: each free contact's preconditioner, set by solveRows
	ic         delassusIC   // the free rows' factor, once block-Jacobi CG is slow (delassusIC.due)
}

// resize sizes the workspace for op.
func (js *jointSolve) resize(op *operator) {
	m := op.m
	js.alpha = grow(js.alpha, m)
	js.f = grow(js.f, 2*m)
	js.r = grow(js.r, 3*m)
	js.z = grow(js.z, 3*m)
	js.p = grow(js.p, 3*m)
	js.q = grow(js.q, 3*m)
	js.u = grow(js.u, op.ndof)
	js.mask = grow(js.mask, m)
	js.pre = grow(js.pre, m)
}

// candidate builds the joint sticking candidate on op from the iterate (alpha, f), using v as
// scratch (it is left at the candidate's velocity, or overwritten if there is none). If the
// candidate is feasible and, on an island of rigid bodies, the rel_err it predicts
// (predictedRelErr) is at most jointPredictSlack times relErr, the iterate's, it writes it into
// alpha and x and reports true. It builds none when no loaded contact sticks: the candidate
// would then be a contact projection under the held friction, which the loop runs anyway. Nor
// does it when no sticking contact couples its normal row to its tangent rows (rowsCoupled:
// spheres, which roll): the coupling that slows the loop's two-block iteration, and that the
// candidate exists for, is then absent, while its CG on a pile of a thousand spheres cost five
// times the whole loop. Nor when a contact joins two deformable bodies (softPair). It spends at
// most maxCG CG iterations (the work budget), building no candidate if they do not suffice, and
// returns the CG iterations spent.
func (js *jointSolve) candidate(op *operator, alpha, f, x, v []float64, maxCG int, relErr float64) (bool, int) {
	js.op, js.v, js.cg, js.maxCG = op, v, 0, maxCG
	js.ic.invalidate()
	bound := math.Inf(1)
	if op.allRigid {
		bound = jointPredictSlack * relErr
	}
	ok := js.build(alpha, f, x, bound)
	js.op, js.v = nil, nil
	return ok, js.cg
}

// build is candidate's body; bound is the largest predicted rel_err accepted.
func (js *jointSolve) build(alpha, f, x []float64, bound float64) bool {
	op := js.op
	if op.softPair() {
		return false
	}
	ja, jf, mask := js.alpha, js.f, js.mask
	copy(ja, alpha)
	copy(jf, f)
	coupled := false
	for k := 0; k < op.m; k++ {
		mask[k] = jointReleased
		if ja[k] <= 0 || !(op.g[6*k] > 0) {
			continue
		}
		mask[k] = jointNormal
		if js.set.sticks(op.mu[k]*ja[k], jf[2*k], jf[2*k+1]) {
			mask[k] = jointSticking
			coupled = coupled || rowsCoupled(op.g[6*k:6*k+6])
		}
	}
	if !coupled {
		return false
	}
	v := js.v
	op.velocity(ja, jf, v)
	tol := js.relTol * op.scale
	for round := 0; round < jointRounds; round++ {
		if !js.solveRows() {
			return false // the rows are inconsistent or too ill-conditioned: no candidate
		}
		if !js.correctSets(tol) {
			break
		}
	}
	if !js.feasible(tol) || !math.IsInf(bound, 1) && !(js.predictedRelErr() <= bound) {
		return false
	}
	copy(alpha, ja)
	copy(x, jf)
	return true
}

// predictedRelErr bounds the rel_err (eq. 28) of the subsequence that would start from the
// feasible candidate, with js.v at its velocity. The candidate's α is the exact contact projection
// of its friction, so that subsequence's error is the friction projection's distance from the
// candidate's friction f: ‖D(P_F(α) − f)‖²_{M⁻¹} is at most twice the projection objective's
// excess at f, which is at most the dissipation gap Σ_k f_kᵀs_k + μ_kα_k σ_K(−s_k) (frictionSet.
// support), so rel_err ≤ 2·gap/‖Df‖²_{M⁻¹}. Sticking contacts contribute nothing (their slip is
// zero); the gap is the misalignment of the sliding contacts' held friction with their new slip.
// On a pile where spheres and capsules roll over boxes, candidates built after an iterate that met
// ε predicted 50 to 6,000 times its rel_err, and the subsequences that certified them measured 6
// to 800 times it, to be discarded.
func (js *jointSolve) predictedRelErr() float64 {
	op, v, ja, jf, u := js.op, js.v, js.alpha, js.f, js.u
	gap := 0.0
	clear(u)
	for k := 0; k < op.m; k++ {
		s1, s2 := op.slip(k, v)
		gap += jf[2*k]*s1 + jf[2*k+1]*s2 + op.mu[k]*ja[k]*js.set.support(-s1, -s2)
		op.addWT(k, jf[2*k], jf[2*k+1], u)
	}
	kinetic := 0.0
	for k := 0; k < op.m; k++ {
		q1, q2 := op.tangentDot(k, u)
		kinetic += jf[2*k]*q1 + jf[2*k+1]*q2
	}
	switch {
	case gap <= 0:
		return 0 // every contact sticks or slides exactly against its friction
	case !(kinetic > 0):
		return math.Inf(1) // no friction to compare the gap with
	}
	return 2 * gap / kinetic
}

// softPair reports whether a contact of op joins two sides whose blocks are larger than a rigid
// body's six DoFs: two reduced deformable bodies, one's surface samples against the other's
// surface and the other way round. On such islands (soft blocks stacked on soft blocks) the joint
// candidate is not feasible: the two sampled faces give many nearly redundant contacts, and its
// active-set corrections release and re-admit them round after round, while its CG cost a third
// of the solve. A soft block resting alone on rigid bodies still gets one, which holds it still
// where the loop's ε-converged answers let it twist slowly.
func (op *operator) softPair() bool {
	for k := 0; k < op.m; k++ {
		if op.sides[2*k].size > 6 && op.sides[2*k+1].size > 6 {
			return true
		}
	}
	return false
}

// jointCoupling is the squared correlation between a contact's normal row and its tangent rows in
// its own Delassus block, g_n1² + g_n2² ≤ jointCoupling·g_nn·(g_11 + g_22), below which the rows
// count as uncoupled.
const jointCoupling = 1e-8

// rowsCoupled reports whether the Delassus block g = (nn, n1, n2, 11, 12, 22) of a contact couples
// its normal row to its tangent rows: an impulse along the normal moves the contact tangentially.
// A contact whose normal passes through both centres of mass (sphere on sphere or on a plane)
// does not: its normal impulse turns neither body.
func rowsCoupled(g []float64) bool {
	return g[1]*g[1]+g[2]*g[2] > jointCoupling*g[0]*(g[3]+g[5])
}

// correctSets makes the active-set corrections after a solve of the rows and reports whether any
// was needed: the joint system is singular for redundant contacts, so CG returns one particular
// solution; negative impulses are released, friction that left its set slides on the boundary,
// and released contacts that penetrate are re-admitted.
func (js *jointSolve) correctSets(tol float64) bool {
	op, v := js.op, js.v
	ja, jf, mask := js.alpha, js.f, js.mask
	changed := false
	for k := 0; k < op.m; k++ {
		switch {
		case mask[k] == jointReleased:
			if op.g[6*k] > 0 && op.rowDot(k, 0, v)+op.bEff[k] < -tol {
				mask[k] = jointNormal
				changed = true
			}
		case ja[k] < 0:
			op.addW(k, 0, -ja[k], v)
			op.addWT(k, -jf[2*k], -jf[2*k+1], v)
			ja[k], jf[2*k], jf[2*k+1] = 0, 0, 0
			mask[k] = jointReleased
			changed = true
		default:
			rad := op.mu[k] * ja[k]
			if gg := js.set.gauge(jf[2*k], jf[2*k+1]); gg > rad {
				sc := 0.0
				if gg > 0 {
					sc = rad / gg
				}
				n1, n2 := jf[2*k]*sc, jf[2*k+1]*sc
				op.addWT(k, n1-jf[2*k], n2-jf[2*k+1], v)
				jf[2*k], jf[2*k+1] = n1, n2
				if mask[k] == jointSticking {
					mask[k] = jointNormal
				}
				changed = true
			}
		}
	}
	return changed
}

// feasible reports whether the candidate is feasible — α ≥ 0 (to rounding), sticking friction
// inside its set, released contacts not penetrating — clipping α's rounding-level negatives.
func (js *jointSolve) feasible(tol float64) bool {
	op, v := js.op, js.v
	ja, jf, mask := js.alpha, js.f, js.mask
	op.velocity(ja, jf, v)
	for k := 0; k < op.m; k++ {
		if mask[k] == jointReleased {
			if op.rowDot(k, 0, v)+op.bEff[k] < -tol {
				return false
			}
			continue
		}
		if ja[k] < -tol/op.g[6*k] {
			return false
		}
		if ja[k] < 0 {
			ja[k] = 0
		}
		if mask[k] == jointSticking && js.set.gauge(jf[2*k], jf[2*k+1]) > op.mu[k]*ja[k]*(1+jointSlack) {
			return false
		}
	}
	return true
}

// jointBlock is the inverse of one contact's Delassus block on its free rows, as jointPrecond
// applies it: the cofactors and 1/det of the 3×3 block of a sticking contact (kind blockFull), its
// diagonal where that block is singular (blockDiagonal), or the normal diagonal alone for a
// contact whose normal row only is free (blockNormal). Built once per solve of the rows, so that
// CG's iterations only apply it.
type jointBlock struct {
	c00, c01, c02, c11, c12, c22, inv float64
	d0, d1, d2                        float64 // the diagonal
	kind                              int8
}

// Kinds of jointBlock.
const (
	blockNormal int8 = iota
	blockDiagonal
	blockFull
)

// setJointBlock fills b for contact k of op under mask.
func setJointBlock(op *operator, k int, mask int8, b *jointBlock) {
	g := op.g[6*k : 6*k+6]
	a, bb, c := g[0], g[1], g[2]
	d, e, f := g[3], g[4], g[5]
	*b = jointBlock{d0: a, d1: d, d2: f}
	if mask != jointSticking {
		return
	}
	// Symmetric 3×3 [[nn n1 n2] [n1 11 12] [n2 12 22]] by cofactors.
	c00 := d*f - e*e
	c01 := c*e - bb*f
	c02 := bb*e - c*d
	det := a*c00 + bb*c01 + c*c02
	if !(det > 1e-12*a*d*f) {
		b.kind = blockDiagonal
		return
	}
	b.kind = blockFull
	b.c00, b.c01, b.c02 = c00, c01, c02
	b.c11, b.c12, b.c22 = a*f-c*c, bb*c-a*e, a*d-bb*bb
	b.inv = 1 / det
}

// jointPrecond applies the inverse of a contact's Delassus block on its free rows (3×3 for a
// sticking contact, the normal diagonal otherwise), set up by setJointBlock.
func jointPrecond(b *jointBlock, r, z []float64) {
	switch b.kind {
	case blockFull:
		z[0] = (b.c00*r[0] + b.c01*r[1] + b.c02*r[2]) * b.inv
		z[1] = (b.c01*r[0] + b.c11*r[1] + b.c12*r[2]) * b.inv
		z[2] = (b.c02*r[0] + b.c12*r[1] + b.c22*r[2]) * b.inv
	case blockDiagonal:
		z[0], z[1], z[2] = r[0]/b.d0, r[1]/b.d1, r[2]/b.d2
	default:
		z[0], z[1], z[2] = r[0]/b.d0, 0, 0
	}
}

// solveRows runs CG on the free rows of the candidate, keeping v = q̇ᴾ + M⁻¹(N α + D f) at the
// candidate: preconditioned by each contact's block (jointPrecond), and from the point
// delassusIC.due says block scaling is slow, by the incomplete Cholesky factor of the free rows
// (restartIC; on the pile's islands it cut the iterations five- to thirteen-fold). It runs until
// the residual is a tenth of the contact tolerance, the iteration bound, or divergence
// (jointDiverged). It reports whether every free row's residual reached the contact tolerance.
func (js *jointSolve) solveRows() bool {
	op := js.op
	m := op.m
	ja, jf, mask, v := js.alpha, js.f, js.mask, js.v
	free := 0
	for k := 0; k < op.m; k++ {
		if mask[k] != 0 {
			free++
		}
	}
	r, z, p, q, u := js.r, js.z, js.p, js.q, js.u
	tol := js.relTol * op.scale
	rz, rmax := 0.0, 0.0
	for k := 0; k < op.m; k++ {
		if mask[k] == jointReleased {
			continue
		}
		r[3*k] = -(op.rowDot(k, 0, v) + op.bEff[k])
		r[3*k+1], r[3*k+2] = 0, 0
		if mask[k] == jointSticking {
			s1, s2 := op.slip(k, v)
			r[3*k+1], r[3*k+2] = -s1, -s2
		}
		setJointBlock(op, k, mask[k], &js.pre[k])
		jointPrecond(&js.pre[k], r[3*k:3*k+3], z[3*k:3*k+3])
		copy(p[3*k:3*k+3], z[3*k:3*k+3])
		rz += r[3*k]*z[3*k] + r[3*k+1]*z[3*k+1] + r[3*k+2]*z[3*k+2]
		rmax = max(rmax, max(math.Abs(r[3*k]), max(math.Abs(r[3*k+1]), math.Abs(r[3*k+2]))))
	}
	maxIt := 6*free + 50 // three rows per contact: the subspace CGs' bound per row
	diverged := jointDiverged * rmax
	rmax0, best, useIC, triedIC := rmax, rmax, false, false
	for it := 0; it < maxIt && rmax > 0.1*tol && rmax < diverged && js.cg < js.maxCG; it++ {
		best = min(best, rmax)
		if !triedIC && js.ic.due(it, rmax0, best, 0.1*tol) {
			triedIC = true
			if rzIC, ok := js.restartIC(); ok {
				rz, useIC = rzIC, true
			}
		}
		clear(u)
		for k := 0; k < m; k++ {
			if mask[k] == jointReleased {
				continue
			}
			if mask[k] == jointSticking {
				op.addW3(k, p[3*k], p[3*k+1], p[3*k+2], u)
			} else {
				op.addW(k, 0, p[3*k], u)
			}
		}
		pq := 0.0
		for k := 0; k < m; k++ {
			if mask[k] == jointReleased {
				continue
			}
			if mask[k] == jointSticking {
				q[3*k], q[3*k+1], q[3*k+2] = op.rowsDot(k, u)
			} else {
				q[3*k], q[3*k+1], q[3*k+2] = op.rowDot(k, 0, u), 0, 0
			}
			pq += p[3*k]*q[3*k] + p[3*k+1]*q[3*k+1] + p[3*k+2]*q[3*k+2]
		}
		js.cg++
		if !(pq > 0) || !(rz > 0) {
			break
		}
		a := rz / pq
		rzNew := 0.0
		rmax = 0
		for k := 0; k < m; k++ {
			if mask[k] == jointReleased {
				continue
			}
			ja[k] += a * p[3*k]
			jf[2*k] += a * p[3*k+1]
			jf[2*k+1] += a * p[3*k+2]
			for i := 3 * k; i < 3*k+3; i++ {
				r[i] -= a * q[i]
				rmax = max(rmax, math.Abs(r[i]))
			}
			if !useIC {
				jointPrecond(&js.pre[k], r[3*k:3*k+3], z[3*k:3*k+3])
			}
		}
		if useIC {
			js.ic.solve(r, z, 3, 0)
		}
		for k := 0; k < m; k++ {
			if mask[k] != jointReleased {
				rzNew += r[3*k]*z[3*k] + r[3*k+1]*z[3*k+1] + r[3*k+2]*z[3*k+2]
			}
		}
		axpy(a, u, v)
		beta := rzNew / rz
		rz = rzNew
		for k := 0; k < m; k++ {
			if mask[k] == jointReleased {
				continue
			}
			for i := 3 * k; i < 3*k+3; i++ {
				p[i] = z[i] + beta*p[i]
			}
		}
	}
	return rmax <= tol
}

// restartIC factors the free rows of the candidate (the normal row of a contact under
// jointNormal, all three under jointSticking) and restarts the CG of solveRows on that factor
// (delassusIC.startCG). It returns rᵀz and whether the factor is usable.
func (js *jointSolve) restartIC() (float64, bool) {
	op, mask := js.op, js.mask
	js.ic.reset()
	for k := 0; k < op.m; k++ {
		switch mask[k] {
		case jointNormal:
			js.ic.add(k, 0, 1)
		case jointSticking:
			js.ic.add(k, 0, 3)
		}
	}
	if !js.ic.factor(op, &op.blocks, time.Time{}) {
		return 0, false
	}
	// A normal-only contact's tangent entries of z and p are zero from block scaling
	// (jointPrecond), and stay so: the factor has no unknowns there.
	return js.ic.startCG(js.r, js.z, js.p, 3, 0)
}
