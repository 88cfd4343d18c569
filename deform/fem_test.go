package deform

import (
	"math"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
)

var steel = Material{Young: 2e11, Poisson: 0.3, Density: 7800}

// A box mesh is conforming and fills its box: every tetrahedron is positively oriented and the
// volumes sum to the box's, and the lumped masses to ρV.
func TestBoxMeshVolumeAndMass(t *testing.T) {
	half := mgl64.Vec3{0.5, 0.05, 0.1}
	m, err := NewBoxMesh(half, 10, 2, 3)
	if err != nil {
		t.Fatal(err)
	}
	if m.NumVertices() != 11*3*4 || m.NumTets() != 6*10*2*3 {
		t.Fatalf("%d vertices, %d tetrahedra", m.NumVertices(), m.NumTets())
	}
	want := 8 * half[0] * half[1] * half[2]
	for i := 0; i < m.NumTets(); i++ {
		if v := m.TetVolume(i); !(v > 0) {
			t.Fatalf("tetrahedron %d: volume %g", i, v)
		}
	}
	if v := m.Volume(); math.Abs(v-want) > 1e-12*want {
		t.Errorf("volume %.15g, want %.15g", v, want)
	}
	total := 0.0
	for _, q := range LumpedMass(m, steel.Density) {
		total += q
	}
	if math.Abs(total-steel.Density*want) > 1e-9*steel.Density*want {
		t.Errorf("mass %.12g kg, want ρV = %.12g", total, steel.Density*want)
	}
}

// Bad meshes are refused naming the element or vertex.
func TestTetMeshRefusesBadInput(t *testing.T) {
	v := []mgl64.Vec3{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}}
	for _, c := range []struct {
		name string
		v    []mgl64.Vec3
		t    [][4]int32
		want string
	}{
		{"inverted", v, [][4]int32{{0, 2, 1, 3}}, "tetrahedron 0: inverted"},
		{"flat", []mgl64.Vec3{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 1e-9}}, [][4]int32{{0, 1, 2, 3}}, "tetrahedron 0: degenerate"},
		{"range", v, [][4]int32{{0, 1, 2, 3}, {0, 1, 2, 4}}, "tetrahedron 1: vertex index 4 out of range"},
		{"repeat", v, [][4]int32{{0, 1, 1, 3}}, "vertex 1 repeated"},
		{"nan", []mgl64.Vec3{{0, 0, 0}, {1, 0, 0}, {0, math.NaN(), 0}, {0, 0, 1}}, [][4]int32{{0, 1, 2, 3}}, "vertex 2: not finite"},
		{"empty", nil, nil, "needs vertices"},
	} {
		if _, err := NewTetMesh(c.v, c.t); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
	if _, err := NewBoxMesh(mgl64.Vec3{1, 0, 1}, 2, 2, 2); err == nil || !strings.Contains(err.Error(), "half[1]") {
		t.Errorf("flat box: %v", err)
	}
	if _, err := Stiffness(mustBox(t, 1, 1, 1), Material{Young: 1e9, Poisson: 0.5, Density: 1000}); err == nil || !strings.Contains(err.Error(), "Poisson") {
		t.Errorf("ν = 0.5: %v", err)
	}
}

