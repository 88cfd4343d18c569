package main

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/stagger-physics/stagger/demo/headless"
	"github.com/stagger-physics/stagger/ecs"
	"github.com/stagger-physics/stagger/physics"
)

// TestLaunchVelocityHitsTheTarget flies the launch velocity's arc with small explicit steps, an
// integration independent of the closed form, and checks that it passes within 2 mm of the target
// for targets above, below and level with the origin, near and far, with speeds that reach and
// speeds that do not (then raised), and that a reachable throw keeps its speed.
func TestLaunchVelocityHitsTheTarget(t *testing.T) {
	g := mgl64.Vec3{0, 0, -9.81}
	origin := mgl64.Vec3{1, -2, 3}
	for _, tc := range []struct {
		target mgl64.Vec3
		speed  float64
	}{
		{mgl64.Vec3{11, -2, 3}, 15},
		{mgl64.Vec3{9, 4, 0.5}, 12},
		{mgl64.Vec3{4, 2, 6}, 10},
		{mgl64.Vec3{25, 10, 0}, 9},  // too slow: raised
		{mgl64.Vec3{1, -2, 0.2}, 9}, // straight down
	} {
		v := launchVelocity(origin, tc.target, g, tc.speed)
		reachable := 9.81*(tc.target[2]-origin[2]+tc.target.Sub(origin).Len()) <= tc.speed*tc.speed
		if reachable && math.Abs(v.Len()-tc.speed) > 1e-9 {
			t.Errorf("target %v: speed %v, want %v", tc.target, v.Len(), tc.speed)
		}
		p, vel, best := origin, v, math.Inf(1)
		const h = 1e-5
		for i := 0; i < 1000000; i++ {
			best = math.Min(best, p.Sub(tc.target).Len())
			vel = vel.Add(g.Mul(h))
			p = p.Add(vel.Mul(h))
		}
		if best > 2e-3 {
			t.Errorf("target %v, speed %v: the arc passes %.4f m from it (velocity %v)", tc.target, tc.speed, best, v)
		}
	}
}

// TestThrowKnocksThePyramid is a level's throw without the window: a pyramid settles for a second,
// then a heavy ball thrown from where the camera would be, aimed by a ray cast at the pyramid's
// middle, must move some of its boxes by more than 10 cm within two seconds; the same level left
// alone moves none by a millimetre (the control).
func TestThrowKnocksThePyramid(t *testing.T) {
	for _, throw := range []bool{false, true} {
		o := headless.DefaultOptions()
		o.Scene = "pyramid"
		sc, params, err := o.Resolve(map[string]bool{})
		if err != nil {
			t.Fatal(err)
		}
		params.N = 5
		app, err := ecs.NewApp(o.Dt, 1)
		if err != nil {
			t.Fatal(err)
		}
		if err := app.AddPlugin(physics.NewPlugin(o.PhysicsConfig())); err != nil {
			t.Fatal(err)
		}
		if err := sc.Build(app.World, params); err != nil {
			t.Fatal(err)
		}
		step := func(n int) {
			for i := 0; i < n; i++ {
				if err := app.StepFixed(); err != nil {
					t.Fatal(err)
				}
			}
		}
		step(100)
		start := map[ecs.Entity]mgl64.Vec3{}
		q, err := ecs.NewQuery1[physics.RigidBody](app.World)
		if err != nil {
			t.Fatal(err)
		}
		_ = q.Each(func(e ecs.Entity, b *physics.RigidBody) {
			if b.Kind == physics.Dynamic {
				start[e] = b.Position
			}
		})
		var centre mgl64.Vec3
		for _, p := range start {
			centre = centre.Add(p.Mul(1 / float64(len(start))))
		}
		if throw {
			sim, _ := physics.SimulationOf(app.World)
			eye := centre.Add(mgl64.Vec3{6, -8, 3})
			target, err := aimPoint(sim, eye, centre.Sub(eye).Normalize())
			if err != nil {
				t.Fatal(err)
			}
			if d := target.Sub(centre).Len(); d > 1 {
				t.Fatalf("the aim ray hit %v, %.2f m from the pyramid's middle %v", target, d, centre)
			}
			v := launchVelocity(eye, target, sim.Config().Gravity, throwSpeed(0.5))
			if _, err := throwProjectile(app.World, projectiles[2], eye, v); err != nil {
				t.Fatal(err)
			}
		}
		step(200)
		moved := 0.0
		for e, p := range start {
			b, ok := ecs.Get[physics.RigidBody](app.World, e)
			if !ok {
				t.Fatalf("body %v vanished", e)
			}
			moved = math.Max(moved, b.Position.Sub(p).Len())
		}
		switch {
		case throw && moved < 0.1:
			t.Errorf("a heavy ball thrown at the pyramid moved no box by more than %.3f m", moved)
		case !throw && moved > 1e-3:
			t.Errorf("the pyramid left alone moved a box by %.4f m", moved)
		}
	}
}
