package deform

import (
	"fmt"
	"math"

	"github.com/go-gl/mathgl/mgl64"
)

// meanAxisTolerance bounds, relative to the scales of an M-normalised mode, how far NewModalBody
// lets the modes stray from mass-orthonormality and zero linear momentum: FreeModes meets both to
// round-off, and the frame's origin is the centre of mass only if they hold.
const meanAxisTolerance = 1e-8

// ModalBody is a linear modal model on a floating frame (the Staggered Projections paper's §8
// "linear modal models … augmented with a floating frame", after Shabana): the material point of
// rest position x̄_a (relative to the centre of mass) is at the world position
//
//	x_a = x + R (x̄_a + Φ_a z),
//
// with the frame's origin x and rotation R, the r free-body modes Φ (FreeModes: mass-orthonormal,
// mean-axis) and the modal coordinates z. Because the modes carry no linear or angular momentum
// about the centre of mass, x stays the centre of mass and R follows the body's mean rotation.
//
// The generalised velocity is q̇ = (v, ω, ż), 6 + r entries: the frame's linear and angular
// velocity in the world frame, as physics.BodyModel's rigid bodies have, then the modal
// velocities. The kinetic energy ½ Σ m_a |ẋ_a|² is ½ q̇ᵀ M(z) q̇ with the generalised mass
// (body-frame blocks; the rotation block is conjugated by R in the world frame)
//
//	M(z) = [ m I₃   0      0    ]     J(z) = Σ m_a [p_a]×ᵀ[p_a]×,  p_a = x̄_a + Φ_a z
//	       [ 0      J(z)   S(z) ]     S(z) = Σ m_a [p_a]× Φ_a
//	       [ 0      S(z)ᵀ  I_r  ]
//
// (the translation blocks coupling to rotation and modes vanish by Σ m_a p_a = 0). J and S are
// polynomials in z whose coefficients are precomputed over the mesh, so nothing per step touches
// the vertices: J(z) = J₀ + Σ_k z_k J_k + Σ_kl z_k z_l (tr C_kl I − C_kl) with C_kl = Σ m_a Φ_ak
// Φ_alᵀ, and column l of S(z) is s₀_l + Σ_k z_k s_kl with s_kl = Σ m_a Φ_ak × Φ_al. The internal
// forces are the modal stiffness Ω² z (Ω² = diag ω_k²) and the Rayleigh damping (α + β ω_k²) ż_k
// on each mode (αM + βK projected on mass-orthonormal modes; the rigid motion is not damped).
// The step is in modal_step.go.
type ModalBody struct {
	r           int
	mass        float64      // total, kg
	rest        []mgl64.Vec3 // x̄_a, relative to the centre of mass
	restCentre  mgl64.Vec3   // the rest centre of mass in mesh coordinates
	phi         []float64    // Φ, row (3a+i) holds the r modes' component i at vertex a
	omega2      []float64    // ω_k²
	alpha, beta float64      // Rayleigh damping
	j0          mgl64.Mat3   // Σ m [x̄]×ᵀ[x̄]×
	j1          []mgl64.Mat3 // J_k = Σ m (2 x̄·Φ_k I − x̄Φ_kᵀ − Φ_k x̄ᵀ)
	c2          []sym3       // the symmetric parts of C_kl, r × r
	s0          []mgl64.Vec3 // Σ m x̄ × Φ_l (zero for mean-axis modes; kept for exactness)
	s1          []mgl64.Vec3 // s_kl, r × r
	nv          int

	// State: world frame.
	position    mgl64.Vec3
	orientation mgl64.Quat
	velocity    mgl64.Vec3
	angularVel  mgl64.Vec3
	z, zd       []float64

	// At the current configuration.
	rotation mgl64.Mat3
	inertia  mgl64.Mat3   // J(z)
	sCols    []mgl64.Vec3 // the r columns of S(z)

	step modalStep
	// stvk, when not nil, replaces the linear modal force Ω² z by the reduced St. Venant–Kirchhoff
	// force of the basis (NewFrameStVKBody, frame_stvk.go).
	stvk *frameStVK
}

