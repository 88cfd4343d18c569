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

// frame reads the events of the frame's steps from w and starts the knocks. With quiet set (the
// frame ran the scene's first step, whose contacts are where the scene was built touching, not
// impacts) it only reads.
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
