package physics

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/stagger-physics/stagger/collide"
	"github.com/stagger-physics/stagger/ecs"
)

// bounceStep is the step of the restitution tests, a game's 60 Hz.
const bounceStep = 1.0 / 60

// ballRadius is the radius of the restitution tests' balls, m.
const ballRadius = 0.1

// spawnPlane adds a static half-space through the origin with unit normal n, friction mu and
// restitution e.
func spawnPlane(t testing.TB, w *ecs.World, n mgl64.Vec3, mu, e float64) {
	t.Helper()
	plane, err := collide.NewHalfSpace(n, 0)
	if err != nil {
		t.Fatal(err)
	}
	b := NewStatic(mgl64.Vec3{})
	b.Friction, b.Restitution = mu, e
	if _, err := Spawn(w, b, Collider{Shape: plane}); err != nil {
		t.Fatal(err)
	}
}

// spawnBall adds a 1 kg ball of radius ballRadius at p with velocity v, friction mu and
// restitution e.
func spawnBall(t testing.TB, w *ecs.World, p, v mgl64.Vec3, mu, e float64) ecs.Entity {
	t.Helper()
	s, err := collide.NewSphere(ballRadius)
	if err != nil {
		t.Fatal(err)
	}
	b := NewDynamic(p, 1)
	b.Mass = 1
	b.LinearVelocity = v
	b.Friction, b.Restitution = mu, e
	ent, err := Spawn(w, b, Collider{Shape: s})
	if err != nil {
		t.Fatal(err)
	}
	return ent
}

// dropBall drops a ball with restitution e (the ground's too) from a gap of height m onto the
// ground and runs steps; it returns the gap at each rebound's apex and the ball's states.
func dropBall(t *testing.T, e, height float64, steps int) (apexes []float64, states []RigidBody) {
	t.Helper()
	app := newTestApp(t, bounceStep, DefaultConfig())
	spawnPlane(t, app.World, mgl64.Vec3{0, 0, 1}, 0.5, e)
	ball := spawnBall(t, app.World, mgl64.Vec3{0, 0, height + ballRadius}, mgl64.Vec3{}, 0.5, e)
	rising, top := false, 0.0
	for i := 0; i < steps; i++ {
		stepN(t, app, 1)
		b := bodyOf(t, app.World, ball)
		states = append(states, b)
		gap := b.Position[2] - ballRadius
		if gap < -1e-6 {
			t.Fatalf("e %v, step %d: the ball sank %.3g m into the ground", e, i, -gap)
		}
		switch {
		case b.LinearVelocity[2] > 0:
			rising, top = true, max(top, gap)
		case rising:
			apexes = append(apexes, max(top, gap))
			rising, top = false, 0
		}
	}
	return apexes, states
}

// A ball with restitution 0.8 dropped from 3 m rebounds to e²·3 = 1.92 m (±5 %), then to e⁴·3.
func TestBounceReachesNewtonHeight(t *testing.T) {
	const e, h = 0.8, 3.0
	apexes, _ := dropBall(t, e, h, 300)
	if len(apexes) < 2 {
		t.Fatalf("the ball rebounded %d times in 5 s, want at least 2 (apexes %v)", len(apexes), apexes)
	}
	for i, want := range []float64{e * e * h, e * e * e * e * h} {
		if math.Abs(apexes[i]-want) > 0.05*want {
			t.Errorf("rebound %d reached %.4f m, want %.4f m ± 5 %%", i+1, apexes[i], want)
		}
	}
	t.Logf("apexes %.4f (first: %.2f %% of e²h)", apexes, 100*apexes[0]/(e*e*h))
}

// With e = 0 a dropped ball lands and stays: no rebound at all.
func TestNoBounceWithoutRestitution(t *testing.T) {
	apexes, states := dropBall(t, 0, 3, 120)
	for _, a := range apexes {
		if a > 1e-9 {
			t.Errorf("e = 0: the ball rebounded to %v m", apexes)
		}
	}
	if b := states[len(states)-1]; math.Abs(b.Position[2]-ballRadius) > 1e-6 || b.LinearVelocity.Len() > 1e-6 {
		t.Errorf("e = 0: the ball ends at z %v with v %v, want at rest on the ground", b.Position[2], b.LinearVelocity)
	}
}

