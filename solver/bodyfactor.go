package solver

import (
	"fmt"
	"math"
	"slices"
)

// bodyFactor is a block-sparse Cholesky factor L Lᵀ = P K Pᵀ of a symmetric positive definite
// matrix K whose DoFs are grouped into body blocks, such as K = M + JᵀDJ of an island (M block
// diagonal, each row of J touching one or two bodies, D positive diagonal).
//
// P orders the blocks by minimum degree on the block graph. Consecutive block columns of L with
// nested patterns form a supernode, stored as one dense row-major panel as wide as its DoFs: its
// own rows (a square whose lower triangle holds L), then the rows of the blocks of its pattern in
// elimination order. Wide panels let the factor spend its time in dense products.
//
// Use: analyse once per pattern; then per matrix zero, addDiagonal and addRow, factor, and solve
// as often as needed. The zero value is ready for analyse. Buffers are reused: the numeric calls
// never allocate, and analyse only when a buffer must outgrow its largest size so far (blocks,
// DoFs, pairs, fill, the elimination graph's peak), so never when repeating a pattern.
type bodyFactor struct {
	nb, n int
	size  []int // DoFs of each block, original order
	off   []int // DoF offset of each block in x, original order; len nb+1

	perm  []int32 // perm[k]: the block eliminated k-th
	iperm []int32 // iperm[a]: the elimination position of block a

	// Per block column k: DoFs, offset in x, offset in the permuted layout y (len nb+1), its
	// supernode, and its first column (and own row) within that supernode's panel.
	bsize, bx, by, bsn, bcol []int32

	// Per supernode s: blocks first[s] to first[s+1]−1, of width by[first[s+1]]−by[first[s]].
	// Its pattern is spat[pstart[s]:pstart[s+1]] (increasing, all after the supernode), prow
	// the panel row of each pattern block, rows the panel's rows, and val[vstart[s]:vstart[s+1]]
	// the panel.
	nsn                 int
	first, pstart, rows []int32
	spat, prow          []int32
	vstart              []int
	val                 []float64
	invDiag             []float64 // 1/L_pp in the permuted layout, after a successful factor
	fillBlocks          int

	// factor scratch: supernodes waiting to update supernode j form the list head[j], next[…];
	// at[k] is the pattern index of supernode k's next target; pos[i] is block i's panel row
	// in the supernode being computed; upd holds one update.
	head, next, at, pos []int32
	upd                 []float64
	y                   []float64 // solve scratch, permuted layout

	pat, patStart []int32 // the pattern of each block column, from the ordering
	ord           bodyOrdering

	madds int
}

// bodyChunk is the column chunk of the dense panel factor: most of its work is then products
// of chunk-wide blocks.
const bodyChunk = 8

