// Package physics holds the body models of stagger and the per-tick pipeline that turns ECS
// components into solver problems and back.
//
// A body is an entity with a RigidBody component and, usually, a Collider. The physics works in SI
// units with z up. Each body contributes one block of generalized velocity to the step: six entries
// (linear velocity v, then angular velocity ω, both in the world frame) for a rigid body, and 6+r for
// a reduced deformable body (frame v, ω, then r reduced coordinates). Code outside a body model never
// assumes a block size of six; see BodyModel, Layout and MassMatrix.
//
// One fixed step of length h runs as follows (docs/architecture.md, The fixed step):
//
//  1. gather: every RigidBody is validated and copied into contiguous per-body state;
//  2. predict: each dynamic body's unconstrained velocity q̇ᴾ over the step (gravity, and the
//     gyroscopic term by the implicit midpoint rule, which keeps a torque-free body's angular momentum
//     and kinetic energy exactly);
//  3. constrain: the collision stage finds the contacts and hands them on as a flat list of points;
//     the contact stage splits them into islands, and each island's contact impulses change q̇ᴾ
//     into q̇ᵗ⁺¹ (bodies in no island keep q̇ᴾ);
//  4. advance: positions move with q̇ᵗ⁺¹, orientations by the Cayley map of hω, and the end-of-step
//     velocity follows from the momentum balance;
//  5. scatter: the new state is checked finite and written back into the components.
package physics
