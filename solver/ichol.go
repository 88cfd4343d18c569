package solver

import (
	"math"
	"slices"
)

// delassusIC is a zero-fill incomplete Cholesky factor L Lᵀ ≈ A + ε diag(A) of the Delassus
// matrix A restricted to chosen rows of chosen contacts: the normal rows of the contact
// projection's active set and the tangent rows of the friction projection's sticking contacts
// (any rows 0–2 of a contact can be chosen; the joint sticking solve's CG does not use it, see
// BENCHMARKS.md). It preconditions their conjugate gradients when Jacobi or block-Jacobi scaling
// converges slowly, as it does along long chains of contacts (towers, walls), where it cuts
// hundreds of iterations to tens.
//
// L keeps A's sparsity — rows of two contacts couple only when the contacts share a body — so
// building it costs O(Σ nnz_row²) and applying it two sparse triangular solves. Only the
// preconditioner is approximate; CG still solves to its tolerance. Redundant contacts (coplanar
// corners) make A singular; the shift ε keeps the factor positive definite and, for a consistent
// system, keeps CG's correction in the range of diag(A)⁻¹A, as Jacobi scaling does, so the answer
// does not drift along the null space (which would redistribute impulse among redundant contacts
// and push some negative). Without the shift (zero pivots replaced by the diagonal) a cold wall's
// projection cascaded through clip-and-resolve rounds and took 20 times the CG iterations.
//
// Use: reset, add each contact with its row range (in increasing contact order), factor, then
// solve as often as needed.
type delassusIC struct {
	members []icMember
	nu      int // unknowns: Σ (hi − lo) over members
	// next is the set being listed; factor keeps the current factor when it equals members.
	next   []icMember
	nextNU int
	// valid: the factor matches members and the current operator. wanted: a CG of this solve
	// needed the factor, so the next ones start with it.
	valid, wanted bool
	start         []int
	col           []int // unknown indices < the row's, increasing
	val           []float64
	diag          []float64 // L_uu
	// Per-body lists of member positions, increasing, keyed by the body's velocity offset:
	// bodyList[bodyStart[off] : bodyStart[off]+bodyCount[off]].
	bodyStart, bodyCount []int
	bodyList             []int
	scatter              []float64 // the row of L being formed, dense; zero between rows
	mark                 []int     // unknown → 1 + the last row whose pattern holds it
	y                    []float64 // triangular-solve scratch
	// at[u] is unknown u's index in the vectors solve reads and writes, stride·k + r − base for
	// member k's row r, for the layout (atStride, atBase) it was last listed for; atStride 0: none.
	at               []int
	atStride, atBase int
}

// icMember is one contact of the factored set and its rows lo ≤ r < hi (0 normal, 1 and 2
// tangents); its unknowns are first, first+1, … in row order.
type icMember struct {
	k, lo, hi, first int
}

// icAfter is how many iterations a CG runs with its own (Jacobi or block-Jacobi) scaling before it
// switches to the factor; warm-started projections usually finish within it.
const icAfter = 20

// icShift is the relative diagonal shift ε of the factored matrix A + ε diag(A). The part of a
// residual outside A's range (coplanar corners with different gaps, speculative contacts) is
// amplified by up to 1/ε along the null space, moving α and setting off clip-and-resolve rounds:
// ε = 1e-6 cost a resting 40-box stack 30 % more work per step, and ε = 1e-3 more than doubled
// the contact CG of the topple scene's dynamic islands; ε = 1e-2 costs the walls a few more CG
// iterations than 1e-3 (BENCHMARKS.md).
const icShift = 1e-2

// diagEntry is the index of row r's diagonal entry (0 nn, 3 t₁t₁, 5 t₂t₂) in the operator's
// per-contact block g.
func diagEntry(r int) int { return [RowsPerSide]int{0, 3, 5}[r] }

// invalidate forgets the factor; the operator has changed (a new Solve).
func (f *delassusIC) invalidate() {
	f.valid, f.wanted = false, false
}

// firstIteration is the CG iteration at which a CG switches to the factor: at once when an
// earlier CG of this solve needed it, else after icAfter iterations of its own scaling.
func (f *delassusIC) firstIteration() int {
	if f.wanted {
		return 0
	}
	return icAfter
}

