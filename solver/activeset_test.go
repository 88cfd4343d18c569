package solver

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
)

// projectWith runs the contact projection alone on p for the friction impulse f with the given
// sub-solver, and checks its answer through the independent checker: contact-exact to 1e-9·scale.
func projectWith(t *testing.T, what string, p *Problem, f []float64, cs ContactSolver) Result {
	t.Helper()
	s := mustSolver(t, Options{ContactSolver: cs, PivotLimit: MaxPivotLimit})
	var res Result
	if err := s.ProjectContact(p, f, &res); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	rep := CheckContact(p, res.Alpha, f, res.Qdot)
	if !res.Stats.ContactExact || rep.Worst > 1e-9*res.Stats.Scale {
		t.Errorf("%s (sub-solver %d): not contact-exact: reported %v, checker %v", what, cs, res.Stats.ContactExact, rep)
	}
	res.Qdot = append([]float64(nil), res.Qdot...)
	res.Alpha = append([]float64(nil), res.Alpha...)
	return res
}

// sameVelocity fails unless a and b agree to tol in every entry: the contact projection's
// velocity is unique (the QP is strictly convex in q̇), whatever its normal impulses.
func sameVelocity(t *testing.T, what string, a, b []float64, tol float64) {
	t.Helper()
	for i := range a {
		if math.Abs(a[i]-b[i]) > tol {
			t.Errorf("%s: velocities differ at %d: %v (active set) against %v (pivoting)", what, i, a[i], b[i])
			return
		}
	}
}

// independentRows counts how many of the contacts with a positive impulse have normal rows that
// are linearly independent in the M⁻¹ metric, by a Gram–Schmidt pass over M^{-1/2}-free products
// (the Delassus entries): the rank of the clamped Delassus block.
func clampedRank(p *Problem, alpha []float64) (clamped, rank int) {
	var s Solver
	s.init(Options{})
	s.op.compile(p)
	var rows []int
	for k, a := range alpha {
		if a > 0 {
			rows = append(rows, k)
		}
	}
	n := len(rows)
	g := make([]float64, n*n)
	for i, k := range rows {
		for j, l := range rows {
			g[i*n+j] = entry(&s.op, k, l)
		}
	}
	x := make([]float64, n)
	perm := make([]int, n)
	y := make([]float64, n)
	rank = psdSolve(g, n, make([]float64, n), x, perm, y, 1e-12)
	return n, rank
}

// redundantStack is a stack of unit cubes on the ground whose every face carries perPoints coplanar
// points: 4 at the corners, or 8 with the edges' midpoints too. Rows for three constrained DoFs per
// face, so the Delassus matrix is singular; the gaps are made slightly inconsistent (b_k grows by
// 1e-7 m/s from point to point, as round-off leaves a resting face's gap terms), so that only a
// subset of each face's points can be clamped.
func redundantStack(p *Problem, n, perFace int, seed uint64) {
	p.Reset()
	rng := rand.New(rand.NewPCG(seed, 3))
	bodies := make([]rigidBody, n)
	for i := range bodies {
		bodies[i] = rigidBody{c: mgl64.Vec3{0, 0, 0.5 + float64(i)}, mass: 1, inert: 1.0 / 6, vel: sideways(rng)}
		addRigid(p, bodies[i])
	}
	xs := []float64{-0.5, 0.5}
	if perFace == 8 {
		xs = []float64{-0.5, 0, 0.5}
	}
	for i := 0; i < n; i++ {
		below := i - 1
		z := float64(i)
		count := 0
		for _, x := range xs {
			for _, y := range xs {
				if perFace == 8 && x == 0 && y == 0 {
					continue
				}
				k := addPointContact(p, bodies, below, i, mgl64.Vec3{x, y, z}, mgl64.Vec3{0, 0, 1}, genMu)
				p.Contact(k).B = 1e-7 * float64(count)
				count++
			}
		}
	}
}

// A box on a box with four and with eight points per face: the active set clamps at most three
// independent rows per face (the rank of its Delassus block) and is contact-exact, with the
// velocity of the pivoting reference.
func TestActiveSetOnRedundantFaces(t *testing.T) {
	for _, perFace := range []int{4, 8} {
		for _, n := range []int{2, 10} {
			var p Problem
			redundantStack(&p, n, perFace, uint64(n))
			f := make([]float64, 2*p.NumContacts())
			ref := projectWith(t, "pivoting", &p, f, ContactPivot)
			got := projectWith(t, "active set", &p, f, ContactActiveSet)
			sameVelocity(t, "stack", got.Qdot, ref.Qdot, 1e-9*ref.Stats.Scale)
			clamped, rank := clampedRank(&p, got.Alpha)
			if clamped != rank || clamped > 3*n {
				t.Errorf("%d boxes, %d points a face: %d contacts clamped, their rows of rank %d; want independent rows, at most %d", n, perFace, clamped, rank, 3*n)
			}
		}
	}
}

// A soft block (6 rigid and 10 modal DoFs) resting on 40 vertex contacts of one face: far more
// rows than DoFs, each coupled to every mode. The active set is contact-exact with the
// reference's velocity and clamps independent rows only.
func TestActiveSetOnSoftBlockFace(t *testing.T) {
	for seed := uint64(1); seed <= 3; seed++ {
		var p Problem
		genSoftGrid(&p, 10, 5, 8, seed)
		if p.NumContacts() != 40 {
			t.Fatalf("%d contacts, want 40", p.NumContacts())
		}
		f := make([]float64, 2*p.NumContacts())
		ref := projectWith(t, "pivoting", &p, f, ContactPivot)
		got := projectWith(t, "active set", &p, f, ContactActiveSet)
		sameVelocity(t, "soft face", got.Qdot, ref.Qdot, 1e-9*ref.Stats.Scale)
		if clamped, rank := clampedRank(&p, got.Alpha); clamped != rank || clamped > p.NumDoF() {
			t.Errorf("seed %d: %d contacts clamped with rows of rank %d, want independent rows within %d DoFs", seed, clamped, rank, p.NumDoF())
		}
	}
}

