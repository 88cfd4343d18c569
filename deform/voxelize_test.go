package deform

import (
	"math"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/stagger-physics/stagger/collide"
)

// uvSphere returns a closed latitude–longitude sphere of radius r centred at c, wound
// counter-clockwise seen from outside.
func uvSphere(r float64, c mgl64.Vec3, nLat, nLon int) ([]mgl64.Vec3, [][3]int) {
	verts := []mgl64.Vec3{c.Add(mgl64.Vec3{0, 0, r})}
	for i := 1; i < nLat; i++ {
		th := math.Pi * float64(i) / float64(nLat)
		for j := 0; j < nLon; j++ {
			ph := 2 * math.Pi * float64(j) / float64(nLon)
			verts = append(verts, c.Add(mgl64.Vec3{r * math.Sin(th) * math.Cos(ph), r * math.Sin(th) * math.Sin(ph), r * math.Cos(th)}))
		}
	}
	south := len(verts)
	verts = append(verts, c.Add(mgl64.Vec3{0, 0, -r}))
	ring := func(i, j int) int { return 1 + (i-1)*nLon + (j % nLon) }
	var tris [][3]int
	for j := 0; j < nLon; j++ {
		tris = append(tris, [3]int{0, ring(1, j), ring(1, j+1)})
		for i := 1; i < nLat-1; i++ {
			tris = append(tris, [3]int{ring(i, j), ring(i+1, j), ring(i+1, j+1)}, [3]int{ring(i, j), ring(i+1, j+1), ring(i, j+1)})
		}
		tris = append(tris, [3]int{ring(nLat-1, j), south, ring(nLat-1, j+1)})
	}
	return verts, tris
}

// polyVolume is the divergence-theorem volume Σ a·(b×c)/6 of a closed surface.
func polyVolume(verts []mgl64.Vec3, tris [][3]int) float64 {
	v := 0.0
	for _, t := range tris {
		v += verts[t[0]].Dot(verts[t[1]].Cross(verts[t[2]])) / 6
	}
	return v
}

// TestVoxelizedSphereVolumeConverges voxelises a faceted sphere at finer and finer cells and
// compares the tetrahedral mesh's volume with the surface's own (divergence theorem): the error
// must fall below 1 % and shrink with the cell; the mesh is one face-connected piece.
func TestVoxelizedSphereVolumeConverges(t *testing.T) {
	verts, tris := uvSphere(0.5, mgl64.Vec3{0.3, -0.2, 1}, 24, 48)
	want := polyVolume(verts, tris)
	var errs []float64
	for _, cells := range []int{4, 8, 16} {
		m, _, err := VoxelizeSurface(verts, tris, 1.0/float64(cells))
		if err != nil {
			t.Fatal(err)
		}
		if !faceConnected(m) {
			t.Fatalf("%d cells: mesh not face-connected", cells)
		}
		errs = append(errs, math.Abs(m.Volume()/want-1))
	}
	if !(errs[2] < 0.01) || !(errs[2] < errs[0]/4) {
		t.Fatalf("relative volume errors at 4, 8, 16 cells across: %v; want < 1 %% at 16 and a quarter of that at 4", errs)
	}
}

// TestEmbeddedSurfaceFollowsAffineDeformation checks that the voxelised sphere's embedded
// vertices are reproduced at rest to 1e-12 m and follow an affine map x → A x + b of the mesh
// exactly (linear shape functions reproduce affine fields), with no allocation.
func TestEmbeddedSurfaceFollowsAffineDeformation(t *testing.T) {
	verts, tris := uvSphere(0.5, mgl64.Vec3{0.3, -0.2, 1}, 12, 24)
	m, e, err := VoxelizeSurface(verts, tris, 0.15)
	if err != nil {
		t.Fatal(err)
	}
	if e.NumPoints() != len(verts) {
		t.Fatalf("%d embedded points, want %d", e.NumPoints(), len(verts))
	}
	rest := make([]mgl64.Vec3, m.NumVertices())
	for a := range rest {
		rest[a] = m.Vertex(a)
	}
	dst := make([]mgl64.Vec3, len(verts))
	if err := e.Deform(dst, rest); err != nil {
		t.Fatal(err)
	}
	for i, p := range dst {
		if d := p.Sub(verts[i]).Len(); d > 1e-12 {
			t.Fatalf("point %d at rest off by %g m", i, d)
		}
	}
	A := mgl64.Mat3{1.2, 0.1, -0.3, 0.05, 0.8, 0.2, 0.4, -0.1, 1.1}
	b := mgl64.Vec3{0.7, -1.5, 2}
	x := make([]mgl64.Vec3, len(rest))
	for a, p := range rest {
		x[a] = A.Mul3x1(p).Add(b)
	}
	if err := e.Deform(dst, x); err != nil {
		t.Fatal(err)
	}
	for i, p := range dst {
		if d := p.Sub(A.Mul3x1(verts[i]).Add(b)).Len(); d > 1e-12 {
			t.Fatalf("point %d off the affine image by %g m", i, d)
		}
	}
	if n := testing.AllocsPerRun(20, func() { _ = e.Deform(dst, x) }); n != 0 {
		t.Fatalf("Deform allocates %v times", n)
	}
}

