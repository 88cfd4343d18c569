package deform

import (
	"math"
	"strings"
	"testing"
)

// reducedFixture returns a small box, its full-space StVK model and a reduced model in a basis of
// r smooth, irregular fields (not orthonormal, not modes: the polynomial holds for any basis).
func reducedFixture(t *testing.T, r int) (*TetMesh, *StVK, [][]float64, *ReducedStVK) {
	t.Helper()
	m := mustBox(t, 3, 2, 2)
	mtl := Material{Young: 1e6, Poisson: 0.35, Density: 1000}
	s, err := NewStVK(m, mtl)
	if err != nil {
		t.Fatal(err)
	}
	basis := make([][]float64, r)
	for j := range basis {
		basis[j] = make([]float64, s.Size())
		for a := 0; a < m.NumVertices(); a++ {
			p := m.Vertex(a)
			for c := 0; c < 3; c++ {
				basis[j][3*a+c] = math.Sin(float64(j+1)*p[0]+float64(c)) * math.Cos(float64(j+2)*p[1]-p[2]*float64(c+j))
			}
		}
	}
	calls, last := 0, 0
	rs, err := NewReducedStVK(m, mtl, basis, func(done, total int) {
		calls++
		if done < last || total != m.NumTets() {
			t.Errorf("progress %d of %d after %d", done, total, last)
		}
		last = done
	})
	if err != nil {
		t.Fatal(err)
	}
	if calls == 0 || last != m.NumTets() {
		t.Errorf("progress: %d calls, ending at %d of %d", calls, last, m.NumTets())
	}
	return m, s, basis, rs
}

// expand returns U q.
func expand(basis [][]float64, q []float64) []float64 {
	u := make([]float64, len(basis[0]))
	for j, v := range basis {
		for i, x := range v {
			u[i] += q[j] * x
		}
	}
	return u
}

// The reduced force is Uᵀ g(U q) and the reduced tangent Uᵀ K(U q) U, computed in the full space
// by stvk.go, at large deformations (displacements a sizeable fraction of the box).
func TestReducedStVKMatchesFullSpace(t *testing.T) {
	const r = 7
	_, s, basis, rs := reducedFixture(t, r)
	n := s.Size()
	g, ku := make([]float64, n), make([]float64, n)
	force, tangent := make([]float64, r), make([]float64, r*r)
	for trial := 0; trial < 5; trial++ {
		q := make([]float64, r)
		for j := range q {
			q[j] = 0.15 * spread(j, trial+3)
		}
		u := expand(basis, q)
		if err := s.InternalForce(u, g); err != nil {
			t.Fatal(err)
		}
		k, err := s.Tangent(u)
		if err != nil {
			t.Fatal(err)
		}
		if err := rs.Evaluate(q, force, tangent); err != nil {
			t.Fatal(err)
		}
		fScale, kScale := 0.0, 0.0
		want := make([]float64, r)
		wantK := make([]float64, r*r)
		for j := 0; j < r; j++ {
			want[j] = dot(basis[j], g)
			fScale = math.Max(fScale, math.Abs(want[j]))
			k.MulVec(basis[j], ku)
			for i := 0; i < r; i++ {
				wantK[i*r+j] = dot(basis[i], ku)
				kScale = math.Max(kScale, math.Abs(wantK[i*r+j]))
			}
		}
		for j := 0; j < r; j++ {
			if math.Abs(force[j]-want[j]) > 1e-10*fScale {
				t.Errorf("trial %d: g̃[%d] = %.15g, Uᵀg(Uq) = %.15g", trial, j, force[j], want[j])
			}
		}
		for i := range tangent {
			if math.Abs(tangent[i]-wantK[i]) > 1e-10*kScale {
				t.Errorf("trial %d: K̃[%d] = %.15g, UᵀK(Uq)U = %.15g", trial, i, tangent[i], wantK[i])
			}
		}
	}
}

// The reduced tangent is the Jacobian of the reduced force, by central differences.
func TestReducedStVKTangentMatchesFiniteDifferences(t *testing.T) {
	const r = 5
	_, _, _, rs := reducedFixture(t, r)
	q := make([]float64, r)
	for j := range q {
		q[j] = 0.2 * spread(j, 11)
	}
	tangent := make([]float64, r*r)
	f0 := make([]float64, r)
	if err := rs.Evaluate(q, f0, tangent); err != nil {
		t.Fatal(err)
	}
	scale := 0.0
	for _, x := range tangent {
		scale = math.Max(scale, math.Abs(x))
	}
	const h = 1e-6
	fp, fm := make([]float64, r), make([]float64, r)
	for j := 0; j < r; j++ {
		qj := q[j]
		q[j] = qj + h
		_ = rs.Evaluate(q, fp, nil)
		q[j] = qj - h
		_ = rs.Evaluate(q, fm, nil)
		q[j] = qj
		for i := 0; i < r; i++ {
			if fd := (fp[i] - fm[i]) / (2 * h); math.Abs(fd-tangent[i*r+j]) > 1e-7*scale {
				t.Errorf("K̃(%d,%d) = %.12g, difference %.12g", i, j, tangent[i*r+j], fd)
			}
		}
	}
}

// Evaluate allocates nothing and refuses bad arguments; the constructor names bad basis vectors.
func TestReducedStVKEvaluateAllocationsAndErrors(t *testing.T) {
	const r = 4
	m, _, basis, rs := reducedFixture(t, r)
	q, f, k := []float64{0.1, -0.2, 0.05, 0.3}, make([]float64, r), make([]float64, r*r)
	if a := testing.AllocsPerRun(20, func() { _ = rs.Evaluate(q, f, k) }); a != 0 {
		t.Errorf("Evaluate allocates %v times", a)
	}
	if err := rs.Evaluate(q[:2], f, k); err == nil || !strings.Contains(err.Error(), "q: length") {
		t.Errorf("short q: %v", err)
	}
	if err := rs.Evaluate(q, f, k[:3]); err == nil || !strings.Contains(err.Error(), "tangent: length") {
		t.Errorf("short tangent: %v", err)
	}
	q[2] = math.Inf(1)
	if err := rs.Evaluate(q, f, k); err == nil || !strings.Contains(err.Error(), "q[2]") {
		t.Errorf("infinite q: %v", err)
	}
	mtl := Material{Young: 1e6, Poisson: 0.35, Density: 1000}
	if _, err := NewReducedStVK(m, mtl, nil, nil); err == nil || !strings.Contains(err.Error(), "basis") {
		t.Errorf("empty basis: %v", err)
	}
	basis[1] = basis[1][:5]
	if _, err := NewReducedStVK(m, mtl, basis, nil); err == nil || !strings.Contains(err.Error(), "basis[1]: length") {
		t.Errorf("short basis vector: %v", err)
	}
}
