package main

import (
	"encoding/binary"
	"math"
)

// The knock is the impact sound: a short percussive tone made at start-up, so that the game ships
// no audio asset. It is 16-bit mono PCM at knockRate samples per second, knockSeconds long.
const (
	knockRate    = 22050
	knockSeconds = 0.16
)

// knockModes are the knock's partials, as a struck block rings: frequency (Hz), amplitude, and
// decay rate (1/s). The higher partials die faster, which is what makes it sound wooden.
var knockModes = [...]struct{ freq, amp, decay float64 }{
	{190, 1.0, 28},
	{455, 0.6, 45},
	{1170, 0.35, 80},
	{2630, 0.2, 140},
}

// knockSamples returns the knock's samples at knockRate, its loudest at 0.9 of full scale (±1),
// leaving the gain to the impact. Its noise comes from a fixed linear congruential sequence, so
// the sound is the same on every run.
func knockSamples() []float64 {
	n := int(knockRate * knockSeconds)
	samples := make([]float64, n)
	peak := 0.0
	seed := uint32(0x9e3779b9)
	for i := range samples {
		t := float64(i) / knockRate
		v := 0.0
		for _, m := range knockModes {
			v += m.amp * math.Exp(-m.decay*t) * math.Sin(2*math.Pi*m.freq*t)
		}
		// A burst of noise, gone within a few milliseconds, is the strike itself.
		seed = seed*1664525 + 1013904223
		noise := float64(int32(seed)) / math.MaxInt32
		v += 0.5 * noise * math.Exp(-400*t)
		// A 1 ms rise and a 10 ms fade at the end keep the edges from clicking.
		v *= math.Min(1, t/0.001) * math.Min(1, float64(n-1-i)/(0.01*knockRate))
		samples[i] = v
		peak = math.Max(peak, math.Abs(v))
	}
	for i := range samples {
		samples[i] *= 0.9 / peak
	}
	return samples
}

// knockWAV returns the knock (knockSamples) as the bytes of a WAV file (RIFF, PCM, mono, 16 bit).
func knockWAV() []byte {
	samples := knockSamples()
	n := len(samples)
	const header = 44
	data := 2 * n
	b := make([]byte, header+data)
	copy(b[0:], "RIFF")
	binary.LittleEndian.PutUint32(b[4:], uint32(header-8+data))
	copy(b[8:], "WAVEfmt ")
	binary.LittleEndian.PutUint32(b[16:], 16) // the fmt chunk's size
	binary.LittleEndian.PutUint16(b[20:], 1)  // PCM
	binary.LittleEndian.PutUint16(b[22:], 1)  // mono
	binary.LittleEndian.PutUint32(b[24:], knockRate)
	binary.LittleEndian.PutUint32(b[28:], knockRate*2) // bytes per second
	binary.LittleEndian.PutUint16(b[32:], 2)           // bytes per frame
	binary.LittleEndian.PutUint16(b[34:], 16)          // bits per sample
	copy(b[36:], "data")
	binary.LittleEndian.PutUint32(b[40:], uint32(data))
	for i, v := range samples {
		binary.LittleEndian.PutUint16(b[header+2*i:], uint16(int16(math.Round(v*math.MaxInt16))))
	}
	return b
}
