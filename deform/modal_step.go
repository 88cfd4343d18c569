package deform

import (
	"fmt"
	"math"

	"github.com/go-gl/mathgl/mgl64"
)

// The step of a ModalBody: the predictor of the Staggered Projections paper's eq. 12, which the
// contact corrector (eq. 13) then adjusts. The paper's §8 scheme is IMEX, explicit in the rigid
// motion's configuration and in the quadratic-velocity forces g_qv (eq. 11) and implicit in the
// internal elastic and damping forces; this one is implicit in all of them but the frame's
// translation: the midpoint rule, with the mass matrix and g_qv at the midpoint, so that the
// energy the rotation and the modes exchange is kept to second order.
//
// The equations of motion in momentum form, for the momenta p = M(z) q̇ — linear m v, angular
// L = R (J ω_b + S ż) about the centre of mass (world frame) and modal π = Sᵀ ω_b + ż (ω_b = Rᵀω) —
// are
//
//	ṗ_lin = m g,   L̇ = 0,   π̇_k = ∂T/∂z_k − ω_k² z_k − (α + β ω_k²) ż_k,
//	∂T/∂z_k = ½ ω_bᵀ (∂J/∂z_k) ω_b + ω_bᵀ (∂S/∂z_k) ż,
//
// the last being g_qv's modal part (centrifugal and Coriolis loads on the modes); in the world
// frame the angular momentum has no quadratic-velocity term, and a uniform gravity exerts neither
// torque about the centre of mass nor modal force on mean-axis modes. The step applies the
// implicit midpoint rule to the modes and to the rotation, with M and g_qv at the midpoint:
//
//	J̄ ω̄_b + S̄ ż̄ = m̄,   m̄ = L_b + (h/2) m̄ × ω̄_b,
//	S̄ᵀ ω̄_b + ż̄ = π̄,    π̄ = π + (h/2) (ḡ − Ω² z̄ − D ż̄),   z̄ = z + (h/2) ż̄,
//
// with J̄ = J(z̄), S̄ = S(z̄) and ḡ = g_qv(z̄, ω̄_b, ż̄). The midpoint momenta m̄ and π̄ are the means
// of the start and end ones (for the body momentum through the Cayley map that turns the frame:
// L_b' = L_b − h ω̄_b × m̄ is Rᵀ L at the turned frame), so this is the midpoint rule of the
// equations of motion in momentum form. The modal rows, with ż̄ moved to the left, are
// S̄ᵀ ω̄_b + A ż̄ = π + (h/2)(ḡ − Ω² z) with the diagonal A_k = 1 + (h/2)(α + β ω_k²) + (h²/4) ω_k²:
// for a given midpoint configuration the modal block decouples mode by mode, and eliminating ż̄
// leaves a 3 × 3 Schur complement J̄ − S̄ A⁻¹ S̄ᵀ for ω̄_b, solved inside the rigid body's Newton
// iteration for the midpoint momentum m̄ (as physics/gyroscopic.go does for a rigid body). The
// midpoint configuration itself is found by a fixed-point iteration: each iterate takes J̄, S̄
// and ḡ at the last iterate's (z̄, ω̄_b, ż̄) — the first at the start-of-step velocity — and
// solves that step exactly. It contracts by about (h/2)|ω|, so a few iterations reach the
// tolerance (configTolerance, in the kinetic norm). Its solution (v + h g, R ω̄_b, ż̄) is the
// predicted velocity q̇ᴾ of eq. 12: the velocity over the step, which moves the body and which
// contacts constrain.
//
// A contact impulse p = (p_v, p_ω, p_z) (world force and angular impulses, modal impulses) acts in
// the step as the momentum balance over it says: the end-of-step momenta gain p, and since the
// midpoint momenta are the means of the start and end ones, the midpoint equations gain half of
// it,
//
//	v̄ = v + h g + p_v / m,
//	J̄ ω̄_b + S̄ ż̄ = m̄ + ½ Rᵀp_ω,   S̄ᵀ ω̄_b + A ż̄ = π + (h/2)(ḡ − Ω² z) + ½ p_z,
//
// with m̄ the contact-free midpoint momentum and J̄, S̄ and ḡ those of the contact-free midpoint
// (the gyroscopic part m̄ × ω̄_b and the midpoint configuration frozen at the contact-free
// solution, so that the step is linear in p; the linear velocity is the semi-implicit Euler one
// that moves a rigid body). The velocity over the step is therefore q̇ = q̇ᴾ + M_eff⁻¹ p exactly,
// with the effective mass (world frame, T = diag(R, I_r), R the start-of-step rotation)
//
//	M_eff = diag(m I₃, 2 T [J̄ S̄; S̄ᵀ A] Tᵀ),
//
// symmetric positive definite (A ≥ I and [J̄ S̄; S̄ᵀ I] = M(z̄)'s lower block is). EffectiveMass writes
// it and StepVelocity evaluates the map; a contact solve that takes M_eff as the body's mass
// constrains the velocity the body actually moves with, and its impulse M_eff (q̇ − q̇ᴾ) is the p
// that Advance adds to the momenta. The kinetic mass M(z) would not do: a stiff mode (h ω ≳ 1)
// answers an impulse by 1/(2 A_k), not 1, so a solve with M(z) pushes the wrong velocity and the
// end-of-step state carries energy the contact never removed (hundreds of joules per step for a
// 0.4 m block of 1 MPa landing on a corner at h = 0.01).
//
// With M_eff the step's energy balance is that of the midpoint rule: the change of
// ½ q̇ᵀMq̇ + ½ zᵀΩ²z over the step is pᵀq̇ − h ż̄ᵀ D ż̄ (exactly for a constant M, to O(h³) per step
// for M(z), below), and the translation's semi-implicit Euler loses a further |p_v + m h g|²/(2m).
// A contact impulse does no positive work on the velocity it constrains (non-penetration, maximal
// dissipation), so contact cannot add energy. The midpoint rule makes a stiff mode's contact
// elastic (an impulse that stops the midpoint velocity reverses the end-of-step one), as an
// undamped elastic body is; Rayleigh damping and friction take the energy out.
//
// Advance moves the frame and the modes by h times the (constrained) velocity — the orientation by
// the Cayley map of h ω̄_b — and sets the end-of-step momenta: L plus the angular impulse, and
// π plus h (ḡ − Ω² z̄ − D ż̄) for the velocity actually taken, plus the modal impulse (which
// equals 2 π̄ − π, π̄ = S̄ᵀ ω̄_b + ż̄, for the velocity StepVelocity gives). The end-of-step velocity
// is the one these momenta have at the new configuration, so the world angular momentum is carried
// across the step exactly, and for the linear oscillator of an undeformed, non-spinning body the
// midpoint rule keeps ½ ż² + ½ ω² z² exactly (its frequency is ω's to (hω)²/12).
//
// The energy exchanged between rotation and modes is the midpoint rule's too: with M(z̄) and ḡ at
// the midpoint, the free undamped body's energy changes by O(h³) per step, and the scheme being
// symmetric the error oscillates rather than accumulates. (Frozen at the start of the step they
// made the exchange first order: the energy drifted by O(h) per unit time, and centimetre
// vibrations of a soft spinning bar diverged at h = 0.01.) For the 0.6 m bar of
// TestModalBodyConservesMomentumAndEnergy spinning at 1.6 rad/s with millimetre vibrations the
// energy stays within 2e-6 over 1,000 steps of 0.01 s (0.15 % when frozen); with vibrations of
// 6.6 cm (strain energy up to 16 J) within 0.4 % at h = 0.01 and 0.007 % at h = 0.001
// (TestModalBodyKeepsEnergyVibratingByCentimetres). The iteration costs a few evaluations of J,
// S and g_qv, O(r²) each, where the frozen step took one.

