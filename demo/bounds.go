package main

import (
	"github.com/go-gl/mathgl/mgl64"
	"github.com/stagger-physics/stagger/collide"
	"github.com/stagger-physics/stagger/ecs"
	"github.com/stagger-physics/stagger/physics"
)

// bodyBounds returns the box around body e of w at its present pose: a rigid body's collider's
// bounds, or the box around a deformable body's deformed surface; ok is false for an entity that
// is neither (or has left the world). verts is scratch space for the surface, kept between calls
// so that following the action every frame does not allocate.
func bodyBounds(w *ecs.World, e ecs.Entity, verts *[]mgl64.Vec3) (collide.AABB, bool) {
	if b, ok := ecs.Get[physics.RigidBody](w, e); ok {
		c, ok := ecs.Get[physics.Collider](w, e)
		if !ok || c.Shape == nil {
			return collide.AABB{}, false
		}
		return c.Shape.Bounds(collide.Pose{Position: b.Position, Rotation: b.Orientation}), true
	}
	d, ok := ecs.Get[physics.ReducedDeformable](w, e)
	if !ok {
		return collide.AABB{}, false
	}
	*verts = d.SurfaceVertices(*verts)
	if len(*verts) == 0 {
		return collide.AABB{}, false
	}
	return collide.AABBFromPoints(*verts...), true
}