// restart factors rows lo ≤ r < hi of the contacts in act (increasing) and restarts a CG whose
// vectors hold hi − lo entries per contact: z = (L Lᵀ)⁻¹r and p = z on those rows. It returns rᵀz
// and whether the factor is usable; if not, the CG keeps its own scaling and r, z, p are unchanged.
func (f *delassusIC) restart(o *operator, act []int, lo, hi int, r, z, p []float64) (float64, bool) {
	f.reset()
	for _, k := range act {
		f.add(k, lo, hi)
	}
	if !f.factor(o) {
		return 0, false
	}
	f.wanted = true
	n := hi - lo
	f.solve(r, z, n, lo)
	rz := 0.0
	for _, k := range act {
		for i := n * k; i < n*k+n; i++ {
			p[i] = z[i]
			rz += r[i] * z[i]
		}
	}
	return rz, true
}

// reset starts listing a set, keeping capacity. The two member lists trade places in factor, so
// each takes the capacity of the larger.
func (f *delassusIC) reset() {
	if cap(f.next) < cap(f.members) {
		f.next = make([]icMember, 0, cap(f.members))
	}
	f.next = f.next[:0]
	f.nextNU = 0
}

// add appends contact k with rows lo ≤ r < hi; contacts must come in increasing order.
func (f *delassusIC) add(k, lo, hi int) {
	f.next = append(f.next, icMember{k: k, lo: lo, hi: hi, first: f.nextNU})
	f.nextNU += hi - lo
}

// factor makes L the factor of the set listed since reset, from operator o, reusing the current
// one when the set is unchanged (the staggered loop's projections often keep their sets). It
// reports false if the factor came out non-finite (the dropped fill can make an incomplete
// factorisation unstable on arbitrary problems); the caller then keeps its Jacobi scaling.
func (f *delassusIC) factor(o *operator) bool {
	if f.valid && slices.Equal(f.members, f.next) {
		return true
	}
	f.members, f.next = f.next, f.members
	f.nu = f.nextNU
	f.valid = f.build(o)
	return f.valid
}

// build factors the members.
func (f *delassusIC) build(o *operator) bool {
	nu := f.nu
	f.listBodies(o)
	f.start = growI(f.start, nu+1)
	f.col, f.val = f.col[:0], f.val[:0]
	f.diag = growF(f.diag, nu)
	f.scatter = growF(f.scatter, nu)
	clear(f.scatter)
	f.mark = growI(f.mark, nu)
	clear(f.mark)
	f.y = growF(f.y, nu)
	f.atStride = 0
	for i := range f.members {
		mi := f.members[i]
		for r := mi.lo; r < mi.hi; r++ {
			u := mi.first + r - mi.lo
			f.start[u] = len(f.col)
			f.appendPattern(o, i, r, u)
			row := f.start[u]
			// Up-looking factorisation: L_uv = (A_uv − Σ_{w<v} L_uw L_vw) / L_vv over the
			// pattern, with row u kept dense in scatter while it is formed. (Locals: the loops
			// then load nothing through f.)
			col, val, start, scatter, diag := f.col, f.val, f.start, f.scatter, f.diag
			for e := row; e < len(col); e++ {
				v := col[e]
				s := val[e]
				cs := col[start[v]:start[v+1]]
				vs := val[start[v]:start[v+1]]
				vs = vs[:len(cs)]
				for q, c := range cs {
					s -= vs[q] * scatter[c]
				}
				l := s / diag[v]
				val[e] = l
				scatter[v] = l
			}
			a := o.g[6*mi.k+diagEntry(r)]
			d := a * (1 + icShift)
			for e := row; e < len(col); e++ {
				d -= val[e] * val[e]
				scatter[col[e]] = 0
			}
			// A redundant row's exact pivot is at least about ε·A_uu. Below half of that the
			// dropped fill has broken the factorisation down; the row then falls back to its
			// diagonal, as in Jacobi scaling.
			if !(d >= 0.5*icShift*a) {
				d = a
			}
			f.diag[u] = math.Sqrt(d)
			if !isFinite(f.diag[u]) || !(f.diag[u] > 0) {
				return false
			}
		}
	}
	f.start[nu] = len(f.col)
	for _, v := range f.val {
		if !isFinite(v) {
			return false
		}
	}
	return true
}