// analyse prepares the pattern: nb = len(size) diagonal blocks of sizes size[i] ≥ 0 (DoF offsets
// are prefix sums of size) and an off-diagonal block (a, b) that may be nonzero for each pair
// pairs[2j], pairs[2j+1] (a ≠ b, either order, repeats allowed). It orders the blocks by minimum
// degree (ties to the lowest block index, so the order is deterministic), computes the block
// pattern of L and its supernodes, and sizes the numeric storage. Values are zero after it.
func (f *bodyFactor) analyse(size []int, pairs []int) {
	nb := len(size)
	if len(pairs)%2 != 0 {
		panic("bodyFactor.analyse: odd number of pair entries")
	}
	f.nb = nb
	f.size = grow(f.size, nb)
	f.off = grow(f.off, nb+1)
	n := 0
	for i, s := range size {
		if s < 0 {
			panic(fmt.Sprintf("bodyFactor.analyse: block %d has size %d", i, s))
		}
		f.size[i] = s
		f.off[i] = n
		n += s
	}
	f.off[nb] = n
	f.n = n
	for _, a := range pairs {
		if a < 0 || a >= nb {
			panic(fmt.Sprintf("bodyFactor.analyse: pair block %d out of range [0, %d)", a, nb))
		}
	}

	f.perm = grow(f.perm, nb)
	f.iperm = grow(f.iperm, nb)
	f.patStart = grow(f.patStart, nb+1)
	f.pat = f.ord.order(nb, pairs, f.perm, f.iperm, f.patStart, f.pat[:0])
	f.fillBlocks = len(f.pat)
	for t, a := range f.pat {
		f.pat[t] = f.iperm[a]
	}

	f.bsize = grow(f.bsize, nb)
	f.bx = grow(f.bx, nb)
	f.by = grow(f.by, nb+1)
	f.bsn = grow(f.bsn, nb)
	f.bcol = grow(f.bcol, nb)
	f.first = grow(f.first, nb+1)
	y := int32(0)
	for k := range nb {
		a := f.perm[k]
		f.bsize[k] = int32(f.size[a])
		f.bx[k] = int32(f.off[a])
		f.by[k] = y
		y += f.bsize[k]
		slices.Sort(f.pat[f.patStart[k]:f.patStart[k+1]])
	}
	f.by[nb] = y

	// Block k joins the supernode of k−1 when pattern(k−1) = {k} ∪ pattern(k).
	ns := 0
	for k := range nb {
		p0, p1 := f.patStart[k-min(k, 1)], f.patStart[k]
		if k == 0 || p0 == p1 || f.pat[p0] != int32(k) || p1-p0 != f.patStart[k+1]-p1+1 {
			f.first[ns] = int32(k)
			ns++
		}
		f.bsn[k] = int32(ns - 1)
		f.bcol[k] = f.by[k] - f.by[f.first[ns-1]]
	}
	f.first[ns] = int32(nb)
	f.nsn = ns

	// Supernode patterns: that of each supernode's last block.
	f.pstart = grow(f.pstart, ns+1)
	f.rows = grow(f.rows, ns)
	f.vstart = grow(f.vstart, ns+1)
	np := 0
	for s := range ns {
		last := f.first[s+1] - 1
		np += int(f.patStart[last+1] - f.patStart[last])
	}
	f.spat = grow(f.spat, np)
	f.prow = grow(f.prow, np)
	np = 0
	total, maxW, maxUpd := 0, 0, 0
	for s := range ns {
		last := f.first[s+1] - 1
		w := f.by[last+1] - f.by[f.first[s]]
		f.pstart[s] = int32(np)
		r := w
		for _, i := range f.pat[f.patStart[last]:f.patStart[last+1]] {
			f.spat[np] = i
			f.prow[np] = r
			r += f.bsize[i]
			np++
		}
		f.rows[s] = r
		f.vstart[s] = total
		total += int(r) * int(w)
		maxW = max(maxW, int(w))
	}
	f.pstart[ns] = int32(np)
	f.vstart[ns] = total
	for s := range ns {
		below := int(f.rows[s]) - (int(f.by[f.first[s+1]]) - int(f.by[f.first[s]]))
		maxUpd = max(maxUpd, below*min(below, maxW))
	}

	f.val = grow(f.val, total)
	f.invDiag = grow(f.invDiag, n)
	f.y = grow(f.y, n)
	f.upd = grow(f.upd, maxUpd)
	f.head = grow(f.head, ns)
	f.next = grow(f.next, ns)
	f.at = grow(f.at, ns)
	f.pos = grow(f.pos, nb)
	f.zero()
}

// zero clears the numeric values, keeping the pattern of the last analyse.
func (f *bodyFactor) zero() {
	clear(f.val)
	f.madds = 0
}

// width returns the DoFs of supernode s.
func (f *bodyFactor) width(s int32) int {
	return int(f.by[f.first[s+1]] - f.by[f.first[s]])
}

// diagBlock returns where block column k's diagonal block starts in val, and the panel width.
func (f *bodyFactor) diagBlock(k int32) (int, int) {
	s := f.bsn[k]
	w := f.width(s)
	return f.vstart[s] + int(f.bcol[k])*(w+1), w
}

