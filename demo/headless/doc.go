// Package headless is the scene runner behind `go run ./demo -headless`: it builds a named scene,
// simulates it without a window, and measures it (step time, drift, drop, energy, determinism
// hash; docs/scenes.md, "The runner"). It imports no g3n package, so it runs on machines without OpenGL.
package headless
