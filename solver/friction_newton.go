package solver

import "math"

// The friction projection's projected Newton step for small islands (docs/architecture.md, The
// two projections). Block Gauss–Seidel crawls where many contacts share a body and several slide
// on their disc's rim at once — a soft body resting on a face, a box on a box turning as it
// slides — because every contact's update undoes part of its neighbours'. On an island of at most
// newtonLimit contacts the projection's objective
//
//	Φ(f) = ½ fᵀ D f + fᵀ s₀,   D = T M⁻¹ Tᵀ (the tangent rows' Delassus matrix),
//
// is small enough to hold D densely and take Newton steps on it. Each contact is classified at the
// current iterate: one strictly inside its disc, or on the rim with its slip pointing inwards, is
// free in both directions; one on the rim with its slip pointing outwards (sliding) keeps
// ‖f_k‖ = μ_kα_k and moves along the rim by an angle. The reduced Hessian of Φ in these variables
// is PᵀDP plus, for each sliding contact, the rim's curvature term −s_kᵀf_k ≥ 0 (the second
// derivative of Φ(f_k(θ)) along the circle), and its gradient is Pᵀs. The Newton step is solved
// by pivoted Cholesky (psdSolve; redundant contacts make D singular), mapped back (free contacts
// clipped into their discs, sliding ones rotated; on an island with a reduced deformable body a
// free contact on its rim whose step leaves its disc is first pinned to the rim, pinLeaving), and
// accepted on the first step length of a halving search that lowers Φ — computed exactly from D
// — so the projection's objective never rises. Once the sliding set is identified the steps
// converge quadratically; Gauss–Seidel sweeps between them correct the classification.

// newtonLimit is the largest island, in contacts, whose friction projection takes Newton steps:
// beyond it a step's factorisation (up to (2·64)³/6 flops) outweighs the sweeps it saves on the
// islands measured (docs/architecture.md, The two projections).
const newtonLimit = 64

// newtonAfterSweeps is how many sweeps a projection on an island of up to 32 contacts runs before
// its first Newton step: most projections of a warm-started solve end within a few sweeps, and a
// Newton step costs tens.
const newtonAfterSweeps = 24

// maxTurn bounds the angle, in radians, by which a Newton step turns a sliding contact's impulse
// along its rim: the step's quadratic model holds only for small turns.
const maxTurn = 0.5

// newtonHalvings bounds the step-length search of one Newton step.
const newtonHalvings = 12

// frictionNewton is the workspace of the dense Newton steps; D is read from the operator's dense
// Delassus matrix (its tangent rows).
type frictionNewton struct {
	h    []float64 // the reduced Hessian, nv × nv
	grad []float64 // the reduced gradient Pᵀs, then the Newton step
	step []float64
	perm []int
	y    []float64
	// slide marks the contacts moved along their rim; at is the offset of a contact's variables
	// in the reduced vector (−1: fixed at zero).
	slide []bool
	// pin marks the free contacts on their rim that this step moves along it (pinLeaving).
	pin   []bool
	at    []int
	base  []float64 // 2m: the iterate, sliding contacts put exactly on their rim
	trial []float64 // 2m: a candidate iterate
	df    []float64 // 2m: trial − f
	dir   []float64 // 2m: the columns of P, a 2-vector per contact (the rim tangent when sliding)
}

// resize sizes the scratch for op (nothing when the island is too large for dense steps).
func (fn *frictionNewton) resize(op *operator) {
	m := op.m
	if m > newtonLimit {
		return
	}
	fn.h = grow(fn.h, 4*m*m)
	fn.grad = grow(fn.grad, 2*m)
	fn.step = grow(fn.step, 2*m)
	fn.perm = grow(fn.perm, 2*m)
	fn.y = grow(fn.y, 2*m)
	fn.at = grow(fn.at, m)
	fn.slide = grow(fn.slide, m)
	fn.pin = grow(fn.pin, m)
	fn.base = grow(fn.base, 2*m)
	fn.trial = grow(fn.trial, 2*m)
	fn.df = grow(fn.df, 2*m)
	fn.dir = grow(fn.dir, 2*m)
}

