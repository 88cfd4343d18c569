package deform

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
)

// meshMomenta returns the linear and angular momentum (about the origin) and the kinetic energy of
// the state s summed over the mesh's vertices, x_a = x + R (x̄_a + U_a z), from the basis shapes as
// they were given to the body: an independent reconstruction of what the reduced model claims.
func meshMomenta(m *TetMesh, mass []float64, shapes [][]float64, s *ModalState) (lin, ang mgl64.Vec3, kinetic float64) {
	centre := centreOfMass(m, mass)
	rot := s.Orientation.Mat4().Mat3()
	for a, q := range mass {
		local := m.Vertex(a).Sub(centre)
		var rate mgl64.Vec3
		for k, u := range shapes {
			v := mgl64.Vec3{u[3*a], u[3*a+1], u[3*a+2]}
			local = local.Add(v.Mul(s.Z[k]))
			rate = rate.Add(v.Mul(s.ZDot[k]))
		}
		arm := rot.Mul3x1(local)
		x := s.Position.Add(arm)
		v := s.LinearVelocity.Add(s.AngularVelocity.Cross(arm)).Add(rot.Mul3x1(rate))
		lin = lin.Add(v.Mul(q))
		ang = ang.Add(x.Cross(v.Mul(q)))
		kinetic += 0.5 * q * v.Dot(v)
	}
	return lin, ang, kinetic
}

// meshKinetics returns, summed over the mesh's vertices with the body-frame positions
// p_a = x̄_a + U_a z relative to the centre of mass, the inertia J(z) = Σ m_a [p_a]×ᵀ[p_a]×, the
// columns S_l = Σ m_a p_a × U_al of the rotation–modal coupling, and the quadratic-velocity forces
// g_k = ∂T/∂z_k = Σ m_a (ω_b × p_a + U_a ż) · (ω_b × U_ak) of the kinetic energy
// T = ½ Σ m_a |ω_b × p_a + U_a ż|² at the body-frame angular velocity wb and modal velocity zd:
// the reduced model's J, S and g_qv from their definitions rather than its coefficients.
func meshKinetics(m *TetMesh, mass []float64, shapes [][]float64, z []float64, wb mgl64.Vec3, zd []float64) (mgl64.Mat3, []mgl64.Vec3, []float64) {
	centre := centreOfMass(m, mass)
	r := len(shapes)
	var j mgl64.Mat3
	s, g := make([]mgl64.Vec3, r), make([]float64, r)
	u := make([]mgl64.Vec3, r)
	for a, q := range mass {
		p := m.Vertex(a).Sub(centre)
		var rate mgl64.Vec3
		for k, shape := range shapes {
			u[k] = mgl64.Vec3{shape[3*a], shape[3*a+1], shape[3*a+2]}
			p = p.Add(u[k].Mul(z[k]))
			rate = rate.Add(u[k].Mul(zd[k]))
		}
		j = j.Add(mgl64.Ident3().Mul(q * p.Dot(p)).Sub(outer(p, p).Mul(q)))
		vel := wb.Cross(p).Add(rate)
		for k := range shapes {
			s[k] = s[k].Add(p.Cross(u[k]).Mul(q))
			g[k] += q * vel.Dot(wb.Cross(u[k]))
		}
	}
	return j, s, g
}

// spinDrift releases b (mesh m, masses mass, basis shapes) free and undamped from a turned
// state spinning at w with the modal coordinates z, runs n steps of h, and returns the largest
// relative drift of the mesh's linear and angular momentum and of its energy (kinetic, summed
// over the vertices, plus ElasticEnergy), and the least and largest strain energy.
func spinDrift(t *testing.T, b *ModalBody, m *TetMesh, mass []float64, shapes [][]float64, z []float64, w mgl64.Vec3, h float64, n int) (lin, ang, energy, minW, maxW float64) {
	t.Helper()
	if err := b.SetState(ModalState{
		Position: mgl64.Vec3{1, 2, 3}, Orientation: mgl64.QuatRotate(0.4, mgl64.Vec3{1, 1, 0}.Normalize()),
		LinearVelocity: mgl64.Vec3{1, 0, 0.5}, AngularVelocity: w, Z: z, ZDot: make([]float64, len(z)),
	}); err != nil {
		t.Fatal(err)
	}
	var s ModalState
	b.State(&s)
	lin0, ang0, kin0 := meshMomenta(m, mass, shapes, &s)
	e0 := kin0 + b.ElasticEnergy()
	qdot := make([]float64, b.DoFs())
	minW = math.Inf(1)
	for i := 0; i < n; i++ {
		step(t, b, h, mgl64.Vec3{}, qdot)
		b.State(&s)
		l, a, kin := meshMomenta(m, mass, shapes, &s)
		w := b.ElasticEnergy()
		lin = math.Max(lin, l.Sub(lin0).Len()/lin0.Len())
		ang = math.Max(ang, a.Sub(ang0).Len()/ang0.Len())
		energy = math.Max(energy, math.Abs(kin+w-e0)/e0)
		if !(energy < 1e3) {
			energy = math.Inf(1)
			break
		}
		minW, maxW = math.Min(minW, w), math.Max(maxW, w)
	}
	return lin, ang, energy, minW, maxW
}

// maxDisplacement returns the largest displacement |U_a z| of a vertex from its rigid position.
func maxDisplacement(shapes [][]float64, z []float64) float64 {
	big := 0.0
	for a := 0; a < len(shapes[0])/3; a++ {
		var d mgl64.Vec3
		for k, u := range shapes {
			d = d.Add(mgl64.Vec3{u[3*a], u[3*a+1], u[3*a+2]}.Mul(z[k]))
		}
		big = math.Max(big, d.Len())
	}
	return big
}

