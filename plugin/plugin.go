package plugin

import (
	"errors"

	"github.com/g3n/engine/core"
	"github.com/g3n/engine/material"
	"github.com/stagger-physics/stagger/ecs"
	"github.com/stagger-physics/stagger/physics"
)

// SyncSystemName is the name of the post-update system that copies poses into nodes.
const SyncSystemName = "plugin.sync"

// Config holds the plugin's settings.
type Config struct {
	// Physics is the simulation's configuration.
	Physics physics.Config
	// AutoVisuals gives every entity that has a RigidBody and a Collider but no Visual a mesh of its
	// shape, and every ReducedDeformable without a DeformableVisual a mesh of its surface, added
	// under the scene node, and removes them when the entity is despawned.
	AutoVisuals bool
}

// DefaultConfig returns Earth gravity and automatic visuals.
func DefaultConfig() Config {
	return Config{Physics: physics.DefaultConfig(), AutoVisuals: true}
}

// Plugin is the stagger plugin for a g3n game. Add it to an ecs.App with AddPlugin.
type Plugin struct {
	scene  core.INode
	config Config
	sync   *syncer
}

// New returns the plugin for scene, the node under which automatic visuals are placed.
func New(scene core.INode, config Config) *Plugin {
	return &Plugin{scene: scene, config: config}
}

// Build implements ecs.Plugin: it adds the physics plugin, registers Visual and DeformableVisual,
// and adds the sync system to the post-update stage.
func (p *Plugin) Build(app *ecs.App) error {
	if p.scene == nil {
		return errors.New("plugin: the scene node is nil")
	}
	if err := app.AddPlugin(physics.NewPlugin(p.config.Physics)); err != nil {
		return err
	}
	if err := ecs.Register[Visual](app.World); err != nil {
		return err
	}
	if err := ecs.Register[DeformableVisual](app.World); err != nil {
		return err
	}
	s, err := newSyncer(app.World, p.scene, p.config.AutoVisuals)
	if err != nil {
		return err
	}
	p.sync = s
	return app.AddSystem(ecs.PostUpdate, SyncSystemName, s.run)
}

// materialFor returns the material of an automatic visual for entity e.
func materialFor(e ecs.Entity) material.IMaterial {
	return material.NewStandard(paletteColor(e.Index()))
}
