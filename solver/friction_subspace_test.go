package solver

import (
	"math"
	"testing"
	"time"
)

// A card house struck by falling blocks, as the impact scene built its island
// (testdata/struck_card_house_island.json: 102 contacts). The cards' contacts are redundant, four
// to a pair, so the friction projection's subspace system is nearly singular and CG heads along
// its near-null directions. From the warm start's contact projection and a sweep, the clipped
// subspace step must land above the sweeps' point and be undone (why the projection then cuts its
// CG steps). With cut steps, alternating with sweeps, every subspace step must be kept and leave
// every friction impulse in its set.
func TestFrictionSubspaceStepsHoldOnRedundantContacts(t *testing.T) {
	s, _ := warmProjected(t, "testdata/struck_card_house_island.json")
	fp := &s.friction
	fp.bind(&s.op, s.alpha, s.v, time.Time{})
	defer fp.unbind()
	fp.maxPasses = math.MaxInt
	s.op.velocity(s.alpha, s.f, s.v)
	tol := s.opts.FrictionTol * s.op.scale
	fp.sweep(s.f, tol)
	fp.cutSteps = false
	if fp.subspaceStep(s.f, tol) {
		t.Fatal("the clipped subspace step was kept: the island does not exercise the cut steps")
	}
	fp.cutSteps = true
	for round := 0; round < 30; round++ {
		fp.sweep(s.f, tol)
		if !fp.subspaceStep(s.f, tol) {
			t.Fatalf("round %d: the cut subspace step raised the objective and was undone", round)
		}
		for k := 0; k < s.op.m; k++ {
			rad := s.op.mu[k] * s.alpha[k]
			if g := s.set.gauge(s.f[2*k], s.f[2*k+1]); g > rad*(1+1e-12) {
				t.Fatalf("round %d: contact %d's friction %.6g outside its set %.6g", round, k, g, rad)
			}
		}
	}
	if s.friction.work.CG == 0 {
		t.Fatal("no subspace CG ran")
	}
}

// warmProjected returns a solver with the game options prepared for the first island stored in
// file, its answer the warm start's contact projection (exact, or the test fails).
func warmProjected(t *testing.T, file string) (*Solver, *Problem) {
	t.Helper()
	p := new(Problem)
	readIslands(t, file)[0].build(p)
	s := mustSolver(t, GameOptions())
	s.prepare(p)
	s.warmStart(p)
	if !s.projectContact(s.f, true) {
		t.Fatal("contact projection inexact")
	}
	return s, p
}
