package solver

import (
	"fmt"
	"math"
)

// RowsPerSide is the number of Jacobian rows a contact stores for each body it touches: the
// generalized normal row and two generalized tangent rows, n = Γᵀn̂, t₁ = Γᵀt̂₁, t₂ = Γᵀt̂₂, with
// (n̂, t̂₁, t̂₂) an orthonormal frame at the contact. The pyramid's d tangent samples (paper eq. 7,
// T_k) are the unit vectors cos θ_j t̂₁ + sin θ_j t̂₂, θ_j = 2πj/d, so D_k (eq. 16) is a fixed
// linear combination of the two tangent rows and never needs to be stored.
const RowsPerSide = 3

// Block is one body's slice of the generalized velocity: Size degrees of freedom starting at
// Offset (6 for a rigid body, 6+r for a reduced deformable body; any size ≥ 1 is accepted).
type Block struct {
	Offset int
	Size   int
	minv   int // start of the row-major Size×Size inverse-mass block in Problem.minv
	// refused is the size AddBlock was asked for when it was outside [1, MaxBlockSize]; the block
	// then has Size 0 and Validate names it.
	refused int
}

// MaxBlockSize is the largest body block AddBlock accepts, in DoFs. A block stores a dense
// Size×Size inverse mass, so the bound keeps one bad size from allocating without limit; a rigid
// body has 6 DoFs and a reduced deformable body 6 + r with r of a few tens.
const MaxBlockSize = 1024

// Contact is one contact point between body A and body B, with the normal n̂ pointing from A to B
// (docs/architecture.md, Sign conventions). BodyA or BodyB is -1 when that side is static or kinematic: it
// then has no Jacobian block, and its known velocity must be folded into B and BT by the caller:
// B += n̂ᵀ(velocity of the kinematic point on B's side) − n̂ᵀ(velocity of the kinematic point on
// A's side), i.e. the term n̂ᵀΓ q̇ would contribute from that body, and likewise BT[i] with t̂ᵢ.
type Contact struct {
	BodyA, BodyB int

	// B is the constant term b_k of the contact constraint n_kᵀq̇ + b_k ≥ 0 (0 in the paper;
	// +φ/h for a speculative contact with gap φ > 0; plus the kinematic side's normal velocity).
	B float64
	// Mu is the friction coefficient μ_k ≥ 0.
	Mu float64
	// E is the restitution coefficient e_k ∈ [0,1] (paper footnote 4): the constraint becomes
	// n_kᵀ(q̇ᵗ⁺¹ + e_k q̇ᵗ) + b_k ≥ 0, using Problem.QdotT.
	E float64
	// BT is the tangential counterpart of B's kinematic term: the known relative tangential
	// velocity at the contact that no block carries, in the (t̂₁, t̂₂) basis, t̂ᵢᵀ(v_B − v_A) over
	// the static or kinematic sides' point velocities (0 for a static side). Contact k's
	// tangential velocity is s_k = ((Γ_kᵀt̂₁)ᵀq̇ + BT[0], (Γ_kᵀt̂₂)ᵀq̇ + BT[1]), which friction
	// opposes (the maximal dissipation principle, eq. 18): a body resting on a moving kinematic
	// platform is dragged along with it.
	BT [2]float64

	// WarmNormal is an optional warm start for α_k (0 for none).
	WarmNormal float64
	// WarmFriction is the warm start for the friction impulse in the (t̂₁, t̂₂) basis, typically
	// last step's answer matched by feature id (paper Algorithm 1 line 2, f⁰).
	WarmFriction [2]float64

	rowsA, rowsB int // start of the 3×Size row blocks in Problem.rows, -1 if none
}

// side returns side s's body (0: A, 1: B; −1 when static) and the start of its rows.
func (c *Contact) side(s int) (body, row int) {
	if s == 1 {
		return c.BodyB, c.rowsB
	}
	return c.BodyA, c.rowsA
}

// Problem is one island's frictional contact problem: the block-diagonal inverse mass M⁻¹, the
// contacts with their Jacobian blocks, and the predictor velocity q̇ᴾ (plus q̇ᵗ for restitution).
// It is built with Reset, AddBlock and AddContact, which reuse all capacity, so refilling a
// Problem every step does not allocate once its buffers have grown.
//
// The Delassus operator NᵀM⁻¹N is never formed: it is applied through the contacts' body blocks,
// so two contacts interact only when they share a body.
type Problem struct {
	// QdotP is the predictor velocity q̇ᴾ (paper eq. 12), one entry per DoF, grown by AddBlock.
	QdotP []float64
	// QdotT is the velocity at the start of the step q̇ᵗ, used for restitution (E > 0) and by the
	// energy certificate of Options.Settle (energy.go).
	QdotT []float64

	blocks   []Block
	contacts []Contact
	minv     []float64
	rows     []float64
	ndof     int
	// chol is Validate's factorisation scratch for blocks larger than its stack buffer, kept so
	// that validating a warm problem does not allocate.
	chol []float64
}

