package solver

import (
	"math"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
)

// floorMoving makes boxOnPlane's ground (side A of every contact, which has no block) a kinematic
// floor moving at u: each contact's BT is t̂ᵢᵀ(v_B − v_A) over the sides without a block, −t̂ᵢᵀu.
func floorMoving(p *Problem, u mgl64.Vec3) {
	t1, t2 := tangentBasis(mgl64.Vec3{0, 0, 1})
	for k := 0; k < p.NumContacts(); k++ {
		p.Contact(k).BT = [2]float64{-t1.Dot(u), -t2.Dot(u)}
	}
}

// boxVelocity returns the box's linear velocity and the sum of its contacts' friction impulses in
// world coordinates.
func boxVelocity(res *Result) (v, f mgl64.Vec3) {
	t1, t2 := tangentBasis(mgl64.Vec3{0, 0, 1})
	for k := 0; k < len(res.Alpha); k++ {
		f = f.Add(t1.Mul(res.Friction[2*k])).Add(t2.Mul(res.Friction[2*k+1]))
	}
	return mgl64.Vec3{res.Qdot[0], res.Qdot[1], res.Qdot[2]}, f
}

// A box at rest on a floor that moves under it (Contact.BT): below μ g h of floor speed it sticks
// and leaves with the floor's velocity; above, it slides and gains μ g h in the floor's direction.
// The independent checker accepts both answers, the friction opposes the slip measured with the
// offset (it points along the floor's motion, against the box's velocity relative to the floor),
// and an answer that ignores the offset is refused.
func TestTangentOffsetMovingFloor(t *testing.T) {
	const mu = 0.5
	dir := mgl64.Vec3{3, 4, 0}.Normalize()
	game := GameOptions()
	game.Epsilon, game.MaxIters, game.FrictionTol = 1e-24, 300, 1e-13
	opts := []struct {
		name string
		opts Options
	}{{models[0].name, models[0].opts}, {models[1].name, models[1].opts}, {"game", game}}
	for _, md := range opts {
		for _, speed := range []float64{0.02, 1} {
			var p Problem
			boxOnPlane(&p, mgl64.Vec3{}, mu)
			u := dir.Mul(speed)
			floorMoving(&p, u)
			res := solveContactExact(t, md.name, &p, md.opts)
			if rep := CheckFixedPoint(&p, spec(md.opts), res.Alpha, res.Friction, res.Qdot); rep.Worst > 1e-9 {
				t.Errorf("%s floor %v m/s: the checker refuses the answer: %v", md.name, speed, rep)
			}
			v, f := boxVelocity(&res)
			want := u // sticks: carried with the floor
			if speed > mu*genG*genH {
				// Slides: μ m g h of impulse along the floor's motion, or, for the pyramid, along its
				// 8-gon's vertex nearest that direction (t̂₁ = x̂, t̂₂ = ŷ here).
				d := dir
				if md.opts.Friction == Pyramid {
					th := math.Round(math.Atan2(dir[1], dir[0])/(math.Pi/4)) * math.Pi / 4
					d = mgl64.Vec3{math.Cos(th), math.Sin(th), 0}
				}
				want = d.Mul(mu * genG * genH)
			}
			if v.Sub(want).Len() > 1e-9 {
				t.Errorf("%s floor %v m/s: box velocity %v, want %v", md.name, speed, v, want)
			}
			// Friction on the box opposes its slip relative to the floor, v − u.
			if slip := v.Sub(u); slip.Len() > 1e-9 && f.Dot(slip) > -0.9*f.Len()*slip.Len() {
				t.Errorf("%s floor %v m/s: friction %v does not oppose the slip %v", md.name, speed, f, slip)
			}
			if f.Dot(dir) <= 0 {
				t.Errorf("%s floor %v m/s: friction %v does not drag the box along the floor %v", md.name, speed, f, dir)
			}
			// The same answer without the floor's motion in the checker: friction then pushes a box
			// that would be at rest, which the maximal dissipation principle forbids.
			floorMoving(&p, mgl64.Vec3{})
			if rep := CheckFriction(&p, spec(md.opts), res.Alpha, res.Friction, res.Qdot); rep.FrictionOptimality < 1e-3 {
				t.Errorf("%s floor %v m/s: the checker accepts the answer with the offset removed: %v", md.name, speed, rep)
			}
		}
	}
}

