package solver_test

import (
	"fmt"

	"github.com/stagger-physics/stagger/solver"
)

// A 2 kg particle (a 3-DoF block) resting on the ground while gravity pulls it down and sideways
// over a 10 ms step, with μ = 0.5: the normal impulse cancels the approach exactly, and friction,
// at most μα, takes 0.049 m/s off the sideways 0.06 m/s (Coulomb's law at the velocity level).
func ExampleSolver_Solve() {
	var p solver.Problem
	body := p.AddBlock(3)
	minv := p.InvMass(body)
	minv[0], minv[4], minv[8] = 0.5, 0.5, 0.5 // M⁻¹ = I/2 kg
	off := p.BlockAt(body).Offset
	p.QdotP[off+0] = 0.06   // sideways velocity after the predictor, m/s
	p.QdotP[off+2] = -0.098 // g·h downwards
	k := p.AddContact(-1, body, 0, 0.5, 0)
	rows := p.RowsB(k) // n, t₁, t₂ restricted to the block: here the identity's rows
	copy(rows, []float64{0, 0, 1, 1, 0, 0, 0, 1, 0})

	s, err := solver.NewSolver(solver.GameOptions())
	if err != nil {
		panic(err)
	}
	var res solver.Result
	if err := s.Solve(&p, &res); err != nil {
		panic(err)
	}
	fmt.Printf("α = %.3f N·s, friction = %.3f N·s, q̇ = (%.3f, %.3f, %.3f) m/s, exact %v\n",
		res.Alpha[0], res.Friction[0], res.Qdot[0], res.Qdot[1], res.Qdot[2], res.Stats.ContactExact)
	// Output: α = 0.196 N·s, friction = -0.098 N·s, q̇ = (0.011, 0.000, 0.000) m/s, exact true
}
