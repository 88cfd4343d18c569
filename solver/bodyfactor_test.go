package solver

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// bfRow is one contact row for addRow.
type bfRow struct {
	a int
	x []float64
	b int
	y []float64
	d float64
}

// bfScript is a block pattern and the numeric calls that build K on it.
type bfScript struct {
	size, pairs []int
	diag        [][]float64
	rows        []bfRow
}

// bfRandomScript makes an SPD K on the pattern: a random SPD mass block per block, rowsPerPair
// random rows per pair (in the pair's order, repeats kept), and a one-sided row on every third
// block (alternating a = −1 and b = −1), and a row with a = b on every fifth.
func bfRandomScript(rng *rand.Rand, size, pairs []int, rowsPerPair int) *bfScript {
	s := &bfScript{size: size, pairs: pairs}
	vec := func(n int) []float64 {
		v := make([]float64, n)
		for i := range v {
			v[i] = 2*rng.Float64() - 1
		}
		return v
	}
	for _, n := range size {
		a := vec(n * n)
		m := make([]float64, n*n)
		for i := range n {
			for j := range n {
				for k := range n {
					m[i*n+j] += a[i*n+k] * a[j*n+k] / float64(n)
				}
			}
			m[i*n+i] += 0.5 + rng.Float64()
		}
		s.diag = append(s.diag, m)
	}
	for j := 0; j < len(pairs); j += 2 {
		a, b := pairs[j], pairs[j+1]
		for range rowsPerPair {
			s.rows = append(s.rows, bfRow{a, vec(size[a]), b, vec(size[b]), 0.1 + 2*rng.Float64()})
		}
	}
	for a := 0; a < len(size); a += 5 {
		s.rows = append(s.rows, bfRow{a, vec(size[a]), a, vec(size[a]), 0.1 + rng.Float64()})
	}
	for a := 0; a < len(size); a += 3 {
		if a%2 == 0 {
			s.rows = append(s.rows, bfRow{a, vec(size[a]), -1, nil, 0.1 + rng.Float64()})
		} else {
			s.rows = append(s.rows, bfRow{-1, []float64{42}, a, vec(size[a]), 0.1 + rng.Float64()})
		}
	}
	return s
}

// load zeroes f's values and adds K (f must have analysed s's pattern).
func (s *bfScript) load(f *bodyFactor) {
	f.zero()
	for a, m := range s.diag {
		f.addDiagonal(a, m)
	}
	for _, r := range s.rows {
		f.addRow(r.a, r.x, r.b, r.y, r.d)
	}
}

// dense builds K independently of bodyFactor.
func (s *bfScript) dense() *mat.SymDense {
	off := make([]int, len(s.size)+1)
	for i, n := range s.size {
		off[i+1] = off[i] + n
	}
	n := off[len(s.size)]
	k := make([]float64, n*n)
	for a, m := range s.diag {
		na := s.size[a]
		for i := range na {
			for j := range na {
				k[(off[a]+i)*n+off[a]+j] += m[i*na+j]
			}
		}
	}
	for _, r := range s.rows {
		row := make([]float64, n)
		if r.a >= 0 {
			copy(row[off[r.a]:], r.x)
		}
		if r.b >= 0 {
			for i, v := range r.y {
				row[off[r.b]+i] += v
			}
		}
		for i, vi := range row {
			if vi == 0 {
				continue
			}
			for j, vj := range row {
				k[i*n+j] += r.d * vi * vj
			}
		}
	}
	return mat.NewSymDense(n, k)
}

