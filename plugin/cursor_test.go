package plugin

import (
	"math"
	"strings"
	"testing"

	"github.com/g3n/engine/camera"
	"github.com/g3n/engine/math32"
	"github.com/go-gl/mathgl/mgl64"
)

// cameraAt returns a perspective camera at the scene position eye looking at target.
func cameraAt(eye, target math32.Vector3, aspect float32) *camera.Camera {
	cam := camera.NewPerspective(aspect, 0.1, 100, 60, camera.Vertical)
	cam.SetPositionVec(&eye)
	cam.LookAt(&target, &math32.Vector3{Y: 1})
	return cam
}

// The centre pixel's ray leaves from the camera towards what it looks at, and a corner pixel's ray
// leaves at half the field of view (vertically) from the axis, on the right side: checked against
// the camera's placement in the physics frame, not against the unprojection the function uses.
func TestCursorRayGeometry(t *testing.T) {
	eye, target := math32.Vector3{X: 3, Y: 4, Z: 5}, math32.Vector3{X: 0, Y: 1, Z: 0}
	cam := cameraAt(eye, target, 2)
	pe, pt := FromScene(eye), FromScene(target)
	axis := pt.Sub(pe).Normalize()
	o, d, err := CursorRay(cam, 400, 200, 800, 400)
	if err != nil {
		t.Fatal(err)
	}
	if d.Sub(axis).Len() > 1e-5 {
		t.Errorf("centre ray direction %v, want the view axis %v", d, axis)
	}
	// The origin lies on the axis at the near distance (0.1 m) from the eye.
	if o.Sub(pe.Add(axis.Mul(0.1))).Len() > 1e-5 {
		t.Errorf("centre ray origin %v, want %v", o, pe.Add(axis.Mul(0.1)))
	}
	// The top edge's middle pixel: 30° above the axis, towards the camera's up.
	_, top, err := CursorRay(cam, 400, 0, 800, 400)
	if err != nil {
		t.Fatal(err)
	}
	if a := math.Acos(top.Dot(axis)); math.Abs(a-math.Pi/6) > 1e-4 {
		t.Errorf("top ray %.5f rad from the axis, want π/6", a)
	}
	if up := (mgl64.Vec3{0, 0, 1}); top.Dot(up) <= axis.Dot(up) {
		t.Errorf("top ray %v does not point higher than the axis %v", top, axis)
	}
	// The right edge's middle pixel turns right: towards axis × up.
	_, right, err := CursorRay(cam, 800, 200, 800, 400)
	if err != nil {
		t.Fatal(err)
	}
	if side := axis.Cross(mgl64.Vec3{0, 0, 1}); right.Dot(side) <= 0 {
		t.Errorf("right ray %v does not turn right (towards %v)", right, side)
	}
}

// Bad arguments are refused naming the argument; nothing panics.
func TestCursorRayRefusesBadInput(t *testing.T) {
	cam := cameraAt(math32.Vector3{Z: 5}, math32.Vector3{}, 1)
	nan := float32(math.NaN())
	for _, c := range []struct {
		cam        *camera.Camera
		x, y, w, h float32
		want       string
	}{
		{nil, 1, 1, 10, 10, "cam"},
		{cam, 1, 1, 0, 10, "viewport"},
		{cam, 1, 1, 10, float32(math.Inf(1)), "viewport"},
		{cam, nan, 1, 10, 10, "cursor"},
	} {
		if _, _, err := CursorRay(c.cam, c.x, c.y, c.w, c.h); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("CursorRay(%v, %v, %v, %v): %v, want an error naming %s", c.x, c.y, c.w, c.h, err, c.want)
		}
	}
}
