package physics

import (
	"github.com/stagger-physics/stagger/ecs"
)

// StepSystemName is the name of the fixed-update system that steps the simulation.
const StepSystemName = "physics.step"

// Plugin registers the physics components (RigidBody, Collider, ReducedDeformable), the
// *Simulation resource, the ecs.Events[ContactEvent], ecs.Events[SensorEvent],
// ecs.Events[NonFiniteEvent] and ecs.Events[SolveFailedEvent] resources, and the fixed-update
// system that steps the simulation with the App's fixed step and then sends the step's contact,
// sensor, non-finite and failed-solve events.
type Plugin struct {
	Config Config
}

// NewPlugin returns the physics plugin with the given settings.
func NewPlugin(config Config) *Plugin { return &Plugin{Config: config} }

// Build implements ecs.Plugin.
func (p *Plugin) Build(app *ecs.App) error {
	w := app.World
	if err := ecs.Register[RigidBody](w); err != nil {
		return err
	}
	if err := ecs.Register[Collider](w); err != nil {
		return err
	}
	if err := ecs.Register[ReducedDeformable](w); err != nil {
		return err
	}
	sim, err := NewSimulation(w, p.Config)
	if err != nil {
		return err
	}
	ecs.SetResource(w, sim)
	if err := ecs.AddEvent[ContactEvent](app); err != nil {
		return err
	}
	if err := ecs.AddEvent[SensorEvent](app); err != nil {
		return err
	}
	if err := ecs.AddEvent[NonFiniteEvent](app); err != nil {
		return err
	}
	if err := ecs.AddEvent[SolveFailedEvent](app); err != nil {
		return err
	}
	return app.AddSystem(ecs.FixedUpdate, StepSystemName, func(w *ecs.World) error {
		t, ok := ecs.GetResource[ecs.FixedTime](w)
		if !ok {
			return fieldError("ecs.FixedTime", "resource is missing")
		}
		if err := sim.Step(t.Step, t.Tick); err != nil {
			return err
		}
		out, ok := ecs.GetResource[ecs.Events[ContactEvent]](w)
		if !ok {
			return fieldError("ecs.Events[physics.ContactEvent]", "resource is missing")
		}
		sim.events.emit(sim, out)
		sensorOut, ok := ecs.GetResource[ecs.Events[SensorEvent]](w)
		if !ok {
			return fieldError("ecs.Events[physics.SensorEvent]", "resource is missing")
		}
		sim.sensors.emit(sim, sensorOut)
		if bad := sim.NonFiniteBodies(); len(bad) > 0 {
			nf, ok := ecs.GetResource[ecs.Events[NonFiniteEvent]](w)
			if !ok {
				return fieldError("ecs.Events[physics.NonFiniteEvent]", "resource is missing")
			}
			for _, e := range bad {
				nf.Send(NonFiniteEvent{Entity: e, Tick: t.Tick})
			}
		}
		if failed := sim.FailedBodies(); len(failed) > 0 {
			fe, ok := ecs.GetResource[ecs.Events[SolveFailedEvent]](w)
			if !ok {
				return fieldError("ecs.Events[physics.SolveFailedEvent]", "resource is missing")
			}
			for _, e := range failed {
				fe.Send(e)
			}
		}
		return nil
	})
}

// SimulationOf returns the world's simulation, added by the Plugin.
func SimulationOf(w *ecs.World) (*Simulation, bool) {
	s, ok := ecs.GetResource[*Simulation](w)
	if !ok {
		return nil, false
	}
	return *s, true
}
