package ecs

import (
	"errors"
	"fmt"
)

var errAppNotReady = errors.New("ecs: App has no World or Clock; create it with NewApp")
var errReentrantUpdate = errors.New("ecs: App.Update or App.StepFixed called from a running system")

// App ties a World, a FixedClock and a schedule of systems together. Plugins configure it, and
// Update or StepFixed run it. An App is not safe for concurrent use.
type App struct {
	// World is the world the systems run on.
	World *World
	// Clock decides how many fixed steps each Update runs.
	Clock *FixedClock

	schedule    schedule
	plugins     []Plugin
	startupNext int  // index of the first Startup system that has not run yet
	running     bool // an Update or StepFixed is in progress
}

// NewApp returns an App with an empty World, a FixedClock with the given step length (seconds)
// and cap on fixed steps per Update, and a FixedTime resource. It fails if the clock settings are
// invalid; see NewFixedClock.
func NewApp(step float64, maxStepsPerFrame int) (*App, error) {
	c, err := NewFixedClock(step, maxStepsPerFrame)
	if err != nil {
		return nil, fmt.Errorf("ecs: NewApp: %w", err)
	}
	a := &App{World: NewWorld(), Clock: c}
	SetResource(a.World, FixedTime{Step: step})
	return a, nil
}

// AddSystem appends fn to stage under name. The name must be non-empty and unique within the App,
// fn must not be nil, and stage must be one of the declared stages. A system added while its stage
// is running first runs the next time that stage runs; a Startup system added after Startup has
// run runs at the start of the next Update or StepFixed.
func (a *App) AddSystem(stage Stage, name string, fn System) error {
	if a == nil {
		return errAppNotReady
	}
	return a.schedule.add(stage, name, fn)
}

// Update advances the clock by frameSeconds and runs one frame: the Startup systems that have not
// run yet (all of them on the first call), then PreUpdate, then FixedUpdate once per fixed step
// the clock hands out, with the FixedTime resource updated before each, then PostUpdate. Systems of
// a stage run in the order they were added.
//
// The first system error stops the update and is returned wrapped with the stage and system
// name. Every Startup system runs at most once, even if it fails. Fixed steps of this frame that
// had not started when an error occurred are counted as dropped by the clock. An invalid
// frameSeconds (negative, NaN or infinite) is an error and runs nothing.
func (a *App) Update(frameSeconds float64) error {
	if err := a.begin(); err != nil {
		return err
	}
	defer a.end()
	base := a.Clock.Ticks()
	steps, err := a.Clock.Advance(frameSeconds)
	if err != nil {
		return fmt.Errorf("ecs: App.Update: %w", err)
	}
	ran := 0
	err = a.frame(lastTick(base), func() error {
		for i := 0; i < steps; i++ {
			a.publishTime(base + uint64(i))
			ran++
			if _, err := a.schedule.run(FixedUpdate, a.World, 0); err != nil {
				return err
			}
		}
		return nil
	})
	a.Clock.abandon(steps - ran)
	return err
}

// StepFixed runs exactly one fixed step regardless of frame time: the Startup systems that have
// not run yet, PreUpdate, one FixedUpdate with the FixedTime resource updated, and PostUpdate. It
// leaves the clock's accumulated remainder alone and counts the step in Ticks. It is meant for
// headless runners and tests. Errors are reported as by Update.
func (a *App) StepFixed() error {
	if err := a.begin(); err != nil {
		return err
	}
	defer a.end()
	return a.frame(lastTick(a.Clock.Ticks()), func() error {
		a.publishTime(a.Clock.tick())
		_, err := a.schedule.run(FixedUpdate, a.World, 0)
		return err
	})
}

// begin checks that the App can run and marks it running.
func (a *App) begin() error {
	if a == nil || a.World == nil || a.Clock == nil {
		return errAppNotReady
	}
	if a.running {
		return errReentrantUpdate
	}
	a.running = true
	return nil
}

func (a *App) end() { a.running = false }

// lastTick returns the index of the last fixed step run when ticks steps have run, or 0 if none.
func lastTick(ticks uint64) uint64 {
	if ticks == 0 {
		return 0
	}
	return ticks - 1
}

// frame publishes FixedTime for the last fixed step run, then runs pending Startup systems,
// PreUpdate, fixed, and PostUpdate, stopping at the first error.
func (a *App) frame(last uint64, fixed func() error) error {
	a.publishTime(last)
	// Startup systems added by Startup systems run in the same pass.
	for a.startupNext < a.schedule.len(Startup) {
		next, err := a.schedule.run(Startup, a.World, a.startupNext)
		a.startupNext = next
		if err != nil {
			return err
		}
	}
	if _, err := a.schedule.run(PreUpdate, a.World, 0); err != nil {
		return err
	}
	if err := fixed(); err != nil {
		return err
	}
	_, err := a.schedule.run(PostUpdate, a.World, 0)
	return err
}

// publishTime stores the FixedTime resource for the given tick.
func (a *App) publishTime(tick uint64) {
	SetResource(a.World, FixedTime{Step: a.Clock.Step(), Tick: tick, Alpha: a.Clock.Alpha()})
}
