package physics

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/stagger-physics/stagger/collide"
	"github.com/stagger-physics/stagger/ecs"
)

// newTestApp returns an app with the physics plugin at step h.
func newTestApp(t testing.TB, h float64, cfg Config) *ecs.App {
	t.Helper()
	app, err := ecs.NewApp(h, 1)
	if err != nil {
		t.Fatal(err)
	}
	if err := app.AddPlugin(NewPlugin(cfg)); err != nil {
		t.Fatal(err)
	}
	return app
}

// TestFreeFallFollowsSemiImplicitEuler checks every step of a free fall against the closed form of
// semi-implicit Euler: v_n = v₀ + n h g and x_n = x₀ + n h v₀ + h² g n(n+1)/2.
func TestFreeFallFollowsSemiImplicitEuler(t *testing.T) {
	const h = 0.01
	cfg := DefaultConfig()
	app := newTestApp(t, h, cfg)
	box, err := collide.NewBox(mgl64.Vec3{0.5, 0.25, 0.1})
	if err != nil {
		t.Fatal(err)
	}
	x0 := mgl64.Vec3{1, -2, 100}
	v0 := mgl64.Vec3{3, 0.5, 7}
	body := NewDynamic(x0, 500)
	body.LinearVelocity = v0
	e, err := Spawn(app.World, body, Collider{Shape: box})
	if err != nil {
		t.Fatal(err)
	}
	g := cfg.Gravity
	for n := 1; n <= 2000; n++ {
		if err := app.StepFixed(); err != nil {
			t.Fatal(err)
		}
		b, _ := ecs.Get[RigidBody](app.World, e)
		fn := float64(n)
		wantV := v0.Add(g.Mul(fn * h))
		wantX := x0.Add(v0.Mul(fn * h)).Add(g.Mul(h * h * fn * (fn + 1) / 2))
		for i := 0; i < 3; i++ {
			if d := math.Abs(b.LinearVelocity[i] - wantV[i]); d > 1e-10*(1+math.Abs(wantV[i])) {
				t.Fatalf("step %d: v[%d] = %.17g, want %.17g", n, i, b.LinearVelocity[i], wantV[i])
			}
			if d := math.Abs(b.Position[i] - wantX[i]); d > 1e-10*(1+math.Abs(wantX[i])) {
				t.Fatalf("step %d: x[%d] = %.17g, want %.17g", n, i, b.Position[i], wantX[i])
			}
		}
		if b.AngularVelocity != (mgl64.Vec3{}) {
			t.Fatalf("step %d: a body dropped without spin turned: ω = %v", n, b.AngularVelocity)
		}
	}
}

// TestFreeFallEnergyDoesNotRise checks that the scheme's energy error is the known loss
// −½ m h² |g|² per step, never a gain.
func TestFreeFallEnergyDoesNotRise(t *testing.T) {
	const h = 0.01
	cfg := DefaultConfig()
	app := newTestApp(t, h, cfg)
	sphere, err := collide.NewSphere(0.5)
	if err != nil {
		t.Fatal(err)
	}
	body := NewDynamic(mgl64.Vec3{0, 0, 10}, 1000)
	body.LinearVelocity = mgl64.Vec3{1, 2, 3}
	body.AngularVelocity = mgl64.Vec3{0.3, -2, 5}
	e, err := Spawn(app.World, body, Collider{Shape: sphere})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := ecs.Get[RigidBody](app.World, e)
	mass := b.Mass
	prev, err := Energy(app.World, cfg.Gravity)
	if err != nil {
		t.Fatal(err)
	}
	wantLoss := 0.5 * mass * h * h * cfg.Gravity.Dot(cfg.Gravity)
	for n := 0; n < 500; n++ {
		if err := app.StepFixed(); err != nil {
			t.Fatal(err)
		}
		e1, _ := Energy(app.World, cfg.Gravity)
		if d := prev - e1; math.Abs(d-wantLoss) > 1e-9*math.Abs(prev)+1e-9 {
			t.Fatalf("step %d: energy fell by %.12g J, want %.12g J", n, d, wantLoss)
		}
		prev = e1
	}
}
