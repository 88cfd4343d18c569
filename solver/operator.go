package solver

import "math"

// operator is the compiled, matrix-free form of a Problem used by every solver: for each contact
// side the Jacobian rows J (n, t₁, t₂ restricted to the body block) and W = M⁻¹Jᵀ, and each
// contact's 3×3 Delassus diagonal block G_k = Σ_sides J M⁻¹ Jᵀ. A velocity v = q̇ᴾ + M⁻¹Σ_k J_kᵀλ_k
// is maintained by adding W columns, so applying the Delassus operator costs O(contacts × block
// size) and contacts interact only through shared bodies.
type operator struct {
	m, ndof int
	sides   []sideRef // 2 per contact: A then B
	rows    []float64 // the Problem's rows (shared, not copied)
	w       []float64 // M⁻¹Jᵀ rows, same layout as rows
	g       []float64 // 6 per contact: nn, n1, n2, 11, 12, 22
	bEff    []float64 // b_k + e_k n_kᵀq̇ᵗ (paper footnote 4)
	bT      []float64 // 2 per contact: Contact.BT, the tangential velocity no block carries
	mu      []float64
	qdotP   []float64
	// scale is the problem's velocity scale max(1, max_k |n_kᵀq̇ᴾ + b_k|, max_k ‖BT_k‖∞) (b_k with
	// restitution).
	scale float64
	// The nonzero entries of M⁻¹, row by row: row i (a DoF) holds the block-local columns
	// nzCol[nzStart[i]:nzStart[i+1]] with values nzVal. A rigid body's block does not couple its
	// linear and angular parts, so W = M⁻¹Jᵀ skips two thirds of a dense product.
	nzStart []int
	nzCol   []int
	nzVal   []float64
	// rigid marks the blocks whose M⁻¹ has a rigid body's pattern (see isRigidPattern), for
	// which compile uses an unrolled product.
	rigid []bool
	// allRigid: every block is a rigid body's (no reduced deformable in the island).
	allRigid bool
	// nBlocks is the Problem's number of body blocks (sideRef.body indexes them); bodies and minv
	// are the Problem's blocks and inverse-mass entries (shared, not copied).
	nBlocks int
	bodies  []Block
	minv    []float64
	// blocks are the Delassus matrix's off-diagonal 3×3 blocks, gathered on demand by the
	// incomplete Cholesky factors and kept for the rest of the solve.
	blocks delassusCoupling
	// dense is the whole Delassus matrix of a small island, built on demand (dense_delassus.go).
	dense smallDelassus
}

type sideRef struct {
	off, size, row int // velocity offset, block size, start of the 3×size rows; off < 0: none
	body           int // the side's block index (−1: none)
}

