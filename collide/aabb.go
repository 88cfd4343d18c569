package collide

import (
	"math"

	"github.com/go-gl/mathgl/mgl64"
)

// AABB is an axis-aligned bounding box in the world frame. Intervals are closed: boxes that
// touch overlap, and a point on the boundary is contained.
type AABB struct {
	Min, Max mgl64.Vec3
}

// AABBFromPoints returns the smallest box containing the given points, or the zero box for no
// points.
func AABBFromPoints(points ...mgl64.Vec3) AABB {
	if len(points) == 0 {
		return AABB{}
	}
	b := AABB{Min: points[0], Max: points[0]}
	for _, p := range points[1:] {
		b = b.AddPoint(p)
	}
	return b
}

// Overlaps reports whether the closed boxes a and b intersect.
func (a AABB) Overlaps(b AABB) bool {
	return a.Min[0] <= b.Max[0] && b.Min[0] <= a.Max[0] &&
		a.Min[1] <= b.Max[1] && b.Min[1] <= a.Max[1] &&
		a.Min[2] <= b.Max[2] && b.Min[2] <= a.Max[2]
}

// Union returns the smallest box containing a and b.
func (a AABB) Union(b AABB) AABB {
	return AABB{
		Min: mgl64.Vec3{min(a.Min[0], b.Min[0]), min(a.Min[1], b.Min[1]), min(a.Min[2], b.Min[2])},
		Max: mgl64.Vec3{max(a.Max[0], b.Max[0]), max(a.Max[1], b.Max[1]), max(a.Max[2], b.Max[2])},
	}
}

// AddPoint returns the smallest box containing a and p.
func (a AABB) AddPoint(p mgl64.Vec3) AABB {
	return AABB{
		Min: mgl64.Vec3{min(a.Min[0], p[0]), min(a.Min[1], p[1]), min(a.Min[2], p[2])},
		Max: mgl64.Vec3{max(a.Max[0], p[0]), max(a.Max[1], p[1]), max(a.Max[2], p[2])},
	}
}

// Expand grows the box by margin on every side. A negative margin shrinks it; shrinking past
// the centre collapses that axis to the centre rather than inverting the box.
func (a AABB) Expand(margin float64) AABB {
	out := a
	for i := 0; i < 3; i++ {
		lo, hi := a.Min[i]-margin, a.Max[i]+margin
		if lo > hi {
			c := 0.5 * (a.Min[i] + a.Max[i])
			lo, hi = c, c
		}
		out.Min[i], out.Max[i] = lo, hi
	}
	return out
}

// Contains reports whether p lies in the closed box.
func (a AABB) Contains(p mgl64.Vec3) bool {
	return p[0] >= a.Min[0] && p[0] <= a.Max[0] &&
		p[1] >= a.Min[1] && p[1] <= a.Max[1] &&
		p[2] >= a.Min[2] && p[2] <= a.Max[2]
}

// ContainsAABB reports whether b lies entirely inside a.
func (a AABB) ContainsAABB(b AABB) bool {
	return b.Min[0] >= a.Min[0] && b.Max[0] <= a.Max[0] &&
		b.Min[1] >= a.Min[1] && b.Max[1] <= a.Max[1] &&
		b.Min[2] >= a.Min[2] && b.Max[2] <= a.Max[2]
}

// Center returns the midpoint of the box.
func (a AABB) Center() mgl64.Vec3 {
	return mgl64.Vec3{0.5 * (a.Min[0] + a.Max[0]), 0.5 * (a.Min[1] + a.Max[1]), 0.5 * (a.Min[2] + a.Max[2])}
}

// Size returns the edge lengths of the box.
func (a AABB) Size() mgl64.Vec3 {
	return a.Max.Sub(a.Min)
}

// SurfaceArea returns the area of the box's surface (the broad phase's cost measure).
func (a AABB) SurfaceArea() float64 {
	d := a.Max.Sub(a.Min)
	return 2 * (d[0]*d[1] + d[1]*d[2] + d[2]*d[0])
}

// Translate returns the box moved by t.
func (a AABB) Translate(t mgl64.Vec3) AABB {
	return AABB{Min: a.Min.Add(t), Max: a.Max.Add(t)}
}

// Validate checks that the box is finite and that Min <= Max on every axis.
func (a AABB) Validate() error {
	if err := checkFiniteVec("AABB.Min", a.Min); err != nil {
		return err
	}
	if err := checkFiniteVec("AABB.Max", a.Max); err != nil {
		return err
	}
	for i := 0; i < 3; i++ {
		if a.Min[i] > a.Max[i] {
			return fieldErrorf("AABB.Min."+axisName(i), "must be <= AABB.Max.%s, got %v > %v", axisName(i), a.Min[i], a.Max[i])
		}
	}
	return nil
}

// IntersectRay returns the entry and exit parameters of the ray origin + t·dir with the box,
// limited to [0, maxT], and whether the ray hits it. invDir holds 1/dir per component (±Inf for
// zero components).
func (a AABB) IntersectRay(origin, invDir mgl64.Vec3, maxT float64) (tEnter, tExit float64, hit bool) {
	tEnter, tExit = 0, maxT
	for i := 0; i < 3; i++ {
		if math.IsInf(invDir[i], 0) {
			if origin[i] < a.Min[i] || origin[i] > a.Max[i] {
				return 0, 0, false
			}
			continue
		}
		t0 := (a.Min[i] - origin[i]) * invDir[i]
		t1 := (a.Max[i] - origin[i]) * invDir[i]
		if t0 > t1 {
			t0, t1 = t1, t0
		}
		if t0 > tEnter {
			tEnter = t0
		}
		if t1 < tExit {
			tExit = t1
		}
		if tEnter > tExit {
			return 0, 0, false
		}
	}
	return tEnter, tExit, true
}
