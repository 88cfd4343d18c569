package scenes

import (
	"github.com/go-gl/mathgl/mgl64"
	"github.com/stagger-physics/stagger/ecs"
)

// ratio stacks three unit cubes on the ground, the middle one n times denser: a heavy box between
// light ones, which engines that do not solve contact exactly let sink. It holds within 1 mm.
func ratio() Scene {
	return Scene{
		Name:     "ratio",
		Summary:  "three stacked unit cubes, the middle one n times denser; holds within 1 mm",
		Defaults: Params{N: 100, Mu: 0.8},
		build:    buildRatio,
	}
}

func buildRatio(w *ecs.World, p Params) error {
	if err := spawnGround(w, p.Mu); err != nil {
		return err
	}
	for i, density := range []float64{1, float64(p.N), 1} {
		half := mgl64.Vec3{0.5, 0.5, 0.5}
		pos := mgl64.Vec3{0, 0, 0.5 + float64(i)}
		if _, err := spawnBox(w, half, pos, mgl64.QuatIdent(), density*unitCubeDensity, p); err != nil {
			return err
		}
	}
	return nil
}
