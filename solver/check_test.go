package solver

import (
	"testing"

	"github.com/go-gl/mathgl/mgl64"
)

// The independent checker must reject wrong answers: starting from a sliding box's fixed point
// (which it accepts), each corruption below breaks one optimality condition, and the report must
// flag that condition well above the accepted answer's round-off.
func TestCheckerRejectsWrongAnswers(t *testing.T) {
	var p Problem
	boxOnPlane(&p, mgl64.Vec3{1, 0.5, 0}, 0.5)
	o := models[1].opts // disc, solved to working accuracy
	var res Result
	if err := mustSolver(t, o).Solve(&p, &res); err != nil {
		t.Fatal(err)
	}
	sp := spec(o)
	ok := CheckFixedPoint(&p, sp, res.Alpha, res.Friction, res.Qdot)
	if ok.Worst > 1e-9 {
		t.Fatalf("the solver's answer is rejected: %v", ok)
	}
	clone := func() (alpha, fric, qdot []float64) {
		return append([]float64(nil), res.Alpha...), append([]float64(nil), res.Friction...), append([]float64(nil), res.Qdot...)
	}
	cases := []struct {
		name    string
		corrupt func(alpha, fric, qdot []float64) []float64 // returns the qdot to check (nil: none)
		field   func(r CheckReport) float64
	}{
		{"normal impulse too small: the box sinks", func(a, f, q []float64) []float64 {
			for k := range a {
				a[k] *= 0.5
			}
			return nil
		}, func(r CheckReport) float64 { return r.ContactPrimal }},
		{"normal impulse too large: it pushes apart", func(a, f, q []float64) []float64 {
			for k := range a {
				a[k] *= 2
			}
			return nil
		}, func(r CheckReport) float64 { return r.Complementarity }},
		{"negative normal impulse", func(a, f, q []float64) []float64 {
			a[0] = -a[0]
			return nil
		}, func(r CheckReport) float64 { return r.ContactDual }},
		{"friction outside the disc", func(a, f, q []float64) []float64 {
			for i := range f {
				f[i] *= 1.5
			}
			return nil
		}, func(r CheckReport) float64 { return r.FrictionFeasibility }},
		{"friction along the slip", func(a, f, q []float64) []float64 {
			for i := range f {
				f[i] = -f[i]
			}
			return nil
		}, func(r CheckReport) float64 { return r.FrictionOptimality }},
		{"velocity not from the impulses", func(a, f, q []float64) []float64 {
			q[0] += 0.1
			return q
		}, func(r CheckReport) float64 { return r.VelocityMismatch }},
	}
	for _, c := range cases {
		alpha, fric, qdot := clone()
		rep := CheckFixedPoint(&p, sp, alpha, fric, c.corrupt(alpha, fric, qdot))
		if got := c.field(rep); !(got > 1e-3) || !(rep.Worst >= got) {
			t.Errorf("%s: not flagged: %v", c.name, rep)
		}
	}
}
