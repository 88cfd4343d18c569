//go:build !js

package main

import (
	"fmt"
	"runtime"

	"github.com/g3n/engine/gls"
	"github.com/g3n/engine/window"
	"github.com/go-gl/glfw/v3.3/glfw"
)

// windowTitle is the title g3n's app gives its window (app-desktop.go), kept by the window that
// replaces it.
const windowTitle = "G3N Application"

// useSingleSampleWindow replaces g3n's window by one whose default framebuffer has a single
// sample. g3n v0.2.0's window.Init asks GLFW for 8 samples and nothing lets an application ask
// for fewer; on a renderer that draws on the CPU a multisampled framebuffer makes every clear,
// every fragment write and the resolve at each swap touch all the samples, even with
// GL_MULTISAMPLE disabled, which under llvmpipe was close to half of a simple level's frame.
//
// It must run right after app.App(), before anything is drawn or created on the GPU: vertex
// arrays are not shared between contexts. The new window's context shares the old one's objects
// all the same (app.App() compiles no program, but nothing can go stale if it ever does). g3n's
// callbacks on the GLFW window are closures over its own window wrapper, not over the GLFW
// window they are called with, so they move to the new window as they are; gls.GLS keeps a cache
// of the state its New set in the old context, which is set again in the new one.
func useSingleSampleWindow(gs *gls.GLS) (err error) {
	gw, ok := window.Get().(*window.GlfwWindow)
	if !ok || gw.Window == nil {
		return fmt.Errorf("the window is not g3n's GLFW window")
	}
	// go-gl/glfw panics on GLFW errors it does not expect; the old window is kept then.
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("creating a single-sample window: %v", r)
		}
	}()
	old := gw.Window
	width, height := old.GetSize()
	x, y := old.GetPos()
	// The hints of g3n's window.Init, but for the samples.
	glfw.DefaultWindowHints()
	glfw.WindowHint(glfw.ContextVersionMajor, 3)
	glfw.WindowHint(glfw.ContextVersionMinor, 3)
	glfw.WindowHint(glfw.OpenGLProfile, glfw.OpenGLCoreProfile)
	glfw.WindowHint(glfw.Samples, 0)
	if runtime.GOOS == "darwin" {
		glfw.WindowHint(glfw.OpenGLForwardCompatible, glfw.True)
	}
	glfw.WindowHint(glfw.Visible, glfw.False)
	nw, err := glfw.CreateWindow(width, height, windowTitle, nil, old)
	if err != nil {
		return fmt.Errorf("creating a single-sample window: %w", err)
	}
	moveCallbacks(old, nw)
	nw.SetPos(x, y)
	nw.MakeContextCurrent()
	gw.Window = nw
	nw.Show()
	old.Destroy()
	applyDefaultState(gs)
	return nil
}

// moveCallbacks moves every callback of the GLFW window from to the window to, leaving from with
// none.
func moveCallbacks(from, to *glfw.Window) {
	to.SetKeyCallback(from.SetKeyCallback(nil))
	to.SetCharCallback(from.SetCharCallback(nil))
	//lint:ignore SA1019 g3n's window.Init sets this callback, deprecated in GLFW 3.3, so it must move too.
	to.SetCharModsCallback(from.SetCharModsCallback(nil))
	to.SetMouseButtonCallback(from.SetMouseButtonCallback(nil))
	to.SetCursorPosCallback(from.SetCursorPosCallback(nil))
	to.SetCursorEnterCallback(from.SetCursorEnterCallback(nil))
	to.SetScrollCallback(from.SetScrollCallback(nil))
	to.SetDropCallback(from.SetDropCallback(nil))
	to.SetPosCallback(from.SetPosCallback(nil))
	to.SetSizeCallback(from.SetSizeCallback(nil))
	to.SetFramebufferSizeCallback(from.SetFramebufferSizeCallback(nil))
	to.SetCloseCallback(from.SetCloseCallback(nil))
	to.SetMaximizeCallback(from.SetMaximizeCallback(nil))
	to.SetContentScaleCallback(from.SetContentScaleCallback(nil))
	to.SetRefreshCallback(from.SetRefreshCallback(nil))
	to.SetFocusCallback(from.SetFocusCallback(nil))
	to.SetIconifyCallback(from.SetIconifyCallback(nil))
}

// applyDefaultState sets, in the current context, the state gls.New set in g3n's first one
// (its setDefaultState), through gs so that its cache and the context agree: a cached setting is
// first changed to another value, which the cache lets through, then back.
func applyDefaultState(gs *gls.GLS) {
	gs.ClearColor(0, 0, 0, 1)
	gs.ClearDepth(1)
	gs.ClearStencil(0)
	for _, c := range []int{gls.DEPTH_TEST, gls.CULL_FACE, gls.BLEND, gls.PROGRAM_POINT_SIZE, gls.MULTISAMPLE,
		gls.POLYGON_OFFSET_FILL, gls.POLYGON_OFFSET_LINE, gls.POLYGON_OFFSET_POINT} {
		gs.Disable(c)
		gs.Enable(c)
	}
	gs.DepthFunc(gls.LESS)
	gs.DepthFunc(gls.LEQUAL)
	gs.FrontFace(gls.CW)
	gs.FrontFace(gls.CCW)
	gs.CullFace(gls.BACK)
	gs.BlendEquation(gls.FUNC_SUBTRACT)
	gs.BlendEquation(gls.FUNC_ADD)
	gs.BlendFunc(gls.ONE, gls.ZERO)
	gs.BlendFunc(gls.SRC_ALPHA, gls.ONE_MINUS_SRC_ALPHA)
}
