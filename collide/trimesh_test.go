package collide

import (
	"math"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
)

// boxMesh returns a closed, outward-oriented triangulation of a box.
func boxMesh(h mgl64.Vec3) *TriangleMesh {
	var verts []mgl64.Vec3
	for i := 0; i < 8; i++ {
		verts = append(verts, boxVertex(h, i))
	}
	var t boxTopology
	p := boxPolytope(h, &t)
	var tris [][3]int
	for f := 0; f < 6; f++ {
		l := p.loop(f)
		tris = append(tris, [3]int{int(l[0]), int(l[1]), int(l[2])}, [3]int{int(l[0]), int(l[2]), int(l[3])})
	}
	return must(NewTriangleMesh(verts, tris))
}

// gridMesh returns an open flat grid of n×n unit quads in z = 0 (two triangles each), front
// face up, centred on the origin.
func gridMesh(n int) *TriangleMesh {
	var verts []mgl64.Vec3
	off := float64(n) / 2
	for j := 0; j <= n; j++ {
		for i := 0; i <= n; i++ {
			verts = append(verts, mgl64.Vec3{float64(i) - off, float64(j) - off, 0})
		}
	}
	var tris [][3]int
	for j := 0; j < n; j++ {
		for i := 0; i < n; i++ {
			a := j*(n+1) + i
			tris = append(tris, [3]int{a, a + 1, a + n + 2}, [3]int{a, a + n + 2, a + n + 1})
		}
	}
	return must(NewTriangleMesh(verts, tris))
}

func TestTriangleMeshSignedDistance(t *testing.T) {
	h := mgl64.Vec3{0.5, 0.8, 0.3}
	m := boxMesh(h)
	box := must(NewBox(h))
	if !m.Closed() || !relClose(m.Volume(), box.Volume(), 1e-12) {
		t.Fatalf("closed %v volume %v", m.Closed(), m.Volume())
	}
	r := newRand(121)
	for i := 0; i < 2000; i++ {
		p := randInCube(r, 1.5)
		d, n := m.SignedDistance(p)
		want, _ := box.SignedDistance(p)
		if !near(d, want, 1e-12) || !near(n.Len(), 1, 1e-12) {
			t.Fatalf("%v: mesh %v, box %v", p, d, want)
		}
		if sd, _ := m.SignedDistance(p.Sub(n.Mul(d))); !near(sd, 0, 1e-12) {
			t.Fatalf("%v: projection off by %v", p, sd)
		}
	}
	g := gridMesh(4)
	if g.Closed() || g.Volume() != 0 {
		t.Fatal("open grid reported closed")
	}
	for i := 0; i < 200; i++ {
		p := mgl64.Vec3{3.6 * (r.Float64() - 0.5), 3.6 * (r.Float64() - 0.5), 2 * (r.Float64() - 0.5)}
		if d, _ := g.SignedDistance(p); !near(d, p[2], 1e-12) {
			t.Fatalf("grid at %v: %v", p, d)
		}
	}
}

func TestTriangleMeshErrors(t *testing.T) {
	v := []mgl64.Vec3{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {2, 0, 0}}
	cases := []struct {
		verts []mgl64.Vec3
		tris  [][3]int
		want  string
	}{
		{nil, [][3]int{{0, 1, 2}}, "TriangleMesh.vertices"},
		{v, nil, "TriangleMesh.triangles"},
		{v, [][3]int{{0, 1, 2}, {0, 1, 7}}, "TriangleMesh.triangles[1]"},
		{v, [][3]int{{0, 1, 3}}, "TriangleMesh.triangles[0] is degenerate"},
		{[]mgl64.Vec3{{0, 0, 0}, {math.Inf(1), 0, 0}, {0, 1, 0}}, [][3]int{{0, 1, 2}}, "TriangleMesh.vertices[1].x"},
	}
	for _, c := range cases {
		if _, err := NewTriangleMesh(c.verts, c.tris); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("want %q, got %v", c.want, err)
		}
	}
	if _, err := gridMesh(1).MassProperties(1); err == nil {
		t.Error("mesh mass properties")
	}
}