// ModalState is a ModalBody's generalised state: the frame's origin (the centre of mass) and
// orientation, its linear and angular velocity in the world frame, and the modal coordinates and
// velocities (r entries each).
type ModalState struct {
	Position        mgl64.Vec3
	Orientation     mgl64.Quat
	LinearVelocity  mgl64.Vec3
	AngularVelocity mgl64.Vec3
	Z, ZDot         []float64
}

// MaterialPoint names a material point of a ModalBody's mesh by barycentric weights over up to
// four vertices (a point of a tetrahedron or a face, or a vertex with weight 1). Unused slots have
// weight 0.
type MaterialPoint struct {
	Vertices [4]int32
	Weights  [4]float64
}

// VertexPoint returns the material point at vertex a.
func VertexPoint(a int) MaterialPoint {
	return MaterialPoint{Vertices: [4]int32{int32(a)}, Weights: [4]float64{1}}
}

// NewModalBody returns the modal body of mesh m with lumped vertex masses mass, free-body modes
// modes (FreeModes) and Rayleigh damping factors alpha (1/s) and beta (s), at rest: frame at the
// rest centre of mass, identity orientation, z = 0, no velocity. It precomputes the reduced mass
// coefficients. It refuses mismatched sizes, non-finite or non-positive masses and ω², negative
// or non-finite damping, and modes that are not mass-orthonormal with zero linear momentum (to
// meanAxisTolerance), naming the argument.
func NewModalBody(m *TetMesh, mass []float64, modes *Modes, alpha, beta float64) (*ModalBody, error) {
	return newModalBody("NewModalBody", m, mass, modes, alpha, beta)
}

// newModalBody is NewModalBody, its errors naming the constructor fn.
func newModalBody(fn string, m *TetMesh, mass []float64, modes *Modes, alpha, beta float64) (*ModalBody, error) {
	nv, r, total, err := checkModalInput(fn, m, mass, modes, alpha, beta)
	if err != nil {
		return nil, err
	}
	b := &ModalBody{r: r, mass: total, nv: nv, alpha: alpha, beta: beta}
	b.restCentre = centreOfMass(m, mass)
	b.rest = make([]mgl64.Vec3, nv)
	for a := range b.rest {
		b.rest[a] = m.Vertex(a).Sub(b.restCentre)
	}
	b.omega2 = append([]float64(nil), modes.Omega2...)
	b.phi = make([]float64, 3*nv*r)
	for k, shape := range modes.Shapes {
		for i, x := range shape {
			b.phi[i*r+k] = x
		}
	}
	if err := b.precompute(fn, mass); err != nil {
		return nil, err
	}
	b.z, b.zd = make([]float64, r), make([]float64, r)
	b.sCols = make([]mgl64.Vec3, r)
	b.orientation = mgl64.QuatIdent()
	b.position = b.restCentre
	b.step.init(r)
	b.updateConfiguration()
	return b, nil
}

