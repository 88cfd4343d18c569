package physics

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
	"gonum.org/v1/gonum/mat"
)

// modalBody is a synthetic body of 6 + r DoFs: a rigid frame plus r decoupled modal coordinates
// whose shapes move every material point along fixed world directions. It exists to check that the
// layout, mass matrix and Jacobians work for blocks of a size other than six.
type modalBody struct {
	rigid  rigidModel
	modes  []mgl64.Vec3 // displacement direction of mode k
	masses []float64    // modal mass of mode k
	q, qd  []float64
}

func (m *modalBody) DoFs() int { return rigidDoFs + len(m.modes) }

func (m *modalBody) MassBlock(dst []float64) {
	m.blockDiag(dst, m.rigid.MassBlock, func(mk float64) float64 { return mk })
}

func (m *modalBody) InverseMassBlock(dst []float64) {
	m.blockDiag(dst, m.rigid.InverseMassBlock, func(mk float64) float64 { return 1 / mk })
}

// blockDiag writes diag(frame block, modal(m_k)...) into dst, n×n with n = DoFs().
func (m *modalBody) blockDiag(dst []float64, frameBlock func([]float64), modal func(float64) float64) {
	n := m.DoFs()
	clear(dst)
	frame := make([]float64, rigidDoFs*rigidDoFs)
	frameBlock(frame)
	for i := 0; i < rigidDoFs; i++ {
		copy(dst[i*n:i*n+rigidDoFs], frame[i*rigidDoFs:(i+1)*rigidDoFs])
	}
	for k, mk := range m.masses {
		dst[(rigidDoFs+k)*n+rigidDoFs+k] = modal(mk)
	}
}

// Each model's InverseMassBlock is exactly symmetric and inverts its MassBlock: a rotated rigid
// body with a full inertia tensor, and a 6 + 2 modal body.
func TestInverseMassBlock(t *testing.T) {
	var rigid rigidModel
	rigid.load(&RigidBody{Kind: Dynamic, Mass: 2.5, Inertia: mgl64.Mat3{2, 0.3, -0.2, 0.3, 1.5, 0.1, -0.2, 0.1, 1},
		Orientation: mgl64.QuatRotate(0.7, mgl64.Vec3{1, 2, 3}.Normalize())})
	modal := &modalBody{rigid: rigid, modes: []mgl64.Vec3{{1, 0, 0}, {0, 0, 1}}, masses: []float64{0.4, 7}}
	for _, b := range []BodyModel{&rigid, modal} {
		n := b.DoFs()
		m, inv := make([]float64, n*n), make([]float64, n*n)
		b.MassBlock(m)
		b.InverseMassBlock(inv)
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				if inv[i*n+j] != inv[j*n+i] {
					t.Errorf("%d DoFs: M⁻¹ not symmetric at (%d,%d)", n, i, j)
				}
				acc := 0.0
				for k := 0; k < n; k++ {
					acc += inv[i*n+k] * m[k*n+j]
				}
				want := 0.0
				if i == j {
					want = 1
				}
				if math.Abs(acc-want) > 1e-12 {
					t.Errorf("%d DoFs: (M⁻¹M)[%d][%d] = %v", n, i, j, acc)
				}
			}
		}
	}
}

func (m *modalBody) PointJacobian(p mgl64.Vec3, dst []float64) {
	n := m.DoFs()
	frame := make([]float64, 3*rigidDoFs)
	m.rigid.PointJacobian(p, frame)
	for r := 0; r < 3; r++ {
		copy(dst[r*n:r*n+rigidDoFs], frame[r*rigidDoFs:(r+1)*rigidDoFs])
		for k, d := range m.modes {
			dst[r*n+rigidDoFs+k] = d[r]
		}
	}
}

func (m *modalBody) PredictVelocity(h float64, g mgl64.Vec3, dst []float64) {
	m.rigid.PredictVelocity(h, g, dst[:rigidDoFs])
	copy(dst[rigidDoFs:], m.qd)
}

func (m *modalBody) Advance(h float64, qdot, impulse []float64) {
	var frameImpulse []float64
	if impulse != nil {
		frameImpulse = impulse[:rigidDoFs]
	}
	m.rigid.Advance(h, qdot[:rigidDoFs], frameImpulse)
	for k := range m.q {
		m.qd[k] = qdot[rigidDoFs+k]
		m.q[k] += h * m.qd[k]
	}
}

func (m *modalBody) Displace(dq []float64) {
	m.rigid.Displace(dq[:rigidDoFs])
	for k := range m.q {
		m.q[k] += dq[rigidDoFs+k]
	}
}

func (m *modalBody) Velocity(dst []float64) {
	m.rigid.Velocity(dst[:rigidDoFs])
	copy(dst[rigidDoFs:], m.qd)
}

var _ BodyModel = (*modalBody)(nil)

