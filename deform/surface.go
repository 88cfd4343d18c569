package deform

// Surface returns the mesh's boundary: the triangles that belong to exactly one tetrahedron, wound
// counter-clockwise seen from outside (their normal (b−a)×(c−a) points out of the mesh), and the
// vertices they use. vertices lists mesh vertex indices in order of first use; triangles index
// into vertices, not into the mesh. The order follows the tetrahedra's, so it is the same on
// every call.
func (m *TetMesh) Surface() (vertices []int32, triangles [][3]int32) {
	// The four faces of a positively oriented tetrahedron (v0..v3), each wound outwards.
	faces := [4][3]int{{1, 2, 3}, {0, 3, 2}, {0, 1, 3}, {0, 2, 1}}
	count := make(map[[3]int32]int32, 4*len(m.tets))
	for _, t := range m.tets {
		for _, f := range faces {
			count[sortedFace(t[f[0]], t[f[1]], t[f[2]])]++
		}
	}
	local := make(map[int32]int32)
	for _, t := range m.tets {
		for _, f := range faces {
			if count[sortedFace(t[f[0]], t[f[1]], t[f[2]])] != 1 {
				continue
			}
			var tri [3]int32
			for i, c := range f {
				v := t[c]
				idx, ok := local[v]
				if !ok {
					idx = int32(len(vertices))
					local[v] = idx
					vertices = append(vertices, v)
				}
				tri[i] = idx
			}
			triangles = append(triangles, tri)
		}
	}
	return vertices, triangles
}

// sortedFace returns the three indices in increasing order: a face's key whatever its winding.
func sortedFace(a, b, c int32) [3]int32 {
	if a > b {
		a, b = b, a
	}
	if b > c {
		b, c = c, b
	}
	if a > b {
		a, b = b, a
	}
	return [3]int32{a, b, c}
}
