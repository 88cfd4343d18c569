package solver

import (
	"math"
	"testing"
)

// inclineParticle builds TestInclineStickSlip's particle on a plane tilted so that tan θ = ratio·μ.
func inclineParticle(p *Problem, mu, ratio float64) {
	p.Reset()
	th := math.Atan(mu * ratio)
	b := p.AddBlock(3)
	minv := p.InvMass(b)
	minv[0], minv[4], minv[8] = 0.5, 0.5, 0.5
	p.QdotP[0] = genH * genG * math.Sin(th)
	p.QdotP[2] = -genH * genG * math.Cos(th)
	k := p.AddContact(-1, b, 0, mu, 0)
	copy(p.RowsB(k), []float64{0, 0, 1, 1, 0, 0, 0, 1, 0})
}

// solveTight solves p to a fixed point at the projections' own accuracy and returns the answer.
func solveTight(t *testing.T, p *Problem, f FrictionModel) Result {
	t.Helper()
	s := mustSolver(t, Options{Friction: f, Epsilon: 1e-24, MaxIters: 300, FrictionTol: 1e-13})
	var res Result
	if err := s.Solve(p, &res); err != nil || !res.Stats.Converged {
		t.Fatalf("tight solve: %v %+v", err, res.Stats)
	}
	return res
}

// A converged answer used as the warm start is returned as it is, without a projection, and the
// independent checker finds it a fixed point.
func TestWarmStartAcceptedAsIs(t *testing.T) {
	cases := []struct {
		name  string
		build func(p *Problem)
	}{
		{"sticking particle", func(p *Problem) { inclineParticle(p, 0.5, 0.8) }},
		{"sliding particle", func(p *Problem) { inclineParticle(p, 0.5, 1.25) }},
		{"resting tower 40", func(p *Problem) { genTower(p, 40, false, 1) }},
		{"resting pyramid 6", func(p *Problem) { genPyramid(p, 6, false, 1) }},
		{"6+r blocks", func(p *Problem) { randomProblem(p, newRand(3), []int{6, 9}, 10, 30) }},
	}
	for _, tc := range cases {
		var p Problem
		tc.build(&p)
		tight := solveTight(t, &p, Disc)
		warmFrom(&p, &tight)
		s := mustSolver(t, Options{Friction: Disc})
		var res Result
		if err := s.Solve(&p, &res); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		st := res.Stats
		if !st.WarmExact || !st.Converged || !st.ContactExact || st.Iterations != 1 || st.ContactCG+st.FrictionSweeps != 0 {
			t.Errorf("%s: warm start not accepted as is: %+v", tc.name, st)
			continue
		}
		for k := range res.Alpha {
			if res.Alpha[k] != tight.Alpha[k] || res.Friction[2*k] != tight.Friction[2*k] || res.Friction[2*k+1] != tight.Friction[2*k+1] {
				t.Errorf("%s: contact %d's answer differs from its warm start", tc.name, k)
				break
			}
		}
		if rep := CheckFixedPoint(&p, CheckSpec{Friction: Disc}, res.Alpha, res.Friction, res.Qdot); rep.Worst > 1e-9 {
			t.Errorf("%s: %v", tc.name, rep)
		}
		if math.Abs(st.MinGap-minGapOf(&p, res.Qdot)) > 1e-12 {
			t.Errorf("%s: MinGap %v, want %v", tc.name, st.MinGap, minGapOf(&p, res.Qdot))
		}
	}
}

// minGapOf recomputes min_k n_kᵀ(q̇ + e_k q̇ᵗ) + b_k from the rows.
func minGapOf(p *Problem, qdot []float64) float64 {
	g := math.Inf(1)
	for k := 0; k < p.NumContacts(); k++ {
		c := p.Contact(k)
		w := c.B
		if c.BodyA >= 0 {
			bl := p.BlockAt(c.BodyA)
			w += dot(p.RowsA(k)[:bl.Size], qdot[bl.Offset:]) + c.E*dot(p.RowsA(k)[:bl.Size], p.QdotT[bl.Offset:])
		}
		if c.BodyB >= 0 {
			bl := p.BlockAt(c.BodyB)
			w += dot(p.RowsB(k)[:bl.Size], qdot[bl.Offset:]) + c.E*dot(p.RowsB(k)[:bl.Size], p.QdotT[bl.Offset:])
		}
		g = math.Min(g, w)
	}
	return g
}

// A warm start that violates one optimality condition is not accepted: the full solve runs and
// its answer is the fixed point.
func TestWarmStartRejected(t *testing.T) {
	cases := []struct {
		name  string
		ratio float64
		model FrictionModel
		edit  func(c *Contact)
	}{
		{"sticking friction halved (slip)", 0.8, Disc, func(c *Contact) { c.WarmFriction[0] *= 0.5 }},
		{"sliding friction turned across the slip", 1.25, Disc, func(c *Contact) {
			c.WarmFriction[0], c.WarmFriction[1] = 0, c.WarmFriction[0]
		}},
		{"sliding friction along the slip", 1.25, Disc, func(c *Contact) { c.WarmFriction[0] = -c.WarmFriction[0] }},
		{"friction outside the disc", 1.25, Disc, func(c *Contact) { c.WarmFriction[0] *= 1.01 }},
		{"normal impulse too large (separating)", 0.8, Disc, func(c *Contact) { c.WarmNormal *= 1.01 }},
		{"normal impulse too small (penetrating)", 0.8, Disc, func(c *Contact) { c.WarmNormal *= 0.99 }},
		{"pyramid contact on its boundary (not checked)", 1.25, Pyramid, func(c *Contact) {}},
	}
	for _, tc := range cases {
		var p Problem
		inclineParticle(&p, 0.5, tc.ratio)
		tight := solveTight(t, &p, tc.model)
		warmFrom(&p, &tight)
		tc.edit(p.Contact(0))
		o := Options{Friction: tc.model, Epsilon: 1e-24, MaxIters: 300, FrictionTol: 1e-13}
		s := mustSolver(t, o)
		var res Result
		if err := s.Solve(&p, &res); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if res.Stats.WarmExact {
			t.Errorf("%s: accepted as is: %+v", tc.name, res.Stats)
		}
		if rep := CheckFixedPoint(&p, spec(o), res.Alpha, res.Friction, res.Qdot); rep.Worst > 1e-9 {
			t.Errorf("%s: full solve: %v", tc.name, rep)
		}
	}
}

// A body falling towards a speculative contact that it will not reach this step: the zero start
// is already the answer.
func TestWarmStartZeroSeparated(t *testing.T) {
	var p Problem
	inclineParticle(&p, 0.5, 0.8)
	p.Contact(0).B = 1 // 1 m/s of gap closing left: no impulse needed
	s := mustSolver(t, Options{Friction: Disc})
	var res Result
	if err := s.Solve(&p, &res); err != nil {
		t.Fatal(err)
	}
	if !res.Stats.WarmExact || res.Alpha[0] != 0 || res.Qdot[2] != p.QdotP[2] {
		t.Errorf("separated contact: %+v α %v q̇ %v", res.Stats, res.Alpha, res.Qdot)
	}
}
