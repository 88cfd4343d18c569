package main

import (
	"github.com/g3n/engine/core"
	"github.com/g3n/engine/material"
	"github.com/g3n/engine/math32"
	"github.com/stagger-physics/stagger/ecs"
	"github.com/stagger-physics/stagger/plugin"
)

// targetColor is the colour of the piece a level of goalTarget asks the player to knock off: a
// saturated red that no palette colour of the plugin's automatic visuals comes close to.
var targetColor = math32.Color{R: 0.9, G: 0.08, B: 0.08}

// markTarget gives the level's target piece, if it has one, its own visual in targetColor under
// parent, so that the player sees which piece the goal names; the plugin's automatic visuals then
// leave it alone. It returns the node made, or nil without a target.
func markTarget(w *ecs.World, parent *core.Node, prog *progress) (*core.Node, error) {
	if prog == nil || prog.target < 0 {
		return nil, nil
	}
	pc := prog.pieces[prog.target]
	mat := material.NewStandard(&targetColor)
	mat.SetEmissiveColor(&math32.Color{R: 0.25, G: 0, B: 0})
	node, err := plugin.MeshFor(pc.shape, mat)
	if err != nil {
		return nil, err
	}
	parent.Add(node)
	if err := ecs.Add(w, pc.entity, plugin.Visual{Node: node}); err != nil {
		parent.Remove(node)
		return nil, err
	}
	return node, nil
}
