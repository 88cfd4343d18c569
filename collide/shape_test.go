package collide

import (
	"math"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
)

// testPrimitives returns one of each bounded primitive.
func testPrimitives() []Shape {
	return []Shape{
		must(NewSphere(0.7)),
		must(NewBox(mgl64.Vec3{0.3, 0.8, 1.4})),
		must(NewCapsule(0.35, 0.9)),
		must(NewCapsule(0.5, 0)),
		testHull(0.6),
	}
}

// TestBoundsContainSupportAndAreTight checks, for random poses, that the world box contains the
// support point along each of ±x, ±y, ±z and that its faces pass exactly through them.
func TestBoundsContainSupportAndAreTight(t *testing.T) {
	r := newRand(11)
	for _, s := range testPrimitives() {
		for i := 0; i < 200; i++ {
			p := randPose(r, 20)
			b := s.Bounds(p)
			for k := 0; k < 3; k++ {
				for _, sg := range []float64{1, -1} {
					var d mgl64.Vec3
					d[k] = sg
					w := p.Apply(s.Support(p.InverseRotate(d)))
					if !b.Expand(1e-12).Contains(w) {
						t.Fatalf("%v: support %v outside bounds %v", s.Kind(), w, b)
					}
					face := b.Max[k]
					if sg < 0 {
						face = b.Min[k]
					}
					if !near(face, w[k], 1e-12) {
						t.Fatalf("%v: bound face %v not tight, support at %v", s.Kind(), face, w[k])
					}
				}
			}
			// Random surface samples lie inside too.
			for j := 0; j < 20; j++ {
				w := p.Apply(s.Support(randUnit(r)))
				if !b.Expand(1e-12).Contains(w) {
					t.Fatalf("%v: sample %v outside bounds %v", s.Kind(), w, b)
				}
			}
		}
	}
}

// TestSupportIsExtremeAndOnSurface checks that Support maximises d·x over points on the
// surface (found by projecting random points with SignedDistance) and lies on the surface.
func TestSupportIsExtremeAndOnSurface(t *testing.T) {
	r := newRand(12)
	for _, s := range testPrimitives() {
		var surface []mgl64.Vec3
		for len(surface) < 3000 {
			q := randInCube(r, 3)
			d, n := s.SignedDistance(q)
			surface = append(surface, q.Sub(n.Mul(d)))
		}
		for i := 0; i < 100; i++ {
			d := randUnit(r).Mul(0.1 + 10*r.Float64())
			sp := s.Support(d)
			if sd, _ := s.SignedDistance(sp); math.Abs(sd) > 1e-12 {
				t.Fatalf("%v: support %v is %v off the surface", s.Kind(), sp, sd)
			}
			best := sp.Dot(d)
			for _, q := range surface {
				if q.Dot(d) > best+1e-9 {
					t.Fatalf("%v: surface point %v beats support %v along %v", s.Kind(), q, sp, d)
				}
			}
		}
		// Zero and non-finite directions return a surface point, deterministically.
		for _, d := range []mgl64.Vec3{{}, {math.NaN(), 0, 0}, {math.Inf(1), math.Inf(-1), 0}} {
			a, b := s.Support(d), s.Support(d)
			if a != b || hasNaN(a) {
				t.Fatalf("%v: Support(%v) = %v, %v", s.Kind(), d, a, b)
			}
			if sd, _ := s.SignedDistance(a); math.Abs(sd) > 1e-12 {
				t.Fatalf("%v: Support(%v) = %v is off the surface by %v", s.Kind(), d, a, sd)
			}
		}
	}
}

// bruteBoxDistance is the signed distance to a box computed face by face: the distance to each
// face rectangle by clamping, the sign from a containment test.
func bruteBoxDistance(h, p mgl64.Vec3) float64 {
	best := math.Inf(1)
	for k := 0; k < 3; k++ {
		for _, sg := range []float64{1, -1} {
			q := p
			q[k] = sg * h[k]
			for j := 0; j < 3; j++ {
				if j != k {
					q[j] = clampTest(q[j], -h[j], h[j])
				}
			}
			best = math.Min(best, p.Sub(q).Len())
		}
	}
	if math.Abs(p[0]) < h[0] && math.Abs(p[1]) < h[1] && math.Abs(p[2]) < h[2] {
		return -best
	}
	return best
}

func clampTest(x, lo, hi float64) float64 { return math.Max(lo, math.Min(hi, x)) }

