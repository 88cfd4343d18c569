package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"time"

	"github.com/g3n/engine/app"
	"github.com/g3n/engine/window"
	"github.com/go-gl/mathgl/mgl64"
	"github.com/stagger-physics/stagger/ecs"
	"github.com/stagger-physics/stagger/physics"
	"github.com/stagger-physics/stagger/plugin"
)

// dragPixels is how far the cursor may move while the button is down for the release still to
// count as a click (a throw) rather than a drag (the camera orbits).
const dragPixels = 4

// thrower is the window's throwing state: the projectile chosen, the throws made, the press being
// held, and the level's bodies as they were at the scripted throw.
type thrower struct {
	kind, throws     int
	pressed, dragged bool
	pressX, pressY   float32
	pressAt          time.Time
	scripted         bool
	level            map[ecs.Entity]mgl64.Vec3
}

// subscribeThrows makes a left click throw the chosen projectile at the point under the cursor,
// harder the longer the button was held.
func (g *game) subscribeThrows(a *app.Application) {
	a.Subscribe(window.OnMouseDown, func(_ string, ev interface{}) {
		if mev := ev.(*window.MouseEvent); mev.Button == window.MouseButtonLeft {
			g.pressed, g.dragged = true, false
			g.pressX, g.pressY, g.pressAt = mev.Xpos, mev.Ypos, time.Now()
		}
	})
	a.Subscribe(window.OnCursor, func(_ string, ev interface{}) {
		cev := ev.(*window.CursorEvent)
		if g.pressed && math.Hypot(float64(cev.Xpos-g.pressX), float64(cev.Ypos-g.pressY)) > dragPixels {
			g.dragged = true
			g.follow.stop() // the player orbits: the camera is theirs
		}
	})
	a.Subscribe(window.OnScroll, func(string, interface{}) { g.follow.stop() })
	a.Subscribe(window.OnMouseUp, func(_ string, ev interface{}) {
		mev := ev.(*window.MouseEvent)
		if mev.Button != window.MouseButtonLeft || !g.pressed {
			return
		}
		g.pressed = false
		if g.dragged || g.lastErr != nil || g.menuOpen() {
			return
		}
		w, h := a.GetSize()
		g.lastErr = g.throwAt(mev.Xpos, mev.Ypos, time.Since(g.pressAt).Seconds(), w, h)
	})
}

// throwAt throws the chosen projectile from the camera at what lies under the window pixel (x, y)
// of a w × h window, at the speed of a button held for held seconds; in a level of goalStand it
// drops a weight above that point instead. A level that allows no more throws ignores it. The
// camera then follows the throw.
func (g *game) throwAt(x, y float32, held float64, w, h int) error {
	if g.prog != nil && !g.prog.canThrow() {
		return nil
	}
	// Split, each half is a view of its own with the same camera pose: aim in the half clicked.
	vw := w
	if g.twin != nil {
		vw = w / 2
		if x >= float32(vw) {
			x -= float32(vw)
			vw = w - vw
		}
	}
	origin, dir, err := plugin.CursorRay(g.cam, x, y, float32(vw), float32(h))
	if err != nil {
		return err
	}
	sim, ok := physics.SimulationOf(g.sim.World)
	if !ok {
		return fmt.Errorf("the physics plugin is missing")
	}
	// The throw is aimed in the left simulation and made the same in both, so that the halves
	// differ by their solvers alone.
	p, at, v := projectiles[g.kind], origin, mgl64.Vec3{}
	if g.prog != nil && g.prog.lvl.goal == goalStand {
		p = weight
		at, err = weightPosition(g.sim.World, sim, origin, dir)
	} else {
		v, err = throwVelocity(sim, origin, dir, throwSpeed(held))
	}
	if err != nil {
		return err
	}
	e, err := throwProjectile(g.sim.World, p, at, v)
	if err != nil {
		return err
	}
	if g.twin != nil {
		if err := g.twin.twinThrow(p, at, v, g.simTime); err != nil {
			return err
		}
	}
	g.throws++
	if g.prog != nil {
		g.prog.recordThrow(e, g.simTime)
		g.follow.start(e, g.cam.Position(), g.orbit.Target())
	}
	g.ui.goal.SetVisible(false)
	return nil
}

// markLevel records where the level's dynamic bodies, rigid and deformable, are, for
// reportLevel.
func (g *game) markLevel() {
	g.level = map[ecs.Entity]mgl64.Vec3{}
	_ = g.dynamic.Each(func(e ecs.Entity, b *physics.RigidBody) {
		if b.Kind == physics.Dynamic {
			g.level[e] = b.Position
		}
	})
	if q, err := ecs.NewQuery1[physics.ReducedDeformable](g.sim.World); err == nil {
		_ = q.Each(func(e ecs.Entity, d *physics.ReducedDeformable) { g.level[e] = d.Position })
	}
	if g.twin != nil {
		g.twin.markTwin()
	}
}

// bodyPosition returns the position of e in w, a rigid body's or a deformable body's frame's.
func bodyPosition(w *ecs.World, e ecs.Entity) (mgl64.Vec3, bool) {
	if b, ok := ecs.Get[physics.RigidBody](w, e); ok {
		return b.Position, true
	}
	if d, ok := ecs.Get[physics.ReducedDeformable](w, e); ok {
		return d.Position, true
	}
	return mgl64.Vec3{}, false
}

