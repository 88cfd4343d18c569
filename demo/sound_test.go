package main

import (
	"encoding/binary"
	"math"
	"sort"
	"testing"

	"github.com/stagger-physics/stagger/ecs"
	"github.com/stagger-physics/stagger/physics"
)

// TestImpactGain: nothing below the threshold (and nothing for a non-finite or negative impulse),
// impactMinGain at it, the midpoint of the gain range at the geometric mean of threshold and
// full, full gain from impactFull on, and never decreasing in between.
func TestImpactGain(t *testing.T) {
	for _, j := range []float64{0, 0.5, impactThreshold * 0.999, -3, math.NaN(), math.Inf(1), math.Inf(-1)} {
		if g := impactGain(j); g != 0 {
			t.Errorf("impactGain(%v) = %v, want 0", j, g)
		}
	}
	if g := impactGain(impactThreshold); math.Abs(g-impactMinGain) > 1e-12 {
		t.Errorf("at the threshold: %v, want %v", g, impactMinGain)
	}
	mid := math.Sqrt(impactThreshold * impactFull)
	if g, want := impactGain(mid), (1+impactMinGain)/2; math.Abs(g-want) > 1e-12 {
		t.Errorf("at %v N·s: %v, want %v", mid, g, want)
	}
	for _, j := range []float64{impactFull, 2 * impactFull, 1e9} {
		if g := impactGain(j); g != 1 {
			t.Errorf("impactGain(%v) = %v, want 1", j, g)
		}
	}
	prev := 0.0
	for j := 0.01; j < 1e5; j *= 1.01 {
		g := impactGain(j)
		if g < prev || g > 1 {
			t.Fatalf("impactGain(%v) = %v after %v: not monotone within [0, 1]", j, g, prev)
		}
		prev = g
	}
}

// TestLoudestImpacts: of a frame's events only contacts that began audibly count, and the kept
// gains are the largest maxImpactsPerFrame of them, loudest first, as a full sort finds; the next
// frame starts empty, and a warm frame allocates nothing.
func TestLoudestImpacts(t *testing.T) {
	var l loudestImpacts
	var want []float64
	w := ecs.NewWorld()
	a, b := w.Spawn(), w.Spawn()
	impulses := []float64{5, 0.3, 80, 2.5, 1000, 12, 40, 3, 7, 500, 1.9}
	for i, j := range impulses {
		l.offer(physics.ContactEvent{Phase: physics.ContactBegan, Impulse: j})
		// Another pair's contact, persisting however hard pressed, or ended, is no impact.
		l.offer(physics.ContactEvent{Phase: physics.ContactPersisted, A: a, B: b, Impulse: 1e4 + float64(i)})
		l.offer(physics.ContactEvent{Phase: physics.ContactEnded, A: a, B: b})
		if g := impactGain(j); g > 0 {
			want = append(want, g)
		}
	}
	sort.Sort(sort.Reverse(sort.Float64Slice(want)))
	want = want[:maxImpactsPerFrame]
	got := l.take()
	if len(got) != len(want) {
		t.Fatalf("kept %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("kept %v, want %v", got, want)
		}
	}
	if rest := l.take(); len(rest) != 0 {
		t.Errorf("the next frame starts with %v", rest)
	}
	ev := physics.ContactEvent{Phase: physics.ContactBegan, Impulse: 50}
	if a := testing.AllocsPerRun(100, func() {
		for i := 0; i < 20; i++ {
			l.offer(ev)
		}
		l.take()
	}); a != 0 {
		t.Errorf("a frame of impacts allocates %v times", a)
	}
}

// TestKnockWAV reads the knock's bytes as a WAV reader would: a RIFF/WAVE file of 16-bit mono PCM
// at knockRate whose sizes agree with its length; and checks the sound itself: it starts and ends
// at silence, peaks within its first 20 ms at 90 % of full scale, and has decayed by its last
// 20 ms to under 5 % of its first 20 ms's RMS level.
func TestKnockWAV(t *testing.T) {
	b := knockWAV()
	le := binary.LittleEndian
	if len(b) < 44 || string(b[0:4]) != "RIFF" || string(b[8:16]) != "WAVEfmt " || string(b[36:40]) != "data" {
		t.Fatalf("not a canonical WAV header: % x", b[:min(len(b), 44)])
	}
	if le.Uint32(b[4:]) != uint32(len(b)-8) || le.Uint32(b[40:]) != uint32(len(b)-44) {
		t.Errorf("sizes %d and %d for a %d-byte file", le.Uint32(b[4:]), le.Uint32(b[40:]), len(b))
	}
	if le.Uint16(b[20:]) != 1 || le.Uint16(b[22:]) != 1 || le.Uint32(b[24:]) != knockRate || le.Uint16(b[34:]) != 16 ||
		le.Uint32(b[28:]) != 2*knockRate || le.Uint16(b[32:]) != 2 {
		t.Errorf("format: % x, want PCM mono 16-bit at %d Hz", b[20:36], knockRate)
	}
	n := (len(b) - 44) / 2
	if want := int(knockRate * knockSeconds); n != want {
		t.Errorf("%d samples, want %d", n, want)
	}
	s := make([]float64, n)
	peakAt, peak := 0, 0.0
	for i := range s {
		s[i] = float64(int16(le.Uint16(b[44+2*i:]))) / math.MaxInt16
		if math.Abs(s[i]) > peak {
			peakAt, peak = i, math.Abs(s[i])
		}
	}
	if math.Abs(s[0]) > 0.01 || math.Abs(s[n-1]) > 0.01 {
		t.Errorf("the knock starts at %.3f and ends at %.3f, want silence", s[0], s[n-1])
	}
	if math.Abs(peak-0.9) > 0.001 || peakAt > knockRate/50 {
		t.Errorf("peak %.3f at sample %d, want 0.9 within 20 ms", peak, peakAt)
	}
	rms := func(x []float64) float64 {
		sum := 0.0
		for _, v := range x {
			sum += v * v
		}
		return math.Sqrt(sum / float64(len(x)))
	}
	w := knockRate / 50
	if first, last := rms(s[:w]), rms(s[n-w:]); last > 0.05*first {
		t.Errorf("RMS %.4f in the last 20 ms against %.4f in the first: the knock does not decay", last, first)
	}
}

