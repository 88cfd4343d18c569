package collide

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
)

// referenceShoelace returns twice the absolute shoelace area of the projected polygon
// (i, j, k, l), summed from absolute coordinates: the formula bestQuad used before it read
// hull areas from a triangle table. Kept as the reference the table is checked against.
func referenceShoelace(p *plane2, i, j, k, l int) float64 {
	s := p.x[i]*p.y[j] - p.x[j]*p.y[i] + p.x[j]*p.y[k] - p.x[k]*p.y[j] + p.x[k]*p.y[l] - p.x[l]*p.y[k] + p.x[l]*p.y[i] - p.x[i]*p.y[l]
	return math.Abs(s)
}

// referenceHullArea4 returns twice the hull area of four projected points the way bestQuad
// used to: the largest of the three quadrilateral orderings and the four triangles.
func referenceHullArea4(p *plane2, a, b, c, d int) float64 {
	m := fmax(referenceShoelace(p, a, b, c, d), fmax(referenceShoelace(p, a, b, d, c), referenceShoelace(p, a, c, b, d)))
	m = fmax(m, fmax(math.Abs(p.tri(a, b, c)), math.Abs(p.tri(a, b, d))))
	return fmax(m, fmax(math.Abs(p.tri(a, c, d)), math.Abs(p.tri(b, c, d))))
}

// referenceBestQuad is bestQuad as it was before the triangle table: every 4-subset's hull
// area computed from scratch with referenceHullArea4, under the same selection rule.
func referenceBestQuad(cs *candidates, n mgl64.Vec3) [quadPoints]int {
	var p plane2
	cs.project2(n, &p)
	deep := referenceDeepest(cs)
	best := [quadPoints]int{0, 1, 2, 3}
	bestArea, bestDepth := -1.0, 0.0
	scale := reduceScale(cs, &p)
	tol := 1e-9 * scale * scale
	for a := 0; a < cs.n; a++ {
		for b := a + 1; b < cs.n; b++ {
			for c := b + 1; c < cs.n; c++ {
				for d := c + 1; d < cs.n; d++ {
					if a != deep && b != deep && c != deep && d != deep {
						continue
					}
					area := referenceHullArea4(&p, a, b, c, d)
					depth := -(cs.c[a].Gap + cs.c[b].Gap + cs.c[c].Gap + cs.c[d].Gap)
					if area > bestArea+tol || (area > bestArea-tol && depth > bestDepth+1e-9*scale) {
						best, bestArea, bestDepth = [quadPoints]int{a, b, c, d}, area, depth
					}
				}
			}
		}
	}
	return best
}

// referenceDeepest is the index of the candidate with the smallest gap, the first among ties: the
// one every kept subset must hold.
func referenceDeepest(cs *candidates) int {
	deep := 0
	for i := range cs.n {
		if cs.c[i].Gap < cs.c[deep].Gap {
			deep = i
		}
	}
	return deep
}

// reduceScale returns the extent bestQuad measures its tolerances by: the largest coordinate
// difference from the first projected candidate.
func reduceScale(cs *candidates, p *plane2) float64 {
	scale := 0.0
	for i := 0; i < cs.n; i++ {
		scale = fmax(scale, fmax(math.Abs(p.x[i]-p.x[0]), math.Abs(p.y[i]-p.y[0])))
	}
	return scale
}

// quadSubset is one 4-subset in bestQuad's loop order, with its exact doubled hull area, the
// doubled hull area from the old formulas, and its depth (summed −Gap, as bestQuad sums it).
type quadSubset struct {
	idx      [quadPoints]int
	exact    *big.Rat
	oldArea  float64
	depth    float64
	exactF64 float64
}

