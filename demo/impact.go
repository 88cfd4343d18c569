package main

import (
	"math"

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

// loudestImpacts keeps the gains of the loudest maxImpactsPerFrame contacts begun in one frame, in
// a fixed array, so many impacts in one frame allocate nothing.
type loudestImpacts struct {
	gains [maxImpactsPerFrame]float64
	n     int
}

// offer considers ev: a contact that began with an audible impulse.
func (l *loudestImpacts) offer(ev physics.ContactEvent) {
	if ev.Phase != physics.ContactBegan {
		return
	}
	g := impactGain(ev.Impulse)
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