// newtonStep takes one projected Newton step of the friction projection from f (feasible, with
// fp.v consistent), keeping f feasible and fp.v consistent. It reports how the step ended: the
// full step taken, a shorter one (a contact reached its rim, a turn was bounded, or the step was
// halved), or none that lowered the objective, and then f and fp.v are unchanged. Disc friction
// only.
func (fp *frictionProjection) newtonStep(f []float64) newtonResult {
	op, fn := fp.op, &fp.newton
	m, n2, n3 := op.m, 2*op.m, 3*op.m
	d, built := op.dense.matrix(op, fp.u)
	fp.work.CG += built
	for k := 0; k < m; k++ {
		fp.tSave[2*k], fp.tSave[2*k+1] = op.slip(k, fp.v)
		fn.pin[k] = false
	}
	// A free contact on its rim whose step would leave the disc is clipped back onto it, which
	// bends the step off the Newton direction. Where D is near-singular along many directions (a
	// soft block's contacts on one face) the bent step raised the objective at every length, the
	// Newton phase failed and sweeps ran on for thousands; so on an island with a reduced
	// deformable body such a contact is pinned to its rim (moved along it) and the step solved
	// again. On islands of rigid bodies it moved the work by −6 to +15 % over pile seeds, 0 to
	// +14 % over impact seeds and +17 % on the topple: they clip.
	for {
		nv := fp.newtonSystem(f, d, n3)
		if nv == 0 {
			return newtonFailed
		}
		psdSolve(fn.h[:nv*nv], nv, fn.grad[:nv], fn.step[:nv], fn.perm[:nv], fn.y[:nv], newtonRank)
		fp.work.CG += passesOf(nv*nv*nv/6+nv*nv, m)
		if op.allRigid || !fp.pinLeaving() {
			break
		}
	}
	return fp.newtonLineSearch(f, d, n2, n3)
}

