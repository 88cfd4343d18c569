package deform

import (
	"fmt"
	"math"

	"github.com/go-gl/mathgl/mgl64"
)

// maxResolution bounds a round generator's cells across its diameter, so that the lattice stays
// within maxCells.
const maxResolution = 100

// NewSphereMesh returns a ball of the given radius centred on the origin, cut from a lattice of
// resolution cubic cells across its diameter: the cells whose centre is inside are divided into
// six tetrahedra each (Kuhn's subdivision, as NewBoxMesh) and the boundary vertices are then moved
// onto the sphere, each only as far as keeps its tetrahedra well shaped. The volume approaches
// 4/3 π r³ as the resolution grows (within 2 % at a resolution of 8). It refuses a radius that is
// not finite and > 0 and a resolution outside [2, 100], naming the argument.
func NewSphereMesh(radius float64, resolution int) (*TetMesh, error) {
	if !(radius > 0) || !finite(radius) {
		return nil, fmt.Errorf("deform: NewSphereMesh radius: must be finite and > 0, got %v", radius)
	}
	if resolution < 2 || resolution > maxResolution {
		return nil, fmt.Errorf("deform: NewSphereMesh resolution: must be in [2, %d], got %d", maxResolution, resolution)
	}
	h := 2 * radius / float64(resolution)
	l := lattice{origin: mgl64.Vec3{-radius, -radius, -radius}, h: h, n: [3]int{resolution, resolution, resolution}}
	sdf := func(p mgl64.Vec3) (float64, mgl64.Vec3) {
		r := p.Len()
		if r == 0 {
			return -radius, mgl64.Vec3{}
		}
		return r - radius, p.Mul(1 / r)
	}
	return roundMesh("NewSphereMesh", l, sdf)
}

// NewCapsuleMesh returns a capsule along local z centred on the origin — the points within radius
// of the segment from (0, 0, −halfHeight) to (0, 0, halfHeight), as collide.Capsule — meshed like
// NewSphereMesh with resolution cells across its diameter. The volume approaches
// π r² · 2 halfHeight + 4/3 π r³. It refuses a radius that is not finite and > 0, a halfHeight
// that is not finite and ≥ 0, a resolution outside [2, 100] and a capsule so long that the
// lattice would exceed MaxVertices cells, naming the argument.
func NewCapsuleMesh(radius, halfHeight float64, resolution int) (*TetMesh, error) {
	if !(radius > 0) || !finite(radius) {
		return nil, fmt.Errorf("deform: NewCapsuleMesh radius: must be finite and > 0, got %v", radius)
	}
	if !(halfHeight >= 0) || !finite(halfHeight) {
		return nil, fmt.Errorf("deform: NewCapsuleMesh halfHeight: must be finite and ≥ 0, got %v", halfHeight)
	}
	if resolution < 2 || resolution > maxResolution {
		return nil, fmt.Errorf("deform: NewCapsuleMesh resolution: must be in [2, %d], got %d", maxResolution, resolution)
	}
	h := 2 * radius / float64(resolution)
	nz := math.Ceil(2 * (halfHeight + radius) / h)
	if nz*float64(resolution*resolution) > maxCells {
		return nil, fmt.Errorf("deform: NewCapsuleMesh halfHeight: %v is %v cells long at resolution %d, more than %d cells in all", halfHeight, nz, resolution, maxCells)
	}
	// The lattice is centred on the origin along z too, so the mesh is symmetric.
	l := lattice{origin: mgl64.Vec3{-radius, -radius, -nz * h / 2}, h: h, n: [3]int{resolution, resolution, int(nz)}}
	sdf := func(p mgl64.Vec3) (float64, mgl64.Vec3) {
		d := mgl64.Vec3{p[0], p[1], p[2] - math.Max(-halfHeight, math.Min(halfHeight, p[2]))}
		r := d.Len()
		if r == 0 {
			return -radius, mgl64.Vec3{}
		}
		return r - radius, d.Mul(1 / r)
	}
	return roundMesh("NewCapsuleMesh", l, sdf)
}

// roundMesh cuts the cells of l whose centre is inside sdf, projects the boundary onto its
// surface and validates the mesh.
func roundMesh(name string, l lattice, sdf sdfFunc) (*TetMesh, error) {
	if err := l.checkCells(name); err != nil {
		return nil, err
	}
	vertices, tets, err := l.mesh(name, func(c mgl64.Vec3) bool {
		d, _ := sdf(c)
		return d < 0
	})
	if err != nil {
		return nil, err
	}
	projectBoundary(vertices, tets, l.h, sdf)
	return NewTetMesh(vertices, tets)
}