// precompute forms the coefficients of J(z) and S(z) and checks the modes' orthonormality and
// linear momentum.
func (b *ModalBody) precompute(fn string, mass []float64) error {
	r := b.r
	b.j1 = make([]mgl64.Mat3, r)
	b.c2 = make([]sym3, r*r)
	b.s0 = make([]mgl64.Vec3, r)
	b.s1 = make([]mgl64.Vec3, r*r)
	lin := make([]mgl64.Vec3, r)
	size := 0.0
	for a, q := range mass {
		x := b.rest[a]
		size = math.Max(size, x.Len())
		b.j0 = b.j0.Add(mgl64.Ident3().Mul(q * x.Dot(x)).Sub(outer(x, x).Mul(q)))
		for k := 0; k < r; k++ {
			pk := b.modeAt(a, k)
			lin[k] = lin[k].Add(pk.Mul(q))
			b.j1[k] = b.j1[k].Add(mgl64.Ident3().Mul(2 * q * x.Dot(pk)).Sub(outer(x, pk).Add(outer(pk, x)).Mul(q)))
			b.s0[k] = b.s0[k].Add(x.Cross(pk).Mul(q))
			for l := 0; l < r; l++ {
				pl := b.modeAt(a, l)
				b.c2[k*r+l].addOuter(pk, pl, q)
				b.s1[k*r+l] = b.s1[k*r+l].Add(pk.Cross(pl).Mul(q))
			}
		}
	}
	for k := 0; k < r; k++ {
		if lin[k].Len() > meanAxisTolerance*math.Sqrt(b.mass) {
			return fmt.Errorf("deform: %s modes.Shapes[%d]: carries linear momentum (Σ m φ = %v); use FreeModes' mean-axis modes", fn, k, lin[k])
		}
		if b.s0[k].Len() > meanAxisTolerance*math.Sqrt(b.mass)*size {
			return fmt.Errorf("deform: %s modes.Shapes[%d]: carries angular momentum (Σ m x × φ = %v); use FreeModes' mean-axis modes", fn, k, b.s0[k])
		}
		for l := 0; l <= k; l++ {
			want := 0.0
			if k == l {
				want = 1
			}
			if g := b.c2[k*r+l].trace(); math.Abs(g-want) > meanAxisTolerance {
				return fmt.Errorf("deform: %s modes.Shapes[%d]: not mass-orthonormal (φ%dᵀMφ%d = %.3g)", fn, k, k, l, g)
			}
		}
	}
	return nil
}

// modeAt returns Φ_ak, mode k's displacement at vertex a.
func (b *ModalBody) modeAt(a, k int) mgl64.Vec3 {
	i := 3 * a * b.r
	return mgl64.Vec3{b.phi[i+k], b.phi[i+b.r+k], b.phi[i+2*b.r+k]}
}

// updateConfiguration recomputes R, J(z) and S(z) from the orientation and z.
func (b *ModalBody) updateConfiguration() {
	b.rotation = b.orientation.Mat4().Mat3()
	b.inertia = b.configurationAt(b.z, b.step.bk, b.sCols)
}

// configurationAt returns J(z) and writes the columns of S(z) into sCols and the symmetric parts
// of B_k = Σ_l z_l C_kl into bk, which both J's quadratic term, Σ_k z_k (tr B_k I − B_k), and the
// centrifugal loads (quadraticForces) are made of (neither sees B_k's antisymmetric part).
func (b *ModalBody) configurationAt(z []float64, bk []sym3, sCols []mgl64.Vec3) mgl64.Mat3 {
	r := b.r
	z = z[:r]
	sCols = sCols[:r]
	copy(sCols, b.s0)
	jm := b.j0
	for k, zk := range z {
		// One pass over row k of the coefficients: B_k = Σ_l z_l C_kl and z_k's share of every
		// column of S, s_l += z_k s_kl.
		var acc sym3
		crow := b.c2[k*r : (k+1)*r]
		srow := b.s1[k*r : (k+1)*r]
		for l, zl := range z {
			c := &crow[l]
			acc[0] += zl * c[0]
			acc[1] += zl * c[1]
			acc[2] += zl * c[2]
			acc[3] += zl * c[3]
			acc[4] += zl * c[4]
			acc[5] += zl * c[5]
			sv, sc := &srow[l], &sCols[l]
			sc[0] += zk * sv[0]
			sc[1] += zk * sv[1]
			sc[2] += zk * sv[2]
		}
		bk[k] = acc
		jk := &b.j1[k]
		for i := range jm {
			jm[i] += zk * jk[i]
		}
		t := zk * acc.trace()
		jm[0] += t - zk*acc[0]
		jm[4] += t - zk*acc[1]
		jm[8] += t - zk*acc[2]
		jm[1] -= zk * acc[3]
		jm[3] -= zk * acc[3]
		jm[2] -= zk * acc[4]
		jm[6] -= zk * acc[4]
		jm[5] -= zk * acc[5]
		jm[7] -= zk * acc[5]
	}
	return symmetric3(jm)
}