// Reset empties the problem, keeping every buffer's capacity.
func (p *Problem) Reset() {
	p.blocks = p.blocks[:0]
	p.contacts = p.contacts[:0]
	p.minv = p.minv[:0]
	p.rows = p.rows[:0]
	p.QdotP = p.QdotP[:0]
	p.QdotT = p.QdotT[:0]
	p.ndof = 0
}

// AddBlock appends a body block of size DoFs and returns its index. Its inverse-mass block is
// zero until set with SetMass or SetInvMass; its entries of QdotP and QdotT are zeroed. A size
// outside [1, MaxBlockSize] adds an empty block, which Validate (and so Solve) reports by index.
func (p *Problem) AddBlock(size int) int {
	b := Block{Offset: p.ndof, Size: size, minv: len(p.minv)}
	if size < 1 || size > MaxBlockSize {
		b.refused = size
		size = 0
		b.Size = 0
	}
	p.blocks = append(p.blocks, b)
	p.minv = appendZeros(p.minv, size*size)
	p.QdotP = appendZeros(p.QdotP, size)
	p.QdotT = appendZeros(p.QdotT, size)
	p.ndof += size
	return len(p.blocks) - 1
}

// InvMass returns block b's row-major Size×Size inverse-mass block, to be filled in place. The
// block must be symmetric positive definite; Solve verifies this. Like a slice index, it panics
// if b is not in [0, NumBlocks()).
func (p *Problem) InvMass(b int) []float64 {
	checkIndex("InvMass", "block", b, len(p.blocks))
	bl := p.blocks[b]
	return p.minv[bl.minv : bl.minv+bl.Size*bl.Size]
}

// SetInvMass copies minv (row-major Size×Size) into block b's inverse-mass block. It fails,
// naming the block, if b is out of range or minv has the wrong length.
func (p *Problem) SetInvMass(b int, minv []float64) error {
	if b < 0 || b >= len(p.blocks) {
		return &InputError{Item: "problem", Index: -1, Field: "SetInvMass", Reason: fmt.Sprintf("block index %d out of range [0, %d)", b, len(p.blocks))}
	}
	dst := p.InvMass(b)
	if len(minv) != len(dst) {
		return &InputError{Item: "block", Index: b, Field: "InvMass", Reason: "has the wrong number of entries"}
	}
	copy(dst, minv)
	return nil
}

// SetMass inverts the SPD mass block m (row-major Size×Size) into block b's inverse-mass block.
// It fails, naming the block, if b is out of range or m is not finite, symmetric and positive
// definite.
func (p *Problem) SetMass(b int, m []float64) error {
	if b < 0 || b >= len(p.blocks) {
		return &InputError{Item: "problem", Index: -1, Field: "SetMass", Reason: fmt.Sprintf("block index %d out of range [0, %d)", b, len(p.blocks))}
	}
	bl := p.blocks[b]
	n := bl.Size
	if len(m) != n*n {
		return &InputError{Item: "block", Index: b, Field: "Mass", Reason: "has the wrong number of entries"}
	}
	dst := p.InvMass(b)
	if err := checkSymmetricFinite(m, n); err != "" {
		return &InputError{Item: "block", Index: b, Field: "Mass", Reason: err}
	}
	if !invertSPD(m, dst, n) {
		return &InputError{Item: "block", Index: b, Field: "Mass", Reason: "is not positive definite"}
	}
	return nil
}

// AddContact appends a contact between blocks bodyA and bodyB (either may be -1 for a static or
// kinematic side, not both) and returns its index. Its Jacobian rows are zero until filled through
// RowsA and RowsB. Out-of-range bodies are reported by Solve.
func (p *Problem) AddContact(bodyA, bodyB int, b, mu, e float64) int {
	c := Contact{BodyA: bodyA, BodyB: bodyB, B: b, Mu: mu, E: e, rowsA: -1, rowsB: -1}
	if bodyA >= 0 && bodyA < len(p.blocks) {
		c.rowsA = len(p.rows)
		p.rows = appendZeros(p.rows, RowsPerSide*p.blocks[bodyA].Size)
	}
	if bodyB >= 0 && bodyB < len(p.blocks) {
		c.rowsB = len(p.rows)
		p.rows = appendZeros(p.rows, RowsPerSide*p.blocks[bodyB].Size)
	}
	p.contacts = append(p.contacts, c)
	return len(p.contacts) - 1
}

