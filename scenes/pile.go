package scenes

import (
	"math"
	"math/rand/v2"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/stagger-physics/stagger/collide"
	"github.com/stagger-physics/stagger/ecs"
	"github.com/stagger-physics/stagger/physics"
)

// Sizes of the pile scene, m.
const (
	pileBin     = 4.0  // inside width of the bin
	pileWall    = 0.2  // wall thickness
	pileHeight  = 1.0  // wall height
	pilePitch   = 0.45 // spacing of the release grid
	pileMinSize = 0.1  // smallest half-size of a body
	pileMaxSize = 0.2  // largest half-size of a body
	pileDensity = 600  // kg/m³, about wood
	pileRelease = 0.5  // height of the release grid's lowest layer above the floor
)

// pile drops n bodies of four kinds — boxes, spheres, capsules and 12-point convex hulls, 0.1 to
// 0.2 m across their half-sizes, randomly oriented — from a jittered grid into a 4 m bin. It is
// the moving scene a game makes when it spills a crate: bodies tumble, stack and slide at once.
// It behaves when the bodies settle without penetrating more than 5 mm after the first second.
func pile() Scene {
	return Scene{
		Name:     "pile",
		Summary:  "n mixed bodies (boxes, spheres, capsules, 12-point hulls; 0.1–0.2 m) dropped into a 4 m bin",
		Defaults: Params{N: 100, Mu: 0.6},
		build:    buildPile,
	}
}

func buildPile(w *ecs.World, p Params) error {
	if err := spawnGround(w, p.Mu); err != nil {
		return err
	}
	if err := spawnBin(w, pileBin, pileWall, pileHeight, p.Mu); err != nil {
		return err
	}
	rng := sceneRand(p.Seed, 0x70696c65)
	k := int(math.Floor((pileBin - 2*pileMaxSize) / pilePitch)) // bodies per row of the grid
	for i := 0; i < p.N; i++ {
		layer, cell := i/(k*k), i%(k*k)
		x := (float64(cell%k) - float64(k-1)/2) * pilePitch
		y := (float64(cell/k) - float64(k-1)/2) * pilePitch
		pos := mgl64.Vec3{x + uniform(rng, 0.03), y + uniform(rng, 0.03), pileRelease + pilePitch*float64(layer)}
		shape, err := pileShape(i%4, rng)
		if err != nil {
			return err
		}
		b := physics.NewDynamic(pos, pileDensity)
		b.Orientation = randomOrientation(rng)
		b.Friction, b.Restitution = p.Mu, p.E
		if _, err := physics.Spawn(w, b, physics.Collider{Shape: shape}); err != nil {
			return err
		}
	}
	return nil
}

// pileShape returns a shape of kind 0 box, 1 sphere, 2 capsule, 3 hull, with random sizes.
func pileShape(kind int, rng *rand.Rand) (collide.Shape, error) {
	size := func() float64 { return pileMinSize + (pileMaxSize-pileMinSize)*rng.Float64() }
	switch kind {
	case 0:
		return collide.NewBox(mgl64.Vec3{size(), size(), size()})
	case 1:
		return collide.NewSphere(size())
	case 2:
		r := 0.5 * size()
		return collide.NewCapsule(r, size()-r)
	}
	// Twelve points on an ellipsoid of random radii.
	radii := mgl64.Vec3{size(), size(), size()}
	points := make([]mgl64.Vec3, 12)
	for j := range points {
		d := mgl64.Vec3{rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()}
		if d.Len() < 1e-3 {
			d = mgl64.Vec3{1, 0, 0}
		}
		d = d.Normalize()
		points[j] = mgl64.Vec3{d[0] * radii[0], d[1] * radii[1], d[2] * radii[2]}
	}
	hull, _, err := collide.NewConvexHullCentered(points)
	return hull, err
}
