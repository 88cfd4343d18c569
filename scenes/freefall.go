package scenes

import (
	"github.com/go-gl/mathgl/mgl64"
	"github.com/stagger-physics/stagger/collide"
	"github.com/stagger-physics/stagger/ecs"
	"github.com/stagger-physics/stagger/physics"
)

// freefall drops n unit cubes from rest, in a row, 2 m apart, from heights rising by 1 m.
func freefall() Scene {
	return Scene{
		Name:     "freefall",
		Summary:  "n unit cubes (1 m, 1 kg) dropped from rest; no contact",
		Defaults: Params{N: 5, Mu: 0.8},
		build:    buildFreefall,
	}
}

func buildFreefall(w *ecs.World, p Params) error {
	cube, err := collide.NewBox(mgl64.Vec3{0.5, 0.5, 0.5})
	if err != nil {
		return err
	}
	for i := 0; i < p.N; i++ {
		x := 2 * (float64(i) - float64(p.N-1)/2)
		body := physics.NewDynamic(mgl64.Vec3{x, 0, 2 + float64(i)}, 1) // 1 m³ at 1 kg/m³: 1 kg
		body.Friction, body.Restitution = p.Mu, p.E
		if _, err := physics.Spawn(w, body, physics.Collider{Shape: cube}); err != nil {
			return err
		}
	}
	return nil
}
