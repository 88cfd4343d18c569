package main

import (
	"fmt"
	"math"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/stagger-physics/stagger/collide"
	"github.com/stagger-physics/stagger/ecs"
	"github.com/stagger-physics/stagger/physics"
)

// block is one deformable body of a level of goalKnockOff, with the rigid body it stands on at
// the start: its pedestal.
type block struct {
	entity   ecs.Entity
	pedestal ecs.Entity
	shape    collide.Shape // the pedestal's
	start    mgl64.Vec3    // the block's frame position at the start
}

// blockOff reports whether a block whose frame position (its centre of mass) is at centre is off
// the pedestal whose bounding box is now top: a block on its pedestal has its centre above the
// pedestal's top and within its top face's footprint, so it is off when its centre is lower than
// the pedestal's top or outside that footprint in x or y. A block that slid to the ground beside
// its pedestal, or lies on another fallen block, is off; one that only slid across the top is not.
func blockOff(centre mgl64.Vec3, top collide.AABB) bool {
	return centre[2] < top.Max[2] ||
		centre[0] < top.Min[0] || centre[0] > top.Max[0] ||
		centre[1] < top.Min[1] || centre[1] > top.Max[1]
}

// findBlocks returns every ReducedDeformable in w with its pedestal: of the bounded rigid bodies
// whose bounds hold the block's position in x and y and whose top is below it, the one with the
// highest top (the first of equals, in the query's order). A block over no rigid body is an error
// naming its position.
func findBlocks(w *ecs.World) ([]block, error) {
	dq, err := ecs.NewQuery1[physics.ReducedDeformable](w)
	if err != nil {
		return nil, err
	}
	rq, err := ecs.NewQuery2[physics.RigidBody, physics.Collider](w)
	if err != nil {
		return nil, err
	}
	var blocks []block
	err = dq.Each(func(e ecs.Entity, d *physics.ReducedDeformable) {
		blocks = append(blocks, block{entity: e, start: d.Position})
	})
	if err != nil {
		return nil, err
	}
	for i := range blocks {
		b := &blocks[i]
		best := math.Inf(-1)
		err := rq.Each(func(e ecs.Entity, rb *physics.RigidBody, c *physics.Collider) {
			if c.Shape == nil || math.IsInf(c.Shape.Volume(), 0) {
				return
			}
			bb := c.Shape.Bounds(collide.Pose{Position: rb.Position, Rotation: rb.Orientation})
			p := b.start
			if p[0] < bb.Min[0] || p[0] > bb.Max[0] || p[1] < bb.Min[1] || p[1] > bb.Max[1] || bb.Max[2] > p[2] {
				return
			}
			if bb.Max[2] > best {
				best, b.pedestal, b.shape = bb.Max[2], e, c.Shape
			}
		})
		if err != nil {
			return nil, err
		}
		if b.shape == nil {
			return nil, fmt.Errorf("the deformable block at %.2f m stands on no rigid body", []float64{b.start[0], b.start[1], b.start[2]})
		}
	}
	return blocks, nil
}

// blockIsOff reports whether b is off its pedestal in w now (blockOff); a block or a pedestal
// that has left the world counts as off.
func blockIsOff(w *ecs.World, b block) bool {
	d, ok := ecs.Get[physics.ReducedDeformable](w, b.entity)
	if !ok {
		return true
	}
	rb, ok := ecs.Get[physics.RigidBody](w, b.pedestal)
	if !ok {
		return true
	}
	return blockOff(d.Position, b.shape.Bounds(collide.Pose{Position: rb.Position, Rotation: rb.Orientation}))
}
