package deform

import (
	"math"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
)

// reducedCantilever builds the soft cantilever's reduced StVK body in 6 held modes and their
// derivatives, r = 20.
func reducedCantilever(t testing.TB, alpha, beta float64) (*softCantilever, [][]float64, *ReducedBody) {
	t.Helper()
	c := newSoftCantilever(t, 16, 3, 2e6)
	md, err := LowestModes(c.k, c.mass, c.fixed, 6, 1e-10, 500)
	if err != nil {
		t.Fatal(err)
	}
	basis, err := ModalDerivativeBasis(c.m, c.mat, c.mass, c.fixed, md, 20)
	if err != nil {
		t.Fatal(err)
	}
	model, err := NewReducedStVK(c.m, c.mat, basis, nil)
	if err != nil {
		t.Fatal(err)
	}
	body, err := NewReducedBody(model, basis, c.mass, alpha, beta)
	if err != nil {
		t.Fatal(err)
	}
	return c, basis, body
}

// Released from rest under gravity, the soft cantilever swings down by far more than a third of
// its length and, damped, settles. Over 60 s at h = 0.01 the state stays finite, no element of the
// full reconstruction inverts (det F > 0 at every tetrahedron, checked every second), the total
// energy (kinetic + elastic + gravitational, zero at release) never rises above zero, and the end
// state is the reduced static equilibrium, found independently by Newton's method on g̃(q) = UᵀMg.
func TestReducedBodyLargeDeflectionStable(t *testing.T) {
	c, basis, body := reducedCantilever(t, 1, 2e-3)
	g := mgl64.Vec3{0, 0, -9.81}
	s, err := NewStVK(c.m, c.mat)
	if err != nil {
		t.Fatal(err)
	}
	u := make([]float64, s.Size())
	tipOf := func(u []float64) float64 {
		z, n := 0.0, 0
		for a := 0; a < c.m.NumVertices(); a++ {
			if c.m.Vertex(a)[0] > 0.5-1e-12 {
				z += u[3*a+2]
				n++
			}
		}
		return z / float64(n)
	}
	tip := func() float64 { return tipOf(u) }
	const h = 0.01
	maxSag, minDet := 0.0, math.Inf(1)
	_, _, v0 := body.Energy(g)
	staticEnergy := 0.0
	for step := 1; step <= 6000; step++ {
		if err := body.Step(h, g); err != nil {
			t.Fatalf("step %d: %v", step, err)
		}
		if err := body.Displacement(u); err != nil {
			t.Fatal(err)
		}
		maxSag = math.Max(maxSag, -tip())
		if step%100 != 0 {
			continue
		}
		for i, x := range u {
			if !finite(x) {
				t.Fatalf("t = %.0f s: u[%d] not finite", float64(step)*h, i)
			}
		}
		for e := 0; e < c.m.NumTets(); e++ {
			f := mgl64.Ident3().Add(s.gradient(e, u))
			minDet = math.Min(minDet, f.Det())
		}
		if !(minDet > 0) {
			t.Fatalf("t = %.0f s: a tetrahedron inverted (det F = %.3g)", float64(step)*h, minDet)
		}
		kin, el, grav := body.Energy(g)
		staticEnergy = math.Min(staticEnergy, grav)
		if total := kin + el + grav - v0; total > 1e-9*math.Abs(staticEnergy) {
			t.Fatalf("t = %.0f s: total energy %.6g J above its value at release", float64(step)*h, total)
		}
	}
	q, qd := body.State(nil, nil)
	want := reducedStatic(t, c, basis, c.gravity(g), 8)
	diff, norm := 0.0, 0.0
	for i := range u {
		d := u[i] - want[i]
		diff += c.mass[i/3] * d * d
		norm += c.mass[i/3] * want[i] * want[i]
	}
	speed := math.Sqrt(dot(qd, qd))
	t.Logf("largest tip sag %.3f m, final %.4f m (static %.4f m); least det F %.3f; |q̇| %.2g, |q| %.3g at 60 s",
		maxSag, -tip(), -tipOf(want), minDet, speed, math.Sqrt(dot(q, q)))
	if maxSag < 0.35 {
		t.Errorf("largest tip sag %.3f m: not a large deflection", maxSag)
	}
	if rel := math.Sqrt(diff / norm); rel > 1e-4 || speed > 1e-4 {
		t.Errorf("at 60 s: %.3g from the static equilibrium (M-norm, relative), |q̇| = %.3g", rel, speed)
	}
}

// Runs are bit-identical, and a warm step allocates nothing.
func TestReducedBodyDeterministicAndAllocationFree(t *testing.T) {
	_, _, a := reducedCantilever(t, 1, 2e-3)
	_, _, b := reducedCantilever(t, 1, 2e-3)
	g := mgl64.Vec3{0.5, -1, -9.81}
	for i := 0; i < 50; i++ {
		if err := a.Step(0.01, g); err != nil {
			t.Fatal(err)
		}
		if err := b.Step(0.01, g); err != nil {
			t.Fatal(err)
		}
	}
	qa, qda := a.State(nil, nil)
	qb, qdb := b.State(nil, nil)
	for i := range qa {
		if math.Float64bits(qa[i]) != math.Float64bits(qb[i]) || math.Float64bits(qda[i]) != math.Float64bits(qdb[i]) {
			t.Fatalf("runs differ at %d: %v %v", i, qa[i], qb[i])
		}
	}
	if n := testing.AllocsPerRun(20, func() { _ = a.Step(0.01, g) }); n != 0 {
		t.Errorf("Step allocates %v times", n)
	}
}

// Bad input is refused naming the argument, and a refused step changes nothing.
func TestReducedBodyRefusesBadInput(t *testing.T) {
	c, basis, body := reducedCantilever(t, 1, 2e-3)
	model := body.model
	if _, err := NewReducedBody(model, basis[:3], c.mass, 0, 0); err == nil || !strings.Contains(err.Error(), "basis") {
		t.Errorf("short basis: %v", err)
	}
	if _, err := NewReducedBody(model, basis, c.mass, -1, 0); err == nil || !strings.Contains(err.Error(), "alpha") {
		t.Errorf("negative alpha: %v", err)
	}
	if _, err := NewReducedBody(model, basis, c.mass, 0, math.NaN()); err == nil || !strings.Contains(err.Error(), "beta") {
		t.Errorf("NaN beta: %v", err)
	}
	scaled := append([][]float64(nil), basis...)
	scaled[2] = make([]float64, len(basis[2]))
	for i, x := range basis[2] {
		scaled[2][i] = 2 * x
	}
	if _, err := NewReducedBody(model, scaled, c.mass, 0, 0); err == nil || !strings.Contains(err.Error(), "basis[2]: not mass-orthonormal") {
		t.Errorf("unnormalised basis: %v", err)
	}
	if err := body.Step(0, mgl64.Vec3{}); err == nil || !strings.Contains(err.Error(), "h") {
		t.Errorf("h = 0: %v", err)
	}
	if err := body.Step(0.01, mgl64.Vec3{0, math.Inf(1), 0}); err == nil || !strings.Contains(err.Error(), "g") {
		t.Errorf("infinite g: %v", err)
	}
	if err := body.SetState(make([]float64, 20), []float64{1}); err == nil || !strings.Contains(err.Error(), "need 20") {
		t.Errorf("short qd: %v", err)
	}
	q, _ := body.State(nil, nil)
	for _, x := range q {
		if x != 0 {
			t.Fatalf("a refused call moved the body: %v", q)
		}
	}
}
