package main

import (
	"github.com/stagger-physics/stagger/ecs"
	"github.com/stagger-physics/stagger/physics"
)

// voices plays the knock: a small fixed pool of players, each started at a gain in (0, 1]. play
// reports false when every voice is still busy, and the knock is dropped.
type voices interface {
	play(gain float64) bool
	close()
}

// impactSounds turns the contact events of the simulation's steps into knocks: after each frame,
// the loudest few impacts of its steps (loudestImpacts) each start a voice at impactGain. With no
// voices (no sound device, or a browser without Web Audio) it is off and reads nothing.
type impactSounds struct {
	voices  voices
	reader  ecs.EventReader[physics.ContactEvent]
	loudest loudestImpacts
	visit   func(physics.ContactEvent) // loudest.offer, made once so a frame does not allocate it
	played  int                        // knocks started since the game opened
}

// newImpactSounds returns the sound system over v, which may be nil (off).
func newImpactSounds(v voices) *impactSounds {
	s := &impactSounds{voices: v}
	s.visit = s.loudest.offer
	return s
}

// restart forgets the reader's place: a reset builds a new world with its own events.
func (s *impactSounds) restart() {
	s.reader = ecs.EventReader[physics.ContactEvent]{}
	s.loudest.forget()
}

// quietOpening is how long, in simulated seconds, a level opens without knocks: its first step
// begins every contact it was built with, and its structure then settles into place (the jelly
// level's blocks are dropped onto their boxes), which is no impact of the player's.
const quietOpening = 1.0

// openingQuiet reports whether a frame whose first step is step (0 for the scene's first) at the
// fixed step dt falls in the level's quiet opening.
func openingQuiet(step uint64, dt float64) bool { return float64(step)*dt < quietOpening }

// frame reads the events of the frame's steps from w and starts the knocks. With quiet set (the
// level's opening, openingQuiet) it only reads.
func (s *impactSounds) frame(w *ecs.World, quiet bool) {
	if s.voices == nil {
		return
	}
	events, ok := ecs.GetResource[ecs.Events[physics.ContactEvent]](w)
	if !ok {
		return
	}
	s.reader.Read(events, s.visit)
	if quiet {
		s.loudest.forget()
		return
	}
	for _, g := range s.loudest.take() {
		if s.voices.play(g) {
			s.played++
		}
	}
}

// close releases the voices.
func (s *impactSounds) close() {
	if s.voices != nil {
		s.voices.close()
		s.voices = nil
	}
}
