package scenes

import (
	"github.com/go-gl/mathgl/mgl64"
	"github.com/stagger-physics/stagger/ecs"
)

// stack is a tower of n unit cubes on the ground, each displaced within ±2 cm sideways and turned
// within ±3° about z, drawn from the seed. It holds when no cube moves sideways or drops by 1 mm.
func stack() Scene {
	return Scene{
		Name:     "stack",
		Summary:  "a tower of n unit cubes (1 m, 1 kg), each displaced ±2 cm and turned ±3°; holds within 1 mm",
		Defaults: Params{N: 20, Mu: 0.8},
		build:    buildStack,
	}
}

func buildStack(w *ecs.World, p Params) error {
	if err := spawnGround(w, p.Mu); err != nil {
		return err
	}
	rng := sceneRand(p.Seed, 0x737461636b)
	for i := 0; i < p.N; i++ {
		pos := mgl64.Vec3{uniform(rng, 0.02), uniform(rng, 0.02), 0.5 + float64(i)}
		if _, err := spawnUnitCube(w, pos, turnZ(degrees(uniform(rng, 3))), p); err != nil {
			return err
		}
	}
	return nil
}
