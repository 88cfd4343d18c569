package solver

// delassusCoupling holds the nonzero 3×3 blocks of the lower triangle of the Delassus matrix
// A = J M⁻¹ Jᵀ, row by contact: contact k's lower neighbours (the contacts l ≤ k that share a
// body with it, k itself included), in increasing order, with their blocks, row-major over
// (n, t₁, t₂) of k against (n, t₁, t₂) of l, summed over the shared bodies.
//
// A row is listed the first time a factor asks for it in a solve, and its entries are computed
// the first time a factor asks for them (the contact projection's normal rows, the friction
// projection's tangent rows). A staggered solve factors a changed active set dozens of times
// (every clip-and-resolve pass, every change of the sticking set); with the rows at hand each
// factorisation after the first only gathers.
type delassusCoupling struct {
	fresh bool // the per-contact state below belongs to the current operator
	// Contact k's row is nbr[rowStart[k] : rowStart[k]+rowLen[k]] with blocks
	// val[9·rowStart[k] : …]; rowLen[k] < 0: not listed yet. have[k]: bit 3r+q set when entry
	// (r, q) of every block of the row is current.
	rowStart, rowLen []int
	have             []uint16
	nbr              []int
	val              []float64
	// Per-body contact lists, keyed by the body's velocity offset:
	// bodyList[bodyStart[off] : bodyStart[off]+bodyCount[off]], each in increasing contact order.
	bodyStart, bodyCount []int
	bodyList             []int
}

// invalidate forgets the rows; the operator has changed (a new Solve).
func (c *delassusCoupling) invalidate() { c.fresh = false }

// entryMask returns the entries (r, q) with lo ≤ r, q < hi.
func entryMask(lo, hi int) uint16 {
	var need uint16
	for r := lo; r < hi; r++ {
		for q := lo; q < hi; q++ {
			need |= 1 << (3*r + q)
		}
	}
	return need
}

// row returns contact k's lower neighbours and their blocks (9 per neighbour), with the entries
// need marks current.
func (c *delassusCoupling) row(o *operator, k int, need uint16) ([]int, []float64) {
	if !c.fresh {
		c.fresh = true
		c.listBodies(o)
		c.rowStart = grow(c.rowStart, o.m)
		c.rowLen = grow(c.rowLen, o.m)
		for i := range c.rowLen {
			c.rowLen[i] = -1
		}
		c.have = grow(c.have, o.m)
		clear(c.have)
		c.nbr, c.val = c.nbr[:0], c.val[:0]
	}
	if c.rowLen[k] < 0 {
		c.list(o, k)
	}
	start, n := c.rowStart[k], c.rowLen[k]
	nbr, val := c.nbr[start:start+n], c.val[9*start:9*(start+n)]
	if missing := need &^ c.have[k]; missing != 0 {
		c.have[k] |= missing
		for e, l := range nbr {
			c.block(o, k, l, missing, (*[9]float64)(val[9*e:9*e+9]))
		}
	}
	return nbr, val
}

// list appends contact k's lower neighbours, the merge of its two bodies' increasing lists up to
// k, with room for their blocks.
func (c *delassusCoupling) list(o *operator, k int) {
	c.rowStart[k] = len(c.nbr)
	a, b := c.bodyContacts(o.sides[2*k].off), c.bodyContacts(o.sides[2*k+1].off)
	for {
		switch {
		case len(a) > 0 && a[0] <= k && (len(b) == 0 || a[0] < b[0]):
			c.nbr = append(c.nbr, a[0])
			a = a[1:]
		case len(b) > 0 && b[0] <= k && (len(a) == 0 || b[0] < a[0]):
			c.nbr = append(c.nbr, b[0])
			b = b[1:]
		case len(a) > 0 && len(b) > 0 && a[0] == b[0] && a[0] <= k: // a contact on both bodies
			c.nbr = append(c.nbr, a[0])
			a, b = a[1:], b[1:]
		default:
			c.rowLen[k] = len(c.nbr) - c.rowStart[k]
			for range c.rowLen[k] {
				c.val = append(c.val, 0, 0, 0, 0, 0, 0, 0, 0, 0)
			}
			return
		}
	}
}

