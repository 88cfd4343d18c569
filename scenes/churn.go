package scenes

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/stagger-physics/stagger/collide"
	"github.com/stagger-physics/stagger/ecs"
	"github.com/stagger-physics/stagger/physics"
)

// The churn scene: a game that keeps spawning crates and removing old ones.
const (
	churnPerStep = 5    // crates spawned each period
	churnPeriod  = 0.01 // s between spawns: a step at the default h
	churnHalf    = 0.1  // half side of a crate, m
	churnDensity = 500  // kg/m³: 4 kg
	churnArea    = 2.0  // crates appear over |x|, |y| ≤ churnArea, m (a 4 m × 4 m floor)
	churnLow     = 0.3  // lowest spawn height of a crate's centre, m
	churnHigh    = 2.5  // highest, m
	churnTries   = 8    // places tried for a crate before it is left out of this spawn
)

// churnCrates is the world resource that lists the churn scene's live crates in the order they
// were spawned, each with the index of its spawn, so that the oldest can be removed.
type churnCrates struct {
	entities []ecs.Entity
	born     []int
}

// churn is a game that spawns five 0.2 m crates every 0.01 s at random places above a 4 m × 4 m
// patch of ground, turned at random, and removes each crate n/5 spawns (n/500 s) after its own: up
// to n crates alive at once, falling, landing, piling and vanishing. As a game would, it spawns a
// crate only where it overlaps nothing (a world query), trying a few places. docs/scenes.md, churn.
func churn() Scene {
	return Scene{
		Name:     "churn",
		Summary:  "five 0.2 m crates spawned every 0.01 s over a 4 m × 4 m floor, each removed n/500 s later: up to n alive",
		Defaults: Params{N: 750, Mu: 0.6},
		check: func(p Params) error {
			if p.N < churnPerStep {
				return fmt.Errorf("n is the most crates alive and must be ≥ %d, got %d", churnPerStep, p.N)
			}
			return nil
		},
		build: func(w *ecs.World, p Params) error {
			ecs.SetResource(w, churnCrates{})
			return spawnGround(w, p.Mu)
		},
		every: &repeat{period: churnPeriod, act: churnStep},
	}
}

// churnStep is the churn scene's i-th action: remove the crates spawned n/5 actions ago or earlier,
// then spawn five.
func churnStep(w *ecs.World, p Params, i int) error {
	live, ok := ecs.GetResource[churnCrates](w)
	if !ok {
		return fmt.Errorf("no crate list in the world")
	}
	lifetime := p.N / churnPerStep
	gone := 0
	for gone < len(live.born) && live.born[gone] <= i-lifetime {
		if err := w.Despawn(live.entities[gone]); err != nil {
			return err
		}
		gone++
	}
	live.entities = append(live.entities[:0], live.entities[gone:]...)
	live.born = append(live.born[:0], live.born[gone:]...)
	sim, ok := physics.SimulationOf(w)
	if !ok {
		return fmt.Errorf("no physics simulation in the world")
	}
	// The queries below must not see the crates just removed.
	if err := sim.RefreshQueries(); err != nil {
		return err
	}
	rng := sceneRand(p.Seed, 0x636875726e^uint64(i)<<20)
	half := mgl64.Vec3{churnHalf, churnHalf, churnHalf}
	box, err := collide.NewBox(half)
	if err != nil {
		return err
	}
	for j := 0; j < churnPerStep; j++ {
		pose, free, err := churnPlace(sim, box, rng)
		if err != nil {
			return err
		}
		if !free {
			continue
		}
		e, err := spawnBox(w, half, pose.Position, pose.Rotation, churnDensity, p)
		if err != nil {
			return err
		}
		live.entities = append(live.entities, e)
		live.born = append(live.born, i)
		// The next crate's query must see this one.
		if err := sim.RefreshQueries(); err != nil {
			return err
		}
	}
	return nil
}

// churnPlace draws up to churnTries random poses for a crate and returns the first that overlaps
// no body, or free = false.
func churnPlace(sim *physics.Simulation, box collide.Shape, rng *rand.Rand) (pose collide.Pose, free bool, err error) {
	for try := 0; try < churnTries; try++ {
		pos := mgl64.Vec3{uniform(rng, churnArea), uniform(rng, churnArea), churnLow + (churnHigh-churnLow)*rng.Float64()}
		axis := mgl64.Vec3{rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()}
		if axis.Len() < 1e-9 {
			axis = mgl64.Vec3{0, 0, 1}
		}
		pose = collide.Pose{Position: pos, Rotation: mgl64.QuatRotate(math.Pi*rng.Float64(), axis.Normalize())}
		free = true
		err = sim.Overlap(box, pose, physics.QueryFilter{}, func(ecs.Entity) bool { free = false; return false })
		if err != nil || free {
			return pose, free, err
		}
	}
	return pose, false, nil
}
