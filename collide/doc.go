// Package collide is the geometry layer of stagger: collision shapes, bounding volumes, the
// broad phase, the narrow phase that turns a pair of placed shapes into a contact manifold, ray
// casts and signed-distance queries.
//
// The package is pure geometry. It knows nothing of bodies, masses as state or velocities and
// imports nothing of stagger's; the physics package places shapes with a Pose every step and
// asks for contacts.
//
// Conventions used throughout:
//
//   - SI units (metres, kilograms, seconds), z is up, float64 everywhere.
//   - A Pose maps a shape's local frame to the world: world = Rotation.Rotate(local) + Position.
//   - Shape queries (Support, SignedDistance, RayCast) work in the shape's local frame; the pair
//     routines and the broad phase work in the world frame.
//   - Signed distances and contact gaps are negative inside (penetration) and positive apart.
//   - A contact normal points from shape A to shape B of the pair, so that B moving along the
//     normal relative to A separates them.
//   - Constructors validate their input and every shape has a Validate method for values built
//     as struct literals; errors name the offending field. No query returns NaN.
package collide
