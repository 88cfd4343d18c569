package solver

import (
	"math"
	"time"
)

// Friction projection P_F(α) (paper eq. 24, DESIGN.md): given α, find the friction impulse
//
//	f = argmin_{f_k ∈ μ_kα_k K} ½‖q̇ᴾ + M⁻¹(Nα + Σ_k t-rows f_k)‖²_M,
//
// where K is the unit disc (Disc) or the regular d-gon spanned by the pyramid's tangent samples
// (Pyramid, eq. 7/23: {Σ_j β_j u_j : β ≥ 0, Σβ ≤ 1} for unit samples u_j at angles 2πj/d). Its KKT
// conditions are the discrete maximal dissipation principle (eq. 18): each f_k minimises s_kᵀy over
// μ_kα_kK, s_k being contact k's tangential velocity. The sub-solver is block Gauss–Seidel over
// contacts; each contact's 2-D sub-problem min ½yᵀG_k y + gᵀy over its disc or polygon is solved
// exactly (a 2-D trust-region problem, or an edge search).

// frictionRounds bounds the sweep/subspace rounds of one friction projection, and
// frictionCGBudget its CG iterations per contact (plus 2,000).
const (
	frictionRounds   = 200
	frictionCGBudget = 20
)

// projectFriction solves P_F(s.alpha) into f (warm-started from f), stopping when a block
// Gauss–Seidel sweep changes no contact's tangential velocity by more than tol, after maxSweeps
// sweeps, or at the deadline (zero: none). Like PGS-SM for the contact projection, sweeps alternate
// with a subspace solve: the contacts strictly inside their friction set (sticking) are solved
// jointly by block-Jacobi-preconditioned CG with the others held, then clipped back into their
// sets. On return s.v = q̇ᴾ + M⁻¹(Nα + f). It returns the sweeps done and whether the deadline
// stopped it before tol was met.
func (s *Solver) projectFriction(f []float64, tol float64, maxSweeps int, deadline time.Time) (sweeps int, cut bool) {
	op := &s.op
	op.velocity(s.alpha, f, s.v)
	s.fdeadline = deadline
	cgStart := s.st.FrictionCG
	subspace := true
	for round := 0; sweeps < maxSweeps; round++ {
		n := 2
		switch {
		case round == 0:
			n = 1
		case !subspace || round >= frictionRounds || s.st.FrictionCG-cgStart >= frictionCGBudget*op.m+2000:
			subspace = false
			n = maxSweeps
		}
		worst := 0.0
		for i := 0; i < n && sweeps < maxSweeps; i++ {
			sweeps++
			worst = s.frictionSweep(f, tol)
			if worst <= tol {
				return sweeps, false
			}
			if !deadline.IsZero() && time.Now().After(deadline) {
				return sweeps, true
			}
		}
		if subspace && !s.frictionSubspaceStep(f, tol) {
			subspace = false
		}
	}
	return sweeps, false
}

// frictionSubspaceStep runs frictionSubspace and frictionClip, and keeps the result only if it
// lowered the projection's objective ½‖q̇‖²_M. On nearly redundant sticking contacts the subspace
// system is nearly singular, CG may head far along its near-null direction, and clipping the result
// back into the sets can then land above where the sweeps were; such a step is undone, and it
// reports false so that the projection goes on with sweeps alone.
func (s *Solver) frictionSubspaceStep(f []float64, tol float64) bool {
	op := &s.op
	copy(s.fSave, f)
	copy(s.vSave, s.v)
	for k := 0; k < op.m; k++ {
		s.tSave[2*k], s.tSave[2*k+1] = op.tangentDot(k, s.v)
	}
	if !s.frictionSubspace(f, tol) {
		return true
	}
	s.frictionClip(f)
	// The objective is quadratic in f with gradient the tangential velocities, so its change is
	// ½ Δfᵀ(s_old + s_new) exactly.
	change := 0.0
	for k := 0; k < op.m; k++ {
		n1, n2 := op.tangentDot(k, s.v)
		change += (f[2*k]-s.fSave[2*k])*(s.tSave[2*k]+n1) + (f[2*k+1]-s.fSave[2*k+1])*(s.tSave[2*k+1]+n2)
	}
	if change <= 0 {
		return true
	}
	copy(f, s.fSave)
	copy(s.v, s.vSave)
	return false
}