// A free, undamped, spinning soft bar (0.6 m, 500 kPa) vibrating by centimetres — a strain energy
// several times its rotational energy, so that rotation and modes trade much of it — keeps its
// energy (kinetic summed over the mesh's vertices, plus the modal strain energy) within 1 % over
// 1,000 steps of 0.01 s, and its linear and angular momentum to 1e-9. Evaluating M(z) and g_qv at
// the start of the step instead of the midpoint makes this run diverge.
func TestModalBodyKeepsEnergyVibratingByCentimetres(t *testing.T) {
	mtl := Material{Young: 5e5, Poisson: 0.3, Density: 1000}
	f := newModalFixture(t, mgl64.Vec3{0.3, 0.075, 0.05}, 6, 2, 2, mtl, 6, 0, 0)
	z := []float64{0.06, -0.04, 0.02, 0, 0.03, 0}
	disp := maxDisplacement(f.modes.Shapes, z)
	lin, ang, e, minW, maxW := spinDrift(t, f.body, f.mesh, f.mass, f.modes.Shapes, z, mgl64.Vec3{0.5, 1.5, 0.3}, 0.01, 1000)
	checkCentimetreDrift(t, disp, lin, ang, e, minW, maxW)
}

// The floating-frame StVK bar (0.6 m, 200 kPa), spinning free and undamped and bent by centimetres,
// keeps its energy (kinetic summed over the mesh, plus the reduced StVK energy) within 1 % over
// 1,000 steps of 0.01 s and its momentum to 1e-9; with M(z) and g_qv frozen at the start of the
// step it gains several per cent.
func TestFrameStVKKeepsEnergyVibratingByCentimetres(t *testing.T) {
	f := newFrameFixture(t, 6, 12, 0, 0)
	z := make([]float64, 12)
	z[0], z[2] = 0.04, -0.01
	disp := maxDisplacement(f.basis, z)
	lin, ang, e, minW, maxW := spinDrift(t, f.body, f.mesh, f.mass, f.basis, z, mgl64.Vec3{0.5, 1.5, 0.3}, 0.01, 1000)
	checkCentimetreDrift(t, disp, lin, ang, e, minW, maxW)
}

// checkCentimetreDrift checks a spinDrift run of a bar deformed by disp: a vertex moved by
// centimetres, momentum kept to 1e-9, energy within 1 %, and the strain energy in [minW, maxW]
// varying (the bar vibrated).
func checkCentimetreDrift(t *testing.T, disp, lin, ang, e, minW, maxW float64) {
	t.Helper()
	t.Logf("vertex displacement %.3g m; over 1,000 steps: momentum drift linear %.2g, angular %.2g; energy %.3g %%; strain energy %.3g–%.3g J",
		disp, lin, ang, 100*e, minW, maxW)
	if !(disp > 0.01) {
		t.Fatalf("a vertex moves by %.3g m, not centimetres", disp)
	}
	if !(lin <= 1e-9 && ang <= 1e-9) {
		t.Errorf("momentum drift: linear %.3g, angular %.3g relative; want ≤ 1e-9", lin, ang)
	}
	if !(e <= 0.01) {
		t.Errorf("energy drift %.3g %%, want within 1 %%", 100*e)
	}
	if !(maxW > 0 && minW < 0.5*maxW) {
		t.Errorf("strain energy stayed in [%.3g, %.3g] J: the bar did not vibrate", minW, maxW)
	}
}

// Spinning fast (20 rad/s, 0.1 turn per step of 0.01 s) with vibrations of centimetres, the linear
// modal bar and the StVK bar keep their energy within 0.5 % over 1,000 steps and their momenta to
// 1e-9; with M(z) and g_qv at the start of the step both diverged.
func TestModalStepKeepsEnergySpinningFast(t *testing.T) {
	w := mgl64.Vec3{0.1, 20, 0.2}
	mtl := Material{Young: 5e5, Poisson: 0.3, Density: 1000}
	f := newModalFixture(t, mgl64.Vec3{0.3, 0.075, 0.05}, 6, 2, 2, mtl, 6, 0, 0)
	ff := newFrameFixture(t, 6, 12, 0, 0)
	zs := make([]float64, 12)
	zs[0], zs[2] = 0.02, -0.005
	for _, c := range []struct {
		name   string
		b      *ModalBody
		m      *TetMesh
		mass   []float64
		shapes [][]float64
		z      []float64
	}{
		{"linear", f.body, f.mesh, f.mass, f.modes.Shapes, []float64{0.02, -0.01, 0.005, 0, 0.01, 0}},
		{"StVK", ff.body, ff.mesh, ff.mass, ff.basis, zs},
	} {
		lin, ang, e, _, _ := spinDrift(t, c.b, c.m, c.mass, c.shapes, c.z, w, 0.01, 1000)
		t.Logf("%s: vertex displacement %.3g m; momentum drift linear %.2g, angular %.2g; energy %.3g %%",
			c.name, maxDisplacement(c.shapes, c.z), lin, ang, 100*e)
		if !(lin <= 1e-9 && ang <= 1e-9) {
			t.Errorf("%s: momentum drift: linear %.3g, angular %.3g relative; want ≤ 1e-9", c.name, lin, ang)
		}
		if !(e <= 0.005) {
			t.Errorf("%s: energy drift %.3g %%, want within 0.5 %%", c.name, 100*e)
		}
	}
}
