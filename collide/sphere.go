package collide

import (
	"math"

	"github.com/go-gl/mathgl/mgl64"
)

// Sphere is a solid ball of the given radius centred on the local origin. Fields are exported
// read-only by convention: build with NewSphere, or call Validate after a struct literal.
type Sphere struct {
	Radius float64
}

// NewSphere returns a sphere; radius must be finite and > 0.
func NewSphere(radius float64) (*Sphere, error) {
	s := &Sphere{Radius: radius}
	if err := s.Validate(); err != nil {
		return nil, err
	}
	return s, nil
}

// Validate checks that Radius is finite and > 0 (and that s is not nil).
func (s *Sphere) Validate() error {
	if s == nil {
		return fieldErrorf("Sphere", "must not be nil")
	}
	return checkPositive("Sphere.Radius", s.Radius)
}

// Kind returns KindSphere.
func (s *Sphere) Kind() ShapeKind { return KindSphere }

// Bounds returns the world box of the sphere at pose (exact: a sphere's box does not depend on
// its rotation).
func (s *Sphere) Bounds(pose Pose) AABB {
	r := mgl64.Vec3{s.Radius, s.Radius, s.Radius}
	return AABB{Min: pose.Position.Sub(r), Max: pose.Position.Add(r)}
}

// Volume returns 4/3·π·r³.
func (s *Sphere) Volume() float64 {
	return 4.0 / 3.0 * math.Pi * s.Radius * s.Radius * s.Radius
}

// MassProperties returns mass ρV and inertia 2/5·m·r² about every axis.
func (s *Sphere) MassProperties(density float64) (MassProperties, error) {
	if err := s.Validate(); err != nil {
		return MassProperties{}, err
	}
	if err := checkDensity(density); err != nil {
		return MassProperties{}, err
	}
	m := density * s.Volume()
	i := 0.4 * m * s.Radius * s.Radius
	return diagonalMassProperties(m, i, i, i), nil
}

// Support returns r·d/|d|; for d = 0 it returns the top point (0, 0, r).
func (s *Sphere) Support(d mgl64.Vec3) mgl64.Vec3 {
	return unitOr(d, mgl64.Vec3{0, 0, 1}).Mul(s.Radius)
}

// SignedDistance returns |p| − r and the radial direction; at the centre the normal is +z. A
// point with a NaN coordinate is reported at +Inf with normal +z.
func (s *Sphere) SignedDistance(p mgl64.Vec3) (float64, mgl64.Vec3) {
	if hasNaN(p) {
		return math.Inf(1), mgl64.Vec3{0, 0, 1}
	}
	return length(p) - s.Radius, unitOr(p, mgl64.Vec3{0, 0, 1})
}
