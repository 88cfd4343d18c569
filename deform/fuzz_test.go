package deform

import (
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
)

// FuzzLoadTetGen feeds arbitrary .node/.ele pairs to LoadTetGen: it must not panic, and a mesh
// it accepts must pass NewTetMesh's validation again (finite vertices, indices in range, every
// tetrahedron positively oriented and not degenerate).
func FuzzLoadTetGen(f *testing.F) {
	f.Add(readTestdata(f, "cube.node"), readTestdata(f, "cube.ele"))
	f.Add(cubeNode0, cubeEle0Flipped)
	f.Add(cubeNode0, "1 4\n0 0 1 2 4\n")
	f.Add("4 3 0 0\n1 0 0 0\n2 1 0 0\n3 0 1 0\n4 0 0 1\n", "1 4 0\n1 1 2 3 4\n")
	f.Fuzz(func(t *testing.T, node, ele string) {
		m, err := LoadTetGen(strings.NewReader(node), strings.NewReader(ele))
		if err != nil {
			if m != nil {
				t.Fatal("a mesh returned with an error")
			}
			return
		}
		vertices := make([]mgl64.Vec3, m.NumVertices())
		for a := range vertices {
			vertices[a] = m.Vertex(a)
		}
		tets := make([][4]int32, m.NumTets())
		for i := range tets {
			tets[i] = m.Tet(i)
			if !(m.TetVolume(i) > 0) {
				t.Fatalf("tetrahedron %d has volume %v", i, m.TetVolume(i))
			}
		}
		if _, err := NewTetMesh(vertices, tets); err != nil {
			t.Fatalf("accepted mesh fails validation: %v", err)
		}
	})
}

// FuzzLoadOBJ feeds arbitrary text to LoadOBJ: it must not panic, and what it accepts must have
// finite vertices, at least one triangle, indices in range and three distinct corners each.
func FuzzLoadOBJ(f *testing.F) {
	f.Add(readTestdata(f, "cube.obj"))
	f.Add("v 0 0 0\nv 1 0 0\nv 0 1 0\nf -3/1/1 -2//2 -1\n")
	f.Add("v 0 0 0 1\nv 1 0 0\nv 0 1 0\nv 1 1 0\nf 1 2 4 3\n# end\n")
	f.Fuzz(func(t *testing.T, obj string) {
		verts, tris, err := LoadOBJ(strings.NewReader(obj))
		if err != nil {
			return
		}
		if len(tris) == 0 {
			t.Fatal("accepted with no triangle")
		}
		for i, v := range verts {
			if !finite(v[0]) || !finite(v[1]) || !finite(v[2]) {
				t.Fatalf("vertex %d not finite: %v", i, v)
			}
		}
		for i, tr := range tris {
			for k := 0; k < 3; k++ {
				if tr[k] < 0 || tr[k] >= len(verts) {
					t.Fatalf("triangle %d: index %d out of range", i, tr[k])
				}
			}
			if tr[0] == tr[1] || tr[1] == tr[2] || tr[0] == tr[2] {
				t.Fatalf("triangle %d repeats a corner: %v", i, tr)
			}
		}
	})
}
