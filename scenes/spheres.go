package scenes

import (
	"math"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/stagger-physics/stagger/collide"
	"github.com/stagger-physics/stagger/ecs"
	"github.com/stagger-physics/stagger/physics"
)

// Sizes of the spheres scene, m.
const (
	sphereRadius  = 0.25
	spherePitch   = 0.55 // spacing of the release grid
	sphereLayers  = 8    // the release grid's layers hold about n/sphereLayers spheres each
	wallThickness = 0.2
)

// spheres pours n spheres (0.5 m across, 1 kg) into a walled box: released from a jittered grid,
// they fall and settle into a pile with many contacts per island. It behaves when the pile
// settles without penetration over 1 cm and without energy rise.
func spheres() Scene {
	return Scene{
		Name:     "spheres",
		Summary:  "n spheres (0.5 m, 1 kg) poured into a walled box; settles into a pile",
		Defaults: Params{N: 1000, Mu: 0.8},
		build:    buildSpheres,
	}
}

func buildSpheres(w *ecs.World, p Params) error {
	if err := spawnGround(w, p.Mu); err != nil {
		return err
	}
	k := int(math.Ceil(math.Sqrt(float64(p.N) / sphereLayers))) // spheres per row of the grid
	inner := float64(k) * spherePitch                           // inside width of the box
	layers := (p.N + k*k - 1) / (k * k)
	height := 0.5 + spherePitch*float64(layers+1)
	if err := spawnBin(w, inner, wallThickness, height, p.Mu); err != nil {
		return err
	}
	ball, err := collide.NewSphere(sphereRadius)
	if err != nil {
		return err
	}
	density := 1 / (4.0 / 3 * math.Pi * sphereRadius * sphereRadius * sphereRadius) // 1 kg
	rng := sceneRand(p.Seed, 0x737068657265)
	for i := 0; i < p.N; i++ {
		layer, cell := i/(k*k), i%(k*k)
		x := (float64(cell%k) - float64(k-1)/2) * spherePitch
		y := (float64(cell/k) - float64(k-1)/2) * spherePitch
		pos := mgl64.Vec3{x + uniform(rng, 0.03), y + uniform(rng, 0.03), 0.5 + spherePitch*float64(layer)}
		b := physics.NewDynamic(pos, density)
		b.Friction, b.Restitution = p.Mu, p.E
		if _, err := physics.Spawn(w, b, physics.Collider{Shape: ball}); err != nil {
			return err
		}
	}
	return nil
}
