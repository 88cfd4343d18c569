package physics

import (
	"github.com/go-gl/mathgl/mgl64"
)

// rigidDoFs is the block size of a rigid body: linear then angular velocity, world frame.
const rigidDoFs = 6

// rigidModel is the BodyModel of a dynamic rigid body: the state the step works on, gathered from a
// RigidBody component and scattered back after the step.
type rigidModel struct {
	mass            float64
	inertia         mgl64.Mat3 // body axes
	invInertia      mgl64.Mat3 // body axes
	position        mgl64.Vec3
	orientation     mgl64.Quat
	rotation        mgl64.Mat3 // of orientation at the start of the step
	velocity        mgl64.Vec3
	angularVel      mgl64.Vec3 // world, end of step
	angularMomentum mgl64.Vec3 // world, start of step: R I Rᵀ ω
	force, torque   mgl64.Vec3 // world, applied by the game for this step (forces.go)
	gravityScale    float64
	// spinImpulse is the torsional friction's angular impulse on the body this step, world
	// (spin_friction.go): part of the unconstrained motion, like the game's torque.
	spinImpulse mgl64.Vec3
	// round: the body's collider is a sphere, whose surface turning does not move (see
	// rotationScale).
	round bool
}

// load gathers the model from a prepared, validated body.
func (r *rigidModel) load(b *RigidBody) {
	r.mass = b.Mass
	r.inertia = b.Inertia
	r.invInertia = inverse3(b.Inertia)
	r.position = b.Position
	r.orientation = b.Orientation
	r.rotation = b.Orientation.Mat4().Mat3()
	r.velocity = b.LinearVelocity
	r.angularVel = b.AngularVelocity
	r.angularMomentum = r.rotation.Mul3x1(r.inertia.Mul3x1(r.rotation.Transpose().Mul3x1(b.AngularVelocity)))
	r.force, r.torque = b.force, b.torque
	r.gravityScale = b.GravityScale()
	r.spinImpulse = mgl64.Vec3{}
}

// momentum returns the world angular momentum the step starts from: the start-of-step momentum
// plus the game's torque impulse h τ and the torsional friction's impulse, which the predictor
// applies first, as semi-implicit Euler applies forces before moving.
func (r *rigidModel) momentum(h float64) mgl64.Vec3 {
	m := r.angularMomentum
	if r.torque != (mgl64.Vec3{}) {
		m = m.Add(r.torque.Mul(h))
	}
	if r.spinImpulse != (mgl64.Vec3{}) {
		m = m.Add(r.spinImpulse)
	}
	return m
}

// worldInverseInertia returns R I⁻¹ Rᵀ u, the start-of-step inverse world inertia applied to u.
func (r *rigidModel) worldInverseInertia(u mgl64.Vec3) mgl64.Vec3 {
	return r.rotation.Mul3x1(r.invInertia.Mul3x1(r.rotation.Transpose().Mul3x1(u)))
}

// store scatters the model's state into b, if every value is finite. It reports whether it wrote.
func (r *rigidModel) store(b *RigidBody) bool {
	if !finiteVec(r.position) || !finiteQuat(r.orientation) || !finiteVec(r.velocity) || !finiteVec(r.angularVel) {
		return false
	}
	b.Position = r.position
	b.Orientation = r.orientation
	b.LinearVelocity = r.velocity
	b.AngularVelocity = r.angularVel
	return true
}

// DoFs implements BodyModel.
func (r *rigidModel) DoFs() int { return rigidDoFs }

// MassBlock implements BodyModel: diag(m I₃, R I Rᵀ).
func (r *rigidModel) MassBlock(dst []float64) {
	writeRigidBlock(dst, r.mass, r.rotation.Mul3(r.inertia).Mul3(r.rotation.Transpose()))
}

// writeRigidBlock writes the 6×6 block diag(lin·I₃, ang), row-major, with ang's upper and lower
// triangles averaged so that the block is exactly symmetric despite round-off.
func writeRigidBlock(dst []float64, lin float64, ang mgl64.Mat3) {
	clear(dst)
	for i := 0; i < 3; i++ {
		dst[i*rigidDoFs+i] = lin
	}
	for i := 0; i < 3; i++ {
		for j := i; j < 3; j++ {
			x := 0.5 * (ang.At(i, j) + ang.At(j, i))
			dst[(3+i)*rigidDoFs+3+j] = x
			dst[(3+j)*rigidDoFs+3+i] = x
		}
	}
}

// InverseMassBlock implements BodyModel: diag(I₃/m, R I⁻¹ Rᵀ), from the inverse inertia cached
// at load, which spares the solver a dense inversion per body and step.
func (r *rigidModel) InverseMassBlock(dst []float64) {
	writeRigidBlock(dst, 1/r.mass, r.rotation.Mul3(r.invInertia).Mul3(r.rotation.Transpose()))
}

