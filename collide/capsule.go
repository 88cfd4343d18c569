package collide

import (
	"math"

	"github.com/go-gl/mathgl/mgl64"
)

// Capsule is the set of points within Radius of the segment from (0, 0, −HalfHeight) to
// (0, 0, +HalfHeight): a cylinder capped by two hemispheres, axis along local z. HalfHeight may
// be 0 (then the capsule is a sphere). Fields are exported read-only by convention: build with
// NewCapsule, or call Validate after a struct literal.
//
// Features for contact feature ids: face 0 is the cylinder side, face 1 the +z cap and face 2
// the −z cap.
type Capsule struct {
	Radius, HalfHeight float64
}

// NewCapsule returns a capsule; radius must be finite and > 0, halfHeight finite and >= 0.
func NewCapsule(radius, halfHeight float64) (*Capsule, error) {
	c := &Capsule{Radius: radius, HalfHeight: halfHeight}
	if err := c.Validate(); err != nil {
		return nil, err
	}
	return c, nil
}

// Validate checks that Radius is finite and > 0 and HalfHeight is finite and >= 0 (and that c is
// not nil).
func (c *Capsule) Validate() error {
	if c == nil {
		return fieldErrorf("Capsule", "must not be nil")
	}
	if err := checkPositive("Capsule.Radius", c.Radius); err != nil {
		return err
	}
	return checkNonNegative("Capsule.HalfHeight", c.HalfHeight)
}

// Kind returns KindCapsule.
func (c *Capsule) Kind() ShapeKind { return KindCapsule }

// Bounds returns the exact world box: the box of the two end-cap spheres.
func (c *Capsule) Bounds(pose Pose) AABB {
	a := pose.Rotate(mgl64.Vec3{0, 0, c.HalfHeight})
	r := c.Radius
	var e mgl64.Vec3
	for i := 0; i < 3; i++ {
		e[i] = math.Abs(a[i]) + r
	}
	return AABB{Min: pose.Position.Sub(e), Max: pose.Position.Add(e)}
}

// Volume returns π·r²·2h + 4/3·π·r³.
func (c *Capsule) Volume() float64 {
	r := c.Radius
	return math.Pi*r*r*2*c.HalfHeight + 4.0/3.0*math.Pi*r*r*r
}

// MassProperties returns the exact mass and inertia of the cylinder plus two hemispheres. Each
// hemisphere (mass m_h = ρ·2/3·π·r³) has its centroid 3r/8 from its flat face, so about the
// capsule centre it contributes m_h·(83/320·r² + (h + 3r/8)²) to the transverse moments and
// 2/5·m_h·r² to the axial moment.
func (c *Capsule) MassProperties(density float64) (MassProperties, error) {
	if err := c.Validate(); err != nil {
		return MassProperties{}, err
	}
	if err := checkDensity(density); err != nil {
		return MassProperties{}, err
	}
	r, h := c.Radius, c.HalfHeight
	r2 := r * r
	mc := density * math.Pi * r2 * 2 * h         // cylinder
	mh := density * 2.0 / 3.0 * math.Pi * r2 * r // one hemisphere
	l := 2 * h
	d := h + 3*r/8
	transverse := mc*(r2/4+l*l/12) + 2*mh*(83.0/320.0*r2+d*d)
	axial := mc*r2/2 + 2*(0.4*mh*r2)
	return diagonalMassProperties(mc+2*mh, transverse, transverse, axial), nil
}

// Support returns r·d/|d| plus the segment end on the side of d (the +z end when d_z = 0); for
// d = 0 it returns the top point (0, 0, h + r).
func (c *Capsule) Support(d mgl64.Vec3) mgl64.Vec3 {
	u := unitOr(d, mgl64.Vec3{0, 0, 1})
	p := u.Mul(c.Radius)
	p[2] += supportSign(u[2]) * c.HalfHeight
	return p
}

// SignedDistance returns the distance to the segment minus the radius and the direction from
// the closest segment point. On the axis the normal is +x (or +z at the tip of a zero-height
// capsule's centre, where every direction is equivalent). A point with a NaN coordinate is
// reported at +Inf with normal +z.
func (c *Capsule) SignedDistance(p mgl64.Vec3) (float64, mgl64.Vec3) {
	if hasNaN(p) {
		return math.Inf(1), mgl64.Vec3{0, 0, 1}
	}
	z := clamp(p[2], -c.HalfHeight, c.HalfHeight)
	d := mgl64.Vec3{p[0], p[1], p[2] - z}
	fallback := mgl64.Vec3{1, 0, 0}
	if c.HalfHeight == 0 {
		fallback = mgl64.Vec3{0, 0, 1}
	}
	return length(d) - c.Radius, unitOr(d, fallback)
}
