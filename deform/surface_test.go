package deform

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
)

// TestSurfaceOfBoxIsClosedAndOutward checks the boundary of a meshed box against what a box's
// surface must be: 2·(nx ny + ny nz + nz nx)·2 triangles, exactly the vertices on the box's faces,
// every edge shared by two triangles in opposite directions (a closed, consistently wound
// surface), and a divergence-theorem volume Σ (a·(b×c))/6 equal to the box's (outward winding).
func TestSurfaceOfBoxIsClosedAndOutward(t *testing.T) {
	half := mgl64.Vec3{0.5, 0.3, 0.2}
	nx, ny, nz := 4, 3, 2
	m, err := NewBoxMesh(half, nx, ny, nz)
	if err != nil {
		t.Fatal(err)
	}
	verts, tris := m.Surface()
	if want := 4 * (nx*ny + ny*nz + nz*nx); len(tris) != want {
		t.Fatalf("%d triangles, want %d", len(tris), want)
	}
	onFace := 0
	for a := 0; a < m.NumVertices(); a++ {
		p := m.Vertex(a)
		for i := 0; i < 3; i++ {
			if math.Abs(math.Abs(p[i])-half[i]) < 1e-12 {
				onFace++
				break
			}
		}
	}
	if len(verts) != onFace {
		t.Fatalf("%d surface vertices, want the %d on the box's faces", len(verts), onFace)
	}
	edges := map[[2]int32]int{}
	vol := 0.0
	for _, tr := range tris {
		for i := 0; i < 3; i++ {
			edges[[2]int32{verts[tr[i]], verts[tr[(i+1)%3]]}]++
		}
		a, b, c := m.Vertex(int(verts[tr[0]])), m.Vertex(int(verts[tr[1]])), m.Vertex(int(verts[tr[2]]))
		vol += a.Dot(b.Cross(c)) / 6
	}
	for e, n := range edges {
		if n != 1 || edges[[2]int32{e[1], e[0]}] != 1 {
			t.Fatalf("edge %v used %d times, its reverse %d: surface not closed and consistently wound", e, n, edges[[2]int32{e[1], e[0]}])
		}
	}
	if want := 8 * half[0] * half[1] * half[2]; math.Abs(vol-want) > 1e-12 {
		t.Fatalf("enclosed volume %v, want %v", vol, want)
	}
}
