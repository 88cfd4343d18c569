package main

import (
	"fmt"
	"io"
	"math"
	"os"
	"strings"
	"time"

	"github.com/g3n/engine/app"
	"github.com/g3n/engine/camera"
	"github.com/g3n/engine/core"
	"github.com/g3n/engine/gls"
	"github.com/g3n/engine/gui"
	"github.com/g3n/engine/light"
	"github.com/g3n/engine/math32"
	"github.com/g3n/engine/renderer"
	"github.com/g3n/engine/util/helper"
	"github.com/g3n/engine/window"
	"github.com/go-gl/mathgl/mgl64"
	"github.com/stagger-physics/stagger/collide"
	"github.com/stagger-physics/stagger/demo/headless"
	"github.com/stagger-physics/stagger/ecs"
	"github.com/stagger-physics/stagger/physics"
	"github.com/stagger-physics/stagger/plugin"
)

// maxStepsPerFrame bounds the fixed steps one frame may run, so a slow frame cannot spiral.
const maxStepsPerFrame = 5

// scriptSystemName is the fixed-update system that runs the scene's script (scenes.Scene.Advance).
const scriptSystemName = "scenes.script"

// stepClockSystemName is the fixed-update system, first of all, that marks each fixed step's start
// for the frame's physics time; stepClockEndSystemName, last of all, adds the step to it.
const (
	stepClockSystemName    = "demo.stepclock"
	stepClockEndSystemName = "demo.stepclock.end"
)

// plotSystemName is the fixed-update system, after the physics step, that records each step's
// figures for the HUD plot.
const plotSystemName = "demo.plot"

// resetDepth is how far, in m, every dynamic body must fall below the ground before the demo
// restarts the scene by itself.
const resetDepth = 20

// afterFrame, when set, runs after every rendered frame; the browser build sets it to publish the
// game's state to its page (publish_js.go).
var afterFrame func(*game)

// game is the demo's state: the g3n scene and the running simulation.
type game struct {
	opts headless.Options
	set  map[string]bool
	// levelIdx is the level being played (an index of levels), −1 for a scene that is no level.
	levelIdx  int
	prog      *progress // the level's goal and score; nil for a scene that is no level
	ui        *gameUI
	follow    cameraFollow
	goalLeft  float64    // seconds the level's goal stays on the screen
	root      *core.Node // scene graph root: the 3D world and the HUD's panels
	world     *core.Node // the 3D scene: lights, grid, contacts and bodies
	bodies    *core.Node // parent of the simulation's nodes; replaced on reset
	sim       *ecs.App
	dynamic   *ecs.Query1[physics.RigidBody]
	paused    bool
	stepOnce  bool
	simTime   float64
	cam       *camera.Camera
	orbit     *camera.OrbitControl
	label     *gui.Label
	frameTime *frameClock // each frame's physics and render time
	renderer  string      // the OpenGL renderer's name, for the report
	// samples is the number of samples per pixel of the framebuffer drawn into (0: not
	// multisampled), −1 where it was not asked; glState the context's drawing state before the
	// first frame (glState). Both for the report.
	samples  int
	glState  map[string]int
	lastErr  error
	contacts *contactLines
	// showContacts draws contact points and normals (key C).
	showContacts bool
	// details shows the solver's figures on the status lines (key D); statusShown decides when
	// the label shows them again (statusRefresh).
	details     bool
	statusShown statusRefresher
	sound       *impactSounds
	plot        *hudPlot
	// record is the player's best stars per level, kept in store (nil: in memory only).
	record starRecord
	store  recordStore
	// twin is the same level simulated with PGS in the window's right half (key V); nil when the
	// window shows one simulation.
	twin  *twinView
	split splitUI
	thrower
}

