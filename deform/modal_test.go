package deform

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
	"gonum.org/v1/gonum/mat"
)

// cantilever returns a beam mesh along x, its stiffness, lumped masses and the vertices held at
// its x = −length/2 end.
func cantilever(t *testing.T, length, side float64, nx, ny int, mat Material) (*TetMesh, *BlockMatrix, []float64, []bool) {
	t.Helper()
	m, err := NewBoxMesh(mgl64.Vec3{length / 2, side / 2, side / 2}, nx, ny, ny)
	if err != nil {
		t.Fatal(err)
	}
	k, err := Stiffness(m, mat)
	if err != nil {
		t.Fatal(err)
	}
	fixed := make([]bool, m.NumVertices())
	for a := range fixed {
		fixed[a] = m.Vertex(a)[0] < -length/2+1e-12
	}
	return m, k, LumpedMass(m, mat.Density), fixed
}

// The subspace iteration's lowest modes match a dense generalised eigendecomposition of the same
// (small) model to 1e-8, are mass-orthonormal to 1e-10 and satisfy K φ = ω² M φ. (A square beam's
// two first bending frequencies differ on this mesh: Kuhn's subdivision cuts every cell along the
// same diagonal, which stiffens one bending direction more than the other until the mesh is fine.)
func TestLowestModesMatchDenseEigen(t *testing.T) {
	mtl := Material{Young: 1e7, Poisson: 0.3, Density: 1000}
	_, k, mass, fixed := cantilever(t, 1, 0.1, 10, 2, mtl)
	const r = 6
	md, err := LowestModes(k, mass, fixed, r, 1e-12, 200)
	if err != nil {
		t.Fatal(err)
	}
	// Dense reference on the free DoFs: M^{-1/2} K M^{-1/2}, M diagonal.
	var dofs []int
	for i := 0; i < k.Size(); i++ {
		if !fixed[i/3] {
			dofs = append(dofs, i)
		}
	}
	nf := len(dofs)
	a := mat.NewSymDense(nf, nil)
	for p, i := range dofs {
		for q := p; q < nf; q++ {
			j := dofs[q]
			a.SetSym(p, q, k.At(i, j)/math.Sqrt(mass[i/3]*mass[j/3]))
		}
	}
	var eig mat.EigenSym
	if !eig.Factorize(a, false) {
		t.Fatal("dense eigendecomposition failed")
	}
	want := eig.Values(nil)
	for i := 0; i < r; i++ {
		if math.Abs(md.Omega2[i]-want[i]) > 1e-8*want[i] {
			t.Errorf("mode %d: ω² %.12g, dense %.12g", i, md.Omega2[i], want[i])
		}
	}
	kv := make([]float64, k.Size())
	for i := 0; i < r; i++ {
		for j := 0; j <= i; j++ {
			s := 0.0
			for d := range md.Shapes[i] {
				s += mass[d/3] * md.Shapes[i][d] * md.Shapes[j][d]
			}
			if w := map[bool]float64{true: 1, false: 0}[i == j]; math.Abs(s-w) > 1e-10 {
				t.Errorf("φ%dᵀMφ%d = %.3g, want %v", i, j, s, w)
			}
		}
		k.MulVec(md.Shapes[i], kv)
		res, norm := 0.0, 0.0
		for d := range kv {
			if fixed[d/3] {
				continue
			}
			e := kv[d] - md.Omega2[i]*mass[d/3]*md.Shapes[i][d]
			res += e * e
			norm += math.Pow(md.Omega2[i]*mass[d/3]*md.Shapes[i][d], 2)
		}
		if math.Sqrt(res) > 1e-6*math.Sqrt(norm) {
			t.Errorf("mode %d: ‖Kφ − ω²Mφ‖ = %.3g of %.3g", i, math.Sqrt(res), math.Sqrt(norm))
		}
	}
}

