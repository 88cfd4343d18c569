package solver

import "math"

// frictionSet is the set K that each contact's friction impulse lies in, scaled by μ_kα_k: the
// unit disc (Disc, paper eq. 6) or the pyramid's regular d-gon (Pyramid, eq. 7/23:
// {Σ_j β_j u_j : β ≥ 0, Σβ ≤ 1} for unit samples u_j at angles 2πj/d). It answers the questions
// every sub-solver asks of a friction impulse: how far out it is (gauge), whether it sticks, the
// contact's exact 2-D sub-problem (minimize) and its optimality conditions (optimal).
type frictionSet struct {
	model      FrictionModel
	cosT, sinT []float64 // the d tangent samples u_j
}

// Relative margins on μ_kα_k. A friction impulse sticks when its gauge is below stickMargin of the
// radius (the joint solve and sharpening), counts as free for the friction subspace CG below
// freeMargin, and as on the boundary within setSlack (the warm-start check).
const (
	stickMargin = 1e-6
	freeMargin  = 1e-9
	setSlack    = 1e-9
)

// newFrictionSet returns model's set with d tangent samples.
func newFrictionSet(model FrictionModel, d int) frictionSet {
	fs := frictionSet{model: model, cosT: make([]float64, d), sinT: make([]float64, d)}
	for j := 0; j < d; j++ {
		th := 2 * math.Pi * float64(j) / float64(d)
		fs.cosT[j], fs.sinT[j] = math.Cos(th), math.Sin(th)
	}
	return fs
}

// gauge returns the set's gauge of (f1, f2): ‖f‖ for the disc, the polygon's gauge (the
// circumradius of the smallest d-gon containing f) for the pyramid.
func (fs *frictionSet) gauge(f1, f2 float64) float64 {
	if fs.model == Disc {
		return norm2(f1, f2)
	}
	d := len(fs.cosT)
	half := math.Pi / float64(d)
	ch, sh := math.Cos(half), math.Sin(half)
	g := 0.0
	for j := 0; j < d; j++ {
		nx := fs.cosT[j]*ch - fs.sinT[j]*sh
		ny := fs.sinT[j]*ch + fs.cosT[j]*sh
		g = max(g, nx*f1+ny*f2)
	}
	return g / ch
}

// support returns the unit set's support function max_{y∈K} yᵀ(d1, d2): ‖d‖ for the disc, the
// largest projection of a tangent sample for the pyramid's polygon, whose vertices they are.
func (fs *frictionSet) support(d1, d2 float64) float64 {
	if fs.model == Disc {
		return norm2(d1, d2)
	}
	h := math.Inf(-1)
	for j := range fs.cosT {
		h = max(h, fs.cosT[j]*d1+fs.sinT[j]*d2)
	}
	return h
}

// stepToBoundary returns the largest t ≥ 0 with f + t·p in the set of radius rad, for f inside it
// (+Inf when the ray never leaves it: p = 0). The disc's answer is the positive root of
// ‖f + tp‖² = rad², taken in the form that does not cancel; the polygon's is the nearest of its
// edges' lines ahead along p.
func (fs *frictionSet) stepToBoundary(f1, f2, p1, p2, rad float64) float64 {
	if fs.model == Disc {
		a := p1*p1 + p2*p2
		if a == 0 {
			return math.Inf(1)
		}
		b := f1*p1 + f2*p2
		c := max(0, rad*rad-(f1*f1+f2*f2)) // f inside: c ≥ 0 but for rounding
		root := math.Sqrt(b*b + a*c)
		if b > 0 {
			return c / (b + root)
		}
		return (root - b) / a
	}
	d := len(fs.cosT)
	half := math.Pi / float64(d)
	ch, sh := math.Cos(half), math.Sin(half)
	t := math.Inf(1)
	for j := 0; j < d; j++ {
		nx := fs.cosT[j]*ch - fs.sinT[j]*sh
		ny := fs.sinT[j]*ch + fs.cosT[j]*sh
		if np := nx*p1 + ny*p2; np > 0 {
			t = min(t, max(0, rad*ch-(nx*f1+ny*f2))/np)
		}
	}
	return t
}

