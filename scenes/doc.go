// Package scenes holds stagger's named scenes. Each is built only through the public API, as a game
// would build it, and serves the demo, the headless runner, the validation tests and the
// benchmarks alike. A scene has a name, one size parameter n, defaults, and a physical criterion for
// what it means for it to behave (docs/scenes.md describes every scene and its criterion).
package scenes
