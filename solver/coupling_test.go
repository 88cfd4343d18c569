package solver

import (
	"math"
	"testing"
)

// The coupling rows, computed lazily as the factors ask for them (normal entries, then tangent
// entries, then all), must equal the Delassus matrix that the operator applies to unit impulses,
// and must list exactly the lower contacts that share a body.
func TestDelassusCouplingMatchesOperator(t *testing.T) {
	var p Problem
	rng := newRand(21)
	randomProblem(&p, rng, []int{3, 6, 9}, 40, 200)
	if err := p.Validate(); err != nil {
		t.Fatal(err)
	}
	o := &operator{}
	o.compile(&p)
	all := make([]icMember, o.m)
	for k := range all {
		all[k] = icMember{k: k, lo: 0, hi: RowsPerSide, first: RowsPerSide * k}
	}
	_, a := denseDelassus(o, all)
	scale := 0.0
	for k := 0; k < o.m; k++ {
		scale = math.Max(scale, o.g[6*k])
	}

	var cp delassusCoupling
	cp.invalidate()
	for pass, rng := range [][2]int{{0, 1}, {1, 3}, {0, 3}} {
		need := entryMask(rng[0], rng[1])
		worst, listed := 0.0, 0
		for i := 0; i < o.m; i++ {
			k := i
			if pass == 0 {
				k = o.m - 1 - i // rows are listed lazily, in any order
			}
			nbr, val := cp.row(o, k, need)
			prev := -1
			for e, l := range nbr {
				if l <= prev || l > k {
					t.Fatalf("contact %d: neighbour %d after %d", k, l, prev)
				}
				prev = l
				listed++
				for r := 0; r < RowsPerSide; r++ {
					for q := 0; q < RowsPerSide; q++ {
						if need&(1<<(3*r+q)) != 0 {
							worst = math.Max(worst, math.Abs(val[9*e+3*r+q]-a[3*k+r][3*l+q]))
						}
					}
				}
			}
		}
		if worst > 1e-12*scale {
			t.Errorf("rows [%d,%d): blocks differ from the operator's by %.3g", rng[0], rng[1], worst)
		}
		// Every pair l ≤ k sharing a body is listed (k itself included), and no other pair is.
		want := 0
		for k := 0; k < o.m; k++ {
			for l := 0; l <= k; l++ {
				if shareBody(o, k, l) {
					want++
				}
			}
		}
		if listed != want {
			t.Errorf("rows [%d,%d): %d neighbour entries, want %d", rng[0], rng[1], listed, want)
		}
	}
}

// shareBody reports whether contacts k and l touch a common body.
func shareBody(o *operator, k, l int) bool {
	for s := 2 * k; s < 2*k+2; s++ {
		for t := 2 * l; t < 2*l+2; t++ {
			if o.sides[s].off >= 0 && o.sides[s].off == o.sides[t].off {
				return true
			}
		}
	}
	return false
}

// TestFusedRowKernelsMatchTheirParts: rowsDot is rowDot's normal row and tangentDot's two tangent
// rows, and addW3 is addW on the normal row followed by addWT, to the bit, on rigid and general
// blocks alike: the joint sticking solve uses the fused kernels where it used the parts, and its
// answers must not move.
func TestFusedRowKernelsMatchTheirParts(t *testing.T) {
	var p Problem
	rng := newRand(23)
	randomProblem(&p, rng, []int{3, 6, 9}, 30, 120)
	o := &operator{}
	o.compile(&p)
	v := make([]float64, o.ndof)
	for i := range v {
		v[i] = rng.NormFloat64()
	}
	for k := 0; k < o.m; k++ {
		n0, n1, n2 := o.rowsDot(k, v)
		w0 := o.rowDot(k, 0, v)
		w1, w2 := o.tangentDot(k, v)
		if n0 != w0 || n1 != w1 || n2 != w2 {
			t.Fatalf("contact %d: rowsDot (%v, %v, %v), the parts (%v, %v, %v)", k, n0, n1, n2, w0, w1, w2)
		}
		fused, parts := append([]float64(nil), v...), append([]float64(nil), v...)
		a := [3]float64{rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()}
		if k%4 == 1 {
			a[0] = 0
		}
		if k%4 == 2 {
			a[1], a[2] = 0, 0
		}
		o.addW3(k, a[0], a[1], a[2], fused)
		o.addW(k, 0, a[0], parts)
		o.addWT(k, a[1], a[2], parts)
		for i := range fused {
			if fused[i] != parts[i] {
				t.Fatalf("contact %d, DoF %d: addW3 gives %v, the parts %v", k, i, fused[i], parts[i])
			}
		}
	}
}
