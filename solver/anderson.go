package solver

import "math"

// Anderson acceleration (type II, Walker & Ni 2011) of the staggered fixed-point map
// G(x) = P_F(α(x)) with α(x) from P_C(x) (paper eq. 26/27). The prototype found (docs/architecture.md) that mixing
// must be measured on the body-space friction impulse M⁻¹Df in the kinetic metric of eq. 28, not on
// the per-contact vectors (whose split across a contact patch is not unique). The mixed iterate is
// the same linear combination of per-contact friction vectors, so its body-space image is the
// mixed body-space impulse. A step whose residual grew over the previous one discards the history
// and falls back to the plain staggered step.

// anderson is the accelerator's workspace: the history of map outputs and residuals, and the
// normal equations of the mixing.
type anderson struct {
	depth, m2, ndof int
	count, head     int
	dg              []float64 // depth × 2m: Δ of map outputs g
	drp, dru        []float64 // depth × ndof: Δ of residual impulse D r and velocity M⁻¹D r
	gPrev           []float64 // 2m
	rpPrev, ruPrev  []float64 // ndof
	rp, ru          []float64 // ndof, current residual
	xp, xu          []float64 // ndof: the input's impulse Dx and velocity M⁻¹Dx (residualNorms)
	prevNorm        float64
	gram, rhs, gam  []float64
	y               []float64
	perm            []int
}

// reset empties the history for a map on 2m = m2 friction entries and ndof velocities, at depth
// (≤ 0: no mixing).
func (a *anderson) reset(depth, m2, ndof int) {
	a.depth, a.m2, a.ndof = depth, m2, ndof
	a.count, a.head = 0, 0
	a.prevNorm = -1
	a.rp = grow(a.rp, ndof)
	a.ru = grow(a.ru, ndof)
	a.xp = grow(a.xp, ndof)
	a.xu = grow(a.xu, ndof)
	if depth <= 0 {
		return
	}
	a.dg = grow(a.dg, depth*m2)
	a.drp = grow(a.drp, depth*ndof)
	a.dru = grow(a.dru, depth*ndof)
	a.gPrev = grow(a.gPrev, m2)
	a.rpPrev = grow(a.rpPrev, ndof)
	a.ruPrev = grow(a.ruPrev, ndof)
	a.gram = grow(a.gram, depth*depth)
	a.rhs = grow(a.rhs, depth)
	a.gam = grow(a.gam, depth)
	a.y = grow(a.y, depth)
	a.perm = grow(a.perm, depth)
}

// residualNorms computes, for the map's input x and output g on op, r = g − x in body space:
// a.rp = D r (impulse), a.ru = M⁻¹D r (velocity), the kinetic norms ‖D r‖²_{M⁻¹} and
// ‖D x‖²_{M⁻¹} of eq. 28, and max|M⁻¹D r|, the largest velocity change the update causes. next
// mixes with the residual left in a.rp and a.ru.
func (a *anderson) residualNorms(op *operator, x, g []float64) (rr, xx, rmax float64) {
	rp, ru := a.rp, a.ru
	clear(rp)
	clear(ru)
	clear(a.xu)
	clear(a.xp)
	for k := 0; k < op.m; k++ {
		d1, d2 := g[2*k]-x[2*k], g[2*k+1]-x[2*k+1]
		op.addJT(k, d1, d2, rp)
		op.addWT(k, d1, d2, ru)
		op.addJT(k, x[2*k], x[2*k+1], a.xp)
		op.addWT(k, x[2*k], x[2*k+1], a.xu)
	}
	for _, x := range ru {
		rmax = max(rmax, math.Abs(x))
	}
	return dot(rp, ru), dot(a.xp, a.xu), rmax
}

// next writes the next iterate into x given the map output g = G(x) and the residual already in
// a.rp/a.ru with kinetic norm² rr. It reports whether the safeguard reset the history.
func (a *anderson) next(x, g []float64, rr float64) (reset bool) {
	if a.depth <= 0 {
		copy(x, g)
		return false
	}
	if a.prevNorm >= 0 && rr > a.prevNorm {
		// Residual grew: drop the history and take the plain step.
		a.count, a.head = 0, 0
		reset = true
	} else if a.prevNorm >= 0 {
		// Push Δg, Δr.
		h := a.head
		dg := a.dg[h*a.m2 : (h+1)*a.m2]
		for i := range dg {
			dg[i] = g[i] - a.gPrev[i]
		}
		drp := a.drp[h*a.ndof : (h+1)*a.ndof]
		dru := a.dru[h*a.ndof : (h+1)*a.ndof]
		for i := range drp {
			drp[i] = a.rp[i] - a.rpPrev[i]
			dru[i] = a.ru[i] - a.ruPrev[i]
		}
		a.head = (a.head + 1) % a.depth
		if a.count < a.depth {
			a.count++
		}
	}
	copy(a.gPrev, g)
	copy(a.rpPrev, a.rp)
	copy(a.ruPrev, a.ru)
	a.prevNorm = rr
	copy(x, g)
	n := a.count
	if n == 0 {
		return reset
	}
	// Normal equations of min_γ ‖r − ΔR γ‖ in the kinetic metric.
	tr := 0.0
	for i := 0; i < n; i++ {
		pi := a.drp[i*a.ndof : (i+1)*a.ndof]
		for j := i; j < n; j++ {
			uj := a.dru[j*a.ndof : (j+1)*a.ndof]
			v := dot(pi, uj)
			a.gram[i*n+j], a.gram[j*n+i] = v, v
		}
		tr += a.gram[i*n+i]
		a.rhs[i] = dot(pi, a.ru)
	}
	if !(tr > 0) {
		return reset
	}
	for i := 0; i < n; i++ {
		a.gram[i*n+i] += 1e-10 * tr
	}
	psdSolve(a.gram[:n*n], n, a.rhs[:n], a.gam[:n], a.perm[:n], a.y[:n], 1e-14)
	for i := 0; i < n; i++ {
		gi := a.gam[i]
		if !isFinite(gi) {
			copy(x, g)
			a.count, a.head = 0, 0
			return true
		}
		axpy(-gi, a.dg[i*a.m2:(i+1)*a.m2], x)
	}
	return reset
}
