package solver

import (
	"math"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"
)

// denseDelassus computes A restricted to the members' rows by applying the operator to unit
// impulses (addW then rowDot), a path independent of the factor's own assembly.
func denseDelassus(o *operator, members []icMember) (rowsOf [][2]int, a [][]float64) {
	for _, mb := range members {
		for r := mb.lo; r < mb.hi; r++ {
			rowsOf = append(rowsOf, [2]int{mb.k, r})
		}
	}
	u := make([]float64, o.ndof)
	a = make([][]float64, len(rowsOf))
	for i := range a {
		a[i] = make([]float64, len(rowsOf))
	}
	for j, kr := range rowsOf {
		clear(u)
		o.addW(kr[0], kr[1], 1, u)
		for i, ki := range rowsOf {
			a[i][j] = o.rowDot(ki[0], ki[1], u)
		}
	}
	return rowsOf, a
}

// icFor compiles p and factors the rows chosen per contact by pick (lo, hi; lo == hi: none).
func icFor(t *testing.T, p *Problem, pick func(k int) (int, int)) (*operator, *delassusIC) {
	t.Helper()
	if err := p.Validate(); err != nil {
		t.Fatal(err)
	}
	o := &operator{}
	o.compile(p)
	f := &delassusIC{narrow: icNarrowShift}
	f.invalidate()
	f.reset()
	for k := 0; k < o.m; k++ {
		if lo, hi := pick(k); hi > lo {
			f.add(k, lo, hi)
		}
	}
	if !f.factor(o, &delassusCoupling{}, time.Time{}) {
		t.Fatal("factor not finite")
	}
	return o, f
}

// On a tower the contact graph is a chain of cliques, so the zero-fill factor is the complete
// Cholesky factor of A + ε diag(A) (ε the narrow shift a solve starts with): solve must invert it, on normal, tangent and mixed rows.
func TestDelassusICInvertsChain(t *testing.T) {
	var p Problem
	genTower(&p, 12, false, 1)
	rows := [][2]int{{0, 1}, {1, 3}, {0, 3}} // normal, tangents, all three
	o, f := icFor(t, &p, func(k int) (int, int) { return rows[k%3][0], rows[k%3][1] })
	rowsOf, a := denseDelassus(o, f.members)
	rng := newRand(3)
	r := make([]float64, 3*o.m)
	z := make([]float64, 3*o.m)
	for _, kr := range rowsOf {
		r[3*kr[0]+kr[1]] = rng.NormFloat64()
	}
	f.solve(r, z, 3, 0)
	worst := 0.0
	for i, ki := range rowsOf {
		bz := 0.0
		for j, kj := range rowsOf {
			bij := a[i][j]
			if i == j {
				bij *= 1 + f.shift
			}
			bz += bij * z[3*kj[0]+kj[1]]
		}
		worst = math.Max(worst, math.Abs(bz-r[3*ki[0]+ki[1]]))
	}
	if worst > 1e-7 {
		t.Errorf("(A + ε diag A)·solve(r) − r: worst %.3g over %d rows", worst, len(rowsOf))
	}
}

// On a random problem the factor is incomplete; the preconditioner must still be symmetric and
// positive definite for CG.
func TestDelassusICSymmetricPositive(t *testing.T) {
	var p Problem
	rng := newRand(8)
	randomProblem(&p, rng, []int{3, 6, 9}, 40, 200)
	o, f := icFor(t, &p, func(k int) (int, int) {
		switch k % 4 {
		case 0:
			return 0, 1
		case 1:
			return 1, 3
		case 2:
			return 0, 3
		}
		return 0, 0
	})
	x := make([]float64, 3*o.m)
	y := make([]float64, 3*o.m)
	sx := make([]float64, 3*o.m)
	sy := make([]float64, 3*o.m)
	for _, mb := range f.members {
		for r := mb.lo; r < mb.hi; r++ {
			x[3*mb.k+r], y[3*mb.k+r] = rng.NormFloat64(), rng.NormFloat64()
		}
	}
	f.solve(x, sx, 3, 0)
	f.solve(y, sy, 3, 0)
	xsy, ysx, xsx, norm := dot(x, sy), dot(y, sx), dot(x, sx), math.Sqrt(dot(x, x)*dot(sy, sy))
	if math.Abs(xsy-ysx) > 1e-9*norm {
		t.Errorf("not symmetric: xᵀSy %v, yᵀSx %v", xsy, ysx)
	}
	if !(xsx > 0) {
		t.Errorf("not positive: xᵀSx = %v", xsx)
	}
}

// A cold 12-base wall's contact projection switches to the incomplete Cholesky factor early; the
// projection stays exact (checked independently). Its CG iterations are BenchmarkVariants'
// wall12 row.
func TestColdWallContactExact(t *testing.T) {
	var p Problem
	genPyramid(&p, 12, false, 1)
	solveContactExact(t, "wall", &p, Options{Friction: Disc})
}

