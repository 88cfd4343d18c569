package deform

import "slices"

// BlockMatrix is a symmetric sparse matrix of 3×3 blocks, one block row per vertex, as the linear
// finite-element stiffness K is: rows a and b share a block when vertices a and b share a
// tetrahedron. Blocks are stored row-major.
type BlockMatrix struct {
	n     int     // block rows (vertices)
	start []int   // row a's blocks are cols[start[a]:start[a+1]], ascending
	cols  []int32 // block column (vertex) of each block
	vals  [][9]float64
}

// newBlockPattern returns the zero matrix with a block for every pair of vertices of a
// tetrahedron of m (the diagonal included).
func newBlockPattern(m *TetMesh) *BlockMatrix {
	n := m.NumVertices()
	neighbours := make([][]int32, n)
	for _, t := range m.tets {
		for _, a := range t {
			neighbours[a] = append(neighbours[a], t[0], t[1], t[2], t[3])
		}
	}
	bm := &BlockMatrix{n: n, start: make([]int, n+1)}
	for a := 0; a < n; a++ {
		row := neighbours[a]
		slices.Sort(row)
		row = slices.Compact(row)
		bm.cols = append(bm.cols, row...)
		bm.start[a+1] = len(bm.cols)
	}
	bm.vals = make([][9]float64, len(bm.cols))
	return bm
}

// block returns the block at (a, b), which must be in the pattern.
func (bm *BlockMatrix) block(a, b int32) *[9]float64 {
	row := bm.cols[bm.start[a]:bm.start[a+1]]
	k, _ := slices.BinarySearch(row, b)
	return &bm.vals[bm.start[a]+k]
}

// Size returns the matrix's dimension, 3 per vertex.
func (bm *BlockMatrix) Size() int { return 3 * bm.n }

// At returns entry (i, j) (0 outside the pattern). Like a slice index, it panics out of range.
func (bm *BlockMatrix) At(i, j int) float64 {
	a, b := int32(i/3), int32(j/3)
	if i < 0 || j < 0 || i >= 3*bm.n || j >= 3*bm.n {
		panic("deform: BlockMatrix.At: index out of range")
	}
	row := bm.cols[bm.start[a]:bm.start[a+1]]
	k, ok := slices.BinarySearch(row, b)
	if !ok {
		return 0
	}
	return bm.vals[bm.start[a]+k][3*(i%3)+j%3]
}

// MulVec sets y = K x (len 3 per vertex each; y must not alias x).
func (bm *BlockMatrix) MulVec(x, y []float64) {
	for a := 0; a < bm.n; a++ {
		var s0, s1, s2 float64
		for k := bm.start[a]; k < bm.start[a+1]; k++ {
			b := 3 * int(bm.cols[k])
			v := &bm.vals[k]
			x0, x1, x2 := x[b], x[b+1], x[b+2]
			s0 += v[0]*x0 + v[1]*x1 + v[2]*x2
			s1 += v[3]*x0 + v[4]*x1 + v[5]*x2
			s2 += v[6]*x0 + v[7]*x1 + v[8]*x2
		}
		y[3*a], y[3*a+1], y[3*a+2] = s0, s1, s2
	}
}
