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

// A cold pile of spheres on a 5-sphere base (225 contacts): from the contact projection, the
// friction projection to FrictionTol alone must end within 50 sweeps — the subspace CG turning the
// sliding contacts along their rims — with an answer the independent checker finds feasible and
// optimal to FrictionTol, and with contacts sliding on their rims (the control: the island
// exercises the turn). Moving the sticking contacts alone, the projection ran to
// FrictionMaxSweeps (2,000) short of that optimality.
func TestFrictionSubspaceTurnsSlidingContacts(t *testing.T) {
	var p Problem
	genSpherePile(&p, 5, false, 1)
	s := mustSolver(t, Options{Friction: Disc})
	s.prepare(&p)
	s.projectContact(s.f, false)
	tol := s.opts.FrictionTol * s.op.scale
	s.projectFriction(s.f, tol, 0, time.Time{})
	if sw := s.st.FrictionSweeps; sw > 50 {
		t.Errorf("%d friction sweeps, want ≤ 50", sw)
	}
	rep := CheckFriction(&p, CheckSpec{Friction: Disc}, s.alpha, s.f, nil)
	if rep.FrictionFeasibility > 1e-12 || rep.FrictionOptimality > tol {
		t.Errorf("the answer is not the projection to %.0e: %v", tol, rep)
	}
	sliding := 0
	for k := 0; k < p.NumContacts(); k++ {
		f1, f2 := s.f[2*k], s.f[2*k+1]
		s1, s2 := s.op.slip(k, s.v)
		onRim := math.Hypot(f1, f2) >= p.Contact(k).Mu*s.alpha[k]*(1-1e-9)
		if onRim && s.alpha[k] > 0 && f1*s1+f2*s2 < -tol*math.Hypot(f1, f2) {
			sliding++
		}
	}
	if sliding == 0 {
		t.Fatal("no contact slides on its rim: the island does not exercise the turn")
	}
}

// The card house struck by falling blocks at the step its largest island formed
// (testdata/struck_card_house_sliding.json: 175 contacts, about half of the loaded ones sliding on
// their rims): the game's options must solve it ε-converged and contact-exact (CheckContact),
// within 8,000 friction sweeps and 600 contact CG iterations in all, and the step must not gain
// energy beyond what the contacts' biases put in (stepEnergyChange). While the subspace CG moved
// the sticking contacts alone, its friction projections ran to FrictionMaxSweeps one after
// another: 43,788 sweeps; with every contact projection solved to ContactTol (no inexact
// subsequences) they took 958 CG iterations.
func TestStruckCardHouseSolvesWithinSweeps(t *testing.T) {
	p, res := solveCapturedExact(t, "testdata/struck_card_house_sliding.json", GameOptions())
	st := res.Stats
	if !st.Converged {
		t.Errorf("not converged: rel_err %.3g after %d iterations", st.RelErr, st.Iterations)
	}
	if change, designed := stepEnergyChange(t, p, res.Alpha, res.Qdot); change > designed+1e-6 {
		t.Errorf("the step gains %.3g J, more than the biases' %.3g J", change, designed)
	}
	if st.FrictionSweeps > 8000 {
		t.Errorf("%d friction sweeps, want ≤ 8,000", st.FrictionSweeps)
	}
	if st.ContactCG > 600 {
		t.Errorf("%d contact CG iterations, want ≤ 600", st.ContactCG)
	}
}
