package deform

import (
	"fmt"
	"math"

	"github.com/go-gl/mathgl/mgl64"
)

// frameNewtonIterations and frameNewtonTolerance bound the Newton iteration of a floating-frame
// StVK step: it stops when the modal velocity changes by less than the tolerance relative to its
// size (or to frameNewtonFloor √m for a body nearly at rest), and after the bound keeps the
// last linearisation, with which the step is still consistent (below).
const (
	frameNewtonIterations = 16
	frameNewtonTolerance  = 1e-12
	frameNewtonFloor      = 1e-12 // m/s
)

// rigidStrainFraction is the share of the stiffest basis vector's strain energy below which
// NewFrameStVKBody takes a basis vector for a rigid motion (round-off of a zero).
const rigidStrainFraction = 1e-10

// frameStVK is the elastic force of a ModalBody built by NewFrameStVKBody: the reduced
// St. Venant–Kirchhoff force g̃(z) of the basis U (ReducedStVK) in place of the linear modes'
// Ω² z, with the Rayleigh damping D = α I + β P of the rest stiffness P = UᵀKU = K̃(0).
//
// The frame's kinetic coupling is ModalBody's with Φ replaced by U (mass-orthonormal and
// mean-axis, so J(z), S(z) and the modal mass I_r are unchanged), and the step is modal_step.go's
// implicit midpoint scheme with the modal force of the step taken as the average of g̃ along it,
//
//	F(ż̄) = ∫₀¹ g̃(z + s h ż̄) ds = (g̃(z) + 4 g̃(z̄) + g̃(z + h ż̄)) / 6,   z̄ = z + (h/2) ż̄,
//
// (Simpson's rule, exact for the cubic g̃): the average vector field discrete gradient, for which
// h ż̄ · F = W(z_{n+1}) − W(z_n) exactly, so the midpoint rule's energy identity — the modal
// energy changes by pᵀq̇ less the damping — holds for the quartic StVK energy as it does for the
// quadratic one (for which F is Ω² z̄ and the step is ModalBody's). The modal rows
//
//	S̄ᵀ ω̄_b + ż̄ + (h/2)(F(ż̄) + D ż̄) = π + (h/2) ḡ
//
// (S̄ and ḡ at the midpoint, as ModalBody's) are nonlinear in ż̄; Newton's method linearises F at
// ż̄_i with the tangent H = ∂F/∂ż̄ = (h/3) K̃(z̄) + (h/6) K̃(z + h ż̄), giving ModalBody's step with
// the diagonal A replaced by the dense symmetric A = I + (h/2)(D + H) and the right-hand side
// π + (h/2)(ḡ − F(ż̄_i) − D ż̄_i + (D + H) ż̄_i). Each Newton step solves that linearised step as
// ModalBody's is solved — its midpoint configuration by the fixed-point iteration of
// modal_step.go, each iterate exactly (Cholesky of A, the 3 × 3 Schur complement
// J̄ − S̄ A⁻¹ S̄ᵀ and the midpoint-momentum Newton iteration for the rotation) — from ż̄_0 = ż.
// The configuration's iterations cost O(r²) each, the force's linearisation O(r⁴), so the
// configuration is settled inside each Newton step rather than by further Newton steps.
//
// The effective mass is that of the last linearisation, at the contact-free solution:
// M_eff = diag(m I₃, 2 T [J̄ S̄; S̄ᵀ A] Tᵀ), and StepVelocity is the linearised step's q̇ᴾ +
// M_eff⁻¹ p. The contact solve thus sees the step's response to an impulse to first order in the
// impulse; Advance then takes the true force F at the velocity moved with, so the energy identity
// above is exact for the end-of-step momenta whatever the solve did, and only the end velocity's
// consistency with the midpoint rule carries the second-order remainder (h²/2)(F − F_lin),
// quadratic in the contact's change of ż̄.
type frameStVK struct {
	model *ReducedStVK // its own scratch
	r     int
	damp  []float64 // D = α I + β P, r × r

	f0, fm, f1 []float64    // g̃ at z_n, z̄ and z_{n+1}
	km, k1     []float64    // K̃ at z̄ and z_{n+1}
	zm, z1     []float64    // z̄ and z_{n+1}
	force      []float64    // F(ż̄) + D ż̄ at the velocity last evaluated
	lin, next  []float64    // the linearisation point and its step's modal velocity
	a, chol    []float64    // A and its Cholesky factor
	rhs, y     []float64    // the linearised right-hand side and A⁻¹ rhs
	base       []float64    // rhs less (h/2) g_qv
	wbar       mgl64.Vec3   // the linearised step's ω̄_b
	w          []mgl64.Vec3 // row k of A⁻¹ Sᵀ
	col        []float64    // solve scratch
}

