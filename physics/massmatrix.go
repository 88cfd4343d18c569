package physics

import (
	"fmt"
	"math"
)

// MassMatrix is a block-diagonal SPD mass matrix over a Layout, kept as each block and its Cholesky
// factor, so that M x and M⁻¹ x cost one pass over the blocks. A warm MassMatrix does not allocate.
type MassMatrix struct {
	layout *Layout
	start  []int     // start of block i in blocks and factors
	blocks []float64 // row-major n×n blocks
	factor []float64 // row-major lower-triangular Cholesky factors L, M_i = L Lᵀ
}

// Reset sizes the matrix for layout's blocks, keeping capacity. Every block must then be set.
func (m *MassMatrix) Reset(layout *Layout) {
	m.layout = layout
	m.start = m.start[:0]
	n := 0
	for i := 0; i < layout.Blocks(); i++ {
		m.start = append(m.start, n)
		s := layout.Size(i)
		n += s * s
	}
	m.blocks = grow(m.blocks, n)
	m.factor = grow(m.factor, n)
}

// SetBlock stores block i (row-major, Size(i)² entries) and factors it. It fails, naming the block,
// if the block is not symmetric positive definite.
func (m *MassMatrix) SetBlock(i int, block []float64) error {
	n := m.layout.Size(i)
	s := m.start[i]
	if len(block) != n*n {
		return fmt.Errorf("physics: mass block %d: want %d entries, got %d", i, n*n, len(block))
	}
	a := m.blocks[s : s+n*n]
	copy(a, block)
	l := m.factor[s : s+n*n]
	scale := 0.0
	for r := 0; r < n; r++ {
		for c := 0; c < n; c++ {
			if x := a[r*n+c]; !finite(x) {
				return fmt.Errorf("physics: mass block %d: entry (%d,%d) is %v", i, r, c, x)
			}
			if math.Abs(a[r*n+c]-a[c*n+r]) > 1e-9*(math.Abs(a[r*n+c])+math.Abs(a[c*n+r])) {
				return fmt.Errorf("physics: mass block %d is not symmetric at (%d,%d)", i, r, c)
			}
		}
		scale = max(scale, a[r*n+r])
	}
	for c := 0; c < n; c++ {
		d := a[c*n+c]
		for k := 0; k < c; k++ {
			d -= l[c*n+k] * l[c*n+k]
		}
		if !(d > 1e-14*scale) {
			return fmt.Errorf("physics: mass block %d is not positive definite (pivot %d is %v)", i, c, d)
		}
		d = math.Sqrt(d)
		l[c*n+c] = d
		for r := c + 1; r < n; r++ {
			x := a[r*n+c]
			for k := 0; k < c; k++ {
				x -= l[r*n+k] * l[c*n+k]
			}
			l[r*n+c] = x / d
		}
		for r := 0; r < c; r++ {
			l[r*n+c] = 0
		}
	}
	return nil
}

// Mul writes M x into dst. dst and x must not overlap.
func (m *MassMatrix) Mul(dst, x []float64) {
	for i := range m.start {
		n, o, s := m.layout.Size(i), m.layout.Offset(i), m.start[i]
		a := m.blocks[s : s+n*n]
		for r := 0; r < n; r++ {
			sum := 0.0
			for c := 0; c < n; c++ {
				sum += a[r*n+c] * x[o+c]
			}
			dst[o+r] = sum
		}
	}
}

// MulInverse writes M⁻¹ x into dst by forward and back substitution per block. dst may be x.
func (m *MassMatrix) MulInverse(dst, x []float64) {
	for i := range m.start {
		n, o, s := m.layout.Size(i), m.layout.Offset(i), m.start[i]
		l := m.factor[s : s+n*n]
		y := dst[o : o+n]
		b := x[o : o+n]
		// L y = b
		for r := 0; r < n; r++ {
			sum := b[r]
			for c := 0; c < r; c++ {
				sum -= l[r*n+c] * y[c]
			}
			y[r] = sum / l[r*n+r]
		}
		// Lᵀ z = y, in place
		for r := n - 1; r >= 0; r-- {
			sum := y[r]
			for c := r + 1; c < n; c++ {
				sum -= l[c*n+r] * y[c]
			}
			y[r] = sum / l[r*n+r]
		}
	}
}

// grow returns s resized to n entries, reusing its storage when it is large enough.
func grow(s []float64, n int) []float64 {
	if cap(s) >= n {
		return s[:n]
	}
	return make([]float64, n)
}