// runWindow opens the demo window and runs until it is closed (or the screenshot is taken).
func runWindow(opts headless.Options, set map[string]bool, win windowOptions, stdout io.Writer) error {
	silenced := silenceWithoutSoundDevice()
	a := app.App()
	rendererName := a.Gls().GetString(gls.RENDERER)
	if softwareRenderer(rendererName) && !win.msaa {
		if err := useSingleSampleWindow(a.Gls()); err != nil {
			// The multisampled window still works, only slower.
			fmt.Fprintln(os.Stderr, "demo: keeping the multisampled window:", err)
		}
	}
	g := &game{opts: opts, set: set, root: core.NewNode(), world: core.NewNode(), contacts: newContactLines(), showContacts: win.contacts,
		plot: newHUDPlot(), frameTime: newFrameClock()}
	g.store = defaultRecordStore()
	g.record = loadRecord(g.store)
	g.sound = newImpactSounds(openVoices(silenced))
	a.Subscribe(app.OnExit, func(string, interface{}) { g.sound.close() })
	// -scene opens that scene: its level when it has one, with the level's size unless -n says
	// otherwise. Without it the game opens at the level list, over the first level.
	g.levelIdx = 0
	if set["scene"] {
		g.levelIdx = levelOf(opts.Scene)
	}
	if g.levelIdx >= 0 && !set["n"] && levels[g.levelIdx].n > 0 {
		g.opts.N, g.set["n"] = levels[g.levelIdx].n, true
	}
	gui.Manager().Set(g.root)
	g.root.Add(g.world)

	cam := camera.New(1)
	cam.SetPosition(9, 7, 14)
	cam.LookAt(&math32.Vector3{X: 0, Y: 2, Z: 0}, &math32.Vector3{X: 0, Y: 1, Z: 0})
	g.root.Add(cam)
	g.cam = cam
	g.orbit = camera.NewOrbitControl(cam)
	g.orbit.SetTarget(math32.Vector3{X: 0, Y: 2, Z: 0})
	var quit func()
	if canQuit {
		quit = a.Exit
	}
	g.buildUI(quit)
	onResize := func(string, interface{}) {
		w, h := a.GetFramebufferSize()
		a.Gls().Viewport(0, 0, int32(w), int32(h))
		g.setAspect(w, h)
		g.layoutUI(a.GetSize())
	}
	a.Subscribe(window.OnWindowSize, onResize)
	onResize("", nil)

	addStage(g.world)
	g.world.Add(helper.NewAxes(1))
	g.world.Add(g.contacts.lines)

	g.label = gui.NewLabel("")
	g.label.SetPosition(10, 10)
	g.label.SetColor(&math32.Color{R: 1, G: 1, B: 1})
	// A translucent dark backing keeps the lines legible over the light ground.
	g.label.SetBgColor4(&math32.Color4{R: 0.1, G: 0.11, B: 0.13, A: 0.6})
	g.label.SetFontSize(15)
	g.root.Add(g.label)
	g.root.Add(g.plot.panel)
	g.buildSplitUI()

	a.Subscribe(window.OnKeyDown, func(_ string, ev interface{}) {
		g.onKey(ev.(*window.KeyEvent).Key, a)
	})
	g.subscribeThrows(a)
	// g3n's GUI manager keeps the last cursor event and reads it again when the orbit control lets
	// go of the cursor at a button's release; a release before any cursor motion (a click in a
	// browser tab the pointer never moved over, a tap) would find none and crash. A cursor event
	// outside every panel gives it one.
	a.Dispatch(window.OnCursor, &window.CursorEvent{Xpos: -1, Ypos: -1})
	a.Gls().ClearColor(0.16, 0.17, 0.2, 1)
	g.renderer = rendererName
	drawSingleSample(a.Gls(), g.renderer)
	g.samples, g.glState = framebufferSamples(), glState()
	if err := g.reset(); err != nil {
		return err
	}
	if win.split {
		if err := g.toggleSplit(); err != nil {
			return err
		}
	}
	g.frameScene()
	if set["scene"] {
		g.showGoal()
	} else {
		g.showStart()
	}
	g.layoutUI(a.GetSize())

	var shotErr error
	start := time.Now()
	a.Run(func(r *renderer.Renderer, dt time.Duration) {
		g.frameTime.begin(dt)
		if win.throwAfter > 0 && !g.scripted && time.Since(start) >= win.throwAfter {
			// The script's throw: a click held half the charge, at the level's middle body.
			g.scripted = true
			// The report's frame times are those of the frames from the throw's on.
			g.frameTime.recording = true
			w, h := a.GetSize()
			g.markLevel()
			x, y := g.scriptedAim(w, h)
			if err := g.throwAt(x, y, fullCharge/2, w, h); err != nil {
				g.lastErr = err
			}
		}
		g.frame(dt)
		a.Gls().Clear(gls.DEPTH_BUFFER_BIT | gls.STENCIL_BUFFER_BIT | gls.COLOR_BUFFER_BIT)
		if err := g.render(r, a); err != nil {
			g.lastErr = err
		}
		if afterFrame != nil {
			afterFrame(g)
		}
		if win.screenshot != "" && time.Since(start) >= win.screenshotAfter {
			w, h := a.GetFramebufferSize()
			shotErr = saveScreenshot(a.Gls(), w, h, win.screenshot)
			a.Exit()
		}
	})
	if shotErr != nil {
		return shotErr
	}
	if g.lastErr == nil && win.throwAfter > 0 {
		return g.reportLevel(stdout)
	}
	return g.lastErr
}

