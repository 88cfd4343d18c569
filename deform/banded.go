package deform

import (
	"fmt"
	"math"
	"slices"
)

// bandedCholesky is the Cholesky factor L Lᵀ of the stiffness K restricted to the free vertices,
// stored as a band after a reverse Cuthill–McKee ordering of the vertices (which keeps the band
// narrow: about three times the vertices of a cross-section for a beam). Factoring costs
// O(n·w²) and each solve O(n·w) for n unknowns and band width w, so repeated solves — a modal
// analysis needs hundreds — cost far less than conjugate gradients each.
type bandedCholesky struct {
	n, w  int
	order []int     // order[p] = the vertex at position p (free vertices only)
	pos   []int     // pos[a] = position of vertex a, −1 if held
	band  []float64 // band[i*(w+1)+d] = L(i, i−d), d in [0, w]
}

// newBandedCholesky orders and factors K on the vertices not fixed. It fails if K is not positive
// definite there.
func newBandedCholesky(k *BlockMatrix, fixed []bool) (*bandedCholesky, error) {
	bc := &bandedCholesky{pos: make([]int, k.n)}
	bc.order = rcmOrder(k, fixed)
	for a := range bc.pos {
		bc.pos[a] = -1
	}
	for p, a := range bc.order {
		bc.pos[a] = p
	}
	width := 0
	for _, a := range bc.order {
		for q := k.start[a]; q < k.start[a+1]; q++ {
			if b := int(k.cols[q]); bc.pos[b] >= 0 {
				width = max(width, bc.pos[a]-bc.pos[b])
			}
		}
	}
	bc.n, bc.w = 3*len(bc.order), 3*width+2
	w := bc.w
	bc.band = make([]float64, bc.n*(w+1))
	for _, a := range bc.order {
		for q := k.start[a]; q < k.start[a+1]; q++ {
			b := int(k.cols[q])
			if bc.pos[b] < 0 || bc.pos[b] > bc.pos[a] {
				continue
			}
			blk := &k.vals[q]
			for r := 0; r < 3; r++ {
				for c := 0; c < 3; c++ {
					i, j := 3*bc.pos[a]+r, 3*bc.pos[b]+c
					if j <= i {
						bc.band[i*(w+1)+i-j] = blk[3*r+c]
					}
				}
			}
		}
	}
	// Banded Cholesky, row by row: L(i, j) for j in [i−w, i].
	for i := 0; i < bc.n; i++ {
		for j := max(0, i-w); j <= i; j++ {
			s := bc.band[i*(w+1)+i-j]
			for p := max(0, i-w, j-w); p < j; p++ {
				s -= bc.band[i*(w+1)+i-p] * bc.band[j*(w+1)+j-p]
			}
			if j == i {
				if !(s > 0) {
					return nil, fmt.Errorf("deform: the stiffness is not positive definite on the free vertices (pivot %d: %g)", i, s)
				}
				bc.band[i*(w+1)] = math.Sqrt(s)
			} else {
				bc.band[i*(w+1)+i-j] = s / bc.band[j*(w+1)]
			}
		}
	}
	return bc, nil
}

// solve sets u to K⁻¹ f on the free vertices (f and u: 3 per vertex; u is zero on held ones), using
// y (len bc.n) as scratch.
func (bc *bandedCholesky) solve(f, u, y []float64) {
	w := bc.w
	for p, a := range bc.order {
		y[3*p], y[3*p+1], y[3*p+2] = f[3*a], f[3*a+1], f[3*a+2]
	}
	for i := 0; i < bc.n; i++ { // L y = f
		s := y[i]
		for p := max(0, i-w); p < i; p++ {
			s -= bc.band[i*(w+1)+i-p] * y[p]
		}
		y[i] = s / bc.band[i*(w+1)]
	}
	for i := bc.n - 1; i >= 0; i-- { // Lᵀ x = y
		s := y[i]
		for p := i + 1; p <= min(bc.n-1, i+w); p++ {
			s -= bc.band[p*(w+1)+p-i] * y[p]
		}
		y[i] = s / bc.band[i*(w+1)]
	}
	clear(u)
	for p, a := range bc.order {
		u[3*a], u[3*a+1], u[3*a+2] = y[3*p], y[3*p+1], y[3*p+2]
	}
}

// solveBlock sets u[j] to K⁻¹ f[j] for every j at once, as solve does for one (the same
// operations in the same order for each, so the same bits), in one pass over the factor for all
// of them: a modal analysis solves a block of vectors per iteration, and the band — tens of
// megabytes for a fine beam — is then read from memory once per iteration rather than once per
// vector. y (len(f)·bc.n) is scratch, holding the vectors interleaved, entry i of vector j at
// i·len(f)+j.
func (bc *bandedCholesky) solveBlock(f, u [][]float64, y []float64) {
	w, q := bc.w, len(f)
	for p, a := range bc.order {
		for c := 0; c < 3; c++ {
			row := y[(3*p+c)*q : (3*p+c+1)*q]
			for j := range row {
				row[j] = f[j][3*a+c]
			}
		}
	}
	for i := 0; i < bc.n; i++ { // L y = f
		yi := y[i*q : (i+1)*q]
		for p := max(0, i-w); p < i; p++ {
			l, yp := bc.band[i*(w+1)+i-p], y[p*q:(p+1)*q]
			for j := range yi {
				yi[j] -= l * yp[j]
			}
		}
		d := bc.band[i*(w+1)]
		for j := range yi {
			yi[j] /= d
		}
	}
	for i := bc.n - 1; i >= 0; i-- { // Lᵀ x = y
		yi := y[i*q : (i+1)*q]
		for p := i + 1; p <= min(bc.n-1, i+w); p++ {
			l, yp := bc.band[p*(w+1)+p-i], y[p*q:(p+1)*q]
			for j := range yi {
				yi[j] -= l * yp[j]
			}
		}
		d := bc.band[i*(w+1)]
		for j := range yi {
			yi[j] /= d
		}
	}
	for j := range u {
		clear(u[j])
	}
	for p, a := range bc.order {
		for c := 0; c < 3; c++ {
			row := y[(3*p+c)*q : (3*p+c+1)*q]
			for j, v := range row {
				u[j][3*a+c] = v
			}
		}
	}
}

// rcmOrder returns the free vertices in reverse Cuthill–McKee order over K's block pattern:
// breadth-first from a vertex of least degree, neighbours by increasing degree (ties by index),
// each connected component in turn, the whole reversed. It is deterministic.
func rcmOrder(k *BlockMatrix, fixed []bool) []int {
	degree := func(a int) int { return k.start[a+1] - k.start[a] }
	seen := make([]bool, k.n)
	var order []int
	var nbr []int
	for {
		start := -1
		for a := 0; a < k.n; a++ {
			if !seen[a] && !fixed[a] && (start < 0 || degree(a) < degree(start)) {
				start = a
			}
		}
		if start < 0 {
			break
		}
		seen[start] = true
		order = append(order, start)
		for head := len(order) - 1; head < len(order); head++ {
			a := order[head]
			nbr = nbr[:0]
			for q := k.start[a]; q < k.start[a+1]; q++ {
				if b := int(k.cols[q]); !seen[b] && !fixed[b] {
					seen[b] = true
					nbr = append(nbr, b)
				}
			}
			slices.SortFunc(nbr, func(x, y int) int {
				if d := degree(x) - degree(y); d != 0 {
					return d
				}
				return x - y
			})
			order = append(order, nbr...)
		}
	}
	slices.Reverse(order)
	return order
}
