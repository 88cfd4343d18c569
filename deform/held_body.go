package deform

import (
	"fmt"

	"github.com/go-gl/mathgl/mgl64"
)

// HeldBody is the linear modal model of a body held at some of its vertices (a cantilever's
// root): its frame is fixed in the world, and a material point is at x + R (x̄ + Φ z), with x the
// rest centre of mass, x̄ the point's rest position relative to it, Φ the r lowest modes of the
// held mesh (LowestModes, zero on the held vertices) and z the modal coordinates. The held
// vertices never move, so the model is exact for a clamped root: no constraint is involved.
//
// The generalised velocity is ż alone (r entries); mass-orthonormal modes make the mass matrix
// I_r. The equations of motion are, per mode,
//
//	z̈_k = g_k − ω_k² z_k − (α + β ω_k²) ż_k,   g_k = Σ_a m_a Φ_ak · Rᵀ g,
//
// the gravity load g_k being what a uniform gravity does to held modes (a free body's mean-axis
// modes feel none). The step is ModalBody's implicit midpoint rule restricted to the modes:
// PredictVelocity writes the midpoint velocity ż̄ = (ż + (h/2)(g − Ω² z)) / A with
// A_k = 1 + (h/2)(α + β ω_k²) + (h²/4) ω_k², which contacts constrain; Advance moves z by h ż̄
// and sets ż from the momentum balance over the step, so an undamped, unloaded body keeps
// ½ ż² + ½ ω² z² exactly. A modal impulse p in the step adds ½ p to the midpoint momentum, so
// ż̄ = ż̄ᴾ + p/(2 A) (StepVelocity): the effective mass a contact solve must use is diag(2 A_k)
// (EffectiveMass), and then the step changes the energy by exactly pᵀż̄ less the damping's
// h ż̄ᵀ D ż̄ (modal_step.go).
type HeldBody struct {
	r           int
	nv          int
	mass        float64      // total, kg
	vmass       []float64    // the lumped vertex masses, kg
	rest        []mgl64.Vec3 // x̄_a, relative to the rest centre of mass
	restCentre  mgl64.Vec3   // the rest centre of mass in mesh coordinates
	phi         []float64    // Φ, row (3a+i) holds the r modes' component i at vertex a
	omega2      []float64    // ω_k²
	alpha, beta float64
	load        []mgl64.Vec3 // Σ_a m_a Φ_ak, body frame: mode k's share of the body's weight

	position    mgl64.Vec3
	orientation mgl64.Quat
	rotation    mgl64.Mat3
	z, zd       []float64

	ready bool
	h     float64
	force []float64 // the step's modal gravity loads
}

// NewHeldBody returns the held modal body of mesh m with lumped vertex masses mass, held-body
// modes modes (LowestModes) and Rayleigh damping factors alpha (1/s) and beta (s), at rest: frame
// at the rest centre of mass, identity orientation, z = 0. It refuses mismatched sizes,
// non-finite or non-positive masses and ω², and negative or non-finite damping, naming the
// argument.
func NewHeldBody(m *TetMesh, mass []float64, modes *Modes, alpha, beta float64) (*HeldBody, error) {
	nv, r, total, err := checkModalInput("NewHeldBody", m, mass, modes, alpha, beta)
	if err != nil {
		return nil, err
	}
	b := &HeldBody{r: r, nv: nv, mass: total, vmass: append([]float64(nil), mass...), alpha: alpha, beta: beta}
	b.restCentre = centreOfMass(m, mass)
	b.rest = make([]mgl64.Vec3, nv)
	for a := range b.rest {
		b.rest[a] = m.Vertex(a).Sub(b.restCentre)
	}
	b.omega2 = append([]float64(nil), modes.Omega2...)
	b.phi = make([]float64, 3*nv*r)
	b.load = make([]mgl64.Vec3, r)
	for k, shape := range modes.Shapes {
		for i, x := range shape {
			b.phi[i*r+k] = x
			b.load[k][i%3] += mass[i/3] * x
		}
	}
	b.z, b.zd, b.force = make([]float64, r), make([]float64, r), make([]float64, r)
	b.position, b.orientation, b.rotation = b.restCentre, mgl64.QuatIdent(), mgl64.Ident3()
	return b, nil
}