// The stage's white lights: an ambient one and a sun, a directional light shining from
// sunPosition (scene frame) towards the origin.
var (
	ambientIntensity float32 = 0.5
	sunIntensity     float32 = 1.0
	sunPosition              = math32.Vector3{X: 5, Y: 12, Z: 8}
)

// addStage adds what every view of a level shows besides its bodies to node: the lights and the
// grid.
func addStage(node *core.Node) {
	node.Add(light.NewAmbient(&math32.Color{R: 1, G: 1, B: 1}, ambientIntensity))
	sun := light.NewDirectional(&math32.Color{R: 1, G: 1, B: 1}, sunIntensity)
	sun.SetPositionVec(&sunPosition)
	node.Add(sun)
	node.Add(helper.NewGrid(40, 1, &math32.Color{R: 0.45, G: 0.45, B: 0.5}))
}

// reset builds the current scene anew, and its twin when the window is split.
func (g *game) reset() error {
	if g.bodies != nil {
		g.world.Remove(g.bodies)
		g.bodies.DisposeChildren(true)
	}
	g.bodies = core.NewNode()
	g.world.Add(g.bodies)
	if g.sound != nil {
		g.sound.restart()
	}
	g.plot.clear()
	sim, err := g.buildSim(g.opts, g.bodies, true)
	if err != nil {
		return err
	}
	q, err := ecs.NewQuery1[physics.RigidBody](sim.World)
	if err != nil {
		return err
	}
	g.sim, g.dynamic, g.simTime = sim, q, 0
	g.throws = 0
	g.prog = nil
	g.follow.stop()
	if g.prog, err = g.levelProgress(sim.World, g.bodies); err != nil {
		return err
	}
	if err := sim.Update(0); err != nil { // creates the visuals and poses them
		return err
	}
	if g.twin != nil {
		return g.twin.rebuild(g)
	}
	return nil
}

// levelProgress starts the level being played on w, whose visuals are under bodies, and marks
// its target; nil for a scene that is no level.
func (g *game) levelProgress(w *ecs.World, bodies *core.Node) (*progress, error) {
	if g.levelIdx < 0 {
		return nil, nil
	}
	prog, err := newProgress(levels[g.levelIdx], w)
	if err != nil {
		return nil, err
	}
	if _, err := markTarget(w, bodies, prog); err != nil {
		return nil, err
	}
	return prog, nil
}

