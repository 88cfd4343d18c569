package main

import (
	"fmt"
	"image"
	"image/color"

	"github.com/g3n/engine/gls"
	"github.com/g3n/engine/gui"
	"github.com/g3n/engine/math32"
	"github.com/g3n/engine/texture"
)

// Layout of the HUD plot's panel, pixels.
const (
	plotPad    = 6
	plotMargin = 10 // from the status lines: half of it
)

// hudPlot is the small live plot under the status lines, in the window's left margin, where the
// framed level leaves room and no panel of the game goes: the last plotSteps steps'
// wall time and staggered iterations (key G shows or hides it; shown at start). The picture is an
// RGBA image drawn in Go and uploaded as the texture of a gui.Image when a step has been added;
// the labels give each series' colour and the value at the top of its scale.
type hudPlot struct {
	history stepHistory
	panel   *gui.Panel
	img     *image.RGBA
	tex     *texture.Texture2D
	pix     interface{} // img.Pix, boxed once so that an upload does not allocate
	msLabel *gui.Label
	itLabel *gui.Label
	// msScale and itScale are the scales on the labels; dirty says a step came since the last draw.
	msScale, itScale float64
	dirty            bool
}

// newHUDPlot returns the plot's panel, shown, with an empty history.
func newHUDPlot() *hudPlot {
	p := &hudPlot{img: image.NewRGBA(image.Rect(0, 0, plotWidth, plotHeight)), dirty: true}
	p.pix = p.img.Pix
	p.tex = texture.NewTexture2DFromRGBA(p.img)
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
	im := gui.NewImageFromTex(p.tex)
	im.SetPosition(plotPad, 2*plotPad+labelH)
	p.panel.Add(im)
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
	p.msLabel.SetText(fmt.Sprintf("step time, top %g ms", ms))
	p.itLabel.SetText(fmt.Sprintf("iterations, top %g", it))
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
// the history's peaks; the labels are rewritten only when a scale changes.
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
	drawPlot(p.img, &p.history, ms, it)
	p.tex.SetData(plotWidth, plotHeight, gls.RGBA, gls.UNSIGNED_BYTE, gls.RGBA8, p.pix)
}

// below places the panel under the status lines of label, whose height changes with its text.
func (p *hudPlot) below(label *gui.Label) {
	pos := label.Position()
	p.panel.SetPosition(pos.X, pos.Y+label.Height()+plotMargin/2)
}
