package scenes

import (
	"fmt"
	"math"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/stagger-physics/stagger/collide"
	"github.com/stagger-physics/stagger/ecs"
	"github.com/stagger-physics/stagger/physics"
)

// Arch geometry: the centreline is the inverted catenary z = cosh w − cosh x (a = 1) over
// |x| ≤ w = asinh 3, 6 m long and √10 − 1 ≈ 2.16 m high; voussoirs 0.25 m thick across it and
// 0.5 m deep, of stone.
const (
	archThick   = 0.25
	archDepth   = 0.5
	archDensity = 2000
)

// archHalfWidth is w, where the catenary's slope is 3: the feet carry a thrust one third as large
// as their load, so they need μ > 1/3 to hold.
var archHalfWidth = math.Asinh(3)

// arch is a catenary arch of n dry voussoirs (paper §8): the blocks split the centreline into equal
// arc lengths, their joints are normal to it, and the two end blocks are cut horizontally to stand
// on the ground. The line of thrust of a catenary of uniform section is its centreline, so the
// joints need no friction; the feet need μ > 1/3. It stands at μ 0.6 and falls at μ 0.1.
func arch() Scene {
	return Scene{
		Name:     "arch",
		Summary:  "a catenary arch of n dry voussoirs, 6 m of arc over a 3.6 m span, feet cut level; stands at μ 0.6, falls at μ 0.1",
		Defaults: Params{N: 15, Mu: 0.6},
		check:    checkArch,
		build:    buildArch,
	}
}

// checkArch bounds the arch's voussoirs.
func checkArch(p Params) error {
	if p.N < 3 || p.N > 200 {
		return fmt.Errorf("n is the number of voussoirs and must be in [3, 200], got %d", p.N)
	}
	return nil
}

// archVoussoirs returns each block's corners in the x–z plane (intrados and extrados at its two
// joints, in order around the block), with the end blocks cut at z = 0.
func archVoussoirs(n int) [][4][2]float64 {
	total := 2 * math.Sinh(archHalfWidth) // arc length of the centreline
	inner := make([][2]float64, n+1)
	outer := make([][2]float64, n+1)
	for k := 0; k <= n; k++ {
		x := math.Asinh(-total/2 + total*float64(k)/float64(n))
		z := math.Cosh(archHalfWidth) - math.Cosh(x)
		// Unit normal to the centreline, pointing out of the arch: (sinh x, 1)/cosh x.
		nx, nz := math.Sinh(x)/math.Cosh(x), 1/math.Cosh(x)
		inner[k] = [2]float64{x - archThick/2*nx, z - archThick/2*nz}
		outer[k] = [2]float64{x + archThick/2*nx, z + archThick/2*nz}
	}
	// The end joints cross the ground at a slant; cut them level where the intrados and the
	// extrados of the end blocks meet z = 0.
	level := func(a, b [2]float64) [2]float64 {
		t := a[1] / (a[1] - b[1])
		return [2]float64{a[0] + t*(b[0]-a[0]), 0}
	}
	inner[0], outer[0] = level(inner[1], inner[0]), level(outer[1], outer[0])
	inner[n], outer[n] = level(inner[n-1], inner[n]), level(outer[n-1], outer[n])
	blocks := make([][4][2]float64, n)
	for k := 0; k < n; k++ {
		blocks[k] = [4][2]float64{inner[k], inner[k+1], outer[k+1], outer[k]}
	}
	return blocks
}

func buildArch(w *ecs.World, p Params) error {
	if err := spawnGround(w, p.Mu); err != nil {
		return err
	}
	for _, b := range archVoussoirs(p.N) {
		var pts []mgl64.Vec3
		for _, c := range b {
			for _, y := range []float64{-archDepth / 2, archDepth / 2} {
				pts = append(pts, mgl64.Vec3{c[0], y, c[1]})
			}
		}
		hull, centre, err := collide.NewConvexHullCentered(pts)
		if err != nil {
			return err
		}
		body := physics.NewDynamic(centre, archDensity)
		body.Friction, body.Restitution = p.Mu, p.E
		if _, err := physics.Spawn(w, body, physics.Collider{Shape: hull}); err != nil {
			return err
		}
	}
	return nil
}