// buildSim builds the current scene with opts's physics settings into a new simulation whose
// visuals go under bodies. Its fixed steps count in the frame's physics time; with plot, each
// step's figures also go to the HUD plot.
func (g *game) buildSim(opts headless.Options, bodies *core.Node, plot bool) (*ecs.App, error) {
	sim, err := ecs.NewApp(opts.Dt, maxStepsPerFrame)
	if err != nil {
		return nil, err
	}
	sc, params, err := opts.Resolve(g.set)
	if err != nil {
		return nil, err
	}
	if err := sim.AddSystem(ecs.FixedUpdate, stepClockSystemName, func(*ecs.World) error {
		g.frameTime.stepBegins()
		return nil
	}); err != nil {
		return nil, err
	}
	// The scene's script runs as a fixed-update system added before the physics plugin's, so it
	// acts before every fixed step (a frame may run several) at that step's start time, exactly as
	// the headless runner calls it.
	if err := sim.AddSystem(ecs.FixedUpdate, scriptSystemName, func(w *ecs.World) error {
		ft, ok := ecs.GetResource[ecs.FixedTime](w)
		if !ok {
			return fmt.Errorf("the ecs.FixedTime resource is missing")
		}
		_, err := sc.Advance(w, params, float64(ft.Tick)*ft.Step)
		return err
	}); err != nil {
		return nil, err
	}
	cfg := plugin.DefaultConfig()
	cfg.Physics = opts.PhysicsConfig()
	if err := sim.AddPlugin(plugin.New(bodies, cfg)); err != nil {
		return nil, err
	}
	if plot {
		// Added after the plugin, so it runs after every physics step and sees that step's figures.
		if err := sim.AddSystem(ecs.FixedUpdate, plotSystemName, func(w *ecs.World) error {
			if s, ok := physics.SimulationOf(w); ok {
				st := s.Stats()
				g.plot.record(float64(st.Elapsed.Nanoseconds())/1e6, float64(st.Iterations))
			}
			return nil
		}); err != nil {
			return nil, err
		}
	}
	if err := sim.AddSystem(ecs.FixedUpdate, stepClockEndSystemName, func(*ecs.World) error {
		g.frameTime.stepEnds()
		return nil
	}); err != nil {
		return nil, err
	}
	if err := sc.Build(sim.World, params); err != nil {
		return nil, err
	}
	if _, err := paintGround(sim.World, bodies); err != nil {
		return nil, err
	}
	return sim, nil
}

// enterLevel builds level i (an index of levels) with its own size, frames it and shows its goal.
func (g *game) enterLevel(i int) {
	l := levels[i]
	g.levelIdx = i
	g.opts.Scene = l.scene
	// A level takes its scene's defaults, and its own size.
	delete(g.set, "n")
	delete(g.set, "mu")
	delete(g.set, "e")
	if l.n > 0 {
		g.opts.N, g.set["n"] = l.n, true
	}
	g.ui.start.SetVisible(false)
	g.ui.menu.SetVisible(false)
	g.ui.banner.SetVisible(false)
	g.paused = false
	g.lastErr = g.reset()
	if g.lastErr == nil {
		g.frameScene()
		g.showGoal()
	}
}

// minFrameSize, m, is the least size of the box the camera frames: a scene smaller than it in
// every direction (one cube) is shown with some of its surroundings.
const minFrameSize = 2.5

// frameScene points the camera at the whole scene from a fixed oblique direction, so that every
// bounded collider fits the view with a margin, and makes the orbit control turn about the
// scene's centre. A scene without bounded colliders keeps the camera where it is.
func (g *game) frameScene() {
	lo, hi, ok := sceneBounds(g.sim.World)
	if !ok {
		return
	}
	if math32.Max(hi.X-lo.X, math32.Max(hi.Y-lo.Y, hi.Z-lo.Z)) < minFrameSize {
		// Widen a small box about its centre, and heighten it upwards (it stands on the ground).
		cx, cz := 0.5*(lo.X+hi.X), 0.5*(lo.Z+hi.Z)
		lo.X, hi.X = cx-minFrameSize/2, cx+minFrameSize/2
		lo.Z, hi.Z = cz-minFrameSize/2, cz+minFrameSize/2
		hi.Y = lo.Y + minFrameSize
	}
	// From the scene's centre towards the camera: from +x, above and +z, as the demo always
	// looked, but steeper, so that the camera sees over walls.
	view := math32.Vector3{X: 9, Y: 12, Z: 14}
	f := frameBox(lo, hi, g.cam.Fov(), g.cam.Aspect(), view)
	g.cam.SetNear(math32.Min(0.3, 0.5*f.nearest))
	g.cam.SetFar(math32.Max(1000, 2*f.farthest))
	g.cam.SetPositionVec(&f.position)
	g.cam.LookAt(&f.target, &math32.Vector3{X: 0, Y: 1, Z: 0})
	g.orbit.SetTarget(f.target)
}