// PointJacobian implements BodyModel: [I₃ | −[p − x]×], since ẋ_p = v + ω × (p − x).
func (r *rigidModel) PointJacobian(p mgl64.Vec3, dst []float64) {
	clear(dst)
	d := p.Sub(r.position)
	for i := 0; i < 3; i++ {
		dst[i*rigidDoFs+i] = 1
	}
	// −[d]× = [[0, d_z, −d_y], [−d_z, 0, d_x], [d_y, −d_x, 0]]
	dst[0*rigidDoFs+4], dst[0*rigidDoFs+5] = d[2], -d[1]
	dst[1*rigidDoFs+3], dst[1*rigidDoFs+5] = -d[2], d[0]
	dst[2*rigidDoFs+3], dst[2*rigidDoFs+4] = d[1], -d[0]
}

// contactRows writes sign·uᵀJ for the directions u = dirs[0..2], each a row of six: with J the
// point Jacobian at p, uᵀJ = [u | (p − x) × u]. It is what PointJacobian followed by the products
// gives, without forming J.
func (r *rigidModel) contactRows(p mgl64.Vec3, dirs *[3]mgl64.Vec3, sign float64, dst []float64) {
	d := p.Sub(r.position)
	for i, u := range dirs {
		row := (*[rigidDoFs]float64)(dst[i*rigidDoFs:])
		a := d.Cross(u)
		row[0], row[1], row[2] = sign*u[0], sign*u[1], sign*u[2]
		row[3], row[4], row[5] = sign*a[0], sign*a[1], sign*a[2]
	}
}

// PredictVelocity implements BodyModel: q̇ᴾ = q̇ + h M⁻¹(f_ext + f_gyro), paper eq. 12. The linear
// part is semi-implicit Euler, v + h (s g + F/m) with the body's gravity scale s and the game's
// force F; the angular part is the implicit-midpoint angular velocity ω̄ of the rotation from the
// momentum L + h τ (the game's torque τ applied first, then torque-free; see gyroscopic.go).
func (r *rigidModel) PredictVelocity(h float64, g mgl64.Vec3, dst []float64) {
	v := r.velocity.Add(g.Mul(h * r.gravityScale))
	if r.force != (mgl64.Vec3{}) {
		v = v.Add(r.force.Mul(h / r.mass))
	}
	mBody := r.rotation.Transpose().Mul3x1(r.momentum(h))
	mid := midpointMomentum(mBody, r.invInertia, h)
	w := r.rotation.Mul3x1(r.invInertia.Mul3x1(mid))
	dst[0], dst[1], dst[2] = v[0], v[1], v[2]
	dst[3], dst[4], dst[5] = w[0], w[1], w[2]
}

// Advance implements BodyModel. The centre of mass moves by h v; the orientation turns by the
// Cayley map of h ω (body axes); the end-of-step angular velocity carries the start-of-step world
// angular momentum plus the game's torque impulse and the constraint's angular impulse into the
// new orientation.
func (r *rigidModel) Advance(h float64, qdot, impulse []float64) {
	v := mgl64.Vec3{qdot[0], qdot[1], qdot[2]}
	w := mgl64.Vec3{qdot[3], qdot[4], qdot[5]}
	r.position = r.position.Add(v.Mul(h))
	wBody := r.rotation.Transpose().Mul3x1(w)
	r.orientation = normalizeQuat(r.orientation.Mul(cayleyRotation(wBody.Mul(h))))
	momentum := r.momentum(h)
	if impulse != nil {
		momentum = momentum.Add(mgl64.Vec3{impulse[3], impulse[4], impulse[5]})
	}
	r.velocity = v
	rot := r.orientation.Mat4().Mat3()
	r.angularVel = rot.Mul3x1(r.invInertia.Mul3x1(rot.Transpose().Mul3x1(momentum)))
}

// Displace implements BodyModel: the centre of mass moves by dq's linear part and the orientation
// turns by the Cayley map of its angular part (a world rotation vector). The linear velocity
// stays; the angular velocity turns with the body, so that its body-frame value, and with it the
// kinetic energy, stays as the solve left it.
func (r *rigidModel) Displace(dq []float64) {
	r.position = r.position.Add(mgl64.Vec3{dq[0], dq[1], dq[2]})
	wBody := r.orientation.Conjugate().Rotate(r.angularVel)
	turn := r.orientation.Conjugate().Rotate(mgl64.Vec3{dq[3], dq[4], dq[5]})
	r.orientation = normalizeQuat(r.orientation.Mul(cayleyRotation(turn)))
	r.angularVel = r.orientation.Rotate(wBody)
}

// Velocity implements BodyModel.
func (r *rigidModel) Velocity(dst []float64) {
	dst[0], dst[1], dst[2] = r.velocity[0], r.velocity[1], r.velocity[2]
	dst[3], dst[4], dst[5] = r.angularVel[0], r.angularVel[1], r.angularVel[2]
}
