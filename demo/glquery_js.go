//go:build js

package main

// framebufferSamples returns −1 in the browser: the canvas's antialiasing is WebGL's choice, and
// the game does not ask.
func framebufferSamples() int { return -1 }

// glState returns nil in the browser, where the game does not read the context's state back.
func glState() map[string]int { return nil }
