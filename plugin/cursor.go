package plugin

import (
	"fmt"
	"math"

	"github.com/g3n/engine/camera"
	"github.com/g3n/engine/math32"
	"github.com/go-gl/mathgl/mgl64"
)

// CursorRay returns the ray from cam through the cursor at pixel (x, y) of a width × height
// viewport (origin at the top left, as g3n's window reports the cursor), in the physics frame: its
// origin on the camera's near plane and its unit direction, ready for Simulation.CastRay. It works
// for perspective and orthographic cameras, updating cam's world matrix from its node. It refuses a
// nil camera, a viewport that is not positive and finite, a non-finite cursor, and a projection
// that cannot be inverted, naming the argument.
func CursorRay(cam *camera.Camera, x, y, width, height float32) (origin, direction mgl64.Vec3, err error) {
	switch {
	case cam == nil:
		return origin, direction, fmt.Errorf("plugin: CursorRay cam: must not be nil")
	case !(width > 0 && height > 0) || math.IsInf(float64(width), 0) || math.IsInf(float64(height), 0):
		return origin, direction, fmt.Errorf("plugin: CursorRay viewport: must be positive and finite, got %v × %v", width, height)
	case !finite32(x) || !finite32(y):
		return origin, direction, fmt.Errorf("plugin: CursorRay cursor: must be finite, got (%v, %v)", x, y)
	}
	var proj, unproject math32.Matrix4
	cam.ProjMatrix(&proj)
	if err := unproject.GetInverse(&proj); err != nil {
		return origin, direction, fmt.Errorf("plugin: CursorRay cam: projection cannot be inverted: %v", err)
	}
	cam.UpdateMatrixWorld()
	world := cam.MatrixWorld()
	world.Multiply(&unproject) // normalised device coordinates → scene
	// Normalised device coordinates: x right and y up in [−1, 1], z −1 on the near plane and 1 on
	// the far one.
	nx, ny := 2*x/width-1, 1-2*y/height
	near, far := math32.Vector3{X: nx, Y: ny, Z: -1}, math32.Vector3{X: nx, Y: ny, Z: 1}
	near.ApplyProjection(&world)
	far.ApplyProjection(&world)
	origin = FromScene(near)
	d := FromScene(far).Sub(origin)
	l := d.Len()
	if !(l > 0) || math.IsInf(l, 0) || !finiteVec(origin) {
		return mgl64.Vec3{}, mgl64.Vec3{}, fmt.Errorf("plugin: CursorRay cam: the cursor's ray is degenerate (near %v, far %v)", near, far)
	}
	return origin, d.Mul(1 / l), nil
}

// finite32 reports whether x is neither infinite nor NaN.
func finite32(x float32) bool { return !math.IsNaN(float64(x)) && !math.IsInf(float64(x), 0) }

// finiteVec reports whether every component of v is finite.
func finiteVec(v mgl64.Vec3) bool {
	for _, x := range v {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return false
		}
	}
	return true
}