// compile builds the operator for p, reusing capacity. p must have been validated.
func (o *operator) compile(p *Problem) {
	m := len(p.contacts)
	o.m, o.ndof = m, p.ndof
	o.blocks.invalidate()
	o.dense.invalidate()
	o.sides = grow(o.sides, 2*m)
	o.rows = p.rows
	o.w = grow(o.w, len(p.rows))
	o.g = grow(o.g, 6*m)
	o.bEff = grow(o.bEff, m)
	o.bT = grow(o.bT, 2*m)
	o.mu = grow(o.mu, m)
	o.qdotP = p.QdotP
	o.scale = 1
	o.compileInvMass(p)
	for k := range p.contacts {
		c := &p.contacts[k]
		o.mu[k] = c.Mu
		o.bT[2*k], o.bT[2*k+1] = c.BT[0], c.BT[1]
		// A kinematic side's tangential speed sets the size of the slip the friction tolerances
		// are measured against, as its normal speed does through b.
		o.scale = max(o.scale, math.Abs(c.BT[0]), math.Abs(c.BT[1]))
		var g [6]float64
		bEff, nq := c.B, 0.0
		for s := 0; s < 2; s++ {
			body, row := c.side(s)
			if body < 0 {
				o.sides[2*k+s] = sideRef{off: -1, body: -1}
				continue
			}
			bl := p.blocks[body]
			n := bl.Size
			o.sides[2*k+s] = sideRef{off: bl.Offset, size: n, row: row, body: body}
			jn := p.rows[row : row+n]
			j1 := p.rows[row+n : row+2*n]
			j2 := p.rows[row+2*n : row+3*n]
			wn := o.w[row : row+n]
			w1 := o.w[row+n : row+2*n]
			w2 := o.w[row+2*n : row+3*n]
			if o.rigid[body] {
				nq += dot6(block6(p.rows, row), block6(p.QdotP, bl.Offset))
				o.compileRigidSide((*[rigidSize * rigidSize]float64)(p.minv[bl.minv:bl.minv+rigidSize*rigidSize]), rows6(p.rows, row), rows6(o.w, row), &g)
				if c.E > 0 {
					bEff += c.E * dot(jn, p.QdotT[bl.Offset:bl.Offset+n])
				}
				continue
			}
			for i := range wn {
				a0, a1, a2 := 0.0, 0.0, 0.0
				for q := o.nzStart[bl.Offset+i]; q < o.nzStart[bl.Offset+i+1]; q++ {
					c, v := o.nzCol[q], o.nzVal[q]
					a0 += v * jn[c]
					a1 += v * j1[c]
					a2 += v * j2[c]
				}
				wn[i], w1[i], w2[i] = a0, a1, a2
			}
			g[0] += dot(jn, wn)
			g[1] += dot(jn, w1)
			g[2] += dot(jn, w2)
			g[3] += dot(j1, w1)
			g[4] += dot(j1, w2)
			g[5] += dot(j2, w2)
			nq += dot(jn, p.QdotP[bl.Offset:bl.Offset+n])
			if c.E > 0 {
				bEff += c.E * dot(jn, p.QdotT[bl.Offset:bl.Offset+n])
			}
		}
		copy(o.g[6*k:6*k+6], g[:])
		o.bEff[k] = bEff
		o.scale = max(o.scale, math.Abs(nq+bEff))
	}
}

// compileInvMass marks the rigid inverse-mass blocks of p and lists the nonzero entries of the
// others in nzStart, nzCol and nzVal (a rigid block's rows are empty there), reusing capacity.
func (o *operator) compileInvMass(p *Problem) {
	o.nzStart = grow(o.nzStart, p.ndof+1)
	o.nzCol, o.nzVal = o.nzCol[:0], o.nzVal[:0]
	o.rigid = o.rigid[:0]
	o.allRigid = true
	o.nBlocks = len(p.blocks)
	o.bodies, o.minv = p.blocks, p.minv
	for _, bl := range p.blocks {
		n := bl.Size
		minv := p.minv[bl.minv : bl.minv+n*n]
		rigid := isRigidPattern(minv)
		o.rigid = append(o.rigid, rigid)
		o.allRigid = o.allRigid && rigid
		for i := 0; i < n; i++ {
			o.nzStart[bl.Offset+i] = len(o.nzCol)
			if rigid {
				continue // compileRigidSide reads the block directly
			}
			for c, v := range minv[i*n : (i+1)*n] {
				if v != 0 {
					o.nzCol = append(o.nzCol, c)
					o.nzVal = append(o.nzVal, v)
				}
			}
		}
	}
	o.nzStart[p.ndof] = len(o.nzCol)
}

// isRigidPattern reports whether minv is a 6×6 block with a rigid body's pattern: diagonal in its
// first three rows and columns (the linear part), so that only its diagonal there and its lower
// right 3×3 block (the angular part) can be nonzero.
func isRigidPattern(minv []float64) bool {
	if len(minv) != rigidSize*rigidSize {
		return false
	}
	m := (*[rigidSize * rigidSize]float64)(minv)
	// Rows 0–2 off their diagonal, then columns 0–2 of rows 3–5.
	return m[1] == 0 && m[2] == 0 && m[3] == 0 && m[4] == 0 && m[5] == 0 &&
		m[6] == 0 && m[8] == 0 && m[9] == 0 && m[10] == 0 && m[11] == 0 &&
		m[12] == 0 && m[13] == 0 && m[15] == 0 && m[16] == 0 && m[17] == 0 &&
		m[18] == 0 && m[19] == 0 && m[20] == 0 &&
		m[24] == 0 && m[25] == 0 && m[26] == 0 &&
		m[30] == 0 && m[31] == 0 && m[32] == 0
}

