package scenes

import (
	"github.com/go-gl/mathgl/mgl64"
	"github.com/stagger-physics/stagger/ecs"
)

// pyramidGap is the gap between neighbouring cubes of a row of the pyramid wall, m.
const pyramidGap = 0.02

// pyramid is a wall of unit cubes with n at the base: each row one cube shorter, its cubes centred
// on the gaps of the row below, 2 cm gaps in a row; n(n+1)/2 cubes. It holds within 1 mm.
func pyramid() Scene {
	return Scene{
		Name:     "pyramid",
		Summary:  "a wall of unit cubes, n at the base, rows centred on the 2 cm gaps below; holds within 1 mm",
		Defaults: Params{N: 20, Mu: 0.8},
		build:    buildPyramid,
	}
}

func buildPyramid(w *ecs.World, p Params) error {
	if err := spawnGround(w, p.Mu); err != nil {
		return err
	}
	const pitch = 1 + pyramidGap
	for row := 0; row < p.N; row++ {
		count := p.N - row
		for i := 0; i < count; i++ {
			x := (float64(i) - float64(count-1)/2) * pitch
			pos := mgl64.Vec3{x, 0, 0.5 + float64(row)}
			if _, err := spawnUnitCube(w, pos, mgl64.QuatIdent(), p); err != nil {
				return err
			}
		}
	}
	return nil
}