// sceneBounds returns the scene-coordinate box around every body's collider at its current pose
// and every deformable body's surface, leaving out unbounded shapes (the ground's half-space); ok
// is false when there is none.
func sceneBounds(w *ecs.World) (lo, hi math32.Vector3, ok bool) {
	q, err := ecs.NewQuery2[physics.RigidBody, physics.Collider](w)
	if err != nil {
		return lo, hi, false
	}
	var box collide.AABB
	_ = q.Each(func(_ ecs.Entity, b *physics.RigidBody, c *physics.Collider) {
		if c.Shape == nil || c.Shape.Kind() == collide.KindHalfSpace || math.IsInf(c.Shape.Volume(), 0) {
			return
		}
		bb := c.Shape.Bounds(collide.Pose{Position: b.Position, Rotation: b.Orientation})
		if !ok {
			box, ok = bb, true
			return
		}
		box = box.Union(bb)
	})
	if dq, err := ecs.NewQuery1[physics.ReducedDeformable](w); err == nil {
		var verts []mgl64.Vec3
		_ = dq.Each(func(e ecs.Entity, _ *physics.ReducedDeformable) {
			bb, found := bodyBounds(w, e, &verts)
			switch {
			case !found:
			case !ok:
				box, ok = bb, true
			default:
				box = box.Union(bb)
			}
		})
	}
	if !ok {
		return lo, hi, false
	}
	// ToScene permutes the axes and flips one: the images of two opposite corners span the box.
	a, b := plugin.ToScene(box.Min), plugin.ToScene(box.Max)
	lo = math32.Vector3{X: math32.Min(a.X, b.X), Y: math32.Min(a.Y, b.Y), Z: math32.Min(a.Z, b.Z)}
	hi = math32.Vector3{X: math32.Max(a.X, b.X), Y: math32.Max(a.Y, b.Y), Z: math32.Max(a.Z, b.Z)}
	return lo, hi, true
}

// onKey handles the demo's keys.
func (g *game) onKey(k window.Key, a *app.Application) {
	switch k {
	case window.KeyP:
		g.paused = !g.paused
	case window.KeyN:
		g.stepOnce = g.paused
	case window.KeyR:
		if !g.ui.start.Visible() {
			g.restart()
		}
	case window.KeyTab:
		g.nextLevel()
	case window.KeyEnter, window.KeyKPEnter:
		if g.ui.banner.Visible() {
			if g.prog != nil && g.prog.state == won {
				g.nextLevel()
			} else {
				g.restart()
			}
		}
	case window.KeyS:
		// Cycle the contact solver live: Staggered Projections, then the baselines.
		next := map[string]string{"sp": "pgs", "pgs": "lcp", "lcp": "sp"}
		g.opts.Solver = next[g.opts.Solver]
		g.lastErr = g.applySolver()
		g.showNotice(solverNotice(g.opts.Solver))
	case window.KeyF:
		if g.opts.Friction == "pyramid" {
			g.opts.Friction = "disc"
		} else {
			g.opts.Friction = "pyramid"
		}
		g.lastErr = g.applySolver()
	case window.KeyV:
		if !g.ui.start.Visible() {
			g.lastErr = g.toggleSplit()
		}
	case window.KeyC:
		g.showContacts = !g.showContacts
	case window.KeyD:
		g.details = !g.details
	case window.KeyG:
		g.plot.panel.SetVisible(!g.plot.panel.Visible())
	case window.Key1, window.Key2, window.Key3:
		g.kind = int(k - window.Key1)
	case window.KeyEscape:
		// Esc opens the pause menu, closes it, or on the level list quits (where it can).
		switch {
		case g.ui.start.Visible():
			if canQuit {
				a.Exit()
			}
		case g.ui.menu.Visible():
			g.resume()
		default:
			g.openMenu()
		}
	}
}

// applySolver hands the current -solver and -friction choice to the running simulation.
func (g *game) applySolver() error {
	sim, ok := physics.SimulationOf(g.sim.World)
	if !ok {
		return fmt.Errorf("the physics plugin is missing")
	}
	return sim.SetSolver(g.opts.SolverOptions())
}

