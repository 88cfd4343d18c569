//go:build !js

package main

/*
#ifdef _WIN32
#define STAGGER_GLAPI __stdcall
#else
#define STAGGER_GLAPI
#endif
typedef void (STAGGER_GLAPI *staggerGetIntegerv)(unsigned int pname, int *data);

// staggerGetInteger calls glGetIntegerv, found at f, for one integer.
static int staggerGetInteger(void *f, unsigned int pname) {
	int v = -1;
	((staggerGetIntegerv)f)(pname, &v);
	return v;
}
*/
import "C"

import (
	"unsafe"

	"github.com/g3n/engine/gls"
	"github.com/go-gl/glfw/v3.3/glfw"
)

// glGetInteger returns glGetIntegerv's answer for pname in the current OpenGL context, and false
// when the function cannot be found. g3n's gls has no glGetIntegerv, so it comes from GLFW's
// loader.
func glGetInteger(pname uint32) (int, bool) {
	f := glfw.GetProcAddress("glGetIntegerv")
	if f == nil {
		return 0, false
	}
	return int(C.staggerGetInteger(unsafe.Pointer(f), C.uint(pname))), true
}

// framebufferSamples returns the number of samples per pixel of the framebuffer the current
// OpenGL context draws into (GL_SAMPLES: 0 when it is not multisampled), or −1 when it cannot be
// asked.
func framebufferSamples() int {
	if v, ok := glGetInteger(gls.SAMPLES); ok {
		return v
	}
	return -1
}

// glStateNames are the OpenGL state glState reads: what gls.New sets in a new context (its
// setDefaultState) and what drawing depends on, by the names of their enums. The capabilities
// read 1 when enabled.
var glStateNames = map[string]uint32{
	"DEPTH_TEST": gls.DEPTH_TEST, "DEPTH_FUNC": gls.DEPTH_FUNC, "DEPTH_WRITEMASK": gls.DEPTH_WRITEMASK,
	"CULL_FACE": gls.CULL_FACE, "CULL_FACE_MODE": gls.CULL_FACE_MODE, "FRONT_FACE": gls.FRONT_FACE,
	"BLEND": gls.BLEND, "BLEND_EQUATION_RGB": gls.BLEND_EQUATION_RGB, "BLEND_EQUATION_ALPHA": gls.BLEND_EQUATION_ALPHA,
	"BLEND_SRC_RGB": gls.BLEND_SRC_RGB, "BLEND_DST_RGB": gls.BLEND_DST_RGB,
	"BLEND_SRC_ALPHA": gls.BLEND_SRC_ALPHA, "BLEND_DST_ALPHA": gls.BLEND_DST_ALPHA,
	"PROGRAM_POINT_SIZE": gls.PROGRAM_POINT_SIZE, "MULTISAMPLE": gls.MULTISAMPLE,
	"POLYGON_OFFSET_FILL": gls.POLYGON_OFFSET_FILL, "POLYGON_OFFSET_LINE": gls.POLYGON_OFFSET_LINE,
	"POLYGON_OFFSET_POINT": gls.POLYGON_OFFSET_POINT,
}

// glState reads glStateNames in the current OpenGL context; nil when glGetIntegerv cannot be
// found. Comparing it between the multisampled window, whose state g3n set, and the single-sample
// one, whose state useSingleSampleWindow set again, checks that the second draws as the first.
func glState() map[string]int {
	st := make(map[string]int, len(glStateNames))
	for name, pname := range glStateNames {
		v, ok := glGetInteger(pname)
		if !ok {
			return nil
		}
		st[name] = v
	}
	return st
}
