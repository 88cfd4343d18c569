package scenes

import (
	"math"
	"math/rand/v2"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/stagger-physics/stagger/collide"
	"github.com/stagger-physics/stagger/ecs"
	"github.com/stagger-physics/stagger/physics"
)

// unitCubeDensity makes a 1 m cube weigh 1 kg.
const unitCubeDensity = 1

// spawnGround adds the static ground z ≤ 0 with friction mu.
func spawnGround(w *ecs.World, mu float64) error {
	return spawnPlane(w, mgl64.Vec3{0, 0, 1}, mu)
}

// spawnPlane adds a static half-space below the plane through the origin with unit normal n.
func spawnPlane(w *ecs.World, n mgl64.Vec3, mu float64) error {
	plane, err := collide.NewHalfSpace(n, 0)
	if err != nil {
		return err
	}
	ground := physics.NewStatic(mgl64.Vec3{})
	ground.Friction = mu
	_, err = physics.Spawn(w, ground, physics.Collider{Shape: plane})
	return err
}

// spawnBox adds a dynamic box of half extents half at position p, turned by q, with the given
// density and the scene's material.
func spawnBox(w *ecs.World, half mgl64.Vec3, p mgl64.Vec3, q mgl64.Quat, density float64, prm Params) (ecs.Entity, error) {
	return spawnMovingBox(w, half, p, q, density, mgl64.Vec3{}, prm)
}

// spawnMovingBox is spawnBox for a box that starts with velocity v.
func spawnMovingBox(w *ecs.World, half mgl64.Vec3, p mgl64.Vec3, q mgl64.Quat, density float64, v mgl64.Vec3, prm Params) (ecs.Entity, error) {
	box, err := collide.NewBox(half)
	if err != nil {
		return ecs.Entity{}, err
	}
	b := physics.NewDynamic(p, density)
	b.Orientation = q
	b.LinearVelocity = v
	b.Friction, b.Restitution = prm.Mu, prm.E
	return physics.Spawn(w, b, physics.Collider{Shape: box})
}

// dynamicBounds returns the box around the colliders of the world's dynamic bodies, at their
// present poses, that reach into the height band zlo ≤ z ≤ zhi (pass infinities for all of them);
// ok is false if there are none. Scripts use it to place what they drop or throw clear of what is
// there now.
func dynamicBounds(w *ecs.World, zlo, zhi float64) (box collide.AABB, ok bool, err error) {
	q, err := ecs.NewQuery2[physics.RigidBody, physics.Collider](w)
	if err != nil {
		return box, false, err
	}
	err = q.Each(func(_ ecs.Entity, b *physics.RigidBody, c *physics.Collider) {
		if b.Kind != physics.Dynamic || c.Shape == nil {
			return
		}
		bb := c.Shape.Bounds(collide.Pose{Position: b.Position, Rotation: b.Orientation})
		if bb.Max[2] < zlo || bb.Min[2] > zhi {
			return
		}
		if !ok {
			box, ok = bb, true
			return
		}
		box = box.Union(bb)
	})
	return box, ok, err
}

// spawnUnitCube adds a 1 m, 1 kg cube.
func spawnUnitCube(w *ecs.World, p mgl64.Vec3, q mgl64.Quat, prm Params) (ecs.Entity, error) {
	return spawnBox(w, mgl64.Vec3{0.5, 0.5, 0.5}, p, q, unitCubeDensity, prm)
}

// spawnStaticBox adds a static box (a wall) of half extents half at p.
func spawnStaticBox(w *ecs.World, half, p mgl64.Vec3, mu float64) error {
	box, err := collide.NewBox(half)
	if err != nil {
		return err
	}
	b := physics.NewStatic(p)
	b.Friction = mu
	_, err = physics.Spawn(w, b, physics.Collider{Shape: box})
	return err
}

// sceneRand returns the scene's random source for seed; salt keeps scenes' streams apart.
func sceneRand(seed, salt uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, salt)) }

// uniform returns a value drawn uniformly from [-r, r].
func uniform(rng *rand.Rand, r float64) float64 { return r * (2*rng.Float64() - 1) }

// turnZ returns the rotation by angle radians about z.
func turnZ(angle float64) mgl64.Quat { return mgl64.QuatRotate(angle, mgl64.Vec3{0, 0, 1}) }

// degrees converts degrees to radians.
func degrees(d float64) float64 { return d * math.Pi / 180 }

// spawnBin adds four static walls of the given thickness and height on the ground around a square
// of inside width inner centred on the origin, with friction mu.
func spawnBin(w *ecs.World, inner, thickness, height, mu float64) error {
	half := 0.5 * (inner + thickness)
	for _, wall := range []struct{ half, pos mgl64.Vec3 }{
		{mgl64.Vec3{thickness / 2, half + thickness/2, height / 2}, mgl64.Vec3{-half, 0, height / 2}},
		{mgl64.Vec3{thickness / 2, half + thickness/2, height / 2}, mgl64.Vec3{half, 0, height / 2}},
		{mgl64.Vec3{half - thickness/2, thickness / 2, height / 2}, mgl64.Vec3{0, -half, height / 2}},
		{mgl64.Vec3{half - thickness/2, thickness / 2, height / 2}, mgl64.Vec3{0, half, height / 2}},
	} {
		if err := spawnStaticBox(w, wall.half, wall.pos, mu); err != nil {
			return err
		}
	}
	return nil
}
