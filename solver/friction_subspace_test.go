package solver

import (
	"math"
	"testing"
	"time"
)

// A card house struck by falling blocks, as the impact scene built its island
// (testdata/struck_card_house_island.json: 102 contacts). The cards' contacts are redundant, four
// to a pair, so the friction projection's subspace system is nearly singular and CG heads along
// its near-null directions. Alternating with sweeps from the warm start's contact projection, every
// subspace step must be kept (not undone for raising the objective) and leave every friction
// impulse in its set. Run to its end and clipped back into the sets, CG landed above the sweeps'
// point in the first round.
func TestFrictionSubspaceStepsHoldOnRedundantContacts(t *testing.T) {
	isl := readIslands(t, "testdata/struck_card_house_island.json")[0]
	var p Problem
	isl.build(&p)
	s := mustSolver(t, GameOptions())
	s.prepare(&p)
	s.warmStart(&p)
	if !s.projectContact(s.f, true) {
		t.Fatal("contact projection inexact")
	}
	fp := &s.friction
	fp.bind(&s.op, s.alpha, s.v, time.Time{})
	defer fp.unbind()
	fp.maxPasses = math.MaxInt
	s.op.velocity(s.alpha, s.f, s.v)
	tol := s.opts.FrictionTol * s.op.scale
	for round := 0; round < 30; round++ {
		fp.sweep(s.f, tol)
		if kept, _ := fp.subspaceStep(s.f, tol); !kept {
			t.Fatalf("round %d: the subspace step raised the objective and was undone", round)
		}
		for k := 0; k < s.op.m; k++ {
			rad := s.op.mu[k] * s.alpha[k]
			if g := s.set.gauge(s.f[2*k], s.f[2*k+1]); g > rad*(1+1e-12) {
				t.Fatalf("round %d: contact %d's friction %.6g outside its set %.6g", round, k, g, rad)
			}
		}
	}
	if s.friction.work.CG == 0 {
		t.Fatal("no subspace CG ran: the test does not exercise the subspace step")
	}
}
