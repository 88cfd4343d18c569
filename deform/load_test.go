package deform

import (
	"errors"
	"math"
	"os"
	"runtime"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/stagger-physics/stagger/collide"
)

// readTestdata returns a file of testdata/ as a string.
func readTestdata(t testing.TB, name string) string {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// cubeNode0 and cubeEle0Flipped are the unit cube of testdata/ numbered from 0, its tetrahedra
// listed in the opposite orientation (b and c swapped), without attributes.
const cubeNode0 = "8 3\n0 0 0 0\n1 1 0 0\n2 0 1 0\n3 1 1 0\n4 0 0 1\n5 1 0 1\n6 0 1 1\n7 1 1 1\n"
const cubeEle0Flipped = "6 4 0\n0 0 3 1 7\n1 0 1 5 7\n2 0 2 3 7\n3 0 6 2 7\n4 0 5 4 7\n5 0 4 6 7\n"

// TestLoadTetGenCube loads testdata/cube.node and cube.ele (numbered from 1, with attributes,
// markers and regions) and the same cube numbered from 0 with the other orientation: each must
// be the unit cube — its corners, volume 1 and a closed surface of 12 triangles.
func TestLoadTetGenCube(t *testing.T) {
	for _, files := range [][2]string{
		{readTestdata(t, "cube.node"), readTestdata(t, "cube.ele")},
		{cubeNode0, cubeEle0Flipped},
	} {
		m, err := LoadTetGen(strings.NewReader(files[0]), strings.NewReader(files[1]))
		if err != nil {
			t.Fatal(err)
		}
		if m.NumVertices() != 8 || m.NumTets() != 6 {
			t.Fatalf("%d vertices and %d tetrahedra, want 8 and 6", m.NumVertices(), m.NumTets())
		}
		for a := 0; a < 8; a++ {
			if want := (mgl64.Vec3{float64(a & 1), float64(a >> 1 & 1), float64(a >> 2 & 1)}); m.Vertex(a) != want {
				t.Fatalf("vertex %d at %v, want %v", a, m.Vertex(a), want)
			}
		}
		for i := 0; i < m.NumTets(); i++ {
			if v := m.TetVolume(i); math.Abs(v-1.0/6) > 1e-15 {
				t.Fatalf("tetrahedron %d volume %v, want 1/6", i, v)
			}
		}
		if _, tris := m.Surface(); len(tris) != 12 {
			t.Fatalf("%d surface triangles, want 12", len(tris))
		}
	}
}

// TestLoadTetGenRefusesBadInput checks that each malformed file is refused with a *ParseError
// naming the file, the line and the fault.
func TestLoadTetGenRefusesBadInput(t *testing.T) {
	ele := cubeEle0Flipped
	cases := []struct {
		node, ele, file string
		line            int
		reason          string
	}{
		{"", ele, "node", 1, "empty"},
		{"8 2\n", ele, "node", 1, "dimension"},
		{"2000000 3 0 0\n", ele, "node", 1, "point count"},
		{"8 3 0 2\n", ele, "node", 1, "boundary markers"},
		{strings.Replace(cubeNode0, "2 0 1 0", "2 0 x 0", 1), ele, "node", 4, "coordinate y"},
		{strings.Replace(cubeNode0, "2 0 1 0", "2 0 NaN 0", 1), ele, "node", 4, "not a finite"},
		{strings.Replace(cubeNode0, "3 1 1 0", "4 1 1 0", 1), ele, "node", 5, "out of sequence"},
		{strings.Replace(cubeNode0, "3 1 1 0", "3 1 1", 1), ele, "node", 5, "want 4 fields"},
		{"# comment\n8 3 # trailing\n\n0 0 0 0\n", ele, "node", 5, "ends after 1 of 8 points"},
		{cubeNode0 + "8 0 0 0\n", ele, "node", 10, "extra line"},
		{cubeNode0, "6 10 0\n", "ele", 1, "only linear"},
		{cubeNode0, "100000000 4 0\n", "ele", 1, "tetrahedron count"},
		{cubeNode0, strings.Replace(ele, "2 0 2 3 7", "2 0 2 8 7", 1), "ele", 4, "tetrahedron 2: vertex 8 out of range"},
		{cubeNode0, strings.Replace(ele, "2 0 2 3 7", "2 0 2 2 7", 1), "ele", 4, "tetrahedron 2: vertex 2 repeated"},
		{cubeNode0, strings.Replace(ele, "2 0 2 3 7", "2 0 3 2 7", 1), "ele", 4, "tetrahedron 2: inverted"},
		{cubeNode0, strings.Replace(ele, "2 0 2 3 7", "2 0 1 2 3", 1), "ele", 4, "tetrahedron 2: degenerate"},
		{cubeNode0, strings.Replace(ele, "2 0 2 3 7", "2 0 2 3 7.5", 1), "ele", 4, "not an integer"},
		{cubeNode0, strings.Replace(ele, "5 0 4 6 7\n", "", 1), "ele", 7, "ends after 5 of 6"},
		{cubeNode0, "6 4 0\n" + strings.Repeat("9", maxLineBytes+1) + "\n", "ele", 2, "longer than"},
	}
	for i, c := range cases {
		_, err := LoadTetGen(strings.NewReader(c.node), strings.NewReader(c.ele))
		var pe *ParseError
		if !errors.As(err, &pe) || pe.File != c.file || pe.Line != c.line || !strings.Contains(pe.Reason, c.reason) {
			t.Fatalf("case %d: error %v, want %s line %d: …%s…", i, err, c.file, c.line, c.reason)
		}
	}
}

// TestLoadersAllocateFromInputNotHeader checks that a header claiming a million points or
// tetrahedra, followed by almost nothing, costs well under a megabyte before it is refused.
func TestLoadersAllocateFromInputNotHeader(t *testing.T) {
	run := func(node, ele string) (uint64, error) {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		_, err := LoadTetGen(strings.NewReader(node), strings.NewReader(ele))
		runtime.ReadMemStats(&after)
		return after.TotalAlloc - before.TotalAlloc, err
	}
	for i, c := range [][2]string{
		{"1000000 3 0 0\n1 0 0 0\n", cubeEle0Flipped},
		{cubeNode0, "8000000 4 0\n0 0 3 1 7\n"},
	} {
		bytes, err := run(c[0], c[1])
		if err == nil || !strings.Contains(err.Error(), "ends after") {
			t.Fatalf("case %d: error %v, want a truncated file", i, err)
		}
		if bytes > 1<<20 {
			t.Fatalf("case %d: %d bytes allocated for a file of a few lines", i, bytes)
		}
	}
}

// TestLoadOBJCube loads testdata/cube.obj (quads in every corner form, negative numbers,
// comments, skipped statements): 8 vertices and 12 triangles forming a closed, outward surface of
// volume 1, which collide accepts and which voxelises, on a lattice aligned with its faces, into
// exactly the unit cube.
func TestLoadOBJCube(t *testing.T) {
	verts, tris, err := LoadOBJ(strings.NewReader(readTestdata(t, "cube.obj")))
	if err != nil {
		t.Fatal(err)
	}
	if len(verts) != 8 || len(tris) != 12 {
		t.Fatalf("%d vertices and %d triangles, want 8 and 12", len(verts), len(tris))
	}
	if v := polyVolume(verts, tris); math.Abs(v-1) > 1e-15 {
		t.Fatalf("enclosed volume %v, want 1", v)
	}
	tm, err := collide.NewTriangleMesh(verts, tris)
	if err != nil {
		t.Fatal(err)
	}
	if !tm.Closed() {
		t.Fatal("cube surface not closed")
	}
	m, e, err := VoxelizeSurface(verts, tris, 0.25)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(m.Volume()-1) > 1e-12 || m.NumTets() != 6*64 {
		t.Fatalf("voxelised cube: volume %v with %d tetrahedra, want 1 with %d", m.Volume(), m.NumTets(), 6*64)
	}
	if e.NumPoints() != 8 {
		t.Fatalf("%d embedded points, want 8", e.NumPoints())
	}
}

// TestLoadOBJRefusesBadInput checks that each malformed file is refused with a *ParseError
// naming the line and the fault.
func TestLoadOBJRefusesBadInput(t *testing.T) {
	tri := "v 0 0 0\nv 1 0 0\nv 0 1 0\n"
	cases := []struct {
		obj    string
		line   int
		reason string
	}{
		{"v 0 0\n", 1, "want \"v x y z\""},
		{"v 0 0 zero\n", 1, "coordinate z"},
		{"v 0 1e999 0\n", 1, "not a finite"},
		{tri + "f 1 2\n", 4, "at least 3"},
		{tri + "f 1 2 0\n", 4, "vertex number 0 out of range"},
		{tri + "f 1 2 4\n", 4, "vertex number 4 out of range"},
		{tri + "f -1 -2 -4\n", 4, "vertex number -4 out of range"},
		{"v 0 0 0\nf 1 2 3\nv 1 0 0\nv 0 1 0\n", 2, "vertex number 2 out of range"},
		{tri + "f 1 2 1\n", 4, "vertex number 1 repeated"},
		{tri + "f 1/x 2 3.5\n", 4, "not an integer"},
		{tri + "# only vertices\n", 5, "no faces"},
		{tri + "f 1 2 3 " + strings.Repeat("2 ", 20) + "\n", 4, "vertex number 2 repeated"},
	}
	for i, c := range cases {
		_, _, err := LoadOBJ(strings.NewReader(c.obj))
		var pe *ParseError
		if !errors.As(err, &pe) || pe.File != "obj" || pe.Line != c.line || !strings.Contains(pe.Reason, c.reason) {
			t.Fatalf("case %d: error %v, want obj line %d: …%s…", i, err, c.line, c.reason)
		}
	}
	// A pentagon becomes a fan of three triangles keeping its winding.
	v, tris, err := LoadOBJ(strings.NewReader(tri + "v 1 1 0\nv 2 0 0\nf 1 2 5 4 3\n"))
	if err != nil || len(v) != 5 || len(tris) != 3 || tris[0] != [3]int{0, 1, 4} || tris[2] != [3]int{0, 3, 2} {
		t.Fatalf("pentagon: %v, %v, %v", v, tris, err)
	}
}
