// Package solver is stagger's pure numerics: Staggered Projections (Kaufman, Sueda, James, Pai
// 2008, "Staggered Projections for Frictional Contact in Multibody Systems") for frictional contact
// of rigid and reduced-deformable bodies, its QP sub-solvers, two baselines and an independent
// optimality checker. It sees vectors, blocks and operators, never bodies or geometry, and imports
// only the standard library.
//
// # Formulation (the sign convention of docs/architecture.md, not the paper's)
//
// q̇ stacks per-body blocks of any size (6 for a rigid body, 6+r for a reduced deformable one); M is
// block-diagonal SPD and is given to the Problem as M⁻¹ (InvMass/SetInvMass) or M (SetMass). Contact
// k joins body A and body B with unit normal n̂ from A to B and Γ_k = ∇x_B − ∇x_A, so n̂ᵀΓ_k q̇ > 0
// separates. The caller stores, per body side, the rows Γ_kᵀn̂, Γ_kᵀt̂₁, Γ_kᵀt̂₂ restricted to that
// body's block (RowsA/RowsB), with (n̂, t̂₁, t̂₂) orthonormal. A static or kinematic side has no rows;
// its known velocity goes into the constant terms B (normal) and BT (tangential).
//
//	contact projection P_C (eq. 25):  w = NᵀM⁻¹Nα + Nᵀ(q̇ᴾ + M⁻¹f) + b ≥ 0, α ≥ 0, wᵀα = 0
//	friction projection P_F (eq. 24): f = argmin_{f_k ∈ μ_kα_k K} ½‖q̇ᴾ + M⁻¹(Nα + Df)‖²_M
//
// with b_k = B_k + E_k n_kᵀq̇ᵗ (restitution, footnote 4) and K the pyramid's regular d-gon (eq. 7,
// 23; d = Options.Tangents, default 8) or the exact disc. Friction is reported per contact as a
// 2-vector in the (t̂₁, t̂₂) basis; Result.Beta recovers the pyramid magnitudes β_k.
//
// # Use
//
// Fill a Problem per island and step with Reset, AddBlock, InvMass, AddContact, RowsA/RowsB and
// the QdotP/QdotT slices; set warm starts (last step's impulses, matched by feature id) on
// Contact(k). Create one Solver per worker with NewSolver and call Solve(problem, &result). Both
// reuse their buffers: once warm, a solve performs no allocation. Methods: "sp" (Staggered
// Projections, paper Algorithm 1, with Anderson acceleration), "pgs" (projected Gauss–Seidel with
// box friction, as in ODE/Bullet) and "lcp" (Stewart–Trinkle LCP by Lemke's algorithm, small
// problems only). CheckContact, CheckFriction and CheckFixedPoint verify an answer independently.
//
// # Guarantees
//
// After every "sp" solve, whatever MaxIters or TimeBudget, the final contact projection holds to
// ContactTol (Stats.ContactExact, Stats.MinGap): Algorithm 1's graceful degradation. Results are
// finite and bit-identical for identical input.
package solver
