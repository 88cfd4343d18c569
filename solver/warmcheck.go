package solver

import (
	"math"
	"time"
)

// A warm start taken from a resting scene's previous step is usually already the answer: the
// paper's §6.4 notes that Algorithm 1 then returns after one iteration. That iteration still costs
// a compiled operator, a contact and a friction projection and several passes over the contacts.
// acceptWarmStart instead checks the optimality conditions of both projections at the warm start
// directly, from the problem's rows, and returns it when they hold; only when they do not does the
// solve compile the operator and run the staggered loop.

// warmCheck is the warm-start check's workspace: the generalized impulse Jᵀλ of the warm start
// and each contact's constant term with restitution.
type warmCheck struct {
	imp, bEff []float64
}

// acceptWarmStart reports whether p's warm start (α⁰, f⁰) is a fixed point of the staggered map
// (paper eq. 26) to working accuracy, and if so writes it to res as the answer. The conditions,
// with w_k = n_kᵀq̇ + b_k (plus restitution) and s_k the tangential velocity at
// q̇ = q̇ᴾ + M⁻¹(Nα⁰ + Df⁰) (eq. 13), scale and tolerances as in the full solve:
//   - contact projection (eq. 25): w_k ≥ −δ and |w_k| ≤ δ where α_k > 0, with δ the bound
//     that Stats.ContactExact certifies, exactFactor·ContactTol·scale (the projection itself stops
//     at ContactTol·scale: requiring that of the warm start would reject most resting steps,
//     whose last projection stopped just inside it and whose rows have since moved a little);
//   - friction projection (eq. 24), per contact: f_k = 0 where μ_kα_k = 0; ‖s_k‖∞ ≤ FrictionTol·scale
//     where f_k is inside its set; for the disc, where ‖f_k‖ = μ_kα_k (within setSlack), s_k
//     points against f_k: its component across f_k within FrictionTol·scale of 0 and its
//     component along f_k at most FrictionTol·scale (the maximal dissipation principle, eq. 18).
//
// A pyramid contact on the boundary of its polygon is not checked here: the full solve runs.
// The pass costs one accumulation of Jᵀλ, one M⁻¹ product per body and one pass over the contacts.
func (s *Solver) acceptWarmStart(p *Problem, res *Result, start time.Time) bool {
	m, n := len(p.contacts), p.ndof
	s.alpha = grow(s.alpha, m)
	s.f = grow(s.f, 2*m)
	s.warm.bEff = grow(s.warm.bEff, m)
	s.warm.imp = grow(s.warm.imp, n)
	s.v = grow(s.v, n)
	s.warmStart(p)
	imp, bEff := s.warm.imp, s.warm.bEff
	clear(imp)
	// Pass 1: b_k with restitution, the velocity scale, and the generalized impulse Jᵀλ.
	scale := 1.0
	for k := range p.contacts {
		c := &p.contacts[k]
		b, nq := c.B, 0.0
		a, f1, f2 := s.alpha[k], s.f[2*k], s.f[2*k+1]
		for side := 0; side < 2; side++ {
			body, row := c.side(side)
			if body < 0 {
				continue
			}
			bl := p.blocks[body]
			sz := bl.Size
			jn := p.rows[row : row+sz]
			if c.E > 0 {
				b += c.E * dot(jn, p.QdotT[bl.Offset:bl.Offset+sz])
			}
			if sz == rigidSize {
				r := rows6(p.rows, row)
				nq += dot6((*[rigidSize]float64)(r[:]), block6(p.QdotP, bl.Offset))
				if a != 0 || f1 != 0 || f2 != 0 {
					combine6(a, f1, f2, r, block6(imp, bl.Offset))
				}
				continue
			}
			nq += dot(jn, p.QdotP[bl.Offset:bl.Offset+sz])
			if a == 0 && f1 == 0 && f2 == 0 {
				continue
			}
			j1, j2 := p.rows[row+sz:row+2*sz], p.rows[row+2*sz:row+3*sz]
			x := imp[bl.Offset : bl.Offset+sz]
			for i := range x {
				x[i] += a*jn[i] + f1*j1[i] + f2*j2[i]
			}
		}
		bEff[k] = b
		// The scale of the full solve (operator.compile), kinematic tangential speeds included.
		scale = max(scale, math.Abs(nq+b), math.Abs(c.BT[0]), math.Abs(c.BT[1]))
	}
	// q̇ = q̇ᴾ + M⁻¹Jᵀλ, block by block.
	v := s.v
	for _, bl := range p.blocks {
		sz := bl.Size
		minv := p.minv[bl.minv : bl.minv+sz*sz]
		if sz == rigidSize {
			x, y, q := block6(imp, bl.Offset), block6(v, bl.Offset), block6(p.QdotP, bl.Offset)
			for i := range y {
				y[i] = q[i] + dot6(block6(minv, i*rigidSize), x)
			}
			continue
		}
		x := imp[bl.Offset : bl.Offset+sz]
		for i := 0; i < sz; i++ {
			v[bl.Offset+i] = p.QdotP[bl.Offset+i] + dot(minv[i*sz:(i+1)*sz], x)
		}
	}
	// Pass 2: the optimality conditions, the gaps and eq. 29's residual.
	tol := exactFactor * s.opts.ContactTol * scale
	ftol := s.opts.FrictionTol * scale
	minGap, worst, residual := math.Inf(1), 0.0, 0.0
	for k := range p.contacts {
		c := &p.contacts[k]
		w, s1, s2 := bEff[k], c.BT[0], c.BT[1]
		for side := 0; side < 2; side++ {
			body, row := c.side(side)
			if body < 0 {
				continue
			}
			bl := p.blocks[body]
			sz := bl.Size
			if sz == rigidSize {
				r := rows6(p.rows, row)
				x := block6(v, bl.Offset)
				w += dot6((*[rigidSize]float64)(r[:]), x)
				s1 += dot6((*[rigidSize]float64)(r[rigidSize:]), x)
				s2 += dot6((*[rigidSize]float64)(r[2*rigidSize:]), x)
				continue
			}
			x := v[bl.Offset : bl.Offset+sz]
			w += dot(p.rows[row:row+sz], x)
			s1 += dot(p.rows[row+sz:row+2*sz], x)
			s2 += dot(p.rows[row+2*sz:row+3*sz], x)
		}
		a := s.alpha[k]
		e := 0.0 // |min(A_kk α_k, w_k)| for α_k = 0; |w_k| bounds it for α_k > 0
		if a > 0 || w < 0 {
			e = math.Abs(w)
		}
		if !(e <= tol) || !s.set.optimal(c.Mu*a, s.f[2*k], s.f[2*k+1], s1, s2, ftol) {
			return false
		}
		if e > worst {
			worst = e
		}
		if w < minGap {
			minGap = w
		}
		residual += math.Abs(a * w)
	}
	if m == 0 {
		minGap = 0
	}
	res.Alpha = grow(res.Alpha, m)
	res.Friction = grow(res.Friction, 2*m)
	res.Qdot = grow(res.Qdot, n)
	copy(res.Alpha, s.alpha)
	copy(res.Friction, s.f)
	copy(res.Qdot, v)
	s.st = Stats{
		Method: MethodSP, Contacts: m, Scale: scale,
		Iterations: 1, Converged: true, WarmExact: true,
		Residual: residual, ContactError: worst, ContactExact: true, MinGap: minGap,
	}
	s.st.Elapsed = time.Since(start)
	res.Stats = s.st
	return true
}
