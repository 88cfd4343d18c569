package deform

import (
	"math"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
)

// softCantilever is a 1 m beam of 10 cm square section, clamped at x = −0.5, soft enough to sag by
// a large fraction of its length under its own weight.
type softCantilever struct {
	m     *TetMesh
	mat   Material
	mass  []float64
	fixed []bool
	k     *BlockMatrix
}

func newSoftCantilever(t testing.TB, nx, ny int, young float64) *softCantilever {
	t.Helper()
	m, err := NewBoxMesh(mgl64.Vec3{0.5, 0.05, 0.05}, nx, ny, ny)
	if err != nil {
		t.Fatal(err)
	}
	c := &softCantilever{m: m, mat: Material{Young: young, Poisson: 0.3, Density: 1000}}
	c.mass = LumpedMass(m, c.mat.Density)
	c.fixed = make([]bool, m.NumVertices())
	for a := range c.fixed {
		c.fixed[a] = m.Vertex(a)[0] < -0.5+1e-12
	}
	if c.k, err = Stiffness(m, c.mat); err != nil {
		t.Fatal(err)
	}
	return c
}

// gravity returns the nodal gravity load M g, zero on held vertices.
func (c *softCantilever) gravity(g mgl64.Vec3) []float64 {
	f := make([]float64, 3*c.m.NumVertices())
	for a, q := range c.mass {
		if !c.fixed[a] {
			f[3*a], f[3*a+1], f[3*a+2] = q*g[0], q*g[1], q*g[2]
		}
	}
	return f
}

// fullStatic solves g(u) = f by Newton's method on the full mesh with the load applied in steps,
// each tangent factored by the banded Cholesky on the free vertices.
func (c *softCantilever) fullStatic(t *testing.T, f []float64, loadSteps int) []float64 {
	t.Helper()
	s, err := NewStVK(c.m, c.mat)
	if err != nil {
		t.Fatal(err)
	}
	n := s.Size()
	u, g, res, du := make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
	fn := math.Sqrt(dot(f, f))
	for step := 1; step <= loadSteps; step++ {
		scale := float64(step) / float64(loadSteps)
		converged := false
		for it := 0; it < 40; it++ {
			if err := s.InternalForce(u, g); err != nil {
				t.Fatal(err)
			}
			norm := 0.0
			for i := range res {
				res[i] = 0
				if !c.fixed[i/3] {
					res[i] = scale*f[i] - g[i]
					norm += res[i] * res[i]
				}
			}
			if math.Sqrt(norm) < 1e-10*fn {
				converged = true
				break
			}
			k, err := s.Tangent(u)
			if err != nil {
				t.Fatal(err)
			}
			chol, err := newBandedCholesky(k, c.fixed)
			if err != nil {
				t.Fatalf("load step %d: %v", step, err)
			}
			chol.solve(res, du, make([]float64, chol.n))
			for i := range u {
				u[i] += du[i]
			}
		}
		if !converged {
			t.Fatalf("full Newton: load step %d did not converge", step)
		}
	}
	return u
}

// reducedStatic solves Uᵀ g(U q) = Uᵀ f by Newton's method on the reduced model, the load in
// steps, and returns U q.
func reducedStatic(t *testing.T, c *softCantilever, basis [][]float64, f []float64, loadSteps int) []float64 {
	t.Helper()
	rs, err := NewReducedStVK(c.m, c.mat, basis, nil)
	if err != nil {
		t.Fatal(err)
	}
	r := len(basis)
	fr := make([]float64, r)
	for j := range fr {
		fr[j] = dot(basis[j], f)
	}
	q, g, k, res := make([]float64, r), make([]float64, r), make([]float64, r*r), make([]float64, r)
	fn := math.Sqrt(dot(fr, fr))
	for step := 1; step <= loadSteps; step++ {
		scale := float64(step) / float64(loadSteps)
		converged := false
		for it := 0; it < 60; it++ {
			if err := rs.Evaluate(q, g, k); err != nil {
				t.Fatal(err)
			}
			for i := range res {
				res[i] = scale*fr[i] - g[i]
			}
			if math.Sqrt(dot(res, res)) < 1e-10*fn {
				converged = true
				break
			}
			if !solveDense(k, res, r) {
				t.Fatalf("reduced Newton: singular tangent at load step %d", step)
			}
			for i := range q {
				q[i] += res[i]
			}
		}
		if !converged {
			t.Fatalf("reduced Newton (r = %d): load step %d did not converge", r, step)
		}
	}
	return expand(basis, q)
}

