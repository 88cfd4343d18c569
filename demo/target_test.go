package main

import (
	"testing"

	"github.com/g3n/engine/core"
	"github.com/g3n/engine/graphic"
	"github.com/g3n/engine/material"
	"github.com/stagger-physics/stagger/ecs"
	"github.com/stagger-physics/stagger/plugin"
)

// TestMarkTargetColoursOnlyTheTarget: in the target level the target piece gets a visual of the
// target colour before the plugin makes the others; a level without a target gets none.
func TestMarkTargetColoursOnlyTheTarget(t *testing.T) {
	r := startLevel(t, levels[levelIndex(t, "Pyramid's top")])
	// The window's plugin registers Visual; the headless level has no plugin.
	if err := ecs.Register[plugin.Visual](r.app.World); err != nil {
		t.Fatal(err)
	}
	parent := core.NewNode()
	node, err := markTarget(r.app.World, parent, r.prog)
	if err != nil || node == nil {
		t.Fatalf("markTarget: %v, %v", node, err)
	}
	for i, pc := range r.prog.pieces {
		v, ok := ecs.Get[plugin.Visual](r.app.World, pc.entity)
		if i != r.prog.target {
			if ok {
				t.Errorf("piece %d, not the target, has a visual", i)
			}
			continue
		}
		if !ok || v.Node != node || len(parent.Children()) != 1 {
			t.Fatalf("the target has no visual under the parent")
		}
		mesh, ok := node.Children()[0].(*graphic.Mesh)
		if !ok {
			t.Fatalf("the target's node holds %T, want a mesh", node.Children()[0])
		}
		std, ok := mesh.GetMaterial(0).(*material.Standard)
		if !ok || std.AmbientColor() != targetColor {
			t.Errorf("the target's material is %T, want a Standard of the target colour", mesh.GetMaterial(0))
		}
	}
	other := startLevel(t, levels[levelIndex(t, "Card house")])
	if node, err := markTarget(other.app.World, core.NewNode(), other.prog); node != nil || err != nil {
		t.Errorf("a level without a target: %v, %v", node, err)
	}
}