// exactSubsets lists every 4-subset holding the deepest candidate, of the projected candidates in loop order with its hull
// area computed exactly (rational arithmetic on the projected float64 coordinates), as the
// largest of the three quadrilateral orderings and the four triangles.
func exactSubsets(cs *candidates, p *plane2) []quadSubset {
	var x, y [maxCandidates]*big.Rat
	for i := 0; i < cs.n; i++ {
		x[i] = new(big.Rat).SetFloat64(p.x[i])
		y[i] = new(big.Rat).SetFloat64(p.y[i])
	}
	var tri [maxCandidates][maxCandidates][maxCandidates]*big.Rat
	for i := 0; i < cs.n; i++ {
		for j := i + 1; j < cs.n; j++ {
			for k := j + 1; k < cs.n; k++ {
				dxj, dyj := new(big.Rat).Sub(x[j], x[i]), new(big.Rat).Sub(y[j], y[i])
				dxk, dyk := new(big.Rat).Sub(x[k], x[i]), new(big.Rat).Sub(y[k], y[i])
				tri[i][j][k] = new(big.Rat).Sub(new(big.Rat).Mul(dxj, dyk), new(big.Rat).Mul(dxk, dyj))
			}
		}
	}
	absMax := func(vs ...*big.Rat) *big.Rat {
		m := new(big.Rat)
		for _, v := range vs {
			if a := new(big.Rat).Abs(v); a.Cmp(m) > 0 {
				m = a
			}
		}
		return m
	}
	var out []quadSubset
	deep := referenceDeepest(cs)
	for a := 0; a < cs.n; a++ {
		for b := a + 1; b < cs.n; b++ {
			for c := b + 1; c < cs.n; c++ {
				for d := c + 1; d < cs.n; d++ {
					if a != deep && b != deep && c != deep && d != deep {
						continue
					}
					abc, abd, acd, bcd := tri[a][b][c], tri[a][b][d], tri[a][c][d], tri[b][c][d]
					area := absMax(
						new(big.Rat).Add(abc, acd), // shoelace (a, b, c, d)
						new(big.Rat).Sub(abd, acd), // shoelace (a, b, d, c)
						new(big.Rat).Sub(abd, abc), // shoelace (a, c, b, d)
						abc, abd, acd, bcd)
					f, _ := area.Float64()
					out = append(out, quadSubset{
						idx:      [quadPoints]int{a, b, c, d},
						exact:    area,
						oldArea:  referenceHullArea4(p, a, b, c, d),
						depth:    -(cs.c[a].Gap + cs.c[b].Gap + cs.c[c].Gap + cs.c[d].Gap),
						exactF64: f,
					})
				}
			}
		}
	}
	return out
}

// ruleHistory runs bestQuad's selection rule over the subsets in loop order and returns the
// subsets that became the best, in order (the last one is the pick). exact chooses between
// exact hull areas and the old formulas' float areas; depths are the same for both.
func ruleHistory(subsets []quadSubset, tol, depthTol float64, exact bool) []int {
	var history []int
	bestDepth := 0.0
	for i := range subsets {
		s := &subsets[i]
		var above, within bool
		switch {
		case exact:
			diff := new(big.Rat).Add(s.exact, big.NewRat(1, 1)) // the best area starts at −1
			if len(history) > 0 {
				diff = new(big.Rat).Sub(s.exact, subsets[history[len(history)-1]].exact)
			}
			t := new(big.Rat).SetFloat64(tol)
			above, within = diff.Cmp(t) > 0, diff.Cmp(new(big.Rat).Neg(t)) > 0
		default:
			bestArea := -1.0
			if len(history) > 0 {
				bestArea = subsets[history[len(history)-1]].oldArea
			}
			above, within = s.oldArea > bestArea+tol, s.oldArea > bestArea-tol
		}
		if above || (within && s.depth > bestDepth+depthTol) {
			history = append(history, i)
			bestDepth = s.depth
		}
	}
	return history
}

