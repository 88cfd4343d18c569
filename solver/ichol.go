package solver

import (
	"math"
	"slices"
	"time"
)

// delassusIC is a zero-fill incomplete Cholesky factor L Lᵀ ≈ A + ε diag(A) of the Delassus
// matrix A restricted to chosen rows of chosen contacts: the normal rows of the contact
// projection's active set, the tangent rows of the friction projection's sticking contacts, and
// the joint sticking solve's free rows (any rows 0–2 of a contact can be chosen). It
// preconditions their conjugate gradients when Jacobi or block-Jacobi scaling converges slowly, as
// it does along long chains of contacts (towers, walls) and through heaps (piles), where it cuts
// hundreds or thousands of iterations to tens or hundreds.
//
// L keeps A's sparsity — rows of two contacts couple only when the contacts share a body — so
// building it costs O(Σ nnz_row²), gathering A's entries from the solve's delassusCoupling, and
// applying it two sparse triangular solves. Only the preconditioner is approximate; CG still
// solves to its tolerance. Redundant contacts (coplanar corners) make A singular; the shift ε
// keeps the factor positive definite and, for a consistent system, keeps CG's correction in the
// range of diag(A)⁻¹A, as Jacobi scaling does, so the answer does not drift along the null space
// (which would redistribute impulse among redundant contacts and push some negative). Without the
// shift (zero pivots replaced by the diagonal) a cold wall's projection cascaded through
// clip-and-resolve rounds and took 20 times the CG iterations.
//
// Which shift a factor uses is described at icNarrowShift.
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
	// unstable: the factor failed startCG's growth check; it is not used until rebuilt.
	unstable bool
	// stale: the factor serves a set that differs from its members by a few contacts (keepNear):
	// skip marks the members' unknowns outside the set, and extra lists the set's contacts
	// that are not members, which the caller scales itself.
	stale bool
	skip  []bool
	extra []int
	// shift is the relative diagonal shift ε of the factored matrix A + ε diag(A): icShift until
	// useNarrow, then narrow unless a CG of this solve has shown a null-space move (widened).
	shift, narrow float64
	widened       bool
	// buildPerUnknown is the wall time of the last factorisation timed under a deadline, in
	// nanoseconds per unknown (0: none yet).
	buildPerUnknown float64
	start           []int
	col             []int // unknown indices < the row's, increasing
	val             []float64
	diag            []float64 // L_uu
	// member[k] = 1 + contact k's position among the members, 0 if it is none (during build).
	member  []int
	scatter []float64 // the row of L being formed, dense; zero between rows
	y       []float64 // triangular-solve scratch
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

// The relative diagonal shift ε of the factored matrix A + ε diag(A). On a consistent system the
// shift only slows CG: where the factor is exact (a tower's chain of 4-contact cliques) it alone
// sets the preconditioned condition number, about 1 + ε/λ_min. On an inconsistent one — an active
// set that should lose a contact, as in a toppling pile or a collapsing arch — the part of the
// residual outside A's range is amplified by up to 1/ε along the null space, and CG drives α there
// without bound until clipping shrinks the set (after clipping, residuals of 1e30 m/s were seen,
// with ε = 1e-2 as well as 1e-4).
//
// So the contact projection's factor uses the narrow shift from the staggered loop's second
// projection on, and in a cold start's first; it widens it to icShift for the rest of the solve at
// the first sign of a null-space move (nullDirection, icDiverged, icNullMove). A warm start's
// first projection keeps icShift: it is all a resting step solves, and with the narrow shift there
// too a resting 20-box stack cost 8 % more per step and the 40-box one 10 % less (the residuals a
// step leaves depend on how the previous ones distributed impulse among redundant corners). The friction
// projection's factor always uses icShift (its system is consistent, but the narrow shift cost the
// arch 4 % and the topple scene more friction sweeps). Measured when chosen: the sliding
// 40-box tower takes 145 contact CG iterations instead of 418, and replaying the same trajectories
// the topple scene and the μ 0.1 arch take 25 % and 9 % fewer than with icShift throughout.
const (
	icNarrowShift = 1e-4
	icShift       = 1e-2
)

