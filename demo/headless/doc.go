// Package headless is the scene runner behind `go run ./demo -headless`: it builds a named scene,
// simulates it without a window, and measures what the shared SCENES.md defines (step time, drift,
// drop, energy, determinism hash). It imports no g3n package, so it runs on machines without OpenGL.
package headless