// frictionSweep is one block Gauss–Seidel sweep with the exact per-contact sub-problem. It returns
// the largest change of a contact's own tangential velocity, ‖G_k Δf_k‖∞.
func (s *Solver) frictionSweep(f []float64, tol float64) float64 {
	worst := 0.0
	for k := 0; k < s.op.m; k++ {
		if dv := s.frictionUpdate(k, f, tol); dv > worst {
			worst = dv
		}
	}
	return worst
}

// frictionUpdate solves contact k's friction sub-problem exactly with the other contacts held,
// keeping s.v consistent, and returns the largest change of its tangential velocity (0 when the
// update is at rounding level, relative to tol, and skipped so that f stays bit-stable).
func (s *Solver) frictionUpdate(k int, f []float64, tol float64) float64 {
	op := &s.op
	v := s.v
	rad := op.mu[k] * s.alpha[k]
	f1, f2 := f[2*k], f[2*k+1]
	if !(rad > 0) {
		if f1 != 0 || f2 != 0 {
			op.addWT(k, -f1, -f2, v)
			f[2*k], f[2*k+1] = 0, 0
		}
		return 0
	}
	g := op.g[6*k : 6*k+6]
	a, b, c := g[3], g[4], g[5]
	s1, s2 := op.tangentDot(k, v)
	l1 := s1 - (a*f1 + b*f2)
	l2 := s2 - (b*f1 + c*f2)
	var y1, y2 float64
	if s.opts.Friction == Disc {
		y1, y2 = discQP(a, b, c, l1, l2, rad)
	} else {
		y1, y2 = s.polygonQP(a, b, c, l1, l2, rad)
	}
	d1, d2 := y1-f1, y2-f2
	dv := max(math.Abs(a*d1+b*d2), math.Abs(b*d1+c*d2))
	if dv <= 1e-3*tol {
		return 0 // a rounding-level update: keep f bit-stable at a solution
	}
	op.addWT(k, d1, d2, v)
	f[2*k], f[2*k+1] = y1, y2
	return dv
}

// gauge returns the friction set's gauge of (f1, f2): ‖f‖ for the disc, the polygon's gauge
// (the circumradius of the smallest d-gon containing f) for the pyramid.
func (s *Solver) gauge(f1, f2 float64) float64 {
	if s.opts.Friction == Disc {
		return math.Hypot(f1, f2)
	}
	d := len(s.cosT)
	half := math.Pi / float64(d)
	ch, sh := math.Cos(half), math.Sin(half)
	g := 0.0
	for j := 0; j < d; j++ {
		nx := s.cosT[j]*ch - s.sinT[j]*sh
		ny := s.sinT[j]*ch + s.cosT[j]*sh
		g = max(g, nx*f1+ny*f2)
	}
	return g / ch
}

