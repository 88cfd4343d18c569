package collide

import (
	"math"

	"github.com/go-gl/mathgl/mgl64"
)

// HalfSpaceExtent is the radius, in metres, of the finite stand-in used where a half-space must
// be bounded: Bounds and Support treat the half-space as the half-ball of this radius centred
// on the plane's foot point Offset·Normal. Bounds are therefore exact on an axis the plane is
// normal to, and ±1e9 m (about the foot point) in unbounded directions.
const HalfSpaceExtent = 1e9

// halfSpaceNormalTolerance is how far |Normal| may be from 1 for Validate to accept it.
const halfSpaceNormalTolerance = 1e-9

// HalfSpace is the solid {x : Normal·x <= Offset} in the local frame: everything on the back
// side of a plane (ground, walls). It has infinite volume and can only be static. Fields are
// exported read-only by convention: build with NewHalfSpace, or call Validate after a struct
// literal (which requires a unit Normal).
type HalfSpace struct {
	Normal mgl64.Vec3
	Offset float64
}

// NewHalfSpace returns the half-space {x : n̂·x <= offset} with n̂ = normal/|normal|. The offset
// is the plane's signed distance from the local origin along n̂, in metres; it is not rescaled
// by |normal|. A zero or non-finite normal, or a non-finite offset, is an error.
func NewHalfSpace(normal mgl64.Vec3, offset float64) (*HalfSpace, error) {
	if err := checkFiniteVec("HalfSpace.Normal", normal); err != nil {
		return nil, err
	}
	n, ok := unit(normal)
	if !ok {
		return nil, fieldErrorf("HalfSpace.Normal", "must be non-zero, got %v", normal)
	}
	h := &HalfSpace{Normal: n, Offset: offset}
	if err := h.Validate(); err != nil {
		return nil, err
	}
	return h, nil
}

// Validate checks that Normal is finite and of unit length (within 1e-9) and Offset is finite
// (and that h is not nil).
func (h *HalfSpace) Validate() error {
	if h == nil {
		return fieldErrorf("HalfSpace", "must not be nil")
	}
	if err := checkFiniteVec("HalfSpace.Normal", h.Normal); err != nil {
		return err
	}
	if l := h.Normal.Len(); math.Abs(l-1) > halfSpaceNormalTolerance {
		return fieldErrorf("HalfSpace.Normal", "must have unit length, got length %v", l)
	}
	if !isFinite(h.Offset) {
		return fieldErrorf("HalfSpace.Offset", "must be finite, got %v", h.Offset)
	}
	return nil
}

// Kind returns KindHalfSpace.
func (h *HalfSpace) Kind() ShapeKind { return KindHalfSpace }

// Bounds returns the world box of the half-ball stand-in (see HalfSpaceExtent): exact on an
// axis the world normal is parallel to, HalfSpaceExtent about the foot point otherwise.
func (h *HalfSpace) Bounds(pose Pose) AABB {
	n := pose.Rotate(h.Normal)
	foot := pose.Apply(h.Normal.Mul(h.Offset))
	var b AABB
	for k := 0; k < 3; k++ {
		// Extent of the flat side of the half-ball along ±axis k: E·sqrt(1 − n_k²).
		flat := HalfSpaceExtent * math.Sqrt(max(0, 1-n[k]*n[k]))
		if n[k] > 0 {
			b.Max[k] = foot[k] + flat
			b.Min[k] = foot[k] - HalfSpaceExtent
		} else {
			b.Min[k] = foot[k] - flat
			if n[k] < 0 {
				b.Max[k] = foot[k] + HalfSpaceExtent
			} else {
				b.Max[k] = foot[k] + flat
			}
		}
	}
	return b
}

// Volume returns +Inf.
func (h *HalfSpace) Volume() float64 { return math.Inf(1) }

// MassProperties always fails: a half-space has infinite mass and can only be static.
func (h *HalfSpace) MassProperties(density float64) (MassProperties, error) {
	return MassProperties{}, fieldErrorf("HalfSpace", "has infinite volume and can only be static (no mass properties), density %v", density)
}

// Support returns the support point of the half-ball stand-in (see HalfSpaceExtent): along the
// plane for directions with d·n >= 0, into the solid otherwise. For d = 0 or d parallel to the
// normal it returns the foot point Offset·Normal.
func (h *HalfSpace) Support(d mgl64.Vec3) mgl64.Vec3 {
	foot := h.Normal.Mul(h.Offset)
	u, ok := unit(d)
	if !ok {
		return foot
	}
	dn := u.Dot(h.Normal)
	if dn < 0 {
		return madd(foot, u, HalfSpaceExtent)
	}
	t := madd(u, h.Normal, -dn)
	tu, ok := unit(t)
	if !ok {
		return foot
	}
	return madd(foot, tu, HalfSpaceExtent)
}

// SignedDistance returns Normal·p − Offset and the normal. A point with a NaN coordinate is
// reported at +Inf.
func (h *HalfSpace) SignedDistance(p mgl64.Vec3) (float64, mgl64.Vec3) {
	if hasNaN(p) {
		return math.Inf(1), h.Normal
	}
	return h.Normal.Dot(p) - h.Offset, h.Normal
}
