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
	return nil
}

// All returns every scene, sorted by name.
func All() []Scene {
	all := []Scene{arch(), cardhouse(), freefall(), incline(), pile(), pyramid(), ratio(), spheres(), stack(), topple(), tumble()}
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
