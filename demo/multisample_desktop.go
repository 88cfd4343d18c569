//go:build !js

package main

import "github.com/g3n/engine/gls"

// drawSingleSample turns multisampling off when renderer (the OpenGL RENDERER string) draws on
// the CPU. g3n asks for an 8-sample window and enables GL_MULTISAMPLE; a software renderer then
// rasterises and shades for every sample, which under llvmpipe on two cores was a quarter of a
// frame. Edges alias, which a GPU's multisampling, left on, avoids. The window there is
// single-sample anyway (useSingleSampleWindow) unless -msaa keeps g3n's, or it could not be
// replaced; this keeps the multisampled one from shading every sample.
func drawSingleSample(gl *gls.GLS, renderer string) {
	if softwareRenderer(renderer) {
		gl.Disable(gls.MULTISAMPLE)
	}
}
