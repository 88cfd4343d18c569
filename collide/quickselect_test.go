package collide

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// quickselect puts at k what a full sort puts there, and splits the rest around it.
func TestQuickselectAgreesWithSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	less := func(a, b int) bool { return a < b }
	for trial := 0; trial < 500; trial++ {
		n := 1 + rng.IntN(60)
		s := make([]int, n)
		for i := range s {
			s[i] = rng.IntN(10) // many ties
		}
		sorted := slices.Clone(s)
		slices.Sort(sorted)
		k := rng.IntN(n)
		quickselect(s, k, less)
		if s[k] != sorted[k] {
			t.Fatalf("n %d k %d: s[k] = %d, sorted %d", n, k, s[k], sorted[k])
		}
		for i := range s {
			if i < k && s[i] > s[k] || i > k && s[i] < s[k] {
				t.Fatalf("n %d k %d: %v not split around s[k]", n, k, s)
			}
		}
	}
}
