package physics

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
)

// TestInverse3SmallAndIllConditioned checks inverse3 on inertias mgl64's Mat3.Inv gives up on (a
// 2 cm sphere's, a thin rod's): m·inverse3(m) must be the identity to round-off.
func TestInverse3SmallAndIllConditioned(t *testing.T) {
	for _, m := range []mgl64.Mat3{
		mgl64.Diag3(mgl64.Vec3{1.7e-7, 1.7e-7, 1.7e-7}),
		mgl64.Diag3(mgl64.Vec3{1e12, 1e-12, 1e12}),
		{2e-9, 1e-9, 0, 1e-9, 3e-9, 0.5e-9, 0, 0.5e-9, 4e-9},
		mgl64.Diag3(mgl64.Vec3{2, 3, 4}),
	} {
		p := m.Mul3(inverse3(m))
		worst := 0.0
		for _, x := range p.Sub(mgl64.Ident3()) {
			worst = max(worst, math.Abs(x))
		}
		if worst > 1e-9 {
			t.Errorf("m·inverse3(m) = %g for m = %g, want the identity", [9]float64(p), [9]float64(m))
		}
	}
}
