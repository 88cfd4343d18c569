package deform

import (
	"math"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
	"gonum.org/v1/gonum/mat"
)

// frameFixture is a free soft bar with its linear modal body (modes r0) and its floating-frame
// StVK body (the modes and their derivatives, size rb).
type frameFixture struct {
	mesh   *TetMesh
	mat    Material
	mass   []float64
	modes  *Modes
	basis  [][]float64
	model  *ReducedStVK
	linear *ModalBody
	body   *ModalBody
}

func newFrameFixture(t testing.TB, r0, rb int, alpha, beta float64) *frameFixture {
	t.Helper()
	mtl := Material{Young: 2e5, Poisson: 0.3, Density: 1000}
	m, k, mass := freeBody(t, mgl64.Vec3{0.3, 0.05, 0.05}, 8, 2, 2, mtl)
	md, err := FreeModes(m, k, mass, r0, 1e-10, 300)
	if err != nil {
		t.Fatal(err)
	}
	basis, err := ModalDerivativeBasis(m, mtl, mass, nil, md, rb)
	if err != nil {
		t.Fatal(err)
	}
	model, err := NewReducedStVK(m, mtl, basis, nil)
	if err != nil {
		t.Fatal(err)
	}
	lin, err := NewModalBody(m, mass, md, alpha, beta)
	if err != nil {
		t.Fatal(err)
	}
	b, err := NewFrameStVKBody(m, mtl, mass, basis, model, alpha, beta)
	if err != nil {
		t.Fatal(err)
	}
	return &frameFixture{mesh: m, mat: mtl, mass: mass, modes: md, basis: basis, model: model, linear: lin, body: b}
}

// vertexState returns vertex a's world position and velocity from x_a = x + R (x̄_a + U_a z),
// summed over the full mesh and the basis as ModalDerivativeBasis returned it.
func (f *frameFixture) vertexState(s *ModalState, centre mgl64.Vec3, a int) (mgl64.Vec3, mgl64.Vec3) {
	rot := s.Orientation.Mat4().Mat3()
	local := f.mesh.Vertex(a).Sub(centre)
	var rate mgl64.Vec3
	for k, u := range f.basis {
		v := mgl64.Vec3{u[3*a], u[3*a+1], u[3*a+2]}
		local = local.Add(v.Mul(s.Z[k]))
		rate = rate.Add(v.Mul(s.ZDot[k]))
	}
	arm := rot.Mul3x1(local)
	return s.Position.Add(arm), s.LinearVelocity.Add(s.AngularVelocity.Cross(arm)).Add(rot.Mul3x1(rate))
}

// fullMomenta returns the linear and angular momentum (about the origin) summed over the mesh.
func (f *frameFixture) fullMomenta(s *ModalState) (lin, ang mgl64.Vec3) {
	centre := centreOfMass(f.mesh, f.mass)
	for a, q := range f.mass {
		x, v := f.vertexState(s, centre, a)
		lin = lin.Add(v.Mul(q))
		ang = ang.Add(x.Cross(v.Mul(q)))
	}
	return lin, ang
}

// minTetVolume returns the least signed volume of the deformed mesh's tetrahedra, rebuilt from the
// vertices' world positions.
func (f *frameFixture) minTetVolume(s *ModalState) float64 {
	centre := centreOfMass(f.mesh, f.mass)
	x := make([]mgl64.Vec3, f.mesh.NumVertices())
	for a := range x {
		x[a], _ = f.vertexState(s, centre, a)
	}
	least := math.Inf(1)
	for _, tet := range f.mesh.tets {
		least = math.Min(least, signedVolume([4]mgl64.Vec3{x[tet[0]], x[tet[1]], x[tet[2]], x[tet[3]]}))
	}
	return least
}

