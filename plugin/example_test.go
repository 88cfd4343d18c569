package plugin_test

import (
	"fmt"

	"github.com/g3n/engine/camera"
	"github.com/g3n/engine/core"
	"github.com/g3n/engine/math32"
	"github.com/go-gl/mathgl/mgl64"
	"github.com/stagger-physics/stagger/collide"
	"github.com/stagger-physics/stagger/ecs"
	"github.com/stagger-physics/stagger/physics"
	"github.com/stagger-physics/stagger/plugin"
)

// A g3n game adds the plugin to its ECS app, spawns bodies, and calls Update once per frame; each
// body's mesh is created under the scene node and follows the body. In a real game, scene is the
// root node the game renders, and Update is called from the g3n app's Run loop with the frame time.
func Example() {
	scene := core.NewNode()
	app, err := ecs.NewApp(1.0/100, 5) // fixed step 10 ms, at most 5 steps per frame
	if err != nil {
		panic(err)
	}
	if err := app.AddPlugin(plugin.New(scene, plugin.DefaultConfig())); err != nil {
		panic(err)
	}

	crate, _ := collide.NewBox(mgl64.Vec3{0.5, 0.5, 0.5})
	body := physics.NewDynamic(mgl64.Vec3{0, 0, 10}, 500) // 10 m up, 500 kg/m³
	if _, err := physics.Spawn(app.World, body, physics.Collider{Shape: crate}); err != nil {
		panic(err)
	}

	for frame := 0; frame < 50; frame++ { // one second at 50 frames per second
		if err := app.Update(1.0 / 50); err != nil {
			panic(err)
		}
	}
	node := scene.Children()[0].GetNode()
	fmt.Printf("steps: %d, meshes: %d, crate at height %.2f m (scene y)\n", app.Clock.Ticks(), len(scene.Children()), node.Position().Y)
	// Output: steps: 100, meshes: 1, crate at height 5.05 m (scene y)
}

// Picking with the mouse: the cursor's ray through the camera, cast into the physics world, finds
// the crate under the cursor. In a game, x and y come from the window's cursor event and width and
// height from its size.
func ExampleCursorRay() {
	scene := core.NewNode()
	app, err := ecs.NewApp(1.0/100, 5)
	if err != nil {
		panic(err)
	}
	if err := app.AddPlugin(plugin.New(scene, plugin.DefaultConfig())); err != nil {
		panic(err)
	}
	box, _ := collide.NewBox(mgl64.Vec3{0.5, 0.5, 0.5})
	crate, _ := physics.Spawn(app.World, physics.NewStatic(mgl64.Vec3{2, 0, 0.5}), physics.Collider{Shape: box})

	cam := camera.NewPerspective(800.0/600, 0.1, 100, 60, camera.Vertical)
	cam.SetPosition(0, 3, 8)                                                         // scene frame: y up
	cam.LookAt(&math32.Vector3{X: 0, Y: 0, Z: 0}, &math32.Vector3{X: 0, Y: 1, Z: 0}) // the origin
	// Where the crate's centre is drawn, in pixels, as a player would click it.
	p := plugin.ToScene(mgl64.Vec3{2, 0, 0.5})
	cam.Project(&p)
	x, y := (p.X+1)/2*800, (1-p.Y)/2*600

	origin, dir, err := plugin.CursorRay(cam, x, y, 800, 600)
	if err != nil {
		panic(err)
	}
	sim, _ := physics.SimulationOf(app.World)
	hit, ok, err := sim.CastRay(origin, dir, 100, physics.QueryFilter{})
	if err != nil {
		panic(err)
	}
	fmt.Printf("clicked the crate: %v (at %.0f, %.0f px)\n", ok && hit.Entity == crate, x, y)
	origin, dir, _ = plugin.CursorRay(cam, 10, 10, 800, 600) // the top left corner: sky
	_, ok, _ = sim.CastRay(origin, dir, 100, physics.QueryFilter{})
	fmt.Printf("clicked the sky: hit %v\n", ok)
	// Output:
	// clicked the crate: true (at 524, 271 px)
	// clicked the sky: hit false
}
