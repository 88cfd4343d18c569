package solver

import (
	"fmt"
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
)

// inconsistentBox builds a box on the ground with its four corners and a second contact at one
// corner (the fourth, (0.5, 0.5)) that demands a separating velocity: its rows are the first's, so with all five active
// (the warm start) the subspace system w_F = 0 is inconsistent. The LCP answer leaves the
// undemanding duplicate inactive.
func inconsistentBox(p *Problem) {
	boxOnPlane(p, mgl64.Vec3{}, 0.5)
	bodies := []rigidBody{{c: mgl64.Vec3{0, 0, 0.5}, mass: 1, inert: 1.0 / 6}}
	k := addPointContact(p, bodies, -1, 0, mgl64.Vec3{0.5, 0.5, 0}, mgl64.Vec3{0, 0, 1}, 0.5)
	p.Contact(k).B = -0.05
	for i := 0; i < p.NumContacts(); i++ {
		p.Contact(i).WarmNormal = genG * genH / 4
	}
}

// On inconsistent active rows CG meets a direction in A's null space, along which its step is
// unbounded: without the check the third iteration moved α to 1e28. The subspace CG must stop
// there, keep α bounded, and widen the factor's shift for the rest of the solve.
func TestSubspaceCGStopsDiverging(t *testing.T) {
	var p Problem
	inconsistentBox(&p)
	if err := p.Validate(); err != nil {
		t.Fatal(err)
	}
	s := mustSolver(t, Options{Friction: Disc, ContactSolver: ContactPGSSM})
	s.prepare(&p)
	cp := &s.contact
	cp.ic.useNarrow()
	s.op.velocity(s.alpha, s.f, s.v)
	cp.op, cp.f, cp.alpha, cp.v, cp.tol = &s.op, s.f, s.alpha, s.v, s.opts.ContactTol*s.op.scale
	if ran, _ := cp.subspaceCG(); !ran {
		t.Fatal("no active contact")
	}
	// Stopped by the null-direction check, not by running out of iterations.
	if limit := cgIterations(p.NumContacts()); cp.work.CG >= limit {
		t.Errorf("%d CG iterations on inconsistent rows: it ran to its bound %d", cp.work.CG, limit)
	}
	if !cp.ic.widened || cp.ic.shift != icShift {
		t.Errorf("factor shift %g (widened %v), want it widened to %g", cp.ic.shift, cp.ic.widened, icShift)
	}
	for k, a := range s.alpha {
		if !(math.Abs(a) < 1e3) {
			t.Errorf("α[%d] = %v", k, a)
		}
	}
}

// The whole solve of the same problem must still find the exact LCP answer, with every sub-solver
// that runs PGS-SM.
func TestInconsistentRowsSolveExact(t *testing.T) {
	var p Problem
	inconsistentBox(&p)
	for _, cs := range []ContactSolver{ContactPGSSM, ContactAuto} {
		res := solveContactExact(t, fmt.Sprintf("contact solver %d", cs), &p, Options{Friction: Disc, ContactSolver: cs, SkipWarmCheck: true})
		if res.Alpha[3] != 0 && res.Alpha[4] != 0 {
			t.Errorf("contact solver %d: both duplicates active: α = %v", cs, res.Alpha)
		}
	}
}