// DoFs returns r: only the modes move.
func (b *HeldBody) DoFs() int { return b.r }

// NumModes returns r.
func (b *HeldBody) NumModes() int { return b.r }

// Mass returns the body's total mass, kg.
func (b *HeldBody) Mass() float64 { return b.mass }

// State copies the state into dst, reusing its slices when they are long enough; the frame's
// velocities are zero.
func (b *HeldBody) State(dst *ModalState) {
	dst.Position, dst.Orientation = b.position, b.orientation
	dst.LinearVelocity, dst.AngularVelocity = mgl64.Vec3{}, mgl64.Vec3{}
	dst.Z = append(dst.Z[:0], b.z...)
	dst.ZDot = append(dst.ZDot[:0], b.zd...)
}

// SetState sets the frame's pose (where the body is held) and the modal state. It refuses
// non-finite values, a zero orientation, a moving frame (non-zero velocities: the frame is held)
// and modal vectors not of length r, naming the field, and changes nothing then; the orientation
// is normalised unless it is unit to rounding, which is kept bit for bit.
func (b *HeldBody) SetState(s ModalState) error {
	if s.LinearVelocity != (mgl64.Vec3{}) || s.AngularVelocity != (mgl64.Vec3{}) {
		return fmt.Errorf("deform: ModalState.LinearVelocity, AngularVelocity: a held body's frame does not move, got %v and %v", s.LinearVelocity, s.AngularVelocity)
	}
	orientation, err := s.check(b.r)
	if err != nil {
		return err
	}
	b.position = s.Position
	b.orientation = orientation
	b.rotation = b.orientation.Mat4().Mat3()
	copy(b.z, s.Z)
	copy(b.zd, s.ZDot)
	b.ready = false
	return nil
}

// Velocity writes ż (r entries) into dst.
func (b *HeldBody) Velocity(dst []float64) { copy(dst[:b.r], b.zd) }

// MassMatrix writes the r × r identity, the mass matrix of mass-orthonormal modes.
func (b *HeldBody) MassMatrix(dst []float64) {
	clear(dst[:b.r*b.r])
	for k := 0; k < b.r; k++ {
		dst[k*b.r+k] = 1
	}
}

// checkPoint refuses a material point with a vertex out of range or a non-finite weight.
func (b *HeldBody) checkPoint(p MaterialPoint) error {
	for i, w := range p.Weights {
		if !finite(w) {
			return fmt.Errorf("deform: MaterialPoint.Weights[%d]: not finite: %v", i, w)
		}
		if w != 0 && (p.Vertices[i] < 0 || int(p.Vertices[i]) >= b.nv) {
			return fmt.Errorf("deform: MaterialPoint.Vertices[%d]: %d out of range [0, %d)", i, p.Vertices[i], b.nv)
		}
	}
	return nil
}

// Position returns the material point's deformed world position x + R (x̄ + Φ z).
func (b *HeldBody) Position(p MaterialPoint) (mgl64.Vec3, error) {
	if err := b.checkPoint(p); err != nil {
		return mgl64.Vec3{}, err
	}
	var x mgl64.Vec3
	for i, w := range p.Weights {
		if w == 0 {
			continue
		}
		a := int(p.Vertices[i])
		u := b.rest[a]
		row := b.phi[3*a*b.r:]
		for c := 0; c < 3; c++ {
			s := 0.0
			for k, zk := range b.z {
				s += row[c*b.r+k] * zk
			}
			u[c] += s
		}
		x = x.Add(u.Mul(w))
	}
	return b.position.Add(b.rotation.Mul3x1(x)), nil
}

// PointJacobian writes the 3 × r matrix R Φ_p, row-major, whose product with ż is the world
// velocity of the material point p. dst must have 3r entries. It refuses a bad material point.
func (b *HeldBody) PointJacobian(p MaterialPoint, dst []float64) error {
	if err := b.checkPoint(p); err != nil {
		return err
	}
	r := b.r
	clear(dst[:3*r])
	for i, w := range p.Weights {
		if w == 0 {
			continue
		}
		row := b.phi[3*int(p.Vertices[i])*r:]
		for k := 0; k < r; k++ {
			world := b.rotation.Mul3x1(mgl64.Vec3{row[k], row[r+k], row[2*r+k]}.Mul(w))
			dst[k] += world[0]
			dst[r+k] += world[1]
			dst[2*r+k] += world[2]
		}
	}
	return nil
}