// A free-floating, spinning StVK bar released bent far (its first bending coordinate at 0.04 m√kg:
// the bar's ends 3 cm off its axis, a tenth of its half-length, a strain energy 50 % above the
// linear modes') keeps its linear and angular
// momentum — summed over the full mesh, not taken from the reduced model — to 1e-9 relative over
// 1,000 steps of 0.01 s without gravity, stays finite, never inverts an element, and vibrates
// (its strain energy swings by more than half).
func TestFrameStVKConservesMomentum(t *testing.T) {
	f := newFrameFixture(t, 6, 14, 0, 0)
	b := f.body
	z := make([]float64, 14)
	zd := make([]float64, 14)
	z[0], z[2], zd[1] = 0.04, -0.01, 0.1
	if err := b.SetState(ModalState{
		Position: mgl64.Vec3{1, 2, 3}, Orientation: mgl64.QuatRotate(0.4, mgl64.Vec3{1, 1, 0}.Normalize()),
		LinearVelocity: mgl64.Vec3{1, 0, 0.5}, AngularVelocity: mgl64.Vec3{0.3, 1.2, 0.2}, Z: z, ZDot: zd,
	}); err != nil {
		t.Fatal(err)
	}
	var s ModalState
	b.State(&s)
	lin0, ang0 := f.fullMomenta(&s)
	qdot := make([]float64, b.DoFs())
	maxLin, maxAng, minVol, minE, maxE := 0.0, 0.0, math.Inf(1), math.Inf(1), 0.0
	for i := 0; i < 1000; i++ {
		step(t, b, 0.01, mgl64.Vec3{}, qdot)
		b.State(&s)
		lin, ang := f.fullMomenta(&s)
		maxLin = math.Max(maxLin, lin.Sub(lin0).Len()/lin0.Len())
		maxAng = math.Max(maxAng, ang.Sub(ang0).Len()/ang0.Len())
		if i%50 == 0 {
			minVol = math.Min(minVol, f.minTetVolume(&s))
		}
		w := b.ElasticEnergy()
		minE, maxE = math.Min(minE, w), math.Max(maxE, w)
	}
	t.Logf("momentum drift linear %.2g, angular %.2g; strain energy %.3g–%.3g J; least tet volume %.3g m³", maxLin, maxAng, minE, maxE, minVol)
	if !(maxLin <= 1e-9 && maxAng <= 1e-9) {
		t.Errorf("momentum drift: linear %.3g, angular %.3g relative; want ≤ 1e-9", maxLin, maxAng)
	}
	if !(minVol > 0) {
		t.Errorf("an element inverted (least volume %.3g m³)", minVol)
	}
	if !(maxE > 0 && minE < 0.5*maxE) {
		t.Errorf("strain energy stayed in [%.3g, %.3g] J: the bar did not vibrate", minE, maxE)
	}
}

// runPair releases the linear modal body and the StVK body of f from the same turned, spinning
// state with the first bending mode displaced by amp, and returns the largest difference of any
// vertex's world position between them over n steps of 0.01 s, relative to the largest
// displacement of a vertex from its rigid position in the linear run.
func runPair(t *testing.T, f *frameFixture, amp float64, n int) float64 {
	t.Helper()
	rl, rs := len(f.modes.Omega2), len(f.basis)
	base := ModalState{Position: mgl64.Vec3{0, 0, 1}, Orientation: mgl64.QuatRotate(0.3, mgl64.Vec3{0, 0, 1})}
	sl, ss := base, base
	sl.Z, sl.ZDot = make([]float64, rl), make([]float64, rl)
	ss.Z, ss.ZDot = make([]float64, rs), make([]float64, rs)
	// The StVK basis opens with the modes (up to round-off in its normalisation).
	sl.Z[0], ss.Z[0] = amp, amp
	if err := f.linear.SetState(sl); err != nil {
		t.Fatal(err)
	}
	if err := f.body.SetState(ss); err != nil {
		t.Fatal(err)
	}
	ql, qs := make([]float64, 6+rl), make([]float64, 6+rs)
	diff, disp := 0.0, 0.0
	for i := 0; i < n; i++ {
		step(t, f.linear, 0.01, mgl64.Vec3{}, ql)
		step(t, f.body, 0.01, mgl64.Vec3{}, qs)
		f.linear.State(&sl)
		for a := 0; a < f.mesh.NumVertices(); a++ {
			xl, _ := f.linear.Position(VertexPoint(a))
			xs, _ := f.body.Position(VertexPoint(a))
			diff = math.Max(diff, xl.Sub(xs).Len())
			rigid := sl.Position.Add(sl.Orientation.Rotate(f.linear.rest[a]))
			disp = math.Max(disp, xl.Sub(rigid).Len())
		}
	}
	return diff / disp
}

