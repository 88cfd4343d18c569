//go:build !js

package main

import "os"

// silenceWithoutSoundDevice makes OpenAL use its null backend when the machine has no sound
// device (no /dev/snd, as under Xvfb in CI), unless ALSOFT_DRIVERS is already set: g3n opens an
// audio device at start, and OpenAL's ALSA backend would otherwise print a dozen lines of errors
// to the console. It reports whether it did so; the game then runs silently, without impact
// sounds. It must run before the g3n application starts.
func silenceWithoutSoundDevice() bool {
	if _, set := os.LookupEnv("ALSOFT_DRIVERS"); set {
		return false
	}
	if _, err := os.Stat("/dev/snd"); err == nil {
		return false
	}
	_ = os.Setenv("ALSOFT_DRIVERS", "null")
	return true
}
