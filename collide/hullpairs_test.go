package collide

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
)

// cubeHull returns the hull of a box's corners.
func cubeHull(h mgl64.Vec3) *ConvexHull {
	var pts []mgl64.Vec3
	for i := 0; i < 8; i++ {
		pts = append(pts, boxVertex(h, i))
	}
	return must(NewConvexHull(pts))
}

// TestHullPairsMatchBoxPairs: a hull built from a box's corners must collide exactly like the
// box with every other shape (same count, normal and gaps).
func TestHullPairsMatchBoxPairs(t *testing.T) {
	h1, h2 := mgl64.Vec3{0.5, 0.3, 0.4}, mgl64.Vec3{0.35, 0.6, 0.25}
	box1, box2 := must(NewBox(h1)), must(NewBox(h2))
	hull1, hull2 := cubeHull(h1), cubeHull(h2)
	others := []struct {
		name string
		s    Shape
	}{
		{"sphere", must(NewSphere(0.3))},
		{"capsule", must(NewCapsule(0.2, 0.4))},
		{"halfspace", must(NewHalfSpace(mgl64.Vec3{0.1, -0.3, 1}, 0))},
	}
	r := newRand(101)
	const margin = 0.05
	compare := func(name string, i int, a, b Manifold) {
		if a.Count != b.Count {
			t.Fatalf("%s #%d: count %d vs %d\n%+v\n%+v", name, i, a.Count, b.Count, a, b)
		}
		if a.Count == 0 {
			return
		}
		if !near(a.MinGap(), b.MinGap(), 1e-9) || !nearVec(a.Normal, b.Normal, 1e-9) {
			t.Fatalf("%s #%d: gap %v vs %v, normal %v vs %v", name, i, a.MinGap(), b.MinGap(), a.Normal, b.Normal)
		}
	}
	hits := 0
	for i := 0; i < 400; i++ {
		pa, pb := randPairPoses(r, 1)
		mb := collideT(t, box1, pa, box2, pb, margin)
		compare("hull-hull", i, mb, collideT(t, hull1, pa, hull2, pb, margin))
		compare("box-hull", i, mb, collideT(t, box1, pa, hull2, pb, margin))
		if mb.Count > 0 {
			hits++
		}
		for _, o := range others {
			compare(o.name+"-hull", i, collideT(t, o.s, pb, box1, pa, margin), collideT(t, o.s, pb, hull1, pa, margin))
		}
	}
	if hits < 100 {
		t.Fatalf("only %d contacts", hits)
	}
}

// TestHullRestingFeatureIDsStable: a hull cube resting on a hull slab keeps its four feature
// ids for 1,000 steps of jitter.
func TestHullRestingFeatureIDsStable(t *testing.T) {
	slab := cubeHull(mgl64.Vec3{2, 2, 0.5})
	cube := cubeHull(mgl64.Vec3{0.5, 0.5, 0.5})
	r := newRand(102)
	const jitter = 1e-5
	var prev, cur Manifold
	var want [4]FeatureID
	for step := 0; step < 1000; step++ {
		pl := at(mgl64.Vec3{jitter * r.NormFloat64(), jitter * r.NormFloat64(), jitter * r.NormFloat64()}, rot(jitter*r.NormFloat64(), randUnit(r)))
		pu := at(mgl64.Vec3{0.3 + jitter*r.NormFloat64(), -0.2 + jitter*r.NormFloat64(), 0.999 + jitter*r.NormFloat64()}, rot(jitter*r.NormFloat64(), randUnit(r)))
		p := &prev
		if step == 0 {
			p = nil
		}
		if _, err := Collide(slab, pl, cube, pu, 0.01, p, &cur); err != nil {
			t.Fatal(err)
		}
		if cur.Count != 4 {
			t.Fatalf("step %d: %d points", step, cur.Count)
		}
		ids := sortedIDs(&cur)
		if step == 0 {
			want = ids
		} else if ids != want {
			t.Fatalf("step %d: ids %v, want %v", step, ids, want)
		}
		prev = cur
	}
}

