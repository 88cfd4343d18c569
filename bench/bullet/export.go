package bullet

import (
	"bufio"
	"errors"
	"fmt"
	"io"
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
const FormatVersion = 2

// ErrUnsupportedShape is wrapped by WriteWorld's error when a collider's shape has no counterpart
// in the harness (triangle meshes and SDF grids).
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
// writes it for a fixed step dt as WriteWorld does, with the bodies its script spawns (a scripted
// scene such as impact) as spawns at the steps before which the runner's script spawns them. The
// script runs here on the world as built, without stepping it, so a cue that places its bodies
// relative to others (the blocks over the card house) places them against the scene as built
// rather than as it has settled by the cue's time.
func ExportScene(w io.Writer, sc scenes.Scene, p scenes.Params, cfg physics.Config, dt float64) error {
	app, err := SceneWorld(sc, p, cfg, dt)
	if err != nil {
		return err
	}
	spawns, err := scriptSpawns(app.World, sc, p, dt)
	if err != nil {
		return err
	}
	return writeScene(w, app.World, Header{Scene: sc.Name, N: p.N, Seed: p.Seed, Dt: dt, Config: cfg}, spawns)
}

// spawn is a body that a scene's script adds: its entity and the step (from 0) before which it
// appears.
type spawn struct {
	entity ecs.Entity
	step   int64
}

// scriptSpawns runs scene sc's script on world (built from sc with p) at the start time of every
// step of length dt up to its last cue, as the runner does before each step, and returns the
// bodies each step's cues add, in query order within a step.
func scriptSpawns(world *ecs.World, sc scenes.Scene, p scenes.Params, dt float64) ([]spawn, error) {
	end := sc.ScriptEnd()
	if end <= 0 {
		return nil, nil
	}
	bodies, err := ecs.NewQuery1[physics.RigidBody](world)
	if err != nil {
		return nil, err
	}
	seen := map[ecs.Entity]bool{}
	if err := bodies.Each(func(e ecs.Entity, _ *physics.RigidBody) { seen[e] = true }); err != nil {
		return nil, err
	}
	var out []spawn
	for step := int64(0); float64(step)*dt <= end+dt; step++ {
		changed, err := sc.Advance(world, p, float64(step)*dt)
		if err != nil {
			return nil, err
		}
		if !changed {
			continue
		}
		err = bodies.Each(func(e ecs.Entity, _ *physics.RigidBody) {
			if !seen[e] {
				seen[e] = true
				out = append(out, spawn{entity: e, step: step})
			}
		})
		if err != nil {
			return nil, err
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
	return writeScene(w, world, h, nil)
}

// writeScene writes world as WriteWorld does, the bodies of spawns (entities of world) left out
// of the bodies and written as spawns at their steps.
func writeScene(w io.Writer, world *ecs.World, h Header, spawns []spawn) error {
	bodies, err := ecs.NewQuery1[physics.RigidBody](world)
	if err != nil {
		return err
	}
	later := map[ecs.Entity]bool{}
	for _, s := range spawns {
		later[s.entity] = true
	}
	bw := bufio.NewWriter(w)
	f := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	fmt.Fprintf(bw, "stagger-scene %d\nscene %s\nn %d\nseed %d\ndt %s\n", FormatVersion, h.Scene, h.N, h.Seed, f(h.Dt))
	g := h.Config.Gravity
	fmt.Fprintf(bw, "gravity %s %s %s\n", f(g[0]), f(g[1]), f(g[2]))
	fmt.Fprintf(bw, "sleep %s %s %s\n", f(h.Config.SleepTime), f(h.Config.SleepLinear), f(h.Config.SleepAngular))
	fmt.Fprintf(bw, "bodies %d\n", bodies.Count()-len(spawns))
	body := func(e ecs.Entity, b *physics.RigidBody) error {
		var shape collide.Shape
		if c, ok := ecs.Get[physics.Collider](world, e); ok {
			shape = c.Shape
		}
		if err := writeBody(bw, b, shape, f); err != nil {
			return fmt.Errorf("bullet: entity %v: %w", e, err)
		}
		return nil
	}
	var bodyErr error
	err = bodies.Each(func(e ecs.Entity, b *physics.RigidBody) {
		if bodyErr == nil && !later[e] {
			bodyErr = body(e, b)
		}
	})
	if err != nil {
		return err
	}
	if bodyErr != nil {
		return bodyErr
	}
	fmt.Fprintf(bw, "spawns %d\n", len(spawns))
	for _, s := range spawns {
		b, ok := ecs.Get[physics.RigidBody](world, s.entity)
		if !ok {
			return fmt.Errorf("bullet: spawned entity %v has no RigidBody", s.entity)
		}
		fmt.Fprintf(bw, "at %d\n", s.step)
		if err := body(s.entity, b); err != nil {
			return err
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