// genSoftGrid is genSoftFace with an nx × ny grid of contacts under the block, not spinning.
func genSoftGrid(p *Problem, r, nx, ny int, seed uint64) { genSoftPatch(p, r, nx, ny, 0, 11, seed) }

// The island of a pyramid of crates struck by a heavy ball as the physics step built it
// (testdata/struck_pyramid_island.json: 56 bodies, 336 DoFs, 583 contacts, throw scene step 136).
// With its warm start's friction impulse, and with friction impulses scaled from it, the active
// set's projection is contact-exact with the pivoting reference's velocity.
func TestActiveSetOnStruckPyramid(t *testing.T) {
	var p Problem
	warm := struckPyramid(t, &p)
	for _, scale := range []float64{0, 0.5, 1} {
		f := make([]float64, len(warm))
		for i := range f {
			f[i] = scale * warm[i]
		}
		ref := projectWith(t, "pivoting", &p, f, ContactPivot)
		got := projectWith(t, "active set", &p, f, ContactActiveSet)
		sameVelocity(t, "struck pyramid", got.Qdot, ref.Qdot, 1e-8*ref.Stats.Scale)
	}
}

// struckPyramid builds the captured struck pyramid's island into p and returns its warm start's
// friction impulse.
func struckPyramid(t *testing.T, p *Problem) []float64 {
	t.Helper()
	readIslands(t, "testdata/struck_pyramid_island.json")[0].build(p)
	warm := make([]float64, 2*p.NumContacts())
	for k := range p.NumContacts() {
		c := p.Contact(k)
		warm[2*k], warm[2*k+1] = c.WarmFriction[0], c.WarmFriction[1]
	}
	return warm
}

// Solved whole as the game solves it, the struck pyramid's island is contact-exact by the
// checker, bit for bit the same when solved again, and a warm solve allocates nothing.
func TestActiveSetSolveIsExactDeterministicAndAllocationFree(t *testing.T) {
	var p Problem
	struckPyramid(t, &p)
	o := GameOptions()
	o.ContactSolver = ContactActiveSet
	if first := solveExactTwiceWithoutAllocating(t, &p, o); first.Stats.ContactPivots == 0 {
		t.Errorf("no pivots: the active set did not run")
	}
}

// solveExactTwiceWithoutAllocating solves p whole with o and checks that the answer is
// contact-exact by the checker, bit for bit the same when solved again, and that a warm solve
// allocates nothing. It returns the first answer's statistics.
func solveExactTwiceWithoutAllocating(t *testing.T, p *Problem, o Options) Result {
	t.Helper()
	s := mustSolver(t, o)
	var first, again Result
	if err := s.Solve(p, &first); err != nil && !isSolveErr(err) {
		t.Fatal(err)
	}
	rep := CheckContact(p, first.Alpha, first.Friction, first.Qdot)
	if !first.Stats.ContactExact || rep.Worst > 1e-9*first.Stats.Scale {
		t.Errorf("not contact-exact: %v", rep)
	}
	first.Alpha = append([]float64(nil), first.Alpha...)
	first.Friction = append([]float64(nil), first.Friction...)
	if err := s.Solve(p, &again); err != nil && !isSolveErr(err) {
		t.Fatal(err)
	}
	for k := range first.Alpha {
		if first.Alpha[k] != again.Alpha[k] || first.Friction[2*k] != again.Friction[2*k] || first.Friction[2*k+1] != again.Friction[2*k+1] {
			t.Fatalf("contact %d: a second solve of the same problem differs", k)
		}
	}
	allocs := testing.AllocsPerRun(2, func() { _ = s.Solve(p, &again) })
	if allocs != 0 {
		t.Errorf("%v allocations per warm solve", allocs)
	}
	return first
}

// isSolveErr reports whether err is a *SolveError (an answer below its promised accuracy).
func isSolveErr(err error) bool {
	_, ok := err.(*SolveError)
	return ok
}

// The island of a struck pyramid captured at a degenerate vertex (testdata/
// degenerate_pyramid_island.json.gz: throw scene step 138 without the presolve, 621 contacts): its
// projections' paths meet contacts with α = 0 and w = 0 on faces of redundant rows, where a
// contact released at a zero-length step would be clamped again at the next and cycled with a
// dozen others until the pivot bound (13,000 pivots in one subsequence and the repair of its
// answer). Solved so, it must end contact-exact by the checker within 3,000 pivots.
func TestActiveSetDoesNotCycle(t *testing.T) {
	ci := readIslands(t, "testdata/degenerate_pyramid_island.json.gz")[0]
	var p Problem
	ci.build(&p)
	o := GameOptions()
	o.Presolve, o.MaxIters = 0, 1
	o.ContactSolver = ContactActiveSet
	var res Result
	if err := mustSolver(t, o).Solve(&p, &res); err != nil && !isSolveErr(err) {
		t.Fatal(err)
	}
	if rep := CheckContact(&p, res.Alpha, res.Friction, res.Qdot); !res.Stats.ContactExact || rep.Worst > 1e-9*res.Stats.Scale {
		t.Errorf("not contact-exact: %v", rep)
	}
	if piv := res.Stats.ContactPivots; piv > 3000 {
		t.Errorf("%d pivots in %d subsequences, want at most 3,000", piv, res.Stats.Iterations)
	}
}