// modalStep holds what PredictVelocity computed for Advance, EffectiveMass and StepVelocity.
type modalStep struct {
	ready  bool
	h      float64
	lWorld mgl64.Vec3 // start-of-step angular momentum about the centre of mass, world
	pi     []float64  // start-of-step modal momenta
	gqv    []float64  // the quadratic-velocity forces at the midpoint
	rhs, a []float64  // the modal right-hand sides and diagonal A
	v      mgl64.Vec3 // the predicted linear velocity v + h g
	mbar   mgl64.Vec3 // the contact-free midpoint body momentum m̄
	gInv   mgl64.Mat3 // (J̄ − S̄ A⁻¹ S̄ᵀ)⁻¹

	// The midpoint configuration and velocity of the last iterate: z̄, J(z̄), the columns of S(z̄),
	// ω̄_b and ż̄, and the B_k of z̄ (configurationAt; also updateConfiguration's scratch).
	zbar  []float64
	jbar  mgl64.Mat3
	sbar  []mgl64.Vec3
	wbar  mgl64.Vec3
	zdbar []float64
	bk    []sym3
	next  []float64 // the new iterate's modal velocity
}

func (s *modalStep) init(r int) {
	s.pi, s.gqv = make([]float64, r), make([]float64, r)
	s.rhs, s.a = make([]float64, r), make([]float64, r)
	s.zbar, s.zdbar, s.next = make([]float64, r), make([]float64, r), make([]float64, r)
	s.sbar, s.bk = make([]mgl64.Vec3, r), make([]sym3, r)
}

