package deform

import (
	"math"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
)

// modalFixture is a free box with its modes and modal body.
type modalFixture struct {
	mesh  *TetMesh
	mass  []float64
	modes *Modes
	body  *ModalBody
}

func newModalFixture(t testing.TB, half mgl64.Vec3, nx, ny, nz int, mtl Material, r int, alpha, beta float64) *modalFixture {
	t.Helper()
	m, k, mass := freeBody(t, half, nx, ny, nz, mtl)
	md, err := FreeModes(m, k, mass, r, 1e-10, 300)
	if err != nil {
		t.Fatal(err)
	}
	b, err := NewModalBody(m, mass, md, alpha, beta)
	if err != nil {
		t.Fatal(err)
	}
	return &modalFixture{mesh: m, mass: mass, modes: md, body: b}
}

// vertexState returns vertex a's deformed world position and velocity from the definition
// x_a = x + R (x̄_a + Φ_a z), ẋ_a = v + ω × R (x̄_a + Φ_a z) + R Φ_a ż, over the full mesh and the
// modes as FreeModes returned them: an independent reconstruction of what the reduced model
// claims.
func (f *modalFixture) vertexState(s *ModalState, centre mgl64.Vec3, a int) (mgl64.Vec3, mgl64.Vec3) {
	rot := s.Orientation.Mat4().Mat3()
	local := f.mesh.Vertex(a).Sub(centre)
	var rate mgl64.Vec3
	for k, phi := range f.modes.Shapes {
		u := mgl64.Vec3{phi[3*a], phi[3*a+1], phi[3*a+2]}
		local = local.Add(u.Mul(s.Z[k]))
		rate = rate.Add(u.Mul(s.ZDot[k]))
	}
	arm := rot.Mul3x1(local)
	return s.Position.Add(arm), s.LinearVelocity.Add(s.AngularVelocity.Cross(arm)).Add(rot.Mul3x1(rate))
}

// fullMomenta returns the linear and angular momentum (about the origin) and the kinetic energy
// summed over the mesh's vertices.
func (f *modalFixture) fullMomenta(s *ModalState) (lin, ang mgl64.Vec3, kinetic float64) {
	centre := centreOfMass(f.mesh, f.mass)
	for a, q := range f.mass {
		x, v := f.vertexState(s, centre, a)
		lin = lin.Add(v.Mul(q))
		ang = ang.Add(x.Cross(v.Mul(q)))
		kinetic += 0.5 * q * v.Dot(v)
	}
	return lin, ang, kinetic
}

// step advances the body by one contact-free step.
func step(t testing.TB, b *ModalBody, h float64, g mgl64.Vec3, qdot []float64) {
	if err := b.PredictVelocity(h, g, qdot); err != nil {
		t.Fatal(err)
	}
	if err := b.Advance(h, qdot, nil); err != nil {
		t.Fatal(err)
	}
}

// checkTwinRuns sets a and b, two bodies built alike, to st, steps both 100 times in gravity and
// checks that their states are bit-identical. It returns a's velocity buffer, warm for more steps.
func checkTwinRuns(t *testing.T, a, b *ModalBody, st ModalState) []float64 {
	t.Helper()
	n := 6 + len(st.Z)
	qa, qb := make([]float64, n), make([]float64, n)
	for _, body := range []*ModalBody{a, b} {
		if err := body.SetState(st); err != nil {
			t.Fatal(err)
		}
	}
	for i := 0; i < 100; i++ {
		step(t, a, 0.01, mgl64.Vec3{0, 0, -9.81}, qa)
		step(t, b, 0.01, mgl64.Vec3{0, 0, -9.81}, qb)
	}
	var sa, sb ModalState
	a.State(&sa)
	b.State(&sb)
	if sa.Position != sb.Position || sa.Orientation != sb.Orientation || sa.AngularVelocity != sb.AngularVelocity {
		t.Errorf("two runs differ: %v vs %v", sa, sb)
	}
	for k := range sa.Z {
		if sa.Z[k] != sb.Z[k] || sa.ZDot[k] != sb.ZDot[k] {
			t.Errorf("coordinate %d differs between runs", k)
		}
	}
	return qa
}

