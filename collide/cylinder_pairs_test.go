package collide

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
)

// bestSeparation returns the largest separation min_B(L·x) − max_A(L·x) over directions L,
// computed from the shapes' Support methods alone: the best of n directions spread over the
// sphere (a Fibonacci lattice), then of ever finer grids of directions around it. It is the
// distance of a separated pair and minus the penetration depth of an overlapping one.
func bestSeparation(a Shape, pa Pose, b Shape, pb Pose, n int) float64 {
	sep := func(l mgl64.Vec3) float64 {
		sa := pa.Apply(a.Support(pa.InverseRotate(l))).Dot(l)
		sb := pb.Apply(b.Support(pb.InverseRotate(l.Mul(-1)))).Dot(l)
		return sb - sa
	}
	best, bestL := math.Inf(-1), mgl64.Vec3{0, 0, 1}
	golden := math.Pi * (3 - math.Sqrt(5))
	for i := 0; i < n; i++ {
		z := 1 - 2*(float64(i)+0.5)/float64(n)
		rr := math.Sqrt(1 - z*z)
		l := mgl64.Vec3{rr * math.Cos(golden*float64(i)), rr * math.Sin(golden*float64(i)), z}
		if s := sep(l); s > best {
			best, bestL = s, l
		}
	}
	span := 2 * math.Sqrt(4*math.Pi/float64(n))
	for round := 0; round < 40 && span > 1e-7; round++ {
		t1, t2 := tangentBasis(bestL)
		centre := bestL
		edge := false
		for i := -10; i <= 10; i++ {
			for j := -10; j <= 10; j++ {
				l := madd(madd(centre, t1, span*float64(i)/10), t2, span*float64(j)/10).Normalize()
				if s := sep(l); s > best {
					best, bestL = s, l
					edge = i == -10 || i == 10 || j == -10 || j == 10
				}
			}
		}
		if !edge {
			span /= 5 // the best is inside the grid: look closer
		}
	}
	return best
}

// TestCylinderStandingOnBox: four contacts on the rim of the lower cap, at the depth of the
// overlap, normal straight down.
func TestCylinderStandingOnBox(t *testing.T) {
	c := must(NewCylinder(0.3, 0.5))
	box := must(NewBox(mgl64.Vec3{2, 2, 0.5}))
	centre := mgl64.Vec3{0.4, -0.2, 1 - 0.002}
	m := collideT(t, c, at(centre, rot(0.7, mgl64.Vec3{0, 0, 1})), box, IdentityPose(), 0.01)
	if m.Count != 4 || !nearVec(m.Normal, mgl64.Vec3{0, 0, -1}, 1e-12) {
		t.Fatalf("%d points, normal %v", m.Count, m.Normal)
	}
	for _, p := range m.Contacts() {
		a := p.PointOnA()
		if !near(p.Gap, -0.002, 1e-12) || !near(a[2], 0.498, 1e-12) || !near(math.Hypot(a[0]-centre[0], a[1]-centre[1]), 0.3, 1e-12) {
			t.Errorf("point %+v (on A %v)", p, a)
		}
	}
	// Swapped order: the same points with the normal up.
	m2 := collideT(t, box, IdentityPose(), c, at(centre, rot(0.7, mgl64.Vec3{0, 0, 1})), 0.01)
	if m2.Count != 4 || !nearVec(m2.Normal, mgl64.Vec3{0, 0, 1}, 1e-12) {
		t.Fatalf("swapped: %d points, normal %v", m2.Count, m2.Normal)
	}
}

// TestCylinderLyingOnBox: two contacts at the ends of the lowest line of the side.
func TestCylinderLyingOnBox(t *testing.T) {
	c := must(NewCylinder(0.3, 0.5))
	box := must(NewBox(mgl64.Vec3{2, 2, 0.5}))
	// Axis along world y.
	m := collideT(t, c, at(mgl64.Vec3{0.1, 0, 0.5 + 0.3 - 0.001}, rot(math.Pi/2, mgl64.Vec3{1, 0, 0})), box, IdentityPose(), 0.01)
	if m.Count != 2 || !nearVec(m.Normal, mgl64.Vec3{0, 0, -1}, 1e-9) {
		t.Fatalf("%d points, normal %v", m.Count, m.Normal)
	}
	ys := map[float64]bool{}
	for _, p := range m.Contacts() {
		a := p.PointOnA()
		if !near(p.Gap, -0.001, 1e-9) || !near(a[0], 0.1, 1e-9) || !near(a[2], 0.499, 1e-9) {
			t.Errorf("point %+v (on A %v)", p, a)
		}
		ys[math.Round(a[1]*1e6)/1e6] = true
	}
	if !ys[0.5] || !ys[-0.5] {
		t.Errorf("line ends at y %v, want ±0.5", ys)
	}
}

