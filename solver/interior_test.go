package solver

import (
	"math/rand/v2"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
)

// Redundant rows: stacks with four and eight points a face, a soft block on 40 vertex contacts,
// and the struck pyramid's captured island with its warm friction. The interior point is
// contact-exact with the pivoting reference's velocity, the QP's unique answer.
func TestInteriorPointOnRedundantIslands(t *testing.T) {
	for _, perFace := range []int{4, 8} {
		var p Problem
		redundantStack(&p, 10, perFace, 3)
		f := make([]float64, 2*p.NumContacts())
		ref := projectWith(t, "pivoting", &p, f, ContactPivot)
		got := projectWith(t, "interior point", &p, f, ContactInterior)
		sameVelocity(t, "stack", got.Qdot, ref.Qdot, 1e-9*ref.Stats.Scale)
	}
	var soft Problem
	genSoftGrid(&soft, 10, 5, 8, 1)
	f := make([]float64, 2*soft.NumContacts())
	ref := projectWith(t, "pivoting", &soft, f, ContactPivot)
	got := projectWith(t, "interior point", &soft, f, ContactInterior)
	sameVelocity(t, "soft face", got.Qdot, ref.Qdot, 1e-9*ref.Stats.Scale)

	var p Problem
	warm := struckPyramid(t, &p)
	ref = projectWith(t, "pivoting", &p, warm, ContactPivot)
	got = projectWith(t, "interior point", &p, warm, ContactInterior)
	sameVelocity(t, "struck pyramid", got.Qdot, ref.Qdot, 1e-8*ref.Stats.Scale)
}

// brickHeap builds two layers of unit cubes: an n × n grid on the ground, four corner points
// each, and an (n−1) × (n−1) grid laid over it as bricks are, each cube resting on four with a
// quarter of its face, four points on each (16 contacts). Every face's rows are redundant (rank
// 3 of 4), and its gaps slightly inconsistent, so the island has more contact rows than DoFs and
// only some of each face's points can be clamped; the bodies fall at 1 m/s with random sideways
// velocities.
func brickHeap(p *Problem, n int, seed uint64) {
	p.Reset()
	rng := rand.New(rand.NewPCG(seed, 7))
	var bodies []rigidBody
	lower := func(i, j int) int { return i*n + j }
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			b := rigidBody{c: mgl64.Vec3{float64(i), float64(j), 0.5}, mass: 1, inert: 1.0 / 6, vel: sideways(rng).Add(mgl64.Vec3{0, 0, -1})}
			bodies = append(bodies, b)
			addRigid(p, b)
		}
	}
	for i := 0; i+1 < n; i++ {
		for j := 0; j+1 < n; j++ {
			b := rigidBody{c: mgl64.Vec3{float64(i) + 0.5, float64(j) + 0.5, 1.5}, mass: 1, inert: 1.0 / 6, vel: sideways(rng).Add(mgl64.Vec3{0, 0, -1})}
			bodies = append(bodies, b)
			addRigid(p, b)
		}
	}
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			x, y := float64(i), float64(j)
			addFaceContact(p, bodies, -1, lower(i, j), x-0.5, x+0.5, y-0.5, y+0.5, 0)
		}
	}
	up := n * n
	for i := 0; i+1 < n; i++ {
		for j := 0; j+1 < n; j++ {
			for di := 0; di < 2; di++ {
				for dj := 0; dj < 2; dj++ {
					x0, y0 := float64(i)+0.5*float64(di), float64(j)+0.5*float64(dj)
					addFaceContact(p, bodies, lower(i+di, j+dj), up, x0, x0+0.5, y0, y0+0.5, 1)
				}
			}
			up++
		}
	}
	for k := range p.NumContacts() {
		p.Contact(k).B = 1e-7 * float64(k%4) // a resting face's gap terms, as redundantStack's
	}
}

// A heap beyond the active set's rank limit (365 cubes, 2,190 DoFs, 3,488 redundant contacts),
// solved whole as the game solves it: ContactAuto hands it to the interior point, the answer is
// contact-exact by the checker and bit for bit the same when solved again, and a warm solve
// allocates nothing.
func TestInteriorPointSolveIsExactDeterministicAndAllocationFree(t *testing.T) {
	var p Problem
	brickHeap(&p, 14, 1)
	if min(p.NumContacts(), p.NumDoF()) <= dofRankLimit {
		t.Fatalf("%d contacts and %d DoFs: within the active set's limit", p.NumContacts(), p.NumDoF())
	}
	if first := solveExactTwiceWithoutAllocating(t, &p, GameOptions()); first.Stats.ContactInterior == 0 {
		t.Errorf("no interior-point iterations: the interior point did not run")
	}
}

// A heap from the churn scene at 750 live crates, as the physics step built it
// (testdata/churn_heap_island.json.gz: 556 crates, 3,336 DoFs, 4,515 contacts, step 200, warm
// start from a PGS run): solved whole under GameOptions, ContactAuto hands it to the interior
// point, whose answer the crossover and PGS-SM's polish bring to contact-exact by the checker.
func TestInteriorPointOnChurnHeap(t *testing.T) {
	var p Problem
	readIslands(t, "testdata/churn_heap_island.json.gz")[0].build(&p)
	if min(p.NumContacts(), p.NumDoF()) <= dofRankLimit {
		t.Fatalf("%d contacts and %d DoFs: within the active set's limit", p.NumContacts(), p.NumDoF())
	}
	s := mustSolver(t, GameOptions())
	var res Result
	if err := s.Solve(&p, &res); err != nil {
		t.Fatal(err)
	}
	rep := CheckContact(&p, res.Alpha, res.Friction, res.Qdot)
	if !res.Stats.ContactExact || rep.Worst > 1e-9*res.Stats.Scale {
		t.Errorf("not contact-exact: %v", rep)
	}
	if res.Stats.ContactInterior == 0 {
		t.Errorf("no interior-point iterations: the interior point did not run")
	}
}