// exactMargin returns the smallest distance, over the comparisons of the exact rule's run,
// between an exact area difference and ±tol: how close rounding of the areas would have to
// come to change one of its decisions.
func exactMargin(subsets []quadSubset, history []int, tol float64) float64 {
	margin := math.Inf(1)
	best, next := -1, 0
	for i := range subsets {
		if best >= 0 {
			f, _ := new(big.Rat).Sub(subsets[i].exact, subsets[best].exact).Float64()
			margin = math.Min(margin, math.Abs(math.Abs(f)-tol))
		}
		if next < len(history) && history[next] == i {
			best, next = i, next+1
		}
	}
	return margin
}

// divergence describes where the old formulas' run of the rule first decides differently from
// the exact run: subset step was taken by one run and not the other, with best the common best
// before it (−1 if none).
type divergence struct {
	step, best int
	// margin is how far the exact area difference of step and best lies from ±tol, and
	// oldError the rounding error of the old areas of the two: the old run's decision is a
	// rounding artefact when margin ≤ oldError.
	margin, oldError float64
	// cascade reports whether either run changed its best again after step, so the two picks
	// may differ by more than the tolerance (the tie rule is not transitive).
	cascade bool
}

// firstDivergence compares the histories of the old and exact runs; ok is false if they agree.
func firstDivergence(subsets []quadSubset, oldHistory, exactHistory []int, tol float64) (d divergence, ok bool) {
	k := 0
	for k < len(oldHistory) && k < len(exactHistory) && oldHistory[k] == exactHistory[k] {
		k++
	}
	if k == len(oldHistory) && k == len(exactHistory) {
		return d, false
	}
	d.step, d.best = math.MaxInt, -1
	if k < len(oldHistory) {
		d.step = oldHistory[k]
	}
	if k < len(exactHistory) {
		d.step = min(d.step, exactHistory[k])
	}
	if k > 0 {
		d.best = oldHistory[k-1]
	}
	s := &subsets[d.step]
	diff := new(big.Rat).Add(s.exact, big.NewRat(1, 1))
	d.oldError = math.Abs(s.oldArea - s.exactF64)
	if d.best >= 0 {
		b := &subsets[d.best]
		diff = new(big.Rat).Sub(s.exact, b.exact)
		d.oldError += math.Abs(b.oldArea - b.exactF64)
	}
	f, _ := diff.Float64()
	d.margin = math.Abs(math.Abs(f) - tol)
	later := 0 // updates after the divergent step, in either run
	for _, h := range [][]int{oldHistory, exactHistory} {
		for _, i := range h[k:] {
			if i > d.step {
				later++
			}
		}
	}
	d.cascade = later > 0
	return d, true
}

// reduceCase is one generated candidate set: the candidates and the normal they are reduced along.
type reduceCase struct {
	cs candidates
	n  mgl64.Vec3
}

// planePoints lifts 2D points (u, v) onto the plane through origin with normal n, in an in-plane
// basis turned by a random angle, each moved along n by half its gap as a contact point would be.
func planePoints(r *rand.Rand, origin, n mgl64.Vec3, u, v, gaps []float64) reduceCase {
	t1, t2 := tangentBasis(n)
	th := 2 * math.Pi * r.Float64()
	e1 := t1.Mul(math.Cos(th)).Add(t2.Mul(math.Sin(th)))
	e2 := n.Cross(e1)
	var rc reduceCase
	rc.n = n
	for i := range u {
		pt := origin.Add(e1.Mul(u[i])).Add(e2.Mul(v[i])).Add(n.Mul(0.5 * gaps[i]))
		rc.cs.add(Contact{Point: pt, Normal: n, Gap: gaps[i], Feature: FeatureID(i)})
	}
	return rc
}

