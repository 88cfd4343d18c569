package scenes

import (
	"math"
	"math/rand/v2"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/stagger-physics/stagger/collide"
	"github.com/stagger-physics/stagger/deform"
	"github.com/stagger-physics/stagger/ecs"
	"github.com/stagger-physics/stagger/physics"
)

// The jelly scene's blocks and what they land on. Every box gets a block; every other one (the
// static pedestals) a second block dropped onto the first, and the boxes stand far enough apart
// that a block sliding off meets only the ground.
const (
	jellyHalf    = 0.2  // half-extent of a block, m
	jellyCells   = 3    // cells along a block's side
	jellyModes   = 10   // vibration modes per block
	jellyDrop    = 0.3  // height of a block's lowest point above its box at release, m
	jellyGap     = 0.2  // height of a second block's lowest point above the first's highest, m
	jellySpacing = 2.0  // distance between neighbouring boxes, m
	jellyBoxHalf = 0.35 // half-extent of a box's sides, m
)

// jellyMaterial is a soft rubber: a block sags by millimetres at rest and wobbles visibly on
// landing.
var jellyMaterial = deform.Material{Young: 1e5, Poisson: 0.3, Density: 500}

// jelly drops n soft deformable blocks, turned at random, onto boxes: every other box is static
// (a pedestal of random height) and gets a second block dropped onto its first, the others are
// dynamic rigid boxes resting on the ground.
func jelly() Scene {
	return Scene{
		Name:     "jelly",
		Summary:  "n soft deformable blocks (0.4 m, rubber) dropped 0.3 m, turned at random, onto their own static pedestals or dynamic boxes on the ground; a second block stacks on each pedestal's",
		Defaults: Params{N: 10, Mu: 0.6},
		build:    buildJelly,
	}
}

func buildJelly(w *ecs.World, p Params) error {
	if err := spawnGround(w, p.Mu); err != nil {
		return err
	}
	rng := sceneRand(p.Seed, 0x6a656c6c79)
	cols := int(math.Ceil(math.Sqrt(float64(p.N))))
	for i := 0; i < p.N; i++ {
		x := (float64(i%cols) - float64(cols-1)/2) * jellySpacing
		y := (float64(i/cols) - float64((p.N-1)/cols)/2) * jellySpacing
		top, err := spawnJellyBox(w, i, mgl64.Vec3{x, y, 0}, uniform(rng, 1), p)
		if err != nil {
			return err
		}
		high, err := spawnJellyBlock(w, rng, x, y, top+jellyDrop, p)
		if err != nil {
			return err
		}
		if i%2 == 0 {
			if _, err := spawnJellyBlock(w, rng, x, y, high+jellyGap, p); err != nil {
				return err
			}
		}
	}
	return nil
}

// spawnJellyBlock adds a block turned at random (±30° about z, ±15° about x) with its lowest
// point at height low, its centre within 5 cm of (x, y), and returns the height of its highest
// point.
func spawnJellyBlock(w *ecs.World, rng *rand.Rand, x, y, low float64, p Params) (float64, error) {
	d, err := physics.NewDeformableBox(mgl64.Vec3{jellyHalf, jellyHalf, jellyHalf}, jellyCells, jellyMaterial, jellyModes)
	if err != nil {
		return 0, err
	}
	q := turnZ(degrees(uniform(rng, 30))).Mul(mgl64.QuatRotate(degrees(uniform(rng, 15)), mgl64.Vec3{1, 0, 0}))
	d.Orientation = q
	// The lowest corner of the turned cube is this far below its centre, and by symmetry the
	// highest as far above.
	below := 0.0
	for _, c := range [...]mgl64.Vec3{{1, 1, 1}, {1, 1, -1}, {1, -1, 1}, {1, -1, -1}, {-1, 1, 1}, {-1, 1, -1}, {-1, -1, 1}, {-1, -1, -1}} {
		below = math.Max(below, -q.Rotate(c.Mul(jellyHalf))[2])
	}
	d.Position = mgl64.Vec3{x + uniform(rng, 0.05), y + uniform(rng, 0.05), low + below}
	d.Alpha, d.Beta = 0.5, 0.002
	d.Friction = p.Mu
	if _, err := physics.SpawnDeformable(w, d); err != nil {
		return 0, err
	}
	return low + 2*below, nil
}

// spawnJellyBox adds block i's box centred above base: a static pedestal 0.3–0.7 m tall for even
// i, a dynamic 0.4 m rigid box (as dense as the blocks) on the ground for odd i; u in [−1, 1]
// varies the pedestal's height. It returns the height of the box's top.
func spawnJellyBox(w *ecs.World, i int, base mgl64.Vec3, u float64, p Params) (float64, error) {
	if i%2 == 1 {
		half := mgl64.Vec3{jellyBoxHalf, jellyBoxHalf, 0.2}
		_, err := spawnBox(w, half, base.Add(mgl64.Vec3{0, 0, half[2]}), mgl64.QuatIdent(), jellyMaterial.Density, p)
		return 2 * half[2], err
	}
	half := mgl64.Vec3{jellyBoxHalf, jellyBoxHalf, 0.25 + 0.1*u}
	box, err := collide.NewBox(half)
	if err != nil {
		return 0, err
	}
	b := physics.NewStatic(base.Add(mgl64.Vec3{0, 0, half[2]}))
	b.Friction, b.Restitution = p.Mu, p.E
	_, err = physics.Spawn(w, b, physics.Collider{Shape: box})
	return 2 * half[2], err
}
