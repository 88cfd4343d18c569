package main

// silenceWithoutSoundDevice has nothing to do in the browser: g3n's browser application opens no
// OpenAL device, so no audio library can write errors to the console. The game is silent there
// (openVoices), so it reports true.
func silenceWithoutSoundDevice() bool { return true }