// clipSquares returns the polygon where an axis-aligned square of half side h1 at the origin
// overlaps a square of half side h2 centred at (cx, cy) and turned by th: the incident face
// clipped against the reference face, as a box-box face contact builds it.
func clipSquares(h1, h2, cx, cy, th float64) (u, v []float64) {
	c, s := math.Cos(th), math.Sin(th)
	for _, corner := range [4][2]float64{{-1, -1}, {1, -1}, {1, 1}, {-1, 1}} {
		x, y := h2*corner[0], h2*corner[1]
		u = append(u, cx+c*x-s*y)
		v = append(v, cy+s*x+c*y)
	}
	// Clip against the four half-planes ±u ≤ h1, ±v ≤ h1 (Sutherland–Hodgman).
	for _, plane := range [4][3]float64{{1, 0, h1}, {-1, 0, h1}, {0, 1, h1}, {0, -1, h1}} {
		var nu, nv []float64
		for i := range u {
			j := (i + 1) % len(u)
			di := plane[0]*u[i] + plane[1]*v[i] - plane[2]
			dj := plane[0]*u[j] + plane[1]*v[j] - plane[2]
			if di <= 0 {
				nu, nv = append(nu, u[i]), append(nv, v[i])
			}
			if (di < 0 && dj > 0) || (di > 0 && dj < 0) {
				t := di / (di - dj)
				nu, nv = append(nu, u[i]+t*(u[j]-u[i])), append(nv, v[i]+t*(v[j]-v[i]))
			}
		}
		u, v = nu, nv
	}
	return u, v
}

// tiltedGaps returns gaps of a slightly tilted incident face: g0 plus a small slope along a
// random direction, or all exactly g0 (a level face: every subset equally deep) when level.
func tiltedGaps(r *rand.Rand, u, v []float64, level bool) []float64 {
	g0 := -0.02 * r.Float64()
	sx, sy := 1e-3*(2*r.Float64()-1), 1e-3*(2*r.Float64()-1)
	gaps := make([]float64, len(u))
	for i := range u {
		gaps[i] = g0
		if !level {
			gaps[i] += sx*u[i] + sy*v[i]
		}
	}
	return gaps
}

// levelGaps returns k gaps on three levels, so that many subsets tie in depth or differ by a few
// level steps. The step is either coarse or a small multiple of bestQuad's depth tolerance
// (1e-9·scale, scale being about size), so depth ties are decided near that tolerance.
func levelGaps(r *rand.Rand, k int, size float64) []float64 {
	step := []float64{0.005, 0.3e-9 * size, 0.7e-9 * size, 2e-9 * size, 4e-9 * size, 40e-9 * size}[r.IntN(6)]
	g0 := -0.01 * r.Float64()
	gaps := make([]float64, k)
	for i := range gaps {
		gaps[i] = g0 - step*float64(r.IntN(3))
	}
	return gaps
}

