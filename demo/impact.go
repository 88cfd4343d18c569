package main

import (
	"math"

	"github.com/stagger-physics/stagger/ecs"
	"github.com/stagger-physics/stagger/physics"
)

// Impact loudness. A contact that begins with a normal impulse below impactThreshold makes no
// sound: bodies settling, sliding blocks touching again and a stack's own weight all stay under
// it (a block of the demo's levels touching down at rest carries about 1 N·s in its first step),
// while a thrown ball striking a block carries tens. Above it the gain grows with the impulse's
// logarithm, as loudness is heard, from impactMinGain to full gain at impactFull.
const (
	impactThreshold = 2.0   // N·s
	impactFull      = 300.0 // N·s
	impactMinGain   = 0.15
	// maxImpactsPerFrame is the most knocks one frame starts: a collapsing tower begins hundreds
	// of contacts at once, and the loudest few are what is heard.
	maxImpactsPerFrame = 4
)

// impactGain maps a contact's normal impulse (N·s) to a gain in [0, 1]: 0 below impactThreshold
// (and for a non-finite impulse), then rising with log(impulse) from impactMinGain to 1 at
// impactFull, and 1 beyond.
func impactGain(impulse float64) float64 {
	if !(impulse >= impactThreshold) || math.IsInf(impulse, 1) {
		return 0
	}
	f := math.Log(impulse/impactThreshold) / math.Log(impactFull/impactThreshold)
	return impactMinGain + (1-impactMinGain)*math.Min(1, f)
}

// maxPendingImpacts bounds the contacts that loudestImpacts watches for a second step.
const maxPendingImpacts = 64

// loudestImpacts keeps the gains of the loudest maxImpactsPerFrame impacts of one frame, in a
// fixed array, so many impacts in one frame allocate nothing. An impact is a contact's impulse in
// its first two steps: a speculative contact may begin with a small impulse and deliver the
// stopping one in the next step, so a contact that began quietly is watched (up to
// maxPendingImpacts of them) until its next event. Later steps of a contact carry the weight it
// bears, which is no impact however large.
type loudestImpacts struct {
	gains   [maxImpactsPerFrame]float64
	n       int
	pending [maxPendingImpacts][2]ecs.Entity
	np      int
}

// offer considers ev, one contact event of a step, the steps' events offered in order.
func (l *loudestImpacts) offer(ev physics.ContactEvent) {
	switch ev.Phase {
	case physics.ContactBegan:
		if g := impactGain(ev.Impulse); g > 0 {
			l.keep(g)
		} else if l.np < len(l.pending) {
			l.pending[l.np] = [2]ecs.Entity{ev.A, ev.B}
			l.np++
		}
	case physics.ContactPersisted, physics.ContactEnded:
		if l.np == 0 {
			return
		}
		for i := 0; i < l.np; i++ {
			if l.pending[i] == [2]ecs.Entity{ev.A, ev.B} {
				l.np--
				l.pending[i] = l.pending[l.np]
				l.keep(impactGain(ev.Impulse)) // 0 for an ended contact
				return
			}
		}
	}
}

// keep adds gain g (if audible) among the loudest.
func (l *loudestImpacts) keep(g float64) {
	if g == 0 {
		return
	}
	if l.n < len(l.gains) {
		l.gains[l.n] = g
		l.n++
		return
	}
	quietest := 0
	for i := 1; i < l.n; i++ {
		if l.gains[i] < l.gains[quietest] {
			quietest = i
		}
	}
	if g > l.gains[quietest] {
		l.gains[quietest] = g
	}
}

// forget drops the gains kept and the contacts watched: the events offered were no impacts.
func (l *loudestImpacts) forget() { l.n, l.np = 0, 0 }

// take returns the kept gains, loudest first, and empties l for the next frame. The slice is
// l's own array: it is valid until the next offer.
func (l *loudestImpacts) take() []float64 {
	s := l.gains[:l.n]
	for i := 1; i < len(s); i++ { // insertion sort: a handful of values
		for j := i; j > 0 && s[j] > s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
	l.n = 0
	return s
}
