package collide

import (
	"strconv"

	"github.com/go-gl/mathgl/mgl64"
)

// ShapeKind identifies the concrete type of a Shape.
type ShapeKind int

// The shape kinds. The numbering is stable: new kinds are only appended.
const (
	KindSphere ShapeKind = iota
	KindBox
	KindCapsule
	KindHalfSpace
	KindConvexHull
	KindTriangleMesh
	KindSDFGrid
	// KindCylinder is a Cylinder.
	KindCylinder ShapeKind = 7
	// KindCompound is a Compound.
	KindCompound ShapeKind = 8
)

// String returns the kind's name, e.g. "Box".
func (k ShapeKind) String() string {
	switch k {
	case KindSphere:
		return "Sphere"
	case KindBox:
		return "Box"
	case KindCapsule:
		return "Capsule"
	case KindHalfSpace:
		return "HalfSpace"
	case KindConvexHull:
		return "ConvexHull"
	case KindTriangleMesh:
		return "TriangleMesh"
	case KindSDFGrid:
		return "SDFGrid"
	case KindCylinder:
		return "Cylinder"
	case KindCompound:
		return "Compound"
	}
	return "ShapeKind(" + strconv.Itoa(int(k)) + ")"
}

// Shape is implemented by every collision shape. Shapes are immutable values once built; the
// same shape may be placed at many poses by many bodies concurrently.
//
// Build shapes with their constructors (NewSphere, NewConvexHull, ...), which validate them. A
// shape that fails its Validate method, such as the zero value of a shape type, is no usable
// shape: Collide, RayCast, SamplePoints and NewSDFGridFromShape refuse it with a *FieldError, and
// MassProperties returns Validate's error. Its other methods do not panic: the zero value of a
// bounded shape (Sphere, Box, Capsule, Cylinder, ConvexHull, TriangleMesh, SDFGrid, Compound)
// answers as the single point at its local origin (Bounds the point box at the pose's position,
// Support the origin, SignedDistance the distance to the origin, Volume 0); the zero HalfSpace,
// whose Normal is zero, reports the distance −Offset with a zero normal. Methods called on a nil
// pointer panic, as in Go generally.
type Shape interface {
	// Kind returns the concrete kind of the shape.
	Kind() ShapeKind
	// Bounds returns the world-space bounding box of the shape placed at pose. Unbounded shapes
	// (HalfSpace) return a huge but finite box, see HalfSpaceExtent.
	Bounds(pose Pose) AABB
	// MassProperties for a density in kg/m³. Density must be finite and > 0. Shapes that can
	// only be static (HalfSpace) return an error, and so does a shape that fails Validate.
	MassProperties(density float64) (MassProperties, error)
	// Volume in m³ (+Inf for HalfSpace).
	Volume() float64
	// Support returns the local-frame point of the shape furthest along the local direction d
	// (d need not be unit; for d = 0 or a non-finite d any surface point is returned
	// deterministically).
	Support(d mgl64.Vec3) mgl64.Vec3
	// SignedDistance of a local-frame point: negative inside, exact for primitives; and the
	// unit outward normal (gradient) there. Where the gradient is not unique (the medial axis)
	// a valid unit direction to a closest surface point is returned.
	SignedDistance(p mgl64.Vec3) (dist float64, normal mgl64.Vec3)
}