// quadraticForces writes into dst the modal quadratic-velocity forces g_qv = ∂T/∂z at the
// configuration whose B_k (configurationAt) are bk, for the body-frame angular velocity wb and the
// modal velocity zd:
//
//	g_k = ½ ω_bᵀ (∂J/∂z_k) ω_b + ω_bᵀ (∂S/∂z_k) ż
//	    = ½ ω_bᵀ J_k ω_b + tr B_k |ω_b|² − ω_bᵀ B_k ω_b + ω_b · Σ_l s_kl ż_l.
func (b *ModalBody) quadraticForces(bk []sym3, wb mgl64.Vec3, zd, dst []float64) {
	r := b.r
	w2 := wb.Dot(wb)
	for k := 0; k < r; k++ {
		f := 0.5*quadForm(&b.j1[k], wb) + bk[k].trace()*w2 - bk[k].quadForm(wb)
		var sz mgl64.Vec3
		row := b.s1[k*r : (k+1)*r]
		for l, v := range zd[:r] {
			c := &row[l]
			sz[0] += v * c[0]
			sz[1] += v * c[1]
			sz[2] += v * c[2]
		}
		dst[k] = f + wb.Dot(sz)
	}
}

// quadForm returns vᵀ m v.
func quadForm(m *mgl64.Mat3, v mgl64.Vec3) float64 {
	return v[0]*(m[0]*v[0]+m[3]*v[1]+m[6]*v[2]) + v[1]*(m[1]*v[0]+m[4]*v[1]+m[7]*v[2]) + v[2]*(m[2]*v[0]+m[5]*v[1]+m[8]*v[2])
}

// sym3 is a symmetric 3 × 3 matrix by its entries xx, yy, zz, xy, xz, yz.
type sym3 [6]float64

// addOuter adds q (a bᵀ + b aᵀ)/2, the symmetric part of q a bᵀ.
func (m *sym3) addOuter(a, b mgl64.Vec3, q float64) {
	m[0] += q * a[0] * b[0]
	m[1] += q * a[1] * b[1]
	m[2] += q * a[2] * b[2]
	m[3] += 0.5 * q * (a[0]*b[1] + a[1]*b[0])
	m[4] += 0.5 * q * (a[0]*b[2] + a[2]*b[0])
	m[5] += 0.5 * q * (a[1]*b[2] + a[2]*b[1])
}

// trace returns the trace of m.
func (m *sym3) trace() float64 { return m[0] + m[1] + m[2] }

// quadForm returns vᵀ m v.
func (m *sym3) quadForm(v mgl64.Vec3) float64 {
	return m[0]*v[0]*v[0] + m[1]*v[1]*v[1] + m[2]*v[2]*v[2] + 2*(m[3]*v[0]*v[1]+m[4]*v[0]*v[2]+m[5]*v[1]*v[2])
}

// DoFs returns the size of the generalised velocity, 6 + r.
func (b *ModalBody) DoFs() int { return 6 + b.r }

// NumModes returns r.
func (b *ModalBody) NumModes() int { return b.r }

// Mass returns the total mass, kg.
func (b *ModalBody) Mass() float64 { return b.mass }

// RestInertia returns the inertia tensor about the centre of mass of the undeformed body, in the
// body frame, kg·m².
func (b *ModalBody) RestInertia() mgl64.Mat3 { return b.j0 }

// State copies the generalised state into dst, reusing its slices when they are long enough.
func (b *ModalBody) State(dst *ModalState) {
	dst.Position, dst.Orientation = b.position, b.orientation
	dst.LinearVelocity, dst.AngularVelocity = b.velocity, b.angularVel
	dst.Z = append(dst.Z[:0], b.z...)
	dst.ZDot = append(dst.ZDot[:0], b.zd...)
}

