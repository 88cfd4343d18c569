package collide

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
)

func TestSphereMassProperties(t *testing.T) {
	s := must(NewSphere(0.5))
	mp, err := s.MassProperties(1000)
	if err != nil {
		t.Fatal(err)
	}
	wantM := 1000 * 4.0 / 3.0 * math.Pi * 0.125
	if !relClose(mp.Mass, wantM, 1e-14) {
		t.Errorf("mass %v, want %v", mp.Mass, wantM)
	}
	wantI := 2.0 / 5.0 * wantM * 0.25
	for i := 0; i < 3; i++ {
		if !relClose(mp.Inertia.At(i, i), wantI, 1e-14) {
			t.Errorf("I[%d] = %v, want %v", i, mp.Inertia.At(i, i), wantI)
		}
	}
	if mp.CenterOfMass != (mgl64.Vec3{}) {
		t.Errorf("centre of mass %v", mp.CenterOfMass)
	}
}

func TestBoxMassPropertiesClosedForm(t *testing.T) {
	b := must(NewBox(mgl64.Vec3{0.5, 1, 1.5}))
	mp, err := b.MassProperties(2)
	if err != nil {
		t.Fatal(err)
	}
	// Full side lengths 1, 2, 3: m = ρ·6, Ixx = m(b²+c²)/12.
	m := 2.0 * 6
	want := mgl64.Vec3{m * (4 + 9) / 12, m * (1 + 9) / 12, m * (1 + 4) / 12}
	if !relClose(mp.Mass, m, 1e-15) {
		t.Errorf("mass %v, want %v", mp.Mass, m)
	}
	for i := 0; i < 3; i++ {
		if !relClose(mp.Inertia.At(i, i), want[i], 1e-14) {
			t.Errorf("I[%d] = %v, want %v", i, mp.Inertia.At(i, i), want[i])
		}
	}
	if !relClose(b.Volume(), 6, 1e-15) {
		t.Errorf("volume %v", b.Volume())
	}
}

// TestBoxInertiaMonteCarlo integrates the inertia tensor of the box numerically (seeded Monte
// Carlo over the box) and compares it with the closed form, off-diagonal terms included.
func TestBoxInertiaMonteCarlo(t *testing.T) {
	h := mgl64.Vec3{0.3, 0.7, 1.1}
	b := must(NewBox(h))
	const rho = 750.0
	mp, err := b.MassProperties(rho)
	if err != nil {
		t.Fatal(err)
	}
	r := newRand(7)
	const n = 200000
	var acc [3][3]float64
	for i := 0; i < n; i++ {
		p := mgl64.Vec3{h[0] * (2*r.Float64() - 1), h[1] * (2*r.Float64() - 1), h[2] * (2*r.Float64() - 1)}
		p2 := p.Dot(p)
		for j := 0; j < 3; j++ {
			for k := 0; k < 3; k++ {
				d := 0.0
				if j == k {
					d = p2
				}
				acc[j][k] += d - p[j]*p[k]
			}
		}
	}
	m := rho * b.Volume()
	scale := m * (h[0]*h[0] + h[1]*h[1] + h[2]*h[2])
	for j := 0; j < 3; j++ {
		for k := 0; k < 3; k++ {
			mc := m * acc[j][k] / n
			if math.Abs(mc-mp.Inertia.At(j, k)) > 0.01*scale {
				t.Errorf("I[%d][%d]: Monte Carlo %v, closed form %v", j, k, mc, mp.Inertia.At(j, k))
			}
		}
	}
}

