package collide

import "github.com/go-gl/mathgl/mgl64"

// MassProperties of a solid shape of uniform density, in the shape's local frame.
type MassProperties struct {
	Mass         float64
	CenterOfMass mgl64.Vec3 // local frame
	Inertia      mgl64.Mat3 // about the centre of mass, local axes, kg·m²
}

// diagonalMassProperties returns mass properties with the centre of mass at the origin and a
// diagonal inertia tensor.
func diagonalMassProperties(mass, ixx, iyy, izz float64) MassProperties {
	return MassProperties{Mass: mass, Inertia: mgl64.Diag3(mgl64.Vec3{ixx, iyy, izz})}
}