// compileRigidSide writes W = M⁻¹Jᵀ for the three rows of one rigid side (rows and w are the
// side's 3×6 rows, m its inverse-mass block) and adds the side's part of the Delassus diagonal
// block to g. It skips the zeros isRigidPattern guarantees and sums in the order of the general path.
func (o *operator) compileRigidSide(m *[rigidSize * rigidSize]float64, rows, w *[RowsPerSide * rigidSize]float64, g *[6]float64) {
	for r := 0; r < RowsPerSide; r++ {
		j := (*[rigidSize]float64)(rows[r*rigidSize:])
		x := (*[rigidSize]float64)(w[r*rigidSize:])
		x[0] = m[0] * j[0]
		x[1] = m[7] * j[1]
		x[2] = m[14] * j[2]
		x[3] = m[21]*j[3] + m[22]*j[4] + m[23]*j[5]
		x[4] = m[27]*j[3] + m[28]*j[4] + m[29]*j[5]
		x[5] = m[33]*j[3] + m[34]*j[4] + m[35]*j[5]
	}
	jn := (*[rigidSize]float64)(rows[:])
	j1 := (*[rigidSize]float64)(rows[rigidSize:])
	j2 := (*[rigidSize]float64)(rows[2*rigidSize:])
	wn := (*[rigidSize]float64)(w[:])
	w1 := (*[rigidSize]float64)(w[rigidSize:])
	w2 := (*[rigidSize]float64)(w[2*rigidSize:])
	g[0] += dot6(jn, wn)
	g[1] += dot6(jn, w1)
	g[2] += dot6(jn, w2)
	g[3] += dot6(j1, w1)
	g[4] += dot6(j1, w2)
	g[5] += dot6(j2, w2)
}

// rowDot returns row r (0 normal, 1 and 2 tangents) of contact k applied to v.
func (o *operator) rowDot(k, r int, v []float64) float64 {
	s := 0.0
	for i := 2 * k; i < 2*k+2; i++ {
		sd := o.sides[i]
		if sd.off < 0 {
			continue
		}
		n := sd.size
		if n == rigidSize {
			s += dot6(block6(o.rows, sd.row+r*rigidSize), block6(v, sd.off))
			continue
		}
		s += dot(o.rows[sd.row+r*n:sd.row+(r+1)*n], v[sd.off:sd.off+n])
	}
	return s
}

// rowsDot returns contact k's three rows (normal, then both tangents) applied to v: rowDot's and
// tangentDot's figures to the bit, reading each side's block of v once.
func (o *operator) rowsDot(k int, v []float64) (float64, float64, float64) {
	s0, s1, s2 := 0.0, 0.0, 0.0
	for i := 2 * k; i < 2*k+2; i++ {
		sd := o.sides[i]
		if sd.off < 0 {
			continue
		}
		n := sd.size
		if n == rigidSize {
			x := block6(v, sd.off)
			r := rows6(o.rows, sd.row)
			s0 += dot6((*[rigidSize]float64)(r[:rigidSize]), x)
			s1 += dot6((*[rigidSize]float64)(r[rigidSize:]), x)
			s2 += dot6((*[rigidSize]float64)(r[2*rigidSize:]), x)
			continue
		}
		s0 += dot(o.rows[sd.row:sd.row+n], v[sd.off:sd.off+n])
		x := v[sd.off : sd.off+n]
		r := o.rows[sd.row+n : sd.row+3*n]
		for j, xj := range x {
			s1 += r[j] * xj
			s2 += r[n+j] * xj
		}
	}
	return s0, s1, s2
}