// For a small amplitude (the bar's ends 0.1 mm off its axis) the StVK body follows the linear
// modal body — a separate model built on the free modes alone — to 1 % of the motion over 2 s; for
// a large one (8 cm) the two differ by more than 10 %: StVK's quadratic strain stiffens the bend
// and shortens the bar, which the linear modes cannot.
func TestFrameStVKMatchesLinearAtSmallAmplitude(t *testing.T) {
	f := newFrameFixture(t, 6, 12, 0, 0)
	small := runPair(t, f, 1e-4, 200)
	large := runPair(t, f, 0.1, 200)
	t.Logf("StVK against linear modal: %.3g of the motion at 0.1 mm, %.3g at 8 cm", small, large)
	if !(small < 0.01) {
		t.Errorf("small amplitude: the models differ by %.3g of the motion, want < 1 %%", small)
	}
	if !(large > 0.1) {
		t.Errorf("large amplitude: the models differ by only %.3g of the motion: no nonlinearity", large)
	}
}

// frozenMidpoint is the contact-free solution of a step that the impulse runs of nonlinearStep
// keep, as the step does: the midpoint momentum m̄, and the midpoint velocity (ω̄_b, ż̄) at which
// M(z̄) and g_qv are taken.
type frozenMidpoint struct {
	mbar, wbar mgl64.Vec3
	zdbar      []float64
}

