package plugin

import (
	"math"

	"github.com/g3n/engine/math32"
	"github.com/go-gl/mathgl/mgl64"
)

// ToScene maps a physics (z-up) vector to a g3n scene (y-up) vector: (x, y, z) → (x, z, −y).
// g3n stores float32: a component beyond its range (a body 1e39 m away, say) is clamped to
// ±math.MaxFloat32 rather than becoming ±Inf (docs/architecture.md, Errors).
func ToScene(v mgl64.Vec3) math32.Vector3 {
	return math32.Vector3{X: toFloat32(v[0]), Y: toFloat32(v[2]), Z: toFloat32(-v[1])}
}

// toFloat32 converts x to float32, clamping finite values beyond its range to ±math.MaxFloat32.
func toFloat32(x float64) float32 {
	switch {
	case x > math.MaxFloat32 && !math.IsInf(x, 1):
		return math.MaxFloat32
	case x < -math.MaxFloat32 && !math.IsInf(x, -1):
		return -math.MaxFloat32
	}
	return float32(x)
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