// NewFrameStVKBody returns the reduced St. Venant–Kirchhoff body on a floating frame of mesh m,
// material mat and lumped vertex masses mass, in the basis (mass-orthonormal and mean-axis: a free
// body's ModalDerivativeBasis, fixed nil) on which model was computed (NewReducedStVK or
// CachedReducedStVK), with Rayleigh damping D = α I + β UᵀKU (the rest stiffness, as the linear
// modal body's α + β ω_k²). It is a ModalBody whose modal force is the reduced StVK force
// (frame_stvk.go) and whose modal coordinates are the basis coordinates, at rest like
// NewModalBody's. It refuses a nil mesh or model, an invalid material, a model computed for
// another mesh, material or basis, a basis vector without strain energy (rigid), and everything
// NewModalBody refuses, naming the argument.
func NewFrameStVKBody(m *TetMesh, mat Material, mass []float64, basis [][]float64, model *ReducedStVK, alpha, beta float64) (*ModalBody, error) {
	const fn = "NewFrameStVKBody"
	switch {
	case m == nil:
		return nil, fmt.Errorf("deform: %s: needs a mesh", fn)
	case model == nil:
		return nil, fmt.Errorf("deform: %s: needs a reduced StVK model", fn)
	case len(basis) != model.r:
		return nil, fmt.Errorf("deform: %s basis: %d vectors, the model has %d", fn, len(basis), model.r)
	}
	if err := mat.Validate(); err != nil {
		return nil, err
	}
	if reducedDigest(m, mat, basis) != model.digest {
		return nil, fmt.Errorf("deform: %s model: computed for another mesh, material or basis", fn)
	}
	r := model.r
	// The rest stiffness's diagonal stands in for ω² where NewModalBody's checks want one: a basis
	// vector that strains the body has u_kᵀ K u_k > 0.
	omega2 := make([]float64, r)
	stiffest := 0.0
	for k := range omega2 {
		omega2[k] = model.p[k*r+k]
		stiffest = math.Max(stiffest, omega2[k])
	}
	for k, w := range omega2 {
		if !(w > rigidStrainFraction*stiffest) {
			return nil, fmt.Errorf("deform: %s basis[%d]: no strain energy (uᵀKu = %.3g of the stiffest's %.3g): a rigid motion", fn, k, w, stiffest)
		}
	}
	b, err := newModalBody(fn, m, mass, &Modes{Omega2: omega2, Shapes: basis}, alpha, beta)
	if err != nil {
		return nil, err
	}
	own := *model
	own.s, own.t, own.u = make([]float64, model.np), make([]float64, model.np), make([]float64, model.np)
	e := &frameStVK{model: &own, r: r}
	vec := func() []float64 { return make([]float64, r) }
	e.f0, e.fm, e.f1, e.zm, e.z1, e.force = vec(), vec(), vec(), vec(), vec(), vec()
	e.lin, e.next, e.rhs, e.y, e.col, e.base = vec(), vec(), vec(), vec(), vec(), vec()
	e.km, e.k1, e.a, e.chol = make([]float64, r*r), make([]float64, r*r), make([]float64, r*r), make([]float64, r*r)
	e.w = make([]mgl64.Vec3, r)
	e.damp = make([]float64, r*r)
	for i := range e.damp {
		e.damp[i] = beta * model.p[i]
	}
	for k := 0; k < r; k++ {
		e.damp[k*r+k] += alpha
	}
	b.stvk = e
	return b, nil
}

// energy returns W(z), J.
func (e *frameStVK) energy(z []float64) float64 {
	w, _ := e.model.Energy(z) // z is finite: SetState and the step keep it so
	return w
}