// A cantilever sagging under gravity by over a third of its length: the static StVK solution in
// the reduced space of 6 modes and their derivatives (20 vectors) is much closer to the full-space
// Newton solution than the one in 20 linear modes, which cannot shorten the beam as it bends and
// so stiffen against the load.
func TestModalDerivativesCaptureLargeDeflection(t *testing.T) {
	c := newSoftCantilever(t, 16, 3, 2e6)
	f := c.gravity(mgl64.Vec3{0, 0, -9.81})
	full := c.fullStatic(t, f, 8)
	mNorm := func(u []float64) float64 {
		s := 0.0
		for i, x := range u {
			s += c.mass[i/3] * x * x
		}
		return math.Sqrt(s)
	}
	tip := func(u []float64) float64 {
		z, n := 0.0, 0
		for a := 0; a < c.m.NumVertices(); a++ {
			if c.m.Vertex(a)[0] > 0.5-1e-12 {
				z += u[3*a+2]
				n++
			}
		}
		return z / float64(n)
	}
	relErr := func(u []float64) float64 {
		d := make([]float64, len(u))
		for i := range d {
			d[i] = u[i] - full[i]
		}
		return mNorm(d) / mNorm(full)
	}
	lin20, err := LowestModes(c.k, c.mass, c.fixed, 20, 1e-10, 500)
	if err != nil {
		t.Fatal(err)
	}
	lin6, err := LowestModes(c.k, c.mass, c.fixed, 6, 1e-10, 500)
	if err != nil {
		t.Fatal(err)
	}
	deriv, err := ModalDerivativeBasis(c.m, c.mat, c.mass, c.fixed, lin6, 20)
	if err != nil {
		t.Fatal(err)
	}
	if len(deriv) != 20 {
		t.Fatalf("derivative basis of %d vectors, want 20", len(deriv))
	}
	checkMassOrthonormal(t, c.mass, deriv)
	uLin := reducedStatic(t, c, lin20.Shapes, f, 8)
	uDer := reducedStatic(t, c, deriv, f, 8)
	eLin, eDer := relErr(uLin), relErr(uDer)
	t.Logf("tip sag: full %.4f m, 20 linear modes %.4f m (error %.1f %%), 6 modes + derivatives %.4f m (error %.1f %%)",
		-tip(full), -tip(uLin), 100*eLin, -tip(uDer), 100*eDer)
	if -tip(full) < 0.15 {
		t.Fatalf("the beam sags only %.3f m: not a large deflection", -tip(full))
	}
	if !(eDer < 0.25*eLin) || eDer > 0.05 {
		t.Errorf("with derivatives error %.3g, linear modes %.3g: want at most a quarter and under 5 %%", eDer, eLin)
	}
}

// checkMassOrthonormal asserts φ_iᵀ M φ_j = δ_ij to 1e-10.
func checkMassOrthonormal(t *testing.T, mass []float64, basis [][]float64) {
	t.Helper()
	for i := range basis {
		for j := 0; j <= i; j++ {
			s := 0.0
			for k, x := range basis[i] {
				s += mass[k/3] * x * basis[j][k]
			}
			want := 0.0
			if i == j {
				want = 1
			}
			if math.Abs(s-want) > 1e-10 {
				t.Fatalf("φ%dᵀMφ%d = %.3g", i, j, s)
			}
		}
	}
}

