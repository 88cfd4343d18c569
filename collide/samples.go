package collide

import (
	"strconv"

	"github.com/go-gl/mathgl/mgl64"
)

// PointSample is the answer for one world-space point queried against a shape.
type PointSample struct {
	// Gap is the signed distance from the shape's surface: negative inside.
	Gap float64
	// Normal is the unit outward surface normal (world) at Closest: the direction in which
	// the distance grows.
	Normal mgl64.Vec3
	// Closest is the surface point (world) nearest to the query point: point − Gap·Normal.
	Closest mgl64.Vec3
	// Within reports Gap <= margin.
	Within bool
}

// SamplePoints queries many world-space points against shape s placed at pose (for example the
// vertices of a deformable body against a collider) and writes one PointSample per point into
// out, which must be at least as long as points. It returns how many points are within the
// margin (Gap <= margin). Distances are exact for the primitive shapes and hulls. It does not
// allocate. It refuses a nil shape or one that fails its Validate method (see Shape), a
// non-finite pose or point, a negative or non-finite margin and too short an out.
func SamplePoints(s Shape, pose Pose, points []mgl64.Vec3, margin float64, out []PointSample) (int, error) {
	if err := checkShape("s", s); err != nil {
		return 0, err
	}
	if err := checkPoseFinite("pose", pose); err != nil {
		return 0, err
	}
	if !isFinite(margin) || margin < 0 {
		return 0, fieldErrorf("margin", "must be finite and >= 0, got %v", margin)
	}
	if len(out) < len(points) {
		return 0, fieldErrorf("out", "has room for %d samples, need %d", len(out), len(points))
	}
	f := pose.frame()
	within := 0
	for i, p := range points {
		if !isFiniteVec(p) {
			return within, fieldErrorf("points["+strconv.Itoa(i)+"]", "must be finite, got %v", p)
		}
		d, nl := s.SignedDistance(f.applyInv(p))
		n := f.rotate(nl)
		w := d <= margin
		if w {
			within++
		}
		out[i] = PointSample{Gap: d, Normal: n, Closest: madd(p, n, -d), Within: w}
	}
	return within, nil
}