// RowsA returns contact k's Jacobian rows for body A, row-major 3×Size(A): the restriction to A's
// block of n_k = Γ_kᵀn̂, Γ_kᵀt̂₁, Γ_kᵀt̂₂ with Γ_k = ∇x_B − ∇x_A (so it carries the minus sign of
// −∇x_A). It returns nil if A is static. The slice is valid until the next AddContact. Like a
// slice index, it panics if k is not in [0, NumContacts()).
func (p *Problem) RowsA(k int) []float64 {
	checkIndex("RowsA", "contact", k, len(p.contacts))
	c := &p.contacts[k]
	if c.rowsA < 0 {
		return nil
	}
	return p.rows[c.rowsA : c.rowsA+RowsPerSide*p.blocks[c.BodyA].Size]
}

// RowsB returns contact k's Jacobian rows for body B (the +∇x_B part of Γ_k), like RowsA; it
// panics if k is not in [0, NumContacts()).
func (p *Problem) RowsB(k int) []float64 {
	checkIndex("RowsB", "contact", k, len(p.contacts))
	c := &p.contacts[k]
	if c.rowsB < 0 {
		return nil
	}
	return p.rows[c.rowsB : c.rowsB+RowsPerSide*p.blocks[c.BodyB].Size]
}

// Contact returns a pointer to contact k, to set its warm start or coefficients in place. Like a
// slice index, it panics if k is not in [0, NumContacts()).
func (p *Problem) Contact(k int) *Contact {
	checkIndex("Contact", "contact", k, len(p.contacts))
	return &p.contacts[k]
}

// NumContacts is the number of contacts.
func (p *Problem) NumContacts() int { return len(p.contacts) }

// NumBlocks is the number of body blocks.
func (p *Problem) NumBlocks() int { return len(p.blocks) }

// NumDoF is the total number of degrees of freedom.
func (p *Problem) NumDoF() int { return p.ndof }

// BlockAt returns block b. Like a slice index, it panics if b is not in [0, NumBlocks()).
func (p *Problem) BlockAt(b int) Block {
	checkIndex("BlockAt", "block", b, len(p.blocks))
	return p.blocks[b]
}

// checkIndex panics, as indexing a slice does but naming the method and the item, if i is not
// in [0, n).
func checkIndex(method, item string, i, n int) {
	if i < 0 || i >= n {
		indexPanic(method, item, i, n)
	}
}

// indexPanic is checkIndex's panic, kept out of line so the accessors stay small.
func indexPanic(method, item string, i, n int) {
	panic(fmt.Sprintf("solver: Problem.%s: %s index %d out of range [0, %d)", method, item, i, n))
}