// sticks reports whether friction impulse (f1, f2) lies strictly inside the set of radius rad,
// by the relative margin stickMargin: the contact sticks rather than slides on the rim.
func (fs *frictionSet) sticks(rad, f1, f2 float64) bool {
	return rad > 0 && fs.gauge(f1, f2) < rad*(1-stickMargin)
}

// minimize returns argmin ½yᵀGy + lᵀy over the friction set of radius r, G = [[a b] [b c]]
// symmetric PSD: contact k's friction sub-problem with the other contacts held. For a disc it is
// discQP to the bit, with G's eigen-decomposition taken from the projection's per-solve cache: G
// is contact k's tangent block for the whole solve, and a sliding contact meets its rim in sweep
// after sweep.
func (fp *frictionProjection) minimize(k int, a, b, c, l1, l2, r float64) (float64, float64) {
	if fp.set.model != Disc {
		return fp.set.polygonQP(a, b, c, l1, l2, r)
	}
	y1, y2, ln, done := discInside(a, b, c, l1, l2, r)
	if done {
		return y1, y2
	}
	if !fp.eigenSet[k] {
		fp.eigen[k], fp.eigenSet[k] = newDiscEigen(a, b, c), true
	}
	return discRim(fp.eigen[k], l1, l2, ln, r)
}

// optimal reports whether friction impulse (f1, f2) solves its contact's friction sub-problem for
// radius rad = μ_kα_k at tangential velocity (s1, s2), to ftol: zero without load; no slip when
// sticking; on the disc's rim, slip opposing f (the maximal dissipation principle, eq. 18). A
// pyramid impulse on its polygon's boundary is not judged: it reports false.
func (fs *frictionSet) optimal(rad, f1, f2, s1, s2, ftol float64) bool {
	if !(rad > 0) {
		return f1 == 0 && f2 == 0
	}
	g := fs.gauge(f1, f2)
	switch {
	case g < rad*(1-setSlack):
		return math.Abs(s1) <= ftol && math.Abs(s2) <= ftol // sticking: no slip
	case fs.model != Disc || g > rad*(1+setSlack):
		return false
	}
	// On the disc's boundary: the slip must oppose f.
	u1, u2 := f1/g, f2/g
	along, across := s1*u1+s2*u2, s2*u1-s1*u2
	return along <= ftol && math.Abs(across) <= ftol
}

// norm2 returns √(x² + y²). It is the friction sweeps' innermost operation, and math.Hypot, which
// scales to avoid overflow and underflow, costs several times a square root; norm2 takes the square
// root directly and falls back to math.Hypot only where x² + y² could overflow or underflow.
func norm2(x, y float64) float64 {
	ss := x*x + y*y
	if ss > 1e300 || ss < 1e-300 {
		return math.Hypot(x, y)
	}
	return math.Sqrt(ss)
}

// discQP returns argmin ½yᵀGy + lᵀy over ‖y‖ ≤ r for G = [[a b] [b c]] symmetric PSD: the
// unconstrained minimiser if it lies inside, otherwise y(λ) = −(G+λI)⁻¹l with ‖y(λ)‖ = r, found by
// safeguarded Newton on 1/‖y(λ)‖ − 1/r (the 2-D trust-region sub-problem, solved to rounding).
func discQP(a, b, c, l1, l2, r float64) (float64, float64) {
	y1, y2, ln, done := discInside(a, b, c, l1, l2, r)
	if done {
		return y1, y2
	}
	return discRim(newDiscEigen(a, b, c), l1, l2, ln, r)
}

// discInside answers discQP where the answer is found without G's eigen-decomposition: zero for
// l = 0, and the unconstrained minimiser when it lies inside the disc. Most calls are sticking
// contacts: this tests that first by Cramer's rule on a well-conditioned G (det ≥ 1e-14·tr², so
// e2 ≥ 1e-14·e1 as the eigen path requires). It also returns ‖l‖ for discRim.
func discInside(a, b, c, l1, l2, r float64) (y1, y2, ln float64, done bool) {
	ln = norm2(l1, l2)
	if ln == 0 {
		return 0, 0, 0, true
	}
	if det, tr := a*c-b*b, a+c; det > 1e-14*tr*tr {
		y1, y2 := (b*l2-c*l1)/det, (b*l1-a*l2)/det
		if norm2(y1, y2) <= r {
			return y1, y2, ln, true
		}
	}
	return 0, 0, ln, false
}

