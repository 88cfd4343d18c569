package main

import (
	"github.com/g3n/engine/core"
	"github.com/g3n/engine/material"
	"github.com/g3n/engine/math32"
	"github.com/stagger-physics/stagger/collide"
	"github.com/stagger-physics/stagger/ecs"
	"github.com/stagger-physics/stagger/physics"
	"github.com/stagger-physics/stagger/plugin"
)

// groundColor is the colour of a level's ground: a muted grey-green that the structures' palette
// colours stand out against (the plugin's automatic visual would give it a palette colour too).
var groundColor = math32.Color{R: 0.36, G: 0.42, B: 0.36}

// paintGround gives every half-space collider in w its own visual in groundColor under parent,
// before the plugin makes the automatic ones, and returns how many it painted.
func paintGround(w *ecs.World, parent *core.Node) (int, error) {
	q, err := ecs.NewQuery1[physics.Collider](w)
	if err != nil {
		return 0, err
	}
	var grounds []ecs.Entity
	if err := q.Each(func(e ecs.Entity, c *physics.Collider) {
		if _, ok := c.Shape.(*collide.HalfSpace); ok {
			grounds = append(grounds, e)
		}
	}); err != nil {
		return 0, err
	}
	for _, e := range grounds {
		c, _ := ecs.Get[physics.Collider](w, e)
		node, err := plugin.MeshFor(c.Shape, material.NewStandard(&groundColor))
		if err != nil {
			return 0, err
		}
		parent.Add(node)
		if err := ecs.Add(w, e, plugin.Visual{Node: node}); err != nil {
			parent.Remove(node)
			return 0, err
		}
	}
	return len(grounds), nil
}
