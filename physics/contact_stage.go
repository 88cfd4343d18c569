package physics

import (
	"errors"
	"fmt"
	"math"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/stagger-physics/stagger/solver"
)

// contactRef names one contact point of the step: point i of pair p.
type contactRef struct {
	pair, point int
}

// contactStage turns the step's manifolds into one solver.Problem per island, solves each with
// Staggered Projections (or the configured baseline), and leaves the constrained velocity q̇ᵗ⁺¹
// and the contact impulse M(q̇ᵗ⁺¹ − q̇ᴾ) of every body that touched something. A warm stage does
// not allocate.
type contactStage struct {
	solver *solver.Solver
	// fallback solves an island again when the configured solver could not make the contact
	// projection exact: projected Gauss–Seidel, which is inexact but bounded, so a failed solve
	// never hands the step a wild velocity (DESIGN.md, "Errors").
	fallback *solver.Solver
	problem  solver.Problem
	result   solver.Result
	isl      islands
	refs     []contactRef
	block    []int     // per model: its block in the current island's problem
	qdot     []float64 // q̇ᵗ⁺¹ in the step's layout (valid for bodies in an island)
	impulse  []float64 // M(q̇ᵗ⁺¹ − q̇ᴾ) in the step's layout
	mass     []float64 // scratch mass block
	jac      []float64 // scratch point Jacobian, 3 × block size
}

// contactStats is what the stage reports about one step.
type contactStats struct {
	contacts, islands, iterations, converged, fallbacks int
	minGap                                              float64
}

// run solves the contacts of the step. models and layout are the step's dynamic bodies, qdotP
// their predictor velocity; bodies and pairs come from the collision world; h is the step.
func (cs *contactStage) run(h float64, models []rigidModel, layout *Layout, qdotP []float64, world *collisionWorld, cfg *Config) (contactStats, error) {
	var st contactStats
	st.minGap = math.Inf(1)
	cs.refs = cs.refs[:0]
	for p := range world.pairs {
		for i := 0; i < world.pairs[p].manifold.Count; i++ {
			cs.refs = append(cs.refs, contactRef{pair: p, point: i})
			st.minGap = math.Min(st.minGap, world.pairs[p].manifold.Points[i].Gap)
		}
	}
	st.contacts = len(cs.refs)
	if st.contacts == 0 {
		st.minGap = 0
	}
	modelOf := func(p int) (int, int) {
		pr := world.pairs[p].pair
		return world.bodies[world.proxies[pr.A].body].model, world.bodies[world.proxies[pr.B].body].model
	}
	cs.isl.reset(len(models))
	for p := range world.pairs {
		if a, b := modelOf(p); a >= 0 && b >= 0 {
			cs.isl.union(a, b)
		}
	}
	st.islands = cs.isl.build(len(models), len(cs.refs), func(k int) int {
		a, b := modelOf(cs.refs[k].pair)
		if a >= 0 {
			return a
		}
		return b
	})
	n := layout.DoFs()
	cs.qdot = grow(cs.qdot, n)
	cs.impulse = grow(cs.impulse, n)
	cs.block = growInts(cs.block, len(models))
	for is := 0; is < st.islands; is++ {
		iters, converged, fellBack, err := cs.solveIsland(is, h, models, layout, qdotP, world, cfg)
		if err != nil {
			return st, err
		}
		st.iterations += iters
		if converged {
			st.converged++
		}
		if fellBack {
			st.fallbacks++
		}
	}
	return st, nil
}

// solveIsland assembles island is into the problem, solves it and scatters the answer. It reports
// the staggered iterations, whether the solve met ε with an exact contact projection, and whether
// the island had to fall back to the bounded baseline.
func (cs *contactStage) solveIsland(is int, h float64, models []rigidModel, layout *Layout, qdotP []float64, world *collisionWorld, cfg *Config) (int, bool, bool, error) {
	p := &cs.problem
	p.Reset()
	bodies := cs.isl.bodies[cs.isl.bodyStart[is]:cs.isl.bodyStart[is+1]]
	for _, mi := range bodies {
		m := &models[mi]
		size := m.DoFs()
		b := p.AddBlock(size)
		cs.block[mi] = b
		cs.mass = grow(cs.mass, size*size)
		m.MassBlock(cs.mass)
		if err := p.SetMass(b, cs.mass); err != nil {
			return 0, false, false, fmt.Errorf("physics: body %d: %w", mi, err)
		}
		off := p.BlockAt(b).Offset
		copy(p.QdotP[off:off+size], layout.Span(qdotP, mi))
		m.Velocity(p.QdotT[off : off+size])
	}
	contacts := cs.isl.contacts[cs.isl.contactStart[is]:cs.isl.contactStart[is+1]]
	for _, k := range contacts {
		cs.addContact(k, h, models, world, cfg)
	}
	err := cs.solver.Solve(p, &cs.result)
	if err != nil && !isSolveError(err) {
		return 0, false, false, fmt.Errorf("physics: contact problem: %w", err)
	}
	res := &cs.result
	iters := res.Stats.Iterations
	exact := err == nil && (res.Stats.Method != solver.MethodSP || res.Stats.ContactExact)
	converged := exact && res.Stats.Converged
	fellBack := !exact && res.Stats.Method != solver.MethodPGS
	if fellBack {
		if err := cs.fallback.Solve(p, &cs.result); err != nil && !isSolveError(err) {
			return 0, false, false, fmt.Errorf("physics: contact problem: %w", err)
		}
	}
	for _, mi := range bodies {
		bl := p.BlockAt(cs.block[mi])
		q := res.Qdot[bl.Offset : bl.Offset+bl.Size]
		dst := layout.Span(cs.qdot, mi)
		copy(dst, q)
		// The contact impulse M(q̇ᵗ⁺¹ − q̇ᴾ) (paper eq. 13 rearranged).
		m := &models[mi]
		cs.mass = grow(cs.mass, bl.Size*bl.Size)
		m.MassBlock(cs.mass)
		imp := layout.Span(cs.impulse, mi)
		qp := layout.Span(qdotP, mi)
		for r := 0; r < bl.Size; r++ {
			acc := 0.0
			for c := 0; c < bl.Size; c++ {
				acc += cs.mass[r*bl.Size+c] * (q[c] - qp[c])
			}
			imp[r] = acc
		}
	}
	for j, k := range contacts {
		ref := cs.refs[k]
		st := &world.pairs[ref.pair]
		c := &st.manifold.Points[ref.point]
		t1, t2 := tangentBasis(c.Normal)
		st.alpha[ref.point] = res.Alpha[j]
		st.friction[ref.point] = t1.Mul(res.Friction[2*j]).Add(t2.Mul(res.Friction[2*j+1]))
	}
	return iters, converged, fellBack, nil
}

