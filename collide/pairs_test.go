package collide

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
)

// at returns a pose at position p with rotation q (identity when q is zero).
func at(p mgl64.Vec3, q mgl64.Quat) Pose {
	if q == (mgl64.Quat{}) {
		q = mgl64.QuatIdent()
	}
	return Pose{Position: p, Rotation: q}
}

// rot returns the rotation by angle about axis.
func rot(angle float64, axis mgl64.Vec3) mgl64.Quat {
	return mgl64.QuatRotate(angle, axis.Normalize())
}

// collideT runs Collide and fails the test on error.
func collideT(t testing.TB, a Shape, pa Pose, b Shape, pb Pose, margin float64) Manifold {
	t.Helper()
	var m Manifold
	if _, err := Collide(a, pa, b, pb, margin, nil, &m); err != nil {
		t.Fatalf("Collide(%v, %v): %v", a.Kind(), b.Kind(), err)
	}
	return m
}

// checkManifold asserts the invariants every manifold satisfies.
func checkManifold(t testing.TB, m *Manifold, margin float64) {
	t.Helper()
	if m.Count < 0 || m.Count > MaxManifoldPoints {
		t.Fatalf("count %d", m.Count)
	}
	if m.Count == 0 {
		return
	}
	if !near(m.Normal.Len(), 1, 1e-12) || hasNaN(m.Normal) {
		t.Fatalf("manifold normal %v not unit", m.Normal)
	}
	for i, c := range m.Contacts() {
		if hasNaN(c.Point) || math.IsNaN(c.Gap) || math.IsInf(c.Gap, 0) || !isFiniteVec(c.Point) {
			t.Fatalf("point %d not finite: %+v", i, c)
		}
		if !near(c.Normal.Len(), 1, 1e-12) {
			t.Fatalf("point %d normal %v not unit", i, c.Normal)
		}
		if c.Gap > margin+1e-12 {
			t.Fatalf("point %d gap %v beyond margin %v", i, c.Gap, margin)
		}
		for j := 0; j < i; j++ {
			if m.Points[j].Feature == c.Feature {
				t.Fatalf("points %d and %d share feature id %v: %+v", j, i, c.Feature, m)
			}
		}
	}
}

func TestSphereSphere(t *testing.T) {
	a, b := must(NewSphere(1)), must(NewSphere(0.5))
	m := collideT(t, a, at(mgl64.Vec3{0, 0, 0}, mgl64.Quat{}), b, at(mgl64.Vec3{0, 1.4, 0}, mgl64.Quat{}), 0)
	checkManifold(t, &m, 0)
	if m.Count != 1 || !near(m.Points[0].Gap, -0.1, 1e-12) || !nearVec(m.Normal, mgl64.Vec3{0, 1, 0}, 1e-15) {
		t.Fatalf("overlap: %+v", m)
	}
	if !nearVec(m.Points[0].Point, mgl64.Vec3{0, 0.95, 0}, 1e-12) {
		t.Fatalf("point %v, want midway (0, 0.95, 0)", m.Points[0].Point)
	}
	// Speculative: 0.05 apart, margin 0.1 reports a positive gap; margin 0.01 reports nothing.
	pb := at(mgl64.Vec3{1.55, 0, 0}, mgl64.Quat{})
	if m = collideT(t, a, IdentityPose(), b, pb, 0.1); m.Count != 1 || !near(m.Points[0].Gap, 0.05, 1e-12) {
		t.Fatalf("speculative: %+v", m)
	}
	if m = collideT(t, a, IdentityPose(), b, pb, 0.01); m.Count != 0 {
		t.Fatalf("beyond margin: %+v", m)
	}
	// Concentric: a valid normal, gap −(r_a + r_b).
	m = collideT(t, a, IdentityPose(), b, IdentityPose(), 0)
	checkManifold(t, &m, 0)
	if m.Count != 1 || !near(m.Points[0].Gap, -1.5, 1e-12) {
		t.Fatalf("concentric: %+v", m)
	}
}

