package solver

import (
	"math"
	"math/rand/v2"
	"testing"
)

// randomDiscQP draws a 2×2 symmetric PSD G (well or badly conditioned, or singular), a linear
// term l and a radius r.
func randomDiscQP(rng *rand.Rand) (a, b, c, l1, l2, r float64) {
	th := rng.Float64() * math.Pi
	e1 := math.Exp(rng.NormFloat64() * 2)
	e2 := e1 * []float64{1, 0.5, 1e-3, 1e-9, 0}[rng.IntN(5)]
	cs, sn := math.Cos(th), math.Sin(th)
	a, b, c = e1*cs*cs+e2*sn*sn, (e1-e2)*cs*sn, e1*sn*sn+e2*cs*cs
	l1, l2 = rng.NormFloat64()*math.Exp(rng.NormFloat64()), rng.NormFloat64()*math.Exp(rng.NormFloat64())
	r = math.Exp(rng.NormFloat64())
	return
}

// TestDiscQPOptimality checks discQP's answer y against the KKT conditions of
// min ½yᵀGy + lᵀy over ‖y‖ ≤ r, independently of how it was found: y is feasible, and the
// gradient g = Gy + l either vanishes (y inside) or points into the disc along −y (y on the
// rim: g = −λy with λ ≥ 0), each to a tolerance relative to the problem's scale.
func TestDiscQPOptimality(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	for i := 0; i < 200000; i++ {
		a, b, c, l1, l2, r := randomDiscQP(rng)
		y1, y2 := discQP(a, b, c, l1, l2, r)
		n := math.Hypot(y1, y2)
		if !(n <= r*(1+1e-12)) {
			t.Fatalf("case %d: ‖y‖ = %v > r = %v", i, n, r)
		}
		g1, g2 := a*y1+b*y2+l1, b*y1+c*y2+l2
		scale := math.Hypot(l1, l2) + (a+c)*r
		switch {
		case n < r*(1-1e-9):
			if math.Hypot(g1, g2) > 1e-9*scale {
				t.Fatalf("case %d: inside the disc with gradient (%v, %v), scale %v", i, g1, g2, scale)
			}
		default:
			// On the rim: g ∥ −y. The part of g along the rim's tangent must vanish, and the part
			// along y must not be positive (it would pay to move inwards).
			tangent := (g1*-y2 + g2*y1) / n
			radial := (g1*y1 + g2*y2) / n
			if math.Abs(tangent) > 1e-9*scale || radial > 1e-9*scale {
				t.Fatalf("case %d: on the rim with tangential gradient %v and radial %v, scale %v", i, tangent, radial, scale)
			}
		}
	}
}

// BenchmarkDiscQP times the 2-D friction sub-problem on sticking contacts (the minimiser inside
// the disc, most calls in a pile) and sliding ones (on the rim).
func BenchmarkDiscQP(b *testing.B) {
	type qp struct{ a, b, c, l1, l2, r float64 }
	for _, inside := range []bool{true, false} {
		rng := rand.New(rand.NewPCG(1, 2))
		var qs []qp
		for len(qs) < 1024 {
			a, bb, c, l1, l2, r := randomDiscQP(rng)
			y1, y2 := discQP(a, bb, c, l1, l2, r)
			if (math.Hypot(y1, y2) < r*(1-1e-9)) == inside {
				qs = append(qs, qp{a, bb, c, l1, l2, r})
			}
		}
		name := map[bool]string{true: "inside", false: "rim"}[inside]
		b.Run(name, func(b *testing.B) {
			sum := 0.0
			for i := 0; i < b.N; i++ {
				q := &qs[i%len(qs)]
				y1, y2 := discQP(q.a, q.b, q.c, q.l1, q.l2, q.r)
				sum += y1 + y2
			}
			if math.IsNaN(sum) {
				b.Fatal("NaN")
			}
		})
	}
}

// TestCachedDiscMatchesDiscQP: the friction projection's discQP with each contact's
// eigen-decomposition cached for the solve gives discQP's answers to the bit, on and inside the
// rim, for the same contact called again with other l and r.
func TestCachedDiscMatchesDiscQP(t *testing.T) {
	rng := newRand(31)
	var fp frictionProjection
	fp.set.model = Disc
	const m = 50
	fp.eigen, fp.eigenSet = make([]discEigen, m), make([]bool, m)
	blocks := make([][3]float64, m)
	for k := range blocks {
		x, y, z := rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()
		blocks[k] = [3]float64{x*x + 1e-3, x * y, y*y + z*z + 1e-3}
	}
	rim := 0
	for i := 0; i < 5000; i++ {
		k := rng.IntN(m)
		g := blocks[k]
		l1, l2, r := rng.NormFloat64(), rng.NormFloat64(), math.Abs(rng.NormFloat64())
		w1, w2 := discQP(g[0], g[1], g[2], l1, l2, r)
		c1, c2 := fp.minimize(k, g[0], g[1], g[2], l1, l2, r)
		if w1 != c1 || w2 != c2 {
			t.Fatalf("call %d, contact %d: cached (%v, %v), discQP (%v, %v)", i, k, c1, c2, w1, w2)
		}
		if _, _, _, inside := discInside(g[0], g[1], g[2], l1, l2, r); !inside {
			rim++
		}
	}
	if rim < 1000 {
		t.Fatalf("only %d of the calls reached the rim", rim)
	}
}