// With e = 1 the ball rebounds to at least 95 % of its drop, and no bounce gains energy: the
// energy that semi-implicit Euler keeps exactly in free flight, ½m|v|² − m g·x + ½m h g·v (the
// plain ½m|v|² − m g·x drifts by m h g·v/2 from step to step), never rises, and every apex is no
// higher than the last.
func TestElasticBounceKeepsEnergy(t *testing.T) {
	const h = 3.0
	apexes, states := dropBall(t, 1, h, 400)
	if len(apexes) < 3 {
		t.Fatalf("e = 1: %d rebounds in 6.7 s, want at least 3 (apexes %v)", len(apexes), apexes)
	}
	if apexes[0] < 0.95*h {
		t.Errorf("e = 1: the first rebound reached %.4f m, want at least 95 %% of %v m", apexes[0], h)
	}
	for i := 1; i < len(apexes); i++ {
		if apexes[i] > apexes[i-1]+1e-9 {
			t.Errorf("e = 1: rebound %d reached %.6f m, above rebound %d's %.6f m", i+1, apexes[i], i, apexes[i-1])
		}
	}
	g := DefaultConfig().Gravity
	shadow := func(b RigidBody) float64 {
		v := b.LinearVelocity
		return 0.5*v.Dot(v) - g.Dot(b.Position) + 0.5*bounceStep*g.Dot(v)
	}
	for i := 1; i < len(states); i++ {
		if rise := shadow(states[i]) - shadow(states[i-1]); rise > 1e-9 {
			t.Fatalf("e = 1, step %d: the energy rose by %.3g J/kg (v %v → %v)", i, rise, states[i-1].LinearVelocity, states[i].LinearVelocity)
		}
	}
	t.Logf("e = 1 apexes %.4f", apexes)
}

// A ball dropped on a plane tilted by 20° leaves with its velocity's normal component reversed and
// scaled by e, and, without friction, its tangential component kept.
func TestBounceOnTiltedPlane(t *testing.T) {
	const e, theta = 0.8, 20 * math.Pi / 180
	n := mgl64.Vec3{math.Sin(theta), 0, math.Cos(theta)}
	g := DefaultConfig().Gravity
	for _, mu := range []float64{0, 0.3} {
		app := newTestApp(t, bounceStep, DefaultConfig())
		spawnPlane(t, app.World, n, mu, e)
		ball := spawnBall(t, app.World, n.Mul(2+ballRadius), mgl64.Vec3{}, mu, e)
		prev := bodyOf(t, app.World, ball)
		bounced := false
		for i := 0; i < 120 && !bounced; i++ {
			stepN(t, app, 1)
			b := bodyOf(t, app.World, ball)
			if b.LinearVelocity.Dot(n) > 0 {
				bounced = true
				// The approach velocity is last step's plus this step's gravity (docs/architecture.md,
				// Restitution).
				pre := prev.LinearVelocity.Add(g.Mul(bounceStep))
				post := b.LinearVelocity
				if want := -e * pre.Dot(n); math.Abs(post.Dot(n)-want) > 1e-6*want {
					t.Errorf("μ %v: normal speed after %.6f, want −e × %.6f = %.6f", mu, post.Dot(n), pre.Dot(n), want)
				}
				preT, postT := pre.Sub(n.Mul(pre.Dot(n))), post.Sub(n.Mul(post.Dot(n)))
				switch {
				case mu == 0 && postT.Sub(preT).Len() > 1e-6*preT.Len():
					t.Errorf("μ 0: tangential velocity %v after, want %v kept", postT, preT)
				case mu > 0 && (postT.Len() > preT.Len()+1e-9 || postT.Dot(preT) < 0):
					t.Errorf("μ %v: tangential velocity %v after, want it along and no faster than %v", mu, postT, preT)
				}
			}
			prev = b
		}
		if !bounced {
			t.Fatalf("μ %v: the ball never left the plane", mu)
		}
	}
}

// Newton's cradle: a ball at 2 m/s hits a row of four touching balls (e = 1, no gravity): the last
// leaves with nearly the first's speed and the others stay nearly at rest; momentum is kept.
func TestNewtonsCradle(t *testing.T) {
	const speed = 2.0
	cfg := DefaultConfig()
	cfg.Gravity = mgl64.Vec3{}
	app := newTestApp(t, bounceStep, cfg)
	var balls []ecs.Entity
	balls = append(balls, spawnBall(t, app.World, mgl64.Vec3{-0.5, 0, 0}, mgl64.Vec3{speed, 0, 0}, 0, 1))
	for i := 1; i < 5; i++ {
		balls = append(balls, spawnBall(t, app.World, mgl64.Vec3{2 * ballRadius * float64(i-1), 0, 0}, mgl64.Vec3{}, 0, 1))
	}
	stepN(t, app, 30) // 0.5 s: the first ball arrives after about 0.2 s
	momentum := 0.0
	for i, e := range balls {
		b := bodyOf(t, app.World, e)
		v := b.LinearVelocity
		momentum += v[0]
		want := 0.0
		if i == 4 {
			want = speed
		}
		if math.Abs(v[0]-want) > 0.05*speed || math.Hypot(v[1], v[2]) > 1e-9 {
			t.Errorf("ball %d leaves with %v, want (%v, 0, 0) within 5 %% of the speed", i, v, want)
		}
	}
	if math.Abs(momentum-speed) > 1e-9 {
		t.Errorf("momentum %v kg·m/s, want %v kept", momentum, speed)
	}
}