// bodyContacts returns the contacts on the body at velocity offset off (none for off < 0).
func (c *delassusCoupling) bodyContacts(off int) []int {
	if off < 0 {
		return nil
	}
	return c.bodyList[c.bodyStart[off] : c.bodyStart[off]+c.bodyCount[off]]
}

// The entry sets the factors ask for: the normal rows' (contact projection) and the tangent rows'
// (friction projection).
const (
	normalEntries  uint16 = 1 << 0
	tangentEntries uint16 = 1<<4 | 1<<5 | 1<<7 | 1<<8
)

// block sets the entries of b that need marks to those of the Delassus block of contacts k and
// l: Σ over the bodies they share of J_k M⁻¹ J_lᵀ on that body (rows of k against the
// W = M⁻¹Jᵀ rows of l).
func (c *delassusCoupling) block(o *operator, k, l int, need uint16, b *[9]float64) {
	switch need {
	case normalEntries:
		b[0] = 0
	case tangentEntries:
		b[4], b[5], b[7], b[8] = 0, 0, 0, 0
	default:
		for i := range b {
			if need&(1<<i) != 0 {
				b[i] = 0
			}
		}
	}
	for s := 2 * k; s < 2*k+2; s++ {
		sk := o.sides[s]
		if sk.off < 0 {
			continue
		}
		for t := 2 * l; t < 2*l+2; t++ {
			sl := o.sides[t]
			if sl.off != sk.off {
				continue
			}
			if sk.size == rigidSize {
				rigidBlock(rows6(o.rows, sk.row), rows6(o.w, sl.row), need, b)
				continue
			}
			n := sk.size
			for r := 0; r < RowsPerSide; r++ {
				for q := 0; q < RowsPerSide; q++ {
					if need&(1<<(3*r+q)) != 0 {
						b[3*r+q] += dot(o.rows[sk.row+r*n:sk.row+(r+1)*n], o.w[sl.row+q*n:sl.row+(q+1)*n])
					}
				}
			}
		}
	}
}

// rigidBlock adds the needed entries of J Wᵀ for one rigid body's rows J and W = M⁻¹Jᵀ rows.
func rigidBlock(j, w *[RowsPerSide * rigidSize]float64, need uint16, b *[9]float64) {
	row := func(a *[RowsPerSide * rigidSize]float64, r int) *[rigidSize]float64 {
		return (*[rigidSize]float64)(a[r*rigidSize:])
	}
	switch need {
	case normalEntries:
		b[0] += dot6(row(j, 0), row(w, 0))
	case tangentEntries:
		j1, j2, w1, w2 := row(j, 1), row(j, 2), row(w, 1), row(w, 2)
		b[4] += dot6(j1, w1)
		b[5] += dot6(j1, w2)
		b[7] += dot6(j2, w1)
		b[8] += dot6(j2, w2)
	default:
		for r := 0; r < RowsPerSide; r++ {
			for q := 0; q < RowsPerSide; q++ {
				if need&(1<<(3*r+q)) != 0 {
					b[3*r+q] += dot6(row(j, r), row(w, q))
				}
			}
		}
	}
}

// listBodies fills the per-body contact lists.
func (c *delassusCoupling) listBodies(o *operator) {
	c.bodyStart = grow(c.bodyStart, o.ndof)
	c.bodyCount = grow(c.bodyCount, o.ndof)
	for s := range o.sides {
		if off := o.sides[s].off; off >= 0 {
			c.bodyStart[off], c.bodyCount[off] = -1, 0
		}
	}
	for s := range o.sides {
		if off := o.sides[s].off; off >= 0 {
			c.bodyCount[off]++
		}
	}
	total := 0
	for s := range o.sides {
		if off := o.sides[s].off; off >= 0 && c.bodyStart[off] < 0 {
			c.bodyStart[off] = total
			total += c.bodyCount[off]
			c.bodyCount[off] = 0
		}
	}
	c.bodyList = grow(c.bodyList, total)
	for s := range o.sides {
		if off := o.sides[s].off; off >= 0 {
			// Sides come in contact order, so each list is increasing (a valid Problem never
			// puts both sides of a contact on one body).
			c.bodyList[c.bodyStart[off]+c.bodyCount[off]] = s / 2
			c.bodyCount[off]++
		}
	}
}
