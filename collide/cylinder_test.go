package collide

import (
	"errors"
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
)

// cylinderSurfaceSamples returns points spread over the cylinder's surface: n rings along the
// side, n rings on each cap, n points a ring.
func cylinderSurfaceSamples(c *Cylinder, n int) []mgl64.Vec3 {
	var pts []mgl64.Vec3
	for i := 0; i < n; i++ {
		a := 2 * math.Pi * (float64(i) + 0.5) / float64(n)
		co, s := math.Cos(a), math.Sin(a)
		for j := 0; j <= n; j++ {
			z := -c.HalfHeight + 2*c.HalfHeight*float64(j)/float64(n)
			pts = append(pts, mgl64.Vec3{c.Radius * co, c.Radius * s, z})
			rr := c.Radius * float64(j) / float64(n)
			pts = append(pts, mgl64.Vec3{rr * co, rr * s, c.HalfHeight}, mgl64.Vec3{rr * co, rr * s, -c.HalfHeight})
		}
	}
	return pts
}

// TestCylinderMassProperties compares the closed form with a midpoint quadrature of the solid
// in cylindrical coordinates.
func TestCylinderMassProperties(t *testing.T) {
	c := must(NewCylinder(0.3, 0.7))
	const rho = 750.0
	mp := must(c.MassProperties(rho))
	const nr, nz = 400, 400
	var m, ixx, izz float64
	dr, dz := c.Radius/nr, 2*c.HalfHeight/nz
	for i := 0; i < nr; i++ {
		r := (float64(i) + 0.5) * dr
		ring := rho * 2 * math.Pi * r * dr * dz // mass of a ring of one z slice
		for j := 0; j < nz; j++ {
			z := -c.HalfHeight + (float64(j)+0.5)*dz
			m += ring
			izz += ring * r * r
			ixx += ring * (r*r/2 + z*z) // the ring's x² averages r²/2
		}
	}
	if math.Abs(mp.Mass-m) > 1e-9*m {
		t.Errorf("mass %v, quadrature %v", mp.Mass, m)
	}
	if math.Abs(c.Volume()*rho-m) > 1e-9*m {
		t.Errorf("volume %v, quadrature %v", c.Volume(), m/rho)
	}
	want := mgl64.Vec3{ixx, ixx, izz}
	for k := 0; k < 3; k++ {
		if got := mp.Inertia.At(k, k); math.Abs(got-want[k]) > 1e-5*want[k] {
			t.Errorf("I[%d][%d] = %v, quadrature %v", k, k, got, want[k])
		}
	}
	if mp.Inertia.At(0, 1) != 0 || mp.Inertia.At(0, 2) != 0 || mp.Inertia.At(1, 2) != 0 {
		t.Errorf("off-diagonal inertia %v", mp.Inertia)
	}
}

// TestCylinderBoundsContainSupportAndAreTight places the cylinder at random poses: every
// support point lies in the box, and the box's faces are touched by the support points along
// the world axes.
func TestCylinderBoundsContainSupportAndAreTight(t *testing.T) {
	c := must(NewCylinder(0.4, 0.9))
	r := newRand(18)
	for k := 0; k < 50; k++ {
		pose := randPose(r, 3)
		b := c.Bounds(pose)
		for i := 0; i < 200; i++ {
			d := randUnit(r)
			p := pose.Apply(c.Support(pose.InverseRotate(d)))
			for j := 0; j < 3; j++ {
				if p[j] < b.Min[j]-1e-12 || p[j] > b.Max[j]+1e-12 {
					t.Fatalf("pose %d: support point %v outside %v", k, p, b)
				}
			}
		}
		for j := 0; j < 3; j++ {
			var e mgl64.Vec3
			e[j] = 1
			hi := pose.Apply(c.Support(pose.InverseRotate(e)))[j]
			lo := pose.Apply(c.Support(pose.InverseRotate(e.Mul(-1))))[j]
			if math.Abs(hi-b.Max[j]) > 1e-12 || math.Abs(lo-b.Min[j]) > 1e-12 {
				t.Fatalf("pose %d axis %d: extremes %v..%v, bounds %v..%v", k, j, lo, hi, b.Min[j], b.Max[j])
			}
		}
	}
}

// TestCylinderSupportMatchesBruteForce compares Support with the best of dense rim samples.
func TestCylinderSupportMatchesBruteForce(t *testing.T) {
	c := must(NewCylinder(0.5, 0.2))
	const n = 4096
	r := newRand(7)
	for k := 0; k < 500; k++ {
		d := randUnit(r)
		s := c.Support(d)
		if sd, _ := c.SignedDistance(s); math.Abs(sd) > 1e-12 {
			t.Fatalf("support %v is %v off the surface", s, sd)
		}
		best := math.Inf(-1)
		for i := 0; i < n; i++ {
			a := 2 * math.Pi * float64(i) / n
			for _, z := range []float64{-c.HalfHeight, c.HalfHeight} {
				best = max(best, mgl64.Vec3{c.Radius * math.Cos(a), c.Radius * math.Sin(a), z}.Dot(d))
			}
		}
		// The sampled maximum is below the true one by at most r·(1 − cos(π/n)).
		if got := s.Dot(d); got < best-1e-12 || got > best+c.Radius*(1-math.Cos(math.Pi/n))+1e-12 {
			t.Fatalf("d %v: support reaches %v, samples %v", d, got, best)
		}
	}
}