// TestHullAnalytic: a tetrahedron standing on a half-space and a pyramid apex on a box face.
func TestHullAnalytic(t *testing.T) {
	// Square pyramid, apex down at z = 0, base at z = 1.
	pyr := must(NewConvexHull([]mgl64.Vec3{{0, 0, 0}, {1, 1, 1}, {-1, 1, 1}, {1, -1, 1}, {-1, -1, 1}}))
	if pyr.NumFaces() != 5 || len(pyr.Vertices()) != 5 || pyr.NumEdges() != 8 {
		t.Fatalf("pyramid topology %d %d %d", pyr.NumFaces(), len(pyr.Vertices()), pyr.NumEdges())
	}
	if !near(pyr.Volume(), 4.0/3.0, 1e-12) {
		t.Fatalf("pyramid volume %v", pyr.Volume())
	}
	mp, _ := pyr.MassProperties(1)
	if !nearVec(mp.CenterOfMass, mgl64.Vec3{0, 0, 0.75}, 1e-12) {
		t.Fatalf("pyramid centre of mass %v", mp.CenterOfMass)
	}
	box := must(NewBox(mgl64.Vec3{2, 2, 0.5}))
	m := collideT(t, box, at(mgl64.Vec3{0, 0, -0.5}, mgl64.Quat{}), pyr, at(mgl64.Vec3{0.2, 0.1, -0.01}, mgl64.Quat{}), 0)
	checkManifold(t, &m, 0)
	if m.Count != 1 || !near(m.Points[0].Gap, -0.01, 1e-12) || !nearVec(m.Normal, mgl64.Vec3{0, 0, 1}, 1e-12) || !nearVec(m.Points[0].Point, mgl64.Vec3{0.2, 0.1, -0.005}, 1e-12) {
		t.Fatalf("apex on face: %+v", m)
	}
	// Upside down on its base on the ground: four points.
	ground := must(NewHalfSpace(mgl64.Vec3{0, 0, 1}, 0))
	m = collideT(t, pyr, at(mgl64.Vec3{0, 0, 0.99}, rot(math.Pi, mgl64.Vec3{1, 0, 0})), ground, IdentityPose(), 0)
	checkManifold(t, &m, 0)
	if m.Count != 4 || !near(m.MinGap(), -0.01, 1e-12) || !nearVec(m.Normal, mgl64.Vec3{0, 0, -1}, 1e-12) {
		t.Fatalf("base on ground: %+v", m)
	}
	// Sphere against the apex (vertex feature) and a slanted face.
	s := must(NewSphere(0.2))
	m = collideT(t, s, at(mgl64.Vec3{0, 0, -0.25}, mgl64.Quat{}), pyr, IdentityPose(), 0.1)
	if m.Count != 1 || !near(m.Points[0].Gap, 0.05, 1e-9) || m.Points[0].Feature.B().Type() != FeatureVertex {
		t.Fatalf("sphere at apex: %+v", m)
	}
	fn := mgl64.Vec3{1, 0, -1}.Normalize() // the +x slanted face
	c := mgl64.Vec3{0.6, 0, 0.6}.Add(fn.Mul(0.15))
	m = collideT(t, s, at(c, mgl64.Quat{}), pyr, IdentityPose(), 0)
	if m.Count != 1 || !near(m.Points[0].Gap, -0.05, 1e-9) || !nearVec(m.Normal, fn.Mul(-1), 1e-9) || m.Points[0].Feature.B().Type() != FeatureFace {
		t.Fatalf("sphere on face: %+v", m)
	}
}

// FuzzConvexConvex collides fuzzed hulls and boxes and checks the manifold invariants and the
// A/B symmetry.
func FuzzConvexConvex(f *testing.F) {
	f.Add(int64(1), 0.0, 0.0, 0.9, 1.0, 0.0, 0.0, 0.0, false)
	f.Add(int64(7), 0.3, -0.2, 0.5, 0.6, 0.3, 0.1, 0.7, true)
	f.Fuzz(func(t *testing.T, seed int64, px, py, pz, qw, qx, qy, qz float64, withBox bool) {
		r := newRand(uint64(seed))
		var pts []mgl64.Vec3
		for i := 0; i < 6+r.IntN(20); i++ {
			pts = append(pts, randInCube(r, 0.5+r.Float64()))
		}
		a, err := NewConvexHull(pts)
		if err != nil {
			return
		}
		var b Shape = testHull(0.4 + 0.3*r.Float64())
		if withBox {
			b = must(NewBox(mgl64.Vec3{0.1 + r.Float64(), 0.1 + r.Float64(), 0.1 + r.Float64()}))
		}
		pa := randPose(r, 0)
		pb := Pose{Position: mgl64.Vec3{fuzzCoord(px), fuzzCoord(py), fuzzCoord(pz)}, Rotation: fuzzQuat(qw, qx, qy, qz)}
		const margin = 0.05
		m := collideT(t, a, pa, b, pb, margin)
		checkManifold(t, &m, margin)
		s := collideT(t, b, pb, a, pa, margin)
		if s.Count != m.Count {
			t.Fatalf("swap changed the count: %d vs %d", s.Count, m.Count)
		}
		for i := 0; i < m.Count; i++ {
			if !nearVec(s.Points[i].Point, m.Points[i].Point, 1e-12) || s.Points[i].Feature != m.Points[i].Feature.Swap() {
				t.Fatalf("swap changed point %d", i)
			}
		}
	})
}