// Validate checks the problem, returning an *InputError naming the first bad block or contact
// and field: non-finite entries, out-of-range or missing bodies, μ < 0, e ∉ [0,1], an inverse-mass
// block that is not symmetric positive definite. It does not allocate on success.
func (p *Problem) Validate() error {
	if len(p.QdotP) != p.ndof || len(p.QdotT) != p.ndof {
		return &InputError{Item: "problem", Index: -1, Field: "QdotP", Reason: "length does not match the blocks"}
	}
	// One pass over each whole array first; the per-item checks below only run to name the
	// offender when a pass finds a non-finite entry.
	velocitiesFinite := allFinite(p.QdotP) && allFinite(p.QdotT)
	rowsFinite := allFinite(p.rows)
	var scratch [64]float64
	for b, bl := range p.blocks {
		n := bl.Size
		if n == 0 {
			if bl.refused > MaxBlockSize {
				return &InputError{Item: "block", Index: b, Field: "Size", Reason: fmt.Sprintf("must be at most MaxBlockSize (%d), got %d", MaxBlockSize, bl.refused)}
			}
			return &InputError{Item: "block", Index: b, Field: "Size", Reason: "is not positive"}
		}
		m := p.minv[bl.minv : bl.minv+n*n]
		if isRigidPattern(m) {
			// Symmetric wherever the pattern has zeros; only the angular block's pairs remain.
			switch {
			case !allFinite(m):
				return &InputError{Item: "block", Index: b, Field: "InvMass", Reason: "has a non-finite entry"}
			case !nearlyEqual(m[22], m[27]) || !nearlyEqual(m[23], m[33]) || !nearlyEqual(m[29], m[34]):
				return &InputError{Item: "block", Index: b, Field: "InvMass", Reason: "is not symmetric"}
			case !rigidBlockOK(m):
				return &InputError{Item: "block", Index: b, Field: "InvMass", Reason: "is not positive definite"}
			}
		} else if err := checkSymmetricFinite(m, n); err != "" {
			return &InputError{Item: "block", Index: b, Field: "InvMass", Reason: err}
		} else if n*n <= len(scratch) {
			if !choleskyOK(m, scratch[:n*n], n) {
				return &InputError{Item: "block", Index: b, Field: "InvMass", Reason: "is not positive definite"}
			}
		} else if p.chol = grow(p.chol, n*n); !choleskyOK(m, p.chol, n) {
			return &InputError{Item: "block", Index: b, Field: "InvMass", Reason: "is not positive definite"}
		}
		for i := bl.Offset; i < bl.Offset+n && !velocitiesFinite; i++ {
			if !isFinite(p.QdotP[i]) {
				return &InputError{Item: "block", Index: b, Field: "QdotP", Reason: "has a non-finite entry"}
			}
			if !isFinite(p.QdotT[i]) {
				return &InputError{Item: "block", Index: b, Field: "QdotT", Reason: "has a non-finite entry"}
			}
		}
	}
	for k := range p.contacts {
		c := &p.contacts[k]
		switch {
		case c.BodyA < -1 || c.BodyA >= len(p.blocks):
			return &InputError{Item: "contact", Index: k, Field: "BodyA", Reason: "is out of range"}
		case c.BodyB < -1 || c.BodyB >= len(p.blocks):
			return &InputError{Item: "contact", Index: k, Field: "BodyB", Reason: "is out of range"}
		case c.BodyA < 0 && c.BodyB < 0:
			return &InputError{Item: "contact", Index: k, Field: "BodyA", Reason: "and BodyB are both static"}
		case c.BodyA == c.BodyB:
			return &InputError{Item: "contact", Index: k, Field: "BodyB", Reason: "equals BodyA"}
		case !isFinite(c.B):
			return &InputError{Item: "contact", Index: k, Field: "B", Reason: "is not finite"}
		case !isFinite(c.Mu) || c.Mu < 0:
			return &InputError{Item: "contact", Index: k, Field: "Mu", Reason: "must be finite and ≥ 0"}
		case !(c.E >= 0 && c.E <= 1):
			return &InputError{Item: "contact", Index: k, Field: "E", Reason: "must lie in [0,1]"}
		case !isFinite(c.BT[0]) || !isFinite(c.BT[1]):
			return &InputError{Item: "contact", Index: k, Field: "BT", Reason: "is not finite"}
		case !isFinite(c.WarmNormal):
			return &InputError{Item: "contact", Index: k, Field: "WarmNormal", Reason: "is not finite"}
		case !isFinite(c.WarmFriction[0]) || !isFinite(c.WarmFriction[1]):
			return &InputError{Item: "contact", Index: k, Field: "WarmFriction", Reason: "is not finite"}
		}
		if (c.BodyA >= 0) != (c.rowsA >= 0) || (c.BodyB >= 0) != (c.rowsB >= 0) {
			return &InputError{Item: "contact", Index: k, Field: "BodyA", Reason: "was changed after AddContact"}
		}
		if rowsFinite {
			continue
		}
		if r := p.RowsA(k); r != nil && !allFinite(r) {
			return &InputError{Item: "contact", Index: k, Field: "RowsA", Reason: "has a non-finite entry"}
		}
		if r := p.RowsB(k); r != nil && !allFinite(r) {
			return &InputError{Item: "contact", Index: k, Field: "RowsB", Reason: "has a non-finite entry"}
		}
	}
	return nil
}

func appendZeros(s []float64, n int) []float64 {
	l := len(s)
	if cap(s)-l >= n {
		s = s[:l+n]
		clear(s[l:])
		return s
	}
	return append(s, make([]float64, n)...)
}

func isFinite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// allFinite reports whether every entry of s is finite. It sums x − x over s: each term is 0 for a
// finite x and NaN for ±Inf or NaN, so the sum is 0 exactly when all are finite — one branch-free
// pass, as Validate runs over every Jacobian row each step.
func allFinite(s []float64) bool {
	var a0, a1, a2, a3 float64
	i := 0
	for ; i+4 <= len(s); i += 4 {
		q := (*[4]float64)(s[i : i+4])
		a0 += q[0] - q[0]
		a1 += q[1] - q[1]
		a2 += q[2] - q[2]
		a3 += q[3] - q[3]
	}
	for ; i < len(s); i++ {
		a0 += s[i] - s[i]
	}
	return a0+a1+a2+a3 == 0
}

// nearlyEqual reports whether the mirror entries x and y of a symmetric matrix agree to rounding.
func nearlyEqual(x, y float64) bool {
	return x == y || math.Abs(x-y) <= 1e-9*(math.Abs(x)+math.Abs(y))
}

// checkSymmetricFinite returns "" if the n×n row-major a is finite and symmetric to rounding.
func checkSymmetricFinite(a []float64, n int) string {
	if !allFinite(a[:n*n]) {
		return "has a non-finite entry"
	}
	for r := 0; r < n; r++ {
		for c := r + 1; c < n; c++ {
			if !nearlyEqual(a[r*n+c], a[c*n+r]) {
				return "is not symmetric"
			}
		}
	}
	return ""
}