// slip returns contact k's tangential velocity at the velocity v: its two tangent rows applied to
// v plus the tangential velocity no block carries (Contact.BT). Use it for a velocity; use
// tangentDot for a change of velocity or a direction, where the constant term has no place.
func (o *operator) slip(k int, v []float64) (float64, float64) {
	s1, s2 := o.tangentDot(k, v)
	return s1 + o.bT[2*k], s2 + o.bT[2*k+1]
}

// tangentDot returns contact k's two tangent rows applied to v (linear: no constant term).
func (o *operator) tangentDot(k int, v []float64) (float64, float64) {
	s1, s2 := 0.0, 0.0
	for i := 2 * k; i < 2*k+2; i++ {
		sd := o.sides[i]
		if sd.off < 0 {
			continue
		}
		n := sd.size
		if n == rigidSize {
			x := block6(v, sd.off)
			r := rows6(o.rows, sd.row)
			s1 += dot6((*[rigidSize]float64)(r[rigidSize:]), x)
			s2 += dot6((*[rigidSize]float64)(r[2*rigidSize:]), x)
			continue
		}
		x := v[sd.off : sd.off+n]
		r := o.rows[sd.row+n : sd.row+3*n]
		for j, xj := range x {
			s1 += r[j] * xj
			s2 += r[n+j] * xj
		}
	}
	return s1, s2
}

// addW adds a·M⁻¹(row r of contact k)ᵀ to v.
func (o *operator) addW(k, r int, a float64, v []float64) {
	if a == 0 {
		return
	}
	for i := 2 * k; i < 2*k+2; i++ {
		sd := o.sides[i]
		if sd.off < 0 {
			continue
		}
		n := sd.size
		if n == rigidSize {
			axpy6(a, block6(o.w, sd.row+r*rigidSize), block6(v, sd.off))
			continue
		}
		axpy(a, o.w[sd.row+r*n:sd.row+(r+1)*n], v[sd.off:sd.off+n])
	}
}

// addW3 adds a₀·M⁻¹(normal row)ᵀ and then M⁻¹(a₁ t₁ + a₂ t₂) of contact k to v: addW(k, 0, a₀)
// followed by addWT(k, a₁, a₂) to the bit, one side's block at a time (the sides are different
// bodies' blocks).
func (o *operator) addW3(k int, a0, a1, a2 float64, v []float64) {
	for i := 2 * k; i < 2*k+2; i++ {
		sd := o.sides[i]
		if sd.off < 0 {
			continue
		}
		n := sd.size
		if n == rigidSize {
			x := block6(v, sd.off)
			if a0 != 0 {
				axpy6(a0, block6(o.w, sd.row), x)
			}
			if a1 != 0 || a2 != 0 {
				combine6(0, a1, a2, rows6(o.w, sd.row), x)
			}
			continue
		}
		y := v[sd.off : sd.off+n]
		if a0 != 0 {
			axpy(a0, o.w[sd.row:sd.row+n], y)
		}
		if a1 != 0 || a2 != 0 {
			r := o.w[sd.row+n : sd.row+3*n]
			for j := range y {
				y[j] += a1*r[j] + a2*r[n+j]
			}
		}
	}
}

// addWT adds M⁻¹(a₁ t₁ + a₂ t₂) of contact k to v.
func (o *operator) addWT(k int, a1, a2 float64, v []float64) { o.addTangents(o.w, k, a1, a2, v) }

// addJT adds the impulse (a₁ t₁ + a₂ t₂) of contact k (not multiplied by M⁻¹) to x.
func (o *operator) addJT(k int, a1, a2 float64, x []float64) { o.addTangents(o.rows, k, a1, a2, x) }

