package physics

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/stagger-physics/stagger/collide"
	"github.com/stagger-physics/stagger/ecs"
)

// spawnCylinder adds a cylinder of density 1000 at p turned by q, with friction mu.
func spawnCylinder(t testing.TB, w *ecs.World, r, hh float64, p mgl64.Vec3, q mgl64.Quat, mu float64) ecs.Entity {
	t.Helper()
	c, err := collide.NewCylinder(r, hh)
	if err != nil {
		t.Fatal(err)
	}
	b := NewDynamic(p, 1000)
	b.Orientation = q
	b.Friction = mu
	e, err := Spawn(w, b, Collider{Shape: c})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// axisOf returns the world direction of a body's local z axis.
func axisOf(b RigidBody) mgl64.Vec3 {
	return b.Orientation.Rotate(mgl64.Vec3{0, 0, 1})
}

// TestCylinderStandsStill: a cylinder standing on its cap stays upright and in place for 2 s.
func TestCylinderStandsStill(t *testing.T) {
	app := newTestApp(t, 0.01, DefaultConfig())
	spawnGround(t, app.World, mgl64.Vec3{0, 0, 1}, 0.8)
	p0 := mgl64.Vec3{0.2, -0.1, 0.5}
	e := spawnCylinder(t, app.World, 0.3, 0.5, p0, mgl64.QuatIdent(), 0.8)
	for i := 0; i < 200; i++ {
		if err := app.StepFixed(); err != nil {
			t.Fatal(err)
		}
		b := bodyOf(t, app.World, e)
		if d := b.Position.Sub(p0).Len(); d > 1e-3 {
			t.Fatalf("step %d: drifted %.3g m to %v", i, d, b.Position)
		}
	}
	b := bodyOf(t, app.World, e)
	if a := axisOf(b); a[2] < 1-1e-6 {
		t.Fatalf("tilted: axis %v", a)
	}
	if b.LinearVelocity.Len() > 1e-3 || b.AngularVelocity.Len() > 1e-3 {
		t.Fatalf("still moving: v %v ω %v", b.LinearVelocity, b.AngularVelocity)
	}
}

// TestCylinderRollsDownIncline: a cylinder on its side on a 10° slope with μ 0.8 rolls without
// slipping, so its centre accelerates at a = (2/3)·g·sin θ (a solid cylinder's I = m r²/2), its
// spin matches v = ω r, and it stays on the plane.
func TestCylinderRollsDownIncline(t *testing.T) {
	const h, steps, r = 0.01, 100, 0.2
	theta := 10 * math.Pi / 180
	app := newTestApp(t, h, DefaultConfig())
	n := mgl64.Vec3{-math.Sin(theta), 0, math.Cos(theta)}
	spawnGround(t, app.World, n, 0.8)
	// Axis along world y, across the slope; then tilted with the plane.
	q := mgl64.QuatRotate(-theta, mgl64.Vec3{0, 1, 0}).Mul(mgl64.QuatRotate(math.Pi/2, mgl64.Vec3{1, 0, 0}))
	p0 := n.Mul(r)
	e := spawnCylinder(t, app.World, r, 0.3, p0, q, 0.8)
	for i := 0; i < steps; i++ {
		if err := app.StepFixed(); err != nil {
			t.Fatal(err)
		}
	}
	b := bodyOf(t, app.World, e)
	down := mgl64.Vec3{-math.Cos(theta), 0, -math.Sin(theta)}
	s := b.Position.Sub(p0).Dot(down)
	a := 2.0 / 3.0 * StandardGravity * math.Sin(theta)
	want := 0.5 * a * (h * steps) * (h * steps)
	if math.Abs(s-want) > 0.03*want {
		t.Fatalf("rolled %.5f m in %.2f s; rolling without slipping gives %.5f m (sliding freely %.5f m)", s, h*steps, want, 1.5*want)
	}
	if off := b.Position.Sub(p0).Dot(n); math.Abs(off) > 1e-3 {
		t.Fatalf("left the plane by %.3g m", off)
	}
	v := b.LinearVelocity.Dot(down)
	w := b.AngularVelocity.Dot(mgl64.Vec3{0, 1, 0})
	if math.Abs(math.Abs(w)*r-v) > 0.03*v {
		t.Fatalf("slipping: v %.4f m/s, ω r %.4f m/s", v, w*r)
	}
	if a := axisOf(b); math.Abs(a[1]) < 1-1e-3 {
		t.Fatalf("axis turned off the y axis: %v", a)
	}
}

// TestCylinderCoinSpins: a coin spinning on its edge about the vertical stays finite, above the
// ground, and gains no energy over 2 s.
func TestCylinderCoinSpins(t *testing.T) {
	app := newTestApp(t, 0.005, DefaultConfig())
	spawnGround(t, app.World, mgl64.Vec3{0, 0, 1}, 0.5)
	const r, hh = 0.05, 0.004
	// Standing on its rim: axis along x, spinning about z.
	e := spawnCylinder(t, app.World, r, hh, mgl64.Vec3{0, 0, r}, mgl64.QuatRotate(math.Pi/2, mgl64.Vec3{0, 1, 0}), 0.5)
	b, _ := ecs.Get[RigidBody](app.World, e)
	b.AngularVelocity = mgl64.Vec3{0, 0.3, 25}
	g := mgl64.Vec3{0, 0, -StandardGravity}
	e0, err := Energy(app.World, g)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 400; i++ {
		if err := app.StepFixed(); err != nil {
			t.Fatal(err)
		}
		b := bodyOf(t, app.World, e)
		if !finiteVec(b.Position) || !finiteVec(b.LinearVelocity) || !finiteVec(b.AngularVelocity) || !finiteQuat(b.Orientation) {
			t.Fatalf("step %d: non-finite state %+v", i, b)
		}
		if b.Position[2] < hh-1e-3 {
			t.Fatalf("step %d: the coin sank to z = %.4f", i, b.Position[2])
		}
		en, err := Energy(app.World, g)
		if err != nil {
			t.Fatal(err)
		}
		if en > e0*(1+1e-6)+1e-9 {
			t.Fatalf("step %d: energy grew from %.6g to %.6g J", i, e0, en)
		}
	}
}

// TestCylinderColumnStands: five cylinders stacked on their caps stand for 2 s.
func TestCylinderColumnStands(t *testing.T) {
	app := newTestApp(t, 0.01, DefaultConfig())
	spawnGround(t, app.World, mgl64.Vec3{0, 0, 1}, 0.8)
	const r, hh = 0.2, 0.25
	var es [5]ecs.Entity
	var p0 [5]mgl64.Vec3
	for i := range es {
		p0[i] = mgl64.Vec3{0, 0, hh + 2*hh*float64(i)}
		es[i] = spawnCylinder(t, app.World, r, hh, p0[i], mgl64.QuatIdent(), 0.8)
	}
	for i := 0; i < 200; i++ {
		if err := app.StepFixed(); err != nil {
			t.Fatal(err)
		}
	}
	for i, e := range es {
		b := bodyOf(t, app.World, e)
		if d := b.Position.Sub(p0[i]).Len(); d > 2e-3 {
			t.Errorf("cylinder %d moved %.3g m to %v", i, d, b.Position)
		}
		if a := axisOf(b); a[2] < 1-1e-4 {
			t.Errorf("cylinder %d tilted: axis %v", i, a)
		}
	}
}
