package deform

import (
	"math"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
)

// faceConnected reports whether every tetrahedron of m can be reached from the first through
// shared faces (a breadth-first search over face adjacency, independent of the generators).
func faceConnected(m *TetMesh) bool {
	faces := [4][3]int{{1, 2, 3}, {0, 3, 2}, {0, 1, 3}, {0, 2, 1}}
	owners := map[[3]int32][]int{}
	for i := 0; i < m.NumTets(); i++ {
		t := m.Tet(i)
		for _, f := range faces {
			k := sortedFace(t[f[0]], t[f[1]], t[f[2]])
			owners[k] = append(owners[k], i)
		}
	}
	seen := make([]bool, m.NumTets())
	queue := []int{0}
	seen[0] = true
	for len(queue) > 0 {
		i := queue[0]
		queue = queue[1:]
		t := m.Tet(i)
		for _, f := range faces {
			for _, j := range owners[sortedFace(t[f[0]], t[f[1]], t[f[2]])] {
				if !seen[j] {
					seen[j] = true
					queue = append(queue, j)
				}
			}
		}
	}
	for _, s := range seen {
		if !s {
			return false
		}
	}
	return true
}

// checkRoundMesh asserts what every round mesh must satisfy: each tetrahedron keeps at least a
// tenth of a lattice tetrahedron's volume h³/6, the mesh is one face-connected piece, every vertex
// is within half a cell diagonal of the surface (dist gives the exact distance), and most surface
// vertices (60 %) lie on the surface to 1e-9 m.
func checkRoundMesh(t *testing.T, name string, m *TetMesh, h float64, dist func(mgl64.Vec3) float64) {
	t.Helper()
	for i := 0; i < m.NumTets(); i++ {
		if v := m.TetVolume(i); !(v >= 0.1*h*h*h/6*(1-1e-9)) {
			t.Fatalf("%s: tetrahedron %d has volume %g, below a tenth of h³/6 = %g", name, i, v, h*h*h/6)
		}
	}
	if !faceConnected(m) {
		t.Fatalf("%s: mesh not face-connected", name)
	}
	verts, _ := m.Surface()
	on := 0
	for _, a := range verts {
		d := dist(m.Vertex(int(a)))
		if math.Abs(d) > h*math.Sqrt(3)/2 {
			t.Fatalf("%s: surface vertex %d at signed distance %g from the surface (cell %g)", name, a, d, h)
		}
		if math.Abs(d) < 1e-9 {
			on++
		}
	}
	if frac := float64(on) / float64(len(verts)); frac < 0.6 {
		t.Fatalf("%s: only %.2f of the surface vertices lie on the surface", name, frac)
	}
}

// TestSphereMeshVolumeConverges checks the ball's volume against 4/3 π r³ as the resolution
// grows, and the shape of every mesh (checkRoundMesh).
func TestSphereMeshVolumeConverges(t *testing.T) {
	r := 0.3
	want := 4 * math.Pi / 3 * r * r * r
	errs := map[int]float64{}
	for _, res := range []int{4, 8, 16, 24} {
		m, err := NewSphereMesh(r, res)
		if err != nil {
			t.Fatal(err)
		}
		checkRoundMesh(t, "sphere", m, 2*r/float64(res), func(p mgl64.Vec3) float64 { return p.Len() - r })
		errs[res] = math.Abs(m.Volume()/want - 1)
	}
	if errs[8] > 0.02 || errs[16] > 0.005 || errs[24] > 0.005 || !(errs[16] < errs[4]/4) {
		t.Fatalf("relative volume errors %v: want ≤ 2 %% at 8, ≤ 0.5 %% at 16 and 24, and a quarter of the error at 4 by 16", errs)
	}
}