// bfCheck factors s with f and compares the solve of a random right side with gonum's dense
// Cholesky.
func bfCheck(t *testing.T, f *bodyFactor, s *bfScript, rng *rand.Rand) {
	t.Helper()
	f.analyse(s.size, s.pairs)
	s.load(f)
	if !f.factor() {
		t.Fatal("factor refused an SPD matrix")
	}
	k := s.dense()
	n := k.SymmetricDim()
	var ch mat.Cholesky
	if !ch.Factorize(k) {
		t.Fatal("gonum refused the reference matrix")
	}
	b := make([]float64, n)
	for i := range b {
		b[i] = 2*rng.Float64() - 1
	}
	var ref mat.VecDense
	if err := ch.SolveVecTo(&ref, mat.NewVecDense(n, slices.Clone(b))); err != nil {
		t.Fatal(err)
	}
	x := slices.Clone(b)
	f.solve(x)
	diff, norm := 0.0, 0.0
	for i, v := range x {
		diff += (v - ref.AtVec(i)) * (v - ref.AtVec(i))
		norm += ref.AtVec(i) * ref.AtVec(i)
	}
	if rel := math.Sqrt(diff / norm); !(rel <= 1e-10) {
		t.Fatalf("relative error %.3g against dense Cholesky (n = %d)", rel, n)
	}
	if f.work() <= 0 {
		t.Fatalf("work %d after a factor", f.work())
	}
}

func bfSizes(nb, s int) []int {
	size := make([]int, nb)
	for i := range size {
		size[i] = s
	}
	return size
}

// bfGeometric joins each pair of points closer than r.
func bfGeometric(p [][3]float64, r float64) []int {
	var pairs []int
	for i := range p {
		for j := i + 1; j < len(p); j++ {
			dx, dy, dz := p[i][0]-p[j][0], p[i][1]-p[j][1], p[i][2]-p[j][2]
			if dx*dx+dy*dy+dz*dz < r*r {
				if (i+j)%2 == 0 {
					pairs = append(pairs, i, j)
				} else {
					pairs = append(pairs, j, i)
				}
			}
		}
	}
	return pairs
}

func bfRandomPoints(rng *rand.Rand, n int) [][3]float64 {
	p := make([][3]float64, n)
	for i := range p {
		p[i] = [3]float64{rng.Float64(), rng.Float64(), rng.Float64()}
	}
	return p
}

func bfGrid(nx, ny int) []int {
	var pairs []int
	for y := range ny {
		for x := range nx {
			i := y*nx + x
			if x+1 < nx {
				pairs = append(pairs, i, i+1)
			}
			if y+1 < ny {
				pairs = append(pairs, i+nx, i)
			}
		}
	}
	return pairs
}

// bfHeap is a two-layer heap: nb blocks on a jittered nx×ny grid, each at one of two heights,
// joined to the neighbours within radius r.
func bfHeap(nx, ny, nb int, r float64, seed uint64) []int {
	rng := newRand(seed)
	var p [][3]float64
	for y := range ny {
		for x := range nx {
			z := 0.0
			if rng.Float64() < 0.5 {
				z = 0.5
			}
			p = append(p, [3]float64{float64(x) + 0.4*(rng.Float64()-0.5), float64(y) + 0.4*(rng.Float64()-0.5), z})
		}
	}
	return bfGeometric(p[:nb], r)
}

func TestBodyFactorMatchesDenseCholesky(t *testing.T) {
	rng := newRand(7)
	star := []int{}
	for i := 1; i <= 40; i++ {
		if i%2 == 0 {
			star = append(star, 0, i)
		} else {
			star = append(star, i, 0)
		}
	}
	chain := []int{}
	for i := range 49 {
		chain = append(chain, i, i+1)
	}
	mixed := make([]int, 60)
	for i := range mixed {
		mixed[i] = []int{6, 9, 14, 1}[i%4]
	}
	mixedPairs := bfGeometric(bfRandomPoints(rng, 60), 0.35)
	// Blocks 10 to 19 have no pairs; pairs repeat, in both orders.
	isolated := []int{0, 1, 1, 0, 0, 1, 2, 3, 3, 2, 4, 9, 9, 4, 4, 9, 5, 6}
	cases := []struct {
		name  string
		size  []int
		pairs []int
		rows  int
	}{
		{"chain", bfSizes(50, 6), chain, 2},
		{"star", bfSizes(41, 6), star, 3},
		{"grid", bfSizes(144, 6), bfGrid(12, 12), 2},
		{"geometric", bfSizes(300, 6), bfGeometric(bfRandomPoints(rng, 300), 0.17), 1},
		{"mixed", mixed, mixedPairs, 2},
		{"isolated", bfSizes(20, 6), isolated, 1},
		{"zero sizes", []int{3, 0, 2, 0, 6}, []int{0, 1, 1, 2, 2, 3, 3, 4, 4, 0}, 2},
		{"heap", bfSizes(100, 6), bfHeap(10, 10, 100, 2, 1), 1},
	}
	var f bodyFactor // one value throughout: analyse again with other patterns
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			bfCheck(t, &f, bfRandomScript(rng, c.size, c.pairs, c.rows), rng)
			var fresh bodyFactor
			bfCheck(t, &fresh, bfRandomScript(rng, c.size, c.pairs, c.rows), rng)
		})
	}
}