// TestImpactsInTheSecondStep: a contact that began quietly and carries an audible impulse in its
// next step is an impact at that impulse's gain; one that persists loudly without having begun
// quietly the step before (a load borne), its third step, and one that ended are not; and
// forget drops the contacts watched.
func TestImpactsInTheSecondStep(t *testing.T) {
	w := ecs.NewWorld()
	var ents [11]ecs.Entity
	for i := range ents {
		ents[i] = w.Spawn()
	}
	ev := func(ph physics.ContactPhase, a, b int, j float64) physics.ContactEvent {
		return physics.ContactEvent{Phase: ph, A: ents[a], B: ents[b], Impulse: j}
	}
	var l loudestImpacts
	// Step 1: pairs (1, 2), (3, 4) and (5, 6) begin quietly; (7, 8) bears a load.
	for _, e := range []physics.ContactEvent{ev(physics.ContactBegan, 1, 2, 0.4), ev(physics.ContactBegan, 3, 4, 0),
		ev(physics.ContactBegan, 5, 6, 1), ev(physics.ContactPersisted, 7, 8, 80)} {
		l.offer(e)
	}
	if got := l.take(); len(got) != 0 {
		t.Fatalf("step 1 kept %v, want nothing", got)
	}
	// Step 2: (1, 2) is struck, (3, 4) ends, (5, 6) persists quietly, (7, 8) still bears its load.
	for _, e := range []physics.ContactEvent{ev(physics.ContactPersisted, 1, 2, 30), ev(physics.ContactEnded, 3, 4, 0),
		ev(physics.ContactPersisted, 5, 6, 1.5), ev(physics.ContactPersisted, 7, 8, 80)} {
		l.offer(e)
	}
	if got := l.take(); len(got) != 1 || got[0] != impactGain(30) {
		t.Fatalf("step 2 kept %v, want [%v]", got, impactGain(30))
	}
	// Step 3: every pair is past its second step.
	for _, e := range []physics.ContactEvent{ev(physics.ContactPersisted, 1, 2, 50), ev(physics.ContactPersisted, 5, 6, 40)} {
		l.offer(e)
	}
	if got := l.take(); len(got) != 0 {
		t.Fatalf("step 3 kept %v, want nothing", got)
	}
	l.offer(ev(physics.ContactBegan, 9, 10, 0))
	l.forget()
	l.offer(ev(physics.ContactPersisted, 9, 10, 50))
	if got := l.take(); len(got) != 0 {
		t.Fatalf("after forget kept %v, want nothing", got)
	}
}

// countingVoices stands in for the audio device: it counts the knocks and their gains.
type countingVoices struct{ gains []float64 }

func (c *countingVoices) play(g float64) bool { c.gains = append(c.gains, g); return true }
func (c *countingVoices) close()              {}

// TestLevelsKnockOnlyWhenHit runs every level headless through the sound system, its events read
// after every step as the window reads them after every frame: left alone for 3 s, its quiet
// opening (the jelly blocks' drop onto their boxes) and settling included, no level makes a
// sound; then a ball thrown at its middle must make at least one.
func TestLevelsKnockOnlyWhenHit(t *testing.T) {
	for _, l := range levels {
		r := startLevel(t, l)
		v := &countingVoices{}
		s := newImpactSounds(v)
		for i := 0; i < 300; i++ {
			r.run(r.dt)
			s.frame(r.app.World, openingQuiet(uint64(i), r.dt))
		}
		if len(v.gains) != 0 {
			t.Errorf("%s at rest knocked %d times (gains %.2f)", l.title, len(v.gains), v.gains)
		}
		c := r.centre()
		r.throwFrom(projectiles[0], eye(c), c, 0.5)
		for i := 0; i < 200; i++ {
			r.run(r.dt)
			s.frame(r.app.World, false)
		}
		if len(v.gains) == 0 {
			t.Errorf("%s: a ball thrown at it made no sound", l.title)
		}
		t.Logf("%s: %d knocks after the throw, loudest %.2f", l.title, len(v.gains), slicesMax(v.gains))
	}
}

// slicesMax is the largest of x, 0 for none.
func slicesMax(x []float64) float64 {
	m := 0.0
	for _, v := range x {
		m = math.Max(m, v)
	}
	return m
}
