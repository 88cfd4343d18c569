package plugin

import (
	"github.com/g3n/engine/math32"
	"github.com/go-gl/mathgl/mgl64"
)

// ToScene maps a physics (z-up) vector to a g3n scene (y-up) vector: (x, y, z) → (x, z, −y).
func ToScene(v mgl64.Vec3) math32.Vector3 {
	return math32.Vector3{X: float32(v[0]), Y: float32(v[2]), Z: float32(-v[1])}
}

// FromScene is the inverse of ToScene: (x, y, z) → (x, −z, y).
func FromScene(v math32.Vector3) mgl64.Vec3 {
	return mgl64.Vec3{float64(v.X), float64(-v.Z), float64(v.Y)}
}

// QuatToScene maps a physics orientation R to the scene orientation C R Cᵀ. Conjugating by the
// rotation C rotates the quaternion's vector part by C and keeps its scalar part.
func QuatToScene(q mgl64.Quat) math32.Quaternion {
	v := ToScene(q.V)
	return math32.Quaternion{X: v.X, Y: v.Y, Z: v.Z, W: float32(q.W)}
}