// icDiverged: a CG whose max-norm residual grows to this many times its best so far is diverging
// on inconsistent rows; it stops and the solve widens its shift.
const icDiverged = 100

// icNullMove: a clip-and-resolve pass whose CG starts with a residual this many times the previous
// pass's start shows that the previous CG moved impulses along a near null space (clipping them
// left large violations); the solve widens its shift.
const icNullMove = 1e3

// diagEntry is the index of row r's diagonal entry (0 nn, 3 t₁t₁, 5 t₂t₂) in the operator's
// per-contact block g.
func diagEntry(r int) int { return [RowsPerSide]int{0, 3, 5}[r] }

// invalidate forgets the factor; the operator has changed (a new Solve). The solve starts with the
// shift icShift.
func (f *delassusIC) invalidate() {
	f.valid, f.wanted, f.widened, f.stale = false, false, false, false
	f.shift = icShift
}

// useNarrow switches to the narrow shift (if one is set) unless this solve has widened it.
func (f *delassusIC) useNarrow() {
	if f.narrow > 0 && !f.widened && f.shift != f.narrow {
		f.shift = f.narrow
		f.valid = false
	}
}

// widen sets the shift to icShift for the rest of the solve, forgetting a factor made with a
// narrower one.
func (f *delassusIC) widen() {
	f.widened = true
	if f.shift < icShift {
		f.shift = icShift
		f.valid = false
	}
}

// icProbe is the iteration from which a CG on its own scaling that starts at least icFar times
// its target extrapolates its progress, and switches to the factor early when the extrapolation
// exceeds icAfter iterations.
const (
	icProbe = 3
	icFar   = 1e3
)

// due reports whether a CG on its own scaling, at iteration it with the smallest max-norm residual
// so far best (rmax0 at its start), should switch to the factor now: at once when an earlier CG of
// this solve needed it; at icAfter; and from icProbe on, if it started far from target, when the
// residual has not fallen or when its geometric rate so far would need more than icAfter
// iterations in all.
//
// A factorisation costs about ten iterations of the CG's own scaling. A warm-started resting
// projection starts a few times above target and usually finishes within icAfter iterations, but
// its residual's max norm bounces (by 3× from one iteration to the next on a resting stack), so
// extrapolating it would switch too early: switching at icProbe on such starts made the resting
// 20-box stack cost 10 % more instructions and the 20-base pyramid 9 % more. A cold or
// sliding projection, which starts many orders above target, is extrapolated: the cold 12-base
// wall's projection then takes 7 CG iterations instead of 40 (TestColdWallContactCG).
func (f *delassusIC) due(it int, rmax0, best, target float64) bool {
	switch {
	case f.wanted || it >= icAfter:
		return true
	case it < icProbe || rmax0 < icFar*target:
		return false
	case !(best < rmax0):
		return true
	}
	return float64(it)*math.Log(target/rmax0) > icAfter*math.Log(best/rmax0)
}

// restart factors rows lo ≤ r < hi of the contacts in act (increasing) and restarts a CG whose
// vectors hold hi − lo entries per contact: z = (L Lᵀ)⁻¹r and p = z on those rows. It returns rᵀz
// and whether the factor is usable; if not, the CG keeps its own scaling and r, z, p are unchanged.
//
// With a deadline (non-zero) it does not start a factorisation that its last timed one, scaled by
// the unknowns, predicts would end past the deadline: under a time budget the CG then keeps its
// own scaling rather than overrun it.
func (f *delassusIC) restart(o *operator, cp *delassusCoupling, act []int, lo, hi int, r, z, p []float64, deadline time.Time) (float64, bool) {
	return f.restartNear(o, cp, act, lo, hi, 0, r, z, p, deadline)
}