// bruteSegmentDistance minimises |p − s(t)| over the segment by golden-section search (the
// distance is convex in t).
func bruteSegmentDistance(a, b, p mgl64.Vec3) float64 {
	f := func(t float64) float64 { return p.Sub(a.Add(b.Sub(a).Mul(t))).Len() }
	lo, hi := 0.0, 1.0
	g := (math.Sqrt(5) - 1) / 2
	for i := 0; i < 200; i++ {
		m1, m2 := hi-g*(hi-lo), lo+g*(hi-lo)
		if f(m1) < f(m2) {
			hi = m2
		} else {
			lo = m1
		}
	}
	return math.Min(f(0.5*(lo+hi)), math.Min(f(0), f(1)))
}

func TestSignedDistanceAgainstBruteForce(t *testing.T) {
	r := newRand(13)
	box := must(NewBox(mgl64.Vec3{0.3, 0.8, 1.4}))
	capsule := must(NewCapsule(0.35, 0.9))
	sphere := must(NewSphere(0.7))
	half := must(NewHalfSpace(mgl64.Vec3{1, 2, 2}, 0.5))
	for i := 0; i < 2000; i++ {
		p := randInCube(r, 2.5)
		if d, _ := box.SignedDistance(p); !near(d, bruteBoxDistance(box.HalfExtents, p), 1e-12) {
			t.Fatalf("box at %v: %v, brute %v", p, d, bruteBoxDistance(box.HalfExtents, p))
		}
		want := bruteSegmentDistance(mgl64.Vec3{0, 0, -0.9}, mgl64.Vec3{0, 0, 0.9}, p) - 0.35
		if d, _ := capsule.SignedDistance(p); !near(d, want, 1e-9) {
			t.Fatalf("capsule at %v: %v, brute %v", p, d, want)
		}
		if d, _ := sphere.SignedDistance(p); !near(d, p.Len()-0.7, 1e-14) {
			t.Fatalf("sphere at %v: %v", p, d)
		}
		if d, _ := half.SignedDistance(p); !near(d, (p[0]+2*p[1]+2*p[2])/3-0.5, 1e-12) {
			t.Fatalf("half-space at %v: %v", p, d)
		}
	}
}

// TestSignedDistanceNormals checks that the normal is unit, matches the finite-difference
// gradient away from the medial axis, and that p − d·n lands on the surface.
func TestSignedDistanceNormals(t *testing.T) {
	r := newRand(14)
	shapes := append(testPrimitives(), must(NewHalfSpace(mgl64.Vec3{0, -1, 1}, 0.2)))
	for _, s := range shapes {
		for i := 0; i < 1000; i++ {
			p := randInCube(r, 2.5)
			d, n := s.SignedDistance(p)
			if !near(n.Len(), 1, 1e-12) {
				t.Fatalf("%v: normal %v not unit", s.Kind(), n)
			}
			if sd, _ := s.SignedDistance(p.Sub(n.Mul(d))); !near(sd, 0, 1e-12) {
				t.Fatalf("%v: projection of %v is %v off the surface", s.Kind(), p, sd)
			}
			const e = 1e-6
			var g mgl64.Vec3
			for k := 0; k < 3; k++ {
				var dk mgl64.Vec3
				dk[k] = e
				a, _ := s.SignedDistance(p.Add(dk))
				b, _ := s.SignedDistance(p.Sub(dk))
				g[k] = (a - b) / (2 * e)
			}
			if math.Abs(g.Len()-1) < 1e-4 && !nearVec(g, n, 1e-4) {
				t.Fatalf("%v at %v: normal %v, gradient %v", s.Kind(), p, n, g)
			}
		}
	}
	// Degenerate points: centres and axes give a valid unit normal, never NaN.
	for _, s := range shapes {
		for _, p := range []mgl64.Vec3{{}, {0, 0, 0.5}, {math.NaN(), 0, 0}} {
			d, n := s.SignedDistance(p)
			if math.IsNaN(d) || !near(n.Len(), 1, 1e-12) {
				t.Fatalf("%v at %v: %v %v", s.Kind(), p, d, n)
			}
		}
	}
}