// frictionSubspace runs preconditioned CG on the sticking contacts (strictly inside their sets),
// minimising the kinetic energy over their tangential impulses with the other contacts held. It
// reports whether any contact was free. The preconditioner is the contacts' 2×2 blocks for the
// first icAfter iterations, then the incomplete Cholesky factor of their tangent rows.
func (s *Solver) frictionSubspace(f []float64, tol float64) bool {
	op := &s.op
	act := s.active[:0]
	for k := 0; k < op.m; k++ {
		rad := op.mu[k] * s.alpha[k]
		if rad > 0 && s.gauge(f[2*k], f[2*k+1]) < rad*(1-1e-9) {
			act = append(act, k)
		}
	}
	if len(act) == 0 {
		return false
	}
	// 2-vectors per contact in the contact-sized scratch pairs (r,z,p,q reuse s.x-sized buffers).
	r, z, p, q, u := s.fr, s.fz, s.fp, s.fq, s.u
	rz, rmax := 0.0, 0.0
	for _, k := range act {
		s1, s2 := op.tangentDot(k, s.v)
		r[2*k], r[2*k+1] = -s1, -s2
		z1, z2 := s.precond(k, -s1, -s2)
		z[2*k], z[2*k+1] = z1, z2
		p[2*k], p[2*k+1] = z1, z2
		rz += -s1*z1 - s2*z2
		rmax = max(rmax, max(math.Abs(s1), math.Abs(s2)))
	}
	maxIt := 4*len(act) + 50
	target := 0.1 * tol
	useIC, triedIC := false, false
	ic := &s.icFriction
	rmax0, best := rmax, rmax
	for it := 0; it < maxIt && rmax > target; it++ {
		best = min(best, rmax)
		if !triedIC && ic.due(it, rmax0, best, target) {
			triedIC = true
			// Block-Jacobi scaling is converging slowly: restart from here preconditioned by
			// the incomplete Cholesky factor of the sticking contacts' tangent rows (unless the
			// deadline has passed: factoring is the CG's largest single step).
			if !s.fdeadline.IsZero() && time.Now().After(s.fdeadline) {
				break
			}
			if rzIC, ok := ic.restart(op, &s.coupling, act, 1, 3, r, z, p, s.fdeadline); ok {
				rz, useIC = rzIC, true
			}
		}
		clear(u)
		for _, k := range act {
			op.addWT(k, p[2*k], p[2*k+1], u)
		}
		pq := 0.0
		for _, k := range act {
			q1, q2 := op.tangentDot(k, u)
			q[2*k], q[2*k+1] = q1, q2
			pq += p[2*k]*q1 + p[2*k+1]*q2
		}
		s.st.FrictionCG++
		if !(pq > 0) || !(rz > 0) {
			break
		}
		if !s.fdeadline.IsZero() && time.Now().After(s.fdeadline) {
			break
		}
		a := rz / pq
		rmax = 0
		for _, k := range act {
			f[2*k] += a * p[2*k]
			f[2*k+1] += a * p[2*k+1]
			r[2*k] -= a * q[2*k]
			r[2*k+1] -= a * q[2*k+1]
			rmax = max(rmax, max(math.Abs(r[2*k]), math.Abs(r[2*k+1])))
		}
		if useIC {
			ic.solve(r, z, 2, 1)
		} else {
			for _, k := range act {
				z[2*k], z[2*k+1] = s.precond(k, r[2*k], r[2*k+1])
			}
		}
		rzNew := 0.0
		for _, k := range act {
			rzNew += r[2*k]*z[2*k] + r[2*k+1]*z[2*k+1]
		}
		axpy(a, u, s.v)
		beta := rzNew / rz
		rz = rzNew
		for _, k := range act {
			p[2*k] = z[2*k] + beta*p[2*k]
			p[2*k+1] = z[2*k+1] + beta*p[2*k+1]
		}
	}
	return true
}

// precond applies contact k's inverse 2×2 tangential Delassus block.
func (s *Solver) precond(k int, r1, r2 float64) (float64, float64) {
	g := s.op.g[6*k : 6*k+6]
	a, b, c := g[3], g[4], g[5]
	det := a*c - b*b
	if !(det > 1e-14*a*c) {
		if a > 0 && c > 0 {
			return r1 / a, r2 / c
		}
		return 0, 0
	}
	return (c*r1 - b*r2) / det, (a*r2 - b*r1) / det
}

// frictionClip scales every friction vector outside its set back onto the boundary, keeping s.v.
func (s *Solver) frictionClip(f []float64) {
	op := &s.op
	for k := 0; k < op.m; k++ {
		rad := op.mu[k] * s.alpha[k]
		f1, f2 := f[2*k], f[2*k+1]
		if f1 == 0 && f2 == 0 {
			continue
		}
		g := s.gauge(f1, f2)
		if g <= rad {
			continue
		}
		sc := 0.0
		if rad > 0 {
			sc = rad / g
		}
		n1, n2 := f1*sc, f2*sc
		op.addWT(k, n1-f1, n2-f2, s.v)
		f[2*k], f[2*k+1] = n1, n2
	}
}