// PredictVelocity writes the midpoint velocity ż̄ over a step of length h in the uniform gravity
// g without contact into dst (r entries), and keeps what Advance needs. It refuses a non-positive
// or non-finite h, a non-finite g and a short dst.
func (b *HeldBody) PredictVelocity(h float64, g mgl64.Vec3, dst []float64) error {
	switch {
	case !(h > 0) || !finite(h):
		return fmt.Errorf("deform: HeldBody.PredictVelocity h: must be finite and > 0, got %v", h)
	case !finiteVec3(g):
		return fmt.Errorf("deform: HeldBody.PredictVelocity g: not finite: %v", g)
	case len(dst) < b.r:
		return fmt.Errorf("deform: HeldBody.PredictVelocity dst: %d entries, want %d", len(dst), b.r)
	}
	gb := b.rotation.Transpose().Mul3x1(g)
	for k := 0; k < b.r; k++ {
		b.force[k] = b.load[k].Dot(gb)
	}
	b.h, b.ready = h, true
	b.stepVelocity(nil, dst)
	return nil
}

// diagonal returns mode k's A_k = 1 + (h/2)(α + β ω_k²) + (h²/4) ω_k² for the prepared step.
func (b *HeldBody) diagonal(k int) float64 {
	h := b.h
	return 1 + 0.5*h*(b.alpha+b.beta*b.omega2[k]) + 0.25*h*h*b.omega2[k]
}

// stepVelocity writes the midpoint velocity over the prepared step when the modal impulse p (nil:
// none) acts in it, ż̄ = (ż + (h/2)(g − Ω² z) + ½ p) / A.
func (b *HeldBody) stepVelocity(p, dst []float64) {
	h := b.h
	for k := 0; k < b.r; k++ {
		r := b.zd[k] + 0.5*h*(b.force[k]-b.omega2[k]*b.z[k])
		if p != nil {
			r += 0.5 * p[k]
		}
		dst[k] = r / b.diagonal(k)
	}
}

// StepVelocity writes into dst (r entries) the midpoint velocity over the step PredictVelocity
// prepared when the modal impulse p (r entries) acts in it — the velocity Advance moves the modes
// with, given p as its impulse. It is ż̄ᴾ + EffectiveMass⁻¹ p. It refuses an unprepared step and
// short or non-finite vectors.
func (b *HeldBody) StepVelocity(p, dst []float64) error {
	switch {
	case !b.ready:
		return fmt.Errorf("deform: HeldBody.StepVelocity: call PredictVelocity first")
	case len(p) < b.r:
		return fmt.Errorf("deform: HeldBody.StepVelocity p: %d entries, want %d", len(p), b.r)
	case len(dst) < b.r:
		return fmt.Errorf("deform: HeldBody.StepVelocity dst: %d entries, want %d", len(dst), b.r)
	}
	for k := 0; k < b.r; k++ {
		if !finite(p[k]) {
			return fmt.Errorf("deform: HeldBody.StepVelocity p[%d]: not finite", k)
		}
	}
	b.stepVelocity(p, dst)
	return nil
}

// EffectiveMass writes into dst (r² entries, row-major) the effective mass of the step
// PredictVelocity prepared, diag(2 A_k): StepVelocity(p) = ż̄ᴾ + M_eff⁻¹ p (the midpoint velocity
// takes half the impulse, through A). It refuses an unprepared step and a short dst.
func (b *HeldBody) EffectiveMass(dst []float64) error {
	switch {
	case !b.ready:
		return fmt.Errorf("deform: HeldBody.EffectiveMass: call PredictVelocity first")
	case len(dst) < b.r*b.r:
		return fmt.Errorf("deform: HeldBody.EffectiveMass dst: %d entries, want %d", len(dst), b.r*b.r)
	}
	clear(dst[:b.r*b.r])
	for k := 0; k < b.r; k++ {
		dst[k*b.r+k] = 2 * b.diagonal(k)
	}
	return nil
}

