package main

import (
	"fmt"
	"image/color"

	"github.com/g3n/engine/core"
	"github.com/g3n/engine/geometry"
	"github.com/g3n/engine/gls"
	"github.com/g3n/engine/graphic"
	"github.com/g3n/engine/gui"
	"github.com/g3n/engine/material"
	"github.com/g3n/engine/math32"
	"github.com/g3n/engine/renderer/shaders"
)

// Layout of the HUD plot's panel, pixels.
const (
	plotPad    = 6
	plotMargin = 10 // from the status lines: half of it
)

// hudPlot is the small live plot under the status lines, in the window's left margin, where the
// framed level leaves room and no panel of the game goes: the last plotSteps steps'
// wall time and staggered iterations (key G shows or hides it; shown at start). The labels give
// each series' colour and the value at the top of its scale.
//
// The lines are geometry, not a picture: a vertex buffer rewritten in place when a step has been
// added, over a plain backing panel. The plot was once an image uploaded as a texture every such
// frame, and g3n v0.2.0's Texture2D redefines the texture's storage (glTexImage2D) and regenerates
// its mipmaps on every upload, with no way to turn the mipmaps off: the prime suspect of a heap
// corruption that aborted the demo once under llvmpipe, inside glGenerateMipmap.
type hudPlot struct {
	history stepHistory
	panel   *gui.Panel
	lines   *plotLines
	// buf is the lines' vertex buffer, made plotBufferFloats large once so that a redraw does not
	// allocate.
	buf     math32.ArrayF32
	msLabel *gui.Label
	itLabel *gui.Label
	// msScale and itScale are the scales on the labels; dirty says a step came since the last draw.
	msScale, itScale float64
	dirty            bool
}

// newHUDPlot returns the plot's panel, shown, with an empty history.
func newHUDPlot() *hudPlot {
	p := &hudPlot{buf: make(math32.ArrayF32, 0, plotBufferFloats), dirty: true}
	p.msLabel = plotLabel(plotMsColour)
	p.itLabel = plotLabel(plotIterColour)
	p.setScales(niceCeil(0, minMsScale), niceCeil(0, minIterScale))
	labelH := p.msLabel.Height()
	p.panel = gui.NewPanel(plotWidth+2*plotPad, 3*plotPad+labelH+plotHeight)
	p.panel.SetColor4(&panelColour)
	p.panel.SetBorders(1, 1, 1, 1)
	p.panel.SetBordersColor(&borderColour)
	p.msLabel.SetPosition(plotPad, plotPad)
	p.panel.Add(p.msLabel)
	p.panel.Add(p.itLabel)
	backing := gui.NewPanel(plotWidth, plotHeight)
	backing.SetColor4(&math32.Color4{R: float32(plotBackground.R) / 255, G: float32(plotBackground.G) / 255,
		B: float32(plotBackground.B) / 255, A: float32(plotBackground.A) / 255})
	backing.SetPosition(plotPad, 2*plotPad+labelH)
	p.panel.Add(backing)
	// A child is drawn after its parent, so the lines go over their backing.
	p.buf = plotVertices(p.buf, &p.history, p.msScale, p.itScale)
	p.lines = newPlotLines(plotWidth, plotHeight, p.buf)
	backing.Add(p.lines)
	return p
}

// The least scales, so that an idle simulation draws flat lines at the bottom rather than noise
// blown up to the full height.
const (
	minMsScale   = 0.1
	minIterScale = 1
)

// plotLabel returns a small label in the series' colour c.
func plotLabel(c color.RGBA) *gui.Label {
	l := gui.NewLabel("")
	l.SetFontSize(13)
	l.SetColor(&math32.Color{R: float32(c.R) / 255, G: float32(c.G) / 255, B: float32(c.B) / 255})
	return l
}

// setScales writes the scales on the labels, the iterations' right-aligned.
func (p *hudPlot) setScales(ms, it float64) {
	p.msScale, p.itScale = ms, it
	setLabelText(p.msLabel, fmt.Sprintf("step time, top %g ms", ms))
	setLabelText(p.itLabel, fmt.Sprintf("iterations, top %g", it))
	p.itLabel.SetPosition(plotWidth+plotPad-p.itLabel.Width(), plotPad)
}

// record adds a step's figures (its wall time in ms and its staggered iterations).
func (p *hudPlot) record(ms, iters float64) {
	p.history.push(ms, iters)
	p.dirty = true
}

