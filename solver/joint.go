package solver

import (
	"math"
	"time"
)

// Joint sticking solve: a candidate fixed point for the staggered loop (DESIGN.md, third round).
// When every loaded contact sticks, the fixed point of eq. 26 solves one linear system: the normal
// and both tangential rows of the sticking contacts, and the normal rows of the sliding ones (their
// friction held), all with zero relative velocity. The staggered loop approaches it as a two-block
// Gauss–Seidel iteration between normal and tangential rows, which converges slowly when rotation
// couples them strongly (tall stacks, leaning cards). Solving the rows jointly by block-
// preconditioned CG jumps there in one solve. The candidate is used only if CG reached the
// tolerance and it is feasible — α ≥ 0, each sticking friction inside its set, no released contact
// penetrating — and it then merely restarts the staggered loop, whose own projections and stopping
// test certify it. solveSP tries it after a first subsequence that missed ε, and after an iterate
// that met ε without being exact (kept only if the next subsequence measures it no worse); Solve
// discards an answer reached through it whose friction does positive work.

// jointRounds bounds the active-set corrections of the joint sticking solve.
const jointRounds = 16

// sticks reports whether friction impulse (f1, f2) lies strictly inside contact k's set for the
// current α, by a relative margin of 1e-6: the contact sticks rather than slides on the rim.
func (s *Solver) sticks(k int, f1, f2 float64) bool {
	rad := s.op.mu[k] * s.alpha[k]
	return rad > 0 && s.gauge(f1, f2) < rad*(1-1e-6)
}