// TestOverlappingHullsAlwaysMakeAContact: pairs of the pile scene's hulls (twelve points on an
// ellipsoid of radii 0.1–0.2 m) and of boxes, at random poses near each other. Whenever GJK finds
// a pair intersecting, Collide must give it a contact whose smallest gap is not positive and not
// deeper than the pair's penetration along the best separating axis, found by brute force over
// the normals of every vertex triangle of each shape and the crosses of every vertex pair's
// directions (a superset of the face normals and edge crosses). When the incident face's clip
// over the reference face was empty, the routines returned no contact at all: a hull of the pile
// sank 2.5 cm into another over three steps with none.
func TestOverlappingHullsAlwaysMakeAContact(t *testing.T) {
	r := newRand(41)
	ellipsoid := func() *ConvexHull {
		for {
			radii := mgl64.Vec3{0.1 + 0.1*r.Float64(), 0.1 + 0.1*r.Float64(), 0.1 + 0.1*r.Float64()}
			pts := make([]mgl64.Vec3, 12)
			for j := range pts {
				d := randUnit(r)
				pts[j] = mgl64.Vec3{d[0] * radii[0], d[1] * radii[1], d[2] * radii[2]}
			}
			if h, _, err := NewConvexHullCentered(pts); err == nil {
				return h
			}
		}
	}
	box := func() *Box {
		return must(NewBox(mgl64.Vec3{0.05 + 0.1*r.Float64(), 0.05 + 0.1*r.Float64(), 0.05 + 0.1*r.Float64()}))
	}
	worldVertices := func(s Shape, p Pose) []mgl64.Vec3 {
		var local []mgl64.Vec3
		switch v := s.(type) {
		case *ConvexHull:
			local = v.Vertices()
		case *Box:
			for i := 0; i < 8; i++ {
				local = append(local, boxVertex(v.HalfExtents, i))
			}
		}
		out := make([]mgl64.Vec3, len(local))
		for i, q := range local {
			out[i] = p.Apply(q)
		}
		return out
	}
	overlapping, edgeOnly := 0, 0
	for trial := 0; trial < 600; trial++ {
		var a, b Shape
		if trial%3 == 2 {
			a, b = box(), box()
		} else {
			a, b = ellipsoid(), ellipsoid()
		}
		pa := Pose{Rotation: mgl64.QuatRotate(math.Pi*r.Float64(), randUnit(r))}
		pb := Pose{Position: randUnit(r).Mul(0.1 + 0.2*r.Float64()), Rotation: mgl64.QuatRotate(math.Pi*r.Float64(), randUnit(r))}
		va, vb := worldVertices(a, pa), worldVertices(b, pb)
		best := math.Inf(-1) // the largest separation over the axes: minus the penetration
		test := func(ax mgl64.Vec3) {
			l := ax.Len()
			if l < 1e-9 {
				return
			}
			ax = ax.Mul(1 / l)
			mina, maxa, minb, maxb := math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
			for _, v := range va {
				mina, maxa = math.Min(mina, v.Dot(ax)), math.Max(maxa, v.Dot(ax))
			}
			for _, v := range vb {
				minb, maxb = math.Min(minb, v.Dot(ax)), math.Max(maxb, v.Dot(ax))
			}
			best = math.Max(best, math.Max(minb-maxa, mina-maxb))
		}
		for _, vs := range [][]mgl64.Vec3{va, vb} {
			for x := range vs {
				for y := x + 1; y < len(vs); y++ {
					for z := y + 1; z < len(vs); z++ {
						test(vs[y].Sub(vs[x]).Cross(vs[z].Sub(vs[x])))
					}
				}
			}
		}
		for x := range va {
			for y := x + 1; y < len(va); y++ {
				for u := range vb {
					for w := u + 1; w < len(vb); w++ {
						test(va[y].Sub(va[x]).Cross(vb[w].Sub(vb[u])))
					}
				}
			}
		}
		if best >= -1e-6 {
			continue // separated or touching: not this test's case
		}
		overlapping++
		m := collideT(t, a, pa, b, pb, 0.02)
		if m.Count == 0 || m.MinGap() > 1e-12 || m.MinGap() < best*1.5-1e-6 {
			t.Fatalf("trial %d (%T): penetration %.4g by brute force; the manifold has %d points, smallest gap %v", trial, a, -best, m.Count, m.MinGap())
		}
		if m.Reference.Kind == ReferenceEdges {
			edgeOnly++
		}
	}
	if overlapping < 200 || edgeOnly < 3 {
		t.Fatalf("%d overlapping trials, %d edge contacts: too few to test", overlapping, edgeOnly)
	}
}
