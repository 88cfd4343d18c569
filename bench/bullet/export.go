package bullet

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/stagger-physics/stagger/collide"
	"github.com/stagger-physics/stagger/ecs"
	"github.com/stagger-physics/stagger/physics"
	"github.com/stagger-physics/stagger/scenes"
)

// FormatVersion is the version of the scene format WriteWorld writes (see the package
// documentation); the harness refuses any other.
const FormatVersion = 3

// ErrUnsupportedShape is wrapped by WriteWorld's error when a collider's shape has no counterpart
// in the harness (triangle meshes and SDF grids), and by ExportScene's when the scene has reduced
// deformable bodies.
var ErrUnsupportedShape = errors.New("bullet: the harness has no counterpart for this shape")

// Header is what the scene format records besides the bodies: the scene and the settings both
// engines share.
type Header struct {
	Scene string // the scene's name, without spaces
	N     int    // its size parameter
	Seed  uint64 // its seed
	Dt    float64
	// Config supplies gravity and the sleeping thresholds (SleepTime, SleepLinear, SleepAngular).
	Config physics.Config
}

// ExportScene builds scene sc with parameters p in a fresh world with the physics plugin (cfg) and
// writes it for a fixed step dt as WriteWorld does, with what its script does over the first
// seconds of simulated time: the bodies it spawns, as spawns at the steps before which the
// runner's script spawns them, and the bodies it removes, as removals at theirs. The script runs
// here on the world as built, without stepping it, so a cue that places its bodies relative to
// others (the blocks over the card house, the churn scene's free places) places them against the
// scene as built rather than as it has moved by the cue's time.
func ExportScene(w io.Writer, sc scenes.Scene, p scenes.Params, cfg physics.Config, dt, seconds float64) error {
	app, err := SceneWorld(sc, p, cfg, dt)
	if err != nil {
		return err
	}
	if soft, err := ecs.NewQuery1[physics.ReducedDeformable](app.World); err != nil {
		return err
	} else if soft.Count() > 0 {
		return fmt.Errorf("%w: %d reduced deformable bodies", ErrUnsupportedShape, soft.Count())
	}
	initial, err := snapshot(app.World)
	if err != nil {
		return err
	}
	spawns, err := scriptEvents(app.World, sc, p, dt, seconds, initial)
	if err != nil {
		return err
	}
	return writeScene(w, Header{Scene: sc.Name, N: p.N, Seed: p.Seed, Dt: dt, Config: cfg}, initial, spawns)
}

// exported is a body as the scene format writes it: its state when it appeared, the step (from 0)
// before which it appears (0 for a body built with the scene) and the step before which the script
// removes it (−1: never).
type exported struct {
	entity        ecs.Entity
	body          physics.RigidBody
	shape         collide.Shape
	step, removed int64
}

// snapshot returns every body of world as it is now, in query order.
func snapshot(world *ecs.World) ([]*exported, error) {
	bodies, err := ecs.NewQuery1[physics.RigidBody](world)
	if err != nil {
		return nil, err
	}
	var out []*exported
	err = bodies.Each(func(e ecs.Entity, b *physics.RigidBody) {
		x := &exported{entity: e, body: *b, removed: -1}
		if c, ok := ecs.Get[physics.Collider](world, e); ok {
			x.shape = c.Shape
		}
		out = append(out, x)
	})
	return out, err
}

// scriptEvents runs scene sc's script on world (built from sc with p, its bodies so far known) at
// the start time of every step of length dt in the first seconds, as the runner does before each
// step, and returns the bodies each step's script adds, in query order within a step; a body the
// script removes, known or added, gets that step as removed.
func scriptEvents(world *ecs.World, sc scenes.Scene, p scenes.Params, dt, seconds float64, known []*exported) ([]*exported, error) {
	steps := int64(math.Round(seconds / dt))
	live := map[ecs.Entity]*exported{}
	for _, x := range known {
		live[x.entity] = x
	}
	var out []*exported
	for step := int64(0); step < steps; step++ {
		changed, err := sc.Advance(world, p, float64(step)*dt)
		if err != nil {
			return nil, err
		}
		if !changed {
			continue
		}
		for e, x := range live {
			if !world.Alive(e) {
				x.removed = step
				delete(live, e)
			}
		}
		now, err := snapshot(world)
		if err != nil {
			return nil, err
		}
		for _, x := range now {
			if live[x.entity] == nil {
				x.step = step
				live[x.entity] = x
				out = append(out, x)
			}
		}
	}
	return out, nil
}

// SceneWorld returns an App with the physics plugin (cfg) at fixed step dt in which scene sc is
// built with parameters p, as the headless runner builds it, before its first step.
func SceneWorld(sc scenes.Scene, p scenes.Params, cfg physics.Config, dt float64) (*ecs.App, error) {
	app, err := ecs.NewApp(dt, 1)
	if err != nil {
		return nil, err
	}
	if err := app.AddPlugin(physics.NewPlugin(cfg)); err != nil {
		return nil, err
	}
	if err := sc.Build(app.World, p); err != nil {
		return nil, err
	}
	return app, nil
}

