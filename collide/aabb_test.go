package collide

import (
	"testing"

	"github.com/go-gl/mathgl/mgl64"
)

func TestAABBOperations(t *testing.T) {
	a := AABB{Min: mgl64.Vec3{0, 0, 0}, Max: mgl64.Vec3{1, 1, 1}}
	b := AABB{Min: mgl64.Vec3{1, 0.5, -1}, Max: mgl64.Vec3{2, 2, 0}}
	c := AABB{Min: mgl64.Vec3{1.0001, 0, 0}, Max: mgl64.Vec3{2, 1, 1}}
	if !a.Overlaps(b) || !b.Overlaps(a) {
		t.Error("touching boxes must overlap")
	}
	if a.Overlaps(c) || c.Overlaps(a) {
		t.Error("separated boxes must not overlap")
	}
	u := a.Union(b)
	if u.Min != (mgl64.Vec3{0, 0, -1}) || u.Max != (mgl64.Vec3{2, 2, 1}) {
		t.Errorf("Union = %v", u)
	}
	e := a.Expand(0.5)
	if e.Min != (mgl64.Vec3{-0.5, -0.5, -0.5}) || e.Max != (mgl64.Vec3{1.5, 1.5, 1.5}) {
		t.Errorf("Expand = %v", e)
	}
	s := a.Expand(-2)
	if s.Min != s.Max || s.Min != (mgl64.Vec3{0.5, 0.5, 0.5}) {
		t.Errorf("over-shrunk box must collapse to its centre, got %v", s)
	}
	if !a.Contains(mgl64.Vec3{1, 0, 0.5}) || a.Contains(mgl64.Vec3{1.01, 0, 0.5}) {
		t.Error("Contains wrong at the boundary")
	}
	if got := a.SurfaceArea(); got != 6 {
		t.Errorf("SurfaceArea = %v", got)
	}
	if err := (AABB{Min: mgl64.Vec3{0, 2, 0}, Max: mgl64.Vec3{1, 1, 1}}).Validate(); err == nil || !containsField(err, "AABB.Min.y") {
		t.Errorf("inverted box: %v", err)
	}
}

func TestAABBIntersectRay(t *testing.T) {
	a := AABB{Min: mgl64.Vec3{-1, -1, -1}, Max: mgl64.Vec3{1, 1, 1}}
	inv := func(d mgl64.Vec3) mgl64.Vec3 { return mgl64.Vec3{1 / d[0], 1 / d[1], 1 / d[2]} }
	t0, t1, hit := a.IntersectRay(mgl64.Vec3{-5, 0, 0}, inv(mgl64.Vec3{1, 0, 0}), 100)
	if !hit || t0 != 4 || t1 != 6 {
		t.Errorf("axis ray: %v %v %v", t0, t1, hit)
	}
	if _, _, hit := a.IntersectRay(mgl64.Vec3{-5, 2, 0}, inv(mgl64.Vec3{1, 0, 0}), 100); hit {
		t.Error("ray beside the box hit it")
	}
	if _, _, hit := a.IntersectRay(mgl64.Vec3{-5, 0, 0}, inv(mgl64.Vec3{1, 0, 0}), 3); hit {
		t.Error("short ray hit the box")
	}
}