// Advance moves the modes over the step of length h that PredictVelocity prepared with the
// modal velocity qdot (ż̄, or the velocity a contact solve made of it) and sets the end-of-step
// velocity from the momentum balance, ż + h (g − Ω² z̄ − D ż̄) with z̄ = z + (h/2) ż̄, plus the
// impulse the constraints applied (nil: none). It refuses a step not prepared by PredictVelocity
// with the same h, short or non-finite vectors, and changes nothing then.
func (b *HeldBody) Advance(h float64, qdot, impulse []float64) error {
	r := b.r
	switch {
	case !b.ready || h != b.h:
		return fmt.Errorf("deform: HeldBody.Advance: call PredictVelocity with the same h (%v) first", h)
	case len(qdot) < r:
		return fmt.Errorf("deform: HeldBody.Advance qdot: %d entries, want %d", len(qdot), r)
	case impulse != nil && len(impulse) < r:
		return fmt.Errorf("deform: HeldBody.Advance impulse: %d entries, want %d", len(impulse), r)
	}
	for k := 0; k < r; k++ {
		if !finite(qdot[k]) {
			return fmt.Errorf("deform: HeldBody.Advance qdot[%d]: not finite", k)
		}
		if impulse != nil && !finite(impulse[k]) {
			return fmt.Errorf("deform: HeldBody.Advance impulse[%d]: not finite", k)
		}
	}
	b.ready = false
	for k := 0; k < r; k++ {
		v := qdot[k]
		zbar := b.z[k] + 0.5*h*v
		b.zd[k] += h * (b.force[k] - b.omega2[k]*zbar - (b.alpha+b.beta*b.omega2[k])*v)
		if impulse != nil {
			b.zd[k] += impulse[k]
		}
		b.z[k] += h * v
	}
	return nil
}

// KineticEnergy returns ½ |ż|², J.
func (b *HeldBody) KineticEnergy() float64 {
	e := 0.0
	for _, v := range b.zd {
		e += 0.5 * v * v
	}
	return e
}

// ElasticEnergy returns ½ Σ ω_k² z_k², J.
func (b *HeldBody) ElasticEnergy() float64 {
	e := 0.0
	for k, z := range b.z {
		e += 0.5 * b.omega2[k] * z * z
	}
	return e
}

// CentreOfMass returns the deformed body's centre of mass, x + R Σ_k z_k Σ_a m_a Φ_ak / m, m.
func (b *HeldBody) CentreOfMass() mgl64.Vec3 {
	return b.position.Add(b.MomentShift(b.z).Mul(1 / b.mass))
}

// MomentShift returns the change of the first mass moment Σ_a m_a x_a, kg·m, when the modal
// coordinates move by dz (r entries): R Σ_k dz_k Σ_a m_a Φ_ak. In gravity g it changes the
// potential energy by −g · MomentShift(dz).
func (b *HeldBody) MomentShift(dz []float64) mgl64.Vec3 {
	var s mgl64.Vec3
	for k := 0; k < b.r; k++ {
		s = s.Add(b.load[k].Mul(dz[k]))
	}
	return b.rotation.Mul3x1(s)
}

// LinearMomentum returns Σ_a m_a ẋ_a = R Σ_k ż_k Σ_a m_a Φ_ak, kg·m/s: what the holding supplies
// as the body vibrates.
func (b *HeldBody) LinearMomentum() mgl64.Vec3 {
	return b.MomentShift(b.zd)
}

// AngularMomentum returns Σ_a m_a x_a × ẋ_a about the world origin, kg·m²/s. It visits every
// vertex: a read-out, not a step's work.
func (b *HeldBody) AngularMomentum() mgl64.Vec3 {
	var l mgl64.Vec3
	for a, m := range b.vmass {
		x, _ := b.Position(VertexPoint(a))
		row := b.phi[3*a*b.r:]
		var u mgl64.Vec3
		for c := 0; c < 3; c++ {
			for k, v := range b.zd {
				u[c] += row[c*b.r+k] * v
			}
		}
		l = l.Add(x.Cross(b.rotation.Mul3x1(u)).Mul(m))
	}
	return l
}
