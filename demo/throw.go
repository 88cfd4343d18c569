package main

import (
	"fmt"
	"math"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/stagger-physics/stagger/collide"
	"github.com/stagger-physics/stagger/ecs"
	"github.com/stagger-physics/stagger/physics"
)

// projectile is a kind of thing the player throws: a shape and its material.
type projectile struct {
	name     string
	shape    collide.Shape
	density  float64 // kg/m³
	friction float64
}

// projectiles are the throwable kinds, chosen with the keys 1, 2 and 3.
var projectiles = []projectile{
	{name: "ball", shape: mustShape(collide.NewSphere(0.12)), density: 1200, friction: 0.5},
	{name: "brick", shape: mustShape(collide.NewBox(mgl64.Vec3{0.11, 0.055, 0.035})), density: 1900, friction: 0.7},
	{name: "heavy ball", shape: mustShape(collide.NewSphere(0.2)), density: 7800, friction: 0.4},
}

// mustShape returns s, panicking on err: for the fixed, valid shapes of the projectiles table.
func mustShape[S collide.Shape](s S, err error) collide.Shape {
	if err != nil {
		panic(err)
	}
	return s
}

// Launch speeds, m/s: a click throws at minThrowSpeed, a throw held for fullCharge seconds at
// maxThrowSpeed, linearly in between.
const (
	minThrowSpeed = 9
	maxThrowSpeed = 24
	fullCharge    = 1.0
)

// throwSpeed returns the launch speed for a mouse button held for held seconds.
func throwSpeed(held float64) float64 {
	c := math.Min(math.Max(held/fullCharge, 0), 1)
	return minThrowSpeed + c*(maxThrowSpeed-minThrowSpeed)
}

// maxAimDistance, m, is how far along the cursor's ray the aim point lies when the ray hits
// nothing.
const maxAimDistance = 30

// aimPoint returns where a throw along the ray (origin, unit dir) aims: the first collider or
// deformable body's surface the ray hits (the simulation's ray cast sees both), or the point
// maxAimDistance along it.
func aimPoint(sim *physics.Simulation, origin, dir mgl64.Vec3) (mgl64.Vec3, error) {
	hit, ok, err := sim.CastRay(origin, dir, maxAimDistance, physics.QueryFilter{})
	if err != nil {
		return mgl64.Vec3{}, err
	}
	if ok {
		return hit.Point, nil
	}
	return origin.Add(dir.Mul(maxAimDistance)), nil
}

// launchVelocity returns the velocity that carries a body from origin to target under gravity g
// (non-zero) at speed, on the lower of the two ballistic arcs. When speed cannot reach the target,
// it is raised to 5 % above the least speed that can, so that every throw lands where it was aimed.
func launchVelocity(origin, target, g mgl64.Vec3, speed float64) mgl64.Vec3 {
	gl := g.Len()
	up := g.Mul(-1 / gl)
	d := target.Sub(origin)
	y := d.Dot(up)                           // height of the target above the origin
	horiz := d.Sub(up.Mul(y))                // the horizontal part
	x := horiz.Len()                         // horizontal distance
	minSpeed2 := gl * (y + math.Hypot(x, y)) // least speed², reached at the arc's optimal angle
	s2 := math.Max(speed*speed, 1.1025*minSpeed2)
	if x < 1e-9 {
		// Straight up or down: throw along the line.
		return d.Normalize().Mul(math.Sqrt(s2))
	}
	// tan θ of the lower arc: (s² − √(s⁴ − g(g x² + 2 y s²))) / (g x).
	disc := math.Max(s2*s2-gl*(gl*x*x+2*y*s2), 0)
	theta := math.Atan2(s2-math.Sqrt(disc), gl*x)
	s := math.Sqrt(s2)
	return horiz.Mul(s * math.Cos(theta) / x).Add(up.Mul(s * math.Sin(theta)))
}

// throwProjectile spawns p at origin (physics frame) with the given velocity, spinning a little so
// that a brick tumbles, and returns its entity.
func throwProjectile(w *ecs.World, p projectile, origin, velocity mgl64.Vec3) (ecs.Entity, error) {
	body := physics.NewDynamic(origin, p.density)
	body.Friction = p.friction
	body.LinearVelocity = velocity
	body.AngularVelocity = mgl64.Vec3{0, 0, 1}.Cross(velocity).Mul(0.2)
	e, err := physics.Spawn(w, body, physics.Collider{Shape: p.shape})
	if err != nil {
		return e, fmt.Errorf("throwing a %s: %w", p.name, err)
	}
	return e, nil
}

// throwAlong throws p from origin at speed towards what the ray (origin, unit dir) aims at
// (aimPoint), along the ballistic arc launchVelocity gives.
func throwAlong(w *ecs.World, sim *physics.Simulation, p projectile, origin, dir mgl64.Vec3, speed float64) (ecs.Entity, error) {
	v, err := throwVelocity(sim, origin, dir, speed)
	if err != nil {
		return ecs.Entity{}, err
	}
	return throwProjectile(w, p, origin, v)
}

// throwVelocity returns the launch velocity of a throw from origin at speed towards what the ray
// (origin, unit dir) aims at (aimPoint).
func throwVelocity(sim *physics.Simulation, origin, dir mgl64.Vec3, speed float64) (mgl64.Vec3, error) {
	target, err := aimPoint(sim, origin, dir)
	if err != nil {
		return mgl64.Vec3{}, err
	}
	return launchVelocity(origin, target, sim.Config().Gravity, speed), nil
}

// weight is what a level of goalStand drops on its structure: a 0.4 m block of stone, 160 kg.
var weight = projectile{name: "weight", shape: mustShape(collide.NewBox(mgl64.Vec3{0.2, 0.2, 0.2})), density: 2500, friction: 0.8}

// weightClearance, m, is the gap between a dropped weight's underside and the highest body when it
// is let go: a short fall, so where it lands is where it was aimed.
const weightClearance = 0.3

// dropWeight lets a weight go at rest above what the ray (origin, unit dir) aims at, clear of
// every dynamic body, and returns it.
func dropWeight(w *ecs.World, sim *physics.Simulation, origin, dir mgl64.Vec3) (ecs.Entity, error) {
	at, err := weightPosition(w, sim, origin, dir)
	if err != nil {
		return ecs.Entity{}, err
	}
	return throwProjectile(w, weight, at, mgl64.Vec3{})
}

// weightPosition returns where dropWeight lets the weight go in w.
func weightPosition(w *ecs.World, sim *physics.Simulation, origin, dir mgl64.Vec3) (mgl64.Vec3, error) {
	target, err := aimPoint(sim, origin, dir)
	if err != nil {
		return mgl64.Vec3{}, err
	}
	q, err := ecs.NewQuery2[physics.RigidBody, physics.Collider](w)
	if err != nil {
		return mgl64.Vec3{}, err
	}
	top := 0.0 // the ground's
	_ = q.Each(func(_ ecs.Entity, b *physics.RigidBody, c *physics.Collider) {
		if b.Kind == physics.Dynamic && c.Shape != nil {
			top = math.Max(top, c.Shape.Bounds(collide.Pose{Position: b.Position, Rotation: b.Orientation}).Max[2])
		}
	})
	bb := weight.shape.Bounds(collide.Pose{Rotation: mgl64.QuatIdent()})
	return mgl64.Vec3{target[0], target[1], top + weightClearance - bb.Min[2]}, nil
}