// frame advances the simulation by the frame's time and updates the on-screen line.
func (g *game) frame(dt time.Duration) {
	if g.lastErr == nil {
		before := g.sim.Clock.Ticks()
		once := g.stepOnce
		switch {
		case g.stepOnce:
			g.stepOnce = false
			g.lastErr = g.sim.StepFixed()
			g.simTime += g.opts.Dt
		case !g.paused:
			g.lastErr = g.sim.Update(dt.Seconds())
			g.simTime += float64(g.sim.Clock.Ticks()-before) * g.opts.Dt
		}
		if g.twin != nil && g.lastErr == nil {
			g.lastErr = g.twin.step(dt.Seconds(), once, g.paused, g.simTime)
		}
		g.sound.frame(g.sim.World, openingQuiet(before, g.opts.Dt))
	}
	if g.lastErr == nil && g.allFellThrough() {
		g.lastErr = g.reset()
	}
	if g.prog != nil && g.lastErr == nil && g.prog.state == playing {
		g.prog.update(g.sim.World, g.simTime)
		if g.prog.state != playing {
			g.showResult()
		}
	}
	if g.goalLeft > 0 {
		if g.goalLeft -= dt.Seconds(); g.goalLeft <= 0 {
			g.ui.goal.SetVisible(false)
		}
	}
	if g.lastErr == nil {
		var pieces []piece
		if g.prog != nil {
			pieces = g.prog.view
		}
		if pos, tgt, ok := g.follow.step(dt.Seconds(), g.sim.World, pieces, g.cam.Fov(), g.cam.Aspect()); ok {
			g.cam.SetPositionVec(&pos)
			g.cam.LookAt(&tgt, &math32.Vector3{X: 0, Y: 1, Z: 0})
			g.orbit.SetTarget(tgt)
		}
	}
	if sim, ok := physics.SimulationOf(g.sim.World); ok {
		g.contacts.update(sim, g.showContacts)
	}
	if text := g.status(); g.statusShown.due(dt, text) {
		setLabelText(g.label, text)
	}
	g.layoutSplit(g.ui.width, g.ui.height)
	g.plot.below(g.label)
	if g.hudBottom() != g.ui.hudBottom {
		// The status lines changed height (their text, the details key) or the plot was toggled.
		g.layoutUI(g.ui.width, g.ui.height)
	}
	g.plot.update()
	g.updateHUDStars()
}

// setLabelText sets l's text only if it changed. g3n v0.2.0's Label.SetText draws the text again
// and uploads it as a texture whose mipmaps it regenerates (glGenerateMipmap) on every call: at
// one call a frame, the heap corruption that has aborted the demo a few times under llvmpipe,
// inside glGenerateMipmap, had a chance every frame.
func setLabelText(l *gui.Label, text string) {
	if l.Text() != text {
		l.SetText(text)
	}
}

// allFellThrough reports whether every dynamic body is far below the ground.
func (g *game) allFellThrough() bool {
	any, low := false, true
	_ = g.dynamic.Each(func(_ ecs.Entity, b *physics.RigidBody) {
		if b.Kind == physics.Dynamic {
			any = true
			low = low && b.Position[2] < -resetDepth
		}
	})
	return any && low
}

// status is the on-screen text: a plain line on the level, the throw and the solver, the controls,
// and with D the solver's detailed figures.
func (g *game) status() string {
	if g.lastErr != nil {
		return "error: " + g.lastErr.Error()
	}
	sim, _ := physics.SimulationOf(g.sim.World)
	st := sim.Stats()
	state := ""
	if g.paused {
		state = "  |  paused (N: step)"
	}
	if g.twin != nil {
		// Two simulations and two renders a frame: the cost of the comparison, in plain sight.
		state += fmt.Sprintf("  |  side by side: frame %.0f ms", g.frameTime.frameMs)
	}
	level := fmt.Sprintf("%s (free play)  |  throws %d", g.opts.Scene, g.throws)
	thrown := projectiles[g.kind].name
	if g.prog != nil {
		level = g.prog.lvl.title + ": " + goalName(g.prog.lvl.goal) + "  |  " + g.prog.statusText()
		if g.prog.lvl.goal == goalStand {
			thrown = weight.name
		}
	}
	plain := fmt.Sprintf("%s%s\n%d bodies, %d resting  |  %d contacts  |  %s  |  %s\n"+
		"click: throw (hold: harder)  |  1-3: ball, brick, heavy ball  |  V: exact vs PGS  |  Esc: menu  |  R: restart  |  D: details",
		level, state, st.Bodies, st.Sleeping, st.Contacts, plainSolver(st, g.opts.Solver), thrown)
	if !g.details {
		return plain
	}
	// The worst eq. 28 relative error and eq. 29 residual of the step's island solves.
	// Only Staggered Projections measures them.
	errs := "rel err –  |  residual –"
	switch {
	case g.opts.Solver != "sp":
		errs = "rel err, residual: sp only"
	case st.Islands > 0:
		errs = fmt.Sprintf("rel err %.1e  |  residual %.1e", st.MaxRelErr, st.MaxResidual)
	}
	return plain + fmt.Sprintf("\ndrag: orbit, wheel: zoom, P: pause, N: step, S: solver, F: friction, C: contacts, G: plot\n"+
		"%s, %s friction  |  t %.2f s  |  frame %.1f ms: physics %.1f, render %.1f  |  step %.3f ms  |  islands %d\n"+
		"%s\n"+
		"iterations %d  |  converged %d/%d  |  %s  |  %s",
		g.opts.Solver, g.opts.Friction, math.Round(g.simTime*100)/100, g.frameTime.frameMs, g.frameTime.physicsMs, g.frameTime.renderMs,
		float64(st.Elapsed.Microseconds())/1000, st.Islands,
		phaseLine(st.Phases),
		st.Iterations, st.Converged, st.Islands, errs, solverHealth(st, g.opts.Solver))
}

