package main

// silenceWithoutSoundDevice has nothing to do in the browser: g3n's browser application opens no
// OpenAL device, so no audio library can write errors to the console; the knock plays through Web
// Audio instead (sound_js.go), which ignores the report.
func silenceWithoutSoundDevice() bool { return true }