// reduceFamilies are the generators of candidate sets for TestBestQuadMatchesReference. Each
// returns 2D points with gaps; the caller places them in 3D.
var reduceFamilies = []struct {
	name string
	gen  func(r *rand.Rand) (u, v, gaps []float64)
}{
	{"uniform", func(r *rand.Rand) (u, v, gaps []float64) {
		size := math.Pow(10, -2+2.5*r.Float64())
		for range 5 + r.IntN(4) {
			u, v = append(u, size*(2*r.Float64()-1)), append(v, size*(2*r.Float64()-1))
			gaps = append(gaps, -0.01*r.Float64())
		}
		return u, v, gaps
	}},
	{"jittered-tower", func(r *rand.Rand) (u, v, gaps []float64) {
		for {
			j := 0.02 * r.Float64()
			u, v = clipSquares(0.5, 0.5, j*(2*r.Float64()-1), j*(2*r.Float64()-1), j*(2*r.Float64()-1))
			if len(u) >= 5 && len(u) <= exhaustiveReduceLimit {
				return u, v, tiltedGaps(r, u, v, r.IntN(2) == 0)
			}
		}
	}},
	{"clipped", func(r *rand.Rand) (u, v, gaps []float64) {
		for {
			h1, h2 := 0.1+r.Float64(), 0.1+r.Float64()
			u, v = clipSquares(h1, h2, h1*(2*r.Float64()-1), h1*(2*r.Float64()-1), math.Pi*r.Float64())
			if len(u) >= 5 && len(u) <= exhaustiveReduceLimit {
				return u, v, tiltedGaps(r, u, v, r.IntN(2) == 0)
			}
		}
	}},
	{"regular", func(r *rand.Rand) (u, v, gaps []float64) {
		k := 5 + r.IntN(4)
		rad, th := 0.1+r.Float64(), 2*math.Pi*r.Float64()
		for i := range k {
			a := th + 2*math.Pi*float64(i)/float64(k)
			u, v = append(u, rad*math.Cos(a)), append(v, rad*math.Sin(a))
		}
		return u, v, levelGaps(r, k, rad)
	}},
	{"grid", func(r *rand.Rand) (u, v, gaps []float64) {
		step := 0.05 + 0.5*r.Float64()
		k := 5 + r.IntN(4)
		for range k {
			u, v = append(u, step*float64(r.IntN(4))), append(v, step*float64(r.IntN(4)))
		}
		return u, v, levelGaps(r, k, step)
	}},
	{"collinear", func(r *rand.Rand) (u, v, gaps []float64) {
		dx, dy := 2*r.Float64()-1, 2*r.Float64()-1
		noise := []float64{0, 1e-12, 1e-7}[r.IntN(3)]
		for range 5 + r.IntN(4) {
			t := 2*r.Float64() - 1
			u, v = append(u, t*dx+noise*r.NormFloat64()), append(v, t*dy+noise*r.NormFloat64())
			gaps = append(gaps, -0.01*r.Float64())
		}
		if r.IntN(2) == 0 { // one point off the line
			u[r.IntN(len(u))] += 0.3 * dy
		}
		return u, v, gaps
	}},
	{"duplicates", func(r *rand.Rand) (u, v, gaps []float64) {
		distinct := 2 + r.IntN(3)
		for range distinct {
			u, v = append(u, 2*r.Float64()-1), append(v, 2*r.Float64()-1)
			gaps = append(gaps, -0.01*float64(r.IntN(2)))
		}
		count := 5 + r.IntN(4)
		for len(u) < count {
			i := r.IntN(distinct)
			jitter := []float64{0, 1e-13, 1e-9}[r.IntN(3)]
			u, v = append(u, u[i]+jitter*r.NormFloat64()), append(v, v[i]+jitter*r.NormFloat64())
			gaps = append(gaps, gaps[i])
		}
		return u, v, gaps
	}},
}