// clear forgets the history: a reset starts a new simulation.
func (p *hudPlot) clear() {
	p.history = stepHistory{}
	p.dirty = true
}

// update redraws the plot if it is shown and a step came since the last draw. The scales follow
// the history's peaks; the labels are rewritten only when a scale changes. The vertices are
// written over the old ones in the same buffer, which g3n sends to OpenGL at the next render.
func (p *hudPlot) update() {
	if !p.panel.Visible() || !p.dirty {
		return
	}
	p.dirty = false
	msPeak, itPeak := p.history.peaks()
	ms, it := niceCeil(msPeak, minMsScale), niceCeil(itPeak, minIterScale)
	if ms != p.msScale || it != p.itScale {
		p.setScales(ms, it)
	}
	p.buf = plotVertices(p.buf, &p.history, ms, it)
	p.lines.vbo.SetBuffer(p.buf)
}

// below places the panel under the status lines of label, whose height changes with its text.
func (p *hudPlot) below(label *gui.Label) {
	pos := label.Position()
	p.panel.SetPosition(pos.X, pos.Y+label.Height()+plotMargin/2)
}

// plotLines is a panel that draws its vertex buffer (plotVertices's) as gls.LINES in g3n's panel
// frame, x from 0 at the panel's left edge to 1 at its right and y from 0 at its top to −1 at its
// bottom, each vertex in its own colour. g3n's gui.Chart draws its graphs so, but it builds a new
// buffer at every update, in one colour a graph, and scales and labels its axes its own way.
type plotLines struct {
	gui.Panel
	vbo       *gls.VBO
	uniMatrix gls.Uniform
}

// newPlotLines returns the lines of buf in a width × height panel.
func newPlotLines(width, height float32, buf math32.ArrayF32) *plotLines {
	l := new(plotLines)
	l.vbo = gls.NewVBO(buf).AddAttrib(gls.VertexPosition).AddAttrib(gls.VertexColor)
	l.vbo.SetUsage(gls.DYNAMIC_DRAW) // rewritten while a simulation runs
	geom := geometry.NewGeometry()
	geom.AddVBO(l.vbo)
	mat := material.NewMaterial()
	mat.SetShader(plotShader)
	mat.SetShaderUnique(true)
	mat.SetUseLights(material.UseLightNone)
	// g3n draws transparent panels in the GUI's order, parents first; an opaque one would be drawn
	// before every panel.
	mat.SetTransparent(true)
	gr := graphic.NewGraphic(l, geom, gls.LINES)
	gr.AddMaterial(l, mat, 0, 0) // a count of 0: as many vertices as the buffer holds at each draw
	l.Panel.InitializeGraphic(width, height, gr)
	l.uniMatrix.Init("ModelMatrix")
	return l
}

// RenderSetup sends the panel's model matrix (from its frame to clip space) before a draw. It
// stands for gui.Panel's, which would also send the panel shader's uniforms, from a material this
// panel does not have.
func (l *plotLines) RenderSetup(gs *gls.GLS, _ *core.RenderInfo) {
	var mm math32.Matrix4
	l.SetModelMatrix(gs, &mm)
	gs.UniformMatrix4fv(l.uniMatrix.Location(gs), 1, false, &mm[0])
}

// plotShader names the plot lines' shader program, registered with g3n's shaders at start.
const plotShader = "stagger.plotLines"

// The plot lines' shaders, in the GLSL that g3n's other shaders are written in: it prefixes the
// version (330 core on the desktop, 300 es in the browser) and expands the include.
const (
	plotVertexShader = `
#include <attributes>
uniform mat4 ModelMatrix;
out vec3 Color;
void main() {
	Color = VertexColor;
	gl_Position = ModelMatrix * vec4(VertexPosition, 1.0);
}
`
	plotFragmentShader = `
precision highp float;
in vec3 Color;
out vec4 FragColor;
void main() {
	FragColor = vec4(Color, 1.0);
}
`
)

// init registers the plot lines' program with g3n's shaders, as gui's chart does its own: the
// renderer builds a material's program from the registered sources by name at its first draw.
func init() {
	shaders.AddShader(plotShader+".vertex", plotVertexShader)
	shaders.AddShader(plotShader+".fragment", plotFragmentShader)
	shaders.AddProgram(plotShader, plotShader+".vertex", plotShader+".fragment")
}
