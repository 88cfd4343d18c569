package solver

import (
	"fmt"
	"math"
)

// The independent optimality checker. It reads only the Problem (its blocks, inverse masses and
// Jacobian rows) and an answer, recomputes everything itself through its own code path (impulses
// are accumulated in generalized-force space and then multiplied by M⁻¹ block by block), and
// shares no code with the solvers. Every measure is in velocity units (m/s for rigid bodies) so
// one tolerance applies:
//
//   - contact projection P_C (eq. 25; docs/architecture.md, The two projections): primal w_k = n_kᵀq̇ + b_k + e_k n_kᵀq̇ᵗ ≥ 0,
//     dual α_k ≥ 0 (scaled by a_kk = n_kᵀM⁻¹n_k), complementarity |min(a_kk α_k, w_k)|;
//   - friction projection P_F(α) (eq. 24, the maximal dissipation principle eq. 18): feasibility
//     f_k ∈ μ_kα_k K, and optimality: f_k minimises s_kᵀy over μ_kα_k K where s_k = T_kᵀq̇ + BT_k
//     is the contact's tangential velocity — the gap s_kᵀf_k − min_y s_kᵀy, divided by μ_kα_k;
//   - fixed point (eq. 26): both at once for the same (α, f).

// CheckReport holds the worst violation of each condition, in velocity units.
type CheckReport struct {
	ContactPrimal       float64 // max_k −w_k (0 if all w_k ≥ 0)
	ContactDual         float64 // max_k −a_kk α_k
	Complementarity     float64 // max_k |min(a_kk α_k, w_k)|
	FrictionFeasibility float64 // max_k (‖f_k‖_K − μ_kα_k) · t_kk
	FrictionOptimality  float64 // max_k (s_kᵀf_k − min_{y∈μ_kα_kK} s_kᵀy)/(μ_kα_k)
	VelocityMismatch    float64 // max |q̇ given − q̇ᴾ − M⁻¹(Nα + Df)| (when q̇ is given)
	Worst               float64 // the largest of the above that were checked
	WorstWhat           string
	WorstContact        int
}

// String formats the report.
func (r CheckReport) String() string {
	return fmt.Sprintf("worst %.3g (%s at contact %d): primal %.3g dual %.3g compl %.3g ffeas %.3g fopt %.3g vel %.3g",
		r.Worst, r.WorstWhat, r.WorstContact, r.ContactPrimal, r.ContactDual, r.Complementarity,
		r.FrictionFeasibility, r.FrictionOptimality, r.VelocityMismatch)
}

// CheckSpec says which friction set the answer is for.
type CheckSpec struct {
	Friction FrictionModel
	Tangents int // d for Pyramid
}

type checker struct {
	p     *Problem
	spec  CheckSpec
	v     []float64
	rep   CheckReport
	alpha []float64
	fric  []float64
}

// The Check functions are for tests and diagnostics. Like a slice index they panic, with a
// message naming the function and the argument, on input they cannot read: a nil problem or one
// that Problem.Validate refuses, alpha shorter than one entry per contact, friction shorter than
// two, a non-nil qdot shorter than the problem's DoFs, or a CheckSpec with an unknown friction
// model or a tangent count that Options.Validate would refuse.

// CheckContact verifies the KKT conditions of the contact projection P_C for the friction impulse
// friction (2 per contact, (t̂₁,t̂₂) basis): is alpha the LCP solution? qdot may be nil.
func CheckContact(p *Problem, alpha, friction, qdot []float64) CheckReport {
	checkInput("CheckContact", p, CheckSpec{}, alpha, friction, qdot)
	c := newChecker(p, CheckSpec{}, alpha, friction, qdot)
	c.contactKKT()
	return c.rep
}

// CheckFriction verifies the KKT conditions of the friction projection P_F(α): is friction the
// kinetic-energy-minimising impulse in the friction set scaled by alpha? qdot may be nil.
func CheckFriction(p *Problem, spec CheckSpec, alpha, friction, qdot []float64) CheckReport {
	checkInput("CheckFriction", p, spec, alpha, friction, qdot)
	c := newChecker(p, spec, alpha, friction, qdot)
	c.frictionKKT()
	return c.rep
}

// CheckFixedPoint verifies the fixed-point property (eq. 26): alpha solves P_C for friction and
// friction solves P_F(alpha), simultaneously. qdot may be nil.
func CheckFixedPoint(p *Problem, spec CheckSpec, alpha, friction, qdot []float64) CheckReport {
	checkInput("CheckFixedPoint", p, spec, alpha, friction, qdot)
	c := newChecker(p, spec, alpha, friction, qdot)
	c.contactKKT()
	c.frictionKKT()
	return c.rep
}

// checkInput panics, naming the function fn, on input the checker cannot read.
func checkInput(fn string, p *Problem, spec CheckSpec, alpha, friction, qdot []float64) {
	if p == nil {
		panic("solver: " + fn + ": p must not be nil")
	}
	if err := p.Validate(); err != nil {
		panic(fmt.Sprintf("solver: %s: invalid problem: %v", fn, err))
	}
	m := len(p.contacts)
	switch {
	case len(alpha) < m:
		panic(fmt.Sprintf("solver: %s: alpha has %d entries, want %d (one per contact)", fn, len(alpha), m))
	case len(friction) < 2*m:
		panic(fmt.Sprintf("solver: %s: friction has %d entries, want %d (two per contact)", fn, len(friction), 2*m))
	case qdot != nil && len(qdot) < p.ndof:
		panic(fmt.Sprintf("solver: %s: qdot has %d entries, want %d (one per DoF)", fn, len(qdot), p.ndof))
	case spec.Friction != Pyramid && spec.Friction != Disc:
		panic(fmt.Sprintf("solver: %s: CheckSpec.Friction %d is unknown", fn, spec.Friction))
	case spec.Tangents != 0 && (spec.Tangents < 4 || spec.Tangents > MaxTangents || spec.Tangents%2 != 0):
		panic(fmt.Sprintf("solver: %s: CheckSpec.Tangents must be 0 (8) or even and in [4, %d], got %d", fn, MaxTangents, spec.Tangents))
	}
}

