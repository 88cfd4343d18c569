package ecs

import (
	"errors"
	"fmt"
	"strconv"
)

// Stage is a phase of an App update. Stages run in ascending order; systems within a stage run in
// the order they were added.
type Stage int

// The stages of an App update, in the order they run.
const (
	// Startup systems run once, before anything else in the first update.
	Startup Stage = iota
	// PreUpdate systems run once per update, before the fixed steps.
	PreUpdate
	// FixedUpdate systems run once per fixed step owed by the clock, zero or more times per update.
	FixedUpdate
	// PostUpdate systems run once per update, after the fixed steps.
	PostUpdate
)

// stageCount is the number of valid stages.
const stageCount = int(PostUpdate) + 1

// String returns the stage's name, or "Stage(n)" for a value that is not a stage.
func (s Stage) String() string {
	switch s {
	case Startup:
		return "Startup"
	case PreUpdate:
		return "PreUpdate"
	case FixedUpdate:
		return "FixedUpdate"
	case PostUpdate:
		return "PostUpdate"
	}
	return "Stage(" + strconv.Itoa(int(s)) + ")"
}

// valid reports whether s is one of the declared stages.
func (s Stage) valid() bool { return s >= Startup && int(s) < stageCount }

// System is a unit of work run by an App's schedule. A non-nil error stops the update that runs it.
type System func(w *World) error

// namedSystem is a system with its unique name.
type namedSystem struct {
	name string
	fn   System
}

// schedule holds the systems of each stage in the order they were added.
type schedule struct {
	stages [stageCount][]namedSystem
	names  map[string]Stage
}

// add appends fn to stage under a name that must be non-empty and unused.
func (s *schedule) add(stage Stage, name string, fn System) error {
	switch {
	case !stage.valid():
		return fmt.Errorf("ecs: system %q: invalid stage %v", name, stage)
	case name == "":
		return errors.New("ecs: system name must not be empty")
	case fn == nil:
		return fmt.Errorf("ecs: system %q: nil function", name)
	}
	if prev, ok := s.names[name]; ok {
		return fmt.Errorf("ecs: system %q: name already used in stage %v", name, prev)
	}
	if s.names == nil {
		s.names = make(map[string]Stage)
	}
	s.names[name] = stage
	s.stages[stage] = append(s.stages[stage], namedSystem{name: name, fn: fn})
	return nil
}

// run runs the systems of stage in order, starting with the one at index from, and returns the
// index after the last system it called. Systems added to the stage while it runs are not run by
// this call. The first error stops the stage and is returned wrapped with the stage and system.
func (s *schedule) run(stage Stage, w *World, from int) (int, error) {
	systems := s.stages[stage]
	for i := from; i < len(systems); i++ {
		sys := systems[i]
		if err := sys.fn(w); err != nil {
			return i + 1, fmt.Errorf("ecs: stage %v, system %q: %w", stage, sys.name, err)
		}
	}
	return len(systems), nil
}

// len returns the number of systems in stage.
func (s *schedule) len(stage Stage) int { return len(s.stages[stage]) }