// addDiagonal adds the size[a]×size[a] row-major symmetric matrix m to diagonal block a (only its
// lower triangle is used). It must come between zero and factor.
func (f *bodyFactor) addDiagonal(a int, m []float64) {
	k := f.iperm[a]
	s := int(f.bsize[k])
	base, w := f.diagBlock(k)
	m = m[:s*s]
	for r := range s {
		row := f.val[base+r*w : base+r*w+s]
		for c, v := range m[r*s : r*s+s] {
			row[c] += v
		}
	}
}

// addRow adds d·r·rᵀ for the sparse row r that is x on block a's DoFs and y on block b's
// (len(x) = size[a], len(y) = size[b]). Either block may be −1 for none, and its slice is then
// ignored; a = b adds the row x + y on that block. When a ≠ b are both ≥ 0, (a, b) must be a pair
// given to analyse. It must come between zero and factor.
func (f *bodyFactor) addRow(a int, x []float64, b int, y []float64, d float64) {
	switch {
	case a < 0 && b < 0:
		return
	case b < 0:
		f.addOuterDiag(a, x, nil, d)
		return
	case a < 0:
		f.addOuterDiag(b, y, nil, d)
		return
	case a == b:
		f.addOuterDiag(a, x, y, d)
		return
	}
	f.addOuterDiag(a, x, nil, d)
	f.addOuterDiag(b, y, nil, d)
	ka, kb := f.iperm[a], f.iperm[b]
	if ka < kb { // the block lies in column kb's supernode, in block ka's rows
		ka, kb = kb, ka
		x, y = y, x
	}
	s := f.bsn[kb]
	var row int32
	if f.bsn[ka] == s {
		row = f.bcol[ka]
	} else {
		p := f.spat[f.pstart[s]:f.pstart[s+1]]
		t, found := slices.BinarySearch(p, ka)
		if !found {
			panic(fmt.Sprintf("bodyFactor.addRow: blocks (%d, %d) are not a pair given to analyse", a, b))
		}
		row = f.prow[int(f.pstart[s])+t]
	}
	w := f.width(s)
	base := f.vstart[s] + int(row)*w + int(f.bcol[kb])
	x, y = x[:f.bsize[ka]], y[:f.bsize[kb]]
	for r, xr := range x {
		dst := f.val[base+r*w : base+r*w+len(y)]
		xr *= d
		for c, yc := range y {
			dst[c] += xr * yc
		}
	}
}

// addOuterDiag adds d·(x+y)(x+y)ᵀ (y nil for zero) to diagonal block a.
func (f *bodyFactor) addOuterDiag(a int, x, y []float64, d float64) {
	k := f.iperm[a]
	s := int(f.bsize[k])
	base, w := f.diagBlock(k)
	x = x[:s]
	for r := range s {
		xr := x[r]
		if y != nil {
			xr += y[r]
		}
		xr *= d
		dst := f.val[base+r*w : base+r*w+s]
		if y == nil {
			for c, xc := range x {
				dst[c] += xr * xc
			}
			continue
		}
		y := y[:s]
		for c, xc := range x {
			dst[c] += xr * (xc + y[c])
		}
	}
}

