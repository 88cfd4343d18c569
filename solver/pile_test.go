package solver

import "testing"

// On a cold pile of spheres (a 10-sphere base, 1,900 contacts) PGS-SM's clip-and-resolve rounds
// cycle. ContactAuto must hand the projection to MPRGP once its rounds stop reducing the LCP
// residual, not after spending its whole PGS-SM budget: one staggered iteration took 36,512
// contact CG that way, and takes 10,885 now. The answer must stay exact.
func TestSpherePileAutoHandsOver(t *testing.T) {
	var p Problem
	genSpherePile(&p, 10, false, 1)
	res := solveContactExact(t, "pile", &p, Options{Friction: Disc, MaxIters: 1})
	if res.Stats.ContactCG > 15000 {
		t.Errorf("%d contact CG iterations, want ≤ 15,000", res.Stats.ContactCG)
	}
}