// discEigen is the eigen-decomposition of a contact's 2×2 tangent block G: eigenvalues e1 ≥ e2
// and the unit eigenvector (q1x, q1y) of e1. It depends on G alone, so a friction projection
// computes it once per contact and solve (frictionProjection.eigen).
type discEigen struct {
	e1, e2, q1x, q1y float64
}

// newDiscEigen decomposes G = [[a b] [b c]].
func newDiscEigen(a, b, c float64) discEigen {
	tr, df := 0.5*(a+c), 0.5*(a-c)
	h := norm2(df, b)
	e1, e2 := tr+h, tr-h // e1 ≥ e2
	var q1x, q1y float64
	if h == 0 {
		q1x, q1y = 1, 0
	} else if df >= 0 {
		q1x, q1y = df+h, b
	} else {
		q1x, q1y = b, h-df
	}
	qn := norm2(q1x, q1y)
	return discEigen{e1: e1, e2: e2, q1x: q1x / qn, q1y: q1y / qn}
}

// discRim answers discQP where discInside did not, from G's eigen-decomposition eg; ln is ‖l‖.
func discRim(eg discEigen, l1, l2, ln, r float64) (float64, float64) {
	e1, e2, q1x, q1y := eg.e1, eg.e2, eg.q1x, eg.q1y
	q2x, q2y := -q1y, q1x
	g1 := q1x*l1 + q1y*l2
	g2 := q2x*l1 + q2y*l2
	norm := func(lam float64) float64 {
		return norm2(g1/(e1+lam), g2/(e2+lam))
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
	// ‖y(λ)‖ ≥ ‖l‖/(e1+λ), so ψ ≤ 0 up to ‖l‖/r − e1: Newton may start there, from below the root
	// as on a concave increasing ψ it must, and for an isotropic G that is the root itself.
	lam := max(lo, ln/r-e1)
	if e2+lam <= 0 {
		lam = lo + 1e-12*max(hi-lo, tiny)
	}
	for it := 0; it < 60; it++ {
		d1, d2 := e1+lam, e2+lam
		y1, y2 := g1/d1, g2/d2
		nrm := norm2(y1, y2)
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
	if n := norm2(y1, y2); n > r {
		y1, y2 = y1*r/n, y2*r/n
	}
	return y1, y2
}

// polygonQP returns argmin ½yᵀGy + lᵀy over the regular d-gon with vertices r·u_j: the
// unconstrained minimiser if inside, else the best point on the boundary edges (exact: a convex
// quadratic whose unconstrained minimiser is outside attains its minimum on the boundary).
func (fs *frictionSet) polygonQP(a, b, c, l1, l2, r float64) (float64, float64) {
	d := len(fs.cosT)
	det := a*c - b*b
	if det > 1e-14*max(a*c, 1e-300) {
		y1 := -(c*l1 - b*l2) / det
		y2 := -(a*l2 - b*l1) / det
		if fs.inPolygon(y1, y2, r) {
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
		p1, p2 := r*fs.cosT[j], r*fs.sinT[j]
		e1, e2 := r*fs.cosT[jn]-p1, r*fs.sinT[jn]-p2
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
func (fs *frictionSet) inPolygon(y1, y2, r float64) bool {
	d := len(fs.cosT)
	half := math.Pi / float64(d)
	apo := r * math.Cos(half)
	ch, sh := math.Cos(half), math.Sin(half)
	for j := 0; j < d; j++ {
		// edge normal at angle θ_j + π/d
		nx := fs.cosT[j]*ch - fs.sinT[j]*sh
		ny := fs.sinT[j]*ch + fs.cosT[j]*sh
		if nx*y1+ny*y2 > apo {
			return false
		}
	}
	return true
}
