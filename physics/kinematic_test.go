package physics

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/stagger-physics/stagger/collide"
	"github.com/stagger-physics/stagger/ecs"
)

// kinematicStep is the step of the kinematic-body tests, a game's 60 Hz.
const kinematicStep = 1.0 / 60

// spawnPlatform adds a kinematic box of the given half extents at p, moving with velocity v and
// turning with angular velocity w, with friction mu.
func spawnPlatform(t testing.TB, w *ecs.World, half, p, v, omega mgl64.Vec3, mu float64) ecs.Entity {
	t.Helper()
	shape, err := collide.NewBox(half)
	if err != nil {
		t.Fatal(err)
	}
	b := NewStatic(p)
	b.Kind = Kinematic
	b.LinearVelocity, b.AngularVelocity = v, omega
	b.Friction = mu
	e, err := Spawn(w, b, Collider{Shape: shape})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// spawnSmallBox adds a 1 kg box of half extent a at p with velocity v and angular velocity w.
func spawnSmallBox(t testing.TB, w *ecs.World, a float64, p, v, omega mgl64.Vec3, mu float64) ecs.Entity {
	t.Helper()
	shape, err := collide.NewBox(mgl64.Vec3{a, a, a})
	if err != nil {
		t.Fatal(err)
	}
	b := NewDynamic(p, 1)
	b.Mass = 1
	b.Friction = mu
	b.LinearVelocity, b.AngularVelocity = v, omega
	e, err := Spawn(w, b, Collider{Shape: shape})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// A box (μ 0.8) riding a kinematic platform that moves at 1 m/s is carried with it: 0.5 m in
// 0.5 s. A box put on the platform at rest is dragged up to the platform's speed by Coulomb
// friction, μ g, so it falls behind by v²/(2 μ g) and then rides along.
func TestKinematicPlatformCarriesBox(t *testing.T) {
	const mu, speed, g = 0.8, 1.0, 9.81
	for _, riding := range []bool{true, false} {
		app := newTestApp(t, kinematicStep, DefaultConfig())
		v := mgl64.Vec3{speed, 0, 0}
		platform := spawnPlatform(t, app.World, mgl64.Vec3{3, 3, 0.1}, mgl64.Vec3{}, v, mgl64.Vec3{}, mu)
		v0 := mgl64.Vec3{}
		if riding {
			v0 = v
		}
		box := spawnSmallBox(t, app.World, 0.25, mgl64.Vec3{-1, 0, 0.35}, v0, mgl64.Vec3{}, mu)
		stepN(t, app, 30)
		b, p := bodyOf(t, app.World, box), bodyOf(t, app.World, platform)
		want := 0.5
		if !riding {
			want -= speed * speed / (2 * mu * g)
		}
		if dx := b.Position[0] + 1; math.Abs(dx-want) > 0.01 || math.Abs(b.Position[1]) > 1e-6 {
			t.Errorf("riding %v: the box moved to %v (%.4f m along x), want %.4f ± 0.01 m", riding, b.Position, dx, want)
		}
		if math.Abs(p.Position[0]-0.5) > 1e-9 {
			t.Errorf("the platform moved to %v, want x = 0.5", p.Position)
		}
		if b.LinearVelocity.Sub(v).Len() > 1e-3 || math.Abs(b.Position[2]-0.35) > 1e-3 {
			t.Errorf("riding %v: box v %v z %v, want riding along at %v on the platform", riding, b.LinearVelocity, b.Position[2], v)
		}
	}
}

// A box on a kinematic turntable turning at ω, at radius r: while ω²r < μg friction supplies the
// centripetal force and the box goes round on its circle with the table; with ω²r > μg it slides
// outward and leaves.
func TestKinematicTurntable(t *testing.T) {
	const mu, r, g = 0.5, 1.0, 9.81
	for _, omega := range []float64{1.5, 3.5} { // ω²r = 2.25 and 12.25 against μg = 4.905
		app := newTestApp(t, kinematicStep, DefaultConfig())
		w := mgl64.Vec3{0, 0, omega}
		spawnPlatform(t, app.World, mgl64.Vec3{3, 3, 0.1}, mgl64.Vec3{}, mgl64.Vec3{}, w, mu)
		// The box starts turning with the table, as if it had been riding it.
		start := mgl64.Vec3{r, 0, 0.2}
		box := spawnSmallBox(t, app.World, 0.1, start, w.Cross(mgl64.Vec3{r, 0, 0}), w, mu)
		const steps = 60 // 1 s
		stick := omega*omega*r < mu*g
		for i := 1; i <= steps; i++ {
			stepN(t, app, 1)
			b := bodyOf(t, app.World, box)
			radius := math.Hypot(b.Position[0], b.Position[1])
			if stick {
				// Sticking, the box moves each step with the table's velocity at its start-of-step
				// position, x ← x + h ω×x: semi-implicit Euler turns it by atan(hω) and widens its
				// circle by √(1 + h²ω²) a step (1.9 % in 1 s here).
				angle := float64(i) * math.Atan(kinematicStep*omega)
				rad := r * math.Pow(1+kinematicStep*kinematicStep*omega*omega, float64(i)/2)
				want := mgl64.Vec3{rad * math.Cos(angle), rad * math.Sin(angle), 0.2}
				if b.Position.Sub(want).Len() > 1e-3 {
					t.Fatalf("ω²r < μg, step %d: box at %v (radius %.4f), want on its circle at %v", i, b.Position, radius, want)
				}
				if slip := b.LinearVelocity.Sub(w.Cross(b.Position)); slip.Len() > 0.05 {
					t.Fatalf("ω²r < μg, step %d: the box slides on the table at %v", i, slip)
				}
			}
		}
		b := bodyOf(t, app.World, box)
		radius := math.Hypot(b.Position[0], b.Position[1])
		if !stick && radius < r+0.5 {
			t.Errorf("ω²r > μg: after 1 s the box is at radius %.3f, want it slid outward past %.1f", radius, r+0.5)
		}
	}
}

// A kinematic elevator rising at 1 m/s lifts the box on it by 1 m in 1 s, without the box sinking
// into it on any step.
func TestKinematicElevatorLiftsBox(t *testing.T) {
	app := newTestApp(t, kinematicStep, DefaultConfig())
	up := mgl64.Vec3{0, 0, 1}
	platform := spawnPlatform(t, app.World, mgl64.Vec3{1, 1, 0.1}, mgl64.Vec3{}, up, mgl64.Vec3{}, 0.8)
	box := spawnSmallBox(t, app.World, 0.25, mgl64.Vec3{0, 0, 0.35}, mgl64.Vec3{}, mgl64.Vec3{}, 0.8)
	for i := 1; i <= 60; i++ {
		stepN(t, app, 1)
		b, p := bodyOf(t, app.World, box), bodyOf(t, app.World, platform)
		if gap := (b.Position[2] - 0.25) - (p.Position[2] + 0.1); gap < -1e-6 {
			t.Fatalf("step %d: the box sank %.3g m into the elevator", i, -gap)
		}
	}
	b := bodyOf(t, app.World, box)
	if math.Abs(b.Position[2]-1.35) > 0.01 || b.LinearVelocity.Sub(up).Len() > 1e-3 {
		t.Errorf("after 1 s the box is at z %.4f with v %v, want 1.35 ± 0.01 m rising at %v", b.Position[2], b.LinearVelocity, up)
	}
}
