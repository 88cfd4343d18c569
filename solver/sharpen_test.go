package solver

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
)

// inclineBox is boxOnPlane at rest on a plane tilted by θ: in the plane's frame gravity has a
// component g sin θ along x and g cos θ into the plane.
func inclineBox(p *Problem, theta, mu float64) {
	boxOnPlane(p, mgl64.Vec3{}, mu)
	p.QdotP[0] = genG * math.Sin(theta) * genH
	p.QdotP[2] = -genG * math.Cos(theta) * genH
}

// TestSharpenSlidingBox: a box released on a slope steeper than its friction angle slides with
// Coulomb's a = g(sin θ − μ cos θ), translating without turning. With the pipeline's options the
// cold solve must give that velocity to the friction projection's tolerance (FrictionTol·scale,
// 1e-9 m/s and rad/s here: no spin about the normal), and the checker must find a fixed point to
// the contact projection's certified bound; the ε-converged loop without Sharpen leaves the box
// spinning at up to 3e-8 rad/s and friction off its optimum by 1e-7.
func TestSharpenSlidingBox(t *testing.T) {
	o := Options{Friction: Disc, Joint: true, Settle: true, Sharpen: true}
	s := mustSolver(t, o)
	var p Problem
	var res Result
	for _, c := range []struct{ deg, mu float64 }{{45, 0.8}, {40, 0.6}, {60, 0.3}, {70, 0.8}} {
		theta := c.deg * math.Pi / 180
		inclineBox(&p, theta, c.mu)
		if err := s.Solve(&p, &res); err != nil {
			t.Fatal(err)
		}
		want := []float64{genG * (math.Sin(theta) - c.mu*math.Cos(theta)) * genH, 0, 0, 0, 0, 0}
		for i := range want {
			if math.Abs(res.Qdot[i]-want[i]) > 1e-9 {
				t.Errorf("θ %v° μ %v: q̇ = %v, want %v (%d iterations)", c.deg, c.mu, res.Qdot, want, res.Stats.Iterations)
				break
			}
		}
		if rep := CheckFixedPoint(&p, spec(o), res.Alpha, res.Friction, res.Qdot); rep.Worst > 1e-9 {
			t.Errorf("θ %v° μ %v: %v", c.deg, c.mu, rep)
		}
	}
}