// newtonSystem classifies the contacts at f and builds the reduced Hessian and gradient of the
// Newton step in fn.h and fn.grad, returning the number of reduced variables.
func (fp *frictionProjection) newtonSystem(f, d []float64, n3 int) int {
	op, fn := fp.op, &fp.newton
	m := op.m
	nv := 0
	for k := 0; k < m; k++ {
		rad := op.mu[k] * fp.alpha[k]
		s1, s2 := fp.tSave[2*k], fp.tSave[2*k+1]
		f1, f2 := f[2*k], f[2*k+1]
		fn.slide[k] = false
		fn.base[2*k], fn.base[2*k+1] = f1, f2
		if !(rad > 0) {
			fn.at[k] = -1
			fn.dir[2*k], fn.dir[2*k+1] = 0, 0
			continue
		}
		g := norm2(f1, f2)
		if g >= rad*(1-stickMargin) && (s1*f1+s2*f2 < 0 || fn.pin[k]) {
			// Sliding: the rim, moved along by an angle; the tangent (−f₂, f₁) has length rad.
			fn.slide[k] = true
			b1, b2 := f1*rad/g, f2*rad/g
			fn.base[2*k], fn.base[2*k+1] = b1, b2
			fn.dir[2*k], fn.dir[2*k+1] = -b2, b1
			fn.at[k] = nv
			nv++
			continue
		}
		fn.at[k] = nv
		nv += 2
	}
	if nv == 0 {
		return 0
	}
	// The reduced Hessian PᵀDP (+ the rim's curvature) and gradient Pᵀs.
	h := fn.h[:nv*nv]
	for i := 0; i < m; i++ {
		ai := fn.at[i]
		if ai < 0 {
			continue
		}
		for j := 0; j < m; j++ {
			aj := fn.at[j]
			if aj < 0 {
				continue
			}
			// The 2×2 block of D between contacts i and j: A's tangent rows.
			r0, r1 := (3*i+1)*n3+3*j+1, (3*i+2)*n3+3*j+1
			d00, d01, d10, d11 := d[r0], d[r0+1], d[r1], d[r1+1]
			switch {
			case !fn.slide[i] && !fn.slide[j]:
				h[ai*nv+aj], h[ai*nv+aj+1] = d00, d01
				h[(ai+1)*nv+aj], h[(ai+1)*nv+aj+1] = d10, d11
			case !fn.slide[i]:
				t1, t2 := fn.dir[2*j], fn.dir[2*j+1]
				h[ai*nv+aj] = d00*t1 + d01*t2
				h[(ai+1)*nv+aj] = d10*t1 + d11*t2
			case !fn.slide[j]:
				t1, t2 := fn.dir[2*i], fn.dir[2*i+1]
				h[ai*nv+aj] = t1*d00 + t2*d10
				h[ai*nv+aj+1] = t1*d01 + t2*d11
			default:
				u1, u2 := fn.dir[2*i], fn.dir[2*i+1]
				t1, t2 := fn.dir[2*j], fn.dir[2*j+1]
				h[ai*nv+aj] = u1*(d00*t1+d01*t2) + u2*(d10*t1+d11*t2)
			}
		}
		s1, s2 := fp.tSave[2*i], fp.tSave[2*i+1]
		if fn.slide[i] {
			fn.grad[ai] = -(fn.dir[2*i]*s1 + fn.dir[2*i+1]*s2)
			// The rim's curvature term; a pinned contact whose slip points inwards would make it
			// negative, and its move along the rim is then taken on the tangent's model alone.
			h[ai*nv+ai] -= min(0, s1*fn.base[2*i]+s2*fn.base[2*i+1])
		} else {
			fn.grad[ai], fn.grad[ai+1] = -s1, -s2
		}
	}
	return nv
}

// pinLeaving pins each free contact on its rim whose Newton step points out of its disc, and
// reports whether it pinned any (the step must then be solved again).
func (fp *frictionProjection) pinLeaving() bool {
	op, fn := fp.op, &fp.newton
	pinned := false
	for k := 0; k < op.m; k++ {
		a := fn.at[k]
		if a < 0 || fn.slide[k] {
			continue
		}
		rad := op.mu[k] * fp.alpha[k]
		b1, b2 := fn.base[2*k], fn.base[2*k+1]
		if norm2(b1, b2) >= rad*(1-stickMargin) && b1*fn.step[a]+b2*fn.step[a+1] > 0 {
			fn.pin[k], pinned = true, true
		}
	}
	return pinned
}