// average sets force to F(ż̄) + D ż̄ for the modal velocity zd over a step of h from the body's z
// (f0 already g̃(z)), and with tangent the tangents K̃(z̄) and K̃(z + h ż̄) in km and k1.
func (e *frameStVK) average(b *ModalBody, h float64, zd []float64, tangent bool) error {
	r := e.r
	for k := 0; k < r; k++ {
		e.zm[k] = b.z[k] + 0.5*h*zd[k]
		e.z1[k] = b.z[k] + h*zd[k]
	}
	km, k1 := e.km, e.k1
	if !tangent {
		km, k1 = nil, nil
	}
	if err := e.model.Evaluate(e.zm, e.fm, km); err != nil {
		return err
	}
	if err := e.model.Evaluate(e.z1, e.f1, k1); err != nil {
		return err
	}
	for k := 0; k < r; k++ {
		s := (e.f0[k] + 4*e.fm[k] + e.f1[k]) / 6
		row := e.damp[k*r : (k+1)*r]
		for l, v := range zd[:r] {
			s += row[l] * v
		}
		e.force[k] = s
	}
	return nil
}

// predict solves the step's velocity equations by Newton's method as frameStVK describes, from
// the start-of-step momenta in b.step (pi, gqv) and the body-frame angular momentum lb, and
// leaves the last linearisation's A (and its factor), right-hand side, A⁻¹ rhs, A⁻¹ Sᵀ, inverse
// Schur complement and midpoint momentum for stepVelocity and EffectiveMass.
func (e *frameStVK) predict(b *ModalBody, h float64, lb mgl64.Vec3) error {
	st := &b.step
	r := e.r
	if err := e.model.Evaluate(b.z, e.f0, nil); err != nil {
		return fmt.Errorf("deform: ModalBody.PredictVelocity: %v", err)
	}
	copy(e.lin, b.zd)
	floor := frameNewtonFloor * math.Sqrt(b.mass)
	for it := 0; it < frameNewtonIterations; it++ {
		if err := e.average(b, h, e.lin, true); err != nil {
			return fmt.Errorf("deform: ModalBody.PredictVelocity: Newton iterate: %v", err)
		}
		for k := 0; k < r; k++ {
			hl := 0.0
			for l := 0; l < r; l++ {
				d := e.damp[k*r+l] + h/3*e.km[k*r+l] + h/6*e.k1[k*r+l]
				hl += d * e.lin[l]
				e.a[k*r+l] = 0.5 * h * d
			}
			e.a[k*r+k]++
			e.base[k] = st.pi[k] + 0.5*h*(hl-e.force[k])
		}
		if !e.factor() {
			return fmt.Errorf("deform: ModalBody.PredictVelocity: the step's modal mass is not finite")
		}
		// The midpoint configuration for this linearisation of the force (modal_step.go). While
		// the force's linearisation is far off, settling the configuration for it is wasted: the
		// n-th Newton step iterates it at most 2ⁿ⁻¹ times, and the Newton iteration ends only
		// with the configuration settled.
		settled, last := false, math.Inf(1)
		for in := 0; in < configIterations; in++ {
			if err := e.solveLinearised(b, h, lb); err != nil {
				return err
			}
			change, size := b.midpointChange(e.wbar, e.next)
			if !finite(change) {
				return fmt.Errorf("deform: ModalBody.PredictVelocity: Newton iterate not finite")
			}
			if change <= configTolerance*math.Max(size, floor) || (in > 0 && change >= last) {
				settled = true
				break
			}
			if in+1 >= 1<<it {
				break
			}
			last = change
		}
		change, size := 0.0, 0.0
		for k := 0; k < r; k++ {
			change = math.Max(change, math.Abs(e.next[k]-e.lin[k]))
			size = math.Max(size, math.Abs(e.next[k]))
		}
		if settled && change <= frameNewtonTolerance*math.Max(size, floor) {
			break
		}
		if it+1 < frameNewtonIterations {
			copy(e.lin, e.next)
		}
	}
	return nil
}