// TestCylinderHalfSpace: flat on a cap gives the square of rim points 0, 4, 8, 12; on its side
// the two ends of the lowest line; tilted the lowest rim point at its exact depth.
func TestCylinderHalfSpace(t *testing.T) {
	c := must(NewCylinder(0.25, 0.4))
	ground := must(NewHalfSpace(mgl64.Vec3{0, 0, 1}, 0))
	m := collideT(t, c, at(mgl64.Vec3{1, 2, 0.4 - 0.001}, rot(0.3, mgl64.Vec3{0, 0, 1})), ground, IdentityPose(), 0.01)
	if m.Count != 4 {
		t.Fatalf("flat: %d points", m.Count)
	}
	for _, p := range m.Contacts() {
		f := p.Feature.A()
		if !near(p.Gap, -0.001, 1e-12) || f.Type() != FeatureVertex || f.Index()%4 != 0 || f.Index() < 16 {
			t.Errorf("flat: point %+v", p)
		}
	}
	m = collideT(t, c, at(mgl64.Vec3{0, 0, 0.25}, rot(math.Pi/2, mgl64.Vec3{0, 1, 0})), ground, IdentityPose(), 0.01)
	if m.Count != 2 || !near(m.Points[0].Gap, 0, 1e-12) || !near(m.Points[1].Gap, 0, 1e-12) {
		t.Fatalf("side: %+v", m)
	}
	tilt := 0.4
	z := 0.4*math.Cos(tilt) + 0.25*math.Sin(tilt) - 0.001 // the lowest rim point 1 mm deep
	low := -0.001
	m = collideT(t, c, at(mgl64.Vec3{0, 0, z}, rot(tilt, mgl64.Vec3{1, 1, 0})), ground, IdentityPose(), 0.001)
	if m.Count != 1 || !near(m.Points[0].Gap, low, 1e-12) || m.Points[0].Feature.A() != EdgeFeature(1) {
		t.Fatalf("tilted: %+v, want one point at gap %v", m, low)
	}
}

// TestCylinderPairsMatchSupportSeparation places a cylinder against every convex shape at
// random poses and compares the manifold's deepest gap with the best separation over dense
// directions (from the Support methods, not the pair routines): equal for separated pairs
// (the distance) and for overlapping ones (minus the penetration depth).
func TestCylinderPairsMatchSupportSeparation(t *testing.T) {
	cyl := must(NewCylinder(0.3, 0.45))
	others := []struct {
		name string
		s    Shape
	}{
		{"box", must(NewBox(mgl64.Vec3{0.4, 0.25, 0.3}))},
		{"hull", cubeHull(mgl64.Vec3{0.35, 0.3, 0.25})},
		{"capsule", must(NewCapsule(0.2, 0.4))},
		{"cylinder", must(NewCylinder(0.2, 0.5))},
		{"sphere", must(NewSphere(0.35))},
	}
	r := newRand(99)
	for _, o := range others {
		checked, overlapping := 0, 0
		for k := 0; k < 400 && checked < 40; k++ {
			pa, pb := at(mgl64.Vec3{}, randQuat(r)), at(randUnit(r).Mul(0.55+0.5*r.Float64()), randQuat(r))
			if coarse := bestSeparation(cyl, pa, o.s, pb, 500); coarse > 0.1 || coarse < -0.03 {
				continue // well apart or deep: resting contact needs the near ones
			}
			want := bestSeparation(cyl, pa, o.s, pb, 5000)
			checked++
			if want < 0 {
				overlapping++
			}
			m := collideT(t, cyl, pa, o.s, pb, 0.1)
			if m.Count == 0 {
				t.Fatalf("%s: pose %d: no contact, separation %v", o.name, k, want)
			}
			got := m.MinGap()
			// want is the best over directions, got the gap along one: got >= want for a
			// separated pair (GJK's distance is exact) and got <= want for an overlapping one.
			if got > want+5e-4 || got < want-5e-4 {
				t.Errorf("%s: pose %d: deepest gap %.6f, separation %.6f", o.name, k, got, want)
			}
			for _, p := range m.Contacts() {
				if !isUnit(p.Normal) || p.Gap > 0.1+1e-12 {
					t.Errorf("%s: pose %d: point %+v", o.name, k, p)
				}
			}
		}
		if checked < 40 || overlapping < 5 {
			t.Fatalf("%s: only %d poses checked (%d overlapping)", o.name, checked, overlapping)
		}
	}
}

