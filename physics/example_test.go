package physics_test

import (
	"fmt"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/stagger-physics/stagger/collide"
	"github.com/stagger-physics/stagger/ecs"
	"github.com/stagger-physics/stagger/physics"
)

// A crate dropped from 2 m onto the ground comes to rest on it, its centre half its height up,
// and falls asleep: contact is exact at the velocity level, so it neither sinks nor bounces.
func Example() {
	app, err := ecs.NewApp(0.01, 5)
	if err != nil {
		panic(err)
	}
	if err := app.AddPlugin(physics.NewPlugin(physics.DefaultConfig())); err != nil {
		panic(err)
	}
	ground, _ := collide.NewHalfSpace(mgl64.Vec3{0, 0, 1}, 0)
	if _, err := physics.Spawn(app.World, physics.NewStatic(mgl64.Vec3{}), physics.Collider{Shape: ground}); err != nil {
		panic(err)
	}
	box, _ := collide.NewBox(mgl64.Vec3{0.5, 0.5, 0.25})
	crate, err := physics.Spawn(app.World, physics.NewDynamic(mgl64.Vec3{0, 0, 2}, 500), physics.Collider{Shape: box})
	if err != nil {
		panic(err)
	}
	for i := 0; i < 300; i++ { // three seconds of fixed steps
		if err := app.StepFixed(); err != nil {
			panic(err)
		}
	}
	body, _ := ecs.Get[physics.RigidBody](app.World, crate)
	fmt.Printf("height %.6f m, asleep %v\n", body.Position.Z(), body.Sleeping)
	// Output: height 0.250000 m, asleep true
}

// A game pushes bodies between steps through the component: an impulse changes the velocity at
// once, a force acts over the next step only (so a thruster applies it every step), and a gravity
// scale persists. Here a 2 kg ball with gravity scale 0, which floats in normal gravity, is kicked
// with 4 N·s along x, then pushed with 2 N along y for one second.
func ExampleRigidBody_ApplyImpulse() {
	app, err := ecs.NewApp(0.01, 5)
	if err != nil {
		panic(err)
	}
	if err := app.AddPlugin(physics.NewPlugin(physics.DefaultConfig())); err != nil {
		panic(err)
	}
	sphere, _ := collide.NewSphere(0.25)
	ballBody := physics.NewDynamic(mgl64.Vec3{0, 0, 10}, 1)
	ballBody.Mass = 2 // the inertia is the sphere's, scaled to 2 kg
	if err := ballBody.SetGravityScale(0); err != nil {
		panic(err)
	}
	ball, err := physics.Spawn(app.World, ballBody, physics.Collider{Shape: sphere})
	if err != nil {
		panic(err)
	}
	b, _ := ecs.Get[physics.RigidBody](app.World, ball)
	if err := b.ApplyImpulse(mgl64.Vec3{4, 0, 0}, b.Position); err != nil { // through the centre: no spin
		panic(err)
	}
	fmt.Printf("after the kick: v = %.2f m/s\n", b.LinearVelocity)
	for i := 0; i < 100; i++ {
		b, _ := ecs.Get[physics.RigidBody](app.World, ball)
		if err := b.ApplyCentralForce(mgl64.Vec3{0, 2, 0}); err != nil {
			panic(err)
		}
		if err := app.StepFixed(); err != nil {
			panic(err)
		}
	}
	b, _ = ecs.Get[physics.RigidBody](app.World, ball)
	fmt.Printf("after 1 s of thrust: v = %.2f m/s, height %.2f m\n", b.LinearVelocity, b.Position.Z())
	// Output:
	// after the kick: v = [2.00 0.00 0.00] m/s
	// after 1 s of thrust: v = [2.00 1.00 0.00] m/s, height 10.00 m
}