// SetState sets the generalised state. It refuses non-finite values, a zero orientation and
// modal vectors not of length r, naming the field, and changes nothing then; the orientation is
// normalised unless it is unit to rounding (as State returns it), which is kept bit for bit so
// that a state read and set back steps exactly as before.
func (b *ModalBody) SetState(s ModalState) error {
	orientation, err := s.check(b.r)
	if err != nil {
		return err
	}
	b.position = s.Position
	b.orientation = orientation
	b.velocity, b.angularVel = s.LinearVelocity, s.AngularVelocity
	copy(b.z, s.Z)
	copy(b.zd, s.ZDot)
	b.step.ready = false
	b.updateConfiguration()
	return nil
}

// Velocity writes the generalised velocity (v, ω, ż), 6 + r entries, into dst.
func (b *ModalBody) Velocity(dst []float64) {
	dst[0], dst[1], dst[2] = b.velocity[0], b.velocity[1], b.velocity[2]
	dst[3], dst[4], dst[5] = b.angularVel[0], b.angularVel[1], b.angularVel[2]
	copy(dst[6:6+b.r], b.zd)
}

// MassMatrix writes the (6 + r)² generalised mass matrix M(z) at the current configuration,
// row-major, for the world-frame velocity (v, ω, ż): diag(m I₃, ·) with the rotation block R J Rᵀ
// (symmetrised against round-off), the rotation–modal coupling R S and its transpose, and the
// modal block I_r (mass-orthonormal modes). dst must have (6 + r)² entries.
func (b *ModalBody) MassMatrix(dst []float64) {
	b.massMatrix(b.inertia, b.sCols, dst)
}

// massMatrix writes MassMatrix's matrix for the body-frame inertia and coupling columns given,
// turned by the current rotation.
func (b *ModalBody) massMatrix(inertia mgl64.Mat3, sCols []mgl64.Vec3, dst []float64) {
	n := 6 + b.r
	clear(dst[:n*n])
	for i := 0; i < 3; i++ {
		dst[i*n+i] = b.mass
	}
	jw := symmetric3(b.rotation.Mul3(inertia).Mul3(b.rotation.Transpose()))
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			dst[(3+i)*n+3+j] = jw.At(i, j)
		}
	}
	for k := 0; k < b.r; k++ {
		s := b.rotation.Mul3x1(sCols[k])
		for i := 0; i < 3; i++ {
			dst[(3+i)*n+6+k] = s[i]
			dst[(6+k)*n+3+i] = s[i]
		}
		dst[(6+k)*n+6+k] = 1
	}
}

