package deform

import (
	"math"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
)

// stvkFixture returns a small, irregularly displaced box and its StVK model: the displacement is a
// deterministic field of amplitude amp (a fraction of the box's size) so that the strains are
// large and every element differs.
func stvkFixture(t *testing.T, amp float64) (*TetMesh, *StVK, []float64) {
	t.Helper()
	m := mustBox(t, 3, 2, 2)
	s, err := NewStVK(m, Material{Young: 1e6, Poisson: 0.35, Density: 1000})
	if err != nil {
		t.Fatal(err)
	}
	u := make([]float64, s.Size())
	for i := range u {
		u[i] = amp * spread(i, 5)
	}
	return m, s, u
}

// K(0) is the linear stiffness of fem.go.
func TestStVKTangentAtRestIsLinearStiffness(t *testing.T) {
	m, s, _ := stvkFixture(t, 0)
	k0, err := s.Tangent(make([]float64, s.Size()))
	if err != nil {
		t.Fatal(err)
	}
	k, err := Stiffness(m, Material{Young: 1e6, Poisson: 0.35, Density: 1000})
	if err != nil {
		t.Fatal(err)
	}
	scale := 0.0
	for i := 0; i < k.Size(); i++ {
		scale = math.Max(scale, math.Abs(k.At(i, i)))
	}
	for i := 0; i < k.Size(); i++ {
		for j := 0; j < k.Size(); j++ {
			if d := math.Abs(k0.At(i, j) - k.At(i, j)); d > 1e-10*scale {
				t.Fatalf("K(0)(%d,%d) = %.15g, linear %.15g", i, j, k0.At(i, j), k.At(i, j))
			}
		}
	}
}

// g is the gradient of the energy and K the Jacobian of g, by central differences at a large
// deformation (strains of tens of percent).
func TestStVKForceAndTangentMatchFiniteDifferences(t *testing.T) {
	_, s, u := stvkFixture(t, 0.08)
	n := s.Size()
	g := make([]float64, n)
	if err := s.InternalForce(u, g); err != nil {
		t.Fatal(err)
	}
	k, err := s.Tangent(u)
	if err != nil {
		t.Fatal(err)
	}
	const h = 1e-6
	up, gp, gm := make([]float64, n), make([]float64, n), make([]float64, n)
	gScale, kScale := 0.0, 0.0
	for i := range g {
		gScale = math.Max(gScale, math.Abs(g[i]))
		kScale = math.Max(kScale, math.Abs(k.At(i, i)))
	}
	for i := 0; i < n; i++ {
		copy(up, u)
		up[i] = u[i] + h
		wp, _ := s.Energy(up)
		if err := s.InternalForce(up, gp); err != nil {
			t.Fatal(err)
		}
		up[i] = u[i] - h
		wm, _ := s.Energy(up)
		if err := s.InternalForce(up, gm); err != nil {
			t.Fatal(err)
		}
		if fd := (wp - wm) / (2 * h); math.Abs(fd-g[i]) > 1e-6*gScale {
			t.Fatalf("g[%d] = %.12g, energy difference %.12g", i, g[i], fd)
		}
		for j := 0; j < n; j++ {
			fd := (gp[j] - gm[j]) / (2 * h)
			if math.Abs(fd-k.At(j, i)) > 1e-6*kScale {
				t.Fatalf("K(%d,%d) = %.12g, force difference %.12g", j, i, k.At(j, i), fd)
			}
		}
	}
}

// A rigid rotation of the rest shape by 60° strains nothing: StVK gives zero force and energy,
// where the linear model's K u is of the order of K times the displacement.
func TestStVKRotationInvariant(t *testing.T) {
	m, s, _ := stvkFixture(t, 0)
	rot := mgl64.HomogRotate3D(math.Pi/3, mgl64.Vec3{1, 2, 3}.Normalize()).Mat3()
	u := make([]float64, s.Size())
	for a := 0; a < m.NumVertices(); a++ {
		p := m.Vertex(a)
		d := rot.Mul3x1(p).Sub(p)
		u[3*a], u[3*a+1], u[3*a+2] = d[0], d[1], d[2]
	}
	g := make([]float64, s.Size())
	if err := s.InternalForce(u, g); err != nil {
		t.Fatal(err)
	}
	k, _ := Stiffness(m, Material{Young: 1e6, Poisson: 0.35, Density: 1000})
	lin := make([]float64, s.Size())
	k.MulVec(u, lin)
	gMax, linMax := 0.0, 0.0
	for i := range g {
		gMax, linMax = math.Max(gMax, math.Abs(g[i])), math.Max(linMax, math.Abs(lin[i]))
	}
	w, _ := s.Energy(u)
	if gMax > 1e-9*linMax || math.Abs(w) > 1e-9 {
		t.Errorf("rotated rest shape: |g| = %.3g, W = %.3g J (linear |Ku| = %.3g)", gMax, w, linMax)
	}
	if linMax < 1e3 {
		t.Errorf("the linear model should resist the rotation: |Ku| = %.3g", linMax)
	}
}

// Bad input is refused naming the argument.
func TestStVKRefusesBadInput(t *testing.T) {
	_, s, u := stvkFixture(t, 0.01)
	if _, err := NewStVK(nil, steel); err == nil {
		t.Error("nil mesh accepted")
	}
	if _, err := NewStVK(mustBox(t, 1, 1, 1), Material{Young: -1, Poisson: 0.3, Density: 1}); err == nil || !strings.Contains(err.Error(), "Young") {
		t.Errorf("negative Young: %v", err)
	}
	if err := s.InternalForce(u[:3], u); err == nil || !strings.Contains(err.Error(), "u: length") {
		t.Errorf("short u: %v", err)
	}
	if err := s.InternalForce(u, u[:3]); err == nil || !strings.Contains(err.Error(), "g: length") {
		t.Errorf("short g: %v", err)
	}
	u[4] = math.NaN()
	if _, err := s.Tangent(u); err == nil || !strings.Contains(err.Error(), "u[4]") {
		t.Errorf("NaN: %v", err)
	}
}