// TestMeshNoInternalEdgeSnags slides shapes across the internal edges of a flat grid: the
// normal stays the face normal and the gap the height, at every position, with no extra
// points where the triangles meet.
func TestMeshNoInternalEdgeSnags(t *testing.T) {
	g := gridMesh(6)
	box := must(NewBox(mgl64.Vec3{0.4, 0.3, 0.25}))
	sphere := must(NewSphere(0.3))
	capsule := must(NewCapsule(0.2, 0.6))
	lying := rot(math.Pi/2, mgl64.Vec3{0, 1, 0})
	up := mgl64.Vec3{0, 0, -1} // from the shape (A) down into the mesh (B)
	for i := 0; i <= 200; i++ {
		x := -1.5 + 3*float64(i)/200
		for _, depth := range []float64{-0.02, 0.005, 0.03} {
			cases := []struct {
				s     Shape
				pose  Pose
				count int
			}{
				{box, at(mgl64.Vec3{x, 0.37 * x, 0.25 + depth}, rot(0.3, mgl64.Vec3{0, 0, 1})), 4},
				{sphere, at(mgl64.Vec3{x, 0.1, 0.3 + depth}, mgl64.Quat{}), 1},
				{capsule, at(mgl64.Vec3{x, -0.2, 0.2 + depth}, lying), 2},
			}
			for _, c := range cases {
				m := collideT(t, c.s, c.pose, g, IdentityPose(), 0.05)
				checkManifold(t, &m, 0.05)
				if m.Count != c.count {
					t.Fatalf("%v at x=%v depth %v: %d points, want %d: %+v", c.s.Kind(), x, depth, m.Count, c.count, m)
				}
				for _, ct := range m.Contacts() {
					if !nearVec(ct.Normal, up, 1e-9) || !near(ct.Gap, depth, 1e-9) {
						t.Fatalf("%v at x=%v depth %v: contact %+v", c.s.Kind(), x, depth, ct)
					}
				}
			}
		}
	}
}

// TestMeshConvexRidge: beyond a ridge (a convex edge) a sphere gets the edge's normal.
func TestMeshConvexRidge(t *testing.T) {
	// Roof: two planes meeting at the ridge x = 0, z = 0, sloping down at 45°.
	verts := []mgl64.Vec3{{-2, -2, -2}, {0, -2, 0}, {2, -2, -2}, {-2, 2, -2}, {0, 2, 0}, {2, 2, -2}}
	tris := [][3]int{{0, 1, 4}, {0, 4, 3}, {1, 2, 5}, {1, 5, 4}}
	roof := must(NewTriangleMesh(verts, tris))
	s := must(NewSphere(0.5))
	m := collideT(t, s, at(mgl64.Vec3{0, 0.3, 0.45}, mgl64.Quat{}), roof, IdentityPose(), 0)
	checkManifold(t, &m, 0)
	if m.Count != 1 || !near(m.Points[0].Gap, -0.05, 1e-12) || !nearVec(m.Normal, mgl64.Vec3{0, 0, -1}, 1e-12) || m.Points[0].Feature.B().Type() != FeatureEdge {
		t.Fatalf("sphere on the ridge: %+v", m)
	}
	// Box resting on one slope: four points, the slope's normal.
	b := must(NewBox(mgl64.Vec3{0.3, 0.3, 0.3}))
	q := rot(math.Pi/4, mgl64.Vec3{0, 1, 0})
	n := mgl64.Vec3{1, 0, 1}.Normalize() // the x > 0 slope's normal
	c := mgl64.Vec3{1, 0, -1}.Add(n.Mul(0.29))
	m = collideT(t, b, at(c, q), roof, IdentityPose(), 0)
	checkManifold(t, &m, 0)
	if m.Count != 4 || !nearVec(m.Normal, n.Mul(-1), 1e-9) || !near(m.MinGap(), -0.01, 1e-9) {
		t.Fatalf("box on the slope: %+v", m)
	}
}

