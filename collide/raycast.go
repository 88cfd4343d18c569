package collide

import (
	"errors"
	"math"
	"strconv"
	"strings"

	"github.com/go-gl/mathgl/mgl64"
)

// RayHit is where a ray meets a shape.
type RayHit struct {
	// T is the distance along the ray from its origin, in metres.
	T float64
	// Point is the world hit point, origin + T·dir̂.
	Point mgl64.Vec3
	// Normal is the unit outward surface normal at the hit (world). A ray that starts inside
	// the shape hits at T = 0 with Normal = −dir̂.
	Normal mgl64.Vec3
	// Feature is the feature of the shape that was hit.
	Feature Feature
}

// localRayCaster is implemented by shapes that can intersect a ray in their local frame: o is
// the origin, d a unit direction; it returns the entry distance t ∈ [0, maxT], the outward
// local normal and the feature hit.
type localRayCaster interface {
	rayCastLocal(o, d mgl64.Vec3, maxT float64) (t float64, n mgl64.Vec3, f Feature, ok bool)
}

// RayCast intersects the ray from origin along dir (any non-zero length; it is normalised) with
// shape s placed at pose, up to maxT metres. It reports the first hit. It refuses a nil shape or
// one that fails its Validate method (see Shape), a non-finite pose, origin or dir, a zero dir and
// a negative or NaN maxT.
func RayCast(s Shape, pose Pose, origin, dir mgl64.Vec3, maxT float64) (RayHit, bool, error) {
	if err := checkShape("s", s); err != nil {
		return RayHit{}, false, err
	}
	d, err := checkRay(origin, dir, maxT)
	if err != nil {
		return RayHit{}, false, err
	}
	if err := checkPoseFinite("pose", pose); err != nil {
		return RayHit{}, false, err
	}
	rc, ok := s.(localRayCaster)
	if !ok {
		return RayHit{}, false, fieldErrorf("s", "%v does not support ray casts", s.Kind())
	}
	o := pose.ApplyInverse(origin)
	dl := pose.InverseRotate(d)
	t, n, f, hit := rc.rayCastLocal(o, dl, maxT)
	if !hit {
		return RayHit{}, false, nil
	}
	h := RayHit{T: t, Point: madd(origin, d, t), Normal: unitOr(pose.Rotate(n), d.Mul(-1)), Feature: f}
	return h, true, nil
}

// checkRay validates a ray and returns its unit direction.
func checkRay(origin, dir mgl64.Vec3, maxT float64) (mgl64.Vec3, error) {
	if err := checkFiniteVec("origin", origin); err != nil {
		return mgl64.Vec3{}, err
	}
	if err := checkFiniteVec("dir", dir); err != nil {
		return mgl64.Vec3{}, err
	}
	d, ok := unit(dir)
	if !ok {
		return mgl64.Vec3{}, fieldErrorf("dir", "must be non-zero")
	}
	if math.IsNaN(maxT) || maxT < 0 {
		return mgl64.Vec3{}, fieldErrorf("maxT", "must be >= 0, got %v", maxT)
	}
	return d, nil
}

// raySphere returns the entry distance of the unit ray o + t·d into the sphere of radius r at c,
// with t ∈ [0, maxT]; a ray starting inside enters at 0.
func raySphere(o, d, c mgl64.Vec3, r, maxT float64) (float64, bool) {
	m := o.Sub(c)
	b := m.Dot(d)
	cc := m.Dot(m) - r*r
	if cc <= 0 {
		return 0, true
	}
	if b > 0 {
		return 0, false
	}
	disc := b*b - cc
	if disc < 0 {
		return 0, false
	}
	t := -b - math.Sqrt(disc)
	if t < 0 {
		t = 0
	}
	return t, t <= maxT
}

// rayCastLocal intersects a ray with the sphere.
func (s *Sphere) rayCastLocal(o, d mgl64.Vec3, maxT float64) (float64, mgl64.Vec3, Feature, bool) {
	t, ok := raySphere(o, d, mgl64.Vec3{}, s.Radius, maxT)
	if !ok {
		return 0, mgl64.Vec3{}, 0, false
	}
	if t == 0 {
		return 0, d.Mul(-1), FaceFeature(0), true
	}
	return t, unitOr(madd(o, d, t), d.Mul(-1)), FaceFeature(0), true
}