// checkPoint refuses a material point with a vertex out of range or a non-finite weight.
func (b *ModalBody) checkPoint(p MaterialPoint) error {
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

// local returns the material point's deformed position in the body frame, p = Σ w_i (x̄_i +
// Φ_i z), relative to the centre of mass.
func (b *ModalBody) local(p MaterialPoint) mgl64.Vec3 {
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
	return x
}

// Position returns the material point's deformed world position x + R (x̄ + Φ z).
func (b *ModalBody) Position(p MaterialPoint) (mgl64.Vec3, error) {
	if err := b.checkPoint(p); err != nil {
		return mgl64.Vec3{}, err
	}
	return b.position.Add(b.rotation.Mul3x1(b.local(p))), nil
}

// PointJacobian writes the 3 × (6 + r) matrix J, row-major, whose product with the generalised
// velocity (v, ω, ż) is the world velocity of the material point p,
//
//	ẋ_p = v + ω × R p_local + R Φ_p ż,   J = [ I₃ | −[R p_local]× | R Φ_p ],
//
// the shape of physics.BodyModel.PointJacobian (whose rigid bodies have J = [I₃ | −[p − x]×]).
// dst must have 3(6 + r) entries. It refuses a bad material point.
func (b *ModalBody) PointJacobian(p MaterialPoint, dst []float64) error {
	if err := b.checkPoint(p); err != nil {
		return err
	}
	n := 6 + b.r
	clear(dst[:3*n])
	d := b.rotation.Mul3x1(b.local(p))
	for i := 0; i < 3; i++ {
		dst[i*n+i] = 1
	}
	dst[0*n+4], dst[0*n+5] = d[2], -d[1]
	dst[1*n+3], dst[1*n+5] = -d[2], d[0]
	dst[2*n+3], dst[2*n+4] = d[1], -d[0]
	rot := &b.rotation
	for i, w := range p.Weights {
		if w == 0 {
			continue
		}
		row := b.phi[3*int(p.Vertices[i])*b.r:]
		for k := 0; k < b.r; k++ {
			local := mgl64.Vec3{row[k], row[b.r+k], row[2*b.r+k]}.Mul(w)
			world := rot.Mul3x1(local)
			dst[0*n+6+k] += world[0]
			dst[1*n+6+k] += world[1]
			dst[2*n+6+k] += world[2]
		}
	}
	return nil
}

// bodyMomenta returns the angular momentum about the centre of mass in the body frame,
// L_b = J ω_b + S ż, and writes the modal momenta π = Sᵀ ω_b + ż into pi, for body-frame angular
// velocity wb.
func (b *ModalBody) bodyMomenta(wb mgl64.Vec3, pi []float64) mgl64.Vec3 {
	l := b.inertia.Mul3x1(wb)
	for k, s := range b.sCols {
		l = l.Add(s.Mul(b.zd[k]))
		pi[k] = s.Dot(wb) + b.zd[k]
	}
	return l
}

// KineticEnergy returns ½ q̇ᵀ M(z) q̇, J.
func (b *ModalBody) KineticEnergy() float64 {
	wb := b.rotation.Transpose().Mul3x1(b.angularVel)
	e := 0.5*b.mass*b.velocity.Dot(b.velocity) + 0.5*wb.Dot(b.inertia.Mul3x1(wb))
	for k, s := range b.sCols {
		e += b.zd[k] * (wb.Dot(s) + 0.5*b.zd[k])
	}
	return e
}

// ElasticEnergy returns ½ Σ ω_k² z_k², J, or the reduced StVK energy W(z) of a body built by
// NewFrameStVKBody.
func (b *ModalBody) ElasticEnergy() float64 {
	if b.stvk != nil {
		return b.stvk.energy(b.z)
	}
	e := 0.0
	for k, z := range b.z {
		e += 0.5 * b.omega2[k] * z * z
	}
	return e
}

// CentreOfMass returns the body's centre of mass, m: the frame's origin, which mean-axis modes do
// not move.
func (b *ModalBody) CentreOfMass() mgl64.Vec3 { return b.position }

// LinearMomentum returns m v, kg·m/s.
func (b *ModalBody) LinearMomentum() mgl64.Vec3 { return b.velocity.Mul(b.mass) }

// AngularMomentum returns the angular momentum about the world origin, x × m v + R (J ω_b + S ż),
// kg·m²/s.
func (b *ModalBody) AngularMomentum() mgl64.Vec3 {
	wb := b.rotation.Transpose().Mul3x1(b.angularVel)
	l := b.inertia.Mul3x1(wb)
	for k, s := range b.sCols {
		l = l.Add(s.Mul(b.zd[k]))
	}
	return b.position.Cross(b.velocity.Mul(b.mass)).Add(b.rotation.Mul3x1(l))
}

// outer returns a bᵀ.
func outer(a, b mgl64.Vec3) mgl64.Mat3 {
	return mgl64.Mat3{a[0] * b[0], a[1] * b[0], a[2] * b[0], a[0] * b[1], a[1] * b[1], a[2] * b[1], a[0] * b[2], a[1] * b[2], a[2] * b[2]}
}

// trace3 returns the trace of m.
func trace3(m mgl64.Mat3) float64 { return m[0] + m[4] + m[8] }

// symmetric3 returns (m + mᵀ)/2.
func symmetric3(m mgl64.Mat3) mgl64.Mat3 { return m.Add(m.Transpose()).Mul(0.5) }

// finiteVec3 reports whether every component of v is finite.
func finiteVec3(v mgl64.Vec3) bool { return finite(v[0]) && finite(v[1]) && finite(v[2]) }