func TestSphereBoxRegions(t *testing.T) {
	s, b := must(NewSphere(0.5)), must(NewBox(mgl64.Vec3{1, 2, 3}))
	q := rot(0.7, mgl64.Vec3{1, 2, 3})
	pb := at(mgl64.Vec3{1, -2, 0.5}, q)
	cases := []struct {
		local   mgl64.Vec3 // sphere centre in the box frame
		gap     float64
		nLocal  mgl64.Vec3 // outward box normal at the closest point
		feature Feature
	}{
		{mgl64.Vec3{1.3, 0, 0}, -0.2, mgl64.Vec3{1, 0, 0}, FaceFeature(0)},
		{mgl64.Vec3{0, 0, -3.4}, -0.1, mgl64.Vec3{0, 0, -1}, FaceFeature(5)},
		{mgl64.Vec3{2, 3, 0}, math.Sqrt2 - 0.5, mgl64.Vec3{1, 1, 0}.Normalize(), EdgeFeature(boxEdgeIndex(2, mgl64.Vec3{1, 1, 0}))},
		{mgl64.Vec3{-1.2, -2.2, 3.2}, math.Sqrt(0.12) - 0.5, mgl64.Vec3{-1, -1, 1}.Normalize(), VertexFeature(4)},
		{mgl64.Vec3{0.5, 0.2, 2.9}, -0.6, mgl64.Vec3{0, 0, 1}, FaceFeature(4)},
	}
	for _, c := range cases {
		m := collideT(t, s, at(pb.Apply(c.local), mgl64.Quat{}), b, pb, 1)
		checkManifold(t, &m, 1)
		if m.Count != 1 {
			t.Fatalf("%v: count %d", c.local, m.Count)
		}
		ct := m.Points[0]
		want := pb.Rotate(c.nLocal).Mul(-1)
		if !near(ct.Gap, c.gap, 1e-12) || !nearVec(ct.Normal, want, 1e-12) || ct.Feature.B() != c.feature || ct.Feature.A() != FaceFeature(0) {
			t.Errorf("%v: gap %v normal %v feature %v; want %v %v %v", c.local, ct.Gap, ct.Normal, ct.Feature, c.gap, want, c.feature)
		}
		// The point on B lies on the box surface.
		if d, _ := b.SignedDistance(pb.ApplyInverse(ct.PointOnB())); !near(d, 0, 1e-12) {
			t.Errorf("%v: point on B is %v off the surface", c.local, d)
		}
	}
}

func TestSphereCapsuleAndHalfSpace(t *testing.T) {
	s := must(NewSphere(0.25))
	c := must(NewCapsule(0.5, 1))
	pc := at(mgl64.Vec3{0, 0, 1}, rot(math.Pi/2, mgl64.Vec3{0, 1, 0})) // axis along world x
	m := collideT(t, s, at(mgl64.Vec3{0.3, 0, 1.7}, mgl64.Quat{}), c, pc, 0)
	if m.Count != 1 || !near(m.Points[0].Gap, -0.05, 1e-12) || !nearVec(m.Normal, mgl64.Vec3{0, 0, -1}, 1e-12) || m.Points[0].Feature.B() != FaceFeature(0) {
		t.Fatalf("side: %+v", m)
	}
	m = collideT(t, s, at(mgl64.Vec3{-1.6, 0, 1}, mgl64.Quat{}), c, pc, 0)
	if m.Count != 1 || !near(m.Points[0].Gap, -0.15, 1e-12) || !nearVec(m.Normal, mgl64.Vec3{1, 0, 0}, 1e-12) {
		t.Fatalf("cap: %+v", m)
	}
	h := must(NewHalfSpace(mgl64.Vec3{0, 0, 1}, 0))
	m = collideT(t, s, at(mgl64.Vec3{3, 4, 0.2}, mgl64.Quat{}), h, IdentityPose(), 0)
	if m.Count != 1 || !near(m.Points[0].Gap, -0.05, 1e-15) || m.Normal != (mgl64.Vec3{0, 0, -1}) || !nearVec(m.Points[0].Point, mgl64.Vec3{3, 4, -0.025}, 1e-15) {
		t.Fatalf("half-space: %+v", m)
	}
	// Swapped order: the normal flips, the point stays.
	m2 := collideT(t, h, IdentityPose(), s, at(mgl64.Vec3{3, 4, 0.2}, mgl64.Quat{}), 0)
	if m2.Count != 1 || m2.Normal != (mgl64.Vec3{0, 0, 1}) || m2.Points[0].Point != m.Points[0].Point || m2.Points[0].Feature != m.Points[0].Feature.Swap() {
		t.Fatalf("swapped half-space: %+v", m2)
	}
}

