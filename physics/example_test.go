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