// Restitution on every body does not make a resting stack bounce or jitter: contacts that approach
// slower than RestitutionThreshold do not bounce, so the stack steps bit-identically with e = 1 and
// e = 0.
func TestRestingStackIgnoresRestitution(t *testing.T) {
	run := func(e float64) []RigidBody {
		app := newTestApp(t, 0.01, DefaultConfig())
		spawnPlane(t, app.World, mgl64.Vec3{0, 0, 1}, 0.8, e)
		var cubes []ecs.Entity
		for i := 0; i < 10; i++ {
			p := mgl64.Vec3{0.01 * float64(i%3), -0.01 * float64(i%2), 0.5 + float64(i)}
			c := spawnCube(t, app.World, p, mgl64.QuatRotate(0.02*float64(i), mgl64.Vec3{0, 0, 1}), 0.8)
			b, _ := ecs.Get[RigidBody](app.World, c)
			b.Restitution = e
			cubes = append(cubes, c)
		}
		stepN(t, app, 300)
		var out []RigidBody
		for _, c := range cubes {
			out = append(out, bodyOf(t, app.World, c))
		}
		return out
	}
	plain, bouncy := run(0), run(1)
	for i := range plain {
		if plain[i].state() != bouncy[i].state() {
			t.Errorf("cube %d: %v with e = 1, %v with e = 0", i, bouncy[i].state(), plain[i].state())
		}
		if d := plain[i].Position[2] - (0.5 + float64(i)); math.Abs(d) > 1e-3 {
			t.Errorf("cube %d moved %.3g m vertically", i, d)
		}
	}
}

// Bouncing balls and cubes give bit-identical results for 1 and 4 workers: the collision rounds
// depend on nothing but their own island.
func TestBouncesAreDeterministicAcrossWorkers(t *testing.T) {
	run := func(workers int) (*ecs.App, []ecs.Entity, *Simulation) {
		cfg := DefaultConfig()
		cfg.Workers = workers
		app := newTestApp(t, 0.01, cfg)
		spawnPlane(t, app.World, mgl64.Vec3{0, 0, 1}, 0.6, 0.7)
		var es []ecs.Entity
		for i := 0; i < 8; i++ {
			// Half the balls land on a cube, half on the ground.
			x, y := float64(i%4), float64(i/4)
			es = append(es, spawnBall(t, app.World, mgl64.Vec3{x, y, 1.5 + 0.1*float64(i)}, mgl64.Vec3{0.3, -0.2, 0}, 0.6, 0.9))
			if i%2 == 0 {
				c := spawnCube(t, app.World, mgl64.Vec3{x + 0.02, y, 0.5}, mgl64.QuatRotate(0.1*float64(i), mgl64.Vec3{0, 0, 1}), 0.6)
				es = append(es, c)
			}
		}
		sim, _ := SimulationOf(app.World)
		return app, es, sim
	}
	app1, es1, sim1 := run(1)
	app4, es4, sim4 := run(4)
	bounced := 0
	for step := 0; step < 120; step++ {
		stepN(t, app1, 1)
		stepN(t, app4, 1)
		bounced += sim1.Stats().Bounced
		if sim1.Stats().Bounced != sim4.Stats().Bounced {
			t.Fatalf("step %d: %d islands bounced with 1 worker, %d with 4", step, sim1.Stats().Bounced, sim4.Stats().Bounced)
		}
		for i := range es1 {
			if a, b := bodyOf(t, app1.World, es1[i]), bodyOf(t, app4.World, es4[i]); a.state() != b.state() {
				t.Fatalf("step %d, body %d: 1 worker %v, 4 workers %v", step, i, a.state(), b.state())
			}
		}
	}
	if bounced < 8 {
		t.Fatalf("%d island bounces in 1.2 s, want every ball to have bounced", bounced)
	}
}

// A ball dropped on a kinematic platform rising at 1 m/s bounces off the platform's moving surface:
// its velocity relative to the platform is reversed and scaled by e.
func TestBounceOffMovingPlatform(t *testing.T) {
	const e, up = 0.8, 1.0
	app := newTestApp(t, bounceStep, DefaultConfig())
	platform := spawnPlatform(t, app.World, mgl64.Vec3{1, 1, 0.1}, mgl64.Vec3{}, mgl64.Vec3{0, 0, up}, mgl64.Vec3{}, 0.5)
	pb, _ := ecs.Get[RigidBody](app.World, platform)
	pb.Restitution = e
	ball := spawnBall(t, app.World, mgl64.Vec3{0, 0, 2}, mgl64.Vec3{}, 0.5, e)
	g := DefaultConfig().Gravity
	prev := bodyOf(t, app.World, ball)
	for i := 0; i < 60; i++ {
		stepN(t, app, 1)
		b := bodyOf(t, app.World, ball)
		if b.LinearVelocity[2] > up {
			pre := prev.LinearVelocity.Add(g.Mul(bounceStep))[2]
			if want := up + e*(up-pre); math.Abs(b.LinearVelocity[2]-want) > 1e-6*want {
				t.Fatalf("the ball leaves at %.6f m/s, want 1 + e(1 − %.6f) = %.6f m/s", b.LinearVelocity[2], pre, want)
			}
			return
		}
		prev = b
	}
	t.Fatal("the ball never bounced off the platform")
}