// TestBestQuadMatchesReference checks bestQuad on random candidate sets of every family, each
// near the origin and 1000 m away, against the selection rule applied to exact hull areas, and
// against the old implementation (referenceBestQuad). bestQuad must pick what the exact rule
// picks unless a decision of that rule sits within rounding of the tolerance; where the old
// implementation picks differently, its own rounding error must explain it.
func TestBestQuadMatchesReference(t *testing.T) {
	r := newRand(31)
	iterations := 150
	if testing.Short() {
		iterations = 60
	}
	for _, fam := range reduceFamilies {
		for _, far := range []bool{false, true} {
			name := fam.name
			if far {
				name += "/far"
			}
			differOld, oldWrong, cascades := 0, 0, 0
			for it := 0; it < iterations; it++ {
				u, v, gaps := fam.gen(r)
				n := randUnit(r)
				if r.IntN(4) == 0 {
					n = mgl64.Vec3{0, 0, 1}
				}
				origin := randInCube(r, 2)
				if far {
					origin = origin.Add(randUnit(r).Mul(1000))
				}
				rc := planePoints(r, origin, n, u, v, gaps)
				cs := &rc.cs

				got := cs.bestQuad(rc.n, 1<<cs.deepest())
				old := referenceBestQuad(cs, rc.n)
				for i := 1; i < len(got); i++ {
					if got[i] <= got[i-1] || got[0] < 0 || got[len(got)-1] >= cs.n {
						t.Fatalf("%s #%d: indices %v not increasing within [0, %d)", name, it, got, cs.n)
					}
				}

				var p plane2
				cs.project2(rc.n, &p)
				scale := reduceScale(cs, &p)
				tol, depthTol := 1e-9*scale*scale, 1e-9*scale
				// bestQuad's own rounding: a few ulps of the doubled triangle areas, which are
				// at most 8·scale² (coordinate differences up to 2·scale).
				rounding := 1e-12 * scale * scale
				subsets := exactSubsets(cs, &p)
				exactHistory := ruleHistory(subsets, tol, depthTol, true)
				exactPick := subsets[exactHistory[len(exactHistory)-1]].idx
				if got != exactPick {
					margin := exactMargin(subsets, exactHistory, tol)
					if margin > rounding {
						t.Fatalf("%s #%d: bestQuad picks %v, the exact rule %v (closest decision %.3g from ±tol = %.3g)\n%+v",
							name, it, got, exactPick, margin, tol, cs.c[:cs.n])
					}
					t.Logf("%s #%d: bestQuad picks %v, the exact rule %v, a decision %.3g from ±tol", name, it, got, exactPick, margin)
				}
				oldHistory := ruleHistory(subsets, tol, depthTol, false)
				if subsets[oldHistory[len(oldHistory)-1]].idx != old {
					t.Fatalf("%s #%d: the old rule's replay picks %v, referenceBestQuad %v", name, it, subsets[oldHistory[len(oldHistory)-1]].idx, old)
				}
				if old != exactPick {
					oldWrong++
					d, ok := firstDivergence(subsets, oldHistory, exactHistory, tol)
					if !ok || d.margin > d.oldError+rounding {
						t.Fatalf("%s #%d: old code picks %v, the exact rule %v, not explained by rounding (%+v)",
							name, it, old, exactPick, d)
					}
					gotArea, oldArea := exactAreaOf(subsets, got), exactAreaOf(subsets, old)
					if d.cascade {
						cascades++
						t.Logf("%s #%d: a cascade of ties after a rounding-decided step leaves the picks %.3g·tol apart in area",
							name, it, math.Abs(gotArea-oldArea)/tol)
					} else if math.Abs(gotArea-oldArea) > tol+d.oldError+rounding {
						t.Fatalf("%s #%d: bestQuad %v and old %v differ in doubled hull area by %.3g, more than tol %.3g",
							name, it, got, old, gotArea-oldArea, tol)
					}
				}
				if got != old {
					differOld++
					t.Logf("%s #%d: bestQuad %v (doubled area %.17g), old %v (%.17g), tol %.3g",
						name, it, got, exactAreaOf(subsets, got), old, exactAreaOf(subsets, old), tol)
				}
			}
			t.Logf("%s: %d sets; the old code differs from the exact rule in %d (%d of them through a cascade of ties), bestQuad from the old code in %d",
				name, iterations, oldWrong, cascades, differOld)
		}
	}
}

// exactAreaOf returns the exact doubled hull area of the subset idx, rounded to float64.
func exactAreaOf(subsets []quadSubset, idx [quadPoints]int) float64 {
	for _, s := range subsets {
		if s.idx == idx {
			return s.exactF64
		}
	}
	return math.NaN()
}

