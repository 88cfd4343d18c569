package main

import (
	"fmt"

	"github.com/g3n/engine/app"
	"github.com/g3n/engine/camera"
	"github.com/g3n/engine/core"
	"github.com/g3n/engine/gls"
	"github.com/g3n/engine/gui"
	"github.com/g3n/engine/math32"
	"github.com/g3n/engine/renderer"
	"github.com/go-gl/mathgl/mgl64"
	"github.com/stagger-physics/stagger/demo/headless"
	"github.com/stagger-physics/stagger/ecs"
	"github.com/stagger-physics/stagger/physics"
)

// twinSolver is the contact solver of the window's right half when it is split (key V): the
// projected Gauss–Seidel baseline, against Staggered Projections on the left.
const twinSolver = "pgs"

// twinView is the second simulation of a split window: the same level, built from the same
// scene and parameters at the same moment as the left one, solved with twinSolver, every throw
// made in both, drawn with its own camera (following the left one's view) into the window's right
// half.
type twinView struct {
	opts   headless.Options
	world  *core.Node // its 3D scene: the stage and its bodies
	bodies *core.Node
	sim    *ecs.App
	prog   *progress // the level's goal judged in this simulation; nil for a scene that is no level
	cam    *camera.Camera
	// level is where the level's bodies were at the scripted throw, for the report.
	level map[ecs.Entity]mgl64.Vec3
}

// splitUI is what the HUD adds for a split window: each half's label and the line between them.
type splitUI struct {
	left, right *gui.Label
	divider     *gui.Panel
}

// buildSplitUI makes the split window's labels and divider, hidden, under the scene root.
func (g *game) buildSplitUI() {
	label := func() *gui.Label {
		l := gui.NewLabel("")
		l.SetFontSize(17)
		l.SetColor(&textColour)
		l.SetBgColor4(&panelColour)
		l.SetPaddings(4, 8, 4, 8)
		l.SetVisible(false)
		g.root.Add(l)
		return l
	}
	g.split.left, g.split.right = label(), label()
	g.split.divider = gui.NewPanel(2, 1)
	g.split.divider.SetColor4(&math32.Color4{R: 0.9, G: 0.9, B: 0.9, A: 1})
	g.split.divider.SetVisible(false)
	g.root.Add(g.split.divider)
}

// toggleSplit splits the window (key V): the level restarts in both halves from its start, the
// left with Staggered Projections, the right with PGS; pressed again, it drops the second
// simulation and the level goes on in the whole window.
func (g *game) toggleSplit() error {
	a := app.App()
	if g.twin != nil {
		g.twin.drop()
		g.twin = nil
		for _, p := range []gui.IPanel{g.split.left, g.split.right, g.split.divider} {
			p.SetVisible(false)
		}
		g.setAspect(a.GetFramebufferSize())
		g.showNotice("One view again (" + solverName(g.opts.Solver) + ").")
		return nil
	}
	g.opts.Solver = "sp"
	t := &twinView{opts: g.opts, world: core.NewNode(), cam: camera.New(1)}
	t.opts.Solver = twinSolver
	addStage(t.world)
	g.twin = t
	for _, p := range []gui.IPanel{g.split.left, g.split.right, g.split.divider} {
		p.SetVisible(true)
	}
	g.setAspect(a.GetFramebufferSize())
	g.ui.banner.SetVisible(false)
	g.follow.stop()
	if err := g.reset(); err != nil {
		return err
	}
	g.showNotice("Side by side, from the level's start: exact contact (Staggered Projections)\n" +
		"on the left, PGS on the right; every throw lands in both. V: one view.")
	return nil
}

// rebuild builds the game's current scene anew in t, as reset builds the left one.
func (t *twinView) rebuild(g *game) error {
	if t.bodies != nil {
		t.world.Remove(t.bodies)
		t.bodies.DisposeChildren(true)
	}
	t.bodies = core.NewNode()
	t.world.Add(t.bodies)
	t.opts.Scene, t.opts.N, t.opts.Friction = g.opts.Scene, g.opts.N, g.opts.Friction
	sim, err := g.buildSim(t.opts, t.bodies, false)
	if err != nil {
		return err
	}
	t.sim, t.level = sim, nil
	if t.prog, err = g.levelProgress(sim.World, t.bodies); err != nil {
		return err
	}
	return sim.Update(0)
}

// drop releases t's scene.
func (t *twinView) drop() {
	if t.bodies != nil {
		t.bodies.DisposeChildren(true)
	}
}

// step advances t as the left simulation advanced this frame: by the frame's time dt (s), or by one
// fixed step, or not at all while paused; then judges its level at simulated time now.
func (t *twinView) step(dt float64, once, paused bool, now float64) error {
	var err error
	switch {
	case once:
		err = t.sim.StepFixed()
	case !paused:
		err = t.sim.Update(dt)
	}
	if err == nil && t.prog != nil && t.prog.state == playing {
		t.prog.update(t.sim.World, now)
	}
	return err
}