// newtonLineSearch takes the Newton step in fn.step from f, as newtonStep describes.
func (fp *frictionProjection) newtonLineSearch(f, d []float64, n2, n3 int) newtonResult {
	op, fn := fp.op, &fp.newton
	m := op.m
	// The step goes no further than where the first free contact strictly inside its disc reaches
	// the rim: beyond it, clipping would bend the path away from the Newton direction. That
	// contact is on the rim from then on, and the next classification decides whether it slides.
	tMax := 1.0
	for k := 0; k < m; k++ {
		a := fn.at[k]
		if a < 0 {
			continue
		}
		if fn.slide[k] {
			if turn := math.Abs(fn.step[a]); turn*tMax > maxTurn {
				tMax = maxTurn / turn
			}
			continue
		}
		rad := op.mu[k] * fp.alpha[k]
		b1, b2 := fn.base[2*k], fn.base[2*k+1]
		p1, p2 := fn.step[a], fn.step[a+1]
		if norm2(b1, b2) >= rad*(1-stickMargin) {
			continue // on the rim already: clipped
		}
		qa := p1*p1 + p2*p2
		if !(qa > 0) {
			continue
		}
		qb := b1*p1 + b2*p2
		qc := b1*b1 + b2*b2 - rad*rad
		// The positive root of qa t² + 2 qb t + qc = 0 (qc < 0).
		if t := (-qb + math.Sqrt(qb*qb-qa*qc)) / qa; t < tMax {
			tMax = t
		}
	}
	// Halve the step until the objective falls. Φ(f + Δf) − Φ(f) = Δfᵀs + ½ΔfᵀDΔf exactly.
	for t, tries := tMax, 0; tries < newtonHalvings; t, tries = 0.5*t, tries+1 {
		for k := 0; k < m; k++ {
			a := fn.at[k]
			switch {
			case a < 0:
				fn.trial[2*k], fn.trial[2*k+1] = 0, 0
			case fn.slide[k]:
				c, s := math.Cos(t*fn.step[a]), math.Sin(t*fn.step[a])
				b1, b2 := fn.base[2*k], fn.base[2*k+1]
				fn.trial[2*k], fn.trial[2*k+1] = c*b1-s*b2, s*b1+c*b2
			default:
				y1, y2 := fn.base[2*k]+t*fn.step[a], fn.base[2*k+1]+t*fn.step[a+1]
				rad := op.mu[k] * fp.alpha[k]
				if g := norm2(y1, y2); g > rad {
					y1, y2 = y1*rad/g, y2*rad/g
				}
				fn.trial[2*k], fn.trial[2*k+1] = y1, y2
			}
		}
		change := 0.0
		for i := 0; i < n2; i++ {
			fn.df[i] = fn.trial[i] - f[i]
			change += fn.df[i] * fp.tSave[i]
		}
		quad := 0.0
		for i := 0; i < n2; i++ {
			if fn.df[i] == 0 {
				continue
			}
			row := d[(3*(i/2)+1+i%2)*n3:]
			s := 0.0
			for j := 0; j < m; j++ {
				s += row[3*j+1]*fn.df[2*j] + row[3*j+2]*fn.df[2*j+1]
			}
			quad += fn.df[i] * s
		}
		fp.work.CG += passesOf(n2*n2, m)
		if change+0.5*quad < 0 {
			for k := 0; k < m; k++ {
				d1, d2 := fn.df[2*k], fn.df[2*k+1]
				if d1 != 0 || d2 != 0 {
					op.addWT(k, d1, d2, fp.v)
					f[2*k], f[2*k+1] = fn.trial[2*k], fn.trial[2*k+1]
				}
			}
			if t == 1 {
				return newtonFull
			}
			return newtonShort
		}
	}
	return newtonFailed
}

// newtonResult is how a Newton step ended.
type newtonResult int

const (
	newtonFailed newtonResult = iota // no step length lowered the objective; nothing changed
	newtonShort                      // a shorter step was taken (a contact reached its rim, or halving)
	newtonFull                       // the full Newton step was taken
)

// passesOf converts flops of dense work into the projection's work unit, passes over the island's
// m contacts, at about 50 flops a contact update; at least one.
func passesOf(flops, m int) int {
	return max(1, flops/(50*max(m, 1)))
}

// denseGap scales the dissipation-gap target of a projection that takes Newton steps: they
// converge quadratically once the sliding set is found, so a far tighter gap costs a step or two,
// and the friction's work then stays at rounding level.
const denseGap = 1e-8

// newtonRank is psdSolve's relative pivot threshold for the Newton system: pivots below it,
// relative to the largest diagonal entry, belong to directions that only rounding keeps
// independent (redundant contacts).
const newtonRank = 1e-13

// newtonAfter is how many sweeps a projection on an island of m contacts runs before its first
// Newton step: newtonAfterSweeps up to 32 contacts, and beyond in proportion to m², since a step's
// factorisation grows as m³ and a sweep as m.
func newtonAfter(m int) int {
	return max(newtonAfterSweeps, newtonAfterSweeps*m*m/(32*32))
}