// solveLinearised solves the step linearised at e.lin (A factored, e.base its right-hand side
// without g_qv) with M and g_qv at the midpoint of the last iterate (st.wbar, st.zdbar), leaving
// the right-hand side, A⁻¹ rhs, A⁻¹ S̄ᵀ, the inverse Schur complement and the midpoint momentum
// for stepVelocity, and the solution's ω̄_b and ż̄ in e.wbar and e.next.
func (e *frameStVK) solveLinearised(b *ModalBody, h float64, lb mgl64.Vec3) error {
	st := &b.step
	r := e.r
	b.setMidpoint(h, st.wbar, st.zdbar)
	for k := 0; k < r; k++ {
		e.rhs[k] = e.base[k] + 0.5*h*st.gqv[k]
	}
	copy(e.y, e.rhs)
	cholSolve(e.chol, e.y, r)
	for i := 0; i < 3; i++ {
		for l, s := range st.sbar {
			e.col[l] = s[i]
		}
		cholSolve(e.chol, e.col, r)
		for l := range e.w {
			e.w[l][i] = e.col[l]
		}
	}
	schur := st.jbar
	var c mgl64.Vec3
	for l, s := range st.sbar {
		schur = schur.Sub(outer(s, e.w[l]))
		c = c.Add(s.Mul(e.y[l]))
	}
	gInv, ok := inverse3(symmetric3(schur))
	if !ok {
		return fmt.Errorf("deform: ModalBody.PredictVelocity: the rotational mass is singular (inertia %v)", st.jbar)
	}
	st.mbar = midpointMomentum(lb, c, gInv, h)
	st.gInv = gInv
	e.wbar = gInv.Mul3x1(st.mbar.Sub(c))
	for k := 0; k < r; k++ {
		e.next[k] = e.y[k] - e.w[k].Dot(e.wbar)
	}
	return nil
}

// factor factors A by Cholesky's method. Under strong compression StVK's tangent stiffness can be
// so negative that A is indefinite; A is then shifted by τ I, τ a tenth of its largest diagonal
// entry and doubled until the factorisation succeeds (at most 60 times). Newton's method with the
// shifted Jacobian converges to the same solution (the residual is exact), linearly, and the
// step's effective mass stays positive definite, stiffer than the step's own response to contact
// for as long as the shift lasts. It reports false for a non-finite A.
func (e *frameStVK) factor() bool {
	r := e.r
	if cholesky(e.a, e.chol, r) {
		return true
	}
	big := 0.0
	for k := 0; k < r; k++ {
		big = math.Max(big, math.Abs(e.a[k*r+k]))
	}
	if !finite(big) {
		return false
	}
	tau := 0.1 * big
	for range 60 {
		for k := 0; k < r; k++ {
			e.a[k*r+k] += tau
		}
		if cholesky(e.a, e.chol, r) {
			return true
		}
		tau *= 2
	}
	return false
}

// stepVelocity writes the linearised step's velocity for the impulse p (nil: none) given the
// linear velocity v and the body momentum m (the contact-free midpoint momentum plus half the
// angular impulse): ż̄ = A⁻¹(rhs + ½ p_z − Sᵀ ω̄_b), (J − S A⁻¹ Sᵀ) ω̄_b = m − S A⁻¹(rhs + ½ p_z).
func (e *frameStVK) stepVelocity(b *ModalBody, v, m mgl64.Vec3, p, dst []float64) {
	y := e.y
	if p != nil {
		y = e.col
		for k := range y {
			y[k] = e.rhs[k] + 0.5*p[6+k]
		}
		cholSolve(e.chol, y, e.r)
	}
	for k, s := range b.step.sbar {
		m = m.Sub(s.Mul(y[k]))
	}
	wbar := b.step.gInv.Mul3x1(m)
	w := b.rotation.Mul3x1(wbar)
	dst[0], dst[1], dst[2] = v[0], v[1], v[2]
	dst[3], dst[4], dst[5] = w[0], w[1], w[2]
	for k := range y {
		dst[6+k] = y[k] - e.w[k].Dot(wbar)
	}
}

// stepForce sets force to the internal force over the step, F(ż̄) + D ż̄, for the modal velocity
// zd the body moves with (f0 is g̃(z) from predict).
func (e *frameStVK) stepForce(b *ModalBody, h float64, zd []float64) error {
	if err := e.average(b, h, zd, false); err != nil {
		return fmt.Errorf("deform: ModalBody.Advance: %v", err)
	}
	return nil
}
