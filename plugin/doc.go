// Package plugin is stagger's face to the g3n engine: an ecs.Plugin that adds the physics and keeps
// g3n scene nodes at the poses of their bodies.
//
// # Frames
//
// The physics is z-up; g3n is y-up. The one conversion, in frame.go, is the proper rotation C by
// −90° about x: a physics vector (x, y, z) is the scene vector (x, z, −y), so physics up (+z) is
// scene up (+y). A body's node gets position C·p and orientation C·R·Cᵀ, so meshes are authored in
// g3n's own convention: a body's local physics axes (x, y, z) are its node's local axes (x, −z, y).
// MeshFor builds the matching mesh for a collider's shape.
package plugin
