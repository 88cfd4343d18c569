package collide

import (
	"github.com/go-gl/mathgl/mgl64"
)

// sphereVs collides sphere a with any shape b that has an exact signed distance: the gap is
// b's signed distance of the sphere's centre minus the radius, which is exact for convex b, and
// the normal is the negated gradient of b's distance there.
func sphereVs(a *Sphere, pa Pose, b Shape, pb Pose, margin float64, out *Manifold) error {
	switch b.(type) {
	case *Sphere, *HalfSpace, *Box, *Capsule, *Cylinder, *ConvexHull:
	default:
		return unsupportedPair(a, b)
	}
	c := pb.ApplyInverse(pa.Position)
	d, nl := b.SignedDistance(c)
	gap := d - a.Radius
	if !(gap <= margin) {
		return nil
	}
	var feature Feature
	switch sb := b.(type) {
	case *Sphere, *HalfSpace:
		feature = FaceFeature(0)
	case *Box:
		feature = boxClosestFeature(sb.HalfExtents, c)
	case *Capsule:
		feature = capsuleClosestFeature(sb, c)
	case *Cylinder:
		feature = cylinderClosestFeature(sb, c)
	case *ConvexHull:
		feature = sb.featureAt(c.Sub(nl.Mul(max(d, 0))))
	default:
		return unsupportedPair(a, b)
	}
	nb := pb.Rotate(nl) // outward from b at the sphere's centre
	n := nb.Mul(-1)     // from a to b
	pA := madd(pa.Position, n, a.Radius)
	out.Normal = n
	out.add(contactAt(pA, n, gap, MakeFeatureID(FaceFeature(0), feature)))
	return nil
}

// boxClosestFeature returns the feature of the box holding the surface point closest to the
// local point p: a face when one coordinate is outside the box (or p is inside), an edge when
// two are, a vertex when all three are.
func boxClosestFeature(h, p mgl64.Vec3) Feature {
	out := 0
	axis := -1
	for i := 0; i < 3; i++ {
		if p[i] > h[i] || p[i] < -h[i] {
			out++
		} else {
			axis = i
		}
	}
	switch out {
	case 0:
		_, n := (&Box{HalfExtents: h}).SignedDistance(p)
		for i := 0; i < 3; i++ {
			if n[i] != 0 {
				return FaceFeature(boxFaceIndex(i, n[i]))
			}
		}
		return FaceFeature(0)
	case 1:
		for i := 0; i < 3; i++ {
			if p[i] > h[i] || p[i] < -h[i] {
				return FaceFeature(boxFaceIndex(i, p[i]))
			}
		}
	case 2:
		return EdgeFeature(boxEdgeIndex(axis, p))
	}
	return VertexFeature(boxVertexIndex(p))
}

// boxFaceIndex returns the index of the face normal to axis k on the side of s.
func boxFaceIndex(k int, s float64) int {
	if s < 0 {
		return 2*k + 1
	}
	return 2 * k
}

// boxEdgeIndex returns the index of the edge along axis k on the sides of p's other coordinates.
func boxEdgeIndex(k int, p mgl64.Vec3) int {
	j := 0
	if p[(k+1)%3] >= 0 {
		j |= 1
	}
	if p[(k+2)%3] >= 0 {
		j |= 2
	}
	return 4*k + j
}

// boxVertexIndex returns the index of the vertex on the sides of p's coordinates.
func boxVertexIndex(p mgl64.Vec3) int {
	i := 0
	for k := 0; k < 3; k++ {
		if p[k] >= 0 {
			i |= 1 << k
		}
	}
	return i
}

// capsuleClosestFeature returns the capsule face nearest to the local point p: the side (face
// 0) or the +z (face 1) or −z (face 2) cap. A zero-height capsule is all face 0.
func capsuleClosestFeature(c *Capsule, p mgl64.Vec3) Feature {
	switch {
	case c.HalfHeight == 0:
		return FaceFeature(0)
	case p[2] > c.HalfHeight:
		return FaceFeature(1)
	case p[2] < -c.HalfHeight:
		return FaceFeature(2)
	}
	return FaceFeature(0)
}

// capsuleParamFeature returns the capsule face for the core-segment parameter s ∈ [0, 1]
// (0 is the −z end); parameters within 1e-9 of an end count as that end's cap.
func capsuleParamFeature(c *Capsule, s float64) Feature {
	switch {
	case c.HalfHeight == 0:
		return FaceFeature(0)
	case s <= 1e-9:
		return FaceFeature(2)
	case s >= 1-1e-9:
		return FaceFeature(1)
	}
	return FaceFeature(0)
}