// TestCapsuleMeshVolumeConverges checks a capsule's volume against π r² 2h + 4/3 π r³, its
// shape, and that it reaches the poles at z = ±(h + r) (the lattice is centred).
func TestCapsuleMeshVolumeConverges(t *testing.T) {
	r, hh := 0.2, 0.35
	want := math.Pi*r*r*2*hh + 4*math.Pi/3*r*r*r
	errs := map[int]float64{}
	for _, res := range []int{4, 8, 16} {
		m, err := NewCapsuleMesh(r, hh, res)
		if err != nil {
			t.Fatal(err)
		}
		dist := func(p mgl64.Vec3) float64 {
			return mgl64.Vec3{p[0], p[1], p[2] - math.Max(-hh, math.Min(hh, p[2]))}.Len() - r
		}
		checkRoundMesh(t, "capsule", m, 2*r/float64(res), dist)
		errs[res] = math.Abs(m.Volume()/want - 1)
		lo, hi := math.Inf(1), math.Inf(-1)
		for a := 0; a < m.NumVertices(); a++ {
			lo, hi = math.Min(lo, m.Vertex(a)[2]), math.Max(hi, m.Vertex(a)[2])
		}
		if math.Abs(lo+hh+r) > 1e-9 || math.Abs(hi-hh-r) > 1e-9 {
			t.Fatalf("res %d: z from %g to %g, want ±%g (the lattice is centred)", res, lo, hi, hh+r)
		}
	}
	if errs[8] > 0.01 || errs[16] > 0.005 || !(errs[16] < errs[4]/4) {
		t.Fatalf("relative volume errors %v: want ≤ 1 %% at 8, ≤ 0.5 %% at 16, a quarter of the error at 4 by 16", errs)
	}
	// A capsule of no length is a ball.
	c, err := NewCapsuleMesh(r, 0, 8)
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewSphereMesh(r, 8)
	if err != nil {
		t.Fatal(err)
	}
	if c.NumTets() != s.NumTets() || math.Abs(c.Volume()-s.Volume()) > 1e-12 {
		t.Fatalf("capsule of half-height 0: %d tets, volume %g; sphere %d, %g", c.NumTets(), c.Volume(), s.NumTets(), s.Volume())
	}
}

// TestRoundMeshRefusesBadInput checks that bad arguments are refused with an error naming them.
func TestRoundMeshRefusesBadInput(t *testing.T) {
	cases := []struct {
		field string
		err   func() error
	}{
		{"radius", func() error { _, err := NewSphereMesh(math.NaN(), 8); return err }},
		{"radius", func() error { _, err := NewSphereMesh(-1, 8); return err }},
		{"resolution", func() error { _, err := NewSphereMesh(1, 1); return err }},
		{"resolution", func() error { _, err := NewSphereMesh(1, 1000); return err }},
		{"radius", func() error { _, err := NewCapsuleMesh(math.Inf(1), 1, 8); return err }},
		{"halfHeight", func() error { _, err := NewCapsuleMesh(1, -1, 8); return err }},
		{"halfHeight", func() error { _, err := NewCapsuleMesh(1, math.NaN(), 8); return err }},
		{"halfHeight", func() error { _, err := NewCapsuleMesh(1e-3, 1e6, 8); return err }},
		{"resolution", func() error { _, err := NewCapsuleMesh(1, 1, 0); return err }},
	}
	for i, c := range cases {
		err := c.err()
		if err == nil || !strings.Contains(err.Error(), c.field) {
			t.Fatalf("case %d: error %v, want one naming %s", i, err, c.field)
		}
	}
}

// TestRoundMeshDeterministic checks that two builds are bit-identical.
func TestRoundMeshDeterministic(t *testing.T) {
	a, err := NewCapsuleMesh(0.1, 0.2, 7)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := NewCapsuleMesh(0.1, 0.2, 7)
	if a.NumVertices() != b.NumVertices() || a.NumTets() != b.NumTets() {
		t.Fatal("sizes differ")
	}
	for i := 0; i < a.NumVertices(); i++ {
		if a.Vertex(i) != b.Vertex(i) {
			t.Fatalf("vertex %d differs", i)
		}
	}
	for i := 0; i < a.NumTets(); i++ {
		if a.Tet(i) != b.Tet(i) {
			t.Fatalf("tet %d differs", i)
		}
	}
}