// discQP returns argmin ½yᵀGy + lᵀy over ‖y‖ ≤ r for G = [[a b] [b c]] symmetric PSD: the
// unconstrained minimiser if it lies inside, otherwise y(λ) = −(G+λI)⁻¹l with ‖y(λ)‖ = r, found by
// safeguarded Newton on 1/‖y(λ)‖ − 1/r (the 2-D trust-region sub-problem, solved to rounding).
func discQP(a, b, c, l1, l2, r float64) (float64, float64) {
	ln := math.Hypot(l1, l2)
	if ln == 0 {
		return 0, 0
	}
	// Eigen-decomposition of the 2×2 G.
	tr, df := 0.5*(a+c), 0.5*(a-c)
	h := math.Hypot(df, b)
	e1, e2 := tr+h, tr-h // e1 ≥ e2
	var q1x, q1y float64
	if h == 0 {
		q1x, q1y = 1, 0
	} else if df >= 0 {
		q1x, q1y = df+h, b
	} else {
		q1x, q1y = b, h-df
	}
	qn := math.Hypot(q1x, q1y)
	q1x, q1y = q1x/qn, q1y/qn
	q2x, q2y := -q1y, q1x
	g1 := q1x*l1 + q1y*l2
	g2 := q2x*l1 + q2y*l2
	norm := func(lam float64) float64 {
		return math.Hypot(g1/(e1+lam), g2/(e2+lam))
	}
	tiny := 1e-300
	if e2 > 1e-14*max(e1, tiny) {
		if n0 := norm(0); n0 <= r {
			z1, z2 := -g1/e1, -g2/e2
			return q1x*z1 + q2x*z2, q1y*z1 + q2y*z2
		}
	}
	// Bracket: ψ(λ) = 1/‖y‖ − 1/r is increasing and concave on λ > −e2; ψ(hi) ≥ 0 at hi = ‖l‖/r.
	lo, hi := max(0, -e2), ln/r
	if hi <= lo {
		hi = lo + ln/r
	}
	lam := lo
	if e2+lam <= 0 {
		lam = lo + 1e-12*max(hi-lo, tiny)
	}
	for it := 0; it < 60; it++ {
		d1, d2 := e1+lam, e2+lam
		y1, y2 := g1/d1, g2/d2
		nrm := math.Hypot(y1, y2)
		psi := 1/nrm - 1/r
		if psi < 0 {
			lo = lam
		} else {
			hi = lam
		}
		if math.Abs(psi)*r <= 1e-15 {
			break
		}
		// dψ/dλ = (Σ g_i²/d_i³)/‖y‖³
		dpsi := (y1*y1/d1 + y2*y2/d2) / (nrm * nrm * nrm)
		next := lam - psi/dpsi
		if !(next > lo && next < hi) {
			next = 0.5 * (lo + hi)
		}
		if next == lam {
			break
		}
		lam = next
	}
	z1, z2 := -g1/(e1+lam), -g2/(e2+lam)
	y1, y2 := q1x*z1+q2x*z2, q1y*z1+q2y*z2
	if n := math.Hypot(y1, y2); n > r {
		y1, y2 = y1*r/n, y2*r/n
	}
	return y1, y2
}

// polygonQP returns argmin ½yᵀGy + lᵀy over the regular d-gon with vertices r·u_j: the
// unconstrained minimiser if inside, else the best point on the boundary edges (exact: a convex
// quadratic whose unconstrained minimiser is outside attains its minimum on the boundary).
func (s *Solver) polygonQP(a, b, c, l1, l2, r float64) (float64, float64) {
	d := len(s.cosT)
	det := a*c - b*b
	if det > 1e-14*max(a*c, 1e-300) {
		y1 := -(c*l1 - b*l2) / det
		y2 := -(a*l2 - b*l1) / det
		if s.inPolygon(y1, y2, r) {
			return y1, y2
		}
	}
	best := math.Inf(1)
	var b1, b2 float64
	for j := 0; j < d; j++ {
		jn := j + 1
		if jn == d {
			jn = 0
		}
		p1, p2 := r*s.cosT[j], r*s.sinT[j]
		e1, e2 := r*s.cosT[jn]-p1, r*s.sinT[jn]-p2
		// q(t) = ½(p+te)ᵀG(p+te) + lᵀ(p+te), t ∈ [0,1]
		gp1, gp2 := a*p1+b*p2+l1, b*p1+c*p2+l2
		slope := e1*gp1 + e2*gp2
		curv := e1*(a*e1+b*e2) + e2*(b*e1+c*e2)
		t := 0.0
		if curv > 0 {
			t = -slope / curv
		} else if slope < 0 {
			t = 1
		}
		if t < 0 {
			t = 0
		} else if t > 1 {
			t = 1
		}
		y1, y2 := p1+t*e1, p2+t*e2
		val := 0.5*(y1*(a*y1+b*y2)+y2*(b*y1+c*y2)) + l1*y1 + l2*y2
		if val < best {
			best, b1, b2 = val, y1, y2
		}
	}
	return b1, b2
}

// inPolygon reports whether (y1, y2) lies in the regular d-gon of circumradius r.
func (s *Solver) inPolygon(y1, y2, r float64) bool {
	d := len(s.cosT)
	half := math.Pi / float64(d)
	apo := r * math.Cos(half)
	ch, sh := math.Cos(half), math.Sin(half)
	for j := 0; j < d; j++ {
		// edge normal at angle θ_j + π/d
		nx := s.cosT[j]*ch - s.sinT[j]*sh
		ny := s.sinT[j]*ch + s.cosT[j]*sh
		if nx*y1+ny*y2 > apo {
			return false
		}
	}
	return true
}