// TestCapsuleMassProperties checks the capsule against an algebraically independent closed form
// (cylinder plus a whole sphere split in two and moved apart) and against a grid integration
// of its indicator function.
func TestCapsuleMassProperties(t *testing.T) {
	const r, hh, rho = 0.4, 0.9, 1200.0
	c := must(NewCapsule(r, hh))
	mp, err := c.MassProperties(rho)
	if err != nil {
		t.Fatal(err)
	}
	l := 2 * hh
	mc := rho * math.Pi * r * r * l
	ms := rho * 4.0 / 3.0 * math.Pi * r * r * r // both hemispheres together
	wantM := mc + ms
	// A hemisphere at distance hh: about the capsule centre its transverse moment is
	// m_h(2/5 r² + hh² + 3/4 hh r) (expanding the parallel-axis shift through 3r/8).
	wantT := mc*(3*r*r+l*l)/12 + ms*(2.0/5.0*r*r+hh*hh+0.75*hh*r)
	wantA := mc*r*r/2 + ms*2.0/5.0*r*r
	if !relClose(mp.Mass, wantM, 1e-14) {
		t.Errorf("mass %v, want %v", mp.Mass, wantM)
	}
	if !relClose(mp.Inertia.At(0, 0), wantT, 1e-13) || !relClose(mp.Inertia.At(1, 1), wantT, 1e-13) {
		t.Errorf("transverse %v %v, want %v", mp.Inertia.At(0, 0), mp.Inertia.At(1, 1), wantT)
	}
	if !relClose(mp.Inertia.At(2, 2), wantA, 1e-13) {
		t.Errorf("axial %v, want %v", mp.Inertia.At(2, 2), wantA)
	}
	if !relClose(c.Volume()*rho, wantM, 1e-14) {
		t.Errorf("volume %v", c.Volume())
	}

	// Midpoint-rule integration over a grid; boundary cells make the error O(cell size).
	const n = 90
	ext := mgl64.Vec3{r, r, hh + r}
	var vol, ixx, izz float64
	cell := ext.Mul(2.0 / n)
	dv := cell[0] * cell[1] * cell[2]
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			for k := 0; k < n; k++ {
				p := mgl64.Vec3{-ext[0] + (float64(i)+0.5)*cell[0], -ext[1] + (float64(j)+0.5)*cell[1], -ext[2] + (float64(k)+0.5)*cell[2]}
				if d, _ := c.SignedDistance(p); d <= 0 {
					vol += dv
					ixx += (p[1]*p[1] + p[2]*p[2]) * dv
					izz += (p[0]*p[0] + p[1]*p[1]) * dv
				}
			}
		}
	}
	if !relClose(vol, c.Volume(), 0.01) {
		t.Errorf("grid volume %v, closed form %v", vol, c.Volume())
	}
	if !relClose(rho*ixx, wantT, 0.015) || !relClose(rho*izz, wantA, 0.015) {
		t.Errorf("grid inertia %v %v, closed form %v %v", rho*ixx, rho*izz, wantT, wantA)
	}
}

func TestCapsuleZeroHeightIsSphere(t *testing.T) {
	c := must(NewCapsule(0.3, 0))
	s := must(NewSphere(0.3))
	cm, _ := c.MassProperties(10)
	sm, _ := s.MassProperties(10)
	if !relClose(cm.Mass, sm.Mass, 1e-15) {
		t.Errorf("mass %v vs %v", cm.Mass, sm.Mass)
	}
	for i := 0; i < 3; i++ {
		if !relClose(cm.Inertia.At(i, i), sm.Inertia.At(i, i), 1e-14) {
			t.Errorf("I[%d] %v vs %v", i, cm.Inertia.At(i, i), sm.Inertia.At(i, i))
		}
	}
}

func TestHalfSpaceHasNoMass(t *testing.T) {
	h := must(NewHalfSpace(mgl64.Vec3{0, 0, 1}, 0))
	if _, err := h.MassProperties(1); err == nil {
		t.Error("half-space returned mass properties")
	}
	if !math.IsInf(h.Volume(), 1) {
		t.Errorf("volume %v", h.Volume())
	}
}

func TestMassPropertiesRefusesBadDensity(t *testing.T) {
	shapes := []Shape{
		must(NewSphere(1)),
		must(NewBox(mgl64.Vec3{1, 1, 1})),
		must(NewCapsule(1, 1)),
	}
	for _, s := range shapes {
		for _, d := range []float64{0, -1, math.NaN(), math.Inf(1)} {
			if _, err := s.MassProperties(d); err == nil || !containsField(err, "density") {
				t.Errorf("%v density %v: %v", s.Kind(), d, err)
			}
		}
	}
}
