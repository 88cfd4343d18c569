package deform

import (
	"math"
	"os"
	"strings"
	"testing"
)

// sameCoefficients reports whether two models hold bit-identical coefficients.
func sameCoefficients(a, b *ReducedStVK) bool {
	if a.r != b.r {
		return false
	}
	for _, pair := range [][2][]float64{{a.p, b.p}, {a.qm, b.qm}, {a.rw, b.rw}} {
		for i := range pair[0] {
			if math.Float64bits(pair[0][i]) != math.Float64bits(pair[1][i]) {
				return false
			}
		}
	}
	return true
}

// The cache computes once and then serves bit-identical coefficients without computing; a changed
// material is another file (a miss); a file that is altered, truncated or another model's is
// refused by LoadReducedStVK and recomputed by CachedReducedStVK.
func TestReducedStVKCache(t *testing.T) {
	m, _, basis, fresh := reducedFixture(t, 5)
	mtl := Material{Young: 1e6, Poisson: 0.35, Density: 1000}
	dir := t.TempDir()
	progressCalls := 0
	progress := func(done, total int) { progressCalls++ }
	built, hit, err := CachedReducedStVK(m, mtl, basis, dir, progress)
	if err != nil || hit || progressCalls == 0 {
		t.Fatalf("first call: hit %v, %d progress calls, %v", hit, progressCalls, err)
	}
	if !sameCoefficients(built, fresh) {
		t.Fatal("cached computation differs from a fresh one")
	}
	progressCalls = 0
	loaded, hit, err := CachedReducedStVK(m, mtl, basis, dir, progress)
	if err != nil || !hit || progressCalls != 0 {
		t.Fatalf("second call: hit %v, %d progress calls, %v", hit, progressCalls, err)
	}
	if !sameCoefficients(loaded, fresh) {
		t.Fatal("round trip changed the coefficients")
	}
	q, f1, f2 := []float64{0.1, -0.05, 0.2, 0, 0.03}, make([]float64, 5), make([]float64, 5)
	_ = fresh.Evaluate(q, f1, nil)
	_ = loaded.Evaluate(q, f2, nil)
	for i := range f1 {
		if math.Float64bits(f1[i]) != math.Float64bits(f2[i]) {
			t.Fatalf("loaded model evaluates differently: %v %v", f1, f2)
		}
	}

	softer := mtl
	softer.Young *= 1.0000001
	path := CacheFile(dir, m, mtl, basis)
	if CacheFile(dir, m, softer, basis) == path {
		t.Fatal("a changed material maps to the same file")
	}
	if _, hit, err := CachedReducedStVK(m, softer, basis, dir, nil); err != nil || hit {
		t.Errorf("changed material: hit %v, %v", hit, err)
	}
	if _, err := LoadReducedStVK(path, m, softer, basis); err == nil || !strings.Contains(err.Error(), "another mesh, material or basis") {
		t.Errorf("mismatched file: %v", err)
	}

	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	altered := append([]byte(nil), data...)
	altered[len(altered)/2] ^= 1
	if err := os.WriteFile(path, altered, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadReducedStVK(path, m, mtl, basis); err == nil || !strings.Contains(err.Error(), "corrupted") {
		t.Errorf("altered file: %v", err)
	}
	if err := os.WriteFile(path, data[:len(data)-100], 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadReducedStVK(path, m, mtl, basis); err == nil || !strings.Contains(err.Error(), "corrupted") {
		t.Errorf("truncated file: %v", err)
	}
	again, hit, err := CachedReducedStVK(m, mtl, basis, dir, nil)
	if err != nil || hit || !sameCoefficients(again, fresh) {
		t.Fatalf("after corruption: hit %v, %v", hit, err)
	}
	if _, err := LoadReducedStVK(path, m, mtl, basis); err != nil {
		t.Errorf("the recomputed file was not written back: %v", err)
	}
}
