package deform

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
	"gonum.org/v1/gonum/mat"
)

// stiffMaterial has modes with hω of order 1 at h = 0.01 on the test meshes, where the implicit
// step's response to an impulse is far from the kinetic mass's.
var stiffMaterial = Material{Young: 1e6, Poisson: 0.3, Density: 500}

// checkResponse finite-differences step(p) (the velocity over a prepared step with impulse p)
// along every unit impulse and compares each column with effMass⁻¹ e_j, solved by gonum's
// Cholesky factorisation of the matrix effMass wrote; it also checks that the matrix is exactly
// symmetric and returns it.
func checkResponse(t *testing.T, n int, scale float64, step func(p, dst []float64) error, effMass func(dst []float64) error) *mat.SymDense {
	t.Helper()
	me := make([]float64, n*n)
	if err := effMass(me); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < n; i++ {
		for j := 0; j < i; j++ {
			if me[i*n+j] != me[j*n+i] {
				t.Fatalf("effective mass not symmetric at (%d, %d): %v, %v", i, j, me[i*n+j], me[j*n+i])
			}
		}
	}
	sym := mat.NewSymDense(n, me)
	var chol mat.Cholesky
	if !chol.Factorize(sym) {
		t.Fatal("effective mass not positive definite")
	}
	p := make([]float64, n)
	q0, q1 := make([]float64, n), make([]float64, n)
	if err := step(p, q0); err != nil {
		t.Fatal(err)
	}
	for j := 0; j < n; j++ {
		eps := scale * 1e-3
		clear(p)
		p[j] = eps
		if err := step(p, q1); err != nil {
			t.Fatal(err)
		}
		var want mat.VecDense
		e := mat.NewVecDense(n, nil)
		e.SetVec(j, 1)
		if err := chol.SolveVecTo(&want, e); err != nil {
			t.Fatal(err)
		}
		norm := mat.Norm(&want, 2)
		for i := 0; i < n; i++ {
			fd := (q1[i] - q0[i]) / eps
			if d := math.Abs(fd - want.AtVec(i)); d > 1e-7*norm {
				t.Fatalf("response of q̇[%d] to p[%d]: finite difference %.12g, M_eff⁻¹ %.12g", i, j, fd, want.AtVec(i))
			}
		}
	}
	return sym
}

// The velocity of a ModalBody's step — turned, deformed, spinning and vibrating, stiff modes —
// responds to a generalised impulse through EffectiveMass⁻¹ (finite differences of StepVelocity,
// against gonum's Cholesky solve of the matrix EffectiveMass writes), which differs from the
// kinetic mass M(z); without impulse StepVelocity is PredictVelocity's q̇ᴾ bit for bit; and after
// Advance with that velocity and impulse the end-of-step state is the one the step's momentum
// balance gives: m v' = m (v + h g) + p_v with v' the velocity moved with, the world angular
// momentum about the centre of mass L + p_ω, and the modal momenta π' = 2 π̄ − π with π̄ = S(z̄)ᵀω̄_b
// + ż̄ the moving velocity's, S at the contact-free midpoint (the implicit midpoint rule), each summed independently of the step's
// own bookkeeping.
func TestModalStepRespondsThroughEffectiveMass(t *testing.T) {
	const h, r = 0.01, 6
	f := newModalFixture(t, mgl64.Vec3{0.2, 0.15, 0.1}, 3, 2, 2, stiffMaterial, r, 0.5, 0.002)
	b := f.body
	n := b.DoFs()
	st := ModalState{
		Position:        mgl64.Vec3{0.3, -0.2, 1},
		Orientation:     mgl64.QuatRotate(0.7, mgl64.Vec3{1, 2, 3}.Normalize()),
		LinearVelocity:  mgl64.Vec3{0.5, -1, -2},
		AngularVelocity: mgl64.Vec3{0.8, -0.4, 1.1},
		Z:               []float64{0.004, -0.002, 0.003, 0.001, -0.003, 0.002},
		ZDot:            []float64{0.05, 0.02, -0.04, 0.03, 0.01, -0.02},
	}
	if err := b.SetState(st); err != nil {
		t.Fatal(err)
	}
	g := mgl64.Vec3{0, 0, -9.81}
	qp := make([]float64, n)
	if err := b.PredictVelocity(h, g, qp); err != nil {
		t.Fatal(err)
	}
	zero, q := make([]float64, n), make([]float64, n)
	if err := b.StepVelocity(zero, q); err != nil {
		t.Fatal(err)
	}
	for i := range q {
		if q[i] != qp[i] {
			t.Fatalf("StepVelocity(0)[%d] = %v, PredictVelocity %v", i, q[i], qp[i])
		}
	}
	me := checkResponse(t, n, math.Sqrt(b.Mass()), b.StepVelocity, b.EffectiveMass)
	kin := make([]float64, n*n)
	b.MassMatrix(kin)
	if d := math.Abs(me.At(n-1, n-1) - kin[n*n-1]); d < 1 {
		t.Fatalf("the stiffest mode's effective mass %.4g is the kinetic %.4g: the test does not tell them apart", me.At(n-1, n-1), kin[n*n-1])
	}

	// The end-of-step state after Advance with an impulse.
	p := []float64{0.3, -0.2, 1.5, 0.05, 0.02, -0.04, 0.02, -0.01, 0.03, 0.015, -0.02, 0.01}
	if err := b.StepVelocity(p, q); err != nil {
		t.Fatal(err)
	}
	lin0 := b.LinearMomentum()
	ang0 := b.AngularMomentum().Sub(b.CentreOfMass().Cross(lin0))
	rot0 := b.rotation
	wb := rot0.Transpose().Mul3x1(mgl64.Vec3{q[3], q[4], q[5]})
	pi0, piBar := make([]float64, r), make([]float64, r)
	b.bodyMomenta(rot0.Transpose().Mul3x1(b.angularVel), pi0)
	// The step takes M at the contact-free midpoint z̄ = z + (h/2) ż̄ᴾ, here summed over the mesh.
	zbar := make([]float64, r)
	for k := range zbar {
		zbar[k] = st.Z[k] + 0.5*h*qp[6+k]
	}
	_, sbar, _ := meshKinetics(f.mesh, f.mass, f.modes.Shapes, zbar, mgl64.Vec3{}, zbar)
	for k, s := range sbar {
		piBar[k] = s.Dot(wb) + q[6+k]
	}
	if err := b.Advance(h, q, p); err != nil {
		t.Fatal(err)
	}
	lin1 := b.LinearMomentum()
	if d := lin1.Sub(lin0.Add(g.Mul(h * b.Mass())).Add(mgl64.Vec3{p[0], p[1], p[2]})).Len(); d > 1e-12*lin1.Len() {
		t.Fatalf("linear momentum %v, off the balance by %.3g", lin1, d)
	}
	if d := b.velocity.Sub(mgl64.Vec3{q[0], q[1], q[2]}).Len(); d != 0 {
		t.Fatalf("end-of-step linear velocity %v, moved with %v", b.velocity, q[:3])
	}
	ang1 := b.AngularMomentum().Sub(b.CentreOfMass().Cross(lin1))
	if d := ang1.Sub(ang0.Add(mgl64.Vec3{p[3], p[4], p[5]})).Len(); d > 1e-12*ang1.Len() {
		t.Fatalf("angular momentum about the centre %v, off the balance by %.3g", ang1, d)
	}
	pi1 := make([]float64, r)
	b.bodyMomenta(b.rotation.Transpose().Mul3x1(b.angularVel), pi1)
	for k := range pi1 {
		if d := math.Abs(pi1[k] - (2*piBar[k] - pi0[k])); d > 1e-12*(math.Abs(pi0[k])+math.Abs(pi1[k])) {
			t.Fatalf("mode %d: end momentum %.15g, midpoint rule gives %.15g", k, pi1[k], 2*piBar[k]-pi0[k])
		}
	}
}

