package scenes

import (
	"errors"
	"math"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/stagger-physics/stagger/ecs"
)

// The blocks of the impact scene: five 10 cm wooden cubes (0.6 kg each, a fifth of a card's
// 2.7 kg, so that one block can knock a card loose but not crush the house by its weight alone),
// released at 3 m/s straight down 3 cm above the house's highest point once it has stood for a
// second.
const (
	impactAt        = 1.0  // s: the house has stood (and slept) for half a second by then
	impactBlocks    = 5    // blocks dropped
	impactHalf      = 0.05 // half side of a block, m
	impactDensity   = 600  // kg/m³, about wood
	impactSpeed     = 3.0  // downward release speed, m/s
	impactClearance = 0.03 // gap between a block's bottom and the house's top at release, m
	impactJitterX   = 0.04 // largest shift of a block along the house from its even spacing, m
	impactJitterY   = 0.2  // largest shift of a block across the house (cards are 0.6 m deep), m
	impactJitterYaw = 30   // largest turn of a block about z, degrees
)

// impact is the card house of the cardhouse scene (the paper's Fig. 7, §8.1) hit by falling blocks:
// the house stands for 1 s, then five 10 cm wooden cubes are released at 3 m/s straight down, 3 cm
// above its highest card, spread evenly along it so that they strike different tents: the top one
// and those below it to either side, which they reach after falling past the upper levels.
// Whether the house stands or falls, it must do so soundly: no body through the ground, penetration
// at most 5 mm from the first second on, no energy gained, no non-finite state.
func impact() Scene {
	return Scene{
		Name:     "impact",
		Summary:  "the n-level card house (as cardhouse), hit at 1 s by five 10 cm wooden cubes released at 3 m/s above it",
		Defaults: Params{N: 3, Mu: 0.8, E: 0.1},
		check:    checkCardhouse,
		build:    buildCardhouse,
		script:   []cue{{at: impactAt, act: dropImpactBlocks}},
	}
}

// dropImpactBlocks releases the blocks above the house as it stands now: their bottoms
// impactClearance above its highest point, evenly spread over its length (x), jittered along and
// across it and turned about z from the seed, all moving down at impactSpeed.
func dropImpactBlocks(w *ecs.World, p Params) error {
	house, ok, err := dynamicBounds(w, math.Inf(-1), math.Inf(1))
	if err != nil {
		return err
	}
	if !ok {
		return errors.New("no card to drop the blocks on")
	}
	rng := sceneRand(p.Seed, 0x696d70616374)
	half := mgl64.Vec3{impactHalf, impactHalf, impactHalf}
	z := house.Max[2] + impactClearance + impactHalf
	length := house.Max[0] - house.Min[0]
	for k := 0; k < impactBlocks; k++ {
		// Block k over the middle of the k-th of five equal lengths of the house: for n 3 the
		// middle one meets the top tent, the others the tents of the lower levels to either side.
		x := house.Min[0] + (float64(k)+0.5)/impactBlocks*length + uniform(rng, impactJitterX)
		y := 0.5*(house.Min[1]+house.Max[1]) + uniform(rng, impactJitterY)
		yaw := turnZ(degrees(uniform(rng, impactJitterYaw)))
		v := mgl64.Vec3{0, 0, -impactSpeed}
		if _, err := spawnMovingBox(w, half, mgl64.Vec3{x, y, z}, yaw, impactDensity, v, p); err != nil {
			return err
		}
	}
	return nil
}
