// Package collide is the geometry layer of stagger: collision shapes, bounding volumes, the
// broad phase, the narrow phase that turns a pair of placed shapes into a contact manifold, ray
// casts and signed-distance queries.
//
// The package is pure geometry. It knows nothing of bodies, masses as state or velocities and
// imports nothing of stagger's; the physics package places shapes with a Pose every step and
// asks for contacts.
//
// # Shapes
//
// Sphere, Box, Capsule and HalfSpace are exact primitives. ConvexHull is built from a point
// cloud (Quickhull, coplanar triangles merged into polygon faces). TriangleMesh is a static
// surface with its own bounding volume hierarchy. SDFGrid samples a shape or a closed mesh on
// a grid. Every Shape gives its world bounds for a pose, a support point and the signed
// distance of a local point; the solid ones give exact mass properties.
//
// # Contacts
//
// Collide(a, pa, b, pb, margin, prev, out) fills a Manifold: up to four Contacts, each with a
// world point midway between the surfaces, a unit normal from a to b, a signed gap (negative
// when interpenetrating, positive up to the speculative margin) and a FeatureID naming the
// features of a and b that made it. Feature ids stay the same while a contact persists, and
// prev (last step's manifold of the same pair) makes the box and polyhedron routines keep
// their reference face, so the solver can warm-start by feature id. Routines: closest points
// for spheres and capsules, separating axes with face clipping for boxes and hulls (exact
// GJK distances when apart), vertices against half-spaces, one-sided per-triangle contacts
// against meshes that never take normals from flat or concave internal edges, and surface
// samples against SDF grids. Routines never allocate.
//
// # Broad phase and queries
//
// BroadPhase is an incremental dynamic AABB tree with fattened boxes and a persistent pair
// list returned in (A, B) order; static–static pairs are never reported and layers and masks
// filter pairs. RayCast, RayCastBroadPhase and SamplePoints answer ray and point queries.
//
// # Conventions
//
//   - SI units (metres, kilograms, seconds), z is up, float64 everywhere.
//   - A Pose maps a shape's local frame to the world: world = Rotation.Rotate(local) + Position.
//   - Shape queries (Support, SignedDistance) work in the shape's local frame; the pair
//     routines, ray casts and the broad phase work in the world frame.
//   - Signed distances and contact gaps are negative inside (penetration) and positive apart.
//   - A contact normal points from shape A to shape B of the pair, so that B moving along the
//     normal relative to A separates them.
//   - Constructors validate their input and every shape has a Validate method for values built
//     as struct literals; errors are *FieldError values naming the offending field. No query
//     returns NaN for valid input.
//   - Everything is deterministic: the same calls give bit-identical results.
package collide