// WriteWorld writes every RigidBody of world and its Collider's shape in the scene format, in
// query order (the order the runner's hash uses), with no spawns. Bodies must be as physics.Spawn
// leaves them (mass and inertia derived); a dynamic body without them is refused. Shapes the
// harness cannot build — triangle meshes and SDF grids — are refused with an error wrapping
// ErrUnsupportedShape.
func WriteWorld(w io.Writer, world *ecs.World, h Header) error {
	bodies, err := snapshot(world)
	if err != nil {
		return err
	}
	return writeScene(w, h, bodies, nil)
}

// writeScene writes the bodies present from the start, then the spawns at their steps, then the
// removals of either (by their index in that order) at theirs.
func writeScene(w io.Writer, h Header, initial, spawns []*exported) error {
	bw := bufio.NewWriter(w)
	f := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	fmt.Fprintf(bw, "stagger-scene %d\nscene %s\nn %d\nseed %d\ndt %s\n", FormatVersion, h.Scene, h.N, h.Seed, f(h.Dt))
	g := h.Config.Gravity
	fmt.Fprintf(bw, "gravity %s %s %s\n", f(g[0]), f(g[1]), f(g[2]))
	fmt.Fprintf(bw, "sleep %s %s %s\n", f(h.Config.SleepTime), f(h.Config.SleepLinear), f(h.Config.SleepAngular))
	body := func(x *exported) error {
		if err := writeBody(bw, &x.body, x.shape, f); err != nil {
			return fmt.Errorf("bullet: entity %v: %w", x.entity, err)
		}
		return nil
	}
	fmt.Fprintf(bw, "bodies %d\n", len(initial))
	for _, x := range initial {
		if err := body(x); err != nil {
			return err
		}
	}
	fmt.Fprintf(bw, "spawns %d\n", len(spawns))
	for _, x := range spawns {
		fmt.Fprintf(bw, "at %d\n", x.step)
		if err := body(x); err != nil {
			return err
		}
	}
	removals := 0
	for _, xs := range [2][]*exported{initial, spawns} {
		for _, x := range xs {
			if x.removed >= 0 {
				removals++
			}
		}
	}
	fmt.Fprintf(bw, "removals %d\n", removals)
	index := 0
	for _, xs := range [2][]*exported{initial, spawns} {
		for _, x := range xs {
			if x.removed >= 0 {
				fmt.Fprintf(bw, "remove %d %d\n", x.removed, index)
			}
			index++
		}
	}
	bw.WriteString("end\n")
	return bw.Flush()
}

// writeBody writes one body's six lines.
func writeBody(w *bufio.Writer, b *physics.RigidBody, shape collide.Shape, f func(float64) string) error {
	vec := func(v mgl64.Vec3) string { return f(v[0]) + " " + f(v[1]) + " " + f(v[2]) }
	var mass float64
	var inertia mgl64.Mat3
	switch b.Kind {
	case physics.Dynamic:
		if !(b.Mass > 0) || b.Inertia == (mgl64.Mat3{}) {
			return fmt.Errorf("dynamic body has no mass properties (mass %v); export after physics.Spawn", b.Mass)
		}
		mass, inertia = b.Mass, b.Inertia
	case physics.Static, physics.Kinematic:
	default:
		return fmt.Errorf("unknown body kind %v", b.Kind)
	}
	shapeLine, err := shapeLine(shape, vec, f)
	if err != nil {
		return err
	}
	q := b.Orientation
	if q == (mgl64.Quat{}) {
		q = mgl64.QuatIdent() // a zero orientation means the identity (physics.RigidBody)
	}
	fmt.Fprintf(w, "body %s\n", b.Kind)
	fmt.Fprintf(w, "pose %s %s %s\n", vec(b.Position), f(q.W), vec(q.V))
	fmt.Fprintf(w, "velocity %s %s\n", vec(b.LinearVelocity), vec(b.AngularVelocity))
	w.WriteString("mass " + f(mass))
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			w.WriteString(" " + f(inertia.At(i, j)))
		}
	}
	fmt.Fprintf(w, "\nmaterial %s %s\n%s\n", f(b.Friction), f(b.Restitution), shapeLine)
	return nil
}

// shapeLine returns the shape line of shape (nil: no collider).
func shapeLine(shape collide.Shape, vec func(mgl64.Vec3) string, f func(float64) string) (string, error) {
	switch s := shape.(type) {
	case nil:
		return "shape none", nil
	case *collide.Sphere:
		return "shape sphere " + f(s.Radius), nil
	case *collide.Box:
		return "shape box " + vec(s.HalfExtents), nil
	case *collide.Capsule:
		return "shape capsule " + f(s.Radius) + " " + f(s.HalfHeight), nil
	case *collide.HalfSpace:
		return "shape halfspace " + vec(s.Normal) + " " + f(s.Offset), nil
	case *collide.ConvexHull:
		var line strings.Builder
		line.WriteString("shape hull " + strconv.Itoa(len(s.Vertices())))
		for _, v := range s.Vertices() {
			line.WriteString(" " + vec(v))
		}
		line.WriteString(" " + strconv.Itoa(s.NumFaces()))
		for i := 0; i < s.NumFaces(); i++ {
			n, d, _ := s.Face(i)
			line.WriteString(" " + vec(n) + " " + f(d))
		}
		return line.String(), nil
	}
	return "", fmt.Errorf("%w: %v", ErrUnsupportedShape, shape.Kind())
}