// randomSPD returns a random symmetric positive definite n×n matrix, row-major.
func randomSPD(rng *rand.Rand, n int) []float64 {
	a := make([]float64, n*n)
	for i := range a {
		a[i] = rng.Float64()*2 - 1
	}
	m := make([]float64, n*n)
	for r := 0; r < n; r++ {
		for c := 0; c < n; c++ {
			s := 0.0
			for k := 0; k < n; k++ {
				s += a[r*n+k] * a[c*n+k]
			}
			m[r*n+c] = s
		}
		m[r*n+r] += 0.5
	}
	return m
}

// TestMassMatrixMixedBlockSizes fills a block-diagonal mass matrix with blocks of sizes 6, 9, 1, 7
// and checks M x and M⁻¹ x against gonum's dense solve of the assembled matrix.
func TestMassMatrixMixedBlockSizes(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var layout Layout
	sizes := []int{6, 9, 1, 7, 6}
	for _, s := range sizes {
		layout.Add(s)
	}
	if layout.DoFs() != 29 || layout.Blocks() != len(sizes) || layout.Offset(3) != 16 || layout.Size(1) != 9 {
		t.Fatalf("layout offsets wrong: dofs %d blocks %d offset(3) %d", layout.DoFs(), layout.Blocks(), layout.Offset(3))
	}
	var m MassMatrix
	m.Reset(&layout)
	dense := mat.NewDense(layout.DoFs(), layout.DoFs(), nil)
	for i, s := range sizes {
		b := randomSPD(rng, s)
		if err := m.SetBlock(i, b); err != nil {
			t.Fatal(err)
		}
		o := layout.Offset(i)
		for r := 0; r < s; r++ {
			for c := 0; c < s; c++ {
				dense.Set(o+r, o+c, b[r*s+c])
			}
		}
	}
	x := make([]float64, layout.DoFs())
	for i := range x {
		x[i] = rng.NormFloat64()
	}
	got := make([]float64, len(x))
	m.Mul(got, x)
	want := mat.NewVecDense(len(x), nil)
	want.MulVec(dense, mat.NewVecDense(len(x), x))
	for i := range got {
		if math.Abs(got[i]-want.AtVec(i)) > 1e-12*(1+math.Abs(want.AtVec(i))) {
			t.Fatalf("M x [%d] = %v, want %v", i, got[i], want.AtVec(i))
		}
	}
	m.MulInverse(got, x)
	var sol mat.VecDense
	if err := sol.SolveVec(dense, mat.NewVecDense(len(x), x)); err != nil {
		t.Fatal(err)
	}
	for i := range got {
		if math.Abs(got[i]-sol.AtVec(i)) > 1e-9*(1+math.Abs(sol.AtVec(i))) {
			t.Fatalf("M⁻¹ x [%d] = %v, want %v", i, got[i], sol.AtVec(i))
		}
	}
	// In place.
	copy(got, x)
	m.MulInverse(got, got)
	if math.Abs(got[20]-sol.AtVec(20)) > 1e-9*(1+math.Abs(sol.AtVec(20))) {
		t.Fatalf("in-place M⁻¹ x differs")
	}
}

// TestMassMatrixRefusesNonSPD checks that an indefinite or asymmetric block is refused, naming it.
func TestMassMatrixRefusesNonSPD(t *testing.T) {
	var layout Layout
	layout.Add(2)
	layout.Add(2)
	var m MassMatrix
	m.Reset(&layout)
	if err := m.SetBlock(0, []float64{1, 0, 0, 1}); err != nil {
		t.Fatal(err)
	}
	for _, b := range [][]float64{{1, 2, 2, 1}, {1, 0.5, 0, 1}, {1, 0, 0, math.NaN()}, {0, 0, 0, 0}} {
		if err := m.SetBlock(1, b); err == nil {
			t.Errorf("block %v accepted", b)
		}
	}
}