// TestCylinderOnCylinderColumn: a cylinder standing on another gives the square of its lower
// cap; two parallel cylinders lying side by side touch along a line (two points) at the
// distance of their axes minus the radii.
func TestCylinderOnCylinderColumn(t *testing.T) {
	a := must(NewCylinder(0.2, 0.3))
	m := collideT(t, a, at(mgl64.Vec3{0, 0, 0.6 - 0.001}, mgl64.Quat{}), a, IdentityPose(), 0.01)
	if m.Count != 4 {
		t.Fatalf("column: %d points", m.Count)
	}
	for _, p := range m.Contacts() {
		if !near(p.Gap, -0.001, 1e-9) || !near(math.Hypot(p.Point[0], p.Point[1]), 0.2, 1e-9) {
			t.Errorf("column: point %+v", p)
		}
	}
	lying := rot(math.Pi/2, mgl64.Vec3{1, 0, 0})
	m = collideT(t, a, at(mgl64.Vec3{0, 0, 0}, lying), a, at(mgl64.Vec3{0.43, 0.1, 0}, lying), 0.05)
	if m.Count != 2 {
		t.Fatalf("side by side: %d points", m.Count)
	}
	for _, p := range m.Contacts() {
		if !near(p.Gap, 0.03, 1e-9) || !nearVec(p.Normal, mgl64.Vec3{1, 0, 0}, 1e-9) {
			t.Errorf("side by side: point %+v", p)
		}
	}
}

// TestCylinderOnMeshAndSDF: a cylinder standing on a triangle-mesh floor gets its cap's
// square at the right depth; on an SDF grid of a box its samples find the top face.
func TestCylinderOnMeshAndSDF(t *testing.T) {
	c := must(NewCylinder(0.3, 0.4))
	m := collideT(t, c, at(mgl64.Vec3{0.2, 0.1, 0.4 - 0.002}, mgl64.Quat{}), gridMesh(4), IdentityPose(), 0.01)
	if m.Count != 4 {
		t.Fatalf("mesh: %d points", m.Count)
	}
	for _, p := range m.Contacts() {
		if !near(p.Gap, -0.002, 1e-9) || !nearVec(p.Normal, mgl64.Vec3{0, 0, -1}, 1e-9) {
			t.Errorf("mesh: point %+v", p)
		}
	}
	box := must(NewBox(mgl64.Vec3{1, 1, 0.5}))
	g := must(NewSDFGridFromShape(box, 0.05, 0.2))
	m = collideT(t, c, at(mgl64.Vec3{0, 0, 0.9 - 0.003}, mgl64.Quat{}), g, IdentityPose(), 0.01)
	if m.Count == 0 || !near(m.MinGap(), -0.003, 2e-3) || m.Normal[2] > -0.99 {
		t.Fatalf("SDF: %+v", m)
	}
}

// TestCylinderCollideDoesNotAllocate: the cylinder pairs run in the step's hot path.
func TestCylinderCollideDoesNotAllocate(t *testing.T) {
	c := must(NewCylinder(0.3, 0.5))
	others := []Shape{must(NewBox(mgl64.Vec3{1, 1, 0.5})), cubeHull(mgl64.Vec3{0.5, 0.5, 0.5}), must(NewCapsule(0.2, 0.3)), c, must(NewHalfSpace(mgl64.Vec3{0, 0, 1}, 0.5)), gridMesh(3)}
	pa := at(mgl64.Vec3{0.1, 0, 0.99}, rot(0.05, mgl64.Vec3{1, 0, 0}))
	var m Manifold
	for _, o := range others {
		allocs := testing.AllocsPerRun(20, func() {
			if _, err := Collide(c, pa, o, at(mgl64.Vec3{0, 0, 0.01}, mgl64.Quat{}), 0.05, &m, &m); err != nil {
				t.Fatal(err)
			}
		})
		if allocs != 0 {
			t.Errorf("%v: %v allocations a call", o.Kind(), allocs)
		}
	}
}
