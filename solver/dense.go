package solver

import "math"

// Small dense kernels on row-major n×n matrices, free of allocation when given scratch.

// rigidBlockOK is choleskyOK for a 6×6 block with a rigid body's pattern (isRigidPattern): the
// factor of a block-diagonal matrix is that of each block, so the linear pivots are the first
// three diagonal entries and only the angular 3×3 block is factored. Pivots and threshold are
// those of choleskyOK on the whole block.
func rigidBlockOK(a []float64) bool {
	m := (*[rigidSize * rigidSize]float64)(a)
	scale := 0.0
	for i := 0; i < rigidSize; i++ {
		scale = max(scale, math.Abs(m[i*rigidSize+i]))
	}
	if !(scale > 0) || !(m[0] > 1e-13*scale) || !(m[7] > 1e-13*scale) || !(m[14] > 1e-13*scale) {
		return false
	}
	ang := [9]float64{m[21], m[22], m[23], m[27], m[28], m[29], m[33], m[34], m[35]}
	d0 := ang[0]
	if !(d0 > 1e-13*scale) {
		return false
	}
	l00 := math.Sqrt(d0)
	l10, l20 := ang[3]/l00, ang[6]/l00
	d1 := ang[4] - l10*l10
	if !(d1 > 1e-13*scale) {
		return false
	}
	l11 := math.Sqrt(d1)
	l21 := (ang[7] - l20*l10) / l11
	d2 := ang[8] - l20*l20 - l21*l21
	return d2 > 1e-13*scale
}

// choleskyOK reports whether the symmetric n×n a is positive definite, factoring it into l (n×n
// scratch; allocated when nil).
func choleskyOK(a, l []float64, n int) bool {
	if l == nil {
		l = make([]float64, n*n)
	}
	scale := 0.0
	for i := 0; i < n; i++ {
		if d := math.Abs(a[i*n+i]); d > scale {
			scale = d
		}
	}
	if !(scale > 0) {
		return false
	}
	for j := 0; j < n; j++ {
		d := a[j*n+j]
		for k := 0; k < j; k++ {
			d -= l[j*n+k] * l[j*n+k]
		}
		if !(d > 1e-13*scale) {
			return false
		}
		d = math.Sqrt(d)
		l[j*n+j] = d
		for i := j + 1; i < n; i++ {
			s := a[i*n+j]
			for k := 0; k < j; k++ {
				s -= l[i*n+k] * l[j*n+k]
			}
			l[i*n+j] = s / d
		}
	}
	return true
}

// invertSPD writes the inverse of the SPD n×n a into inv, by Gauss–Jordan elimination without
// pivoting (stable for SPD matrices). It reports false if a pivot is not positive.
func invertSPD(a, inv []float64, n int) bool {
	var buf [144]float64
	var w []float64
	if n*n <= len(buf) {
		w = buf[:n*n]
	} else {
		w = make([]float64, n*n)
	}
	copy(w, a)
	for i := range inv[:n*n] {
		inv[i] = 0
	}
	for i := 0; i < n; i++ {
		inv[i*n+i] = 1
	}
	scale := 0.0
	for i := 0; i < n; i++ {
		if d := math.Abs(a[i*n+i]); d > scale {
			scale = d
		}
	}
	for j := 0; j < n; j++ {
		p := w[j*n+j]
		if !(p > 1e-13*scale) {
			return false
		}
		ip := 1 / p
		for c := 0; c < n; c++ {
			w[j*n+c] *= ip
			inv[j*n+c] *= ip
		}
		for r := 0; r < n; r++ {
			if r == j {
				continue
			}
			f := w[r*n+j]
			if f == 0 {
				continue
			}
			for c := 0; c < n; c++ {
				w[r*n+c] -= f * w[j*n+c]
				inv[r*n+c] -= f * inv[j*n+c]
			}
		}
	}
	// Symmetrise against rounding.
	for r := 0; r < n; r++ {
		for c := r + 1; c < n; c++ {
			s := 0.5 * (inv[r*n+c] + inv[c*n+r])
			inv[r*n+c], inv[c*n+r] = s, s
		}
	}
	return true
}

// psdSolve solves the symmetric positive semidefinite n×n system a x = rhs, assumed consistent,
// by Cholesky factorisation with diagonal pivoting: pivots below rel·(largest diagonal) are
// treated as zero and their unknowns set to zero, giving an exact solution of a consistent
// singular system. a is overwritten; perm (n ints) and y (n floats) are scratch. It returns the
// numerical rank.
func psdSolve(a []float64, n int, rhs, x []float64, perm []int, y []float64, rel float64) int {
	for i := 0; i < n; i++ {
		perm[i] = i
	}
	maxd := 0.0
	for i := 0; i < n; i++ {
		maxd = max(maxd, a[i*n+i])
	}
	rank := 0
	// Outer-product Cholesky with symmetric pivoting on the largest remaining diagonal.
	for j := 0; j < n; j++ {
		piv, best := j, a[j*n+j]
		for i := j + 1; i < n; i++ {
			if a[i*n+i] > best {
				piv, best = i, a[i*n+i]
			}
		}
		if !(best > rel*maxd) || !(maxd > 0) {
			break
		}
		if piv != j {
			swapSym(a, n, j, piv)
			perm[j], perm[piv] = perm[piv], perm[j]
		}
		d := math.Sqrt(a[j*n+j])
		a[j*n+j] = d
		for i := j + 1; i < n; i++ {
			a[i*n+j] /= d
		}
		// Update the whole trailing block so that it stays symmetric under later pivots.
		for c := j + 1; c < n; c++ {
			lc := a[c*n+j]
			if lc == 0 {
				continue
			}
			for r := j + 1; r < n; r++ {
				a[r*n+c] -= a[r*n+j] * lc
			}
		}
		rank++
	}
	// Forward substitution on the leading rank×rank block: L y = P rhs.
	for i := 0; i < rank; i++ {
		s := rhs[perm[i]]
		for k := 0; k < i; k++ {
			s -= a[i*n+k] * y[k]
		}
		y[i] = s / a[i*n+i]
	}
	// Back substitution: Lᵀ z = y.
	for i := rank - 1; i >= 0; i-- {
		s := y[i]
		for k := i + 1; k < rank; k++ {
			s -= a[k*n+i] * y[k]
		}
		y[i] = s / a[i*n+i]
	}
	for i := 0; i < n; i++ {
		x[i] = 0
	}
	for i := 0; i < rank; i++ {
		x[perm[i]] = y[i]
	}
	return rank
}

// swapSym swaps rows and columns i and j of the n×n a, stored in full.
func swapSym(a []float64, n, i, j int) {
	for c := 0; c < n; c++ {
		a[i*n+c], a[j*n+c] = a[j*n+c], a[i*n+c]
	}
	for r := 0; r < n; r++ {
		a[r*n+i], a[r*n+j] = a[r*n+j], a[r*n+i]
	}
}