// The first bending frequency of a slender cantilever approaches Euler–Bernoulli's
// (1.875²/2π)·√(EI/(ρAL⁴)) from above as the mesh is refined: +160 %, +59 % and +18 % at 10, 20
// and 40 cells along (linear tetrahedra are too stiff in bending; see the static test).
func TestCantileverFrequencyConverges(t *testing.T) {
	const length, side = 1.0, 0.05
	mtl := Material{Young: 1e9, Poisson: 0.3, Density: 1000}
	inertia, area := math.Pow(side, 4)/12, side*side
	want := 1.875104 * 1.875104 / (2 * math.Pi) * math.Sqrt(mtl.Young*inertia/(mtl.Density*area*math.Pow(length, 4)))
	prev := math.Inf(1)
	for _, res := range []struct{ nx, ny int }{{10, 1}, {20, 2}, {40, 4}} {
		_, k, mass, fixed := cantilever(t, length, side, res.nx, res.ny, mtl)
		md, err := LowestModes(k, mass, fixed, 1, 1e-10, 200)
		if err != nil {
			t.Fatal(err)
		}
		f := md.Frequency(0)
		t.Logf("%d × %d × %d cells: first bending %.4g Hz, beam theory %.4g Hz (+%.1f %%), %d iterations", res.nx, res.ny, res.ny, f, want, 100*(f/want-1), md.Iterations)
		if !(f > want && f < prev) {
			t.Errorf("%d cells along: %.5g Hz; want above %.5g and below the coarser %.5g", res.nx, f, want, prev)
		}
		prev = f
	}
}

// The banded Cholesky solve in reverse Cuthill–McKee order agrees with the conjugate-gradient
// static solve on a loaded cantilever, its band is a few cross-sections wide, not the mesh, and
// solving a block of vectors at once gives each the bits of its own solve.
func TestBandedCholeskyMatchesCG(t *testing.T) {
	mtl := Material{Young: 1e9, Poisson: 0.3, Density: 1000}
	mesh, k, _, fixed := cantilever(t, 1, 0.05, 20, 2, mtl)
	f := make([]float64, k.Size())
	for a := 0; a < mesh.NumVertices(); a++ {
		if mesh.Vertex(a)[0] > 0.5-1e-12 {
			f[3*a+2] = -10
		}
	}
	cg, err := SolveStatic(k, f, fixed, 1e-13, 100000)
	if err != nil {
		t.Fatal(err)
	}
	chol, err := newBandedCholesky(k, fixed)
	if err != nil {
		t.Fatal(err)
	}
	u := make([]float64, k.Size())
	chol.solve(f, u, make([]float64, chol.n))
	diff, norm := 0.0, 0.0
	for i := range u {
		diff = math.Max(diff, math.Abs(u[i]-cg[i]))
		norm = math.Max(norm, math.Abs(cg[i]))
	}
	if diff > 1e-8*norm {
		t.Errorf("banded solve differs from CG by %.3g (largest displacement %.3g)", diff, norm)
	}
	// A block of right-hand sides — this load, scaled, and a spread — solved at once gives each
	// the same bits as solving it alone.
	fs := [][]float64{f, make([]float64, len(f)), make([]float64, len(f))}
	for i := range f {
		fs[1][i] = -3 * f[i]
		if !fixed[i/3] {
			fs[2][i] = spread(i, 5)
		}
	}
	us := [][]float64{make([]float64, len(f)), make([]float64, len(f)), make([]float64, len(f))}
	chol.solveBlock(fs, us, make([]float64, len(fs)*chol.n))
	one := make([]float64, len(f))
	for j := range fs {
		chol.solve(fs[j], one, make([]float64, chol.n))
		for i := range one {
			if us[j][i] != one[i] {
				t.Fatalf("block solve, vector %d, entry %d: %v, alone %v", j, i, us[j][i], one[i])
			}
		}
	}
	if section := 3 * 3 * 3; chol.w > 3*section+2 { // the DoFs of one cross-section of 3 × 3 vertices
		t.Errorf("band width %d, want at most about three cross-sections (%d)", chol.w, 3*section+2)
	}
}