func TestHalfSpaceBounds(t *testing.T) {
	h := must(NewHalfSpace(mgl64.Vec3{0, 0, 3}, 1))
	if h.Normal != (mgl64.Vec3{0, 0, 1}) || h.Offset != 1 {
		t.Fatalf("normalised half-space %v", h)
	}
	b := h.Bounds(Pose{Position: mgl64.Vec3{0, 0, 2}, Rotation: mgl64.QuatIdent()})
	if b.Max[2] != 3 || b.Min[2] != 3-HalfSpaceExtent || b.Max[0] != HalfSpaceExtent || b.Min[1] != -HalfSpaceExtent {
		t.Fatalf("bounds %v", b)
	}
	// Every support point lies inside the bounds for random poses, and the solid side is below
	// the plane.
	r := newRand(15)
	for i := 0; i < 100; i++ {
		p := randPose(r, 5)
		b := h.Bounds(p)
		for j := 0; j < 50; j++ {
			sp := h.Support(randUnit(r))
			if !b.Expand(1e-3).Contains(p.Apply(sp)) {
				t.Fatalf("support %v outside %v", p.Apply(sp), b)
			}
			if d, _ := h.SignedDistance(sp); d > 1e-6 {
				t.Fatalf("support %v outside the solid (%v)", sp, d)
			}
		}
	}
}

func TestInvalidShapesNameTheField(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	cases := []struct {
		name  string
		err   error
		field string
	}{}
	add := func(name string, err error, field string) {
		cases = append(cases, struct {
			name  string
			err   error
			field string
		}{name, err, field})
	}
	for _, v := range []float64{0, -1, nan, inf, math.Inf(-1)} {
		_, err := NewSphere(v)
		add("sphere", err, "Sphere.Radius")
		_, err = NewBox(mgl64.Vec3{1, v, 1})
		add("box", err, "Box.HalfExtents.y")
		_, err = NewBox(mgl64.Vec3{1, 1, v})
		add("box", err, "Box.HalfExtents.z")
		_, err = NewCapsule(v, 1)
		add("capsule", err, "Capsule.Radius")
		add("sphere literal", (&Sphere{Radius: v}).Validate(), "Sphere.Radius")
		add("box literal", (&Box{HalfExtents: mgl64.Vec3{v, 1, 1}}).Validate(), "Box.HalfExtents.x")
	}
	for _, v := range []float64{-1, nan, inf} {
		_, err := NewCapsule(1, v)
		add("capsule", err, "Capsule.HalfHeight")
		add("capsule literal", (&Capsule{Radius: 1, HalfHeight: v}).Validate(), "Capsule.HalfHeight")
	}
	_, err := NewHalfSpace(mgl64.Vec3{}, 0)
	add("half-space zero normal", err, "HalfSpace.Normal")
	_, err = NewHalfSpace(mgl64.Vec3{0, nan, 1}, 0)
	add("half-space NaN normal", err, "HalfSpace.Normal.y")
	_, err = NewHalfSpace(mgl64.Vec3{0, 0, 1}, inf)
	add("half-space offset", err, "HalfSpace.Offset")
	add("half-space literal", (&HalfSpace{Normal: mgl64.Vec3{0, 0, 2}}).Validate(), "HalfSpace.Normal")
	for _, c := range cases {
		if c.err == nil {
			t.Errorf("%s: no error, want one naming %s", c.name, c.field)
			continue
		}
		if !containsField(c.err, c.field) || !strings.Contains(c.err.Error(), c.field) || !strings.HasPrefix(c.err.Error(), "collide: ") {
			t.Errorf("%s: error %q does not name %s", c.name, c.err, c.field)
		}
	}
	if _, err := NewBox(mgl64.Vec3{1, -1, 1}); err == nil || err.Error() != "collide: Box.HalfExtents.y must be finite and > 0, got -1" {
		t.Errorf("message: %v", err)
	}
	// Valid shapes pass Validate.
	for _, s := range testPrimitives() {
		if err := s.(interface{ Validate() error }).Validate(); err != nil {
			t.Errorf("%v: %v", s.Kind(), err)
		}
	}
}

func TestShapeKindString(t *testing.T) {
	want := map[ShapeKind]string{KindSphere: "Sphere", KindBox: "Box", KindCapsule: "Capsule", KindHalfSpace: "HalfSpace", KindConvexHull: "ConvexHull", KindCompound: "Compound", ShapeKind(99): "ShapeKind(99)"}
	for k, s := range want {
		if k.String() != s {
			t.Errorf("%d: %q, want %q", int(k), k.String(), s)
		}
	}
}