func TestMeshMatchesBoxAndHull(t *testing.T) {
	// A box mesh used as static geometry collides like the box itself for convex partners
	// resting on its top face.
	g := boxMesh(mgl64.Vec3{3, 3, 0.5})
	ground := must(NewBox(mgl64.Vec3{3, 3, 0.5}))
	hull := cubeHull(mgl64.Vec3{0.4, 0.4, 0.4})
	box := must(NewBox(mgl64.Vec3{0.4, 0.4, 0.4}))
	r := newRand(122)
	for i := 0; i < 200; i++ {
		p := at(mgl64.Vec3{2 * (r.Float64() - 0.5), 2 * (r.Float64() - 0.5), 0.9 - 0.02*r.Float64()}, rot(0.5*(r.Float64()-0.5), mgl64.Vec3{0, 0, 1}))
		want := collideT(t, box, p, ground, IdentityPose(), 0.02)
		for _, s := range []Shape{box, hull} {
			m := collideT(t, s, p, g, IdentityPose(), 0.02)
			checkManifold(t, &m, 0.02)
			if m.Count != want.Count || !near(m.MinGap(), want.MinGap(), 1e-9) || !nearVec(m.Normal, want.Normal, 1e-9) {
				t.Fatalf("#%d %v: %+v, box %+v", i, s.Kind(), m, want)
			}
		}
	}
}

// TestMeshRestingFeatureIDsStable: a box resting on a grid keeps its four feature ids.
func TestMeshRestingFeatureIDsStable(t *testing.T) {
	g := gridMesh(6)
	b := must(NewBox(mgl64.Vec3{0.3, 0.3, 0.3}))
	r := newRand(123)
	const jitter = 1e-5
	var prev, cur Manifold
	var want [4]FeatureID
	for step := 0; step < 1000; step++ {
		p := at(mgl64.Vec3{0.5 + jitter*r.NormFloat64(), 0.4 + jitter*r.NormFloat64(), 0.299 + jitter*r.NormFloat64()}, rot(0.2+jitter*r.NormFloat64(), mgl64.Vec3{0, 0, 1}))
		if _, err := Collide(b, p, g, IdentityPose(), 0.01, &prev, &cur); err != nil {
			t.Fatal(err)
		}
		if cur.Count != 4 {
			t.Fatalf("step %d: %d points", step, cur.Count)
		}
		if ids := sortedIDs(&cur); step == 0 {
			want = ids
		} else if ids != want {
			t.Fatalf("step %d: ids %v, want %v", step, ids, want)
		}
		prev = cur
	}
}

func TestMeshRayCast(t *testing.T) {
	m := boxMesh(mgl64.Vec3{0.5, 0.8, 0.3})
	box := must(NewBox(mgl64.Vec3{0.5, 0.8, 0.3}))
	r := newRand(124)
	for i := 0; i < 500; i++ {
		pose := randPose(r, 1)
		o := pose.Position.Add(randUnit(r).Mul(3))
		d := pose.Position.Add(randInCube(r, 0.9)).Sub(o)
		hm, okm, _ := RayCast(m, pose, o, d, 10)
		hb, okb, _ := RayCast(box, pose, o, d, 10)
		if okm != okb || (okm && (!near(hm.T, hb.T, 1e-9) || !nearVec(hm.Normal, hb.Normal, 1e-6))) {
			// Edge hits may pick either face's normal.
			if okm && okb && near(hm.T, hb.T, 1e-9) {
				continue
			}
			t.Fatalf("#%d mesh %+v %v, box %+v %v", i, hm, okm, hb, okb)
		}
	}
}