// A free-floating, spinning, vibrating body keeps its linear and angular momentum — summed over
// the full mesh's vertices, not taken from the reduced model — to 1e-9 relative over 1,000 steps
// of 0.01 s, and its energy (the vertices' kinetic energy plus the modal strain energy) within
// 0.01 %, while the modes and the rotation exchange energy (M(z) and g_qv frozen at the start of
// the step would drift by 0.2 %).
func TestModalBodyConservesMomentumAndEnergy(t *testing.T) {
	mtl := Material{Young: 5e5, Poisson: 0.3, Density: 1000}
	f := newModalFixture(t, mgl64.Vec3{0.3, 0.075, 0.05}, 6, 2, 2, mtl, 6, 0, 0)
	b := f.body
	z := []float64{0.006, -0.004, 0.002, 0, 0.003, 0}
	zd := []float64{0, 0.04, 0, -0.02, 0, 0.01}
	if err := b.SetState(ModalState{
		Position: mgl64.Vec3{1, 2, 3}, Orientation: mgl64.QuatRotate(0.4, mgl64.Vec3{1, 1, 0}.Normalize()),
		LinearVelocity: mgl64.Vec3{1, 0, 0.5}, AngularVelocity: mgl64.Vec3{0.5, 1.5, 0.3}, Z: z, ZDot: zd,
	}); err != nil {
		t.Fatal(err)
	}
	var s ModalState
	b.State(&s)
	lin0, ang0, kin0 := f.fullMomenta(&s)
	e0 := kin0 + b.ElasticEnergy()
	if d := math.Abs(b.KineticEnergy()-kin0) / kin0; d > 1e-9 {
		t.Fatalf("reduced kinetic energy %.12g, full %.12g", b.KineticEnergy(), kin0)
	}
	qdot := make([]float64, b.DoFs())
	maxLin, maxAng, maxE, minElastic, maxElastic := 0.0, 0.0, 0.0, math.Inf(1), 0.0
	for i := 0; i < 1000; i++ {
		step(t, b, 0.01, mgl64.Vec3{}, qdot)
		b.State(&s)
		lin, ang, kin := f.fullMomenta(&s)
		maxLin = math.Max(maxLin, lin.Sub(lin0).Len()/lin0.Len())
		maxAng = math.Max(maxAng, ang.Sub(ang0).Len()/ang0.Len())
		maxE = math.Max(maxE, math.Abs(kin+b.ElasticEnergy()-e0)/e0)
		minElastic, maxElastic = math.Min(minElastic, b.ElasticEnergy()), math.Max(maxElastic, b.ElasticEnergy())
	}
	t.Logf("over 1,000 steps: momentum drift linear %.2g, angular %.2g; energy %.3g %% (strain energy %.3g–%.3g J of %.3g J)", maxLin, maxAng, 100*maxE, minElastic, maxElastic, e0)
	if maxLin > 1e-9 || maxAng > 1e-9 {
		t.Errorf("momentum drift: linear %.3g, angular %.3g relative; want ≤ 1e-9", maxLin, maxAng)
	}
	if maxE > 1e-4 {
		t.Errorf("energy drift %.3g %%, want within 0.01 %%", 100*maxE)
	}
	if !(maxElastic > 0 && minElastic < 0.5*maxElastic) {
		t.Errorf("strain energy stayed in [%.3g, %.3g]: the body did not vibrate", minElastic, maxElastic)
	}
}