// nonlinearStep solves the StVK body's step equations for the generalised impulse p independently
// of its step code (frame_stvk.go, modal_step.go): Newton's method with a finite-difference
// Jacobian (gonum's LU) on the unknowns (ω̄_b, ż̄) of
//
//	J(z̄) ω̄_b + S(z̄) ż̄ = m̄ + ½ Rᵀ p_ω,
//	S(z̄)ᵀ ω̄_b + ż̄ + (h/2)(F(ż̄) + D ż̄) = π + (h/2) g_qv(z̄, ω̄_b, ż̄) + ½ p_z,   z̄ = z + (h/2) ż̄,
//
// with π = Sᵀ ω_b + ż from the state, J, S and g_qv summed over f's mesh (meshKinetics), F the
// mean of g̃ over the step's segment by 5-point Gauss–Legendre quadrature, D = α I + β K̃(0), and
// m̄ the midpoint momentum, found with the rest when p is nil (m̄ = L_b + (h/2) m̄ × ω̄_b) and
// returned in fr with the midpoint velocity; the impulse runs freeze m̄, and M and g_qv at fr's
// midpoint, as the step does.
func nonlinearStep(t *testing.T, f *frameFixture, h float64, g mgl64.Vec3, alpha, beta float64, p []float64, fr *frozenMidpoint, dst []float64) {
	t.Helper()
	b := f.body
	r := b.r
	rt := b.rotation.Transpose()
	wb := rt.Mul3x1(b.angularVel)
	lb := b.inertia.Mul3x1(wb)
	pi := make([]float64, r)
	for k, s := range b.sCols {
		lb = lb.Add(s.Mul(b.zd[k]))
		pi[k] = s.Dot(wb) + b.zd[k]
	}
	p0 := make([]float64, r)
	kt := make([]float64, r*r)
	if err := b.stvk.model.Evaluate(make([]float64, r), p0, kt); err != nil {
		t.Fatal(err)
	}
	gl := [5][2]float64{{0, 128.0 / 225}, {-0.5384693101056831, 0.4786286704993665}, {0.5384693101056831, 0.4786286704993665},
		{-0.9061798459386640, 0.2369268850561891}, {0.9061798459386640, 0.2369268850561891}}
	zq, fq, zbar := make([]float64, r), make([]float64, r), make([]float64, r)
	free := p == nil
	if free {
		p = make([]float64, 6+r)
	}
	midpoint := func(zd []float64) []float64 {
		for k := range zbar {
			zbar[k] = b.z[k] + 0.5*h*zd[k]
		}
		return zbar
	}
	var jf mgl64.Mat3
	var sf []mgl64.Vec3
	var gf []float64
	if !free {
		jf, sf, gf = meshKinetics(f.mesh, f.mass, f.basis, midpoint(fr.zdbar), fr.wbar, fr.zdbar)
	}
	pw := rt.Mul3x1(mgl64.Vec3{p[3], p[4], p[5]}).Mul(0.5)
	n := 3 + r
	if free {
		n += 3
	}
	residual := func(x, res []float64) {
		w := mgl64.Vec3{x[0], x[1], x[2]}
		zdb := x[3 : 3+r]
		m := fr.mbar
		jm, sm, gq := jf, sf, gf
		if free {
			m = mgl64.Vec3{x[3+r], x[4+r], x[5+r]}
			gyro := m.Sub(lb).Sub(m.Cross(w).Mul(h / 2))
			res[3+r], res[4+r], res[5+r] = gyro[0], gyro[1], gyro[2]
			jm, sm, gq = meshKinetics(f.mesh, f.mass, f.basis, midpoint(zdb), w, zdb)
		}
		rot := jm.Mul3x1(w).Sub(m).Sub(pw)
		for k, s := range sm {
			rot = rot.Add(s.Mul(zdb[k]))
		}
		res[0], res[1], res[2] = rot[0], rot[1], rot[2]
		favg := make([]float64, r)
		for _, q := range gl {
			for k := range zq {
				zq[k] = b.z[k] + 0.5*(1+q[0])*h*zdb[k]
			}
			if err := b.stvk.model.Evaluate(zq, fq, nil); err != nil {
				t.Fatal(err)
			}
			for k := range favg {
				favg[k] += 0.5 * q[1] * fq[k]
			}
		}
		for k, s := range sm {
			d := alpha * zdb[k]
			for l := 0; l < r; l++ {
				d += beta * kt[k*r+l] * zdb[l]
			}
			res[3+k] = s.Dot(w) + zdb[k] + 0.5*h*(favg[k]+d) - pi[k] - 0.5*h*gq[k] - 0.5*p[6+k]
		}
	}
	x := make([]float64, n)
	copy(x[0:3], wb[:])
	copy(x[3:3+r], b.zd)
	if free {
		copy(x[3+r:], lb[:])
	}
	res, res2 := make([]float64, n), make([]float64, n)
	jac := mat.NewDense(n, n, nil)
	for it := 0; it < 30; it++ {
		residual(x, res)
		for j := 0; j < n; j++ {
			e := 1e-7 * math.Max(1, math.Abs(x[j]))
			x[j] += e
			residual(x, res2)
			x[j] -= e
			for i := 0; i < n; i++ {
				jac.Set(i, j, (res2[i]-res[i])/e)
			}
		}
		var dx mat.VecDense
		if err := dx.SolveVec(jac, mat.NewVecDense(n, res)); err != nil {
			t.Fatal(err)
		}
		size := 0.0
		for j := range x {
			x[j] -= dx.AtVec(j)
			size = math.Max(size, math.Abs(dx.AtVec(j)))
		}
		if size < 1e-15 {
			break
		}
	}
	if free {
		fr.mbar = mgl64.Vec3{x[3+r], x[4+r], x[5+r]}
		fr.wbar = mgl64.Vec3{x[0], x[1], x[2]}
		fr.zdbar = append([]float64(nil), x[3:3+r]...)
	}
	v := b.velocity.Add(g.Mul(h)).Add(mgl64.Vec3{p[0], p[1], p[2]}.Mul(1 / b.mass))
	w := b.rotation.Mul3x1(mgl64.Vec3{x[0], x[1], x[2]})
	copy(dst, v[:])
	copy(dst[3:], w[:])
	copy(dst[6:], x[3:3+r])
}

