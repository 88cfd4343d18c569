package scenes

import (
	"math"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/stagger-physics/stagger/ecs"
	"github.com/stagger-physics/stagger/physics"
)

// Parameters of the thrown box of the topple scene.
const (
	toppleSpeed  = 8.0  // horizontal speed at impact, m/s
	toppleMass   = 2.0  // kg
	toppleHalf   = 0.25 // half side of the thrown cube, m
	toppleLaunch = 0.3  // height of the thrown cube's centre at launch, m
)

// topple builds a tower of n unit cubes and throws a 2 kg cube at its middle: launched from near
// the ground on a ballistic arc whose apex is the middle of the tower's side, it arrives moving
// horizontally at 8 m/s (for n = 10, about 1 s after the start). The tower falls and the pieces
// come to rest.
func topple() Scene {
	return Scene{
		Name:     "topple",
		Summary:  "a tower of n unit cubes hit at its middle by a 2 kg cube arriving at 8 m/s; falls and comes to rest",
		Defaults: Params{N: 10, Mu: 0.8},
		build:    buildTopple,
	}
}

func buildTopple(w *ecs.World, p Params) error {
	if err := spawnGround(w, p.Mu); err != nil {
		return err
	}
	for i := 0; i < p.N; i++ {
		if _, err := spawnUnitCube(w, mgl64.Vec3{0, 0, 0.5 + float64(i)}, mgl64.QuatIdent(), p); err != nil {
			return err
		}
	}
	hit := 0.5 * float64(p.N) // height of the tower's middle
	rise := math.Max(hit-toppleLaunch, 0)
	t := math.Sqrt(2 * rise / physics.StandardGravity) // time to the apex
	start := mgl64.Vec3{-0.5 - toppleHalf - toppleSpeed*t - 0.05, 0, hit - rise}
	density := toppleMass / (8 * toppleHalf * toppleHalf * toppleHalf)
	e, err := spawnBox(w, mgl64.Vec3{toppleHalf, toppleHalf, toppleHalf}, start, mgl64.QuatIdent(), density, p)
	if err != nil {
		return err
	}
	b, _ := ecs.Get[physics.RigidBody](w, e)
	b.LinearVelocity = mgl64.Vec3{toppleSpeed, 0, physics.StandardGravity * t}
	return nil
}
