package solver

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/go-gl/mathgl/mgl64"
)

// genSoftFace builds the friction problem of a soft block landing on a face, turning and sliding:
// one body of 6 rigid and r modal DoFs (a reduced deformable body's block), 16 contacts on a 4 × 4
// grid under it against static ground, with point Jacobians that couple every contact to the same
// modes. Many contacts slide on their rims at once while sharing one body, which is where block
// Gauss–Seidel crawls.
func genSoftFace(p *Problem, r int, seed uint64) { genSoftPatch(p, r, 4, 4, 2, 7, seed) }

// genSoftPatch is the soft block of genSoftFace on an nx × ny grid of contacts, spinning at spin
// rad/s about the vertical, its random rows drawn from the PCG stream (seed, stream).
func genSoftPatch(p *Problem, r, nx, ny int, spin float64, stream, seed uint64) {
	rng := rand.New(rand.NewPCG(seed, stream))
	p.Reset()
	n := 6 + r
	b := p.AddBlock(n)
	minv := p.InvMass(b)
	const mass, half = 32.0, 0.2
	inertia := mass * (2 * half * 2 * half) / 6
	for i := 0; i < 3; i++ {
		minv[i*n+i] = 1 / mass
		minv[(3+i)*n+3+i] = 1 / inertia
	}
	for k := 0; k < r; k++ {
		// Stiffer modes answer an impulse less: the implicit step's effective mass grows with ω².
		minv[(6+k)*n+6+k] = 0.5 / (1 + float64(k*k))
	}
	off := p.BlockAt(b).Offset
	qd := p.QdotP[off : off+n]
	qd[0], qd[1], qd[2] = 0.3, 0.1, -0.5
	qd[5] = spin // about the vertical: contacts slide in every direction
	for k := 0; k < r; k++ {
		qd[6+k] = 0.1 * (2*rng.Float64() - 1)
	}
	frame := [3]mgl64.Vec3{{0, 0, 1}, {1, 0, 0}, {0, 1, 0}}
	for i := 0; i < nx; i++ {
		for j := 0; j < ny; j++ {
			at := mgl64.Vec3{-half + 2*half*float64(i)/float64(nx-1), -half + 2*half*float64(j)/float64(ny-1), -half}
			c := p.AddContact(-1, b, 0, 0.6, 0)
			rows := p.RowsB(c)
			modal := make([]mgl64.Vec3, r)
			for k := range modal {
				modal[k] = mgl64.Vec3{rng.Float64() - 0.5, rng.Float64() - 0.5, rng.Float64() - 0.5}.Mul(0.3)
			}
			for row, d := range frame {
				x := rows[row*n : (row+1)*n]
				arm := at.Cross(d)
				x[0], x[1], x[2] = d[0], d[1], d[2]
				x[3], x[4], x[5] = arm[0], arm[1], arm[2]
				for k := range modal {
					x[6+k] = modal[k].Dot(d)
				}
			}
		}
	}
}

// On the soft face the friction projection must reach a dissipation gap far below FrictionGap —
// the Newton steps converge quadratically once they find the sliding set — within a few hundred
// passes; 2,000 block Gauss–Seidel sweeps alone end at a gap 10⁵ times larger. The gap and the
// feasibility are recomputed by the independent checker from the Problem.
func TestFrictionNewtonSolvesSoftFace(t *testing.T) {
	for seed := uint64(1); seed <= 5; seed++ {
		var p Problem
		genSoftFace(&p, 10, seed)
		// The pivoting reference sets α: the face's normal impulses are not unique, and this test
		// is of the friction projection.
		s := mustSolver(t, Options{Friction: Disc, ContactSolver: ContactPivot})
		s.prepare(&p)
		s.projectContact(s.f, false)
		s.projectFriction(s.f, s.opts.FrictionTol*s.op.scale, s.opts.FrictionGap, time.Time{})
		rep := CheckFriction(&p, CheckSpec{Friction: Disc}, s.alpha, s.f, nil)
		if rep.FrictionFeasibility > 1e-12 {
			t.Errorf("seed %d: friction infeasible: %v", seed, rep)
		}
		sliding := 0
		for k := 0; k < p.NumContacts(); k++ {
			if r := p.Contact(k).Mu * s.alpha[k]; r > 0 && math.Hypot(s.f[2*k], s.f[2*k+1]) > r*(1-1e-6) {
				sliding++
			}
		}
		if sliding < 4 {
			t.Errorf("seed %d: %d contacts slide on their rims; the problem should have several", seed, sliding)
		}
		dual, kinetic := frictionFigures(&p, s.alpha, s.f)
		const want = 1e-9
		if !(kinetic > 0) || dual > want*kinetic {
			t.Errorf("seed %d: dissipation gap %.3g J, want ≤ %.0e·½‖Df‖² = %.3g J", seed, dual, want, want*kinetic)
		}
		t.Logf("seed %d sweeps %d cg %d sliding %d gap %.3g", seed, s.st.FrictionSweeps, s.st.FrictionCG, sliding, dual/kinetic)
		if passes := s.st.FrictionSweeps + s.st.FrictionCG; passes > 400 {
			t.Errorf("seed %d: %d sweeps and %d passes of Newton work, want ≤ 400 in all", seed, s.st.FrictionSweeps, s.st.FrictionCG)
		}
	}
}

