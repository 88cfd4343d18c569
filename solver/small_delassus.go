package solver

// smallDelassus is a small island's whole Delassus matrix A = J M⁻¹ Jᵀ held densely: 3m × 3m,
// row-major, contact k's normal and tangent rows at 3k, 3k+1, 3k+2. It depends only on the
// operator, so it is built on first use in a solve (by the friction projection's Newton steps,
// friction_newton.go) and kept for the solve's later projections.
type smallDelassus struct {
	built bool
	a     []float64
}

// invalidate forgets the matrix: a new operator.
func (dd *smallDelassus) invalidate() { dd.built = false }

// matrix returns A for op, building it with u (ndof scratch) if needed, and the work the build
// took in passes over the island.
func (dd *smallDelassus) matrix(op *operator, u []float64) ([]float64, int) {
	if dd.built {
		return dd.a, 0
	}
	m := op.m
	n3 := 3 * m
	dd.a = grow(dd.a, n3*n3)
	a := dd.a
	for k := 0; k < m; k++ {
		for r := 0; r < 3; r++ {
			clear(u)
			switch r {
			case 0:
				op.addW(k, 0, 1, u)
			case 1:
				op.addWT(k, 1, 0, u)
			default:
				op.addWT(k, 0, 1, u)
			}
			col := 3*k + r
			for i := 0; i < m; i++ {
				q1, q2 := op.tangentDot(i, u)
				a[(3*i)*n3+col] = op.rowDot(i, 0, u)
				a[(3*i+1)*n3+col] = q1
				a[(3*i+2)*n3+col] = q2
			}
		}
	}
	// The two triangles agree to rounding; factorisations need A exactly symmetric.
	for i := 0; i < n3; i++ {
		for j := i + 1; j < n3; j++ {
			s := 0.5 * (a[i*n3+j] + a[j*n3+i])
			a[i*n3+j], a[j*n3+i] = s, s
		}
	}
	dd.built = true
	return a, 3 * (m + 1)
}
