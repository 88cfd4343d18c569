//go:build !js

package main

import (
	"os"
	"time"

	"github.com/g3n/engine/audio"
	"github.com/g3n/engine/audio/al"
)

// voiceCount is how many knocks can sound at once.
const voiceCount = 6

// voicePitches vary the knock a little from voice to voice, so a run of impacts is not one sound
// repeated.
var voicePitches = [voiceCount]float32{1, 0.9, 1.1, 0.95, 1.05, 0.85}

// voiceRest is how long after its knock ends a voice stays unused: g3n's player feeds OpenAL from
// a goroutine that notices the end within 20 ms, and starting the player again before that
// goroutine has finished would leave two of them on one source.
const voiceRest = 80 * time.Millisecond

// alVoices are g3n audio players of the knock, used round-robin.
type alVoices struct {
	players [voiceCount]*audio.Player
	ready   [voiceCount]time.Time // when each voice may start again
	next    int
}

// openVoices opens the knock's voices on g3n's OpenAL device, or returns nil, and the game runs
// silently, when silenced is true (no sound device: OpenAL has its null backend), when g3n opened
// no device, or when a player cannot be made. It writes nothing to the console.
func openVoices(silenced bool) voices {
	if silenced || al.GetString(al.Vendor) == "" {
		return nil
	}
	f, err := os.CreateTemp("", "stagger-knock-*.wav")
	if err != nil {
		return nil
	}
	path := f.Name()
	// The players keep the file open; its name is not needed once they are made.
	defer os.Remove(path)
	_, err = f.Write(knockWAV())
	if cerr := f.Close(); err != nil || cerr != nil {
		return nil
	}
	v := &alVoices{}
	for i := range v.players {
		p, err := audio.NewPlayer(path)
		if err != nil {
			v.close()
			return nil
		}
		p.SetPitch(voicePitches[i])
		v.players[i] = p
	}
	return v
}

// play starts the next free voice at gain.
func (v *alVoices) play(gain float64) bool {
	now := time.Now()
	for k := range v.players {
		i := (v.next + k) % len(v.players)
		p := v.players[i]
		if now.Before(v.ready[i]) || p.State() == al.Playing {
			continue
		}
		p.SetGain(float32(gain))
		if p.Play() != nil {
			continue
		}
		length := time.Duration(float64(knockSeconds) / float64(voicePitches[i]) * float64(time.Second))
		v.ready[i] = now.Add(length + voiceRest)
		v.next = i + 1
		return true
	}
	return false
}

// close stops and frees the players.
func (v *alVoices) close() {
	for i, p := range v.players {
		if p != nil {
			p.Dispose()
			v.players[i] = nil
		}
	}
}