// rayCastLocal intersects a ray with the box by the slab method.
func (b *Box) rayCastLocal(o, d mgl64.Vec3, maxT float64) (float64, mgl64.Vec3, Feature, bool) {
	h := b.HalfExtents
	tEnter, tExit := math.Inf(-1), math.Inf(1)
	axis := -1
	for i := 0; i < 3; i++ {
		if d[i] == 0 {
			if o[i] < -h[i] || o[i] > h[i] {
				return 0, mgl64.Vec3{}, 0, false
			}
			continue
		}
		t0, t1 := (-h[i]-o[i])/d[i], (h[i]-o[i])/d[i]
		if t0 > t1 {
			t0, t1 = t1, t0
		}
		if t0 > tEnter {
			tEnter, axis = t0, i
		}
		tExit = min(tExit, t1)
	}
	if tEnter > tExit || tExit < 0 || tEnter > maxT {
		return 0, mgl64.Vec3{}, 0, false
	}
	if tEnter <= 0 || axis < 0 {
		return 0, d.Mul(-1), 0, true
	}
	var n mgl64.Vec3
	n[axis] = -sign(d[axis])
	return tEnter, n, FaceFeature(boxFaceIndex(axis, n[axis])), true
}

// raySide intersects a ray from outside with the side of the cylinder of radius r about z,
// |z| ≤ hh, up to maxT: the entry distance and the outward normal there.
func raySide(o, d mgl64.Vec3, r, hh, maxT float64) (float64, mgl64.Vec3, bool) {
	a := d[0]*d[0] + d[1]*d[1]
	if a == 0 {
		return 0, mgl64.Vec3{}, false // parallel to the axis
	}
	bq := o[0]*d[0] + o[1]*d[1]
	cq := o[0]*o[0] + o[1]*o[1] - r*r
	disc := bq*bq - a*cq
	if disc < 0 {
		return 0, mgl64.Vec3{}, false
	}
	t := (-bq - math.Sqrt(disc)) / a
	if t < 0 || t > maxT {
		return 0, mgl64.Vec3{}, false
	}
	if z := o[2] + t*d[2]; z < -hh || z > hh {
		return 0, mgl64.Vec3{}, false
	}
	p := madd(o, d, t)
	return t, unitOr(mgl64.Vec3{p[0], p[1], 0}, d.Mul(-1)), true
}

// rayCastLocal intersects a ray with the capsule: the cylinder side, then the end spheres.
func (c *Capsule) rayCastLocal(o, d mgl64.Vec3, maxT float64) (float64, mgl64.Vec3, Feature, bool) {
	if sd, _ := c.SignedDistance(o); sd <= 0 {
		return 0, d.Mul(-1), 0, true
	}
	best, hit := math.Inf(1), false
	var n mgl64.Vec3
	var f Feature
	r, hh := c.Radius, c.HalfHeight
	if t, nn, ok := raySide(o, d, r, hh, maxT); ok {
		best, hit, n, f = t, true, nn, FaceFeature(0)
	}
	for k, z := range [2]float64{hh, -hh} {
		center := mgl64.Vec3{0, 0, z}
		if t, ok := raySphere(o, d, center, r, maxT); ok && t < best {
			best, hit = t, true
			n = unitOr(madd(o, d, t).Sub(center), d.Mul(-1))
			f = FaceFeature(1 + k)
			if hh == 0 {
				f = FaceFeature(0)
			}
		}
	}
	return best, n, f, hit
}

// rayCastLocal intersects a ray with the half-space's plane (or reports an inside start).
func (h *HalfSpace) rayCastLocal(o, d mgl64.Vec3, maxT float64) (float64, mgl64.Vec3, Feature, bool) {
	s := h.Normal.Dot(o) - h.Offset
	if s <= 0 {
		return 0, d.Mul(-1), FaceFeature(0), true
	}
	dn := h.Normal.Dot(d)
	if dn >= 0 {
		return 0, mgl64.Vec3{}, 0, false
	}
	t := -s / dn
	if t > maxT {
		return 0, mgl64.Vec3{}, 0, false
	}
	return t, h.Normal, FaceFeature(0), true
}

// ShapeLookup returns the shape and pose of a broad-phase entry, or false to skip the entry.
type ShapeLookup func(id ProxyID) (Shape, Pose, bool)

