package collide

import (
	"math"

	"github.com/go-gl/mathgl/mgl64"
)

// Box is a solid cuboid centred on the local origin with faces normal to the local axes. Fields
// are exported read-only by convention: build with NewBox, or call Validate after a struct
// literal.
//
// Features are numbered for contact feature ids: vertex i has coordinate sign +h along axis k
// when bit k of i is set; face 2k+0 is the +axis-k face and 2k+1 the −axis-k face; edge 4k+j runs
// along axis k, with bit 0 of j the sign on axis (k+1)%3 and bit 1 the sign on axis (k+2)%3.
type Box struct {
	HalfExtents mgl64.Vec3
}

// NewBox returns a box; every half extent must be finite and > 0.
func NewBox(halfExtents mgl64.Vec3) (*Box, error) {
	b := &Box{HalfExtents: halfExtents}
	if err := b.Validate(); err != nil {
		return nil, err
	}
	return b, nil
}

// Validate checks that every half extent is finite and > 0 (and that b is not nil).
func (b *Box) Validate() error {
	if b == nil {
		return fieldErrorf("Box", "must not be nil")
	}
	for i := 0; i < 3; i++ {
		// The field name is built only on failure: Collide validates its shapes on every call.
		if h := b.HalfExtents[i]; !isFinite(h) || h <= 0 {
			return checkPositive("Box.HalfExtents."+axisName(i), h)
		}
	}
	return nil
}

// Kind returns KindBox.
func (b *Box) Kind() ShapeKind { return KindBox }

// Bounds returns the exact world box of the rotated box: the extent along world axis j is
// Σ_k |R_jk|·h_k.
func (b *Box) Bounds(pose Pose) AABB {
	f := pose.frame()
	var e mgl64.Vec3
	for j := 0; j < 3; j++ {
		e[j] = math.Abs(f.axis[0][j])*b.HalfExtents[0] + math.Abs(f.axis[1][j])*b.HalfExtents[1] + math.Abs(f.axis[2][j])*b.HalfExtents[2]
	}
	return AABB{Min: pose.Position.Sub(e), Max: pose.Position.Add(e)}
}

// Volume returns 8·hx·hy·hz.
func (b *Box) Volume() float64 {
	h := b.HalfExtents
	return 8 * h[0] * h[1] * h[2]
}

// MassProperties returns mass ρV and the diagonal inertia m/3·(hy²+hz²), m/3·(hx²+hz²),
// m/3·(hx²+hy²).
func (b *Box) MassProperties(density float64) (MassProperties, error) {
	if err := b.Validate(); err != nil {
		return MassProperties{}, err
	}
	if err := checkDensity(density); err != nil {
		return MassProperties{}, err
	}
	m := density * b.Volume()
	x2, y2, z2 := b.HalfExtents[0]*b.HalfExtents[0], b.HalfExtents[1]*b.HalfExtents[1], b.HalfExtents[2]*b.HalfExtents[2]
	return diagonalMassProperties(m, m/3*(y2+z2), m/3*(x2+z2), m/3*(x2+y2)), nil
}

// Support returns the vertex (±hx, ±hy, ±hz) with the signs of d; a zero (or NaN) component
// picks the + side, so d = 0 returns the vertex (+hx, +hy, +hz).
func (b *Box) Support(d mgl64.Vec3) mgl64.Vec3 {
	h := b.HalfExtents
	return mgl64.Vec3{supportSign(d[0]) * h[0], supportSign(d[1]) * h[1], supportSign(d[2]) * h[2]}
}

// supportSign returns -1 for negative x and +1 otherwise (zero and NaN included).
func supportSign(x float64) float64 {
	if x < 0 {
		return -1
	}
	return 1
}

// SignedDistance returns the exact signed distance to the box surface and its gradient. Inside,
// the normal is that of the nearest face (the lowest axis wins a tie); outside it points from
// the closest surface point to p. A point with a NaN coordinate is reported at +Inf with normal
// +z.
func (b *Box) SignedDistance(p mgl64.Vec3) (float64, mgl64.Vec3) {
	if hasNaN(p) {
		return math.Inf(1), mgl64.Vec3{0, 0, 1}
	}
	h := b.HalfExtents
	var q, out mgl64.Vec3
	outside := false
	for i := 0; i < 3; i++ {
		q[i] = math.Abs(p[i]) - h[i]
		if q[i] > 0 {
			out[i] = sign(p[i]) * q[i]
			outside = true
		}
	}
	if outside {
		return length(out), unitOr(out, mgl64.Vec3{0, 0, 1})
	}
	k := 0
	if q[1] > q[k] {
		k = 1
	}
	if q[2] > q[k] {
		k = 2
	}
	var n mgl64.Vec3
	n[k] = sign(p[k])
	return q[k], n
}

// boxVertex returns the local position of vertex i (see the Box numbering).
func boxVertex(h mgl64.Vec3, i int) mgl64.Vec3 {
	v := h.Mul(-1)
	for k := 0; k < 3; k++ {
		if i&(1<<k) != 0 {
			v[k] = h[k]
		}
	}
	return v
}
