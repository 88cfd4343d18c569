// Package bullet times stagger's scenes in Bullet 3.24 on the same initial state, for the "Bullet
// on the same scenes" table of BENCHMARKS.md.
//
// It has three parts:
//
//   - an exporter (WriteWorld, ExportScene; the command bench/bullet/export) that writes a world's
//     bodies and colliders, as scenes.Scene.Build leaves them, and the bodies a scene's script
//     spawns and removes later with the steps before which it does, in the text format below;
//   - a C++ harness (harness.cpp, embedded here) that reads that format, builds the same bodies in
//     a btDiscreteDynamicsWorld, steps it and prints one JSON line (Result);
//   - Build, which compiles the harness with g++ against pkg-config's "bullet" (Debian's
//     libbullet-dev, single precision) into a cache directory keyed by the source's hash, and Run,
//     which feeds it a scene and parses its answer. The command bench/bullet/run does both.
//
// # Conventions
//
// Both engines use stagger's frame: z up, SI units, gravity and the sleeping thresholds from
// physics.Config (physics.DefaultConfig: (0, 0, −9.80665) m/s², sleep after 0.5 s below 0.01 m/s
// and 0.035 rad/s), the runner's fixed step (0.01 s). A body's position is its centre of mass and
// its orientation rotates body axes into the world; velocities are in world axes. Quaternions
// are written w x y z (Bullet's constructor takes x y z w; the harness reorders).
//
// # Scene format
//
// The exporter writes a line-based text format rather than JSON so that the harness can read it
// with a plain token stream: every line is a keyword followed by numbers separated by spaces,
// numbers in Go's shortest round-trip form (strtod reads them back exactly). Lines, in order:
//
//	stagger-scene 3                       format name and version
//	scene NAME                            the scene's name (no spaces)
//	n N                                   its size parameter
//	seed SEED                             its seed
//	dt H                                  the fixed step, s
//	gravity GX GY GZ                      m/s²
//	sleep TIME LINEAR ANGULAR             s, m/s, rad/s; TIME 0 means bodies never sleep
//	bodies COUNT                          then COUNT bodies of six lines each:
//	body KIND                             static, dynamic or kinematic
//	pose PX PY PZ QW QX QY QZ             centre of mass, orientation
//	velocity VX VY VZ WX WY WZ            linear, angular, world axes
//	mass M IXX IXY IXZ IYX IYY IYZ IZX IZY IZZ   kg and the inertia about the centre of mass in
//	                                      body axes, row by row (zeros for static and kinematic)
//	material MU E                         friction and restitution
//	shape ...                             one of:
//	  shape none                          no collider
//	  shape sphere R
//	  shape box HX HY HZ                  half extents
//	  shape capsule R HH                  radius and half-height of the segment along local z
//	  shape halfspace NX NY NZ D          the solid {x : n·x ≤ D} in the body frame
//	  shape hull V X1 Y1 Z1 … F NX1 NY1 NZ1 D1 …   V vertices, then F face planes n·x = D
//	spawns COUNT                          then COUNT bodies a scene's script adds later, each as:
//	at STEP                               the step (from 0) before which it appears
//	body …                                and its six lines as above
//	removals COUNT                        then COUNT bodies the script removes, each as:
//	remove STEP INDEX                     the step before which body INDEX (counting the bodies,
//	                                      then the spawns, from 0) leaves the world
//	end
//
// Mass and inertia are stagger's own, derived at physics.Spawn from the collider and density
// (physics.RigidBody); the exporter writes them as the simulation holds them.
//
// # How the harness maps bodies and shapes
//
//   - sphere → btSphereShape(R); box → btBoxShape(half extents), whose margin Bullet keeps inside
//     the box (flat faces, edges rounded by min(0.04, 0.1 × the smallest half extent));
//     capsule → btCapsuleShapeZ(R, 2·HH) (Bullet's height is the segment's whole length; stagger's
//     capsule axis is local z); halfspace → btStaticPlaneShape(n, D) (static bodies only, as in
//     stagger); hull → btConvexHullShape of the hull's faces moved inward by its margin (the same
//     min(0.04, 0.1 × smallest half extent) rule as boxes), so that the margin Bullet adds around
//     the points brings the faces back to stagger's; a hull too thin to shrink keeps its points
//     and a zero margin.
//   - Dynamic bodies get stagger's mass and inertia, not Bullet's calculateLocalInertia (which
//     approximates capsules and hulls by their bounding boxes). Bullet wants a diagonal inertia in
//     the body frame; when stagger's is not diagonal (hulls), the harness diagonalises it
//     (btMatrix3x3::diagonalize) and places the Bullet body in the principal frame: hull points and
//     planes are rotated into it (other shapes go into a btCompoundShape with the rotation as the
//     child's transform), and the body's orientation is stagger's times the principal rotation.
//     Final states (-final) are turned back into stagger's body frame.
//   - Static bodies have mass 0; kinematic bodies have mass 0, CF_KINEMATIC_OBJECT and never sleep,
//     and the harness moves them by their velocities before each step (Bullet does not integrate
//     kinematic bodies itself).
//   - Friction and restitution are per body, combined as stagger combines them (μ = √(μa μb),
//     e = max(ea, eb)) through Bullet's gCalculateCombinedFriction/RestitutionCallback, instead of
//     Bullet's products.
//   - Sleeping: by default stagger's thresholds and time (per body setSleepingThresholds and
//     gDeactivationTime; Bullet, like stagger, puts an island to sleep when all its bodies have
//     been slow for that long); -sleep bullet keeps Bullet's defaults (0.8 m/s, 1 rad/s, 2 s),
//     -sleep off never sleeps.
//   - Everything else is Bullet's default: btDbvtBroadphase, btDefaultCollisionConfiguration,
//     btSequentialImpulseConstraintSolver with 10 iterations, split impulse, warm starting, no
//     CCD, no damping, the implicit gyroscopic term. Each step is stepSimulation(dt, 0): exactly
//     one internal step of dt, which the harness checks with an internal tick callback.
//
// # Measurements
//
// The harness times each stepSimulation call (steady clock) and reports the median, 95th
// percentile (nearest rank, as the runner) and maximum in ms; max_penetration is the deepest
// contact (most negative distance) in any contact manifold after any step, as a positive number
// of metres (Bullet computes manifold distances in the step's collision detection, before its
// solve, as stagger's narrow phase does); max_drop and max_shift are the runner's. Bullet runs on
// one thread; stagger's runner uses one worker per CPU.
package bullet