// A ray cast from above finds the crate resting on the ground, and a sensor volume on the ground
// reports the ball that rolls through it (it slows as friction turns its slide into rolling); the
// ball rolls on as if the sensor were not there.
func ExampleSimulation_CastRay() {
	app, err := ecs.NewApp(0.01, 5)
	if err != nil {
		panic(err)
	}
	if err := app.AddPlugin(physics.NewPlugin(physics.DefaultConfig())); err != nil {
		panic(err)
	}
	ground, _ := collide.NewHalfSpace(mgl64.Vec3{0, 0, 1}, 0)
	if _, err := physics.Spawn(app.World, physics.NewStatic(mgl64.Vec3{}), physics.Collider{Shape: ground}); err != nil {
		panic(err)
	}
	box, _ := collide.NewBox(mgl64.Vec3{0.5, 0.5, 0.25})
	crate, _ := physics.Spawn(app.World, physics.NewDynamic(mgl64.Vec3{0, 0, 0.25}, 500), physics.Collider{Shape: box})
	zone, _ := collide.NewBox(mgl64.Vec3{0.5, 2, 1})
	trigger, _ := physics.Spawn(app.World, physics.NewStatic(mgl64.Vec3{4, 0, 1}), physics.Collider{Shape: zone, Sensor: true})
	sphere, _ := collide.NewSphere(0.2)
	b := physics.NewDynamic(mgl64.Vec3{2, 0, 0.2}, 1000)
	b.LinearVelocity = mgl64.Vec3{2, 0, 0}
	ball, _ := physics.Spawn(app.World, b, physics.Collider{Shape: sphere})

	sim, _ := physics.SimulationOf(app.World)
	hit, ok, err := sim.CastRay(mgl64.Vec3{0.1, 0.2, 10}, mgl64.Vec3{0, 0, -1}, 100, physics.QueryFilter{})
	if err != nil {
		panic(err)
	}
	fmt.Printf("ray: hit %v, the crate %v, %.2f m down, normal %.0f\n", ok, hit.Entity == crate, hit.Distance, hit.Normal)

	events, _ := ecs.GetResource[ecs.Events[physics.SensorEvent]](app.World)
	var reader ecs.EventReader[physics.SensorEvent]
	for i := 0; i < 300; i++ {
		if err := app.StepFixed(); err != nil {
			panic(err)
		}
		reader.Read(events, func(ev physics.SensorEvent) {
			fmt.Printf("%.2f s: the ball %v the trigger %v\n", float64(i+1)*0.01, ev.Phase, ev.Sensor == trigger && ev.Other == ball)
		})
	}
	// Output:
	// ray: hit true, the crate true, 9.50 m down, normal [0 0 1]
	// 0.91 s: the ball began the trigger true
	// 1.89 s: the ball ended the trigger true
}

// Contact events drive a game's impact sounds and damage: a 1 kg ball dropped from 1.25 m hits the
// ground at about 5 m/s. A speculative contact lets the ball reach the floor in the step the
// contact begins, so the impulse that stops it, about m·v = 5 N·s, may arrive with that event or
// the next: a game plays its sound when a contact event's impulse exceeds a threshold, whatever its
// phase, which also catches a second impact of a body that never left.
func ExampleContactEvent() {
	app, err := ecs.NewApp(0.01, 5)
	if err != nil {
		panic(err)
	}
	if err := app.AddPlugin(physics.NewPlugin(physics.DefaultConfig())); err != nil {
		panic(err)
	}
	ground, _ := collide.NewHalfSpace(mgl64.Vec3{0, 0, 1}, 0)
	floor, _ := physics.Spawn(app.World, physics.NewStatic(mgl64.Vec3{}), physics.Collider{Shape: ground})
	sphere, _ := collide.NewSphere(0.25)
	b := physics.NewDynamic(mgl64.Vec3{0, 0, 1.5}, 1)
	b.Mass = 1
	ball, _ := physics.Spawn(app.World, b, physics.Collider{Shape: sphere})

	const loud = 1.0 // N·s: the impulse worth a sound (resting on the floor takes m·g·h ≈ 0.1)
	events, _ := ecs.GetResource[ecs.Events[physics.ContactEvent]](app.World)
	var reader ecs.EventReader[physics.ContactEvent]
	for i := 0; i < 100; i++ {
		if err := app.StepFixed(); err != nil {
			panic(err)
		}
		reader.Read(events, func(ev physics.ContactEvent) {
			if ev.A == floor && ev.B == ball && ev.Impulse > loud {
				fmt.Printf("%.2f s: the ball hit the floor (%v), impulse %.1f N·s\n", float64(i+1)*0.01, ev.Phase, ev.Impulse)
			}
		})
	}
	// Output: 0.51 s: the ball hit the floor (persisted), impulse 5.0 N·s
}