// midpointIterations bounds the Newton iterations of the midpoint momentum.
const midpointIterations = 24

// The fixed-point iteration of the midpoint configuration (M(z̄) and g_qv at the last iterate)
// stops when the midpoint velocity changes by less than configTolerance of its size in the
// kinetic norm √(ω̄ᵀJω̄ + |ż̄|²) (or of configFloor √m for a body nearly at rest), when the change
// stops shrinking (round-off), or after configIterations.
const (
	configIterations = 16
	configTolerance  = 1e-12
	configFloor      = 1e-12 // m/s
)

// setMidpoint sets the step's midpoint configuration to z̄ = z + (h/2) zd: z̄, J(z̄), S(z̄), and the
// quadratic-velocity forces at z̄ for the body-frame angular velocity wb and the modal velocity zd.
func (b *ModalBody) setMidpoint(h float64, wb mgl64.Vec3, zd []float64) {
	st := &b.step
	for k, z := range b.z {
		st.zbar[k] = z + 0.5*h*zd[k]
	}
	st.jbar = b.configurationAt(st.zbar, st.bk, st.sbar)
	b.quadraticForces(st.bk, wb, zd, st.gqv)
}

// midpointChange returns the kinetic norms of the change of the midpoint velocity from the last
// iterate (st.wbar, st.zdbar) to (wb, zd), and of (wb, zd), and makes (wb, zd) the last iterate.
func (b *ModalBody) midpointChange(wb mgl64.Vec3, zd []float64) (change, size float64) {
	st := &b.step
	dw := wb.Sub(st.wbar)
	change, size = quadForm(&st.jbar, dw), quadForm(&st.jbar, wb)
	for k, v := range zd[:b.r] {
		d := v - st.zdbar[k]
		change += d * d
		size += v * v
		st.zdbar[k] = v
	}
	st.wbar = wb
	return math.Sqrt(change), math.Sqrt(size)
}

// PredictVelocity writes q̇ᴾ, the generalised velocity over a step of length h in the uniform
// gravity g without contact (eq. 12 by the scheme above), into dst (6 + r entries), and keeps what
// Advance needs. It refuses a non-positive or non-finite h, a non-finite g and a short dst.
func (b *ModalBody) PredictVelocity(h float64, g mgl64.Vec3, dst []float64) error {
	switch {
	case !(h > 0) || !finite(h):
		return fmt.Errorf("deform: ModalBody.PredictVelocity h: must be finite and > 0, got %v", h)
	case !finiteVec3(g):
		return fmt.Errorf("deform: ModalBody.PredictVelocity g: not finite: %v", g)
	case len(dst) < 6+b.r:
		return fmt.Errorf("deform: ModalBody.PredictVelocity dst: %d entries, want %d", len(dst), 6+b.r)
	}
	st := &b.step
	wb := b.rotation.Transpose().Mul3x1(b.angularVel)
	lb := b.bodyMomenta(wb, st.pi)
	st.lWorld = b.rotation.Mul3x1(lb)
	st.wbar = wb
	copy(st.zdbar, b.zd)
	st.v = b.velocity.Add(g.Mul(h))
	st.h = h
	if b.stvk != nil {
		if err := b.stvk.predict(b, h, lb); err != nil {
			return err
		}
	} else if err := b.predictLinear(h, lb); err != nil {
		return err
	}
	st.ready = true
	b.stepVelocity(nil, dst)
	return nil
}

