package main

import (
	"github.com/g3n/engine/geometry"
	"github.com/g3n/engine/gls"
	"github.com/g3n/engine/graphic"
	"github.com/g3n/engine/material"
	"github.com/g3n/engine/math32"
	"github.com/go-gl/mathgl/mgl64"
	"github.com/stagger-physics/stagger/physics"
	"github.com/stagger-physics/stagger/plugin"
)

// contactNormalLength is how long, in m, the drawn contact normals are.
const contactNormalLength = 0.3

// Colours of the drawn normals and of the crosses marking contact points.
var (
	normalColour = math32.Color{R: 1, G: 0.85, B: 0.1}
	pointColour  = math32.Color{R: 1, G: 0.2, B: 0.2}
)

// contactLines draws the last step's contact points and normals: a short segment from each point
// along its normal, and a small cross in the tangent plane marking the point. Its vertex buffer
// is reused from frame to frame.
type contactLines struct {
	lines  *graphic.Lines
	vbo    *gls.VBO
	buffer math32.ArrayF32
}

// newContactLines returns the hidden drawing; add lines to the scene.
func newContactLines() *contactLines {
	c := &contactLines{buffer: math32.NewArrayF32(0, 36*64)}
	c.vbo = gls.NewVBO(c.buffer).AddAttrib(gls.VertexPosition).AddAttrib(gls.VertexColor)
	geom := geometry.NewGeometry()
	geom.AddVBO(c.vbo)
	mat := material.NewBasic() // colours come with the vertices
	mat.SetDepthTest(false)
	c.lines = graphic.NewLines(geom, mat)
	c.lines.SetVisible(false)
	return c
}

// update rebuilds the segments from sim's contacts when visible is true, and hides them otherwise.
func (c *contactLines) update(sim *physics.Simulation, visible bool) {
	c.buffer = c.buffer[:0]
	if visible {
		sim.Contacts(func(p physics.ContactPoint) {
			tip := p.Point.Add(p.Normal.Mul(contactNormalLength))
			a, b := plugin.ToScene(p.Point), plugin.ToScene(tip)
			c.segment(a, b, normalColour)
			// A cross of two short segments in the tangent plane marks the point itself.
			t1 := p.Normal.Cross(tangentSeed(p.Normal)).Normalize().Mul(contactNormalLength / 4)
			t2 := p.Normal.Cross(t1)
			for _, t := range [2]mgl64.Vec3{t1, t2} {
				q := plugin.ToScene(p.Point.Add(t))
				r := plugin.ToScene(p.Point.Sub(t))
				c.segment(q, r, pointColour)
			}
		})
	}
	c.vbo.SetBuffer(c.buffer)
	c.lines.SetVisible(len(c.buffer) > 0)
}

// tangentSeed returns the world axis least aligned with the unit vector n.
func tangentSeed(n mgl64.Vec3) mgl64.Vec3 {
	ax, ay, az := n[0]*n[0], n[1]*n[1], n[2]*n[2]
	switch {
	case ax <= ay && ax <= az:
		return mgl64.Vec3{1, 0, 0}
	case ay <= az:
		return mgl64.Vec3{0, 1, 0}
	}
	return mgl64.Vec3{0, 0, 1}
}

// segment appends a coloured segment from a to b.
func (c *contactLines) segment(a, b math32.Vector3, col math32.Color) {
	c.buffer.Append(a.X, a.Y, a.Z, col.R, col.G, col.B, b.X, b.Y, b.Z, col.R, col.G, col.B)
}