// factor computes L in place, left-looking by supernodes. It returns false if K is not
// numerically positive definite (a pivot ≤ 0 or not finite); the values are then unusable until
// zero.
func (f *bodyFactor) factor() bool {
	head, next, at, pos := f.head, f.next, f.at, f.pos
	for j := range head {
		head[j] = -1
	}
	madds := 0
	for j := range int32(f.nsn) {
		j0, j1 := f.first[j], f.first[j+1]
		wj := f.width(j)
		for k := j0; k < j1; k++ {
			pos[k] = f.bcol[k]
		}
		pj0, pj1 := f.pstart[j], f.pstart[j+1]
		for t := pj0; t < pj1; t++ {
			pos[f.spat[t]] = f.prow[t]
		}
		panel := f.val[f.vstart[j]:f.vstart[j+1]]

		// Subtract the updates of the supernodes whose patterns reach j.
		for k := head[j]; k >= 0; {
			nk := next[k]
			wk := f.width(k)
			t1, end := at[k], f.pstart[k+1]
			t2 := t1
			for t2 < end && f.spat[t2] < j1 {
				t2++
			}
			p1 := int(f.prow[t1])
			p2 := int(f.rows[k])
			if t2 < end {
				p2 = int(f.prow[t2])
			}
			m, q := int(f.rows[k])-p1, p2-p1
			// upd = −A·A[:q]ᵀ, A the panel rows of k from p1: its lower trapezoid.
			upd := f.upd[:m*q]
			src := f.val[f.vstart[k]+p1*wk : f.vstart[k+1]]
			madds += bodySubABt(upd, q, src, wk, m, q, wk, true)
			f.scatter(panel, wj, upd, q, t1, t2, end, p1)
			if t2 < end {
				at[k] = t2
				i := f.bsn[f.spat[t2]]
				next[k] = head[i]
				head[i] = k
			}
			k = nk
		}

		inv := f.invDiag[f.by[j0]:f.by[j1]]
		w, ok := bodyPanelFactor(panel, int(f.rows[j]), wj, inv)
		madds += w
		if !ok {
			f.madds = madds
			return false
		}
		if pj0 < pj1 {
			at[j] = pj0
			i := f.bsn[f.spat[pj0]]
			next[j] = head[i]
			head[i] = j
		}
	}
	f.madds = madds
	return true
}

// scatter adds the lower trapezoid of upd, the update from a supernode's panel rows of its pattern
// entries t1… (from its row p1) to the columns of its entries t1 to t2−1, to the panel of width w
// being computed, whose rows for each block pos holds.
func (f *bodyFactor) scatter(panel []float64, w int, upd []float64, q int, t1, t2, end int32, p1 int) {
	// Columns are contiguous when the blocks of t1 to t2−1 are consecutive.
	c0 := int(f.bcol[f.spat[t1]])
	contiguous := f.spat[t2-1]-f.spat[t1] == t2-1-t1
	for t := t1; t < end; t++ {
		i := f.spat[t]
		base := int(f.pos[i])
		ur := int(f.prow[t]) - p1
		for r := range int(f.bsize[i]) {
			n := q // columns of this row of upd in its lower trapezoid
			if t < t2 {
				n = ur + r + 1
			}
			src := upd[(ur+r)*q : (ur+r)*q+n]
			if contiguous {
				dst := panel[(base+r)*w+c0 : (base+r)*w+c0+n]
				for c, v := range src {
					dst[c] += v
				}
				continue
			}
			for u := t1; u < t2 && int(f.prow[u])-p1 < n; u++ {
				cb := f.spat[u]
				dc := (base+r)*w + int(f.bcol[cb])
				uc := int(f.prow[u]) - p1
				sz := min(int(f.bsize[cb]), n-uc)
				dst := panel[dc : dc+sz]
				for c, v := range src[uc : uc+sz] {
					dst[c] += v
				}
			}
		}
	}
}

// bodyPanelFactor factors a supernode panel of the given rows and width w (row-major) in place:
// the Cholesky factor of its top w×w square (lower triangle) and, below, the rows times its
// inverse transpose. It stores the reciprocal pivots in inv and returns the multiply–adds and
// whether every pivot was positive and finite.
func bodyPanelFactor(panel []float64, rows, w int, inv []float64) (int, bool) {
	madds := 0
	for c0 := 0; c0 < w; c0 += bodyChunk {
		c1 := min(w, c0+bodyChunk)
		if c0 > 0 {
			madds += bodySubABt(panel[c0*w+c0:], w, panel[c0*w:], w, rows-c0, c1-c0, c0, false)
		}
		for r := c0; r < c1; r++ {
			row := panel[r*w+c0 : r*w+r+1]
			for q := range row[:len(row)-1] {
				lq := panel[(c0+q)*w+c0 : (c0+q)*w+c0+q]
				row[q] = (row[q] - bodyDot(row[:q], lq)) * inv[c0+q]
			}
			q := len(row) - 1
			v := row[q] - bodyDot(row[:q], row[:q])
			if !(v > 0) || math.IsInf(v, 1) {
				return madds, false
			}
			v = math.Sqrt(v)
			row[q] = v
			inv[r] = 1 / v
			madds += q * (q + 1) / 2
		}
		// The rows below, two at a time: row·L_chunk⁻ᵀ.
		nc := c1 - c0
		r := c1
		for ; r+1 < rows; r += 2 {
			row0 := panel[r*w+c0 : r*w+c1]
			row1 := panel[(r+1)*w+c0 : (r+1)*w+c1]
			for q := range row0 {
				s0, s1 := bodyDot2(panel[(c0+q)*w+c0:(c0+q)*w+c0+q], row0, row1)
				row0[q] = (row0[q] - s0) * inv[c0+q]
				row1[q] = (row1[q] - s1) * inv[c0+q]
			}
		}
		if r < rows {
			row := panel[r*w+c0 : r*w+c1]
			for q := range row {
				row[q] = (row[q] - bodyDot(row[:q], panel[(c0+q)*w+c0:])) * inv[c0+q]
			}
		}
		madds += (rows - c1) * nc * (nc - 1) / 2
	}
	return madds, true
}