func TestBodyFactorOrderIsMinimumDegree(t *testing.T) {
	var f bodyFactor
	// A star about 2: leaves go first, lowest index first, and cause no fill; the centre ties
	// with the last leaf and wins by its lower index.
	f.analyse(bfSizes(5, 1), []int{2, 0, 1, 2, 2, 4, 3, 2})
	if want := []int32{0, 1, 3, 2, 4}; !slices.Equal(f.perm, want) {
		t.Fatalf("order %v, want %v", f.perm, want)
	}
	if f.fill() != 4 {
		t.Fatalf("fill %d, want 4", f.fill())
	}
	// A chain eliminated from its ends never fills.
	chain := []int{}
	for i := range 29 {
		chain = append(chain, i+1, i)
	}
	f.analyse(bfSizes(30, 6), chain)
	if f.fill() != 29 {
		t.Fatalf("chain fill %d, want 29", f.fill())
	}
	// A cycle of 6: its 6 edges and 3 blocks of fill.
	f.analyse(bfSizes(6, 2), []int{0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 0})
	if f.fill() != 9 {
		t.Fatalf("cycle fill %d, want 9", f.fill())
	}
}

// bfReferenceOrder is minimum degree with ties to the lowest vertex, eliminating on a dense
// adjacency matrix; it returns the order and the fill.
func bfReferenceOrder(nb int, pairs []int) ([]int32, int) {
	adj := make([][]bool, nb)
	for i := range adj {
		adj[i] = make([]bool, nb)
	}
	deg := make([]int, nb)
	link := func(a, b int) {
		if !adj[a][b] {
			adj[a][b], adj[b][a] = true, true
			deg[a]++
			deg[b]++
		}
	}
	for j := 0; j < len(pairs); j += 2 {
		link(pairs[j], pairs[j+1])
	}
	done := make([]bool, nb)
	var order []int32
	fill := 0
	for range nb {
		v := -1
		for u := range nb {
			if !done[u] && (v < 0 || deg[u] < deg[v]) {
				v = u
			}
		}
		var nbr []int
		for u := range nb {
			if adj[v][u] && !done[u] {
				nbr = append(nbr, u)
				deg[u]--
			}
		}
		for _, a := range nbr {
			for _, b := range nbr {
				if a < b {
					link(a, b)
				}
			}
		}
		done[v] = true
		order = append(order, int32(v))
		fill += len(nbr)
	}
	return order, fill
}