// predictLinear solves the linear modal body's step from the start-of-step body momentum lb and
// modal momenta st.pi by the fixed-point iteration of the midpoint configuration: each iterate
// freezes J, S and g_qv at the last iterate's midpoint and solves the step exactly,
// ż̄ = A⁻¹(rhs − S̄ᵀ ω̄_b), (J̄ − S̄ A⁻¹ S̄ᵀ) ω̄_b = m̄ − S̄ A⁻¹ rhs, with m̄ by the Newton iteration of
// the midpoint momentum.
func (b *ModalBody) predictLinear(h float64, lb mgl64.Vec3) error {
	st := &b.step
	r := b.r
	for k := 0; k < r; k++ {
		st.a[k] = 1 + 0.5*h*(b.alpha+b.beta*b.omega2[k]) + 0.25*h*h*b.omega2[k]
	}
	floor := configFloor * math.Sqrt(b.mass)
	last := math.Inf(1)
	for it := 0; it < configIterations; it++ {
		b.setMidpoint(h, st.wbar, st.zdbar)
		// J̄ − S̄ A⁻¹ S̄ᵀ, accumulated by its six entries, and S̄ A⁻¹ rhs.
		var ss sym3
		var c mgl64.Vec3
		for k, s := range st.sbar {
			st.rhs[k] = st.pi[k] + 0.5*h*(st.gqv[k]-b.omega2[k]*b.z[k])
			ia := 1 / st.a[k]
			ss.addOuter(s, s, ia)
			f := st.rhs[k] * ia
			c[0] += f * s[0]
			c[1] += f * s[1]
			c[2] += f * s[2]
		}
		schur := st.jbar
		schur[0] -= ss[0]
		schur[4] -= ss[1]
		schur[8] -= ss[2]
		schur[1] -= ss[3]
		schur[3] -= ss[3]
		schur[2] -= ss[4]
		schur[6] -= ss[4]
		schur[5] -= ss[5]
		schur[7] -= ss[5]
		gInv, ok := inverse3(symmetric3(schur))
		if !ok {
			return fmt.Errorf("deform: ModalBody.PredictVelocity: the rotational mass is singular (inertia %v)", st.jbar)
		}
		st.mbar = midpointMomentum(lb, c, gInv, h)
		st.gInv = gInv
		wbar := gInv.Mul3x1(st.mbar.Sub(c))
		for k, s := range st.sbar {
			st.next[k] = (st.rhs[k] - s.Dot(wbar)) / st.a[k]
		}
		change, size := b.midpointChange(wbar, st.next)
		if !finite(change) {
			return fmt.Errorf("deform: ModalBody.PredictVelocity: midpoint iterate not finite")
		}
		if change <= configTolerance*math.Max(size, floor) || change >= last {
			break
		}
		last = change
	}
	return nil
}

// stepVelocity writes the velocity over the prepared step when the generalised impulse p (nil:
// none) acts in it: v + h g + p_v/m, and the solution of
//
//	J ω̄_b + S ż̄ = m̄ + ½ p_b,   Sᵀ ω̄_b + A ż̄ = rhs + ½ p_z   (p_b = Rᵀ p_ω)
//
// by the Schur complement, ż̄ = A⁻¹(rhs + ½ p_z − Sᵀ ω̄_b). With p = nil it is q̇ᴾ.
func (b *ModalBody) stepVelocity(p, dst []float64) {
	st := &b.step
	m := st.mbar
	v := st.v
	if p != nil {
		v = v.Add(mgl64.Vec3{p[0], p[1], p[2]}.Mul(1 / b.mass))
		m = m.Add(b.rotation.Transpose().Mul3x1(mgl64.Vec3{p[3], p[4], p[5]}).Mul(0.5))
	}
	if b.stvk != nil {
		b.stvk.stepVelocity(b, v, m, p, dst)
		return
	}
	for k, s := range st.sbar {
		r := st.rhs[k]
		if p != nil {
			r += 0.5 * p[6+k]
		}
		m = m.Sub(s.Mul(r / st.a[k]))
	}
	wbar := st.gInv.Mul3x1(m)
	w := b.rotation.Mul3x1(wbar)
	dst[0], dst[1], dst[2] = v[0], v[1], v[2]
	dst[3], dst[4], dst[5] = w[0], w[1], w[2]
	for k, s := range st.sbar {
		r := st.rhs[k]
		if p != nil {
			r += 0.5 * p[6+k]
		}
		dst[6+k] = (r - s.Dot(wbar)) / st.a[k]
	}
}

