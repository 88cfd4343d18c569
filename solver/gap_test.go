package solver

import (
	"math"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"
)

// answerVelocity recomputes, from the Problem alone (its rows and inverse-mass blocks, not the
// operator), the velocity q̇ᴾ + M⁻¹(Nα + Df) of the answer (alpha, f) and M⁻¹Df.
func answerVelocity(p *Problem, alpha, f []float64) (v, mdf []float64) {
	v = append([]float64(nil), p.QdotP...)
	mdf = make([]float64, p.NumDoF())
	imp := make([]float64, p.NumDoF())
	df := make([]float64, p.NumDoF())
	forRows(p, func(k int, bl Block, n, t1, t2 []float64) {
		for j := 0; j < bl.Size; j++ {
			imp[bl.Offset+j] += alpha[k]*n[j] + f[2*k]*t1[j] + f[2*k+1]*t2[j]
			df[bl.Offset+j] += f[2*k]*t1[j] + f[2*k+1]*t2[j]
		}
	})
	for b := 0; b < p.NumBlocks(); b++ {
		bl := p.BlockAt(b)
		minv := mat.NewDense(bl.Size, bl.Size, p.InvMass(b))
		var u, w mat.VecDense
		u.MulVec(minv, mat.NewVecDense(bl.Size, imp[bl.Offset:bl.Offset+bl.Size]))
		w.MulVec(minv, mat.NewVecDense(bl.Size, df[bl.Offset:bl.Offset+bl.Size]))
		for j := 0; j < bl.Size; j++ {
			v[bl.Offset+j] += u.AtVec(j)
			mdf[bl.Offset+j] = w.AtVec(j)
		}
	}
	return v, mdf
}

// forRows calls visit with each contact side's block and its normal and tangent rows.
func forRows(p *Problem, visit func(k int, bl Block, n, t1, t2 []float64)) {
	for k := 0; k < p.NumContacts(); k++ {
		c := p.Contact(k)
		for _, side := range []struct {
			body int
			rows []float64
		}{{c.BodyA, p.RowsA(k)}, {c.BodyB, p.RowsB(k)}} {
			if side.rows == nil {
				continue
			}
			bl := p.BlockAt(side.body)
			visit(k, bl, side.rows[:bl.Size], side.rows[bl.Size:2*bl.Size], side.rows[2*bl.Size:])
		}
	}
}

// contactSlips returns each contact's tangential velocity (t̂₁, t̂₂ components) at the answer's
// velocity, recomputed from the Problem.
func contactSlips(p *Problem, alpha, f []float64) [][2]float64 {
	v, _ := answerVelocity(p, alpha, f)
	s := make([][2]float64, p.NumContacts())
	forRows(p, func(k int, bl Block, _, t1, t2 []float64) {
		for j := 0; j < bl.Size; j++ {
			s[k][0] += t1[j] * v[bl.Offset+j]
			s[k][1] += t2[j] * v[bl.Offset+j]
		}
	})
	return s
}

// frictionFigures recomputes from the Problem the dissipation gap Σ_k f_kᵀs_k + μ_kα_k‖s_k‖ of the
// answer (alpha, f) at its own velocity, and ½‖Df‖² in the kinetic metric, ½(M⁻¹Df)ᵀ(Df).
func frictionFigures(p *Problem, alpha, f []float64) (dual, kinetic float64) {
	_, mdf := answerVelocity(p, alpha, f)
	forRows(p, func(k int, bl Block, _, t1, t2 []float64) {
		for j := 0; j < bl.Size; j++ {
			kinetic += 0.5 * mdf[bl.Offset+j] * (f[2*k]*t1[j] + f[2*k+1]*t2[j])
		}
	})
	for k, s := range contactSlips(p, alpha, f) {
		dual += f[2*k]*s[0] + f[2*k+1]*s[1] + p.Contact(k).Mu*alpha[k]*math.Hypot(s[0], s[1])
	}
	return dual, kinetic
}

// A cold pile of spheres (a 4-sphere base): its redundant sticking contacts make block Gauss–Seidel stall short of
// FrictionTol. With FrictionGap the projection must stop far sooner, feasible, with a dissipation
// gap, recomputed independently from the Problem, within FrictionGap·½‖Df‖²; and the paper's
// velocity test alone must indeed have run on much longer.
func TestFrictionGapStopsStalledProjection(t *testing.T) {
	var p Problem
	genSpherePile(&p, 4, false, 1)
	const gap = 1e-4
	sweeps := map[float64]int{}
	for _, g := range []float64{0, gap} {
		s := mustSolver(t, Options{Friction: Disc, FrictionGap: g})
		s.prepare(&p)
		s.projectContact(s.f, false)
		s.projectFriction(s.f, s.opts.FrictionTol*s.op.scale, g, time.Time{})
		sweeps[g] = s.st.FrictionSweeps
		if g == 0 {
			continue
		}
		rep := CheckFriction(&p, CheckSpec{Friction: Disc}, s.alpha, s.f, nil)
		if rep.FrictionFeasibility > 1e-12 {
			t.Errorf("friction infeasible: %v", rep)
		}
		dual, kinetic := frictionFigures(&p, s.alpha, s.f)
		if !(kinetic > 0) || dual > gap*kinetic*(1+1e-6) {
			t.Errorf("dissipation gap %.3g J, want ≤ %.0e·½‖Df‖² = %.3g J", dual, gap, gap*kinetic)
		}
	}
	t.Logf("friction sweeps: %d to FrictionTol alone, %d with FrictionGap %g", sweeps[0], sweeps[gap], gap)
	if sweeps[gap]*4 > sweeps[0] {
		t.Errorf("FrictionGap stopped after %d sweeps, the velocity test alone after %d: want at least 4× fewer", sweeps[gap], sweeps[0])
	}
}
