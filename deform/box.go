package deform

import (
	"fmt"

	"github.com/go-gl/mathgl/mgl64"
)

// maxCells bounds a generator's cell count (six tetrahedra each).
const maxCells = MaxVertices

// NewBoxMesh returns a box of half-extents half centred on the origin, divided into nx × ny × nz
// cells of six tetrahedra each (Kuhn's subdivision: every cell cut along the same diagonal, so
// neighbouring cells share their faces' triangles and the mesh is conforming). A beam is a box
// with many cells along its length. It refuses non-positive or non-finite extents and cell counts
// below 1 or beyond MaxVertices vertices, naming the argument.
func NewBoxMesh(half mgl64.Vec3, nx, ny, nz int) (*TetMesh, error) {
	for i, h := range half {
		if !(h > 0) || !finite(h) {
			return nil, fmt.Errorf("deform: NewBoxMesh half[%d]: must be finite and > 0, got %v", i, h)
		}
	}
	if nx < 1 || ny < 1 || nz < 1 || (nx+1)*(ny+1) > maxCells/(nz+1) {
		return nil, fmt.Errorf("deform: NewBoxMesh cells: each count must be ≥ 1 and the vertices at most %d, got %d × %d × %d", MaxVertices, nx, ny, nz)
	}
	n := [3]int{nx, ny, nz}
	index := func(i, j, k int) int32 { return int32((k*(ny+1)+j)*(nx+1) + i) }
	vertices := make([]mgl64.Vec3, 0, (nx+1)*(ny+1)*(nz+1))
	for k := 0; k <= nz; k++ {
		for j := 0; j <= ny; j++ {
			for i := 0; i <= nx; i++ {
				c := [3]int{i, j, k}
				var p mgl64.Vec3
				for a := 0; a < 3; a++ {
					p[a] = -half[a] + 2*half[a]*float64(c[a])/float64(n[a])
				}
				vertices = append(vertices, p)
			}
		}
	}
	// The six paths from a cell's corner (0,0,0) to (1,1,1) along the axes, one per permutation.
	perms := [6][3]int{{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}}
	tets := make([][4]int32, 0, 6*nx*ny*nz)
	for k := 0; k < nz; k++ {
		for j := 0; j < ny; j++ {
			for i := 0; i < nx; i++ {
				for _, p := range perms {
					c := [3]int{i, j, k}
					var t [4]int32
					t[0] = index(c[0], c[1], c[2])
					for s := 0; s < 3; s++ {
						c[p[s]]++
						t[s+1] = index(c[0], c[1], c[2])
					}
					// Odd permutations give negatively oriented tetrahedra: swap two corners.
					if signedVolume([4]mgl64.Vec3{vertices[t[0]], vertices[t[1]], vertices[t[2]], vertices[t[3]]}) < 0 {
						t[1], t[2] = t[2], t[1]
					}
					tets = append(tets, t)
				}
			}
		}
	}
	return NewTetMesh(vertices, tets)
}
