package deform

import (
	"fmt"
	"math"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/stagger-physics/stagger/collide"
)

// VoxelizeSurface meshes the inside of a closed triangle surface (vertices and triangles as for
// collide.NewTriangleMesh, wound counter-clockwise seen from outside, as LoadOBJ returns them)
// with tetrahedra, and embeds the surface's vertices in the mesh. It samples the surface's signed
// distance on a collide.SDFGrid of cells of side cellSize, keeps the lattice cells (aligned with
// the grid's nodes) whose centre the grid finds inside, divides each into six tetrahedra (Kuhn's
// subdivision, as NewBoxMesh) and moves the boundary vertices onto the surface by its exact
// signed distance, each only as far as keeps its tetrahedra well shaped (as NewSphereMesh).
//
// The returned EmbeddedSurface binds vertices[i] to the mesh, so the deformed mesh carries the
// surface: its triangles, unchanged, index the embedded points.
//
// Parts of the surface thinner than about a cell may be lost or meshed in separate pieces, which a
// free-body model (FreeModes) refuses: choose cellSize below the thinnest part. It refuses a
// cellSize that is not finite and > 0, an invalid surface (collide's error), an open surface or
// one wound inside out, and a lattice of more than MaxVertices cells or one that keeps no cell.
func VoxelizeSurface(vertices []mgl64.Vec3, triangles [][3]int, cellSize float64) (*TetMesh, *EmbeddedSurface, error) {
	if !(cellSize > 0) || !finite(cellSize) {
		return nil, nil, fmt.Errorf("deform: VoxelizeSurface cellSize: must be finite and > 0, got %v", cellSize)
	}
	tm, err := collide.NewTriangleMesh(vertices, triangles)
	if err != nil {
		return nil, nil, fmt.Errorf("deform: VoxelizeSurface: %w", err)
	}
	if !tm.Closed() {
		return nil, nil, fmt.Errorf("deform: VoxelizeSurface triangles: the surface must be closed and consistently wound (every edge shared by two triangles in opposite directions)")
	}
	// The divergence theorem's volume is negative for a surface wound inwards.
	signed := 0.0
	for _, t := range triangles {
		a, b, c := vertices[t[0]], vertices[t[1]], vertices[t[2]]
		signed += a.Dot(b.Cross(c)) / 6
	}
	if !(signed > 0) {
		return nil, nil, fmt.Errorf("deform: VoxelizeSurface triangles: wound clockwise seen from outside (enclosed volume %.3g m³): list each triangle the other way round", signed)
	}
	bounds := tm.Bounds(collide.IdentityPose())
	// The grid spans the bounds grown by one cell, its nodes at Min − cellSize + i·cellSize.
	l := lattice{origin: bounds.Min.Sub(mgl64.Vec3{cellSize, cellSize, cellSize}), h: cellSize}
	for a := 0; a < 3; a++ {
		c := math.Ceil((bounds.Max[a] - bounds.Min[a] + 2*cellSize) / cellSize)
		if c > maxCells {
			return nil, nil, fmt.Errorf("deform: VoxelizeSurface cellSize: %v gives more than %d cells across %v m", cellSize, maxCells, bounds.Max[a]-bounds.Min[a])
		}
		l.n[a] = max(int(c), 1)
	}
	if err := l.checkCells("VoxelizeSurface cellSize"); err != nil {
		return nil, nil, err
	}
	grid, err := collide.NewSDFGridFromMesh(tm, cellSize, cellSize)
	if err != nil {
		return nil, nil, fmt.Errorf("deform: VoxelizeSurface: %w", err)
	}
	verts, tets, err := l.mesh("VoxelizeSurface", func(c mgl64.Vec3) bool {
		d, _ := grid.SignedDistance(c)
		return d < 0
	})
	if err != nil {
		return nil, nil, err
	}
	projectBoundary(verts, tets, cellSize, tm.SignedDistance)
	m, err := NewTetMesh(verts, tets)
	if err != nil {
		return nil, nil, err
	}
	e, err := NewEmbeddedSurface(m, vertices)
	if err != nil {
		return nil, nil, err
	}
	return m, e, nil
}