// The PGS baseline carries a box on a slow floor too (its box friction holds μα per axis).
func TestTangentOffsetPGS(t *testing.T) {
	var p Problem
	boxOnPlane(&p, mgl64.Vec3{}, 0.5)
	u := mgl64.Vec3{0.02, -0.01, 0}
	floorMoving(&p, u)
	var res Result
	if err := mustSolver(t, Options{Method: MethodPGS, PGSIters: 200}).Solve(&p, &res); err != nil {
		t.Fatal(err)
	}
	if v, _ := boxVelocity(&res); v.Sub(u).Len() > 1e-6 {
		t.Errorf("pgs: box velocity %v, want the floor's %v", v, u)
	}
}

// A non-finite tangential offset is refused by name.
func TestTangentOffsetValidated(t *testing.T) {
	for _, bad := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		var p Problem
		boxOnPlane(&p, mgl64.Vec3{}, 0.5)
		p.Contact(2).BT[1] = bad
		err := p.Validate()
		if err == nil || !strings.Contains(err.Error(), "BT") || !strings.Contains(err.Error(), "2") {
			t.Errorf("BT %v: got %v, want an error naming contact 2's BT", bad, err)
		}
	}
}

// Random problems with tangential offsets on a third of their contacts, under the
// friction models and the pipeline's preset: every answer is contact-exact, and a converged one
// is the fixed point (eq. 26) as the checker measures it with the offsets.
func TestRandomTangentOffsets(t *testing.T) {
	converged := 0
	for _, md := range append(models, gameModels()...) {
		for seed := uint64(1); seed <= 3; seed++ {
			var p Problem
			rng := newRand(seed + 20) // TestRandomStaggered's problems
			randomProblem(&p, rng, []int{6, 9}, 50, 200)
			offsets := 0
			for k := 0; k < p.NumContacts(); k++ {
				// A third of the contacts (not only those with a static side: the solver takes BT
				// as any known tangential velocity, a conveyor belt's say).
				if c := p.Contact(k); rng.IntN(3) == 0 {
					c.BT = [2]float64{0.5 * rng.NormFloat64(), 0.5 * rng.NormFloat64()}
					offsets++
				}
			}
			if offsets == 0 {
				t.Fatalf("seed %d: no contact with a static side", seed)
			}
			o := md.opts
			o.MaxIters = 100
			var res Result
			if err := mustSolver(t, o).Solve(&p, &res); err != nil {
				t.Fatal(err)
			}
			if rep := CheckContact(&p, res.Alpha, res.Friction, res.Qdot); rep.Worst > 1e-9*res.Stats.Scale || !res.Stats.ContactExact {
				t.Errorf("%s seed %d: %v", md.name, seed, rep)
			}
			t.Logf("%s seed %d: %d offsets, iters %d conv %v rel %.2g", md.name, seed, offsets, res.Stats.Iterations, res.Stats.Converged, res.Stats.RelErr)
			if !res.Stats.Converged {
				continue // random problems need not have a fixed point the loop reaches (TestRandomStaggered)
			}
			converged++
			if fp := CheckFixedPoint(&p, spec(o), res.Alpha, res.Friction, res.Qdot); fp.Worst > 1e-5*res.Stats.Scale {
				t.Errorf("%s seed %d converged (%d iters, rel %.2g) but %v", md.name, seed, res.Stats.Iterations, res.Stats.RelErr, fp)
			}
		}
	}
	if converged < 6 {
		t.Errorf("%d of 12 solves converged, want at least 6 fixed points to check", converged)
	}
}