// bodySubABt subtracts from dst (m×q, row stride ldd; q ≤ m) the product A·A[:q]ᵀ, A m×k
// with row stride lda, or stores its negative if store, on the lower trapezoid: entries (r, c)
// with c ≤ r, and some with c = r+1. It returns the multiply–adds.
func bodySubABt(dst []float64, ldd int, a []float64, lda, m, q, k int, store bool) int {
	if k == 0 {
		if store {
			for r := range m {
				clear(dst[r*ldd : r*ldd+min(q, r+1)])
			}
		}
		return 0
	}
	madds := 0
	r := 0
	for ; r+1 < m; r += 2 {
		a0 := a[r*lda : r*lda+k]
		a1 := a[(r+1)*lda : (r+1)*lda+k]
		cEnd := min(q, r+2)
		d0 := dst[r*ldd : r*ldd+cEnd]
		d1 := dst[(r+1)*ldd : (r+1)*ldd+cEnd]
		c := 0
		for ; c+1 < cEnd; c += 2 {
			s00, s01, s10, s11 := bodyDot22(a0, a1, a[c*lda:c*lda+k], a[(c+1)*lda:(c+1)*lda+k])
			if store {
				d0[c], d0[c+1], d1[c], d1[c+1] = -s00, -s01, -s10, -s11
			} else {
				d0[c] -= s00
				d0[c+1] -= s01
				d1[c] -= s10
				d1[c+1] -= s11
			}
		}
		if c < cEnd {
			s0, s1 := bodyDot2(a[c*lda:c*lda+k], a0, a1)
			if store {
				d0[c], d1[c] = -s0, -s1
			} else {
				d0[c] -= s0
				d1[c] -= s1
			}
		}
		madds += 2 * cEnd * k
	}
	if r < m {
		a0 := a[r*lda : r*lda+k]
		cEnd := min(q, r+1)
		d0 := dst[r*ldd : r*ldd+cEnd]
		c := 0
		for ; c+1 < cEnd; c += 2 {
			s0, s1 := bodyDot2(a0, a[c*lda:c*lda+k], a[(c+1)*lda:(c+1)*lda+k])
			if store {
				d0[c], d0[c+1] = -s0, -s1
			} else {
				d0[c] -= s0
				d0[c+1] -= s1
			}
		}
		if c < cEnd {
			s := bodyDot(a0, a[c*lda:c*lda+k])
			if store {
				d0[c] = -s
			} else {
				d0[c] -= s
			}
		}
		madds += cEnd * k
	}
	return madds
}

// bodyDot returns a·b (len(b) ≥ len(a)).
func bodyDot(a, b []float64) float64 {
	b = b[:len(a)]
	s := 0.0
	for i, x := range a {
		s += x * b[i]
	}
	return s
}

// bodyDot2 returns a·b0 and a·b1 (len(b0), len(b1) ≥ len(a)), loading a once.
func bodyDot2(a, b0, b1 []float64) (float64, float64) {
	b0 = b0[:len(a)]
	b1 = b1[:len(a)]
	s0, s1 := 0.0, 0.0
	for i, x := range a {
		s0 += x * b0[i]
		s1 += x * b1[i]
	}
	return s0, s1
}