// The StVK body's predicted velocity is the solution of its nonlinear step equations (solved
// independently, nonlinearStep) to 1e-9, and the step's velocity responds to a generalised impulse
// through EffectiveMass⁻¹ to first order: central differences of the independent solution along
// every unit impulse against gonum's Cholesky solve of the matrix EffectiveMass writes (exactly
// symmetric, positive definite), for a turned, spinning body bent far. The bend matters: the
// modal block differs from the rest stiffness's I + (h/2)D + (h²/4)P by more than 1 %, so a step
// that answered impulses through the linear model's mass would fail.
func TestFrameStVKRespondsThroughEffectiveMass(t *testing.T) {
	const h, alpha, beta = 0.01, 0.5, 0.002
	f := newFrameFixture(t, 4, 8, alpha, beta)
	b := f.body
	n := b.DoFs()
	r := n - 6
	st := ModalState{
		Position: mgl64.Vec3{0.3, -0.2, 1}, Orientation: mgl64.QuatRotate(0.7, mgl64.Vec3{1, 2, 3}.Normalize()),
		LinearVelocity: mgl64.Vec3{0.5, -1, -2}, AngularVelocity: mgl64.Vec3{0.8, -0.4, 1.1},
		Z: []float64{0.08, -0.03, 0.02, 0.01, -0.01, 0.005, 0.002, -0.003}, ZDot: []float64{0.2, 0.1, -0.1, 0.05, 0.02, -0.03, 0.01, 0.02},
	}
	if err := b.SetState(st); err != nil {
		t.Fatal(err)
	}
	g := mgl64.Vec3{0, 0, -9.81}
	qp := make([]float64, n)
	if err := b.PredictVelocity(h, g, qp); err != nil {
		t.Fatal(err)
	}
	var fr frozenMidpoint
	ref := make([]float64, n)
	nonlinearStep(t, f, h, g, alpha, beta, nil, &fr, ref)
	norm := 0.0
	for i := range ref {
		norm = math.Max(norm, math.Abs(ref[i]))
	}
	for i := range ref {
		if d := math.Abs(qp[i] - ref[i]); d > 1e-9*norm {
			t.Fatalf("q̇ᴾ[%d] = %.12g, the step equations' solution %.12g", i, qp[i], ref[i])
		}
	}
	me := make([]float64, n*n)
	if err := b.EffectiveMass(me); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < n; i++ {
		for j := 0; j < i; j++ {
			if me[i*n+j] != me[j*n+i] {
				t.Fatalf("effective mass not symmetric at (%d, %d)", i, j)
			}
		}
	}
	var chol mat.Cholesky
	if !chol.Factorize(mat.NewSymDense(n, me)) {
		t.Fatal("effective mass not positive definite")
	}
	// The modal block against the rest stiffness's.
	off := 0.0
	for k := 0; k < r; k++ {
		for l := 0; l < r; l++ {
			rest := 0.5 * h * (beta + 0.5*h) * f.model.p[k*r+l]
			if k == l {
				rest += 1 + 0.5*h*alpha
			}
			off = math.Max(off, math.Abs(me[(6+k)*n+6+l]/2-rest)/math.Abs(me[(6+k)*n+6+k]/2))
		}
	}
	if !(off > 0.01) {
		t.Fatalf("the modal block is within %.3g of the rest stiffness's: the test does not tell them apart", off)
	}
	scale := math.Sqrt(b.Mass())
	p := make([]float64, n)
	qa, qb := make([]float64, n), make([]float64, n)
	for j := 0; j < n; j++ {
		eps := 1e-4 * scale
		clear(p)
		p[j] = eps
		nonlinearStep(t, f, h, g, alpha, beta, p, &fr, qa)
		p[j] = -eps
		nonlinearStep(t, f, h, g, alpha, beta, p, &fr, qb)
		var want mat.VecDense
		e := mat.NewVecDense(n, nil)
		e.SetVec(j, 1)
		if err := chol.SolveVecTo(&want, e); err != nil {
			t.Fatal(err)
		}
		wn := mat.Norm(&want, 2)
		for i := 0; i < n; i++ {
			fd := (qa[i] - qb[i]) / (2 * eps)
			if d := math.Abs(fd - want.AtVec(i)); d > 1e-6*wn {
				t.Fatalf("response of q̇[%d] to p[%d]: central difference %.10g, M_eff⁻¹ %.10g", i, j, fd, want.AtVec(i))
			}
		}
	}
}