func TestBodyFactorOrderMatchesReference(t *testing.T) {
	rng := newRand(11)
	var f bodyFactor
	for _, c := range []struct {
		nb int
		r  float64
	}{{400, 0.2}, {400, 0.12}, {200, 0.35}, {50, 0.1}} {
		pairs := bfGeometric(bfRandomPoints(rng, c.nb), c.r)
		f.analyse(bfSizes(c.nb, 1), pairs)
		order, fill := bfReferenceOrder(c.nb, pairs)
		if !slices.Equal(f.perm, order) || f.fill() != fill {
			t.Fatalf("%d blocks, %d pairs: order or fill (%d, want %d) differs from the reference", c.nb, len(pairs)/2, f.fill(), fill)
		}
	}
	// A hypercube's eliminations fill much more than its edges: the elimination graph outgrows
	// its first arena.
	var cube []int
	for v := range 256 {
		for b := 1; b < 256; b <<= 1 {
			if v&b == 0 {
				cube = append(cube, v, v|b)
			}
		}
	}
	var g bodyFactor
	g.analyse(bfSizes(256, 1), cube)
	order, fill := bfReferenceOrder(256, cube)
	if !slices.Equal(g.perm, order) || g.fill() != fill {
		t.Fatalf("hypercube: order or fill (%d, want %d) differs from the reference", g.fill(), fill)
	}
}

func TestBodyFactorRefusesNonPositiveDefinite(t *testing.T) {
	var f bodyFactor
	f.analyse([]int{1, 2}, []int{0, 1})
	// Both diagonal entries stay positive but the determinant is negative.
	load := func(c float64) {
		f.zero()
		f.addDiagonal(0, []float64{1})
		f.addDiagonal(1, []float64{c, 0, 0, 1})
		f.addRow(0, []float64{1}, 1, []float64{1, 0}, 0.75)
	}
	load(-0.5)
	if f.factor() {
		t.Fatal("factor accepted an indefinite matrix")
	}
	load(math.NaN())
	if f.factor() {
		t.Fatal("factor accepted a NaN pivot")
	}
	f.analyse([]int{3}, nil)
	f.zero()
	f.addDiagonal(0, []float64{1, 0, 0, 0, 0, 0, 0, 0, 1})
	if f.factor() {
		t.Fatal("factor accepted a singular matrix")
	}
	// After zero the same value works again.
	f.analyse([]int{1, 2}, []int{0, 1})
	load(0.5)
	if !f.factor() {
		t.Fatal("factor refused an SPD matrix")
	}
	x := []float64{1, 2, 3}
	f.solve(x)
	// K = [[1.75, 0.75, 0], [0.75, 1.25, 0], [0, 0, 1]].
	if want := []float64{(1.25 - 1.5) / 1.625, (3.5 - 0.75) / 1.625, 3}; math.Abs(x[0]-want[0])+math.Abs(x[1]-want[1])+math.Abs(x[2]-want[2]) > 1e-14 {
		t.Fatalf("solve %v, want %v", x, want)
	}
}

func TestBodyFactorEmpty(t *testing.T) {
	var f bodyFactor
	f.analyse(nil, nil)
	if !f.factor() {
		t.Fatal("factor of an empty matrix failed")
	}
	f.solve(nil)
}

func TestBodyFactorRejectsMisuse(t *testing.T) {
	for name, call := range map[string]func(f *bodyFactor){
		"odd pairs": func(f *bodyFactor) {
			//lint:ignore SA5012 the misuse under test
			f.analyse(bfSizes(2, 1), []int{0, 1, 0})
		},
		"negative size":      func(f *bodyFactor) { f.analyse([]int{1, -1}, nil) },
		"block out of range": func(f *bodyFactor) { f.analyse(bfSizes(2, 1), []int{0, 2}) },
		"self pair":          func(f *bodyFactor) { f.analyse(bfSizes(2, 1), []int{1, 1}) },
		"unknown pair": func(f *bodyFactor) {
			f.analyse(bfSizes(3, 1), []int{0, 1})
			f.addRow(0, []float64{1}, 2, []float64{1}, 1)
		},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			var f bodyFactor
			call(&f)
		}()
	}
	// A row on no block adds nothing.
	var f bodyFactor
	f.analyse([]int{1}, nil)
	f.addRow(-1, nil, -1, nil, 1)
	f.addDiagonal(0, []float64{4})
	if !f.factor() {
		t.Fatal("factor failed")
	}
	x := []float64{2}
	f.solve(x)
	if x[0] != 0.5 {
		t.Fatalf("solve %v, want 0.5", x[0])
	}
}

