package collide

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
)

// TestClosestOnTriangle: for random triangles and points around them, the point returned is
// nowhere farther from p than the nearest of a dense grid of the triangle's points (by brute
// force), its weights are in [0, 1], sum to 1 and rebuild it, and its region names the feature
// they describe (a vertex: one weight 1; an edge: the opposite vertex's weight 0; the face: none 0).
func TestClosestOnTriangle(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 9))
	vec := func(s float64) mgl64.Vec3 {
		return mgl64.Vec3{s * (2*rng.Float64() - 1), s * (2*rng.Float64() - 1), s * (2*rng.Float64() - 1)}
	}
	const grid = 60
	regions := map[int]int{}
	for trial := 0; trial < 300; trial++ {
		a, b, c, p := vec(1), vec(1), vec(1), vec(2)
		if b.Sub(a).Cross(c.Sub(a)).Len() < 1e-3 {
			continue
		}
		q, w, region := ClosestOnTriangle(p, a, b, c)
		regions[region]++
		best := math.Inf(1)
		for i := 0; i <= grid; i++ {
			for j := 0; i+j <= grid; j++ {
				u, v := float64(i)/grid, float64(j)/grid
				x := a.Mul(1 - u - v).Add(b.Mul(u)).Add(c.Mul(v))
				best = math.Min(best, x.Sub(p).Len())
			}
		}
		if d := q.Sub(p).Len(); d > best+1e-12 {
			t.Fatalf("trial %d: distance %.6g, a grid point is at %.6g", trial, d, best)
		}
		sum := 0.0
		for _, x := range w {
			if x < -1e-12 || x > 1+1e-12 {
				t.Fatalf("trial %d: weights %v", trial, w)
			}
			sum += x
		}
		if math.Abs(sum-1) > 1e-12 || a.Mul(w[0]).Add(b.Mul(w[1])).Add(c.Mul(w[2])).Sub(q).Len() > 1e-12 {
			t.Fatalf("trial %d: weights %v do not rebuild %v", trial, w, q)
		}
		zero := [3]bool{w[0] == 0, w[1] == 0, w[2] == 0}
		want := map[int][3]bool{
			0: {false, false, false}, 1: {false, true, true}, 2: {true, false, true}, 3: {true, true, false},
			4: {false, false, true}, 5: {true, false, false}, 6: {false, true, false},
		}[region]
		if zero != want {
			t.Fatalf("trial %d: region %d with weights %v", trial, region, w)
		}
	}
	for r := 0; r <= 6; r++ {
		if regions[r] == 0 {
			t.Errorf("no trial fell in region %d: %v", r, regions)
		}
	}
}