// Two StVK bodies stepped alike are bit-identical, and a warm step (with a point Jacobian)
// allocates nothing.
func TestFrameStVKDeterministicAndAllocationFree(t *testing.T) {
	f := newFrameFixture(t, 4, 10, 0.1, 1e-3)
	g, err := NewFrameStVKBody(f.mesh, f.mat, f.mass, f.basis, f.model, 0.1, 1e-3)
	if err != nil {
		t.Fatal(err)
	}
	z, zd := make([]float64, 10), make([]float64, 10)
	z[0], z[3], zd[1] = 0.05, -0.01, 0.2
	st := ModalState{Orientation: mgl64.QuatRotate(0.5, mgl64.Vec3{0, 1, 0}), AngularVelocity: mgl64.Vec3{1, 2, 0.5}, Z: z, ZDot: zd}
	qa := checkTwinRuns(t, f.body, g, st)
	jac := make([]float64, 3*16)
	me := make([]float64, 16*16)
	allocs := testing.AllocsPerRun(20, func() {
		if err := f.body.PredictVelocity(0.01, mgl64.Vec3{0, 0, -9.81}, qa); err != nil {
			t.Fatal(err)
		}
		if err := f.body.EffectiveMass(me); err != nil {
			t.Fatal(err)
		}
		if err := f.body.Advance(0.01, qa, nil); err != nil {
			t.Fatal(err)
		}
		if err := f.body.PointJacobian(VertexPoint(3), jac); err != nil {
			t.Fatal(err)
		}
		_ = f.body.ElasticEnergy()
	})
	if allocs != 0 {
		t.Errorf("a warm step allocates %v times", allocs)
	}
}

// NewFrameStVKBody refuses a missing mesh or model, a model of another basis or material, a basis
// of the wrong size and a rigid basis vector, naming the argument.
func TestFrameStVKRefusesBadInput(t *testing.T) {
	f := newFrameFixture(t, 2, 4, 0, 0)
	other := f.mat
	other.Young *= 2
	rigid := make([][]float64, len(f.basis))
	copy(rigid, f.basis)
	rigid[1] = make([]float64, len(f.basis[1]))
	for a := 0; a < f.mesh.NumVertices(); a++ {
		rigid[1][3*a] = 1
	}
	rigidModel, err := NewReducedStVK(f.mesh, f.mat, rigid, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		build func() (*ModalBody, error)
		want  string
	}{
		{"no mesh", func() (*ModalBody, error) { return NewFrameStVKBody(nil, f.mat, f.mass, f.basis, f.model, 0, 0) }, "needs a mesh"},
		{"no model", func() (*ModalBody, error) { return NewFrameStVKBody(f.mesh, f.mat, f.mass, f.basis, nil, 0, 0) }, "needs a reduced StVK model"},
		{"short basis", func() (*ModalBody, error) {
			return NewFrameStVKBody(f.mesh, f.mat, f.mass, f.basis[:3], f.model, 0, 0)
		}, "basis: 3 vectors"},
		{"other material", func() (*ModalBody, error) { return NewFrameStVKBody(f.mesh, other, f.mass, f.basis, f.model, 0, 0) }, "model: computed for another"},
		{"rigid vector", func() (*ModalBody, error) {
			return NewFrameStVKBody(f.mesh, f.mat, f.mass, rigid, rigidModel, 0, 0)
		}, "basis[1]: no strain energy"},
		{"negative beta", func() (*ModalBody, error) {
			return NewFrameStVKBody(f.mesh, f.mat, f.mass, f.basis, f.model, 0, -1)
		}, "NewFrameStVKBody beta"},
	} {
		b, err := tc.build()
		if err == nil || b != nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, %v; want an error containing %q", tc.name, b, err, tc.want)
		}
	}
}