// jointStick builds the candidate from the current (s.alpha, f) and, if it is feasible, writes it
// into s.alpha and x and reports true. It builds none when no loaded contact sticks: the candidate
// would then be a contact projection under the held friction, which the loop runs anyway.
func (s *Solver) jointStick(f, x []float64) bool {
	op := &s.op
	m := op.m
	ja, jf, mask := s.ja, s.jf, s.jmask
	copy(ja, s.alpha)
	copy(jf, f)
	sticking := 0
	for k := 0; k < m; k++ {
		mask[k] = 0
		if ja[k] <= 0 || !(op.g[6*k] > 0) {
			continue
		}
		mask[k] = 1
		if s.sticks(k, jf[2*k], jf[2*k+1]) {
			mask[k] = 3
			sticking++
		}
	}
	if sticking == 0 {
		return false
	}
	v := s.v
	op.velocity(ja, jf, v)
	tol := s.opts.ContactTol * s.scale
	for round := 0; round < jointRounds; round++ {
		if !s.jointCG() {
			return false // the rows are inconsistent or too ill-conditioned: no candidate
		}
		// Active-set corrections: the joint system is singular for redundant contacts, so CG
		// returns one particular solution; release negative impulses, let friction that left its
		// set slide on the boundary, re-admit released contacts that penetrate, and re-solve.
		changed := false
		for k := 0; k < m; k++ {
			switch {
			case mask[k] == 0:
				if op.g[6*k] > 0 && op.rowDot(k, 0, v)+op.bEff[k] < -tol {
					mask[k] = 1
					changed = true
				}
			case ja[k] < 0:
				op.addW(k, 0, -ja[k], v)
				op.addWT(k, -jf[2*k], -jf[2*k+1], v)
				ja[k], jf[2*k], jf[2*k+1] = 0, 0, 0
				mask[k] = 0
				changed = true
			default:
				rad := op.mu[k] * ja[k]
				if gg := s.gauge(jf[2*k], jf[2*k+1]); gg > rad {
					sc := 0.0
					if gg > 0 {
						sc = rad / gg
					}
					n1, n2 := jf[2*k]*sc, jf[2*k+1]*sc
					op.addWT(k, n1-jf[2*k], n2-jf[2*k+1], v)
					jf[2*k], jf[2*k+1] = n1, n2
					if mask[k] == 3 {
						mask[k] = 1
					}
					changed = true
				}
			}
		}
		if !changed {
			break
		}
	}
	// Feasibility: α ≥ 0 (to rounding), sticking friction inside its set, released contacts not
	// penetrating.
	op.velocity(ja, jf, v)
	for k := 0; k < m; k++ {
		if mask[k] == 0 {
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
		if mask[k] == 3 && s.gauge(jf[2*k], jf[2*k+1]) > op.mu[k]*ja[k]*(1+1e-9) {
			return false
		}
	}
	copy(s.alpha, ja)
	copy(x, jf)
	return true
}

// retryWithoutJoint solves again from p's warm start with the joint sticking solve off, after a
// candidate led the loop to an answer whose friction does positive work. The retry gets what is
// left of MaxIters and the same deadline; the statistics count both attempts.
func (s *Solver) retryWithoutJoint(p *Problem, start time.Time) {
	first := s.st
	s.warmStart(p)
	s.st = Stats{Method: s.opts.Method, Contacts: s.op.m, Scale: s.scale}
	maxIters := s.opts.MaxIters
	s.opts.MaxIters = maxIters - first.Iterations
	s.noJoint = true
	s.solveSP(p, start)
	s.noJoint = false
	s.opts.MaxIters = maxIters
	s.st.Iterations += first.Iterations
	s.st.ContactSweeps += first.ContactSweeps
	s.st.ContactCG += first.ContactCG
	s.st.ContactPivots += first.ContactPivots
	s.st.FrictionSweeps += first.FrictionSweeps
	s.st.FrictionCG += first.FrictionCG
	s.st.JointCG += first.JointCG
	s.st.Fallbacks += first.Fallbacks
	s.st.AndersonResets += first.AndersonResets
}

// frictionDoesWork reports whether, at the current answer (s.alpha, s.f), friction pushes along
// its contacts' slip by more than the friction tolerance: Σ_k max(0, f_kᵀD_kᵀq̇) > FrictionTol·
// scale·Σ_k ‖f_k‖. At a fixed point of eq. 26 each term is ≤ 0 (maximal dissipation).
func (s *Solver) frictionDoesWork() bool {
	op := &s.op
	op.velocity(s.alpha, s.f, s.v)
	pos, mag := 0.0, 0.0
	for k := 0; k < op.m; k++ {
		f1, f2 := s.f[2*k], s.f[2*k+1]
		if f1 == 0 && f2 == 0 {
			continue
		}
		u1, u2 := op.tangentDot(k, s.v)
		pos += max(0, f1*u1+f2*u2)
		mag += math.Hypot(f1, f2)
	}
	return pos > s.opts.FrictionTol*s.scale*mag
}

// jointPrecond applies the inverse of contact k's Delassus block on its free rows (3×3 for a
// sticking contact, the normal diagonal otherwise).
func (s *Solver) jointPrecond(k int, mask int8, r, z []float64) {
	g := s.op.g[6*k : 6*k+6]
	if mask != 3 {
		z[0], z[1], z[2] = r[0]/g[0], 0, 0
		return
	}
	// Symmetric 3×3 [[nn n1 n2] [n1 11 12] [n2 12 22]] by cofactors.
	a, b, c := g[0], g[1], g[2]
	d, e, f := g[3], g[4], g[5]
	c00 := d*f - e*e
	c01 := c*e - b*f
	c02 := b*e - c*d
	det := a*c00 + b*c01 + c*c02
	if !(det > 1e-12*a*d*f) {
		z[0], z[1], z[2] = r[0]/a, r[1]/d, r[2]/f
		return
	}
	c11 := a*f - c*c
	c12 := b*c - a*e
	c22 := a*d - b*b
	inv := 1 / det
	z[0] = (c00*r[0] + c01*r[1] + c02*r[2]) * inv
	z[1] = (c01*r[0] + c11*r[1] + c12*r[2]) * inv
	z[2] = (c02*r[0] + c12*r[1] + c22*r[2]) * inv
}

// jointCG runs block-preconditioned CG on the free rows of the joint candidate (s.ja, s.jf),
// keeping s.v = q̇ᴾ + M⁻¹(N ja + D jf). It reports whether every free row's residual reached the
// contact tolerance.
func (s *Solver) jointCG() bool {
	op := &s.op
	m := op.m
	ja, jf, mask, v := s.ja, s.jf, s.jmask, s.v
	free := 0
	for k := 0; k < m; k++ {
		if mask[k] != 0 {
			free++
		}
	}
	r, z, p, q, u := s.jr, s.jz, s.jp, s.jq, s.u
	tol := s.opts.ContactTol * s.scale
	rz, rmax := 0.0, 0.0
	for k := 0; k < m; k++ {
		if mask[k] == 0 {
			continue
		}
		r[3*k] = -(op.rowDot(k, 0, v) + op.bEff[k])
		r[3*k+1], r[3*k+2] = 0, 0
		if mask[k] == 3 {
			s1, s2 := op.tangentDot(k, v)
			r[3*k+1], r[3*k+2] = -s1, -s2
		}
		s.jointPrecond(k, mask[k], r[3*k:3*k+3], z[3*k:3*k+3])
		copy(p[3*k:3*k+3], z[3*k:3*k+3])
		rz += r[3*k]*z[3*k] + r[3*k+1]*z[3*k+1] + r[3*k+2]*z[3*k+2]
		rmax = max(rmax, max(math.Abs(r[3*k]), max(math.Abs(r[3*k+1]), math.Abs(r[3*k+2]))))
	}
	maxIt := 6*free + 50
	for it := 0; it < maxIt && rmax > 0.1*tol; it++ {
		clear(u)
		for k := 0; k < m; k++ {
			if mask[k] == 0 {
				continue
			}
			op.addW(k, 0, p[3*k], u)
			if mask[k] == 3 {
				op.addWT(k, p[3*k+1], p[3*k+2], u)
			}
		}
		pq := 0.0
		for k := 0; k < m; k++ {
			if mask[k] == 0 {
				continue
			}
			q[3*k] = op.rowDot(k, 0, u)
			q[3*k+1], q[3*k+2] = 0, 0
			if mask[k] == 3 {
				q[3*k+1], q[3*k+2] = op.tangentDot(k, u)
			}
			pq += p[3*k]*q[3*k] + p[3*k+1]*q[3*k+1] + p[3*k+2]*q[3*k+2]
		}
		s.st.JointCG++
		if !(pq > 0) || !(rz > 0) {
			break
		}
		a := rz / pq
		rzNew := 0.0
		rmax = 0
		for k := 0; k < m; k++ {
			if mask[k] == 0 {
				continue
			}
			ja[k] += a * p[3*k]
			jf[2*k] += a * p[3*k+1]
			jf[2*k+1] += a * p[3*k+2]
			for i := 3 * k; i < 3*k+3; i++ {
				r[i] -= a * q[i]
				rmax = max(rmax, math.Abs(r[i]))
			}
			s.jointPrecond(k, mask[k], r[3*k:3*k+3], z[3*k:3*k+3])
			rzNew += r[3*k]*z[3*k] + r[3*k+1]*z[3*k+1] + r[3*k+2]*z[3*k+2]
		}
		axpy(a, u, v)
		beta := rzNew / rz
		rz = rzNew
		for k := 0; k < m; k++ {
			if mask[k] == 0 {
				continue
			}
			for i := 3 * k; i < 3*k+3; i++ {
				p[i] = z[i] + beta*p[i]
			}
		}
	}
	return rmax <= tol
}