func TestCapsuleHalfSpace(t *testing.T) {
	c := must(NewCapsule(0.2, 0.5))
	h := must(NewHalfSpace(mgl64.Vec3{0, 0, 1}, 0))
	// Lying along x, sunk 1 cm: two points at the ends.
	pc := at(mgl64.Vec3{0, 0, 0.19}, rot(math.Pi/2, mgl64.Vec3{0, 1, 0}))
	m := collideT(t, c, pc, h, IdentityPose(), 0)
	checkManifold(t, &m, 0)
	if m.Count != 2 || !near(m.Points[0].Gap, -0.01, 1e-12) || !near(m.Points[1].Gap, -0.01, 1e-12) {
		t.Fatalf("lying: %+v", m)
	}
	if !near(math.Abs(m.Points[0].Point[0]), 0.5, 1e-12) || !near(m.Points[0].Point[0], -m.Points[1].Point[0], 1e-12) {
		t.Fatalf("lying points: %v %v", m.Points[0].Point, m.Points[1].Point)
	}
	// Standing: one point, the other end is 1 m up.
	m = collideT(t, c, at(mgl64.Vec3{0, 0, 0.7}, mgl64.Quat{}), h, IdentityPose(), 0.05)
	if m.Count != 1 || !near(m.Points[0].Gap, 0, 1e-12) || m.Points[0].Feature.A() != VertexFeature(0) {
		t.Fatalf("standing: %+v", m)
	}
}

func TestCapsuleCapsule(t *testing.T) {
	a := must(NewCapsule(0.3, 1))
	b := must(NewCapsule(0.2, 0.5))
	// Crossed at right angles, 0.45 apart along z: one point, gap −0.05.
	pa := at(mgl64.Vec3{0, 0, 0}, rot(math.Pi/2, mgl64.Vec3{0, 1, 0}))
	pb := at(mgl64.Vec3{0.2, 0, 0.45}, rot(math.Pi/2, mgl64.Vec3{1, 0, 0}))
	m := collideT(t, a, pa, b, pb, 0)
	checkManifold(t, &m, 0)
	if m.Count != 1 || !near(m.Points[0].Gap, -0.05, 1e-12) || !nearVec(m.Normal, mgl64.Vec3{0, 0, 1}, 1e-12) {
		t.Fatalf("crossed: %+v", m)
	}
	if !nearVec(m.Points[0].Point, mgl64.Vec3{0.2, 0, 0.275}, 1e-12) {
		t.Fatalf("crossed point %v", m.Points[0].Point)
	}
	// Parallel, side by side, overlapping over x ∈ [0.3, 1]: two points at the overlap ends.
	pb = at(mgl64.Vec3{0.8, 0.49, 0}, rot(math.Pi/2, mgl64.Vec3{0, 1, 0}))
	m = collideT(t, a, pa, b, pb, 0)
	checkManifold(t, &m, 0)
	if m.Count != 2 {
		t.Fatalf("parallel: %+v", m)
	}
	xs := []float64{m.Points[0].Point[0], m.Points[1].Point[0]}
	if math.Min(xs[0], xs[1]) < 0.3-1e-12 || !near(math.Min(xs[0], xs[1]), 0.3, 1e-12) || !near(math.Max(xs[0], xs[1]), 1, 1e-12) {
		t.Fatalf("parallel points at x = %v, want 0.3 and 1", xs)
	}
	for _, c := range m.Contacts() {
		if !near(c.Gap, -0.01, 1e-12) || !nearVec(c.Normal, mgl64.Vec3{0, 1, 0}, 1e-12) {
			t.Fatalf("parallel contact %+v", c)
		}
	}
	// Intersecting core segments: normal is the common perpendicular, gap −(r_a + r_b).
	pb = at(mgl64.Vec3{0.1, 0, 0.1}, rot(math.Pi/2, mgl64.Vec3{1, 0, 0}))
	pb.Position = mgl64.Vec3{0.1, 0, 0}
	m = collideT(t, a, pa, b, pb, 0)
	checkManifold(t, &m, 0)
	if m.Count != 1 || !near(m.Points[0].Gap, -0.5, 1e-12) || !near(math.Abs(m.Normal[2]), 1, 1e-12) {
		t.Fatalf("intersecting: %+v", m)
	}
}

