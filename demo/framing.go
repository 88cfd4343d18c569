package main

import (
	"math"

	"github.com/g3n/engine/math32"
)

// frameFill is the fraction of the half view, vertical and horizontal, that a framed box may take
// up at most: the rest is margin.
const frameFill = 0.7

// frameDepth is the least depth in front of the camera of a framed box's corners, in units of the
// box's half diagonal (at least frameMinRadius), so that no corner comes near the camera even
// where the fit alone would allow it (a very wide view).
const frameDepth = 0.1

// frameMinRadius, m, stands in for the half diagonal of a box smaller than it (a point).
const frameMinRadius = 0.01

// cameraFrame is where frameBox puts the camera: its position and target, and the depths of the
// box's nearest and farthest corners in front of it, for the camera's clipping planes.
type cameraFrame struct {
	position, target  math32.Vector3
	nearest, farthest float32
}

// frameBox returns a camera frame (scene coordinates, y up) that shows the whole axis-aligned box
// [min, max] through a perspective camera with vertical field of view fovY (degrees, in
// (0, 180)) and aspect ratio width/height, looking along −dir: dir points from the target
// towards the camera and need not be unit. A dir of zero or parallel to the y axis is replaced by
// a view from +z, above.
//
// With the camera's orientation fixed by dir, a corner at offset (x, y, z) from the camera in its
// right, up and backward axes is in view within the fraction frameFill when |x| ≤ a·(−z) and
// |y| ≤ b·(−z), with a and b frameFill times the half view's tangents: linear constraints on the
// camera's position. frameBox returns the position that satisfies them all (and keeps every
// corner at least frameDepth half diagonals in front) with the least distance, centred across
// the view in the axis that does not bind. The box then fills exactly frameFill of the view in
// the binding axis. The target is the point on the view axis level in depth with the box's
// centre, so the orbit control turns about the middle of the box.
func frameBox(min, max math32.Vector3, fovY, aspect float32, dir math32.Vector3) cameraFrame {
	c := [3]float64{
		0.5 * (float64(min.X) + float64(max.X)),
		0.5 * (float64(min.Y) + float64(max.Y)),
		0.5 * (float64(min.Z) + float64(max.Z)),
	}
	half := [3]float64{float64(max.X) - c[0], float64(max.Y) - c[1], float64(max.Z) - c[2]}
	back, right, up := viewBasis(dir)
	b := frameFill * math.Tan(float64(fovY)*math.Pi/360)
	a := b * float64(aspect)
	minDepth := frameDepth * math.Max(math.Sqrt(dot3(half, half)), frameMinRadius)
	// In view axes about the box's centre, the camera at (px, py, pz) sees corner (x, y, z) at
	// depth pz − z, and it is in view when x + a·z − a·pz ≤ px ≤ x − a·z + a·pz, and alike in y.
	// Over all corners that asks pz ≥ (hiX − loX)/(2a) with hiX = max(x + a·z) and
	// loX = min(x − a·z), and px between hiX − a·pz and loX + a·pz: their midpoint is
	// (hiX + loX)/2 whatever pz is.
	inf := math.Inf(1)
	hiX, loX, hiY, loY, nearZ := -inf, inf, -inf, inf, -inf
	var depths [8]float64 // z of each corner
	for i := range depths {
		r := [3]float64{-half[0], -half[1], -half[2]}
		for k := range r {
			if i&(1<<k) != 0 {
				r[k] = half[k]
			}
		}
		x, y, z := dot3(r, right), dot3(r, up), dot3(r, back)
		hiX, loX = math.Max(hiX, x+a*z), math.Min(loX, x-a*z)
		hiY, loY = math.Max(hiY, y+b*z), math.Min(loY, y-b*z)
		nearZ = math.Max(nearZ, z)
		depths[i] = z
	}
	pz := math.Max(math.Max((hiX-loX)/(2*a), (hiY-loY)/(2*b)), nearZ+minDepth)
	px, py := 0.5*(hiX+loX), 0.5*(hiY+loY)
	var pos, tgt [3]float64
	for k := range pos {
		tgt[k] = c[k] + px*right[k] + py*up[k]
		pos[k] = tgt[k] + pz*back[k]
	}
	f := cameraFrame{
		position: math32.Vector3{X: float32(pos[0]), Y: float32(pos[1]), Z: float32(pos[2])},
		target:   math32.Vector3{X: float32(tgt[0]), Y: float32(tgt[1]), Z: float32(tgt[2])},
		nearest:  float32(inf),
	}
	for _, z := range depths {
		f.nearest = math32.Min(f.nearest, float32(pz-z))
		f.farthest = math32.Max(f.farthest, float32(pz-z))
	}
	return f
}

// viewBasis returns the unit vector back along dir (from the target towards the camera) and the
// camera's right and up vectors for a y-up world, as a look-at camera with up (0, 1, 0) sees them.
func viewBasis(dir math32.Vector3) (back, right, up [3]float64) {
	back = [3]float64{float64(dir.X), float64(dir.Y), float64(dir.Z)}
	n := math.Sqrt(dot3(back, back))
	// right = (0, 1, 0) × back, normalised; it vanishes when back is vertical.
	right = [3]float64{back[2], 0, -back[0]}
	rn := math.Sqrt(dot3(right, right))
	if !(n > 0) || !(rn > 1e-6*n) {
		back, n = [3]float64{0, 1, 1}, math.Sqrt2
		right, rn = [3]float64{1, 0, 0}, 1
	}
	for k := range back {
		back[k] /= n
		right[k] /= rn
	}
	up = [3]float64{
		back[1]*right[2] - back[2]*right[1],
		back[2]*right[0] - back[0]*right[2],
		back[0]*right[1] - back[1]*right[0],
	}
	return back, right, up
}

// dot3 is the dot product of a and b.
func dot3(a, b [3]float64) float64 { return a[0]*b[0] + a[1]*b[1] + a[2]*b[2] }