// RayCastBroadPhase casts a ray through the broad phase and returns the closest hit among the
// entries' shapes (found with lookup), its entry and whether anything was hit. It refuses a nil
// bp or lookup and a bad ray as RayCast does, and stops with an error naming the entry when
// lookup gives a nil or invalid shape or a non-finite pose.
func RayCastBroadPhase(bp *BroadPhase, origin, dir mgl64.Vec3, maxT float64, lookup ShapeLookup) (ProxyID, RayHit, bool, error) {
	if bp == nil {
		return -1, RayHit{}, false, fieldErrorf("bp", "must not be nil")
	}
	if lookup == nil {
		return -1, RayHit{}, false, fieldErrorf("lookup", "must not be nil")
	}
	d, err := checkRay(origin, dir, maxT)
	if err != nil {
		return -1, RayHit{}, false, err
	}
	bestID, found := ProxyID(-1), false
	var best RayHit
	var castErr error
	err = bp.RayCast(origin, d, maxT, func(id ProxyID, limit float64) float64 {
		s, pose, ok := lookup(id)
		if !ok {
			return limit
		}
		h, hit, err := RayCast(s, pose, origin, d, limit)
		if err != nil {
			castErr = entryError(id, err)
			return -1
		}
		if !hit || (found && (h.T > best.T || (h.T == best.T && id > bestID))) {
			return limit
		}
		best, bestID, found = h, id, true
		return h.T
	})
	if err != nil {
		return -1, RayHit{}, false, err
	}
	if castErr != nil {
		return -1, RayHit{}, false, castErr
	}
	return bestID, best, found, nil
}

// entryError names broad-phase entry id in err, a RayCast error about the shape or pose lookup
// gave for it.
func entryError(id ProxyID, err error) error {
	var fe *FieldError
	if !errors.As(err, &fe) {
		return err
	}
	field := fe.Field
	if field == "s" || strings.HasPrefix(field, "s (") {
		field = "shape" + field[1:] // RayCast's argument s is lookup's shape
	}
	return &FieldError{Field: "lookup(" + strconv.Itoa(int(id)) + ") " + field, Reason: fe.Reason}
}

// rayCastLocal intersects a ray with the hull by clipping it against every face plane
// (Cyrus–Beck).
func (h *ConvexHull) rayCastLocal(o, d mgl64.Vec3, maxT float64) (float64, mgl64.Vec3, Feature, bool) {
	tEnter, tExit := 0.0, maxT
	enter := -1
	for i, f := range h.faces {
		dist := f.normal.Dot(o) - f.offset
		dn := f.normal.Dot(d)
		if dn == 0 {
			if dist > 0 {
				return 0, mgl64.Vec3{}, 0, false
			}
			continue
		}
		t := -dist / dn
		if dn < 0 {
			if t > tEnter {
				tEnter, enter = t, i
			}
		} else if t < tExit {
			tExit = t
		}
		if tEnter > tExit {
			return 0, mgl64.Vec3{}, 0, false
		}
	}
	if enter < 0 {
		return 0, d.Mul(-1), 0, true
	}
	return tEnter, h.faces[enter].normal, FaceFeature(enter), true
}

// rayCastLocal intersects a ray with the cylinder: the side (the infinite cylinder restricted to
// |z| <= h) and the two cap discs; the nearest entry wins.
func (c *Cylinder) rayCastLocal(o, d mgl64.Vec3, maxT float64) (float64, mgl64.Vec3, Feature, bool) {
	if sd, _ := c.SignedDistance(o); sd <= 0 {
		return 0, d.Mul(-1), 0, true
	}
	best, hit := math.Inf(1), false
	var n mgl64.Vec3
	var f Feature
	r, hh := c.Radius, c.HalfHeight
	if t, nn, ok := raySide(o, d, r, hh, maxT); ok {
		best, hit, n, f = t, true, nn, FaceFeature(0)
	}
	if d[2] != 0 {
		// The cap facing the ray's origin: +z when the ray travels down.
		z, face, nz := hh, 1, 1.0
		if d[2] > 0 {
			z, face, nz = -hh, 2, -1
		}
		t := (z - o[2]) / d[2]
		if t >= 0 && t <= maxT && t < best {
			p := madd(o, d, t)
			if p[0]*p[0]+p[1]*p[1] <= r*r {
				best, hit, n, f = t, true, mgl64.Vec3{0, 0, nz}, FaceFeature(face)
			}
		}
	}
	return best, n, f, hit
}
