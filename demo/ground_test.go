package main

import (
	"math"
	"testing"

	"github.com/g3n/engine/core"
	"github.com/g3n/engine/gls"
	"github.com/g3n/engine/graphic"
	"github.com/g3n/engine/material"
	"github.com/stagger-physics/stagger/collide"
	"github.com/stagger-physics/stagger/ecs"
	"github.com/stagger-physics/stagger/physics"
	"github.com/stagger-physics/stagger/plugin"
)

// TestPaintGroundColoursTheHalfSpaces: every level's ground (its half-spaces, all facing up) gets a
// visual before the plugin's automatic visuals, and nothing else does; the visual is drawn unlit,
// every vertex in the ground colour as the stage's lights shade a level plane: ambient 0.5 plus
// the sun's 1.0 times the cosine of its elevation, 12/√233 from the sun at (5, 12, 8).
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
			if _, ok := mesh.GetMaterial(0).(*material.Basic); !ok {
				t.Errorf("%s: the ground's material is %T, want the unlit basic one", l.title, mesh.GetMaterial(0))
				return
			}
			shade := 0.5 + 12/math.Sqrt(233)
			want := [3]float64{float64(groundColor.R) * shade, float64(groundColor.G) * shade, float64(groundColor.B) * shade}
			colors := mesh.GetGeometry().VBO(gls.VertexColor)
			positions := mesh.GetGeometry().VBO(gls.VertexPosition)
			if colors == nil || colors.Buffer().Len() != positions.Buffer().Len() {
				t.Errorf("%s: the ground has no colour for each vertex", l.title)
				return
			}
			buf := *colors.Buffer()
			for i, c := range buf {
				if math.Abs(float64(c)-want[i%3]) > 1e-6 {
					t.Errorf("%s: vertex colour %v, want %v", l.title, buf[i-i%3:i-i%3+3], want)
					return
				}
			}
		})
	}
}