// The point Jacobian maps a generalised velocity to the derivative of the deformed world position
// along it (central differences of Position with the frame moved, turned about a world axis and
// the modes displaced), for a vertex and for a point inside a tetrahedron.
func TestModalBodyPointJacobianMatchesFiniteDifferences(t *testing.T) {
	mtl := Material{Young: 1e6, Poisson: 0.3, Density: 1000}
	f := newModalFixture(t, mgl64.Vec3{0.3, 0.1, 0.05}, 4, 2, 1, mtl, 5, 0, 0)
	b := f.body
	base := ModalState{
		Position: mgl64.Vec3{0.5, -1, 2}, Orientation: mgl64.QuatRotate(1.1, mgl64.Vec3{0.3, -1, 0.5}.Normalize()),
		Z: []float64{0.02, -0.01, 0.03, 0.005, -0.02}, ZDot: make([]float64, 5),
	}
	u := []float64{0.3, -0.7, 0.2, 1.3, -0.4, 0.9, 0.5, -1.1, 0.8, 0.25, -0.6}
	tet := f.mesh.Tet(7)
	points := []MaterialPoint{VertexPoint(11), {Vertices: tet, Weights: [4]float64{0.1, 0.2, 0.3, 0.4}}}
	jac := make([]float64, 3*b.DoFs())
	for _, p := range points {
		if err := b.SetState(base); err != nil {
			t.Fatal(err)
		}
		if err := b.PointJacobian(p, jac); err != nil {
			t.Fatal(err)
		}
		var ju mgl64.Vec3
		for i := 0; i < 3; i++ {
			for j, x := range u {
				ju[i] += jac[i*b.DoFs()+j] * x
			}
		}
		at := func(eps float64) mgl64.Vec3 {
			s := base
			s.Position = base.Position.Add(mgl64.Vec3{u[0], u[1], u[2]}.Mul(eps))
			w := mgl64.Vec3{u[3], u[4], u[5]}
			s.Orientation = mgl64.QuatRotate(eps*w.Len(), w.Normalize()).Mul(base.Orientation)
			s.Z = make([]float64, 5)
			for k := range s.Z {
				s.Z[k] = base.Z[k] + eps*u[6+k]
			}
			if err := b.SetState(s); err != nil {
				t.Fatal(err)
			}
			x, err := b.Position(p)
			if err != nil {
				t.Fatal(err)
			}
			return x
		}
		const eps = 1e-5
		fd := at(eps).Sub(at(-eps)).Mul(1 / (2 * eps))
		if d := fd.Sub(ju).Len(); d > 1e-8*ju.Len() {
			t.Errorf("point %v: J q̇ = %v, finite differences %v (difference %.3g)", p, ju, fd, d)
		}
	}
}

// rigidReference integrates a free rigid body's rotation (Euler's equations in body axes and
// q̇ = ½ q (0, ω_b)) by classical Runge–Kutta with n substeps per step h.
func rigidReference(q mgl64.Quat, wb mgl64.Vec3, inertia mgl64.Mat3, h float64, steps, n int) (mgl64.Quat, mgl64.Vec3) {
	inv, _ := inverse3(inertia)
	deriv := func(q mgl64.Quat, w mgl64.Vec3) (mgl64.Quat, mgl64.Vec3) {
		return q.Mul(mgl64.Quat{V: w}).Scale(0.5), inv.Mul3x1(inertia.Mul3x1(w).Cross(w))
	}
	dt := h / float64(n)
	for i := 0; i < steps*n; i++ {
		q1, w1 := deriv(q, wb)
		q2, w2 := deriv(q.Add(q1.Scale(dt/2)), wb.Add(w1.Mul(dt/2)))
		q3, w3 := deriv(q.Add(q2.Scale(dt/2)), wb.Add(w2.Mul(dt/2)))
		q4, w4 := deriv(q.Add(q3.Scale(dt)), wb.Add(w3.Mul(dt)))
		q = q.Add(q1.Add(q2.Scale(2)).Add(q3.Scale(2)).Add(q4).Scale(dt / 6)).Normalize()
		wb = wb.Add(w1.Add(w2.Mul(2)).Add(w3.Mul(2)).Add(w4).Mul(dt / 6))
	}
	return q, wb
}

