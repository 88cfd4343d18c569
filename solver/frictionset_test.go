package solver

import (
	"math"
	"math/rand/v2"
	"testing"
)

// stepToBoundary must carry a point inside the set exactly onto its boundary: the gauge there is
// the radius to rounding and a step 0.1 % shorter stays inside, for the disc and for the pyramid's
// octagon, from points deep inside and near the rim, in every direction.
func TestStepToBoundaryLandsOnTheRim(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 5))
	for _, fs := range []frictionSet{newFrictionSet(Disc, 8), newFrictionSet(Pyramid, 8)} {
		for trial := 0; trial < 20000; trial++ {
			rad := math.Exp(4 * (r.Float64() - 0.5))
			depth := r.Float64()
			if trial%2 == 0 {
				depth = 1 - 1e-6*r.Float64() // near the rim
			}
			th := 2 * math.Pi * r.Float64()
			f1, f2 := math.Cos(th), math.Sin(th)
			g := fs.gauge(f1, f2)
			f1, f2 = f1*depth*rad/g, f2*depth*rad/g
			ph := 2 * math.Pi * r.Float64()
			scale := math.Exp(6 * (r.Float64() - 0.5))
			p1, p2 := scale*math.Cos(ph), scale*math.Sin(ph)
			step := fs.stepToBoundary(f1, f2, p1, p2, rad)
			if !(step >= 0) || math.IsInf(step, 0) {
				t.Fatalf("%v trial %d: step %v from (%g, %g) along (%g, %g), radius %g", fs.model, trial, step, f1, f2, p1, p2, rad)
			}
			if at := fs.gauge(f1+step*p1, f2+step*p2); math.Abs(at-rad) > 1e-12*rad {
				t.Fatalf("%v trial %d: the step ends at gauge %.17g, want the radius %.17g", fs.model, trial, at, rad)
			}
			if short := fs.gauge(f1+0.999*step*p1, f2+0.999*step*p2); step > 0 && !(short < rad) {
				t.Fatalf("%v trial %d: a step 0.1 %% short is at gauge %.17g, outside the radius %.17g", fs.model, trial, short, rad)
			}
		}
		if step := fs.stepToBoundary(0.1, 0.2, 0, 0, 1); !math.IsInf(step, 1) {
			t.Errorf("%v: no direction, step %v, want +Inf", fs.model, step)
		}
	}
}

// support must be the largest value of the linear function yᵀd over the unit set, found here by
// walking its boundary, which the gauge traces (y = u/gauge(u) for unit u): for the disc and for
// the pyramid's octagon and hexagon, in directions of any length.
func TestSupportIsTheLargestValueOverTheSet(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	for _, fs := range []frictionSet{newFrictionSet(Disc, 8), newFrictionSet(Pyramid, 8), newFrictionSet(Pyramid, 6)} {
		for trial := 0; trial < 100; trial++ {
			scale := math.Exp(6 * (r.Float64() - 0.5))
			ph := 2 * math.Pi * r.Float64()
			d1, d2 := scale*math.Cos(ph), scale*math.Sin(ph)
			walk := math.Inf(-1)
			const steps = 20000
			for i := 0; i < steps; i++ {
				th := 2 * math.Pi * float64(i) / steps
				u1, u2 := math.Cos(th), math.Sin(th)
				g := fs.gauge(u1, u2)
				walk = max(walk, (u1*d1+u2*d2)/g)
			}
			// The walk samples the boundary 2π/20000 apart, so at a polygon's vertex it may fall
			// short by about ‖d‖·2π/20000; it is never above the support.
			if got := fs.support(d1, d2); got < walk-1e-12*scale || got > walk+5e-4*scale {
				t.Fatalf("%v d=(%g, %g): support %.15g, boundary walk %.15g", fs.model, d1, d2, got, walk)
			}
		}
	}
}