// A HeldBody's midpoint velocity responds to a modal impulse through EffectiveMass⁻¹ (finite
// differences of StepVelocity against gonum's Cholesky solve), and the step it takes with that
// velocity and impulse changes the undamped body's energy — kinetic, elastic and gravitational,
// the last from the centre of mass — by exactly the impulse's work on the moving velocity, pᵀż̄,
// the property that keeps a contact (whose impulse does no positive work on the velocity it
// constrains) from adding energy. With the kinetic mass I in the solve instead, a stiff mode's
// contact gains energy.
func TestHeldStepRespondsThroughEffectiveMass(t *testing.T) {
	const h, r = 0.01, 5
	m, k, mass, fixed := cantilever(t, 0.6, 0.1, 6, 2, stiffMaterial)
	md, err := LowestModes(k, mass, fixed, r, 1e-10, 300)
	if err != nil {
		t.Fatal(err)
	}
	for _, damped := range []bool{false, true} {
		alpha, beta := 0.0, 0.0
		if damped {
			alpha, beta = 0.5, 0.002
		}
		b, err := NewHeldBody(m, mass, md, alpha, beta)
		if err != nil {
			t.Fatal(err)
		}
		st := ModalState{
			Orientation: mgl64.QuatRotate(0.4, mgl64.Vec3{0, 1, 0}),
			Z:           []float64{0.01, -0.004, 0.003, 0.002, -0.001},
			ZDot:        []float64{-0.2, 0.1, 0.05, -0.08, 0.03},
		}
		if err := b.SetState(st); err != nil {
			t.Fatal(err)
		}
		g := mgl64.Vec3{0, 0, -9.81}
		qp := make([]float64, r)
		if err := b.PredictVelocity(h, g, qp); err != nil {
			t.Fatal(err)
		}
		checkResponse(t, r, 1, b.StepVelocity, b.EffectiveMass)
		energy := func() float64 {
			return b.KineticEnergy() + b.ElasticEnergy() - b.Mass()*g.Dot(b.CentreOfMass())
		}
		p := []float64{0.3, -0.1, 0.2, 0.05, -0.15}
		q := make([]float64, r)
		if err := b.StepVelocity(p, q); err != nil {
			t.Fatal(err)
		}
		work, dissipation := 0.0, 0.0
		for k := range p {
			work += p[k] * q[k]
			dissipation += h * (alpha + beta*b.omega2[k]) * q[k] * q[k]
		}
		e0 := energy()
		if err := b.Advance(h, q, p); err != nil {
			t.Fatal(err)
		}
		de := energy() - e0
		if d := math.Abs(de - (work - dissipation)); d > 1e-12*(math.Abs(e0)+math.Abs(work)) {
			t.Fatalf("damped %v: the energy changed by %.12g J, the impulse's work less the damping's is %.12g J", damped, de, work-dissipation)
		}
	}
}
