package deform

import (
	"math"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
	"gonum.org/v1/gonum/mat"
)

// freeBody returns a free box mesh of the given half-extents and cells, its stiffness and lumped
// masses.
func freeBody(t testing.TB, half mgl64.Vec3, nx, ny, nz int, mtl Material) (*TetMesh, *BlockMatrix, []float64) {
	t.Helper()
	m, err := NewBoxMesh(half, nx, ny, nz)
	if err != nil {
		t.Fatal(err)
	}
	k, err := Stiffness(m, mtl)
	if err != nil {
		t.Fatal(err)
	}
	return m, k, LumpedMass(m, mtl.Density)
}

// checkMeanAxis fails unless every mode has zero linear and angular momentum about the centre of
// mass, Σ m_a φ_a = 0 and Σ m_a x_a × φ_a = 0, to 1e-10 of the scales √M and √M·L of an
// M-normalised mode.
func checkMeanAxis(t *testing.T, m *TetMesh, mass []float64, shapes [][]float64) {
	t.Helper()
	total, size := 0.0, 0.0
	var c mgl64.Vec3
	for a, q := range mass {
		total += q
		c = c.Add(m.Vertex(a).Mul(q))
	}
	c = c.Mul(1 / total)
	for a := range mass {
		size = math.Max(size, m.Vertex(a).Sub(c).Len())
	}
	for j, phi := range shapes {
		var lin, ang mgl64.Vec3
		for a, q := range mass {
			u := mgl64.Vec3{phi[3*a], phi[3*a+1], phi[3*a+2]}
			lin = lin.Add(u.Mul(q))
			ang = ang.Add(m.Vertex(a).Sub(c).Cross(u).Mul(q))
		}
		if lin.Len() > 1e-10*math.Sqrt(total) {
			t.Errorf("mode %d: Σ m φ = %v, want 0 (scale √M = %.3g)", j, lin, math.Sqrt(total))
		}
		if ang.Len() > 1e-10*math.Sqrt(total)*size {
			t.Errorf("mode %d: Σ m x × φ = %v, want 0 (scale √M·L = %.3g)", j, ang, math.Sqrt(total)*size)
		}
	}
}

// The free modes match a dense eigendecomposition of M^{-1/2} K M^{-1/2} for a small free mesh
// once its six zero eigenvalues (the rigid motions) are dropped, are mass-orthonormal and have
// zero linear and angular momentum.
func TestFreeModesMatchDenseEigen(t *testing.T) {
	mtl := Material{Young: 1e7, Poisson: 0.3, Density: 1000}
	m, k, mass := freeBody(t, mgl64.Vec3{0.5, 0.1, 0.07}, 6, 2, 2, mtl)
	const r = 10
	md, err := FreeModes(m, k, mass, r, 1e-12, 300)
	if err != nil {
		t.Fatal(err)
	}
	n := k.Size()
	a := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			a.SetSym(i, j, k.At(i, j)/math.Sqrt(mass[i/3]*mass[j/3]))
		}
	}
	var eig mat.EigenSym
	if !eig.Factorize(a, false) {
		t.Fatal("dense eigendecomposition failed")
	}
	want := eig.Values(nil)
	for i := 0; i < 6; i++ {
		if math.Abs(want[i]) > 1e-8*want[6] {
			t.Fatalf("dense eigenvalue %d = %.3g is not a rigid mode (first elastic %.3g)", i, want[i], want[6])
		}
	}
	for i := 0; i < r; i++ {
		if math.Abs(md.Omega2[i]-want[6+i]) > 1e-8*want[6+i] {
			t.Errorf("mode %d: ω² %.12g, dense %.12g", i, md.Omega2[i], want[6+i])
		}
	}
	for i := 0; i < r; i++ {
		for j := 0; j <= i; j++ {
			s := 0.0
			for d := range md.Shapes[i] {
				s += mass[d/3] * md.Shapes[i][d] * md.Shapes[j][d]
			}
			w := 0.0
			if i == j {
				w = 1
			}
			if math.Abs(s-w) > 1e-10 {
				t.Errorf("φ%dᵀMφ%d = %.3g, want %v", i, j, s, w)
			}
		}
	}
	checkMeanAxis(t, m, mass, md.Shapes)
}

