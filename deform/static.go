package deform

import (
	"fmt"
	"math"
)

// SolveStatic solves K u = f for the displacements u of the vertices not fixed (fixed[a]: vertex
// a is held at zero displacement; nil holds none) by conjugate gradients preconditioned with the
// inverse diagonal blocks of K, to a residual of tol times ‖f‖ (over the free rows) within
// maxIter iterations. K must be positive definite on the free rows, which holding one vertex's
// neighbourhood of a connected mesh ensures. It returns u (zero on fixed vertices) and refuses
// mismatched lengths and a solve that does not converge.
func SolveStatic(k *BlockMatrix, f []float64, fixed []bool, tol float64, maxIter int) ([]float64, error) {
	n := k.Size()
	switch {
	case len(f) != n:
		return nil, fmt.Errorf("deform: SolveStatic f: length %d, want %d", len(f), n)
	case fixed != nil && len(fixed) != k.n:
		return nil, fmt.Errorf("deform: SolveStatic fixed: length %d, want %d", len(fixed), k.n)
	case !(tol > 0) || maxIter < 1:
		return nil, fmt.Errorf("deform: SolveStatic: tol must be > 0 and maxIter ≥ 1, got %v and %d", tol, maxIter)
	}
	free := func(i int) bool { return fixed == nil || !fixed[i/3] }
	// Preconditioner: the inverse of each free vertex's diagonal block.
	pre := make([][9]float64, k.n)
	for a := 0; a < k.n; a++ {
		inv, ok := invert3(k.block(int32(a), int32(a)))
		if !ok && (fixed == nil || !fixed[a]) {
			return nil, fmt.Errorf("deform: SolveStatic: vertex %d's diagonal block is singular (a vertex in no tetrahedron?)", a)
		}
		pre[a] = inv
	}
	u := make([]float64, n)
	r := make([]float64, n)
	z := make([]float64, n)
	p := make([]float64, n)
	q := make([]float64, n)
	fn := 0.0
	for i := range f {
		if free(i) {
			r[i] = f[i]
			fn += f[i] * f[i]
		}
	}
	fn = math.Sqrt(fn)
	if fn == 0 {
		return u, nil
	}
	apply := func(src, dst []float64) {
		for a := 0; a < k.n; a++ {
			m := &pre[a]
			s0, s1, s2 := src[3*a], src[3*a+1], src[3*a+2]
			dst[3*a], dst[3*a+1], dst[3*a+2] = m[0]*s0+m[1]*s1+m[2]*s2, m[3]*s0+m[4]*s1+m[5]*s2, m[6]*s0+m[7]*s1+m[8]*s2
		}
		for i := range dst {
			if !free(i) {
				dst[i] = 0
			}
		}
	}
	apply(r, z)
	copy(p, z)
	rz := dot(r, z)
	for it := 0; it < maxIter; it++ {
		k.MulVec(p, q)
		for i := range q {
			if !free(i) {
				q[i] = 0
			}
		}
		pq := dot(p, q)
		if !(pq > 0) {
			return nil, fmt.Errorf("deform: SolveStatic: K is not positive definite on the free vertices (hold more of them)")
		}
		alpha := rz / pq
		for i := range u {
			u[i] += alpha * p[i]
			r[i] -= alpha * q[i]
		}
		if math.Sqrt(dot(r, r)) <= tol*fn {
			return u, nil
		}
		apply(r, z)
		rzNew := dot(r, z)
		beta := rzNew / rz
		rz = rzNew
		for i := range p {
			p[i] = z[i] + beta*p[i]
		}
	}
	return nil, fmt.Errorf("deform: SolveStatic: no convergence to %g in %d iterations", tol, maxIter)
}

// dot returns xᵀy.
func dot(x, y []float64) float64 {
	s := 0.0
	for i, v := range x {
		s += v * y[i]
	}
	return s
}

// invert3 inverts a row-major 3×3 matrix by cofactors; ok is false when it is singular.
func invert3(m *[9]float64) (inv [9]float64, ok bool) {
	c00 := m[4]*m[8] - m[5]*m[7]
	c01 := m[5]*m[6] - m[3]*m[8]
	c02 := m[3]*m[7] - m[4]*m[6]
	det := m[0]*c00 + m[1]*c01 + m[2]*c02
	if !(math.Abs(det) > 0) || math.IsInf(det, 0) {
		return inv, false
	}
	d := 1 / det
	inv = [9]float64{
		c00 * d, (m[2]*m[7] - m[1]*m[8]) * d, (m[1]*m[5] - m[2]*m[4]) * d,
		c01 * d, (m[0]*m[8] - m[2]*m[6]) * d, (m[2]*m[3] - m[0]*m[5]) * d,
		c02 * d, (m[1]*m[6] - m[0]*m[7]) * d, (m[0]*m[4] - m[1]*m[3]) * d,
	}
	return inv, true
}
