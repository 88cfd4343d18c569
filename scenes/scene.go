package scenes

import (
	"fmt"
	"math"
	"sort"

	"github.com/stagger-physics/stagger/ecs"
)

// Params are a scene's parameters. Start from a Scene's Defaults and change what you need.
type Params struct {
	N    int     // the scene's size parameter (its meaning depends on the scene)
	Mu   float64 // friction coefficient of the scene's bodies
	E    float64 // restitution coefficient of the scene's bodies
	Seed uint64  // seed of the scene's random placement
}

// Validate reports a parameter the scene cannot use, naming it.
func (p Params) Validate() error {
	if p.N < 1 || p.N > 100000 {
		return fmt.Errorf("n must be in [1, 100000], got %d", p.N)
	}
	if math.IsNaN(p.Mu) || math.IsInf(p.Mu, 0) || p.Mu < 0 {
		return fmt.Errorf("mu must be finite and >= 0, got %v", p.Mu)
	}
	if !(p.E >= 0 && p.E <= 1) {
		return fmt.Errorf("e must be in [0, 1], got %v", p.E)
	}
	return nil
}

// Scene is a named scene.
type Scene struct {
	Name     string
	Summary  string // what the scene is, and what n means
	Defaults Params
	check    func(p Params) error // the scene's own limits on p, beyond Params.Validate; may be nil
	build    func(w *ecs.World, p Params) error
	// script lists what the scene does while it runs (spawning bodies, throwing them), in order of
	// time; empty for a scene that only builds its entities at t = 0. See Advance.
	script []cue
	// every, if not nil, is an action repeated at a fixed period for as long as the scene runs (the
	// churn scene's spawning and despawning). See Advance.
	every *repeat
}

// repeat is an action a scene repeats for ever: act(w, p, i) runs once, before the first fixed
// step that starts at or after from + i·period, for i = 0, 1, 2, ….
type repeat struct {
	from, period float64
	act          func(w *ecs.World, p Params, i int) error
}

// cue is one timed action of a scene's script: act runs once, before the first fixed step that
// starts at or after at.
type cue struct {
	at  float64 // simulated time, s
	act func(w *ecs.World, p Params) error
}

// cueTolerance, s, absorbs the rounding of a caller's simulated time: 100 steps of 0.01 s may sum
// to a hair under 1 s, and a cue at 1 s must still run before the 101st step.
const cueTolerance = 1e-9

// scriptProgress is the world resource that counts the cues of the scene's script already run, so
// that Advance depends only on the world, the parameters and t, and a rebuilt world starts over.
type scriptProgress struct {
	scene string // the scene whose script it counts
	next  int    // index of the first cue not yet run
	reps  int    // runs of the scene's repeated action so far
}

// Build validates p and adds the scene's entities to w, which must have the physics plugin.
func (s Scene) Build(w *ecs.World, p Params) error {
	if err := p.Validate(); err != nil {
		return fmt.Errorf("scenes: %s: %w", s.Name, err)
	}
	if s.check != nil {
		if err := s.check(p); err != nil {
			return fmt.Errorf("scenes: %s: %w", s.Name, err)
		}
	}
	if err := s.build(w, p); err != nil {
		return fmt.Errorf("scenes: %s: %w", s.Name, err)
	}
	if len(s.script) > 0 || s.every != nil {
		ecs.SetResource(w, scriptProgress{scene: s.Name})
	}
	return nil
}

// ScriptEnd returns the simulated time, s, of the scene's last scripted action: from then on Advance
// does nothing but repeat the scene's repeated action, if it has one (whose first run counts here).
// It is 0 for a scene without a script.
func (s Scene) ScriptEnd() float64 {
	end := 0.0
	if len(s.script) > 0 {
		end = s.script[len(s.script)-1].at
	}
	if s.every != nil {
		end = max(end, s.every.from)
	}
	return end
}

// Advance runs the scene's script up to simulated time t: every action due at or before t that has
// not run yet, in order. Call it once before each fixed step with t the simulated time at the start
// of that step (k·h before the (k+1)-th step), on the world Build built with the same p. It depends
// only on p, t and the world, so the same calls give the same world; it spawns through the public
// physics API, as a game would. On a step where nothing is due it does nothing and allocates
// nothing; a scene without a script never does anything.
//
// changed reports that the script changed the world (spawned or pushed a body): the world's energy
// then changed by the script's doing, not by a step's, and a caller that measures energy per step
// (the headless runner's energy_rise) takes the world after Advance as its new reference.
func (s Scene) Advance(w *ecs.World, p Params, t float64) (changed bool, err error) {
	if len(s.script) == 0 && s.every == nil {
		return false, nil
	}
	prog, ok := ecs.GetResource[scriptProgress](w)
	if !ok || prog.scene != s.Name {
		return false, fmt.Errorf("scenes: %s: Advance on a world the scene was not built in", s.Name)
	}
	for prog.next < len(s.script) && s.script[prog.next].at <= t+cueTolerance {
		c := s.script[prog.next]
		// Count the cue as run before acting, so a failed action is not retried on every step.
		prog.next++
		changed = true
		if err := c.act(w, p); err != nil {
			return changed, fmt.Errorf("scenes: %s: at t = %v s: %w", s.Name, c.at, err)
		}
	}
	for r := s.every; r != nil && r.from+float64(prog.reps)*r.period <= t+cueTolerance; {
		i := prog.reps
		prog.reps++
		changed = true
		if err := r.act(w, p, i); err != nil {
			return changed, fmt.Errorf("scenes: %s: at t = %v s: %w", s.Name, r.from+float64(i)*r.period, err)
		}
	}
	return changed, nil
}

// All returns every scene, sorted by name.
func All() []Scene {
	all := []Scene{arch(), archimpact(), beam(), cardhouse(), freefall(), impact(), incline(), jelly(), pile(), pyramid(), ratio(), spheres(), springboard(), stack(), throwScene(), topple(), tumble(), heap(), churn()}
	sort.Slice(all, func(i, j int) bool { return all[i].Name < all[j].Name })
	return all
}

// Names returns the names of every scene, sorted.
func Names() []string {
	var names []string
	for _, s := range All() {
		names = append(names, s.Name)
	}
	return names
}

// Lookup returns the scene called name.
func Lookup(name string) (Scene, error) {
	for _, s := range All() {
		if s.Name == name {
			return s, nil
		}
	}
	return Scene{}, fmt.Errorf("scenes: unknown scene %q (have %v)", name, Names())
}