// A slender free–free beam's first bending frequency approaches Euler–Bernoulli's
// ω₁ = (β₁L)² √(EI/(ρAL⁴)), β₁L = 4.7300, from above as the mesh is refined (linear tetrahedra
// are too stiff in bending, the more so the longer the elements), and the finest mesh is within
// 4 % of it: +18 %, +6.5 % and +3.3 % at 40, 80 and 160 cells along (4 × 4 across).
func TestFreeFreeBeamFrequency(t *testing.T) {
	const length, side = 1.0, 0.05
	mtl := Material{Young: 1e9, Poisson: 0, Density: 1000}
	inertia, area := math.Pow(side, 4)/12, side*side
	want := 4.7300 * 4.7300 * math.Sqrt(mtl.Young*inertia/(mtl.Density*area*math.Pow(length, 4))) / (2 * math.Pi)
	prev := math.Inf(1)
	f := 0.0
	for _, res := range []struct{ nx, ny int }{{40, 4}, {80, 4}, {160, 4}} {
		m, k, mass := freeBody(t, mgl64.Vec3{length / 2, side / 2, side / 2}, res.nx, res.ny, res.ny, mtl)
		md, err := FreeModes(m, k, mass, 2, 1e-10, 300)
		if err != nil {
			t.Fatal(err)
		}
		f = md.Frequency(0)
		t.Logf("%d × %d × %d cells: first bending %.4g Hz, beam theory %.4g Hz (%+.1f %%), %d iterations", res.nx, res.ny, res.ny, f, want, 100*(f/want-1), md.Iterations)
		if !(f > want && f < prev) {
			t.Errorf("%d cells along: %.5g Hz; want above %.5g and below the coarser %.5g", res.nx, f, want, prev)
		}
		prev = f
		checkMeanAxis(t, m, mass, md.Shapes)
	}
	if f > 1.04*want {
		t.Errorf("finest mesh: %.5g Hz, more than 4 %% above beam theory's %.5g", f, want)
	}
}

// FreeModes refuses bad arguments and a mesh in two pieces, whose relative rigid motion is a
// seventh zero-frequency mode.
func TestFreeModesRefusesBadInput(t *testing.T) {
	mtl := Material{Young: 1e7, Poisson: 0.3, Density: 1000}
	m, k, mass := freeBody(t, mgl64.Vec3{0.5, 0.1, 0.1}, 4, 1, 1, mtl)
	bad := append([]float64(nil), mass...)
	bad[3] = math.NaN()
	for _, c := range []struct {
		name string
		err  func() error
		want string
	}{
		{"r", func() error { _, err := FreeModes(m, k, mass, 0, 1e-8, 10); return err }, "FreeModes r"},
		{"mass length", func() error { _, err := FreeModes(m, k, mass[1:], 2, 1e-8, 10); return err }, "FreeModes mass"},
		{"mass NaN", func() error { _, err := FreeModes(m, k, bad, 2, 1e-8, 10); return err }, "mass[3]"},
		{"tol", func() error { _, err := FreeModes(m, k, mass, 2, 0, 10); return err }, "tol"},
	} {
		if err := c.err(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error naming %q", c.name, err, c.want)
		}
	}
	// Two cubes side by side, sharing no vertex.
	var verts []mgl64.Vec3
	var tets [][4]int32
	for piece := 0; piece < 2; piece++ {
		cube, err := NewBoxMesh(mgl64.Vec3{0.1, 0.1, 0.1}, 1, 1, 1)
		if err != nil {
			t.Fatal(err)
		}
		base := int32(len(verts))
		for a := 0; a < cube.NumVertices(); a++ {
			verts = append(verts, cube.Vertex(a).Add(mgl64.Vec3{0.5 * float64(piece), 0, 0}))
		}
		for i := 0; i < cube.NumTets(); i++ {
			tt := cube.Tet(i)
			tets = append(tets, [4]int32{tt[0] + base, tt[1] + base, tt[2] + base, tt[3] + base})
		}
	}
	two, err := NewTetMesh(verts, tets)
	if err != nil {
		t.Fatal(err)
	}
	k2, err := Stiffness(two, mtl)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := FreeModes(two, k2, LumpedMass(two, mtl.Density), 3, 1e-8, 200); err == nil || !strings.Contains(err.Error(), "not in one piece") {
		t.Errorf("two pieces: %v, want an error saying the mesh is not in one piece", err)
	}
}
