package physics

import "github.com/go-gl/mathgl/mgl64"

// contactList is the step's contact points, flat: what the collision stage hands the contact stage
// and sleeping (collisionWorld.collide fills it). Points come pair by pair in the collision world's
// (A, B) order and, within a pair, in its manifold's order, so the list is the same for any number
// of workers. Its storage is reused from step to step.
type contactList struct {
	points []contactPoint
}

// contactPoint is one contact point of the step with everything the contact stage and sleeping read
// of it. The normal points from side a to side b.
type contactPoint struct {
	// pair and point name the point in the collision world: its pair this step and its index in the
	// pair's manifold. collisionWorld.storeImpulses writes the solve's impulse back there. A
	// deformable body's contact has pair −1 − j for the step's deformable j and point its index in
	// that model's contacts (deformable_contact.go).
	pair, point int
	a, b        contactSide
	// position is midway between the two surfaces, m; normal is a unit vector; gap is the signed
	// distance before the step's solve, m (negative: penetration).
	position, normal mgl64.Vec3
	gap              float64
	// friction and restitution are the two bodies' combined coefficients (combineFriction,
	// combineRestitution).
	friction, restitution float64
	// warm is the impulse that last step's point with the same feature id received (zero for a new
	// point): the solve's warm start, paper §6.4.
	warm contactImpulse
}

// contactSide is one body of a contact point.
type contactSide struct {
	// model is the body's dynamic model, or -1 for a static or kinematic body.
	model int
	// sample is the surface sample of a deformable model (deformableModel.surface) whose material
	// point the contact constrains.
	sample int32
	// onFace: the side is instead the point of the deformable model's surface triangle face
	// (deformableModel.triangles) with barycentric weights bary — the surface side of a
	// deformable–deformable contact (deformable_pair.go).
	onFace bool
	face   int32
	bary   [3]float64
	// kinematic: a kinematic body, whose known velocity at the point, velocity (m/s), enters the
	// contact's constant term. moving: a kinematic body that moves this step or that the game
	// moved, which wakes a sleeping island it touches.
	kinematic, moving bool
	velocity          mgl64.Vec3
	// angular is a kinematic body's angular velocity, rad/s, world (torsional friction's).
	angular mgl64.Vec3
}

// contactImpulse is the impulse a contact point receives over a step: the normal impulse α and the
// world-frame friction impulse, N·s.
type contactImpulse struct {
	normal   float64
	friction mgl64.Vec3
}

// reset empties the list, keeping its storage.
func (l *contactList) reset() { l.points = l.points[:0] }

// add appends a point.
func (l *contactList) add(p contactPoint) { l.points = append(l.points, p) }