// addTangents adds a₁ and a₂ times contact k's two tangent rows of src (o.rows or o.w, which share
// a layout) to x.
func (o *operator) addTangents(src []float64, k int, a1, a2 float64, x []float64) {
	if a1 == 0 && a2 == 0 {
		return
	}
	for i := 2 * k; i < 2*k+2; i++ {
		sd := o.sides[i]
		if sd.off < 0 {
			continue
		}
		n := sd.size
		if n == rigidSize {
			combine6(0, a1, a2, rows6(src, sd.row), block6(x, sd.off))
			continue
		}
		y := x[sd.off : sd.off+n]
		r := src[sd.row+n : sd.row+3*n]
		for j := range y {
			y[j] += a1*r[j] + a2*r[n+j]
		}
	}
}

// velocity sets v = q̇ᴾ + M⁻¹(Nα + Σ_k t-rows f_k); alpha or f may be nil for zero.
func (o *operator) velocity(alpha, f, v []float64) {
	copy(v, o.qdotP)
	for k := 0; k < o.m; k++ {
		a, f1, f2 := 0.0, 0.0, 0.0
		if alpha != nil {
			a = alpha[k]
		}
		if f != nil {
			f1, f2 = f[2*k], f[2*k+1]
		}
		if a == 0 && f1 == 0 && f2 == 0 {
			continue
		}
		for i := 2 * k; i < 2*k+2; i++ {
			sd := o.sides[i]
			if sd.off < 0 {
				continue
			}
			n := sd.size
			if n == rigidSize {
				combine6(a, f1, f2, rows6(o.w, sd.row), block6(v, sd.off))
				continue
			}
			x := v[sd.off : sd.off+n]
			w := o.w[sd.row : sd.row+3*n]
			for j := range x {
				x[j] += a*w[j] + f1*w[n+j] + f2*w[2*n+j]
			}
		}
	}
}

// combine6 adds a, f1 and f2 times the three rows of one rigid side's w to x, unrolled, in the
// order of velocity's general path.
func combine6(a, f1, f2 float64, w *[RowsPerSide * rigidSize]float64, x *[rigidSize]float64) {
	for j := range x {
		x[j] += a*w[j] + f1*w[rigidSize+j] + f2*w[2*rigidSize+j]
	}
}

// rigidSize is a rigid body's block size, for which the operator's kernels are unrolled.
const rigidSize = 6

// block6 returns s[i : i+6] as an array pointer. Slicing with a constant length lets the
// conversion go unchecked, which a slice to the end (s[i:]) does not.
func block6(s []float64, i int) *[rigidSize]float64 {
	return (*[rigidSize]float64)(s[i : i+rigidSize])
}

// rows6 returns the three rows of a rigid side, s[i : i+18], as an array pointer.
func rows6(s []float64, i int) *[RowsPerSide * rigidSize]float64 {
	return (*[RowsPerSide * rigidSize]float64)(s[i : i+RowsPerSide*rigidSize])
}

// dot6 is dot for a rigid body's six DoFs, unrolled, summing in dot's order.
func dot6(a, b *[rigidSize]float64) float64 {
	return a[0]*b[0] + a[1]*b[1] + a[2]*b[2] + a[3]*b[3] + a[4]*b[4] + a[5]*b[5]
}

// axpy6 is axpy for a rigid body's six DoFs, unrolled.
func axpy6(a float64, x, y *[rigidSize]float64) {
	y[0] += a * x[0]
	y[1] += a * x[1]
	y[2] += a * x[2]
	y[3] += a * x[3]
	y[4] += a * x[4]
	y[5] += a * x[5]
}

func dot(a, b []float64) float64 {
	s := 0.0
	b = b[:len(a)]
	for i, x := range a {
		s += x * b[i]
	}
	return s
}

func axpy(a float64, x, y []float64) {
	y = y[:len(x)]
	for i, xi := range x {
		y[i] += a * xi
	}
}

// reserve is grow that allocates room for at least most entries when it must allocate, for
// buffers whose length varies within a solve up to a bound known in advance.
func reserve[T any](s []T, n, most int) []T {
	if cap(s) < n {
		return make([]T, n, max(n, most))
	}
	return s[:n]
}

// grow returns s resliced to length n, reallocated (zeroed) only when its capacity is short, so
// that warm solves reuse their buffers.
func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}