// TestSyntheticBodyLayout lays out rigid and 6 + r bodies together and checks that each body's
// predicted velocity, mass block and point Jacobian land in its own span, and that the Jacobian
// maps the generalized velocity to the material point's velocity (checked by finite differences of
// the point's motion).
func TestSyntheticBodyLayout(t *testing.T) {
	rigidA := &rigidModel{}
	rigidA.load(&RigidBody{Kind: Dynamic, Mass: 2, Inertia: mgl64.Diag3(mgl64.Vec3{1, 2, 3}), Orientation: mgl64.QuatRotate(0.3, mgl64.Vec3{1, 1, 0}.Normalize()), Position: mgl64.Vec3{1, 0, 0}})
	modal := &modalBody{
		modes:  []mgl64.Vec3{{1, 0, 0}, {0, 0, 1}, {0.6, 0.8, 0}},
		masses: []float64{0.5, 0.25, 2},
		q:      make([]float64, 3),
		qd:     []float64{0.1, -0.2, 0.3},
	}
	modal.rigid.load(&RigidBody{Kind: Dynamic, Mass: 3, Inertia: mgl64.Diag3(mgl64.Vec3{1, 1, 1}), Orientation: mgl64.QuatIdent(), Position: mgl64.Vec3{0, 2, 0}})
	bodies := []BodyModel{rigidA, modal}
	var layout Layout
	for _, b := range bodies {
		layout.Add(b.DoFs())
	}
	if layout.DoFs() != 15 || layout.Offset(1) != 6 || layout.Size(1) != 9 {
		t.Fatalf("layout: dofs %d offset %d size %d", layout.DoFs(), layout.Offset(1), layout.Size(1))
	}
	var mm MassMatrix
	mm.Reset(&layout)
	for i, b := range bodies {
		n := b.DoFs()
		block := make([]float64, n*n)
		b.MassBlock(block)
		if err := mm.SetBlock(i, block); err != nil {
			t.Fatal(err)
		}
	}
	qdp := make([]float64, layout.DoFs())
	for i, b := range bodies {
		b.PredictVelocity(0.01, mgl64.Vec3{0, 0, -9.8}, layout.Span(qdp, i))
	}
	if qdp[2] != -0.098 || qdp[6+2] != -0.098 || qdp[12] != 0.1 || qdp[14] != 0.3 {
		t.Fatalf("predicted velocities out of place: %v", qdp)
	}
	// M⁻¹ M x = x across mixed block sizes.
	x := []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}
	mx := make([]float64, len(x))
	mm.Mul(mx, x)
	mm.MulInverse(mx, mx)
	for i := range x {
		if math.Abs(mx[i]-x[i]) > 1e-12*math.Abs(x[i]) {
			t.Fatalf("M⁻¹ M x [%d] = %v, want %v", i, mx[i], x[i])
		}
	}
}

// TestRigidPointJacobianMatchesMotion moves a rigid body with a velocity over a tiny step and checks
// that the displacement of a material point over h equals J q̇ (first order).
func TestRigidPointJacobianMatchesMotion(t *testing.T) {
	body := RigidBody{Kind: Dynamic, Mass: 1, Inertia: mgl64.Diag3(mgl64.Vec3{1, 2, 3}), Position: mgl64.Vec3{0.3, -1, 2}, Orientation: mgl64.QuatRotate(1.1, mgl64.Vec3{0, 1, 1}.Normalize())}
	var r rigidModel
	r.load(&body)
	local := mgl64.Vec3{0.4, -0.2, 0.7}
	p := r.position.Add(r.orientation.Rotate(local))
	qdot := []float64{0.5, -1, 2, 3, -1, 0.25}
	jac := make([]float64, 3*rigidDoFs)
	r.PointJacobian(p, jac)
	const h = 1e-7
	r.Advance(h, qdot, nil)
	p1 := r.position.Add(r.orientation.Rotate(local))
	for i := 0; i < 3; i++ {
		jq := 0.0
		for k := 0; k < rigidDoFs; k++ {
			jq += jac[i*rigidDoFs+k] * qdot[k]
		}
		fd := (p1[i] - p[i]) / h
		if math.Abs(fd-jq) > 1e-5 {
			t.Errorf("point velocity [%d]: J q̇ = %v, finite difference %v", i, jq, fd)
		}
	}
}

// TestRigidContactRowsMatchMotion checks the contact rows against the motion of the material point:
// sign·uᵀ(ẋ_p) by a finite difference of the pose, for three directions.
func TestRigidContactRowsMatchMotion(t *testing.T) {
	body := RigidBody{Kind: Dynamic, Mass: 2, Inertia: mgl64.Diag3(mgl64.Vec3{1, 2, 3}), Position: mgl64.Vec3{-0.7, 0.2, 1.5}, Orientation: mgl64.QuatRotate(0.6, mgl64.Vec3{1, 0, 1}.Normalize())}
	var r rigidModel
	r.load(&body)
	local := mgl64.Vec3{-0.3, 0.5, 0.2}
	p := r.position.Add(r.orientation.Rotate(local))
	dirs := [3]mgl64.Vec3{mgl64.Vec3{1, 2, -1}.Normalize(), mgl64.Vec3{0, 1, 2}.Normalize(), {1, 0, 0}}
	rows := make([]float64, 3*rigidDoFs)
	const sign = -1.0
	r.contactRows(p, &dirs, sign, rows)
	qdot := []float64{0.5, -1, 2, 3, -1, 0.25}
	const h = 1e-7
	r.Advance(h, qdot, nil)
	v := r.position.Add(r.orientation.Rotate(local)).Sub(p).Mul(1 / h)
	for i, u := range dirs {
		got := 0.0
		for k := 0; k < rigidDoFs; k++ {
			got += rows[i*rigidDoFs+k] * qdot[k]
		}
		if want := sign * u.Dot(v); math.Abs(got-want) > 1e-5 {
			t.Errorf("row %d: row·q̇ = %v, −uᵀẋ_p by finite difference %v", i, got, want)
		}
	}
}
