package main

// openVoices returns nil in the browser: g3n's browser application has no audio, so the game runs
// silently there.
func openVoices(bool) voices { return nil }
