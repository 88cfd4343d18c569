package collide

import (
	"math"

	"github.com/go-gl/mathgl/mgl64"
)

// poseUnitTolerance is how far |Rotation| may be from 1 for Pose.Validate to accept it.
const poseUnitTolerance = 1e-6

// Pose is a rigid placement: world = Rotation.Rotate(local) + Position. Rotation is a unit
// quaternion. The zero Pose (zero quaternion) acts as the identity: the rotation formula used
// here, v + 2w(u×v) + 2u×(u×v), maps every vector to itself when the quaternion is zero.
type Pose struct {
	Position mgl64.Vec3
	Rotation mgl64.Quat
}

// IdentityPose returns the pose at the origin with no rotation.
func IdentityPose() Pose {
	return Pose{Rotation: mgl64.QuatIdent()}
}

// NewPose returns a pose after checking that position is finite and rotation is finite and
// non-zero; the rotation is normalised.
func NewPose(position mgl64.Vec3, rotation mgl64.Quat) (Pose, error) {
	p := Pose{Position: position, Rotation: rotation}
	if err := checkFiniteVec("Pose.Position", position); err != nil {
		return Pose{}, err
	}
	if err := checkFiniteQuat(rotation); err != nil {
		return Pose{}, err
	}
	n := quatLen(rotation)
	if !(n > 0) || !isFinite(n) {
		return Pose{}, fieldErrorf("Pose.Rotation", "must be a non-zero finite quaternion, got %v", rotation)
	}
	p.Rotation = mgl64.Quat{W: rotation.W / n, V: rotation.V.Mul(1 / n)}
	return p, nil
}

// Validate checks that the position is finite and the rotation is a finite unit quaternion
// (within 1e-6).
func (p Pose) Validate() error {
	if err := checkFiniteVec("Pose.Position", p.Position); err != nil {
		return err
	}
	if err := checkFiniteQuat(p.Rotation); err != nil {
		return err
	}
	if n := quatLen(p.Rotation); math.Abs(n-1) > poseUnitTolerance {
		return fieldErrorf("Pose.Rotation", "must be a unit quaternion, got length %v", n)
	}
	return nil
}

// Apply maps a local-frame point to the world frame.
func (p Pose) Apply(local mgl64.Vec3) mgl64.Vec3 {
	return p.Rotate(local).Add(p.Position)
}

// ApplyInverse maps a world-frame point to the local frame.
func (p Pose) ApplyInverse(world mgl64.Vec3) mgl64.Vec3 {
	return p.InverseRotate(world.Sub(p.Position))
}

// Rotate maps a local-frame direction to the world frame (no translation).
func (p Pose) Rotate(v mgl64.Vec3) mgl64.Vec3 {
	return quatRotate(p.Rotation.W, p.Rotation.V, v)
}

// InverseRotate maps a world-frame direction to the local frame (no translation).
func (p Pose) InverseRotate(v mgl64.Vec3) mgl64.Vec3 {
	return quatRotate(p.Rotation.W, p.Rotation.V.Mul(-1), v)
}

// Mul composes poses: p.Mul(q).Apply(x) == p.Apply(q.Apply(x)).
func (p Pose) Mul(q Pose) Pose {
	return Pose{
		Position: p.Apply(q.Position),
		Rotation: quatMul(p.Rotation, q.Rotation),
	}
}

// Inverse returns the pose that undoes p: p.Inverse().Apply(p.Apply(x)) == x.
func (p Pose) Inverse() Pose {
	inv := mgl64.Quat{W: p.Rotation.W, V: p.Rotation.V.Mul(-1)}
	return Pose{Position: quatRotate(inv.W, inv.V, p.Position).Mul(-1), Rotation: inv}
}

// Matrix returns the rotation matrix of the pose (columns are the world images of the local
// axes).
func (p Pose) Matrix() mgl64.Mat3 {
	f := p.frame()
	return mgl64.Mat3FromCols(f.axis[0], f.axis[1], f.axis[2])
}

// quatRotate rotates v by the quaternion (w, u): v + 2w(u×v) + 2u×(u×v).
func quatRotate(w float64, u, v mgl64.Vec3) mgl64.Vec3 {
	c := u.Cross(v)
	d := u.Cross(c)
	return mgl64.Vec3{
		v[0] + 2*(w*c[0]+d[0]),
		v[1] + 2*(w*c[1]+d[1]),
		v[2] + 2*(w*c[2]+d[2]),
	}
}

// quatMul is the Hamilton product a·b.
func quatMul(a, b mgl64.Quat) mgl64.Quat {
	return mgl64.Quat{
		W: a.W*b.W - a.V.Dot(b.V),
		V: b.V.Mul(a.W).Add(a.V.Mul(b.W)).Add(a.V.Cross(b.V)),
	}
}

// quatLen is the Euclidean norm of a quaternion.
func quatLen(q mgl64.Quat) float64 {
	return math.Sqrt(q.W*q.W + q.V.Dot(q.V))
}

// checkFiniteQuat refuses a quaternion with a non-finite component.
func checkFiniteQuat(q mgl64.Quat) error {
	if !isFinite(q.W) {
		return fieldErrorf("Pose.Rotation.W", "must be finite, got %v", q.W)
	}
	return checkFiniteVec("Pose.Rotation.V", q.V)
}

// frame is a pose expanded to a rotation matrix for repeated transforms in pair routines.
type frame struct {
	axis [3]mgl64.Vec3 // world images of the local x, y, z axes
	pos  mgl64.Vec3
}

// frame expands the pose to a rotation matrix.
func (p Pose) frame() frame {
	w, x, y, z := p.Rotation.W, p.Rotation.V[0], p.Rotation.V[1], p.Rotation.V[2]
	return frame{
		axis: [3]mgl64.Vec3{
			{1 - 2*(y*y+z*z), 2 * (x*y + w*z), 2 * (x*z - w*y)},
			{2 * (x*y - w*z), 1 - 2*(x*x+z*z), 2 * (y*z + w*x)},
			{2 * (x*z + w*y), 2 * (y*z - w*x), 1 - 2*(x*x+y*y)},
		},
		pos: p.Position,
	}
}

// rotate maps a local direction to the world.
func (f *frame) rotate(v mgl64.Vec3) mgl64.Vec3 {
	return mgl64.Vec3{
		f.axis[0][0]*v[0] + f.axis[1][0]*v[1] + f.axis[2][0]*v[2],
		f.axis[0][1]*v[0] + f.axis[1][1]*v[1] + f.axis[2][1]*v[2],
		f.axis[0][2]*v[0] + f.axis[1][2]*v[1] + f.axis[2][2]*v[2],
	}
}

// invRotate maps a world direction to the local frame.
func (f *frame) invRotate(v mgl64.Vec3) mgl64.Vec3 {
	return mgl64.Vec3{f.axis[0].Dot(v), f.axis[1].Dot(v), f.axis[2].Dot(v)}
}

// apply maps a local point to the world.
func (f *frame) apply(v mgl64.Vec3) mgl64.Vec3 {
	return f.rotate(v).Add(f.pos)
}

// applyInv maps a world point to the local frame.
func (f *frame) applyInv(v mgl64.Vec3) mgl64.Vec3 {
	return f.invRotate(v.Sub(f.pos))
}