// levelReport is what the demo prints at exit after a scripted throw: the level, the throws made,
// how far the level's bodies moved since the throw, and the level's goal as the game judged it.
type levelReport struct {
	Scene  string  `json:"scene"`
	Throws int     `json:"throws"`
	Bodies int     `json:"bodies"`
	Moved  float64 `json:"moved"` // the largest displacement of a body present at the throw, m
	// Level is the level's title and Goal its kind ("topple", "target", "stand"), empty for a
	// scene that is no level.
	Level string `json:"level,omitempty"`
	Goal  string `json:"goal,omitempty"`
	// State is "playing", "won" or "lost"; LevelThrows the throws the level counted; Displaced
	// the structure's pieces displaced; Held the weights resting on top (goal "stand"); Off the
	// blocks knocked off their boxes (goal "knockoff").
	State       string `json:"state,omitempty"`
	LevelThrows int    `json:"level_throws"`
	Displaced   int    `json:"displaced"`
	Held        int    `json:"held"`
	Off         int    `json:"off"`
	// Split is whether the window was split (key V) at exit; then TwinThrows is the throws made
	// in its right half and TwinMoved the largest displacement there of a body present at the
	// throw, m.
	Split      bool    `json:"split,omitempty"`
	TwinThrows int     `json:"twin_throws,omitempty"`
	TwinMoved  float64 `json:"twin_moved,omitempty"`
	// Knocks counts the impact sounds started since the game opened; 0 where it runs silently.
	Knocks int `json:"knocks"`
	// Renderer is the OpenGL renderer's name (GL_RENDERER), "llvmpipe (…)" under Mesa's software
	// rasterizer.
	Renderer string `json:"renderer,omitempty"`
	// Samples is the number of samples per pixel of the framebuffer the game draws into
	// (GL_SAMPLES): 0 or 1 when it is not multisampled, −1 where it was not asked (the browser).
	Samples int `json:"samples"`
	// GLState is the OpenGL context's drawing state before the first frame (glState), empty
	// where it was not asked.
	GLState map[string]int `json:"gl_state,omitempty"`
	// The frame times of the frames from the throw's to the last before exit (frameClock).
	frameSummary
}

// goalWords are the report's names of the goal kinds.
var goalWords = map[goalKind]string{goalTopple: "topple", goalTarget: "target", goalStand: "stand", goalKnockOff: "knockoff"}

// reportLevel writes the levelReport as one JSON line to w.
func (g *game) reportLevel(w io.Writer) error {
	r := levelReport{Scene: g.opts.Scene, Throws: g.throws, Bodies: len(g.level), Knocks: g.sound.played,
		Renderer: g.renderer, Samples: g.samples, GLState: g.glState, frameSummary: g.frameTime.summary()}
	if p := g.prog; p != nil {
		r.Level, r.Goal, r.State = p.lvl.title, goalWords[p.lvl.goal], p.state.String()
		r.LevelThrows, r.Displaced, r.Held, r.Off = p.throws, p.displaced, p.held, p.off
	}
	for e, p := range g.level {
		if at, ok := bodyPosition(g.sim.World, e); ok {
			r.Moved = math.Max(r.Moved, at.Sub(p).Len())
		}
	}
	if t := g.twin; t != nil {
		r.Split = true
		if t.prog != nil {
			r.TwinThrows = t.prog.throws
		}
		for e, p := range t.level {
			if at, ok := bodyPosition(t.sim.World, e); ok {
				r.TwinMoved = math.Max(r.TwinMoved, at.Sub(p).Len())
			}
		}
	}
	return json.NewEncoder(w).Encode(r)
}

// scriptedAim returns the window pixel of a w × h window that the scripted throw aims at: the
// level body nearest the middle of the level's bodies (marked by markLevel), as the camera shows
// it. Aiming at the window's middle would miss a level with a hole in it (the arch).
func (g *game) scriptedAim(w, h int) (x, y float32) {
	x, y = float32(w)/2, float32(h)/2
	if g.twin != nil {
		x = float32(w) / 4
	}
	if len(g.level) == 0 {
		return x, y
	}
	var mid mgl64.Vec3
	for _, p := range g.level {
		mid = mid.Add(p)
	}
	mid = mid.Mul(1 / float64(len(g.level)))
	best, bestD := mid, math.Inf(1)
	for _, p := range g.level {
		// Ties between bodies at the same distance go to the smaller coordinates, so the map's
		// order cannot change the aim.
		if d := p.Sub(mid).Len(); d < bestD || d == bestD && lessVec(p, best) {
			best, bestD = p, d
		}
	}
	vw := w
	if g.twin != nil {
		vw = w / 2 // the left half
	}
	if g.prog != nil && g.prog.lvl.goal == goalStand {
		// A weight drops above the point aimed at: aim at the top of the highest body.
		for _, p := range g.level {
			if p[2] > best[2] || p[2] == best[2] && lessVec(p, best) {
				best = p
			}
		}
		best[2] = g.prog.startTop
	}
	v := plugin.ToScene(best)
	g.cam.Project(&v)
	return (v.X + 1) / 2 * float32(vw), (1 - v.Y) / 2 * float32(h)
}

// lessVec orders vectors lexicographically.
func lessVec(a, b mgl64.Vec3) bool {
	for i := range a {
		if a[i] != b[i] {
			return a[i] < b[i]
		}
	}
	return false
}
