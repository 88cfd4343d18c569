package solver

import "math"

// MPRGP for the contact projection: Dostál's modified proportioning with reduced gradient
// projections, a conjugate-gradient method for min ½αᵀAα + cᵀα over α ≥ 0 (here A = NᵀM⁻¹N and
// c = Nᵀ(q̇ᴾ + M⁻¹f) + b, so the gradient is the contact velocity w of eq. 25). Conjugate
// gradient steps run on the current free face while the bound variables' chopped gradient is
// small against the free gradient; a step that would leave the feasible set stops at the first
// bound and is followed by a fixed-length projected-gradient (expansion) step; otherwise a
// proportioning step frees the bound variables that push inwards. Every step lowers the objective,
// so it cannot diverge where the clip-and-resolve loop of PGS-SM can: nearly redundant contacts
// (four corners of a face, perturbed by round-off) with slightly different gap terms make the free
// face's equations w_F = 0 inconsistent, CG then heads along the near-null direction, and MPRGP
// stops that step at the first impulse reaching zero — releasing exactly the contact the LCP
// releases. The method runs in the Jacobi-scaled variables y_k = √A_kk α_k, so the step length
// bound 2/‖Ã‖ is about 2/(contacts per body).

const (
	mprgpGamma      = 1.0 // proportioning threshold Γ
	mprgpPowerIters = 12  // power iterations estimating ‖Ã‖
	mprgpRefresh    = 50  // steps between recomputing the gradient from the velocity
	mprgpBudget     = 30  // matrix products per contact (plus mprgpExtra) before giving up
	mprgpExtra      = 2000
)

// mprgp solves the bound projection from the current α by MPRGP and reports whether the LCP
// holds to its tolerance. It keeps v = q̇ᴾ + M⁻¹(Nα + f).
func (cp *contactProjection) mprgp() bool {
	op, f, tol := cp.op, cp.f, cp.tol
	m := op.m
	alpha, v := cp.alpha, cp.v
	sd, isd := cp.sd, cp.isd
	for k := 0; k < m; k++ {
		if d := op.g[6*k]; d > 0 {
			sd[k] = math.Sqrt(d)
			isd[k] = 1 / sd[k]
		} else {
			sd[k], isd[k] = 0, 0
			alpha[k] = 0
		}
	}
	g, p, q, u := cp.r, cp.p, cp.q, cp.u
	op.velocity(alpha, f, v)
	cp.mprgpGradient(g)
	step := 0.0 // expansion step length ᾱ, estimated when first needed
	budget := mprgpBudget*m + mprgpExtra
	newDir := true
	pq := 0.0
	for it := 0; it < budget; it++ {
		if cp.mprgpError(g) <= 0.5*tol {
			// Confirm with the gradient recomputed from the velocity.
			cp.mprgpGradient(g)
			if cp.lcpError() <= tol {
				return true
			}
			newDir = true
		} else if it%mprgpRefresh == mprgpRefresh-1 {
			cp.mprgpGradient(g)
			newDir = true
		}
		// Proportionality: ‖β‖² ≤ Γ² φ̃ᵀφ.
		beta2, phiRed := 0.0, 0.0
		for k := 0; k < m; k++ {
			if isd[k] == 0 {
				continue
			}
			y := alpha[k] * sd[k]
			if y > 0 {
				phi := g[k]
				red := phi
				if step > 0 {
					red = min(y/step, phi)
				}
				phiRed += red * phi
			} else if g[k] < 0 {
				beta2 += g[k] * g[k]
			}
		}
		if beta2 > mprgpGamma*mprgpGamma*phiRed {
			// Proportioning step along the chopped gradient β (frees bound contacts).
			for k := 0; k < m; k++ {
				p[k] = 0
				if isd[k] != 0 && !(alpha[k] > 0) && g[k] < 0 {
					p[k] = g[k]
				}
			}
			dAd := cp.mprgpProduct(p, q, u)
			if !(dAd > 0) {
				return false
			}
			a := beta2 / dAd // gᵀd = ‖β‖²
			cp.mprgpMove(a, p, q, u, g)
			newDir = true
			continue
		}
		if newDir {
			for k := 0; k < m; k++ {
				p[k] = 0
				if isd[k] != 0 && alpha[k] > 0 {
					p[k] = g[k]
				}
			}
			pq = cp.mprgpProduct(p, q, u)
			newDir = false
		}
		if !(pq > 0) {
			newDir = true
			if phiRed == 0 {
				return cp.lcpError() <= tol
			}
			continue
		}
		gp := 0.0
		for k := 0; k < m; k++ {
			gp += g[k] * p[k]
		}
		acg := gp / pq
		// Largest feasible step along −p.
		af := math.Inf(1)
		for k := 0; k < m; k++ {
			if p[k] > 0 {
				if t := alpha[k] * sd[k] / p[k]; t < af {
					af = t
				}
			}
		}
		if acg <= af {
			// Conjugate gradient step on the face.
			cp.mprgpMove(acg, p, q, u, g)
			num := 0.0
			for k := 0; k < m; k++ {
				if isd[k] != 0 && alpha[k] > 0 {
					num += g[k] * q[k]
				}
			}
			gamma := num / pq
			for k := 0; k < m; k++ {
				phi := 0.0
				if isd[k] != 0 && alpha[k] > 0 {
					phi = g[k]
				}
				p[k] = phi - gamma*p[k]
			}
			pq = cp.mprgpProduct(p, q, u)
			continue
		}
		// Expansion: move to the first bound, then a projected step along the free gradient.
		cp.mprgpMove(af, p, q, u, g)
		if step == 0 {
			step = 1 / cp.mprgpNorm(p, q, u)
		}
		for k := 0; k < m; k++ {
			if isd[k] == 0 {
				continue
			}
			y := alpha[k] * sd[k]
			if !(y > 0) {
				alpha[k] = 0
				continue
			}
			ny := max(y-step*g[k], 0)
			if ny != y {
				op.addW(k, 0, (ny-y)*isd[k], v)
				alpha[k] = ny * isd[k]
			}
		}
		cp.work.CG++
		cp.mprgpGradient(g)
		newDir = true
	}
	op.velocity(alpha, f, v)
	return cp.lcpError() <= tol
}

