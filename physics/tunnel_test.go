package physics

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/stagger-physics/stagger/collide"
	"github.com/stagger-physics/stagger/ecs"
)

// spawnStaticBox adds a static box of half-extents half at p.
func spawnStaticBox(t testing.TB, w *ecs.World, p, half mgl64.Vec3) ecs.Entity {
	t.Helper()
	box, err := collide.NewBox(half)
	if err != nil {
		t.Fatal(err)
	}
	e, err := Spawn(w, NewStatic(p), Collider{Shape: box})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// TestFastBallStopsAtThinWall fires a 2 cm ball at 300 m/s at a 2 cm thick wall 1 m ahead: at
// h = 0.01 it would cross the wall in its first step. It must end on the near side.
func TestFastBallStopsAtThinWall(t *testing.T) {
	app := newTestApp(t, 0.01, DefaultConfig())
	spawnStaticBox(t, app.World, mgl64.Vec3{1, 0, 0}, mgl64.Vec3{0.01, 2, 2})
	ball, err := collide.NewSphere(0.01)
	if err != nil {
		t.Fatal(err)
	}
	b := NewDynamic(mgl64.Vec3{0, 0, 0}, 1000)
	b.LinearVelocity = mgl64.Vec3{300, 0, 0}
	e, err := Spawn(app.World, b, Collider{Shape: ball})
	if err != nil {
		t.Fatal(err)
	}
	for n := 0; n < 100; n++ {
		if err := app.StepFixed(); err != nil {
			t.Fatal(err)
		}
		got := bodyOf(t, app.World, e)
		if got.Position.X() > 0.99-0.01+1e-3 {
			t.Fatalf("step %d: ball at x = %.4f, beyond the wall's face at 0.99", n, got.Position.X())
		}
	}
}

// TestFastBoxStopsOnThinSlab drops a 1 m box at 100 m/s onto a 2 cm slab.
func TestFastBoxStopsOnThinSlab(t *testing.T) {
	app := newTestApp(t, 0.01, DefaultConfig())
	spawnStaticBox(t, app.World, mgl64.Vec3{0, 0, 0}, mgl64.Vec3{3, 3, 0.01})
	e := spawnCube(t, app.World, mgl64.Vec3{0, 0, 3}, mgl64.QuatIdent(), 0.5)
	bd, _ := ecs.Get[RigidBody](app.World, e)
	bd.LinearVelocity = mgl64.Vec3{0, 0, -100}
	for n := 0; n < 200; n++ {
		if err := app.StepFixed(); err != nil {
			t.Fatal(err)
		}
		got := bodyOf(t, app.World, e)
		if got.Position.Z() < 0.51-0.005 {
			t.Fatalf("step %d: box at z = %.4f, below the slab's top at 0.01 (+0.5)", n, got.Position.Z())
		}
	}
}

// TestFastDropsDoNotSink drops unit cubes at 20 to 90 m/s from several heights onto a half-space
// ground and onto a static slab: after settling, none may be lower than a few millimetres below
// its resting height of 0.5 m.
func TestFastDropsDoNotSink(t *testing.T) {
	for _, slab := range []bool{false, true} {
		for _, speed := range []float64{20, 35, 50, 70, 90} {
			for _, height := range []float64{0.6, 1.37, 2.9, 5.05, 11.3} {
				app := newTestApp(t, 0.01, DefaultConfig())
				top := 0.0
				if slab {
					spawnStaticBox(t, app.World, mgl64.Vec3{0, 0, -0.01}, mgl64.Vec3{4, 4, 0.01})
				} else {
					spawnGround(t, app.World, mgl64.Vec3{0, 0, 1}, 0.5)
				}
				e := spawnCube(t, app.World, mgl64.Vec3{0, 0, height}, mgl64.QuatIdent(), 0.5)
				bd, _ := ecs.Get[RigidBody](app.World, e)
				bd.LinearVelocity = mgl64.Vec3{0, 0, -speed}
				low := math.Inf(1)
				for n := 0; n < 150; n++ {
					if err := app.StepFixed(); err != nil {
						t.Fatal(err)
					}
					low = min(low, bodyOf(t, app.World, e).Position.Z()-0.5-top)
				}
				end := bodyOf(t, app.World, e).Position.Z() - 0.5 - top
				t.Logf("slab %v speed %v height %v: lowest %.4g end %.4g", slab, speed, height, low, end)
				if end < -3e-3 || low < -3e-3 {
					t.Errorf("slab %v, %v m/s from %v m: penetration %.4g m at the end, %.4g m at worst", slab, speed, height, -end, -low)
				}
			}
		}
	}
}

// shot is one body fired at the wall of TestRandomFastBodiesDoNotCrossThinWall.
type shot struct {
	kind  int // 0 sphere, 1 box, 2 capsule
	shape collide.Shape
	size  float64
	body  RigidBody
}

// randomShot draws a shape of 1 cm to 1 m across, spinning at up to 200 rad/s, fired at 5–500 m/s
// from up to 4 m before the plane x = 0, roughly along +x.
func randomShot(t testing.TB, r *rand.Rand) shot {
	t.Helper()
	s := shot{kind: r.IntN(3), size: 0.005 + r.Float64()*0.5}
	a, b := 0.2+r.Float64(), 0.2+r.Float64()
	var err error
	switch s.kind {
	case 0:
		s.shape, err = collide.NewSphere(s.size)
	case 1:
		s.shape, err = collide.NewBox(mgl64.Vec3{s.size, s.size * a, s.size * b})
	default:
		s.shape, err = collide.NewCapsule(s.size*(0.1+0.5*a), s.size)
	}
	if err != nil {
		t.Fatal(err)
	}
	start := mgl64.Vec3{-(1.5*s.size + 0.01 + 4*r.Float64()), 2 * (r.Float64() - 0.5), 2 * (r.Float64() - 0.5)}
	speed := 5 + 495*r.Float64()
	s.body = NewDynamic(start, 500+2000*r.Float64())
	s.body.Orientation = mgl64.Quat{W: r.NormFloat64(), V: mgl64.Vec3{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}}.Normalize()
	s.body.LinearVelocity = mgl64.Vec3{speed, 0.1 * speed * (r.Float64() - 0.5), 0.1 * speed * (r.Float64() - 0.5)}
	s.body.AngularVelocity = mgl64.Vec3{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}.Mul(200 * r.Float64())
	s.body.Restitution = r.Float64()
	return s
}

// TestRandomFastBodiesDoNotCrossThinWall fires random shots (randomShot) at a static wall 1 cm
// thick and 100 m wide: no body's centre may ever reach the far side of the wall's mid-plane.
func TestRandomFastBodiesDoNotCrossThinWall(t *testing.T) {
	r := rand.New(rand.NewPCG(99, 5))
	const h = 0.01
	for trial := 0; trial < 500; trial++ {
		s := randomShot(t, r)
		app := newTestApp(t, h, DefaultConfig())
		spawnStaticBox(t, app.World, mgl64.Vec3{}, mgl64.Vec3{0.005, 50, 50})
		e, err := Spawn(app.World, s.body, Collider{Shape: s.shape})
		if err != nil {
			t.Fatal(err)
		}
		for n := 0; n < 60; n++ {
			if err := app.StepFixed(); err != nil {
				t.Fatalf("trial %d: %v", trial, err)
			}
			if x := bodyOf(t, app.World, e).Position.X(); x > 0 {
				t.Errorf("trial %d (shape %d, size %.3g, v %.4g, ω %.4g from %v): centre at x = %.3g after step %d, beyond the wall",
					trial, s.kind, s.size, s.body.LinearVelocity, s.body.AngularVelocity, s.body.Position, x, n)
				break
			}
		}
	}
}

// TestTeleportedFastBallStopsAtWall lets a ball rest far from a 1 cm wall, then teleports it 0.5 m
// before the wall at 500 m/s: the step after the teleport must already stop it there.
func TestTeleportedFastBallStopsAtWall(t *testing.T) {
	app := newTestApp(t, 0.01, DefaultConfig())
	spawnStaticBox(t, app.World, mgl64.Vec3{0, 0, 0}, mgl64.Vec3{0.005, 2, 2})
	ball, err := collide.NewSphere(0.05)
	if err != nil {
		t.Fatal(err)
	}
	b := NewDynamic(mgl64.Vec3{-20, 0, 0}, 1000)
	e, err := Spawn(app.World, b, Collider{Shape: ball})
	if err != nil {
		t.Fatal(err)
	}
	for n := 0; n < 5; n++ {
		if err := app.StepFixed(); err != nil {
			t.Fatal(err)
		}
	}
	bd, _ := ecs.Get[RigidBody](app.World, e)
	bd.Position = mgl64.Vec3{-0.5, 0, 0}
	bd.LinearVelocity = mgl64.Vec3{500, 0, 0}
	for n := 0; n < 50; n++ {
		if err := app.StepFixed(); err != nil {
			t.Fatal(err)
		}
		if x := bodyOf(t, app.World, e).Position.X(); x > -0.055+1e-3 {
			t.Fatalf("step %d after the teleport: ball at x = %.4f, past the wall's face at -0.005", n, x)
		}
	}
}

// FuzzFastBodyDoesNotCrossWall fires one body of any kind, size, speed (up to 500 m/s), spin
// and start before a static wall 1 cm thick: its centre must never reach the far side of the
// wall's mid-plane.
func FuzzFastBodyDoesNotCrossWall(f *testing.F) {
	f.Add(uint8(0), 0.01, 300.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0)
	f.Add(uint8(1), 0.3, 450.0, 2.5, 0.4, -0.3, 5.0, -2.0, 8.0)
	f.Add(uint8(2), 0.4, 380.0, 3.0, -0.5, 0.2, 15.0, 10.0, -6.0)
	f.Add(uint8(1), 0.03, 400.0, 3.9, 0.1, 0.9, 9.6, 10.0, -15.0)
	f.Fuzz(func(t *testing.T, kind uint8, size, speed, dist, y, z, wx, wy, wz float64) {
		// Fold every input into the tested ranges.
		fold := func(x, lo, hi float64) float64 {
			if !finite(x) {
				return lo
			}
			return lo + math.Mod(math.Abs(x), hi-lo)
		}
		size = fold(size, 0.005, 0.5)
		speed = fold(speed, 1, 500)
		dist = fold(dist, 1.5*size+0.01, 4+1.5*size+0.01)
		w := mgl64.Vec3{fold(wx, -20, 20), fold(wy, -20, 20), fold(wz, -20, 20)}
		var shape collide.Shape
		var err error
		switch kind % 3 {
		case 0:
			shape, err = collide.NewSphere(size)
		case 1:
			shape, err = collide.NewBox(mgl64.Vec3{size, 0.6 * size, 0.3 * size})
		default:
			shape, err = collide.NewCapsule(0.3*size, size)
		}
		if err != nil {
			t.Fatal(err)
		}
		app := newTestApp(t, 0.01, DefaultConfig())
		spawnStaticBox(t, app.World, mgl64.Vec3{}, mgl64.Vec3{0.005, 50, 50})
		b := NewDynamic(mgl64.Vec3{-dist, fold(y, -1, 1), fold(z, -1, 1)}, 1000)
		b.LinearVelocity = mgl64.Vec3{speed, 0, 0}
		b.AngularVelocity = w
		e, err := Spawn(app.World, b, Collider{Shape: shape})
		if err != nil {
			t.Fatal(err)
		}
		for n := 0; n < 60; n++ {
			if err := app.StepFixed(); err != nil {
				t.Fatal(err)
			}
			if x := bodyOf(t, app.World, e).Position.X(); x > 0 {
				t.Fatalf("shape %d of size %.3g at %.4g m/s from %.3g m: centre at x = %.3g after step %d",
					kind%3, size, speed, dist, x, n)
			}
		}
	})
}

// A plank 2 m long and 5 cm thick, spinning at 20 to 150 rad/s about its short axis while it drifts
// into a 1 cm wall (no gravity), never has a corner beyond the wall's far face: its tips sweep up to
// 1.5 m per step, which the rotation's look-ahead and the rotation bound (π/4 a step) cover. (At
// 300 rad/s with a 3 m/s drift a corner pokes 4 cm through for a step: at π/4 a step the contact's
// linearisation misses a 1 m lever's arc by r(1 − cos θ) ≈ 0.3 m.)
func TestSpinningPlankDoesNotCrossThinWall(t *testing.T) {
	const half = 0.005 // the wall's half thickness, m
	for _, spin := range []float64{20, 40, 80, 150} {
		for _, drift := range []float64{0.5, 3} {
			app := newTestApp(t, 0.01, DefaultConfig())
			wall, _ := collide.NewBox(mgl64.Vec3{half, 3, 3})
			if _, err := Spawn(app.World, NewStatic(mgl64.Vec3{}), Collider{Shape: wall}); err != nil {
				t.Fatal(err)
			}
			h := mgl64.Vec3{1, 0.025, 0.1}
			plank, _ := collide.NewBox(h)
			b := NewDynamic(mgl64.Vec3{-1.2, 0, 0}, 600)
			b.AngularVelocity = mgl64.Vec3{0, 0, spin}
			b.LinearVelocity = mgl64.Vec3{drift, 0, 0}
			if err := b.SetGravityScale(0); err != nil {
				t.Fatal(err)
			}
			e, err := Spawn(app.World, b, Collider{Shape: plank})
			if err != nil {
				t.Fatal(err)
			}
			for n := 0; n < 300; n++ {
				if err := app.StepFixed(); err != nil {
					t.Fatal(err)
				}
				p := bodyOf(t, app.World, e)
				r := p.Orientation.Mat4().Mat3()
				for i := 0; i < 8; i++ {
					c := mgl64.Vec3{h[0], h[1], h[2]}
					for k := 0; k < 3; k++ {
						if i&(1<<k) != 0 {
							c[k] = -c[k]
						}
					}
					if x := p.Position.Add(r.Mul3x1(c))[0]; x > half+0.01 {
						t.Fatalf("spin %v rad/s, drift %v m/s, step %d: a corner is at x = %.3f m, beyond the wall", spin, drift, n, x)
					}
				}
			}
		}
	}
}
