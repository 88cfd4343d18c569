package main

// silenceWithoutSoundDevice has nothing to do in the browser: g3n's browser application opens no
// OpenAL device, so no audio library can write errors to the console.
func silenceWithoutSoundDevice() {}
