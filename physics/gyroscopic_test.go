package physics

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/stagger-physics/stagger/ecs"
)

// boxInertia returns the inertia of a solid box of mass m and full sides a, b, c about its centre.
func boxInertia(m, a, b, c float64) mgl64.Vec3 {
	return mgl64.Vec3{m * (b*b + c*c) / 12, m * (a*a + c*c) / 12, m * (a*a + b*b) / 12}
}

// tHandle returns the mass and the principal inertia about the centre of mass of a T-handle: a bar
// 0.4 × 0.04 × 0.04 m along x, and a stem 0.04 × 0.04 × 0.3 m along z joined to the bar's middle,
// both steel. Its principal moments are all different, with the intermediate one about x.
func tHandle() (float64, mgl64.Mat3) {
	const rho = 7800.0
	mBar := rho * 0.4 * 0.04 * 0.04
	mStem := rho * 0.04 * 0.04 * 0.3
	zBar, zStem := 0.0, -(0.02 + 0.15) // stem hangs below the bar
	m := mBar + mStem
	zc := (mBar*zBar + mStem*zStem) / m
	iBar := boxInertia(mBar, 0.4, 0.04, 0.04)
	iStem := boxInertia(mStem, 0.04, 0.04, 0.3)
	dBar, dStem := zBar-zc, zStem-zc
	// Parallel-axis shifts along z add m d² to the x and y moments.
	ix := iBar[0] + mBar*dBar*dBar + iStem[0] + mStem*dStem*dStem
	iy := iBar[1] + mBar*dBar*dBar + iStem[1] + mStem*dStem*dStem
	iz := iBar[2] + iStem[2]
	return m, mgl64.Diag3(mgl64.Vec3{ix, iy, iz})
}

// TestDzhanibekovFlipsAndConserves spins a T-handle about its intermediate principal axis with a
// tiny perturbation. The axis must flip over periodically (the Dzhanibekov effect), while the world
// angular momentum drifts by less than 1e-6 relative over 10,000 steps and the kinetic energy never
// grows beyond round-off (1e-9 relative: the scheme conserves it exactly; an explicit gyroscopic step
// gains O(h²) per step, many orders more).
func TestDzhanibekovFlipsAndConserves(t *testing.T) {
	const h = 0.01
	app := newTestApp(t, h, Config{}) // no gravity: torque-free
	mass, inertia := tHandle()
	moments := inertia.Diag()
	mid := 0 // index of the intermediate moment
	for i := 0; i < 3; i++ {
		lo, hi := 0, 0
		for j := 0; j < 3; j++ {
			if moments[j] < moments[i] {
				lo++
			}
			if moments[j] > moments[i] {
				hi++
			}
		}
		if lo == 1 && hi == 1 {
			mid = i
		}
	}
	axis := mgl64.Vec3{}
	axis[mid] = 1
	w0 := axis.Mul(6)
	w0[(mid+1)%3] += 1e-3
	w0[(mid+2)%3] += 1e-3
	body := RigidBody{Kind: Dynamic, Mass: mass, Inertia: inertia, Orientation: mgl64.QuatIdent(), AngularVelocity: w0}
	e, err := Spawn(app.World, body, Collider{})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := ecs.Get[RigidBody](app.World, e)
	l0 := b.AngularMomentum()
	k0 := b.KineticEnergy()
	lHat := l0.Normalize()

	var flips []int
	sign := 1.0
	maxDrift, maxGain := 0.0, 0.0
	for n := 1; n <= 10000; n++ {
		if err := app.StepFixed(); err != nil {
			t.Fatal(err)
		}
		b, _ = ecs.Get[RigidBody](app.World, e)
		maxDrift = math.Max(maxDrift, b.AngularMomentum().Sub(l0).Len()/l0.Len())
		maxGain = math.Max(maxGain, (b.KineticEnergy()-k0)/k0)
		c := b.Orientation.Rotate(axis).Dot(lHat)
		if c*sign < -0.9 { // the spin axis has turned over
			sign = -sign
			flips = append(flips, n)
		}
	}
	if maxDrift >= 1e-6 {
		t.Errorf("angular momentum drifted by %.3g relative, want < 1e-6", maxDrift)
	}
	if maxGain > 1e-9 {
		t.Errorf("kinetic energy grew by %.3g relative", maxGain)
	}
	if len(flips) < 4 {
		t.Fatalf("the intermediate axis flipped %d times in 100 s, want at least 4 (flips at steps %v)", len(flips), flips)
	}
	// The flips are periodic: the intervals between them agree.
	minGap, maxGap := math.Inf(1), 0.0
	for i := 1; i < len(flips); i++ {
		d := float64(flips[i] - flips[i-1])
		minGap, maxGap = math.Min(minGap, d), math.Max(maxGap, d)
	}
	if maxGap > 1.1*minGap {
		t.Errorf("flip intervals range from %v to %v steps; the motion should be periodic", minGap, maxGap)
	}
	t.Logf("flips at steps %v; momentum drift %.2g; energy gain %.2g", flips, maxDrift, maxGain)
}

// TestSpinAboutPrincipalAxisIsSteady checks that a spin about the major axis stays put: the rotation
// must not wobble.
func TestSpinAboutPrincipalAxisIsSteady(t *testing.T) {
	app := newTestApp(t, 0.01, Config{})
	_, inertia := tHandle()
	w0 := mgl64.Vec3{0, 0, 0}
	moments := inertia.Diag()
	major := 0
	for i := 1; i < 3; i++ {
		if moments[i] > moments[major] {
			major = i
		}
	}
	w0[major] = 4
	e, err := Spawn(app.World, RigidBody{Kind: Dynamic, Mass: 1, Inertia: inertia, AngularVelocity: w0}, Collider{})
	if err != nil {
		t.Fatal(err)
	}
	for n := 0; n < 1000; n++ {
		if err := app.StepFixed(); err != nil {
			t.Fatal(err)
		}
	}
	b, _ := ecs.Get[RigidBody](app.World, e)
	if d := b.AngularVelocity.Sub(w0).Len(); d > 1e-12 {
		t.Errorf("ω changed by %.3g during a steady spin", d)
	}
}