// An undeformed body of stiff material moves like a rigid body of the same mass and inertia (the
// inertia summed over the mesh here): its centre of mass follows semi-implicit Euler's parabola
// exactly, and its tumbling (about an axis near the unstable intermediate one) matches a
// Runge–Kutta integration of Euler's equations to second order in h, while its modes stay
// unexcited to 1e-7 of the body's size (the spin's centrifugal load stretches it by ~1e-8).
func TestModalBodyUndeformedMovesLikeRigidBody(t *testing.T) {
	mtl := Material{Young: 2e11, Poisson: 0.3, Density: 7800}
	f := newModalFixture(t, mgl64.Vec3{0.2, 0.1, 0.05}, 4, 2, 1, mtl, 4, 0, 0)
	var inertia mgl64.Mat3
	c := centreOfMass(f.mesh, f.mass)
	for a, q := range f.mass {
		x := f.mesh.Vertex(a).Sub(c)
		inertia = inertia.Add(mgl64.Ident3().Mul(q * x.Dot(x)).Sub(outer(x, x).Mul(q)))
	}
	q0 := mgl64.QuatRotate(0.3, mgl64.Vec3{0, 0, 1})
	wb0 := mgl64.Vec3{0.1, 4, 0.2} // body axes: mostly about y, the intermediate axis
	x0, v0, g := mgl64.Vec3{0, 0, 1}, mgl64.Vec3{1, 2, 3}, mgl64.Vec3{0, 0, -9.81}
	const duration = 1.0
	var errs []float64
	for _, h := range []float64{0.01, 0.005} {
		b := f.body
		steps := int(math.Round(duration / h))
		if err := b.SetState(ModalState{Position: x0, Orientation: q0, LinearVelocity: v0,
			AngularVelocity: q0.Rotate(wb0), Z: make([]float64, 4), ZDot: make([]float64, 4)}); err != nil {
			t.Fatal(err)
		}
		qdot := make([]float64, b.DoFs())
		maxZ := 0.0
		var s ModalState
		for i := 0; i < steps; i++ {
			step(t, b, h, g, qdot)
			b.State(&s)
			for _, z := range s.Z {
				maxZ = math.Max(maxZ, math.Abs(z)/math.Sqrt(b.Mass()))
			}
		}
		n := float64(steps)
		wantX := x0.Add(v0.Mul(duration)).Add(g.Mul(h * h * n * (n + 1) / 2))
		if d := s.Position.Sub(wantX).Len(); d > 1e-12*wantX.Len() {
			t.Errorf("h = %v: centre of mass at %v, semi-implicit Euler gives %v", h, s.Position, wantX)
		}
		qr, wr := rigidReference(q0, wb0, inertia, h, steps, 20)
		wb := s.Orientation.Conjugate().Rotate(s.AngularVelocity)
		turn := 2 * math.Asin(math.Min(1, qr.Conjugate().Mul(s.Orientation).V.Len()))
		e := math.Max(turn, wb.Sub(wr).Len()/wr.Len())
		t.Logf("h = %v: orientation off by %.3g rad, body angular velocity by %.3g relative; modes up to %.2g m", h, turn, wb.Sub(wr).Len()/wr.Len(), maxZ)
		if maxZ > 1e-7*0.2 {
			t.Errorf("h = %v: modal coordinates reached %.3g m, want an undeformed body", h, maxZ)
		}
		errs = append(errs, e)
	}
	if errs[0] > 0.01 {
		t.Errorf("h = 0.01: rotation differs from the rigid body's by %.3g", errs[0])
	}
	if ratio := errs[0] / errs[1]; !(ratio > 3 && ratio < 5) {
		t.Errorf("halving h divided the error by %.3g, want about 4 (second order)", ratio)
	}
}

// upCrossings returns the times at which x crosses zero upwards, interpolated linearly.
func upCrossings(xs []float64, h float64) []float64 {
	var out []float64
	for i := 1; i < len(xs); i++ {
		if xs[i-1] < 0 && xs[i] >= 0 {
			out = append(out, h*(float64(i-1)+xs[i-1]/(xs[i-1]-xs[i])))
		}
	}
	return out
}

// A single excited mode oscillates at its ω (period from zero crossings, within 1 %) and leaves
// the other modes and the frame at rest (to round-off); with Rayleigh damping its peaks decay at the rate
// ζω = (α + β ω²)/2, within 2 %.
func TestModalBodyModeFrequencyAndDamping(t *testing.T) {
	mtl := Material{Young: 1e6, Poisson: 0.3, Density: 1000}
	const mode = 1
	for _, damp := range []struct{ alpha, beta float64 }{{0, 0}, {0.5, 1e-4}} {
		f := newModalFixture(t, mgl64.Vec3{0.3, 0.075, 0.05}, 6, 2, 2, mtl, 4, damp.alpha, damp.beta)
		b := f.body
		w := math.Sqrt(f.modes.Omega2[mode])
		z := make([]float64, 4)
		z[mode] = 0.02
		if err := b.SetState(ModalState{Orientation: mgl64.QuatIdent(), Z: z, ZDot: make([]float64, 4)}); err != nil {
			t.Fatal(err)
		}
		h := 2 * math.Pi / w / 200
		qdot := make([]float64, b.DoFs())
		var s ModalState
		xs := []float64{0.02}
		var peaks []float64 // (time, value) pairs of local maxima
		others := 0.0
		for i := 0; i < 1200; i++ {
			step(t, b, h, mgl64.Vec3{}, qdot)
			b.State(&s)
			xs = append(xs, s.Z[mode])
			if n := len(xs); n >= 3 && xs[n-2] > xs[n-3] && xs[n-2] >= xs[n-1] {
				peaks = append(peaks, h*float64(n-2), xs[n-2])
			}
			for k, zk := range s.Z {
				if k != mode {
					others = math.Max(others, math.Abs(zk))
				}
			}
			others = math.Max(others, s.AngularVelocity.Len()+s.LinearVelocity.Len())
		}
		up := upCrossings(xs, h)
		period := (up[len(up)-1] - up[0]) / float64(len(up)-1)
		t.Logf("α = %v, β = %v: period %.6g s, 2π/ω = %.6g s (%+.3f %%)", damp.alpha, damp.beta, period, 2*math.Pi/w, 100*(period*w/(2*math.Pi)-1))
		if math.Abs(period*w/(2*math.Pi)-1) > 0.01 {
			t.Errorf("α = %v, β = %v: period %.6g s, want 2π/ω = %.6g within 1 %%", damp.alpha, damp.beta, period, 2*math.Pi/w)
		}
		if others > 1e-12 {
			t.Errorf("other modes or the frame moved: %.3g", others)
		}
		// Decay between the first and the last peak.
		n := len(peaks)
		rate := -math.Log(peaks[n-1]/peaks[1]) / (peaks[n-2] - peaks[0])
		want := 0.5 * (damp.alpha + damp.beta*w*w)
		t.Logf("decay rate %.5g /s, Rayleigh %.5g /s", rate, want)
		if math.Abs(rate-want) > 0.02*want+1e-5*w {
			t.Errorf("α = %v, β = %v: peaks decay at %.5g /s, want %.5g", damp.alpha, damp.beta, rate, want)
		}
	}
}

