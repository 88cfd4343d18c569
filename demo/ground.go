package main

import (
	"github.com/g3n/engine/core"
	"github.com/g3n/engine/gls"
	"github.com/g3n/engine/graphic"
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
		half := c.Shape.(*collide.HalfSpace)
		node, err := plugin.MeshFor(half, material.NewBasic())
		if err != nil {
			return 0, err
		}
		shadeGround(node, litGroundColor(plugin.ToScene(half.Normal)))
		parent.Add(node)
		if err := ecs.Add(w, e, plugin.Visual{Node: node}); err != nil {
			parent.Remove(node)
			return 0, err
		}
	}
	return len(grounds), nil
}

// litGroundColor is groundColor as the stage's lights shade a plane of scene-frame normal n: the
// ambient light plus the sun's Lambert term, the same at every point of the plane, as g3n's
// standard shader computes them (less its specular highlight).
func litGroundColor(n math32.Vector3) math32.Color {
	sun := sunPosition
	sun.Normalize()
	n.Normalize()
	shade := ambientIntensity + sunIntensity*max(0, n.Dot(&sun))
	c := groundColor
	c.MultiplyScalar(shade)
	return c
}

// shadeGround gives every mesh under node the vertex colour c, which g3n's basic shader draws
// without lighting. A lit plane has one shade everywhere, so the ground looks as the standard
// shader draws it while its pixels, most of the window's, skip the per-pixel lighting, which
// under a software renderer was a fifth of the frame.
func shadeGround(node core.INode, c math32.Color) {
	if m, ok := node.(*graphic.Mesh); ok {
		g := m.GetGeometry()
		n := g.VBO(gls.VertexPosition).Buffer().Len() / 3
		colors := math32.NewArrayF32(0, 3*n)
		for i := 0; i < n; i++ {
			colors.Append(c.R, c.G, c.B)
		}
		g.AddVBO(gls.NewVBO(colors).AddAttrib(gls.VertexColor))
	}
	for _, child := range node.Children() {
		shadeGround(child, c)
	}
}
