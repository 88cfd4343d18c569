package solver

import "testing"

// On a cold pile of spheres (a 10-sphere base, 1,900 contacts) PGS-SM's clip-and-resolve rounds
// cycle, and ContactAuto hands the projection to a DoF-sized form once its rounds stop reducing
// the LCP residual. The answer must be exact (checked independently); the CG iterations it takes are
// BenchmarkVariants' spheres10 row.
func TestSpherePileAutoExact(t *testing.T) {
	var p Problem
	genSpherePile(&p, 10, false, 1)
	solveContactExact(t, "pile", &p, Options{Friction: Disc, MaxIters: 1})
}