// capturedIsland is an island problem as the physics step built it, stored as JSON: each block's
// inverse mass (row-major), predicted and kinematic velocities, and each contact's bodies, bias,
// friction, restitution, warm start and rows.
type capturedIsland struct {
	Step   int
	Blocks []struct {
		Minv, QdotP, QdotT []float64
	}
	Contacts []struct {
		A, B         int
		Bc, Mu, E    float64
		BT           [2]float64
		WarmN        float64
		WarmF        [2]float64
		RowsA, RowsB []float64
	}
}

// readIslands reads the captured islands stored as JSON in file, gzipped if its name ends in .gz.
func readIslands(t *testing.T, file string) []capturedIsland {
	t.Helper()
	raw, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if strings.HasSuffix(file, ".gz") {
		zr, err := gzip.NewReader(bytes.NewReader(raw))
		if err != nil {
			t.Fatal(err)
		}
		if raw, err = io.ReadAll(zr); err != nil {
			t.Fatal(err)
		}
	}
	var islands []capturedIsland
	if err := json.Unmarshal(raw, &islands); err != nil {
		t.Fatal(err)
	}
	return islands
}

// build fills p with the island.
func (ci *capturedIsland) build(p *Problem) {
	p.Reset()
	for _, b := range ci.Blocks {
		n := len(b.QdotP)
		i := p.AddBlock(n)
		copy(p.InvMass(i), b.Minv)
		off := p.BlockAt(i).Offset
		copy(p.QdotP[off:off+n], b.QdotP)
		copy(p.QdotT[off:off+n], b.QdotT)
	}
	for _, c := range ci.Contacts {
		k := p.AddContact(c.A, c.B, c.Bc, c.Mu, c.E)
		copy(p.RowsA(k), c.RowsA)
		copy(p.RowsB(k), c.RowsB)
		cc := p.Contact(k)
		cc.BT, cc.WarmNormal, cc.WarmFriction = c.BT, c.WarmN, c.WarmF
	}
}

// Four islands of the jelly scene as its step built them (testdata/jelly_islands.json): a soft
// block wobbling on a static box, 16 contacts on one 16-DoF body; one on a falling rigid box with
// 20 contacts; and two stacked pairs of soft blocks, 48 and 39 contacts on two 16-DoF bodies.
// Solved whole with the default options, each must converge and certify its answer contact-exact
// through the independent checker, with its friction projections spending at most 3,000 sweeps
// and passes in all where block Gauss–Seidel alone spent over twenty thousand sweeps on each
// stacked pair.
func TestFrictionNewtonOnJellyIslands(t *testing.T) {
	solveCapturedIslands(t, "testdata/jelly_islands.json", 3000)
}

// solveCapturedIslands solves each island of file whole with the game's options and checks its
// answer as every game answer is (solveIslandChecked), with its friction projections spending at
// most maxPasses sweeps and passes in all.
func solveCapturedIslands(t *testing.T, file string, maxPasses int) {
	t.Helper()
	s := mustSolver(t, GameOptions())
	for _, ci := range readIslands(t, file) {
		_, res := solveIslandChecked(t, s, ci)
		st := res.Stats
		t.Logf("step %d: %d contacts, %d iterations, %d sweeps, %d Newton/CG passes", ci.Step, st.Contacts, st.Iterations, st.FrictionSweeps, st.FrictionCG)
		if passes := st.FrictionSweeps + st.FrictionCG; passes > maxPasses {
			t.Errorf("step %d: friction projections took %d sweeps and %d passes, want ≤ %d in all", ci.Step, st.FrictionSweeps, st.FrictionCG, maxPasses)
		}
	}
}

// Two islands of the jelly scene's soft block resting on a box as its step built them
// (testdata/resting_soft_block.json: 20 contacts between a 16-DoF block and a 6-DoF box). The
// block's contacts on one face make the tangent rows' Delassus matrix nearly singular, and Newton
// steps that moved a contact resting on its rim out of its disc were clipped back so far off their
// direction that no step length lowered the objective; the projections then fell back on block
// Gauss–Seidel, which ran 2,000 to 3,700 sweeps a solve. Pinning such contacts to their rims
// (pinLeaving) keeps the Newton steps descending: each solve must converge, be contact-exact by the
// independent checker, and spend at most 1,000 friction sweeps and passes.
func TestFrictionNewtonOnRestingSoftBlock(t *testing.T) {
	solveCapturedIslands(t, "testdata/resting_soft_block.json", 1000)
}
