package deform

import (
	"fmt"
	"math"

	"github.com/go-gl/mathgl/mgl64"
)

// checkModalInput checks the arguments shared by the modal bodies' constructors (NewModalBody,
// NewHeldBody; fn names the one called, for the errors): a mesh and its modes, one finite positive
// mass per vertex, at least one mode with a finite positive ω² (elastic modes only) and a finite
// shape of 3 entries per vertex, and finite non-negative Rayleigh factors. It returns the vertex
// count, the mode count and the total mass.
func checkModalInput(fn string, m *TetMesh, mass []float64, modes *Modes, alpha, beta float64) (nv, r int, total float64, err error) {
	if m == nil || modes == nil {
		return 0, 0, 0, fmt.Errorf("deform: %s: needs a mesh and its modes", fn)
	}
	nv = m.NumVertices()
	r = len(modes.Omega2)
	switch {
	case len(mass) != nv:
		return 0, 0, 0, fmt.Errorf("deform: %s mass: needs one entry per vertex (%d), got %d", fn, nv, len(mass))
	case r < 1 || len(modes.Shapes) != r:
		return 0, 0, 0, fmt.Errorf("deform: %s modes: needs at least one mode and one shape per ω², got %d and %d", fn, r, len(modes.Shapes))
	case !(alpha >= 0) || !finite(alpha):
		return 0, 0, 0, fmt.Errorf("deform: %s alpha: must be finite and ≥ 0, got %v", fn, alpha)
	case !(beta >= 0) || !finite(beta):
		return 0, 0, 0, fmt.Errorf("deform: %s beta: must be finite and ≥ 0, got %v", fn, beta)
	}
	for a, q := range mass {
		if !(q > 0) || !finite(q) {
			return 0, 0, 0, fmt.Errorf("deform: %s mass[%d]: must be finite and > 0, got %v", fn, a, q)
		}
		total += q
	}
	for k, w := range modes.Omega2 {
		if !(w > 0) || !finite(w) {
			return 0, 0, 0, fmt.Errorf("deform: %s modes.Omega2[%d]: must be finite and > 0 (elastic modes only), got %v", fn, k, w)
		}
		if len(modes.Shapes[k]) != 3*nv {
			return 0, 0, 0, fmt.Errorf("deform: %s modes.Shapes[%d]: length %d, want %d", fn, k, len(modes.Shapes[k]), 3*nv)
		}
		for i, x := range modes.Shapes[k] {
			if !finite(x) {
				return 0, 0, 0, fmt.Errorf("deform: %s modes.Shapes[%d][%d]: not finite", fn, k, i)
			}
		}
	}
	return nv, r, total, nil
}

// check validates a state for a body of r modes — finite pose and velocities, a non-zero
// orientation, and finite modal vectors of length r — naming the field, and returns the
// orientation normalised.
func (s *ModalState) check(r int) (mgl64.Quat, error) {
	q := s.Orientation
	n2 := q.W*q.W + q.V.Dot(q.V)
	switch {
	case !finiteVec3(s.Position):
		return q, fmt.Errorf("deform: ModalState.Position: not finite: %v", s.Position)
	case !finite(n2) || !(n2 > 1e-200):
		return q, fmt.Errorf("deform: ModalState.Orientation: must be finite and non-zero, got %v", q)
	case !finiteVec3(s.LinearVelocity):
		return q, fmt.Errorf("deform: ModalState.LinearVelocity: not finite: %v", s.LinearVelocity)
	case !finiteVec3(s.AngularVelocity):
		return q, fmt.Errorf("deform: ModalState.AngularVelocity: not finite: %v", s.AngularVelocity)
	case len(s.Z) != r || len(s.ZDot) != r:
		return q, fmt.Errorf("deform: ModalState.Z, ZDot: need %d entries each, got %d and %d", r, len(s.Z), len(s.ZDot))
	}
	for k := 0; k < r; k++ {
		if !finite(s.Z[k]) || !finite(s.ZDot[k]) {
			return q, fmt.Errorf("deform: ModalState.Z, ZDot[%d]: not finite: %v, %v", k, s.Z[k], s.ZDot[k])
		}
	}
	if math.Abs(n2-1) <= unitSlack {
		// A unit quaternion to rounding, as State returns: kept bit for bit, so that a state read
		// and set back (a snapshot restored) steps exactly as the body would have.
		return q, nil
	}
	return q.Scale(1 / math.Sqrt(n2)), nil
}

// unitSlack is how far from 1 a quaternion's squared norm may be and still count as unit: a few
// roundings of the four squares' sum.
const unitSlack = 8 * 0x1p-53