func TestCapsuleBox(t *testing.T) {
	c := must(NewCapsule(0.1, 0.4))
	b := must(NewBox(mgl64.Vec3{1, 1, 0.5}))
	pb := at(mgl64.Vec3{0, 0, -0.5}, mgl64.Quat{}) // top face at z = 0
	lying := rot(math.Pi/2, mgl64.Vec3{0, 1, 0})
	// Lying on the top face, sunk 1 cm: two points at the segment ends.
	m := collideT(t, c, at(mgl64.Vec3{0, 0, 0.09}, lying), b, pb, 0)
	checkManifold(t, &m, 0)
	if m.Count != 2 || !nearVec(m.Normal, mgl64.Vec3{0, 0, -1}, 1e-12) {
		t.Fatalf("lying: %+v", m)
	}
	for _, ct := range m.Contacts() {
		if !near(ct.Gap, -0.01, 1e-12) || !near(math.Abs(ct.Point[0]), 0.4, 1e-12) || ct.Feature.B() != FaceFeature(4) {
			t.Fatalf("lying contact %+v", ct)
		}
	}
	// Overhanging the +x edge: the segment is clipped at x = 1.
	m = collideT(t, c, at(mgl64.Vec3{0.9, 0, 0.09}, lying), b, pb, 0)
	if m.Count != 2 || !near(math.Max(m.Points[0].Point[0], m.Points[1].Point[0]), 1, 1e-12) || !near(math.Min(m.Points[0].Point[0], m.Points[1].Point[0]), 0.5, 1e-12) {
		t.Fatalf("overhang: %+v", m)
	}
	// Beside the top +x edge, axis along y: edge region, gap √(0.1²+0.1²) − 0.1.
	along := rot(math.Pi/2, mgl64.Vec3{1, 0, 0})
	m = collideT(t, c, at(mgl64.Vec3{1.1, 0, 0.1}, along), b, pb, 0.1)
	checkManifold(t, &m, 0.1)
	if m.Count != 1 || !near(m.Points[0].Gap, math.Sqrt(0.02)-0.1, 1e-12) || !nearVec(m.Normal, mgl64.Vec3{-1, 0, -1}.Normalize(), 1e-12) {
		t.Fatalf("edge region: %+v", m)
	}
	// Deep: the capsule's segment crosses the top face 5 cm down: face normal, gap −0.15.
	m = collideT(t, c, at(mgl64.Vec3{0.2, 0.1, -0.05}, lying), b, pb, 0)
	checkManifold(t, &m, 0)
	if m.Count != 2 || !nearVec(m.Normal, mgl64.Vec3{0, 0, -1}, 1e-12) || !near(m.Points[0].Gap, -0.15, 1e-12) {
		t.Fatalf("deep: %+v", m)
	}
	// Standing upright on the face, speculative: one point at the lower end.
	m = collideT(t, c, at(mgl64.Vec3{0.3, 0.3, 0.52}, mgl64.Quat{}), b, pb, 0.05)
	if m.Count != 1 || !near(m.Points[0].Gap, 0.02, 1e-12) || m.Points[0].Feature.A() != VertexFeature(0) {
		t.Fatalf("standing: %+v", m)
	}
}

func TestBoxHalfSpace(t *testing.T) {
	b := must(NewBox(mgl64.Vec3{0.5, 0.5, 0.5}))
	h := must(NewHalfSpace(mgl64.Vec3{0, 0, 1}, 0))
	m := collideT(t, b, at(mgl64.Vec3{0, 0, 0.49}, mgl64.Quat{}), h, IdentityPose(), 0)
	checkManifold(t, &m, 0)
	if m.Count != 4 {
		t.Fatalf("resting: %+v", m)
	}
	for _, c := range m.Contacts() {
		if !near(c.Gap, -0.01, 1e-12) || !near(math.Abs(c.Point[0]), 0.5, 1e-12) || !near(c.Point[2], -0.005, 1e-12) {
			t.Fatalf("resting contact %+v", c)
		}
	}
	// On an edge (45° about x): two points.
	m = collideT(t, b, at(mgl64.Vec3{0, 0, math.Sqrt2/2 - 0.01}, rot(math.Pi/4, mgl64.Vec3{1, 0, 0})), h, IdentityPose(), 0)
	if m.Count != 2 || !near(m.Points[0].Gap, -0.01, 1e-12) {
		t.Fatalf("edge: %+v", m)
	}
	// On a corner: one point, at depth √3/2 − z.
	q := mgl64.QuatBetweenVectors(mgl64.Vec3{1, 1, 1}.Normalize(), mgl64.Vec3{0, 0, -1})
	m = collideT(t, b, at(mgl64.Vec3{0, 0, 0.8}, q), h, IdentityPose(), 0)
	if m.Count != 1 || !near(m.Points[0].Gap, 0.8-math.Sqrt(3)/2, 1e-12) || m.Points[0].Feature.A() != VertexFeature(7) {
		t.Fatalf("corner: %+v", m)
	}
	// Deep, tilted, big margin: all 8 corners qualify; 4 are kept.
	m = collideT(t, b, at(mgl64.Vec3{0, 0, 0.1}, rot(0.3, mgl64.Vec3{1, 1, 0})), h, IdentityPose(), 2)
	checkManifold(t, &m, 2)
	if m.Count != 4 {
		t.Fatalf("deep: %+v", m)
	}
}
