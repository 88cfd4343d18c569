package scenes

import (
	"github.com/go-gl/mathgl/mgl64"
	"github.com/stagger-physics/stagger/deform"
	"github.com/stagger-physics/stagger/ecs"
	"github.com/stagger-physics/stagger/physics"
)

// The heap scene: soft blocks dropped on a heap of crates.
const (
	heapCrateHalf    = 0.2  // half side of a crate, m
	heapCrateDensity = 500  // kg/m³
	heapLowPitch     = 0.42 // spacing of the lower layer, m
	heapHighPitch    = 0.52 // spacing of the upper layer, m
	heapBlockCells   = 6
	heapBlockModes   = 10
	heapDropLow      = 1.6 // release height of the first block's centre, m
	heapDropHigh     = 3.6 // and of the last
)

// heapBlockHalf is the soft blocks' half extents, m: 0.5 × 0.4 × 0.3 m.
var heapBlockHalf = mgl64.Vec3{0.25, 0.2, 0.15}

// heapMaterial is a stiff rubber (E = 1 MPa, ν = 0.35, 1,000 kg/m³).
var heapMaterial = deform.Material{Young: 1e6, Poisson: 0.35, Density: 1000}

// heap is a heap of 30 crates of 0.4 m in two layers (a 5 × 4 layer on the ground and ten across
// its gaps, shifted and turned a little) with n soft blocks of 0.5 × 0.4 × 0.3 m released at once
// from 1.6 m to 3.6 m above it: a game's rubble with soft bodies in it. docs/scenes.md, heap.
func heap() Scene {
	return Scene{
		Name:     "heap",
		Summary:  "30 crates of 0.4 m in a heap of two layers, n soft blocks (0.5 × 0.4 × 0.3 m, E 1 MPa) dropped on it from 1.6–3.6 m",
		Defaults: Params{N: 6, Mu: 0.6},
		build:    buildHeap,
	}
}

func buildHeap(w *ecs.World, p Params) error {
	if err := spawnGround(w, p.Mu); err != nil {
		return err
	}
	rng := sceneRand(p.Seed, 0x68656170)
	half := mgl64.Vec3{heapCrateHalf, heapCrateHalf, heapCrateHalf}
	// The lower layer: 5 × 4 crates 2 cm apart, each turned by up to 2° (a turned crate reaches
	// 0.2·(cos 2° + sin 2°) = 0.207 m from its centre, within the 0.21 m to its neighbour's).
	for i := 0; i < 5; i++ {
		for j := 0; j < 4; j++ {
			pos := mgl64.Vec3{(float64(i) - 2) * heapLowPitch, (float64(j) - 1.5) * heapLowPitch, heapCrateHalf}
			if _, err := spawnBox(w, half, pos, turnZ(degrees(uniform(rng, 2))), heapCrateDensity, p); err != nil {
				return err
			}
		}
	}
	// The upper layer: ten crates on a 4 × 3 grid of 0.52 m without two corners, 1 cm above the
	// lower one, resting across its gaps, each shifted by up to 1 cm and turned by up to 15°
	// (reaching 0.245 m, within the 0.26 m to a neighbour's).
	for j := 0; j < 3; j++ {
		for i := 0; i < 4; i++ {
			if (i == 0 && j == 0) || (i == 3 && j == 2) {
				continue
			}
			pos := mgl64.Vec3{(float64(i) - 1.5) * heapHighPitch, (float64(j) - 1) * heapHighPitch, 3*heapCrateHalf + 0.01}
			pos = pos.Add(mgl64.Vec3{uniform(rng, 0.01), uniform(rng, 0.01), 0})
			if _, err := spawnBox(w, half, pos, turnZ(degrees(uniform(rng, 15))), heapCrateDensity, p); err != nil {
				return err
			}
		}
	}
	for b := 0; b < p.N; b++ {
		d, err := physics.NewDeformableBox(heapBlockHalf, heapBlockCells, heapMaterial, heapBlockModes)
		if err != nil {
			return err
		}
		z := heapDropLow
		if p.N > 1 {
			z += (heapDropHigh - heapDropLow) * float64(b) / float64(p.N-1)
		}
		d.Position = mgl64.Vec3{uniform(rng, 0.6), uniform(rng, 0.4), z}
		// Tilted by up to 10° about x, a block reaches 0.15·cos 10° + 0.2·sin 10° = 0.183 m above and
		// below its centre: clear of the next block 0.4 m up.
		d.Orientation = turnZ(degrees(uniform(rng, 90))).Mul(mgl64.QuatRotate(degrees(uniform(rng, 10)), mgl64.Vec3{1, 0, 0}))
		d.Friction = p.Mu
		if _, err := physics.SpawnDeformable(w, d); err != nil {
			return err
		}
	}
	return nil
}
