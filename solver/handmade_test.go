package solver

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
)

// Hand-made problems with known physical answers.

// unboundedGameOptions is GameOptions without its work budget: the loop as the game runs it, for
// the tests of what it converges to and how, which the budget would cut short.
func unboundedGameOptions() Options {
	o := GameOptions()
	o.WorkBudget = 0
	return o
}

func mustSolver(t testing.TB, o Options) *Solver {
	t.Helper()
	s, err := NewSolver(o)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// solveContactExact solves p with options o and requires the answer to be contact-exact, as the
// independent checker measures it (1e-9 of the problem's scale) and as the solver reports it.
func solveContactExact(t *testing.T, name string, p *Problem, o Options) Result {
	t.Helper()
	var res Result
	if err := mustSolver(t, o).Solve(p, &res); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if rep := CheckContact(p, res.Alpha, res.Friction, res.Qdot); rep.Worst > 1e-9*res.Stats.Scale || !res.Stats.ContactExact {
		t.Errorf("%s: not contact-exact: %v", name, rep)
	}
	return res
}

func spec(o Options) CheckSpec { return CheckSpec{Friction: o.Friction, Tangents: o.Tangents} }

// models are the two friction sets, solved to the projections' own accuracy: eq. 28's rel_err is a
// ratio of squared kinetic norms, so ε = 1e-24 asks the staggered loop for a 1e-12 relative change,
// which it reaches only at a fixed point to working accuracy.
var models = []struct {
	name string
	opts Options
}{
	{"pyramid", Options{Friction: Pyramid, Epsilon: 1e-24, MaxIters: 300, FrictionTol: 1e-13}},
	{"disc", Options{Friction: Disc, Epsilon: 1e-24, MaxIters: 300, FrictionTol: 1e-13}},
}

// A particle (a 3-DoF block) on a plane with gravity tilted by θ: it sticks for tan θ ≤ μ and
// slides with v = h g (sin θ − μ cos θ) above; at tan θ = μ exactly it is at rest with |f| = μα.
func TestInclineStickSlip(t *testing.T) {
	const mu, m = 0.5, 2.0
	for _, md := range models {
		for _, ratio := range []float64{0.8, 1, 1.25} {
			th := math.Atan(mu * ratio)
			var p Problem
			b := p.AddBlock(3)
			minv := p.InvMass(b)
			minv[0], minv[4], minv[8] = 1/m, 1/m, 1/m
			p.QdotP[0] = genH * genG * math.Sin(th)
			p.QdotP[2] = -genH * genG * math.Cos(th)
			k := p.AddContact(-1, b, 0, mu, 0)
			copy(p.RowsB(k), []float64{0, 0, 1, 1, 0, 0, 0, 1, 0})
			s := mustSolver(t, md.opts)
			var res Result
			if err := s.Solve(&p, &res); err != nil {
				t.Fatal(err)
			}
			alpha := m * genH * genG * math.Cos(th)
			wantV := 0.0
			wantF := -m * genH * genG * math.Sin(th)
			if ratio > 1 {
				wantV = genH * genG * (math.Sin(th) - mu*math.Cos(th))
				wantF = -mu * alpha
			}
			if ratio == 1 {
				wantF = -mu * alpha
			}
			if math.Abs(res.Alpha[0]-alpha) > 1e-12 || math.Abs(res.Qdot[0]-wantV) > 1e-12 ||
				math.Abs(res.Friction[0]-wantF) > 1e-12 || math.Abs(res.Friction[1]) > 1e-12 || math.Abs(res.Qdot[2]) > 1e-12 {
				t.Errorf("%s tanθ/μ=%v: α %v (want %v) f %v (want %v) v %v (want vx %v)", md.name, ratio,
					res.Alpha[0], alpha, res.Friction[:2], wantF, res.Qdot, wantV)
			}
			if rep := CheckFixedPoint(&p, spec(md.opts), res.Alpha, res.Friction, res.Qdot); rep.Worst > 1e-12 {
				t.Errorf("%s tanθ/μ=%v: %v", md.name, ratio, rep)
			}
		}
	}
}

// boxOnPlane builds a unit cube on the ground with its four bottom corners as contacts (a
// singular Delassus matrix: only three of the four are independent).
func boxOnPlane(p *Problem, vel mgl64.Vec3, mu float64) {
	p.Reset()
	bodies := []rigidBody{{c: mgl64.Vec3{0, 0, 0.5}, mass: 1, inert: 1.0 / 6, vel: vel}}
	addRigid(p, bodies[0])
	for _, x := range []float64{-0.5, 0.5} {
		for _, y := range []float64{-0.5, 0.5} {
			addPointContact(p, bodies, -1, 0, mgl64.Vec3{x, y, 0}, mgl64.Vec3{0, 0, 1}, mu)
		}
	}
}

func TestBoxOnPlaneRedundantCorners(t *testing.T) {
	for _, md := range models {
		for _, cs := range []ContactSolver{ContactAuto, ContactInterior, ContactPGSSM, ContactPivot} {
			o := md.opts
			o.ContactSolver = cs
			s := mustSolver(t, o)
			var p Problem
			var res Result
			// Resting: stays at rest, total normal impulse m g h.
			boxOnPlane(&p, mgl64.Vec3{}, 0.8)
			if err := s.Solve(&p, &res); err != nil {
				t.Fatal(err)
			}
			sum := 0.0
			for _, a := range res.Alpha {
				sum += a
			}
			for i, v := range res.Qdot {
				if math.Abs(v) > 1e-12 {
					t.Errorf("%s/%d resting: q̇[%d] = %v", md.name, cs, i, v)
				}
			}
			if math.Abs(sum-genG*genH) > 1e-12 {
				t.Errorf("%s/%d resting: Σα = %v, want %v", md.name, cs, sum, genG*genH)
			}
			// Sliding along x at 1 m/s with μ 0.5: v = (1 − μ g h, 0, 0), ω = 0.
			boxOnPlane(&p, mgl64.Vec3{1, 0, 0}, 0.5)
			if err := s.Solve(&p, &res); err != nil {
				t.Fatal(err)
			}
			want := []float64{1 - 0.5*genG*genH, 0, 0, 0, 0, 0}
			for i := range want {
				if math.Abs(res.Qdot[i]-want[i]) > 1e-9 {
					t.Errorf("%s/%d sliding: q̇ = %v, want %v", md.name, cs, res.Qdot, want)
					break
				}
			}
			if rep := CheckFixedPoint(&p, spec(o), res.Alpha, res.Friction, res.Qdot); rep.Worst > 1e-9 {
				t.Errorf("%s/%d sliding: %v", md.name, cs, rep)
			}
		}
	}
}

// leaningRod builds the paper's Fig. 2 situation: a rod of length 2 leaning at angle φ against a
// frictionless wall (x = 0) on a floor with friction μ. The floor contact's generalized normal and
// friction directions are not M⁻¹-orthogonal.
func leaningRod(p *Problem, phi, mu float64) {
	p.Reset()
	const L = 2.0
	bx, tz := L*math.Cos(phi), L*math.Sin(phi)
	bodies := []rigidBody{{c: mgl64.Vec3{bx / 2, 0, tz / 2}, mass: 1, inert: L * L / 12}}
	addRigid(p, bodies[0])
	addPointContact(p, bodies, -1, 0, mgl64.Vec3{bx, 0, 0}, mgl64.Vec3{0, 0, 1}, mu)
	addPointContact(p, bodies, -1, 0, mgl64.Vec3{0, 0, tz}, mgl64.Vec3{1, 0, 0}, 0)
}

func TestLeaningRod(t *testing.T) {
	phi := math.Pi / 3 // needs μ ≥ cot φ / 2 ≈ 0.289 to stand
	for _, md := range models {
		s := mustSolver(t, md.opts)
		var p Problem
		var res Result
		leaningRod(&p, phi, 0.5)
		// Non-orthogonality: n_floorᵀ M⁻¹ (tangent row along x) ≠ 0.
		s.prepare(&p)
		if g := s.op.g[1]; math.Abs(g) < 0.1 {
			t.Fatalf("floor normal and friction directions are M⁻¹-orthogonal (%v); test is vacuous", g)
		}
		if err := s.Solve(&p, &res); err != nil {
			t.Fatal(err)
		}
		mgh := genG * genH
		wall := mgh / 2 / math.Tan(phi)
		floorT := res.Friction[0]
		// The floor's t̂₁ for normal z is +x.
		if math.Abs(res.Alpha[0]-mgh) > 1e-9 || math.Abs(res.Alpha[1]-wall) > 1e-9 || math.Abs(floorT+wall) > 1e-9 {
			t.Errorf("%s standing: α %v friction %v; want α (%v, %v), floor friction %v", md.name, res.Alpha, res.Friction, mgh, wall, -wall)
		}
		for i, v := range res.Qdot {
			if math.Abs(v) > 1e-9 {
				t.Errorf("%s standing: q̇[%d] = %v", md.name, i, v)
			}
		}
		// Below the threshold the foot slides outwards with saturated friction.
		leaningRod(&p, phi, 0.2)
		if err := s.Solve(&p, &res); err != nil {
			t.Fatal(err)
		}
		rep := CheckFixedPoint(&p, spec(md.opts), res.Alpha, res.Friction, res.Qdot)
		if rep.Worst > 1e-9 || !res.Stats.Converged {
			t.Errorf("%s sliding: converged %v, %v", md.name, res.Stats.Converged, rep)
		}
		foot := res.Qdot[0] + res.Qdot[4]*(-(2*math.Sin(phi))/2) // v_x + (ω × r)_x, r = (bx/2, 0, −tz/2): ω_y r_z
		if !(foot > 1e-6) || math.Abs(math.Hypot(res.Friction[0], res.Friction[1])-0.2*res.Alpha[0]) > 1e-9 {
			t.Errorf("%s sliding: foot velocity %v, friction %v, α %v", md.name, foot, res.Friction[:2], res.Alpha[0])
		}
	}
}

// Blocks of size 6, 6 + r (reduced deformable) and others: contact exactness always, and the
// fixed point when converged.
func TestBlockSizes(t *testing.T) {
	for _, sizes := range [][]int{{6}, {9}, {6, 9}, {3, 6, 12}} {
		for _, md := range models {
			var p Problem
			rng := newRand(7)
			randomProblem(&p, rng, sizes, 6, 14)
			s := mustSolver(t, md.opts)
			var res Result
			if err := s.Solve(&p, &res); err != nil {
				t.Fatal(err)
			}
			rep := CheckContact(&p, res.Alpha, res.Friction, res.Qdot)
			if rep.Worst > 1e-9*res.Stats.Scale {
				t.Errorf("sizes %v %s: %v", sizes, md.name, rep)
			}
			if res.Stats.Converged {
				if rep := CheckFixedPoint(&p, spec(md.opts), res.Alpha, res.Friction, res.Qdot); rep.Worst > 1e-5*res.Stats.Scale {
					t.Errorf("sizes %v %s converged but %v", sizes, md.name, rep)
				}
			}
		}
	}
}