// bodyDot22 returns a0·b0, a0·b1, a1·b0 and a1·b1 (all at least as long as a0).
func bodyDot22(a0, a1, b0, b1 []float64) (float64, float64, float64, float64) {
	a1 = a1[:len(a0)]
	b0 = b0[:len(a0)]
	b1 = b1[:len(a0)]
	var s00, s01, s10, s11 float64
	for i, x0 := range a0 {
		x1, y0, y1 := a1[i], b0[i], b1[i]
		s00 += x0 * y0
		s01 += x0 * y1
		s10 += x1 * y0
		s11 += x1 * y1
	}
	return s00, s01, s10, s11
}

// solve overwrites x (length n, original DoF layout) with K⁻¹x. It needs a successful factor.
func (f *bodyFactor) solve(x []float64) {
	x = x[:f.n]
	y := f.y
	for k := range f.nb {
		copy(y[f.by[k]:f.by[k+1]], x[f.bx[k]:])
	}
	// L z = P x.
	for s := range int32(f.nsn) {
		w := f.width(s)
		panel := f.val[f.vstart[s]:f.vstart[s+1]]
		y0 := int(f.by[f.first[s]])
		ys := y[y0 : y0+w]
		inv := f.invDiag[y0 : y0+w]
		for p := range ys {
			ys[p] = (ys[p] - bodyDot(panel[p*w:p*w+p], ys)) * inv[p]
		}
		for t := f.pstart[s]; t < f.pstart[s+1]; t++ {
			i := f.spat[t]
			yi := y[f.by[i]:f.by[i+1]]
			r0 := int(f.prow[t]) * w
			r := 0
			for ; r+1 < len(yi); r += 2 {
				s0, s1 := bodyDot2(ys, panel[r0+r*w:r0+r*w+w], panel[r0+r*w+w:r0+r*w+2*w])
				yi[r] -= s0
				yi[r+1] -= s1
			}
			if r < len(yi) {
				yi[r] -= bodyDot(ys, panel[r0+r*w:r0+r*w+w])
			}
		}
	}
	// Lᵀ y = z.
	for s := int32(f.nsn) - 1; s >= 0; s-- {
		w := f.width(s)
		panel := f.val[f.vstart[s]:f.vstart[s+1]]
		y0 := int(f.by[f.first[s]])
		ys := y[y0 : y0+w]
		inv := f.invDiag[y0 : y0+w]
		for t := f.pstart[s]; t < f.pstart[s+1]; t++ {
			i := f.spat[t]
			yi := y[f.by[i]:f.by[i+1]]
			r0 := int(f.prow[t]) * w
			r := 0
			for ; r+1 < len(yi); r += 2 {
				v0, v1 := yi[r], yi[r+1]
				l0 := panel[r0+r*w : r0+r*w+w]
				l1 := panel[r0+r*w+w : r0+r*w+2*w]
				ys := ys[:len(l0)]
				for c, l := range l0 {
					ys[c] -= l*v0 + l1[c]*v1
				}
			}
			if r < len(yi) {
				v := yi[r]
				l0 := panel[r0+r*w : r0+r*w+w]
				ys := ys[:len(l0)]
				for c, l := range l0 {
					ys[c] -= l * v
				}
			}
		}
		for p := w - 1; p >= 0; p-- {
			v := ys[p] * inv[p]
			ys[p] = v
			for q, l := range panel[p*w : p*w+p] {
				ys[q] -= l * v
			}
		}
	}
	for k := range f.nb {
		copy(x[f.bx[k]:f.bx[k]+f.bsize[k]], y[f.by[k]:f.by[k+1]])
	}
}

// work returns the multiply–adds of the last factor (zero after zero), a deterministic measure of
// its cost.
func (f *bodyFactor) work() int { return f.madds }

// fill returns the number of off-diagonal blocks of L that may be nonzero.
func (f *bodyFactor) fill() int { return f.fillBlocks }