// The same body and state step to bit-identical states, and a warm step allocates nothing.
func TestModalBodyDeterministicAndAllocationFree(t *testing.T) {
	mtl := Material{Young: 1e6, Poisson: 0.3, Density: 1000}
	f := newModalFixture(t, mgl64.Vec3{0.3, 0.1, 0.05}, 4, 2, 1, mtl, 5, 0.1, 1e-4)
	g, err := NewModalBody(f.mesh, f.mass, f.modes, 0.1, 1e-4)
	if err != nil {
		t.Fatal(err)
	}
	st := ModalState{Orientation: mgl64.QuatRotate(0.5, mgl64.Vec3{0, 1, 0}), AngularVelocity: mgl64.Vec3{1, 2, 0.5},
		Z: []float64{0.01, 0, -0.02, 0, 0.01}, ZDot: []float64{0, 0.1, 0, 0, -0.2}}
	qa := checkTwinRuns(t, f.body, g, st)
	jac := make([]float64, 33)
	allocs := testing.AllocsPerRun(20, func() {
		step(t, f.body, 0.01, mgl64.Vec3{0, 0, -9.81}, qa)
		if err := f.body.PointJacobian(VertexPoint(3), jac); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Errorf("a warm step allocates %v times", allocs)
	}
}

// Bad input is refused naming the argument or field, and leaves the body as it was.
func TestModalBodyRefusesBadInput(t *testing.T) {
	mtl := Material{Young: 1e6, Poisson: 0.3, Density: 1000}
	f := newModalFixture(t, mgl64.Vec3{0.3, 0.1, 0.05}, 4, 2, 1, mtl, 3, 0, 0)
	b := f.body
	// A held body's modes carry momentum: not a floating frame's.
	k, err := Stiffness(f.mesh, mtl)
	if err != nil {
		t.Fatal(err)
	}
	fixed := make([]bool, f.mesh.NumVertices())
	fixed[0], fixed[1], fixed[5] = true, true, true
	held, err := LowestModes(k, f.mass, fixed, 3, 1e-8, 300)
	if err != nil {
		t.Fatal(err)
	}
	qdot := make([]float64, b.DoFs())
	for _, c := range []struct {
		name string
		err  func() error
		want string
	}{
		{"held modes", func() error { _, err := NewModalBody(f.mesh, f.mass, held, 0, 0); return err }, "momentum"},
		{"alpha", func() error { _, err := NewModalBody(f.mesh, f.mass, f.modes, -1, 0); return err }, "alpha"},
		{"beta", func() error { _, err := NewModalBody(f.mesh, f.mass, f.modes, 0, math.Inf(1)); return err }, "beta"},
		{"mass", func() error { _, err := NewModalBody(f.mesh, f.mass[1:], f.modes, 0, 0); return err }, "NewModalBody mass"},
		{"state NaN", func() error {
			return b.SetState(ModalState{Orientation: mgl64.QuatIdent(), Z: []float64{math.NaN(), 0, 0}, ZDot: make([]float64, 3)})
		}, "ZDot[0]"},
		{"orientation", func() error {
			return b.SetState(ModalState{Z: make([]float64, 3), ZDot: make([]float64, 3)})
		}, "Orientation"},
		{"state length", func() error { return b.SetState(ModalState{Orientation: mgl64.QuatIdent()}) }, "Z, ZDot"},
		{"h", func() error { return b.PredictVelocity(0, mgl64.Vec3{}, qdot) }, "PredictVelocity h"},
		{"dst", func() error { return b.PredictVelocity(0.01, mgl64.Vec3{}, qdot[:4]) }, "dst"},
		{"unprepared", func() error { return b.Advance(0.01, qdot, nil) }, "PredictVelocity"},
		{"vertex", func() error { return b.PointJacobian(VertexPoint(10000), make([]float64, 27)) }, "Vertices[0]"},
		{"weight", func() error {
			_, err := b.Position(MaterialPoint{Weights: [4]float64{math.NaN()}})
			return err
		}, "Weights[0]"},
	} {
		if err := c.err(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error naming %q", c.name, err, c.want)
		}
	}
	if err := b.PredictVelocity(0.01, mgl64.Vec3{}, qdot); err != nil {
		t.Fatal(err)
	}
	qdot[7] = math.NaN()
	if err := b.Advance(0.01, qdot, nil); err == nil || !strings.Contains(err.Error(), "qdot[7]") {
		t.Errorf("NaN velocity: %v, want an error naming qdot[7]", err)
	}
	var s ModalState
	b.State(&s)
	if s.Position != f.body.restCentre || s.Z[1] != 0 {
		t.Errorf("refused input changed the body: %v", s)
	}
}

// A state read with State and set back with SetState — as a snapshot restore does — must leave
// the body stepping bit for bit as it would have: a spinning body's orientation drifts from unit
// length by rounding, and normalising it again on the way back changed the point Jacobians in
// their last bits. A state whose orientation is far from unit is still normalised.
func TestModalBodyStateRoundTripIsExact(t *testing.T) {
	mtl := Material{Young: 1e6, Poisson: 0.3, Density: 1000}
	f := newModalFixture(t, mgl64.Vec3{0.3, 0.1, 0.05}, 4, 2, 1, mtl, 5, 0.1, 1e-4)
	g, err := NewModalBody(f.mesh, f.mass, f.modes, 0.1, 1e-4)
	if err != nil {
		t.Fatal(err)
	}
	st := ModalState{Orientation: mgl64.QuatRotate(0.5, mgl64.Vec3{0, 1, 0}), AngularVelocity: mgl64.Vec3{1, 2, 0.5},
		Z: []float64{0.01, 0, -0.02, 0, 0.01}, ZDot: []float64{0, 0.1, 0, 0, -0.2}}
	if err := f.body.SetState(st); err != nil {
		t.Fatal(err)
	}
	qa, qb := make([]float64, 11), make([]float64, 11)
	drifted := false
	for i := 0; i < 300; i++ {
		step(t, f.body, 0.01, mgl64.Vec3{0, 0, -9.81}, qa)
		var s ModalState
		f.body.State(&s)
		q := s.Orientation
		drifted = drifted || q.W*q.W+q.V.Dot(q.V) != 1
	}
	if !drifted {
		t.Fatal("the orientation never left unit length by rounding: the test checks nothing")
	}
	var s ModalState
	f.body.State(&s)
	if err := g.SetState(s); err != nil {
		t.Fatal(err)
	}
	ja, jb := make([]float64, 3*11), make([]float64, 3*11)
	for i := 0; i < 20; i++ {
		for a := 0; a < 4; a++ {
			if err := f.body.PointJacobian(VertexPoint(a), ja); err != nil {
				t.Fatal(err)
			}
			if err := g.PointJacobian(VertexPoint(a), jb); err != nil {
				t.Fatal(err)
			}
			for k := range ja {
				if ja[k] != jb[k] {
					t.Fatalf("step %d, vertex %d: Jacobian entry %d differs after the round trip: %v vs %v", i, a, k, ja[k], jb[k])
				}
			}
		}
		step(t, f.body, 0.01, mgl64.Vec3{0, 0, -9.81}, qa)
		step(t, g, 0.01, mgl64.Vec3{0, 0, -9.81}, qb)
	}
	far := s
	far.Orientation = s.Orientation.Scale(2)
	if err := g.SetState(far); err != nil {
		t.Fatal(err)
	}
	var back ModalState
	g.State(&back)
	if n := back.Orientation.Len(); math.Abs(n-1) > 1e-15 {
		t.Errorf("an orientation of length 2 came back with length %v, want 1", n)
	}
}