func mustBox(t *testing.T, nx, ny, nz int) *TetMesh {
	t.Helper()
	m, err := NewBoxMesh(mgl64.Vec3{0.5, 0.2, 0.3}, nx, ny, nz)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// K is symmetric, annihilates the six rigid motions (translations and infinitesimal rotations),
// and a uniform stretch u = εx e_x (a constant strain) loads only the boundary: every interior
// vertex is in equilibrium (the patch test of linear elements).
func TestStiffnessRigidModesAndPatchTest(t *testing.T) {
	m := mustBox(t, 4, 3, 3)
	k, err := Stiffness(m, steel)
	if err != nil {
		t.Fatal(err)
	}
	n := k.Size()
	scale := 0.0
	for i := 0; i < n; i++ {
		scale = math.Max(scale, math.Abs(k.At(i, i)))
		for j := 0; j < n; j += 7 {
			if a, b := k.At(i, j), k.At(j, i); math.Abs(a-b) > 1e-9*scale {
				t.Fatalf("K(%d,%d) = %g, K(%d,%d) = %g", i, j, a, j, i, b)
			}
		}
	}
	u, f := make([]float64, n), make([]float64, n)
	for mode := 0; mode < 6; mode++ {
		for a := 0; a < m.NumVertices(); a++ {
			p := m.Vertex(a)
			var d mgl64.Vec3
			if mode < 3 {
				d[mode] = 1
			} else {
				var axis mgl64.Vec3
				axis[mode-3] = 1
				d = axis.Cross(p)
			}
			u[3*a], u[3*a+1], u[3*a+2] = d[0], d[1], d[2]
		}
		k.MulVec(u, f)
		for i, x := range f {
			if math.Abs(x) > 1e-9*scale {
				t.Fatalf("rigid mode %d: K u [%d] = %g (diagonal scale %g)", mode, i, x, scale)
			}
		}
	}
	const eps = 1e-3
	for a := 0; a < m.NumVertices(); a++ {
		p := m.Vertex(a)
		u[3*a], u[3*a+1], u[3*a+2] = eps*p[0], 0, 0
	}
	k.MulVec(u, f)
	interior := 0
	for a := 0; a < m.NumVertices(); a++ {
		p := m.Vertex(a)
		if math.Abs(math.Abs(p[0])-0.5) < 1e-12 || math.Abs(math.Abs(p[1])-0.2) < 1e-12 || math.Abs(math.Abs(p[2])-0.3) < 1e-12 {
			continue
		}
		interior++
		for r := 0; r < 3; r++ {
			if x := f[3*a+r]; math.Abs(x) > 1e-9*scale*eps {
				t.Fatalf("patch test: interior vertex %d carries force %g", a, x)
			}
		}
	}
	if interior == 0 {
		t.Fatal("no interior vertex")
	}
}

// A slender cantilever (1 m long, 5 cm × 5 cm, clamped at one end, a tip load P) bends towards
// Euler–Bernoulli's PL³/(3EI) as the mesh is refined. Linear tetrahedra lock in bending (too stiff
// on coarse meshes): the error falls from 65 % at 20 × 2 × 2 cells to 11 % at 80 × 8 × 8, each
// halving of the cells cutting it by at least 45 %. Beam-theory accuracy of a few percent needs
// finer meshes or quadratic elements (docs/architecture.md, Deformable bodies).
func TestCantileverConvergesToBeamTheory(t *testing.T) {
	const (
		length, side, load = 1.0, 0.05, 100.0
	)
	mat := Material{Young: 1e9, Poisson: 0.3, Density: 1000}
	inertia := side * side * side * side / 12
	want := load * length * length * length / (3 * mat.Young * inertia)
	prevErr := math.Inf(1)
	for _, res := range []struct{ nx, ny int }{{20, 2}, {40, 4}, {80, 8}} {
		m, err := NewBoxMesh(mgl64.Vec3{length / 2, side / 2, side / 2}, res.nx, res.ny, res.ny)
		if err != nil {
			t.Fatal(err)
		}
		k, err := Stiffness(m, mat)
		if err != nil {
			t.Fatal(err)
		}
		fixed := make([]bool, m.NumVertices())
		f := make([]float64, k.Size())
		var tip []int
		for a := 0; a < m.NumVertices(); a++ {
			switch x := m.Vertex(a)[0]; {
			case x < -length/2+1e-12:
				fixed[a] = true
			case x > length/2-1e-12:
				tip = append(tip, a)
			}
		}
		for _, a := range tip {
			f[3*a+2] = -load / float64(len(tip))
		}
		u, err := SolveStatic(k, f, fixed, 1e-10, 20000)
		if err != nil {
			t.Fatal(err)
		}
		got := 0.0
		for _, a := range tip {
			got -= u[3*a+2] / float64(len(tip))
		}
		rel := math.Abs(got-want) / want
		t.Logf("%d × %d × %d cells: tip deflection %.5g m, beam theory %.5g m (%.1f %%)", res.nx, res.ny, res.ny, got, want, 100*rel)
		if !(rel < 0.55*prevErr) {
			t.Errorf("%d cells along: error %.3g fell by less than 45 %% (was %.3g)", res.nx, rel, prevErr)
		}
		prevErr = rel
	}
	if prevErr > 0.12 {
		t.Errorf("finest mesh %.1f %% from beam theory, want within 12 %%", 100*prevErr)
	}
}