// StepVelocity writes into dst (6 + r entries) the velocity over the step PredictVelocity
// prepared when the generalised impulse p (6 + r entries: world force impulse, world angular
// impulse, modal impulses) acts in it — the velocity Advance moves the body with, given p as its
// impulse. It is q̇ᴾ + EffectiveMass⁻¹ p. It refuses an unprepared step and short or non-finite
// vectors.
func (b *ModalBody) StepVelocity(p, dst []float64) error {
	n := 6 + b.r
	switch {
	case !b.step.ready:
		return fmt.Errorf("deform: ModalBody.StepVelocity: call PredictVelocity first")
	case len(p) < n:
		return fmt.Errorf("deform: ModalBody.StepVelocity p: %d entries, want %d", len(p), n)
	case len(dst) < n:
		return fmt.Errorf("deform: ModalBody.StepVelocity dst: %d entries, want %d", len(dst), n)
	}
	for i := 0; i < n; i++ {
		if !finite(p[i]) {
			return fmt.Errorf("deform: ModalBody.StepVelocity p[%d]: not finite", i)
		}
	}
	b.stepVelocity(p, dst)
	return nil
}

// EffectiveMass writes into dst, row-major ((6 + r)² entries), the effective mass of the step
// PredictVelocity prepared: the symmetric positive definite M_eff with StepVelocity(p) =
// q̇ᴾ + M_eff⁻¹ p,
//
//	M_eff = [ m I₃   0          0   ]
//	        [ 0      2 R J Rᵀ   2 R S ]
//	        [ 0      2 Sᵀ Rᵀ    2 A   ],
//
// J = J(z̄), S = S(z̄) and A those of the step (z̄ its contact-free midpoint, R the start-of-step
// rotation). It is what a contact solve must take as the body's mass for the velocity it
// constrains to be the one the body moves with. It refuses an unprepared step and a short dst.
func (b *ModalBody) EffectiveMass(dst []float64) error {
	n := 6 + b.r
	switch {
	case !b.step.ready:
		return fmt.Errorf("deform: ModalBody.EffectiveMass: call PredictVelocity first")
	case len(dst) < n*n:
		return fmt.Errorf("deform: ModalBody.EffectiveMass dst: %d entries, want %d", len(dst), n*n)
	}
	b.massMatrix(b.step.jbar, b.step.sbar, dst)
	for i := 3; i < n; i++ {
		for j := 3; j < n; j++ {
			dst[i*n+j] *= 2
		}
	}
	if b.stvk != nil {
		// The dense modal block 2A of the linearised step (frame_stvk.go).
		a := b.stvk.a
		for k := 0; k < b.r; k++ {
			for l := 0; l < b.r; l++ {
				dst[(6+k)*n+6+l] = 2 * a[k*b.r+l]
			}
		}
		return nil
	}
	for k, a := range b.step.a {
		dst[(6+k)*n+6+k] = 2 * a
	}
	return nil
}

// midpointMomentum solves x = m + (h/2) x × G(x − c) for the midpoint body momentum x by Newton's
// method from m, returning the iterate of least residual (G: the inverse rotational Schur
// complement; c: the modal momenta's share of the momentum).
func midpointMomentum(m, c mgl64.Vec3, g mgl64.Mat3, h float64) mgl64.Vec3 {
	x := m
	scale := m.Len() + c.Len()
	if scale == 0 {
		return x
	}
	best, bestRes := x, math.Inf(1)
	for it := 0; it < midpointIterations; it++ {
		w := g.Mul3x1(x.Sub(c))
		f := x.Sub(m).Sub(x.Cross(w).Mul(h / 2))
		res := f.Len()
		if res < bestRes {
			best, bestRes = x, res
		}
		if res <= 1e-15*scale {
			break
		}
		// dF/dx = I − (h/2)([x]× G − [w]×)
		jac := mgl64.Ident3().Sub(skew3(x).Mul3(g).Sub(skew3(w)).Mul(h / 2))
		inv, ok := inverse3(jac)
		if !ok {
			break
		}
		step := inv.Mul3x1(f)
		if !finiteVec3(step) {
			break
		}
		x = x.Sub(step)
	}
	return best
}