// TestEmbeddedSurfaceBinding embeds points in a box mesh: a point inside gets weights in [0, 1]
// of a tetrahedron containing it; a point outside is bound to a tetrahedron at the box's own
// (analytic) distance from the point, i.e. one touching the nearest face.
func TestEmbeddedSurfaceBinding(t *testing.T) {
	half := mgl64.Vec3{0.5, 0.3, 0.2}
	m, err := NewBoxMesh(half, 5, 3, 2)
	if err != nil {
		t.Fatal(err)
	}
	pts := []mgl64.Vec3{{0.01, 0.02, 0.03}, {-0.49, 0.29, -0.19}, {0.33, -0.1, 0.1}, {0.5, 0.3, 0.2}}
	outside := []mgl64.Vec3{{0.9, 0.05, 0.01}, {-0.1, -0.8, 0.15}, {0.7, 0.6, 0.5}}
	e, err := NewEmbeddedSurface(m, append(append([]mgl64.Vec3(nil), pts...), outside...))
	if err != nil {
		t.Fatal(err)
	}
	for i := range pts {
		_, w := e.Binding(i)
		for _, x := range w {
			if x < -1e-12 || x > 1+1e-12 {
				t.Fatalf("inside point %d: weights %v not in [0, 1]", i, w)
			}
		}
	}
	for k, p := range outside {
		tet, _ := e.Binding(len(pts) + k)
		var q mgl64.Vec3
		for a := 0; a < 3; a++ {
			q[a] = math.Max(-half[a], math.Min(half[a], p[a]))
		}
		boxDist := p.Sub(q).Len()
		c := m.corners(tet)
		tetDist := math.Inf(1)
		for _, f := range [4][3]int{{1, 2, 3}, {0, 3, 2}, {0, 1, 3}, {0, 2, 1}} {
			q, _, _ := collide.ClosestOnTriangle(p, c[f[0]], c[f[1]], c[f[2]])
			tetDist = math.Min(tetDist, q.Sub(p).Len())
		}
		if math.Abs(tetDist-boxDist) > 1e-12 {
			t.Fatalf("outside point %d bound to tetrahedron %d at %g m, the box is at %g m", k, tet, tetDist, boxDist)
		}
	}
}

// TestVoxelizeRefusesBadInput checks the errors for bad surfaces and arguments.
func TestVoxelizeRefusesBadInput(t *testing.T) {
	verts, tris := uvSphere(0.5, mgl64.Vec3{}, 6, 8)
	inward := make([][3]int, len(tris))
	for i, tr := range tris {
		inward[i] = [3]int{tr[0], tr[2], tr[1]}
	}
	cases := []struct {
		want string
		err  func() error
	}{
		{"cellSize", func() error { _, _, err := VoxelizeSurface(verts, tris, 0); return err }},
		{"cellSize", func() error { _, _, err := VoxelizeSurface(verts, tris, math.NaN()); return err }},
		{"cellSize", func() error { _, _, err := VoxelizeSurface(verts, tris, 1e-4); return err }},
		{"closed", func() error { _, _, err := VoxelizeSurface(verts, tris[1:], 0.2); return err }},
		{"clockwise", func() error { _, _, err := VoxelizeSurface(verts, inward, 0.2); return err }},
		{"triangles[0]", func() error { _, _, err := VoxelizeSurface(verts, [][3]int{{0, 0, 1}}, 0.2); return err }},
		{"coarse", func() error { _, _, err := VoxelizeSurface(verts, tris, 5); return err }},
	}
	for i, c := range cases {
		err := c.err()
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Fatalf("case %d: error %v, want one mentioning %q", i, err, c.want)
		}
	}
	m, e, err := VoxelizeSurface(verts, tris, 0.2)
	if err != nil {
		t.Fatal(err)
	}
	x := make([]mgl64.Vec3, m.NumVertices())
	dst := make([]mgl64.Vec3, e.NumPoints())
	if err := e.Deform(dst[1:], x); err == nil {
		t.Fatal("Deform accepted a short dst")
	}
	x[3][1] = math.Inf(1)
	if err := e.Deform(dst, x); err == nil || !strings.Contains(err.Error(), "x[3]") {
		t.Fatalf("Deform with an infinite vertex: %v", err)
	}
	for _, p := range dst {
		if p != (mgl64.Vec3{}) {
			t.Fatal("Deform wrote output on refusing its input")
		}
	}
	if _, err := NewEmbeddedSurface(m, []mgl64.Vec3{{0, math.NaN(), 0}}); err == nil || !strings.Contains(err.Error(), "points[0]") {
		t.Fatalf("NaN point: %v", err)
	}
}
