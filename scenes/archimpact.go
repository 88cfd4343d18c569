package scenes

import (
	"errors"
	"math"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/stagger-physics/stagger/ecs"
)

// The loads of the archimpact scene, all of the voussoirs' stone (archDensity).
const (
	// At 1 s, three 15 cm cubes (6.75 kg each, a fifteenth of a 15-block arch's 100 kg voussoir:
	// rubble a mason might drop) fall on the keystone at 3 m/s, released 5 cm above it in a row
	// across the arch's 0.5 m depth, 2 cm apart.
	archDropAt        = 1.0
	archDropHalf      = 0.075
	archDropSpeed     = 3.0
	archDropClearance = 0.05
	archDropPitch     = 2*archDropHalf + 0.02
	archDropJitterX   = 0.03 // largest shift of a cube along the span, m
	// At 2 s, a 30 cm cube (54 kg, about half a voussoir) is thrown horizontally at 5 m/s at the
	// arch's leg on the +x side, its centre 0.6 m up (the second voussoir of 15), released 5 cm
	// clear of everything at its height. Its momentum, 270 N·s, is several times the impulse of the
	// leg's spare friction over one step, so the leg must take the blow through the solve.
	archThrowAt        = 2.0
	archThrowHalf      = 0.15
	archThrowSpeed     = 5.0
	archThrowHeight    = 0.6
	archThrowClearance = 0.05
)

// archimpact is the arch scene loaded while it stands: after 1 s, three 15 cm stone cubes fall on
// the keystone at 3 m/s; at 2 s, a 30 cm stone cube is thrown at 5 m/s horizontally into one leg.
// Whether the arch holds or gives, it must do so soundly: no body through the ground, penetration
// at most 5 mm from the first second on, no energy gained, no non-finite state.
func archimpact() Scene {
	return Scene{
		Name:     "archimpact",
		Summary:  "the arch (as arch), with three 15 cm stone cubes dropped on its keystone at 1 s and a 30 cm one thrown into a leg at 5 m/s at 2 s",
		Defaults: Params{N: 15, Mu: 0.6},
		check:    checkArch,
		build:    buildArch,
		script:   []cue{{at: archDropAt, act: dropOnKeystone}, {at: archThrowAt, act: throwAtLeg}},
	}
}

// dropOnKeystone releases the three cubes over the middle of the arch as it stands now, their
// bottoms archDropClearance above its highest point, moving down at archDropSpeed.
func dropOnKeystone(w *ecs.World, p Params) error {
	arch, ok, err := dynamicBounds(w, math.Inf(-1), math.Inf(1))
	if err != nil {
		return err
	}
	if !ok {
		return errors.New("no arch to drop the cubes on")
	}
	rng := sceneRand(p.Seed, 0x6b6579)
	half := mgl64.Vec3{archDropHalf, archDropHalf, archDropHalf}
	mid := arch.Min.Add(arch.Max).Mul(0.5)
	z := arch.Max[2] + archDropClearance + archDropHalf
	for k := -1; k <= 1; k++ {
		pos := mgl64.Vec3{mid[0] + uniform(rng, archDropJitterX), mid[1] + float64(k)*archDropPitch, z}
		v := mgl64.Vec3{0, 0, -archDropSpeed}
		if _, err := spawnMovingBox(w, half, pos, mgl64.QuatIdent(), archDensity, v, p); err != nil {
			return err
		}
	}
	return nil
}

// throwAtLeg releases the heavy cube on the +x side of everything at its height, moving towards the
// arch (−x) at archThrowSpeed.
func throwAtLeg(w *ecs.World, p Params) error {
	band, ok, err := dynamicBounds(w, archThrowHeight-archThrowHalf, archThrowHeight+archThrowHalf)
	if err != nil {
		return err
	}
	if !ok {
		return errors.New("no leg to throw the cube at")
	}
	half := mgl64.Vec3{archThrowHalf, archThrowHalf, archThrowHalf}
	pos := mgl64.Vec3{band.Max[0] + archThrowClearance + archThrowHalf, 0, archThrowHeight}
	v := mgl64.Vec3{-archThrowSpeed, 0, 0}
	_, err = spawnMovingBox(w, half, pos, mgl64.QuatIdent(), archDensity, v, p)
	return err
}