// TestCylinderSignedDistanceMatchesBruteForce checks that surface points have distance 0 and
// a unit gradient, and that random points' distances match the nearest of dense surface
// samples, with the sign of the inside test.
func TestCylinderSignedDistanceMatchesBruteForce(t *testing.T) {
	c := must(NewCylinder(0.35, 0.6))
	for _, p := range cylinderSurfaceSamples(c, 24) {
		d, n := c.SignedDistance(p)
		if math.Abs(d) > 1e-12 || !isUnit(n) {
			t.Fatalf("surface point %v: distance %v, normal %v", p, d, n)
		}
	}
	samples := cylinderSurfaceSamples(c, 300)
	spacing := 2 * math.Pi * c.Radius / 300
	r := newRand(3)
	for k := 0; k < 300; k++ {
		p := randInCube(r, 1.2)
		d, n := c.SignedDistance(p)
		if !isUnit(n) {
			t.Fatalf("%v: normal %v", p, n)
		}
		best := math.Inf(1)
		for _, s := range samples {
			best = min(best, s.Sub(p).Len())
		}
		inside := math.Hypot(p[0], p[1]) <= c.Radius && math.Abs(p[2]) <= c.HalfHeight
		if inside != (d <= 0) {
			t.Fatalf("%v: distance %v but inside = %v", p, d, inside)
		}
		if math.Abs(math.Abs(d)-best) > spacing {
			t.Fatalf("%v: distance %v, nearest sample %v", p, d, best)
		}
		// The gradient leads to a surface point: p − d·n is on the surface.
		if q, _ := c.SignedDistance(madd(p, n, -d)); math.Abs(q) > 1e-9 {
			t.Fatalf("%v: p − d n is %v off the surface", p, q)
		}
	}
}

// TestCylinderValidate refuses bad sizes with a FieldError naming the field.
func TestCylinderValidate(t *testing.T) {
	for _, v := range []float64{0, -1, math.NaN(), math.Inf(1)} {
		for _, tc := range []struct {
			err   error
			field string
		}{
			{func() error { _, err := NewCylinder(v, 1); return err }(), "Cylinder.Radius"},
			{func() error { _, err := NewCylinder(1, v); return err }(), "Cylinder.HalfHeight"},
		} {
			var fe *FieldError
			if !errors.As(tc.err, &fe) || fe.Field != tc.field {
				t.Errorf("value %v: got %v, want a FieldError on %s", v, tc.err, tc.field)
			}
		}
	}
	if KindCylinder.String() != "Cylinder" || KindCylinder != 7 {
		t.Errorf("KindCylinder = %d %q", int(KindCylinder), KindCylinder)
	}
}

// TestCylinderRayCastMatchesSignedDistance casts random rays: a hit point is on the surface
// with the distance's gradient as normal and every earlier point of the ray is outside; a miss
// stays outside all along.
func TestCylinderRayCastMatchesSignedDistance(t *testing.T) {
	c := must(NewCylinder(0.4, 0.3))
	r := newRand(11)
	hits := 0
	for k := 0; k < 2000; k++ {
		pose := randPose(r, 0.5)
		o := randInCube(r, 2)
		dir := pose.Position.Add(randInCube(r, 0.6)).Sub(o)
		h, hit, err := RayCast(c, pose, o, dir, 10)
		if err != nil {
			t.Fatal(err)
		}
		d := dir.Normalize()
		end := 10.0
		if hit {
			hits++
			end = h.T
			if h.T == 0 {
				if sd, _ := c.SignedDistance(pose.ApplyInverse(o)); sd > 0 {
					t.Fatalf("ray from %v outside (distance %v) hit at T = 0", o, sd)
				}
				continue
			}
			sd, n := c.SignedDistance(pose.ApplyInverse(h.Point))
			if math.Abs(sd) > 1e-9 {
				t.Fatalf("hit %+v: distance %v", h, sd)
			}
			if math.Abs(pose.Rotate(n).Dot(h.Normal)-1) > 1e-6 {
				t.Fatalf("hit normal %v, gradient %v", h.Normal, pose.Rotate(n))
			}
		}
		for i := 0; i < 200; i++ {
			s := end * float64(i) / 200
			if sd, _ := c.SignedDistance(pose.ApplyInverse(madd(o, d, s))); sd < -1e-9 {
				t.Fatalf("ray %v %v: point at %v inside (distance %v) before the hit %v %v", o, d, s, sd, hit, end)
			}
		}
	}
	if hits < 500 {
		t.Fatalf("only %d of 2000 rays hit", hits)
	}
}
