package deform

import (
	"fmt"

	"github.com/go-gl/mathgl/mgl64"
)

// lattice is a regular grid of cubic cells of side h, n cells along each axis from origin: the
// background grid from which NewSphereMesh, NewCapsuleMesh and VoxelizeSurface cut their meshes.
type lattice struct {
	origin mgl64.Vec3
	h      float64
	n      [3]int
}

// sdfFunc is a signed distance (negative inside) and the unit direction in which it grows.
type sdfFunc func(p mgl64.Vec3) (float64, mgl64.Vec3)

// minProjectedVolume is the least volume, as a fraction of a lattice tetrahedron's h³/6, that
// projecting a boundary vertex may leave any of its tetrahedra: a tetrahedron whose four corners
// all lie on the boundary would otherwise be flattened onto the surface.
const minProjectedVolume = 0.1

// checkCells refuses a lattice of more than maxCells cells (counted in floating point, so huge
// counts cannot overflow), naming the generator.
func (l lattice) checkCells(name string) error {
	total := float64(l.n[0]) * float64(l.n[1]) * float64(l.n[2])
	if total > maxCells {
		return fmt.Errorf("deform: %s: %d × %d × %d lattice cells, more than %d", name, l.n[0], l.n[1], l.n[2], maxCells)
	}
	return nil
}

// node returns the position of lattice node (i, j, k).
func (l lattice) node(c [3]int) mgl64.Vec3 {
	return mgl64.Vec3{
		l.origin[0] + float64(c[0])*l.h,
		l.origin[1] + float64(c[1])*l.h,
		l.origin[2] + float64(c[2])*l.h,
	}
}

// mesh keeps the cells whose centre satisfies keep and divides each into six tetrahedra by Kuhn's
// subdivision, as NewBoxMesh does (every cell cut along the same diagonal, so the mesh is
// conforming). Vertices are numbered in order of first use, cells visited x fastest, so the mesh
// is the same on every call. It refuses a lattice that keeps no cell or more than MaxVertices
// vertices.
func (l lattice) mesh(name string, keep func(centre mgl64.Vec3) bool) ([]mgl64.Vec3, [][4]int32, error) {
	perms := [6][3]int{{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}}
	ids := make(map[int64]int32)
	var vertices []mgl64.Vec3
	var tets [][4]int32
	id := func(c [3]int) (int32, bool) {
		key := (int64(c[2])*int64(l.n[1]+1)+int64(c[1]))*int64(l.n[0]+1) + int64(c[0])
		v, ok := ids[key]
		if !ok {
			if len(vertices) >= MaxVertices {
				return 0, false
			}
			v = int32(len(vertices))
			ids[key] = v
			vertices = append(vertices, l.node(c))
		}
		return v, true
	}
	half := mgl64.Vec3{l.h / 2, l.h / 2, l.h / 2}
	for k := 0; k < l.n[2]; k++ {
		for j := 0; j < l.n[1]; j++ {
			for i := 0; i < l.n[0]; i++ {
				if !keep(l.node([3]int{i, j, k}).Add(half)) {
					continue
				}
				for _, p := range perms {
					c := [3]int{i, j, k}
					var t [4]int32
					var ok bool
					if t[0], ok = id(c); !ok {
						return nil, nil, fmt.Errorf("deform: %s: more than %d vertices", name, MaxVertices)
					}
					for s := 0; s < 3; s++ {
						c[p[s]]++
						if t[s+1], ok = id(c); !ok {
							return nil, nil, fmt.Errorf("deform: %s: more than %d vertices", name, MaxVertices)
						}
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
	if len(tets) == 0 {
		return nil, nil, fmt.Errorf("deform: %s: no lattice cell has its centre inside (cells of %.3g m are too coarse)", name, l.h)
	}
	return vertices, tets, nil
}

// projectBoundary moves each boundary vertex (one on a face that belongs to a single
// tetrahedron) to its nearest point on the surface of sdf, p − d(p) n(p), in increasing vertex
// order. When the move would leave one of the vertex's tetrahedra with less than
// minProjectedVolume of the lattice volume h³/6 (or inverted), it tries half, a quarter and an
// eighth of the move and otherwise leaves the vertex; a second pass retries from where the first
// left off, once the neighbours have moved. Every tetrahedron therefore keeps a positive volume.
func projectBoundary(vertices []mgl64.Vec3, tets [][4]int32, h float64, sdf sdfFunc) {
	faces := [4][3]int{{1, 2, 3}, {0, 3, 2}, {0, 1, 3}, {0, 2, 1}}
	count := make(map[[3]int32]int32, 4*len(tets))
	for _, t := range tets {
		for _, f := range faces {
			count[sortedFace(t[f[0]], t[f[1]], t[f[2]])]++
		}
	}
	boundary := make([]bool, len(vertices))
	for _, t := range tets {
		for _, f := range faces {
			if count[sortedFace(t[f[0]], t[f[1]], t[f[2]])] == 1 {
				boundary[t[f[0]]], boundary[t[f[1]]], boundary[t[f[2]]] = true, true, true
			}
		}
	}
	// Tetrahedra of each vertex, in compressed rows.
	start := make([]int32, len(vertices)+1)
	for _, t := range tets {
		for _, a := range t {
			start[a+1]++
		}
	}
	for a := range vertices {
		start[a+1] += start[a]
	}
	fill := append([]int32(nil), start[:len(vertices)]...)
	incident := make([]int32, 4*len(tets))
	for i, t := range tets {
		for _, a := range t {
			incident[fill[a]] = int32(i)
			fill[a]++
		}
	}
	minVol := minProjectedVolume * h * h * h / 6
	valid := func(a int) bool {
		for _, e := range incident[start[a]:start[a+1]] {
			t := tets[e]
			if !(signedVolume([4]mgl64.Vec3{vertices[t[0]], vertices[t[1]], vertices[t[2]], vertices[t[3]]}) >= minVol) {
				return false
			}
		}
		return true
	}
	for pass := 0; pass < 2; pass++ {
		for a := range vertices {
			if !boundary[a] {
				continue
			}
			p := vertices[a]
			d, n := sdf(p)
			if d == 0 || !finite(d) {
				continue
			}
			move := n.Mul(-d)
			for s := 1.0; s >= 1.0/8; s /= 2 {
				vertices[a] = p.Add(move.Mul(s))
				if valid(a) {
					break
				}
				vertices[a] = p
			}
		}
	}
}
