package ecs_test

import (
	"fmt"

	"github.com/stagger-physics/stagger/ecs"
)

type Position struct{ X float64 }
type Velocity struct{ X float64 }

// MotionPlugin registers its components and adds a fixed-update system that integrates them.
type MotionPlugin struct{}

func (MotionPlugin) Build(app *ecs.App) error {
	if err := ecs.Register[Position](app.World); err != nil {
		return err
	}
	if err := ecs.Register[Velocity](app.World); err != nil {
		return err
	}
	q, err := ecs.NewQuery2[Position, Velocity](app.World)
	if err != nil {
		return err
	}
	return app.AddSystem(ecs.FixedUpdate, "motion.integrate", func(w *ecs.World) error {
		t, _ := ecs.GetResource[ecs.FixedTime](w)
		return q.Each(func(_ ecs.Entity, p *Position, v *Velocity) {
			p.X += v.X * t.Step
		})
	})
}

func Example() {
	app, err := ecs.NewApp(0.25, 8)
	if err != nil {
		panic(err)
	}
	if err := app.AddPlugin(MotionPlugin{}); err != nil {
		panic(err)
	}
	e := app.World.Spawn()
	_ = ecs.Add(app.World, e, Position{X: 0})
	_ = ecs.Add(app.World, e, Velocity{X: 2})

	// One second of frame time is four fixed steps of 0.25 s.
	if err := app.Update(1.0); err != nil {
		panic(err)
	}
	p, _ := ecs.Get[Position](app.World, e)
	fmt.Printf("%v at x=%.2f after %d fixed steps\n", e, p.X, app.Clock.Ticks())
	// Output: entity 0v1 at x=2.00 after 4 fixed steps
}