func newChecker(p *Problem, spec CheckSpec, alpha, friction, qdot []float64) *checker {
	if spec.Tangents == 0 {
		spec.Tangents = 8
	}
	c := &checker{p: p, spec: spec, alpha: alpha, fric: friction}
	// Generalized impulse r = Σ_k J_kᵀ(α_k, f_k1, f_k2), then v = q̇ᴾ + M⁻¹ r per block.
	r := make([]float64, p.ndof)
	for k := range p.contacts {
		ct := &p.contacts[k]
		lam := [3]float64{alpha[k], friction[2*k], friction[2*k+1]}
		for side := 0; side < 2; side++ {
			body, off := ct.BodyA, ct.rowsA
			if side == 1 {
				body, off = ct.BodyB, ct.rowsB
			}
			if body < 0 {
				continue
			}
			bl := p.blocks[body]
			for row := 0; row < 3; row++ {
				for i := 0; i < bl.Size; i++ {
					r[bl.Offset+i] += lam[row] * p.rows[off+row*bl.Size+i]
				}
			}
		}
	}
	c.v = make([]float64, p.ndof)
	for _, bl := range p.blocks {
		for i := 0; i < bl.Size; i++ {
			acc := p.QdotP[bl.Offset+i]
			for j := 0; j < bl.Size; j++ {
				acc += p.minv[bl.minv+i*bl.Size+j] * r[bl.Offset+j]
			}
			c.v[bl.Offset+i] = acc
		}
	}
	c.rep.WorstContact = -1
	if qdot != nil {
		for i := range c.v {
			c.note(&c.rep.VelocityMismatch, math.Abs(qdot[i]-c.v[i]), "velocity", -1)
		}
	}
	return c
}

func (c *checker) note(field *float64, val float64, what string, k int) {
	if math.IsNaN(val) {
		val = math.Inf(1)
	}
	if val > *field {
		*field = val
	}
	if val > c.rep.Worst {
		c.rep.Worst, c.rep.WorstWhat, c.rep.WorstContact = val, what, k
	}
}

// rowVec returns contact k's row (0 normal, 1, 2 tangents) applied to x, and the quadratic form
// rowᵀM⁻¹row over the contact's blocks.
func (c *checker) rowVec(k, row int, x []float64) (val, diag float64) {
	p := c.p
	ct := &p.contacts[k]
	for side := 0; side < 2; side++ {
		body, off := ct.BodyA, ct.rowsA
		if side == 1 {
			body, off = ct.BodyB, ct.rowsB
		}
		if body < 0 {
			continue
		}
		bl := p.blocks[body]
		n := bl.Size
		j := p.rows[off+row*n : off+(row+1)*n]
		for i := 0; i < n; i++ {
			val += j[i] * x[bl.Offset+i]
			for l := 0; l < n; l++ {
				diag += j[i] * p.minv[bl.minv+i*n+l] * j[l]
			}
		}
	}
	return val, diag
}

func (c *checker) contactKKT() {
	p := c.p
	for k := range p.contacts {
		ct := &p.contacts[k]
		wn, akk := c.rowVec(k, 0, c.v)
		w := wn + ct.B
		if ct.E > 0 {
			wt, _ := c.rowVec(k, 0, p.QdotT)
			w += ct.E * wt
		}
		c.note(&c.rep.ContactPrimal, -w, "contact primal", k)
		c.note(&c.rep.ContactDual, -akk*c.alpha[k], "contact dual", k)
		c.note(&c.rep.Complementarity, math.Abs(min(akk*c.alpha[k], w)), "complementarity", k)
	}
}

func (c *checker) frictionKKT() {
	p := c.p
	d := c.spec.Tangents
	for k := range p.contacts {
		ct := &p.contacts[k]
		s1, t11 := c.rowVec(k, 1, c.v)
		s2, t22 := c.rowVec(k, 2, c.v)
		s1 += ct.BT[0] // the static or kinematic sides' part of the slip
		s2 += ct.BT[1]
		tkk := 0.5 * (t11 + t22)
		rad := ct.Mu * max(c.alpha[k], 0)
		f1, f2 := c.fric[2*k], c.fric[2*k+1]
		// feasibility: gauge of f in K minus the radius
		var gauge, minLin float64
		if c.spec.Friction == Disc {
			gauge = math.Hypot(f1, f2)
			minLin = -rad * math.Hypot(s1, s2)
		} else {
			half := math.Pi / float64(d)
			minLin = 0
			for j := 0; j < d; j++ {
				th := 2 * math.Pi * float64(j) / float64(d)
				// support over vertices
				minLin = min(minLin, rad*(s1*math.Cos(th)+s2*math.Sin(th)))
				// edge between vertex j and j+1 has outward normal at θ_j + π/d, apothem cos(π/d)
				g := (f1*math.Cos(th+half) + f2*math.Sin(th+half)) / math.Cos(half)
				gauge = max(gauge, g)
			}
		}
		c.note(&c.rep.FrictionFeasibility, (gauge-rad)*tkk, "friction feasibility", k)
		if rad > 0 {
			gap := s1*f1 + s2*f2 - minLin
			c.note(&c.rep.FrictionOptimality, gap/rad, "friction optimality", k)
		}
	}
}