// For a free body the derivatives are solved on the complement of the rigid modes: the basis is
// mass-orthonormal and mean-axis (no linear or angular momentum), and its span holds the solution
// of K Ψ = b for b = −H:Φ₀Φ₀ with its rigid components removed — H:ΦΦ taken independently, as the
// second difference (g(εΦ) + g(−εΦ))/ε² of the cubic StVK force, exact up to round-off. The
// Galerkin solution V (VᵀKV)⁻¹ Vᵀ b in the span must leave a residual K x − b of round-off.
func TestModalDerivativesFreeBody(t *testing.T) {
	mtl := Material{Young: 1e6, Poisson: 0.3, Density: 1000}
	m, k, mass := freeBody(t, mgl64.Vec3{0.5, 0.1, 0.1}, 10, 2, 2, mtl)
	md, err := FreeModes(m, k, mass, 4, 1e-10, 500)
	if err != nil {
		t.Fatal(err)
	}
	basis, err := ModalDerivativeBasis(m, mtl, mass, nil, md, 14)
	if err != nil {
		t.Fatal(err)
	}
	if len(basis) != 14 {
		t.Fatalf("%d vectors, want 14", len(basis))
	}
	checkMassOrthonormal(t, mass, basis)
	checkMeanAxis(t, m, mass, basis)

	s, err := NewStVK(m, mtl)
	if err != nil {
		t.Fatal(err)
	}
	n := s.Size()
	const eps = 1e-2
	b, gp, gm, u := make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
	for i, x := range md.Shapes[0] {
		u[i] = eps * x
	}
	_ = s.InternalForce(u, gp)
	for i := range u {
		u[i] = -u[i]
	}
	_ = s.InternalForce(u, gm)
	for i := range b {
		b[i] = -(gp[i] + gm[i]) / (eps * eps)
	}
	mdiag := make([]float64, n)
	for i := range mdiag {
		mdiag[i] = mass[i/3]
	}
	for _, rho := range rigidModes(m, mass) {
		d := dot(rho, b)
		for i := range b {
			b[i] -= d * mdiag[i] * rho[i]
		}
	}
	r := len(basis)
	kv := make([][]float64, r)
	kr, rhs := make([]float64, r*r), make([]float64, r)
	for j, v := range basis {
		kv[j] = make([]float64, n)
		k.MulVec(v, kv[j])
		rhs[j] = dot(v, b)
	}
	for i := range basis {
		for j := range basis {
			kr[i*r+j] = dot(basis[i], kv[j])
		}
	}
	if !solveDense(kr, rhs, r) {
		t.Fatal("VᵀKV singular")
	}
	res := append([]float64(nil), b...)
	for j := range basis {
		for i := range res {
			res[i] -= rhs[j] * kv[j][i]
		}
	}
	if rel := math.Sqrt(dot(res, res) / dot(b, b)); rel > 1e-7 {
		t.Errorf("K x − b in the basis' span: %.3g of |b|", rel)
	}
}

// Bad arguments are refused naming them.
func TestModalDerivativesRefuseBadInput(t *testing.T) {
	c := newSoftCantilever(t, 4, 1, 1e6)
	md, err := LowestModes(c.k, c.mass, c.fixed, 3, 1e-8, 300)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		mass  []float64
		fixed []bool
		size  int
		want  string
	}{
		{"short mass", c.mass[:3], c.fixed, 5, "mass: needs"},
		{"short fixed", c.mass, c.fixed[:2], 5, "fixed: needs"},
		{"size below modes", c.mass, c.fixed, 2, "size"},
		{"size too big", c.mass, c.fixed, MaxReducedBasis + 1, "size"},
		{"none held", c.mass, make([]bool, len(c.fixed)), 5, "holds no vertex"},
	} {
		if _, err := ModalDerivativeBasis(c.m, c.mat, tc.mass, tc.fixed, md, tc.size); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
}
