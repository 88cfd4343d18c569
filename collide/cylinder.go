package collide

import (
	"math"

	"github.com/go-gl/mathgl/mgl64"
)

// cylinderRimSamples is the number of points by which contact routines sample each rim circle of
// a cylinder: a regular polygon inscribed in the rim, vertex k at angle 2πk/16 from local +x.
const cylinderRimSamples = 16

// Cylinder is the solid circular cylinder of the given Radius whose axis runs along local z
// from −HalfHeight to +HalfHeight, with flat caps. Fields are exported read-only by convention:
// build with NewCylinder, or call Validate after a struct literal.
//
// Features for contact feature ids: face 0 is the side, face 1 the +z cap and face 2 the −z cap;
// edge 0 is the +z rim and edge 1 the −z rim; vertex k (0 <= k < 16) is the point of the +z rim
// at angle 2πk/16 from local +x and vertex 16 + k the same point of the −z rim.
type Cylinder struct {
	Radius, HalfHeight float64
}

// NewCylinder returns a cylinder; radius and halfHeight must be finite and > 0.
func NewCylinder(radius, halfHeight float64) (*Cylinder, error) {
	c := &Cylinder{Radius: radius, HalfHeight: halfHeight}
	if err := c.Validate(); err != nil {
		return nil, err
	}
	return c, nil
}

// Validate checks that Radius and HalfHeight are finite and > 0 (and that c is not nil). A
// cylinder of zero height would be a flat disc with no volume, so unlike a capsule's, its half
// height must be positive.
func (c *Cylinder) Validate() error {
	if c == nil {
		return fieldErrorf("Cylinder", "must not be nil")
	}
	if err := checkPositive("Cylinder.Radius", c.Radius); err != nil {
		return err
	}
	return checkPositive("Cylinder.HalfHeight", c.HalfHeight)
}

// Kind returns KindCylinder.
func (c *Cylinder) Kind() ShapeKind { return KindCylinder }

// Bounds returns the exact world box. With a the world image of the local z axis, the two rim
// circles reach |a_i|·h + r·√(1 − a_i²) from the centre along world axis i.
func (c *Cylinder) Bounds(pose Pose) AABB {
	a := pose.Rotate(mgl64.Vec3{0, 0, 1})
	var e mgl64.Vec3
	for i := 0; i < 3; i++ {
		e[i] = math.Abs(a[i])*c.HalfHeight + c.Radius*math.Sqrt(max(0, 1-a[i]*a[i]))
	}
	return AABB{Min: pose.Position.Sub(e), Max: pose.Position.Add(e)}
}

// Volume returns π·r²·2h.
func (c *Cylinder) Volume() float64 {
	return math.Pi * c.Radius * c.Radius * 2 * c.HalfHeight
}

// MassProperties returns mass ρV and the solid cylinder's inertia: m·r²/2 about its axis and
// m·(3r² + 4h²)/12 about the two transverse axes (h the half height, 2h the length).
func (c *Cylinder) MassProperties(density float64) (MassProperties, error) {
	if err := c.Validate(); err != nil {
		return MassProperties{}, err
	}
	if err := checkDensity(density); err != nil {
		return MassProperties{}, err
	}
	r, h := c.Radius, c.HalfHeight
	m := density * c.Volume()
	transverse := m * (3*r*r + 4*h*h) / 12
	return diagonalMassProperties(m, transverse, transverse, m*r*r/2), nil
}

// Support returns the rim point furthest along d: the radial part of d scaled to the radius, on
// the cap on the side of d_z (the +z cap when d_z = 0). When d is along the axis the cap's centre
// is returned, and for d = 0 or a non-finite d the +z cap's centre.
func (c *Cylinder) Support(d mgl64.Vec3) mgl64.Vec3 {
	if !isFiniteVec(d) {
		return mgl64.Vec3{0, 0, c.HalfHeight}
	}
	var p mgl64.Vec3
	if u, ok := unit(mgl64.Vec3{d[0], d[1], 0}); ok {
		p = u.Mul(c.Radius)
	}
	p[2] = supportSign(d[2]) * c.HalfHeight
	return p
}

// SignedDistance returns the exact signed distance to the cylinder and its gradient. Outside,
// the closest point is on the side, on a cap or on a rim circle (then the normal points from
// the rim); inside, the nearer of the side and the caps wins (the caps on a tie). On the axis
// the side's normal is +x. A point with a NaN coordinate is reported at +Inf with normal +z.
func (c *Cylinder) SignedDistance(p mgl64.Vec3) (float64, mgl64.Vec3) {
	if hasNaN(p) {
		return math.Inf(1), mgl64.Vec3{0, 0, 1}
	}
	rho := math.Hypot(p[0], p[1])
	radial := mgl64.Vec3{1, 0, 0}
	if rho > 0 {
		radial = mgl64.Vec3{p[0] / rho, p[1] / rho, 0}
	}
	sz := supportSign(p[2])
	dr := rho - c.Radius
	dz := math.Abs(p[2]) - c.HalfHeight
	switch {
	case dr > 0 && dz > 0:
		d := math.Hypot(dr, dz)
		return d, unitOr(mgl64.Vec3{radial[0] * dr, radial[1] * dr, sz * dz}, radial)
	case dz >= dr:
		return dz, mgl64.Vec3{0, 0, sz}
	}
	return dr, radial
}

// rimPoint returns local vertex k of the cylinder's rim polygons (see Cylinder's features): the
// +z rim for k < 16, the −z rim for 16 <= k < 32.
func (c *Cylinder) rimPoint(k int) mgl64.Vec3 {
	z := c.HalfHeight
	if k >= cylinderRimSamples {
		z = -z
	}
	s, co := rimSinCos[k%cylinderRimSamples][0], rimSinCos[k%cylinderRimSamples][1]
	return mgl64.Vec3{c.Radius * co, c.Radius * s, z}
}

// rimSinCos holds sin and cos of 2πk/16, exact at the multiples of π/2 so that the square of
// vertices 0, 4, 8, 12 lies exactly on the local axes.
var rimSinCos = func() [cylinderRimSamples][2]float64 {
	var t [cylinderRimSamples][2]float64
	for k := range t {
		a := 2 * math.Pi * float64(k) / cylinderRimSamples
		t[k] = [2]float64{math.Sin(a), math.Cos(a)}
		if k%4 == 0 {
			q := [4][2]float64{{0, 1}, {1, 0}, {0, -1}, {-1, 0}}
			t[k] = q[k/4]
		}
	}
	return t
}()