// plainSolver names the contact solver in play in a few words: exact Staggered Projections, or a
// baseline, with any trouble solverHealth reports.
func plainSolver(st physics.StepStats, method string) string {
	switch method {
	case "pgs":
		return "solver: PGS (approximate)"
	case "lcp":
		return "solver: LCP (pyramid friction)"
	}
	h := solverHealth(st, method)
	if h == "solver: idle" {
		return "solver: exact"
	}
	return h
}

// phaseLine is the status line's split of the step into its phases (physics.PhaseTimes), in ms.
func phaseLine(p physics.PhaseTimes) string {
	ms := func(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e6 }
	return fmt.Sprintf("gather %.2f | broad %.2f | narrow %.2f | islands %.2f | solve %.2f | integrate %.2f ms",
		ms(p.Gather), ms(p.BroadPhase), ms(p.NarrowPhase), ms(p.Islands), ms(p.Solve), ms(p.Integrate))
}

// solverHealth says in words whether the step's island solves reached ε (method is the -solver
// value): "exact" when every one converged, otherwise how many were cut short (by a time or work budget,
// if any) and how far from ε the worst ended, and how many fell back to PGS; and, first, how many
// bodies were held because their island's solve refused its problem.
func solverHealth(st physics.StepStats, method string) string {
	if st.Failed > 0 {
		held := "solver: 1 body held (problem refused)"
		if st.Failed > 1 {
			held = fmt.Sprintf("solver: %d bodies held (problem refused)", st.Failed)
		}
		rest := solverHealth(physics.StepStats{Islands: st.Islands, CutShort: st.CutShort, BudgetCut: st.BudgetCut,
			Fallbacks: st.Fallbacks, MaxErrRatio: st.MaxErrRatio}, method)
		return held + "; " + strings.TrimPrefix(rest, "solver: ")
	}
	switch {
	case method != "sp":
		return "solver: baseline (no ε)" // pgs and lcp do not measure rel_err
	case st.Islands == 0:
		return "solver: idle"
	case st.CutShort == 0 && st.Fallbacks == 0:
		return "solver: exact"
	}
	var parts []string
	if st.CutShort > 0 {
		cut := fmt.Sprintf("%s cut short", countNoun(st.CutShort, "island"))
		if st.BudgetCut > 0 {
			cut += fmt.Sprintf(", %d by a budget", st.BudgetCut)
		}
		parts = append(parts, fmt.Sprintf("%s (worst %s×ε)", cut, ratioText(st.MaxErrRatio)))
	}
	if st.Fallbacks > 0 {
		parts = append(parts, fmt.Sprintf("%s fell back to PGS", countNoun(st.Fallbacks, "island")))
	}
	return "solver: " + strings.Join(parts, ", ")
}

// countNoun writes n and noun, plural unless n is 1.
func countNoun(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// ratioText writes a rel_err/ε ratio to two or three significant figures, ∞ when it is infinite
// (eq. 28 after a subsequence that started from zero friction).
func ratioText(r float64) string {
	switch {
	case math.IsInf(r, 1):
		return "∞"
	case r < 10:
		return fmt.Sprintf("%.1f", r)
	}
	return fmt.Sprintf("%.3g", r)
}
