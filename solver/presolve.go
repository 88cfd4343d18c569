package solver

// The presolve brings a poor warm start near the staggered map's fixed point before the loop
// starts. On a flowing pile (a thousand spheres, about 2,900 contacts at μ 0.8) last step's answer
// is far from this step's, and the staggered loop contracts slowly there: rel_err (eq. 28) falls
// to 10⁻³ in about 17 subsequences and then by about 3 % a subsequence, so the loop ran 30–50
// subsequences a step, each a contact and a friction projection over the whole island. The
// normal and friction impulses move together there, and the staggered loop moves them in turn.
//
// Projected Gauss–Seidel on the coupled problem moves them together, one contact at a time: each
// contact's normal impulse is projected onto α_k ≥ 0 and then its friction onto its set of radius
// μ_kα_k, both exactly for that contact with the others held. A fixed point of these sweeps is a
// fixed point of the staggered map: per contact, the normal update's fixed point is the contact
// LCP's complementarity (eq. 25) and the friction update's the maximal dissipation conditions of
// the friction projection (eq. 24). A sweep costs a fiftieth to a hundredth of a subsequence, so
// a few hundred of them cost what a few subsequences do and leave the loop within its stopping
// test after one or two. The loop that follows is Algorithm 1 unchanged, from the presolved f⁰
// and α⁰: its stopping test, its final contact projection and every policy around it decide the
// answer, which is as exact as from any other warm start.

// presolveTol is the presolve's stopping test: a sweep whose change, in each contact's own block
// of the Delassus metric, Σ_k Δλ_kᵀ A_kk Δλ_k, is at most presolveTol times the impulses'
// Σ_k λ_kᵀ A_kk λ_k (λ_k = (α_k, f_k)). A warm start that its first sweep moves by less is kept
// as it was, so resting islands solve exactly as without a presolve: their first sweeps measure
// 10⁻⁸–10⁻⁷, a flowing pile's 10⁻³–10⁻². On islands captured from the sphere, pile and impact
// scenes and replayed, 2·10⁻⁶ did the least work of 10⁻⁶, 2·10⁻⁶ and 5·10⁻⁶ (docs/architecture.md,
// Presolve).
const presolveTol = 2e-6

// presolve runs at most Options.Presolve coupled Gauss–Seidel sweeps on the solve's iterate
// (s.alpha, s.f) from the warm start, on islands of more than newtonLimit contacts, until a sweep
// meets presolveTol. If the first sweep already meets it the warm start is restored untouched.
// Smaller islands are left alone: their projections are dense Newton steps, cheap enough that
// the sweeps would not pay. It counts its sweeps in Stats.PresolveSweeps, which the work budget
// counts like any other pass over the island.
func (s *Solver) presolve() {
	op := &s.op
	s.presolved = false
	if s.opts.Presolve <= 0 || op.m <= newtonLimit {
		return
	}
	copy(s.alphaStart, s.alpha)
	copy(s.fStart, s.f)
	op.velocity(s.alpha, s.f, s.v)
	for sweep := 1; sweep <= s.opts.Presolve; sweep++ {
		change, size := s.coupledSweep()
		s.st.PresolveSweeps++
		if change <= presolveTol*size || !isFinite(change) {
			if sweep == 1 || !isFinite(change) {
				copy(s.alpha, s.alphaStart)
				copy(s.f, s.fStart)
				return
			}
			break
		}
		if s.workSpent() {
			break
		}
	}
	s.presolved = true
	s.warmAlpha = false
	for _, a := range s.alpha {
		if a > 0 {
			s.warmAlpha = true
			break
		}
	}
}

// coupledSweep updates each contact in turn, keeping s.v = q̇ᴾ + M⁻¹(Nα + Df): its normal
// impulse α_k to max(0, α_k − w_k/A_nn), then its friction f_k to the exact minimiser of the
// kinetic energy over its set of radius μ_kα_k with the other contacts held (the friction
// projection's per-contact sub-problem at the updated α_k). It returns the sweep's change and the
// impulses' size, both in the contacts' diagonal Delassus blocks (presolveTol).
func (s *Solver) coupledSweep() (change, size float64) {
	op, v := &s.op, s.v
	alpha, f := s.alpha, s.f
	for k := 0; k < op.m; k++ {
		g := op.g[6*k : 6*k+6]
		wn, s1, s2 := op.rowsDot(k, v)
		da := 0.0
		if g[0] > 0 {
			a := max(0, alpha[k]-(wn+op.bEff[k])/g[0])
			da = a - alpha[k]
			alpha[k] = a
		}
		f1, f2 := f[2*k], f[2*k+1]
		d1, d2 := -f1, -f2 // without load, no friction
		if rad := op.mu[k] * alpha[k]; rad > 0 {
			a, b, c := g[3], g[4], g[5]
			// The slip after the normal update: its change is the coupling block A_tn·Δα.
			l1 := s1 + op.bT[2*k] + g[1]*da - (a*f1 + b*f2)
			l2 := s2 + op.bT[2*k+1] + g[2]*da - (b*f1 + c*f2)
			var y1, y2 float64
			inside := false
			if s.set.model == Disc {
				y1, y2, inside = stickingMinimizer(a, b, c, l1, l2, rad)
			}
			if !inside {
				y1, y2 = s.friction.minimize(k, a, b, c, l1, l2, rad)
			}
			d1, d2 = y1-f1, y2-f2
		}
		if da != 0 || d1 != 0 || d2 != 0 {
			op.addW3(k, da, d1, d2, v)
			f[2*k], f[2*k+1] = f1+d1, f2+d2
		}
		change += blockNorm(g, da, d1, d2)
		size += blockNorm(g, alpha[k], f[2*k], f[2*k+1])
	}
	return change, size
}

// stickingMinimizer returns the unconstrained minimiser −G⁻¹l of ½yᵀGy + lᵀy, G = [[a b] [b c]],
// and whether it lies inside the disc of radius r by at least a part in 10⁶, without a square
// root: most of a pile's contacts stick, and the exact per-contact solve
// (frictionProjection.minimize) takes two. A contact it leaves undecided (on or near the rim, or
// an ill-conditioned G) goes to the exact solve.
func stickingMinimizer(a, b, c, l1, l2, r float64) (y1, y2 float64, inside bool) {
	det, tr := a*c-b*b, a+c
	if !(det > 1e-14*tr*tr) {
		return 0, 0, false
	}
	y1, y2 = (b*l2-c*l1)/det, (b*l1-a*l2)/det
	return y1, y2, y1*y1+y2*y2 <= r*r*(1-1e-6)
}

// blockNorm is xᵀA_kk x for a contact's 3×3 diagonal Delassus block g (nn, n1, n2, 11, 12, 22).
func blockNorm(g []float64, x0, x1, x2 float64) float64 {
	return g[0]*x0*x0 + g[3]*x1*x1 + g[5]*x2*x2 + 2*(g[1]*x0*x1+g[2]*x0*x2+g[4]*x1*x2)
}