// addContact appends contact k to the problem: its Jacobian rows per dynamic side (Γ = ∇x_B − ∇x_A,
// DESIGN.md), the gap term b, the combined material, and the warm start carried by feature id.
func (cs *contactStage) addContact(k int, h float64, models []rigidModel, world *collisionWorld, cfg *Config) {
	ref := cs.refs[k]
	st := &world.pairs[ref.pair]
	c := &st.manifold.Points[ref.point]
	ba := &world.bodies[world.proxies[st.pair.A].body]
	bb := &world.bodies[world.proxies[st.pair.B].body]
	n := c.Normal
	t1, t2 := tangentBasis(n)
	b := gapTerm(c.Gap, h, cfg)
	sides := [2]*collisionBody{ba, bb}
	blocks := [2]int{-1, -1}
	for s, body := range sides {
		sign := 1.0
		if s == 0 {
			sign = -1
		}
		if body.model >= 0 {
			blocks[s] = cs.block[body.model]
			continue
		}
		if body.body.Kind == Kinematic {
			// A kinematic side's known point velocity enters the constant term.
			v := body.body.LinearVelocity.Add(body.body.AngularVelocity.Cross(c.Point.Sub(body.body.Position)))
			b += sign * n.Dot(v)
		}
	}
	mu := combineFriction(ba.material[0], bb.material[0])
	e := combineRestitution(ba.material[1], bb.material[1])
	idx := cs.problem.AddContact(blocks[0], blocks[1], b, mu, e)
	for s, body := range sides {
		if body.model < 0 {
			continue
		}
		m := &models[body.model]
		size := m.DoFs()
		cs.jac = grow(cs.jac, 3*size)
		m.PointJacobian(c.Point, cs.jac)
		rows := cs.problem.RowsA(idx)
		sign := -1.0
		if s == 1 {
			rows = cs.problem.RowsB(idx)
			sign = 1
		}
		for r, d := range [3]mgl64.Vec3{n, t1, t2} {
			row := rows[r*size : (r+1)*size]
			for col := 0; col < size; col++ {
				row[col] = sign * (d[0]*cs.jac[col] + d[1]*cs.jac[size+col] + d[2]*cs.jac[2*size+col])
			}
		}
	}
	con := cs.problem.Contact(idx)
	con.WarmNormal = st.alpha[ref.point]
	f := st.friction[ref.point]
	con.WarmFriction = [2]float64{f.Dot(t1), f.Dot(t2)}
}

// gapTerm is the constant b_k of the contact constraint n_kᵀq̇ + b_k ≥ 0 for a contact with signed
// gap φ (DESIGN.md, "The formulation"). A speculative contact (φ > 0) allows approach at up to
// φ/h, so the bodies close the gap in the step but do not pass it. A penetrating contact (φ < 0)
// asks for a separation speed of PenetrationRecovery·|φ|/h, at most MaxRecoverySpeed; with the
// default recovery of 0 this is the paper's b = 0: no further penetration, and no energy added.
func gapTerm(gap, h float64, cfg *Config) float64 {
	if gap >= 0 {
		return gap / h
	}
	return math.Max(cfg.PenetrationRecovery*gap/h, -cfg.MaxRecoverySpeed)
}

// tangentBasis returns a right-handed orthonormal pair (t₁, t₂) spanning the plane normal to the
// unit vector n, chosen from n alone, so the same normal always gets the same basis.
func tangentBasis(n mgl64.Vec3) (mgl64.Vec3, mgl64.Vec3) {
	// Project the world axis least aligned with n.
	a := mgl64.Vec3{1, 0, 0}
	if ax, ay, az := math.Abs(n[0]), math.Abs(n[1]), math.Abs(n[2]); ax > ay || ax > az {
		if ay <= az {
			a = mgl64.Vec3{0, 1, 0}
		} else {
			a = mgl64.Vec3{0, 0, 1}
		}
	}
	t1 := a.Sub(n.Mul(a.Dot(n))).Normalize()
	return t1, n.Cross(t1)
}

// isSolveError reports whether err says the solver fell short of its accuracy (its result is then
// the best iterate, finite and still usable) rather than that the problem was malformed.
func isSolveError(err error) bool {
	var serr *solver.SolveError
	return errors.As(err, &serr)
}