// listBodies fills the per-body member lists, each in increasing position.
func (f *delassusIC) listBodies(o *operator) {
	f.bodyStart = growI(f.bodyStart, o.ndof)
	f.bodyCount = growI(f.bodyCount, o.ndof)
	for _, mb := range f.members {
		for s := 2 * mb.k; s < 2*mb.k+2; s++ {
			if off := o.sides[s].off; off >= 0 {
				f.bodyStart[off], f.bodyCount[off] = -1, 0
			}
		}
	}
	for _, mb := range f.members {
		for s := 2 * mb.k; s < 2*mb.k+2; s++ {
			if off := o.sides[s].off; off >= 0 {
				f.bodyCount[off]++
			}
		}
	}
	total := 0
	for _, mb := range f.members {
		for s := 2 * mb.k; s < 2*mb.k+2; s++ {
			if off := o.sides[s].off; off >= 0 && f.bodyStart[off] < 0 {
				f.bodyStart[off] = total
				total += f.bodyCount[off]
				f.bodyCount[off] = 0
			}
		}
	}
	f.bodyList = growI(f.bodyList, total)
	for i, mb := range f.members {
		for s := 2 * mb.k; s < 2*mb.k+2; s++ {
			if off := o.sides[s].off; off >= 0 {
				f.bodyList[f.bodyStart[off]+f.bodyCount[off]] = i
				f.bodyCount[off]++
			}
		}
	}
}

// appendPattern appends the entries A_uv, v < u, of unknown u (member i's row r), in increasing v:
// the rows of members sharing a body with it, each the sum over the shared bodies of
// row_r(i)·M⁻¹row(j)ᵀ.
func (f *delassusIC) appendPattern(o *operator, i, r, u int) {
	first := len(f.col)
	mi := f.members[i]
	for s := 2 * mi.k; s < 2*mi.k+2; s++ {
		sd := o.sides[s]
		if sd.off < 0 {
			continue
		}
		for _, j := range f.bodyList[f.bodyStart[sd.off] : f.bodyStart[sd.off]+f.bodyCount[sd.off]] {
			if j > i {
				break
			}
			mj := f.members[j]
			for rj := mj.lo; rj < mj.hi; rj++ {
				v := mj.first + rj - mj.lo
				if v >= u {
					break
				}
				a := o.sideCoupling(sd, r, mj.k, rj)
				if f.mark[v] == u+1 {
					// Both bodies shared (points of one manifold, or the rows of one contact).
					for e := first; e < len(f.col); e++ {
						if f.col[e] == v {
							f.val[e] += a
							break
						}
					}
					continue
				}
				f.mark[v] = u + 1
				f.col = append(f.col, v)
				f.val = append(f.val, a)
			}
		}
	}
	sortByCol(f.col[first:], f.val[first:])
}

// sortByCol sorts a row's entries by column by insertion: rows are short and made of two
// increasing runs (one per body).
func sortByCol(col []int, val []float64) {
	for a := 1; a < len(col); a++ {
		c, v := col[a], val[a]
		b := a
		for b > 0 && col[b-1] > c {
			col[b], val[b] = col[b-1], val[b-1]
			b--
		}
		col[b], val[b] = c, v
	}
}

// solve sets z = (L Lᵀ)⁻¹ r on the set's unknowns. Both are laid out per contact with stride
// entries from row base on: unknown (k, row) is at index stride·k + row − base.
func (f *delassusIC) solve(r, z []float64, stride, base int) {
	nu := f.nu
	if f.atStride != stride || f.atBase != base {
		f.at = growI(f.at, nu)
		for _, mb := range f.members {
			for row := mb.lo; row < mb.hi; row++ {
				f.at[mb.first+row-mb.lo] = stride*mb.k + row - base
			}
		}
		f.atStride, f.atBase = stride, base
	}
	y, at, start, col, val, diag := f.y[:nu], f.at[:nu], f.start[:nu+1], f.col, f.val, f.diag[:nu]
	for u := range y {
		s := r[at[u]]
		cs := col[start[u]:start[u+1]]
		vs := val[start[u]:start[u+1]]
		vs = vs[:len(cs)]
		for e, c := range cs {
			s -= vs[e] * y[c]
		}
		y[u] = s / diag[u]
	}
	for u := nu - 1; u >= 0; u-- {
		y[u] /= diag[u]
		yu := y[u]
		cs := col[start[u]:start[u+1]]
		vs := val[start[u]:start[u+1]]
		vs = vs[:len(cs)]
		for e, c := range cs {
			y[c] -= vs[e] * yu
		}
	}
	for u, i := range at {
		z[i] = y[u]
	}
}