// restartNear is restart for a CG that scales contacts outside the factor itself: when the factor
// is valid and the set act differs from its members by at most slack contacts (in either
// direction), it is kept rather than rebuilt (keepNear) and the caller scales f.extra. The kept
// factor preconditions the set with S(LLᵀ)⁻¹Sᵀ, S selecting the members still in it, beside the
// caller's scaling of the others: symmetric positive definite on the set, as CG needs, and close
// to the rebuilt factor when few contacts changed. With slack 0 it is restart.
func (f *delassusIC) restartNear(o *operator, cp *delassusCoupling, act []int, lo, hi, slack int, r, z, p []float64, deadline time.Time) (float64, bool) {
	f.reset()
	for _, k := range act {
		f.add(k, lo, hi)
	}
	if !(slack > 0 && f.valid && !f.unstable && f.keepNear(slack)) && !f.factor(o, cp, deadline) {
		return 0, false
	}
	return f.startCG(r, z, p, hi-lo, lo)
}

// keepNear reports whether the listed set (next) differs from the members by at most slack
// contacts, and if so marks the factor stale for it: skip marks the unknowns of members outside
// it, which solve then reads as zero and does not write, and extra lists its contacts outside the
// members. Both lists are in increasing contact order with the same rows.
func (f *delassusIC) keepNear(slack int) bool {
	f.stale = false
	f.skip = grow(f.skip, f.nu)
	f.extra = f.extra[:0]
	diff, j := 0, 0
	for _, mb := range f.members {
		for j < len(f.next) && f.next[j].k < mb.k {
			f.extra = append(f.extra, f.next[j].k)
			j++
		}
		in := j < len(f.next) && f.next[j].k == mb.k
		if in {
			j++
		} else {
			diff++
		}
		for u := mb.first; u < mb.first+mb.hi-mb.lo; u++ {
			f.skip[u] = !in
		}
	}
	for ; j < len(f.next); j++ {
		f.extra = append(f.extra, f.next[j].k)
	}
	if diff+len(f.extra) > slack {
		return false
	}
	f.stale = true
	return true
}

// icStaleShare: the friction projection keeps its factor for a set that differs from the
// factor's members by at most one contact in icStaleShare (restartNear). Rebuilding it for every
// round's set was a tenth of the time of a flowing 1,000-sphere pile's solves; kept within 1 %,
// its CG takes 3 % more iterations and the solves 7 % less time (replayed islands from 1.4–1.65 s
// and from the settling pile; islands below 100 contacts, which keep none, are unchanged).
const icStaleShare = 100

// startCG restarts a CG on the current factor, whose vectors are laid out as solve's (stride,
// base): z = (L Lᵀ)⁻¹r and p = z on the members' unknowns. It returns rᵀz over them and marks
// the factor wanted, so that the solve's later CGs start with it; or, if the factor fails the
// growth check (icGrowth), reports false, leaving z and p unchanged and the factor unused until
// it is rebuilt.
func (f *delassusIC) startCG(r, z, p []float64, stride, base int) (float64, bool) {
	y := f.solveY(r, stride, base)
	rz, bound := 0.0, 0.0
	for u, i := range f.at[:f.nu] {
		if f.stale && f.skip[u] {
			continue
		}
		rz += r[i] * y[u]
		bound += r[i] * r[i] / (f.diag[u] * f.diag[u])
	}
	if !(rz <= icGrowth*bound/f.shift) {
		f.unstable = true
		return 0, false
	}
	f.wanted = true
	for u, i := range f.at[:f.nu] {
		if f.stale && f.skip[u] {
			continue
		}
		z[i], p[i] = y[u], y[u]
	}
	return rz, true
}

// icGrowth bounds rᵀ(LLᵀ)⁻¹r against rᵀD⁻¹r/ε, D the factor's pivots L_uu². A pivot is at most
// (1 + ε)·A_uu, so were LLᵀ the complete factor of A + ε diag(A) the ratio would be at most
// about 1 (rᵀ(A + ε diag A)⁻¹r ≤ rᵀdiag(A)⁻¹r/ε). Sound incomplete factors stay well below it
// (median 0.03 on sliding and flowing sphere piles' projections, 99th percentile 0.05); where
// dropped fill has let a breakdown grow through later rows it reached 1e50–1e166 on the sliding
// pile's worst percent, and such a factor stalls its CG (on the flowing pile, two runs of 7,000
// iterations without progress in one step).
const icGrowth = 10

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
func (f *delassusIC) factor(o *operator, cp *delassusCoupling, deadline time.Time) bool {
	if f.valid && slices.Equal(f.members, f.next) {
		f.stale = false
		return !f.unstable
	}
	var start time.Time
	if !deadline.IsZero() {
		start = time.Now()
		if f.buildPerUnknown > 0 && start.Add(time.Duration(f.buildPerUnknown*float64(f.nextNU))).After(deadline) {
			return false
		}
	}
	f.members, f.next = f.next, f.members
	f.nu = f.nextNU
	f.valid, f.unstable, f.stale = f.build(o, cp), false, false
	if !start.IsZero() && f.nu > 0 {
		f.buildPerUnknown = float64(time.Since(start)) / float64(f.nu)
	}
	return f.valid
}

