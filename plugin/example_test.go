package plugin_test

import (
	"fmt"

	"github.com/g3n/engine/core"
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