// setAspect gives the camera (and the twin's) the aspect ratio of its part of a w × h framebuffer:
// all of it, or half of it when split.
func (g *game) setAspect(w, h int) {
	if h <= 0 {
		return
	}
	aspect := float32(w) / float32(h)
	if g.twin != nil {
		aspect /= 2
	}
	g.cam.SetAspect(aspect)
}

// render draws the frame: the scene with the HUD in one view; split, the left simulation into
// the left half and the twin into the right, each with its camera, and then the HUD over the
// whole window once.
func (g *game) render(r *renderer.Renderer, a *app.Application) error {
	if g.twin == nil {
		return r.Render(g.root, g.cam)
	}
	w, h := a.GetFramebufferSize()
	half := w / 2
	gl := a.Gls()
	t := g.twin
	pos, q := g.cam.Position(), g.cam.Quaternion()
	t.cam.SetPositionVec(&pos)
	t.cam.SetQuaternionQuat(&q)
	t.cam.SetFov(g.cam.Fov())
	t.cam.SetNear(g.cam.Near())
	t.cam.SetFar(g.cam.Far())
	t.cam.SetAspect(g.cam.Aspect())
	gl.Viewport(0, 0, int32(half), int32(h))
	if err := r.Render(g.world, g.cam); err != nil {
		return err
	}
	gl.Viewport(int32(half), 0, int32(w-half), int32(h))
	if err := r.Render(t.world, t.cam); err != nil {
		return err
	}
	// The HUD's panels place themselves by the viewport's size: the whole window again, over a
	// cleared depth buffer so that no body hides them.
	gl.Viewport(0, 0, int32(w), int32(h))
	gl.Clear(gls.DEPTH_BUFFER_BIT)
	g.world.SetVisible(false)
	err := r.Render(g.root, g.cam)
	g.world.SetVisible(true)
	return err
}

// layoutSplit places the halves' labels at the bottom corners of a w × h window and the divider
// down its middle, and writes the labels: each half's solver and, in a level, its progress.
func (g *game) layoutSplit(w, h int) {
	if g.twin == nil {
		return
	}
	left, right := solverName(g.opts.Solver), solverName(g.twin.opts.Solver)
	if g.prog != nil && g.twin.prog != nil {
		left += "\n" + halfStatus(g.prog)
		right += "\n" + halfStatus(g.twin.prog)
	}
	setLabelText(g.split.left, left)
	setLabelText(g.split.right, right)
	g.split.left.SetPosition(10, float32(h)-g.split.left.Height()-10)
	g.split.right.SetPosition(float32(w)-g.split.right.Width()-10, float32(h)-g.split.right.Height()-10)
	g.split.divider.SetSize(2, float32(h))
	g.split.divider.SetPosition(float32(w)/2-1, 0)
}

// halfStatus is a split half's few words on its level: how near the goal is there, and the
// result once the level is decided in that half.
func halfStatus(p *progress) string {
	var st string
	switch p.lvl.goal {
	case goalTopple:
		st = fmt.Sprintf("top %.1f m of %.1f m", p.top, p.startTop)
	case goalTarget:
		st = fmt.Sprintf("%d others knocked off", p.displaced)
	case goalStand:
		st = fmt.Sprintf("%d weights on top", p.held)
	case goalKnockOff:
		st = fmt.Sprintf("%d of %d blocks off", p.off, len(p.blocks))
	}
	if p.state != playing {
		st += "  |  " + p.state.String()
	}
	return st
}

// solverName names a contact solver (a -solver value) for the split window's labels and
// notices.
func solverName(method string) string {
	switch method {
	case "sp":
		return "exact: Staggered Projections"
	case "pgs":
		return "PGS"
	case "lcp":
		return "LCP"
	}
	return method
}

// twinThrow makes in the twin the throw just made on the left: projectile p (the weight for a
// level of goalStand) from origin at velocity, at simulated time now.
func (t *twinView) twinThrow(p projectile, origin, velocity mgl64.Vec3, now float64) error {
	e, err := throwProjectile(t.sim.World, p, origin, velocity)
	if err != nil {
		return fmt.Errorf("the PGS half: %w", err)
	}
	if t.prog != nil {
		t.prog.recordThrow(e, now)
	}
	return nil
}

// markTwin records where the twin's level bodies are, for the report.
func (t *twinView) markTwin() {
	t.level = map[ecs.Entity]mgl64.Vec3{}
	q, err := ecs.NewQuery1[physics.RigidBody](t.sim.World)
	if err != nil {
		return
	}
	_ = q.Each(func(e ecs.Entity, b *physics.RigidBody) {
		if b.Kind == physics.Dynamic {
			t.level[e] = b.Position
		}
	})
	if dq, err := ecs.NewQuery1[physics.ReducedDeformable](t.sim.World); err == nil {
		_ = dq.Each(func(e ecs.Entity, d *physics.ReducedDeformable) { t.level[e] = d.Position })
	}
}