// TestBestQuadHullAreaIdentity checks, on exact rationals, the identity bestQuad relies on:
// for four points the four triangle areas sum to twice the hull area, which the old formulas
// found as the largest of three quadrilateral orderings and four triangles.
func TestBestQuadHullAreaIdentity(t *testing.T) {
	r := newRand(32)
	for it := 0; it < 2000; it++ {
		var pts [4][2]*big.Rat
		for i := range pts {
			for k := range pts[i] {
				// Small integers make collinear, duplicate and nested cases common.
				pts[i][k] = big.NewRat(int64(r.IntN(7))-3, 1)
			}
		}
		tri := func(i, j, k int) *big.Rat {
			dxj := new(big.Rat).Sub(pts[j][0], pts[i][0])
			dyj := new(big.Rat).Sub(pts[j][1], pts[i][1])
			dxk := new(big.Rat).Sub(pts[k][0], pts[i][0])
			dyk := new(big.Rat).Sub(pts[k][1], pts[i][1])
			return new(big.Rat).Sub(new(big.Rat).Mul(dxj, dyk), new(big.Rat).Mul(dxk, dyj))
		}
		abc, abd, acd, bcd := tri(0, 1, 2), tri(0, 1, 3), tri(0, 2, 3), tri(1, 2, 3)
		sum := new(big.Rat)
		largest := new(big.Rat)
		for _, v := range []*big.Rat{abc, abd, acd, bcd,
			new(big.Rat).Add(abc, acd), new(big.Rat).Sub(abd, acd), new(big.Rat).Sub(abd, abc)} {
			if a := new(big.Rat).Abs(v); a.Cmp(largest) > 0 {
				largest = a
			}
		}
		for _, v := range []*big.Rat{abc, abd, acd, bcd} {
			sum.Add(sum, new(big.Rat).Abs(v))
		}
		if sum.Cmp(new(big.Rat).Mul(largest, big.NewRat(2, 1))) != 0 {
			t.Fatalf("points %v: triangle areas sum to %v, twice the hull is %v", pts, sum, new(big.Rat).Mul(largest, big.NewRat(2, 1)))
		}
	}
}

// TestEmitKeepsBestQuadOrder checks that emit with 5–8 candidates writes bestQuad's subset in
// candidate order.
func TestEmitKeepsBestQuadOrder(t *testing.T) {
	r := newRand(33)
	for it := 0; it < 200; it++ {
		u, v, gaps := reduceFamilies[0].gen(r)
		rc := planePoints(r, randInCube(r, 2), randUnit(r), u, v, gaps)
		var m Manifold
		rc.cs.emit(rc.n, &m)
		want := referenceBestQuad(&rc.cs, rc.n)
		if m.Count != quadPoints {
			t.Fatalf("#%d: %d points", it, m.Count)
		}
		for k, i := range want {
			if m.Points[k] != rc.cs.c[i] {
				t.Fatalf("#%d: point %d is %+v, want candidate %d %+v", it, k, m.Points[k], i, rc.cs.c[i])
			}
		}
	}
}

// TestEmitKeepsDeepest checks that the reduction keeps the touching point of a body about to
// rest on it: four speculative corners at the margin around one point already touching, whose
// largest-area subset would be the corners alone.
func TestEmitKeepsDeepest(t *testing.T) {
	n := mgl64.Vec3{0, 0, 1}
	var cs candidates
	for i, p := range []mgl64.Vec3{{-1, -1, 0}, {1, -1, 0}, {0.1, 0.2, 0}, {1, 1, 0}, {-1, 1, 0}} {
		gap := 0.015
		if i == 2 {
			gap = -1e-3
		}
		cs.add(Contact{Point: p, Normal: n, Gap: gap, Feature: MakeFeatureID(VertexFeature(i), FaceFeature(0))})
	}
	var m Manifold
	cs.emit(n, &m)
	kept := false
	for i := 0; i < m.Count; i++ {
		kept = kept || m.Points[i].Gap < 0
	}
	if m.Count != quadPoints || !kept {
		t.Fatalf("emit kept %d points %+v; want %d with the touching one", m.Count, m.Points[:m.Count], quadPoints)
	}
}