func TestBodyFactorIsDeterministic(t *testing.T) {
	rng := newRand(3)
	s := bfRandomScript(rng, bfSizes(300, 6), bfGeometric(bfRandomPoints(rng, 300), 0.2), 2)
	b := make([]float64, 1800)
	for i := range b {
		b[i] = rng.NormFloat64()
	}
	run := func(f *bodyFactor) ([]float64, int) {
		f.analyse(s.size, s.pairs)
		s.load(f)
		if !f.factor() {
			t.Fatal("factor failed")
		}
		x := slices.Clone(b)
		f.solve(x)
		return x, f.work()
	}
	var f, g bodyFactor
	x0, w0 := run(&f)
	x1, w1 := run(&f)
	x2, w2 := run(&g)
	for i := range x0 {
		if math.Float64bits(x0[i]) != math.Float64bits(x1[i]) || math.Float64bits(x0[i]) != math.Float64bits(x2[i]) {
			t.Fatalf("entry %d differs: %v %v %v", i, x0[i], x1[i], x2[i])
		}
	}
	if w0 != w1 || w0 != w2 {
		t.Fatalf("work differs: %d %d %d", w0, w1, w2)
	}
}

func TestBodyFactorDoesNotAllocateWhenWarm(t *testing.T) {
	rng := newRand(5)
	big := bfRandomScript(rng, bfSizes(632, 6), bfHeap(25, 26, 632, 2, 2), 1)
	small := bfRandomScript(rng, bfSizes(144, 6), bfGrid(12, 12), 2)
	x := make([]float64, 632*6)
	var f bodyFactor
	round := func(s *bfScript) {
		f.analyse(s.size, s.pairs)
		s.load(&f)
		if !f.factor() {
			t.Fatal("factor failed")
		}
		f.solve(x[:f.n])
	}
	round(big)
	if a := testing.AllocsPerRun(5, func() { round(big) }); a != 0 {
		t.Fatalf("%v allocations per warm round", a)
	}
	if a := testing.AllocsPerRun(5, func() { round(small); round(big) }); a != 0 {
		t.Fatalf("%v allocations per warm round of a smaller pattern", a)
	}
}

func BenchmarkBodyFactor(b *testing.B) {
	pairs := bfHeap(25, 26, 632, 2, 1)
	s := bfRandomScript(newRand(1), bfSizes(632, 6), pairs, 1)
	var f bodyFactor
	f.analyse(s.size, s.pairs)
	s.load(&f)
	loaded := slices.Clone(f.val)
	if !f.factor() {
		b.Fatal("factor failed")
	}
	x := make([]float64, f.n)
	report := func(b *testing.B) {
		b.ReportMetric(float64(f.work()), "madds")
		b.ReportMetric(float64(len(pairs)/2), "pairs")
		b.ReportMetric(float64(f.fill()), "Lblocks")
	}
	b.Run("analyse", func(b *testing.B) {
		for b.Loop() {
			f.analyse(s.size, s.pairs)
		}
		s.load(&f)
		f.factor()
		report(b)
	})
	b.Run("factor", func(b *testing.B) {
		for b.Loop() {
			b.StopTimer()
			copy(f.val, loaded)
			b.StartTimer()
			f.factor()
		}
		report(b)
	})
	b.Run("solve", func(b *testing.B) {
		for b.Loop() {
			f.solve(x)
		}
	})
	b.Run("analyse5000", func(b *testing.B) {
		pairs := bfHeap(71, 71, 5000, 2, 1)
		size := bfSizes(5000, 6)
		var g bodyFactor
		g.analyse(size, pairs)
		for b.Loop() {
			g.analyse(size, pairs)
		}
		b.ReportMetric(float64(len(pairs)/2), "pairs")
		b.ReportMetric(float64(g.fill()), "Lblocks")
	})
}