// build factors the members, gathering A's entries from the coupling blocks cp.
func (f *delassusIC) build(o *operator, cp *delassusCoupling) bool {
	nu := f.nu
	// Sized for the most unknowns the island can have (three rows per contact), so that a larger
	// set of members later in the solve, or in a later step of the same island, does not allocate.
	most := RowsPerSide * o.m
	f.start = reserve(f.start, nu+1, most+1)
	f.col, f.val = f.col[:0], f.val[:0]
	f.diag = reserve(f.diag, nu, most)
	f.scatter = reserve(f.scatter, nu, most)
	clear(f.scatter)
	f.y = reserve(f.y, nu, most)
	f.at = reserve(f.at, 0, most)
	f.skip = reserve(f.skip, 0, most)
	f.member = grow(f.member, o.m)
	clear(f.member)
	for i, mb := range f.members {
		f.member[mb.k] = i + 1
	}
	f.atStride = 0
	lo, hi := RowsPerSide, 0
	for _, mb := range f.members {
		lo, hi = min(lo, mb.lo), max(hi, mb.hi)
	}
	need := entryMask(lo, hi)
	for _, mi := range f.members {
		for r := mi.lo; r < mi.hi; r++ {
			u := mi.first + r - mi.lo
			f.start[u] = len(f.col)
			f.gatherRow(o, cp, need, mi, r)
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
			d := a * (1 + f.shift)
			for e := row; e < len(col); e++ {
				d -= val[e] * val[e]
				scatter[col[e]] = 0
			}
			// A redundant row's exact pivot is at least about ε·A_uu. Below half of that the
			// dropped fill has broken the factorisation down; the row then falls back to its
			// diagonal, as in Jacobi scaling.
			if !(d >= 0.5*f.shift*a) {
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

// gatherRow appends the entries A_uv, v < u, of the unknown of member mi's row r, in increasing v:
// the member rows of the contacts sharing a body with it that come before it (need: the entries
// of the coupling blocks the factor uses).
func (f *delassusIC) gatherRow(o *operator, cp *delassusCoupling, need uint16, mi icMember, r int) {
	k := mi.k
	nbr, blocks := cp.row(o, k, need)
	for e, l := range nbr {
		j := f.member[l] - 1
		if j < 0 {
			continue
		}
		mj := f.members[j]
		hi := mj.hi
		if l == k {
			hi = r
		}
		b := blocks[9*e+3*r : 9*e+3*r+3]
		for rj := mj.lo; rj < hi; rj++ {
			f.col = append(f.col, mj.first+rj-mj.lo)
			f.val = append(f.val, b[rj])
		}
	}
}

// solve sets z = (L Lᵀ)⁻¹ r on the set's unknowns. Both are laid out per contact with stride
// entries from row base on: unknown (k, row) is at index stride·k + row − base.
func (f *delassusIC) solve(r, z []float64, stride, base int) {
	y := f.solveY(r, stride, base)
	for u, i := range f.at[:f.nu] {
		if f.stale && f.skip[u] {
			continue
		}
		z[i] = y[u]
	}
}

// solveY returns (L Lᵀ)⁻¹ r in the unknowns' order (scratch, valid until the next solve), r laid
// out as solve's.
func (f *delassusIC) solveY(r []float64, stride, base int) []float64 {
	nu := f.nu
	if f.atStride != stride || f.atBase != base {
		f.at = grow(f.at, nu)
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
		if f.stale && f.skip[u] {
			s = 0
		}
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
	return y
}