// TestThinBoardOnGroundKeepsBottomCorners collides a 1 cm board lying on the ground, tilted by
// about a degree, with a margin that takes in all eight corners. The manifold must hold the four
// bottom corners: each top corner lies a few tenths of a millimetre (in plan) from the bottom one
// beneath it, so keeping it instead gains almost no area and leaves that bottom corner free to
// sink (which it did, a centimetre a step, in a card house's base).
func TestThinBoardOnGroundKeepsBottomCorners(t *testing.T) {
	board, err := NewBox(mgl64.Vec3{0.005, 0.3, 0.45})
	if err != nil {
		t.Fatal(err)
	}
	ground, err := NewHalfSpace(mgl64.Vec3{0, 0, 1}, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, rot := range []mgl64.Quat{
		{W: 0.715, V: mgl64.Vec3{-0.009361, 0.699, 0.00452}},
		{W: 0.7138, V: mgl64.Vec3{-0.003526, 0.7002, 0.01043}},
		{W: 0.7071, V: mgl64.Vec3{0.004, 0.7071, -0.006}},
	} {
		pose := Pose{Position: mgl64.Vec3{1.093, 0.004, 0.0115}, Rotation: rot.Normalize()}
		var m Manifold
		if _, err := Collide(ground, Pose{Rotation: mgl64.QuatIdent()}, board, pose, 0.05, nil, &m); err != nil {
			t.Fatal(err)
		}
		// The bottom face is the one whose outward normal points down.
		var bottom []float64
		for i := 0; i < 8; i++ {
			local := mgl64.Vec3{0.005, 0.3, 0.45}
			for k := 0; k < 3; k++ {
				if i>>k&1 == 1 {
					local[k] = -local[k]
				}
			}
			up := pose.Rotation.Rotate(mgl64.Vec3{1, 0, 0})
			if (pose.Rotation.Rotate(local).Dot(up) > 0) == (up[2] > 0) {
				continue // a top corner
			}
			bottom = append(bottom, pose.Position.Add(pose.Rotation.Rotate(local))[2])
		}
		if m.Count != 4 || len(bottom) != 4 {
			t.Fatalf("rotation %v: %d points, %d bottom corners", rot, m.Count, len(bottom))
		}
		for _, z := range bottom {
			found := false
			for _, c := range m.Contacts() {
				found = found || math.Abs(c.Gap-z) < 1e-9
			}
			if !found {
				t.Errorf("rotation %v: bottom corner at height %.5f is not in the manifold %+v", rot, z, m.Contacts())
			}
		}
	}
}

// A board turning onto another about the edge it touches along (a card struck onto a card in the
// impact scene): the motion drives the four points of its far half down, and the near edge's two
// corners touch, one of them 5 µm above. The manifold must keep both corners of that edge. When
// the far points competed only with touching points below approachTolerance, the corner 5 µm
// above was left out, the contacts turned the board about the kept points, and it sank 8 mm in
// the next step.
func TestKeepNeededKeepsTheTouchingEdgeOfATurningBoard(t *testing.T) {
	n := mgl64.Vec3{0, 0, 1}
	var cs candidates
	for _, c := range []struct{ x, y, gap float64 }{
		{-0.907, -0.287, 5e-6}, {-0.882, 0.307, -2.3e-5},
		{-0.405, 0.293, 0.0038}, {-0.246, 0.286, 0.0051}, {-0.264, -0.312, 0.0052}, {-0.426, -0.307, 0.0039},
	} {
		cs.add(Contact{Point: mgl64.Vec3{c.x, c.y, 0}, Normal: n, Gap: c.gap})
	}
	// B turns about the line x = −0.9 (the touching edge), its far half going down 6.7 mm.
	pm := pairMotion{b: Motion{Angular: mgl64.Vec3{0, 0.0102, 0}}, originB: mgl64.Vec3{-0.9, 0, 0}}
	driven := 0
	for i := 0; i < cs.n; i++ {
		if pm.predictedGap(&cs.c[i]) < 0 {
			driven++
		}
	}
	if driven != 5 {
		t.Fatalf("%d points driven down, want the far four and one corner", driven)
	}
	cs.keepNeeded(n, &pm)
	for _, corner := range []mgl64.Vec3{{-0.907, -0.287, 0}, {-0.882, 0.307, 0}} {
		found := false
		for i := 0; i < cs.n; i++ {
			found = found || cs.c[i].Point == corner
		}
		if !found {
			t.Errorf("the manifold %v leaves out the touching corner %v", cs.c[:cs.n], corner)
		}
	}
}
