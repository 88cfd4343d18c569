// Package deform holds the volumetric side of reduced deformable bodies (docs/architecture.md,
// Deformable bodies): tetrahedral meshes and their linear finite-element model — lumped mass and
// linear elastic stiffness — on which the reduced models of the Staggered Projections paper's §8
// (modal bases, reduced St. Venant–Kirchhoff forces, Barbič & James 2005) are built. It is pure Go
// and knows nothing of the physics pipeline or of g3n.
//
// Units are SI; vertices are in the body's rest frame.
package deform
