package scenes

import (
	"math"
	"math/rand/v2"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/stagger-physics/stagger/collide"
	"github.com/stagger-physics/stagger/ecs"
	"github.com/stagger-physics/stagger/physics"
)

// tumble throws n boxes, spheres and capsules up from a ring, each spinning about a random axis, so
// that they tumble through the air: gravity, the gyroscopic term and a few glancing collisions. Boxes of three
// different sides spun near their intermediate axis flip over (the Dzhanibekov effect).
func tumble() Scene {
	return Scene{
		Name:     "tumble",
		Summary:  "n bodies (boxes, spheres, capsules) thrown up spinning; free flight, with a few collisions near the top",
		Defaults: Params{N: 12, Mu: 0.8},
		build:    buildTumble,
	}
}

func buildTumble(w *ecs.World, p Params) error {
	rng := rand.New(rand.NewPCG(p.Seed, 0x7475626d626c65))
	radius := 1.5 + 0.25*float64(p.N)
	for i := 0; i < p.N; i++ {
		shape, err := tumbleShape(i)
		if err != nil {
			return err
		}
		angle := 2 * math.Pi * float64(i) / float64(p.N)
		pos := mgl64.Vec3{radius * math.Cos(angle), radius * math.Sin(angle), 1 + 0.5*rng.Float64()}
		body := physics.NewDynamic(pos, 600)
		body.Friction, body.Restitution = p.Mu, p.E
		body.Orientation = randomOrientation(rng)
		body.LinearVelocity = mgl64.Vec3{-0.3 * pos[0], -0.3 * pos[1], 7 + 2*rng.Float64()}
		// Spin mostly about the body's own y axis (the intermediate axis of the boxes) with a small
		// perturbation, so the boxes flip in flight.
		spin := mgl64.Vec3{0.05 * rng.NormFloat64(), 6 + 2*rng.Float64(), 0.05 * rng.NormFloat64()}
		body.AngularVelocity = body.Orientation.Rotate(spin)
		if _, err := physics.Spawn(w, body, physics.Collider{Shape: shape}); err != nil {
			return err
		}
	}
	return nil
}

// tumbleShape returns the i-th body's shape: boxes with three different sides, spheres, capsules.
func tumbleShape(i int) (collide.Shape, error) {
	switch i % 3 {
	case 0:
		return collide.NewBox(mgl64.Vec3{0.5, 0.3, 0.1})
	case 1:
		return collide.NewSphere(0.3)
	default:
		return collide.NewCapsule(0.15, 0.35)
	}
}

// randomOrientation returns a uniformly random rotation (Shoemake's method).
func randomOrientation(rng *rand.Rand) mgl64.Quat {
	u1, u2, u3 := rng.Float64(), 2*math.Pi*rng.Float64(), 2*math.Pi*rng.Float64()
	a, b := math.Sqrt(1-u1), math.Sqrt(u1)
	return mgl64.Quat{W: a * math.Sin(u2), V: mgl64.Vec3{a * math.Cos(u2), b * math.Sin(u3), b * math.Cos(u3)}}.Normalize()
}