// Where the zero-fill factorisation lets a breakdown grow through later rows, startCG must refuse
// the factor. On the tangent rows of random halves of a sliding sphere pile's contacts (far more
// rows than the spheres' freedoms) some finite factors amplify residuals by orders; a CG started
// on one makes no progress. Every factor startCG accepts must give rᵀz within a factor 10 of the
// exact rᵀ(A + ε diag A)⁻¹r (a dense Cholesky solve of the Delassus rows, assembled
// independently), and each case must occur (the control: the test sees the mechanism).
func TestDelassusICRefusesGrowth(t *testing.T) {
	refused, accepted := 0, 0
	for seed := uint64(1); seed <= 3; seed++ {
		var p Problem
		genSpherePile(&p, 6, true, seed)
		pick := newRand(seed)
		o, f := icFor(t, &p, func(int) (int, int) {
			if pick.IntN(2) == 0 {
				return 1, 1
			}
			return 1, 3
		})
		rowsOf, a := denseDelassus(o, f.members)
		n := len(rowsOf)
		b := mat.NewSymDense(n, nil)
		for i := 0; i < n; i++ {
			for j := i; j < n; j++ {
				v := 0.5 * (a[i][j] + a[j][i])
				if i == j {
					v *= 1 + f.shift
				}
				b.SetSym(i, j, v)
			}
		}
		var ch mat.Cholesky
		if !ch.Factorize(b) {
			t.Fatalf("seed %d: A + ε diag A not positive definite", seed)
		}
		rng := newRand(seed + 10)
		r := make([]float64, 2*o.m)
		z := make([]float64, 2*o.m)
		dir := make([]float64, 2*o.m)
		rv := mat.NewVecDense(n, nil)
		for i, kr := range rowsOf {
			v := rng.NormFloat64()
			r[2*kr[0]+kr[1]-1] = v
			rv.SetVec(i, v)
		}
		var x mat.VecDense
		if err := ch.SolveVecTo(&x, rv); err != nil {
			t.Fatal(err)
		}
		exact := mat.Dot(rv, &x)
		rz, ok := f.startCG(r, z, dir, 2, 1)
		if !ok {
			refused++
			if z[2*rowsOf[0][0]+rowsOf[0][1]-1] != 0 || dir[2*rowsOf[0][0]+rowsOf[0][1]-1] != 0 {
				t.Errorf("seed %d: a refused factor wrote z or p", seed)
			}
			continue
		}
		accepted++
		if !(rz <= 10*exact && rz >= exact/10) {
			t.Errorf("seed %d: accepted factor's rᵀz = %.3g, exact rᵀ(A + ε diag A)⁻¹r = %.3g", seed, rz, exact)
		}
	}
	if refused == 0 || accepted == 0 {
		t.Errorf("refused %d, accepted %d of 3 factors: want both", refused, accepted)
	}
}

// A factor kept for a set that differs from its members by a few contacts (keepNear) must still
// precondition CG: on the tangent rows of half a sliding pyramid's contacts, one dropped and one
// added, on the kept members S(LLᵀ)⁻¹Sᵀ is symmetric and positive definite, solve
// neither reads nor writes a dropped member's entries, and it stays within a factor 2 of the
// factor rebuilt for the new set in rᵀz. The slack counts contacts dropped and added.
func TestDelassusICKeptForNearSet(t *testing.T) {
	var p Problem
	genPyramid(&p, 8, true, 1)
	rng := newRand(4)
	o, f := icFor(t, &p, func(k int) (int, int) {
		if k%2 == 0 {
			return 1, 3
		}
		return 1, 1
	})
	dropped, added := f.members[3].k, 1
	listNear := func() {
		f.reset()
		for k := 0; k < o.m; k++ {
			if k%2 == 0 && k != dropped || k == added {
				f.add(k, 1, 3)
			}
		}
	}
	listNear()
	if f.keepNear(1) {
		t.Fatal("kept for a set two contacts away with slack 1")
	}
	if !f.keepNear(2) || len(f.extra) != 1 || f.extra[0] != added {
		t.Fatalf("not kept with slack 2, or extra %v (want [%d])", f.extra, added)
	}
	random := func() []float64 {
		x := make([]float64, 2*o.m)
		for _, mb := range f.next {
			x[2*mb.k], x[2*mb.k+1] = rng.NormFloat64(), rng.NormFloat64()
		}
		return x
	}
	x, y := random(), random()
	sx := make([]float64, 2*o.m)
	sy := make([]float64, 2*o.m)
	x[2*dropped], sx[2*dropped] = 1e30, 7
	f.solve(x, sx, 2, 1)
	if sx[2*dropped] != 7 {
		t.Errorf("solve wrote the dropped member's entry: %v", sx[2*dropped])
	}
	x[2*dropped] = 0
	f.solve(y, sy, 2, 1)
	xsy, ysx, xsx := dot(x, sy), dot(y, sx), dot(x, sx)
	if math.Abs(xsy-ysx) > 1e-9*math.Sqrt(dot(x, x)*dot(sy, sy)) {
		t.Errorf("not symmetric: xᵀSy %v, yᵀSx %v", xsy, ysx)
	}
	if !(xsx > 0) {
		t.Errorf("not positive: xᵀSx = %v", xsx)
	}
	listNear()
	if !f.factor(o, &delassusCoupling{}, time.Time{}) || f.stale {
		t.Fatal("rebuilt factor not finite, or still stale")
	}
	rx := make([]float64, 2*o.m)
	x[2*added], x[2*added+1] = 0, 0 // the kept factor leaves the added contact to the caller
	f.solve(x, rx, 2, 1)
	rebuilt := 0.0
	for _, mb := range f.next {
		if mb.k != added {
			rebuilt += x[2*mb.k]*rx[2*mb.k] + x[2*mb.k+1]*rx[2*mb.k+1]
		}
	}
	if !(xsx <= 2*rebuilt && xsx >= rebuilt/2) {
		t.Errorf("kept factor's rᵀz %.4g, rebuilt factor's %.4g: not within a factor 2", xsx, rebuilt)
	}
}
