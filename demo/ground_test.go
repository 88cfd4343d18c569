package main

import (
	"testing"

	"github.com/g3n/engine/core"
	"github.com/g3n/engine/graphic"
	"github.com/g3n/engine/material"
	"github.com/stagger-physics/stagger/collide"
	"github.com/stagger-physics/stagger/ecs"
	"github.com/stagger-physics/stagger/physics"
	"github.com/stagger-physics/stagger/plugin"
)

// TestPaintGroundColoursTheHalfSpaces: every level's ground (its half-spaces) gets a visual in the
// ground colour before the plugin's automatic visuals, and nothing else does.
func TestPaintGroundColoursTheHalfSpaces(t *testing.T) {
	for _, l := range levels {
		r := startLevel(t, l)
		if err := ecs.Register[plugin.Visual](r.app.World); err != nil {
			t.Fatal(err)
		}
		parent := core.NewNode()
		n, err := paintGround(r.app.World, parent)
		if err != nil || n == 0 || len(parent.Children()) != n {
			t.Fatalf("%s: painted %d grounds (%d nodes), %v", l.title, n, len(parent.Children()), err)
		}
		q, _ := ecs.NewQuery1[physics.Collider](r.app.World)
		_ = q.Each(func(e ecs.Entity, c *physics.Collider) {
			v, ok := ecs.Get[plugin.Visual](r.app.World, e)
			_, ground := c.Shape.(*collide.HalfSpace)
			if ok != ground {
				t.Errorf("%s: entity %v (a %v) has a visual: %v", l.title, e, c.Shape.Kind(), ok)
				return
			}
			if !ground {
				return
			}
			mesh, _ := v.Node.GetNode().Children()[0].(*graphic.Mesh)
			if std, ok := mesh.GetMaterial(0).(*material.Standard); !ok || std.AmbientColor() != groundColor {
				t.Errorf("%s: the ground's material is not the ground colour", l.title)
			}
		})
	}
}
