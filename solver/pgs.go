package solver

// solvePGS is the baseline most game engines use (ODE's quick step, Bullet's sequential
// impulses): projected Gauss–Seidel over each contact's normal row and then its two tangent rows,
// with "box" friction |f_k,i| ≤ μ_k α_k per tangent direction using the current α_k, for a fixed
// number of sweeps (Options.PGSIters), warm-started from the problem's warm impulses. It gives no
// accuracy guarantee: the contact constraints hold only as far as the sweeps converged, and the
// box admits friction up to √2 μα.
func (s *Solver) solvePGS() {
	op := &s.op
	v := s.v
	alpha, f := s.alpha, s.f
	op.velocity(alpha, f, v)
	for it := 0; it < s.opts.PGSIters; it++ {
		for k := 0; k < op.m; k++ {
			g := op.g[6*k : 6*k+6]
			if g[0] > 0 {
				w := op.rowDot(k, 0, v) + op.bEff[k]
				a := max(0, alpha[k]-w/g[0])
				if da := a - alpha[k]; da != 0 {
					op.addW(k, 0, da, v)
					alpha[k] = a
				}
			}
			lim := op.mu[k] * alpha[k]
			for r := 1; r <= 2; r++ {
				d := g[3]
				if r == 2 {
					d = g[5]
				}
				if !(d > 0) {
					continue
				}
				old := f[2*k+r-1]
				t := old - (op.rowDot(k, r, v)+op.bT[2*k+r-1])/d
				t = max(-lim, min(lim, t))
				if dt := t - old; dt != 0 {
					op.addW(k, r, dt, v)
					f[2*k+r-1] = t
				}
			}
		}
	}
	s.st.Iterations = s.opts.PGSIters
	s.st.ContactSweeps = s.opts.PGSIters
	s.st.FrictionSweeps = s.opts.PGSIters
}