// mprgpGradient sets g to the scaled gradient w_k/√A_kk at cp.v.
func (cp *contactProjection) mprgpGradient(g []float64) {
	op := cp.op
	for k := 0; k < op.m; k++ {
		if cp.isd[k] == 0 {
			g[k] = 0
			continue
		}
		g[k] = (op.rowDot(k, 0, cp.v) + op.bEff[k]) * cp.isd[k]
	}
}

// mprgpError returns the LCP residual max_k |min(A_kk α_k, w_k)| from the scaled gradient g.
func (cp *contactProjection) mprgpError(g []float64) float64 {
	worst := 0.0
	for k, gk := range g {
		if cp.isd[k] == 0 {
			continue
		}
		w := gk * cp.sd[k]
		e := math.Abs(min(cp.alpha[k]*cp.sd[k]*cp.sd[k], w))
		if !(e <= worst) {
			worst = e
		}
	}
	return worst
}

// mprgpProduct sets q = Ãp and u = M⁻¹N D^{-1/2} p, and returns pᵀÃp.
func (cp *contactProjection) mprgpProduct(p, q, u []float64) float64 {
	op := cp.op
	clear(u)
	for k := 0; k < op.m; k++ {
		if p[k] != 0 {
			op.addW(k, 0, p[k]*cp.isd[k], u)
		}
	}
	pq := 0.0
	for k := 0; k < op.m; k++ {
		q[k] = 0
		if cp.isd[k] != 0 {
			q[k] = op.rowDot(k, 0, u) * cp.isd[k]
		}
		pq += p[k] * q[k]
	}
	cp.work.CG++
	return pq
}

// mprgpMove takes the step y ← y − a p, with q = Ãp and u the matching velocity change, keeping
// cp.v and g; impulses that land within rounding of zero are set to zero.
func (cp *contactProjection) mprgpMove(a float64, p, q, u, g []float64) {
	for k := range p {
		if p[k] == 0 {
			continue
		}
		y := cp.alpha[k]*cp.sd[k] - a*p[k]
		if y <= 1e-15*a*math.Abs(p[k]) {
			y = 0
		}
		cp.alpha[k] = y * cp.isd[k]
		g[k] -= a * q[k]
	}
	axpy(-a, u, cp.v)
}

// mprgpNorm estimates ‖Ã‖ by power iteration (a lower bound that is within a few per cent after
// mprgpPowerIters products on these matrices), using p, q and u as scratch.
func (cp *contactProjection) mprgpNorm(p, q, u []float64) float64 {
	m := cp.op.m
	for k := 0; k < m; k++ {
		p[k] = 0
		if cp.isd[k] != 0 {
			p[k] = 1
		}
	}
	lam := 1.0
	for it := 0; it < mprgpPowerIters; it++ {
		nrm := math.Sqrt(dot(p[:m], p[:m]))
		if !(nrm > 0) {
			break
		}
		for k := 0; k < m; k++ {
			p[k] /= nrm
		}
		cp.mprgpProduct(p, q, u)
		lam = max(lam, math.Sqrt(dot(q[:m], q[:m])))
		copy(p[:m], q[:m])
	}
	return lam
}