// Advance moves the body over the step of length h that PredictVelocity prepared with the
// generalised velocity qdot (q̇ᴾ, or the velocity a contact solve made of it) and sets the
// end-of-step velocity from the momenta at the new configuration, the generalised impulse the
// constraints applied added (nil: none). It refuses a step not prepared by PredictVelocity with
// the same h, short or non-finite vectors, and changes nothing then.
func (b *ModalBody) Advance(h float64, qdot, impulse []float64) error {
	st := &b.step
	n := 6 + b.r
	switch {
	case !st.ready || h != st.h:
		return fmt.Errorf("deform: ModalBody.Advance: call PredictVelocity with the same h (%v) first", h)
	case len(qdot) < n:
		return fmt.Errorf("deform: ModalBody.Advance qdot: %d entries, want %d", len(qdot), n)
	case impulse != nil && len(impulse) < n:
		return fmt.Errorf("deform: ModalBody.Advance impulse: %d entries, want %d", len(impulse), n)
	}
	for i := 0; i < n; i++ {
		if !finite(qdot[i]) {
			return fmt.Errorf("deform: ModalBody.Advance qdot[%d]: not finite", i)
		}
		if impulse != nil && !finite(impulse[i]) {
			return fmt.Errorf("deform: ModalBody.Advance impulse[%d]: not finite", i)
		}
	}
	if b.stvk != nil {
		// The elastic and damping forces over the step, before anything moves: the only part of
		// Advance that can fail (a configuration whose force overflows).
		if err := b.stvk.stepForce(b, h, qdot[6:n]); err != nil {
			return err
		}
	}
	st.ready = false
	v := mgl64.Vec3{qdot[0], qdot[1], qdot[2]}
	wb := b.rotation.Transpose().Mul3x1(mgl64.Vec3{qdot[3], qdot[4], qdot[5]})
	b.position = b.position.Add(v.Mul(h))
	b.orientation = cayley(b.orientation, wb.Mul(h))
	l := st.lWorld
	if impulse != nil {
		l = l.Add(mgl64.Vec3{impulse[3], impulse[4], impulse[5]})
	}
	pi := st.pi
	for k := 0; k < b.r; k++ {
		zd := qdot[6+k]
		if b.stvk != nil {
			pi[k] += h * (st.gqv[k] - b.stvk.force[k])
		} else {
			zbar := b.z[k] + 0.5*h*zd
			pi[k] += h * (st.gqv[k] - b.omega2[k]*zbar - (b.alpha+b.beta*b.omega2[k])*zd)
		}
		if impulse != nil {
			pi[k] += impulse[6+k]
		}
		b.z[k] += h * zd
	}
	b.updateConfiguration()
	// (J − S Sᵀ) ω_b = L_b − S π;  ż = π − Sᵀ ω_b.
	lb := b.rotation.Transpose().Mul3x1(l)
	schur := b.inertia
	for k, s := range b.sCols {
		schur = schur.Sub(outer(s, s))
		lb = lb.Sub(s.Mul(pi[k]))
	}
	// The Schur complement of the positive definite M(z) is positive definite; only a body
	// deformed flat would make it singular, and then it is left without angular velocity rather
	// than given a non-finite one.
	gInv, _ := inverse3(symmetric3(schur))
	wNew := gInv.Mul3x1(lb)
	for k, s := range b.sCols {
		b.zd[k] = pi[k] - s.Dot(wNew)
	}
	b.velocity = v
	b.angularVel = b.rotation.Mul3x1(wNew)
	return nil
}

// cayley returns q turned by the Cayley map of the body-frame rotation vector v, the rotation
// about v by 2·atan(|v|/2), normalised.
func cayley(q mgl64.Quat, v mgl64.Vec3) mgl64.Quat {
	half := v.Mul(0.5)
	var turn mgl64.Quat
	if big := math.Max(math.Abs(half[0]), math.Max(math.Abs(half[1]), math.Abs(half[2]))); big > 1e150 {
		// |v|² would overflow: scale first (the map tends to the half-turn about v).
		u := half.Mul(1 / big)
		n := math.Sqrt(1/(big*big) + u.Dot(u))
		turn = mgl64.Quat{W: 1 / (big * n), V: u.Mul(1 / n)}
	} else {
		s := 1 / math.Sqrt(1+half.Dot(half))
		turn = mgl64.Quat{W: s, V: half.Mul(s)}
	}
	turned := q.Mul(turn)
	return turned.Scale(1 / turned.Len())
}

// inverse3 inverts m by cofactors; ok is false when it is singular. (mgl64's Mat3.Inv returns zero
// below a determinant of 1e-10, which a small body's inertia has.)
func inverse3(m mgl64.Mat3) (mgl64.Mat3, bool) {
	// invert3 reads row-major; given mgl64's column-major storage it inverts mᵀ and writes (mᵀ)⁻¹
	// row-major, which read column-major is m⁻¹.
	inv, ok := invert3((*[9]float64)(&m))
	return mgl64.Mat3(inv), ok
}

// skew3 returns [v]×, the matrix of v × ·.
func skew3(v mgl64.Vec3) mgl64.Mat3 {
	return mgl64.Mat3{0, v[2], -v[1], -v[2], 0, v[0], v[1], -v[0], 0}
}
