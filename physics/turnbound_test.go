package physics

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
)

// TestTurnBoundHoldsForTurningFaces: a vertex of one side at gap g from a face of the other, both
// sides moving and spinning at random (up to 40 rad/s, 3 m/s, over h = 0.01 s). Turned exactly
// (each point about its side's centre, the face's normal with its side), the vertex ends the step
// at a distance from the face plane that the gap linearised at the contact's midpoint, as the
// contact rows take it, may overstate; never by more than turnBound. In some trials the
// linearised gap overstates the end gap by more than a millimetre, so the bound is needed.
func TestTurnBoundHoldsForTurningFaces(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 9))
	vec := func(scale float64) mgl64.Vec3 {
		return mgl64.Vec3{r.Float64()*2 - 1, r.Float64()*2 - 1, r.Float64()*2 - 1}.Mul(scale)
	}
	turned := func(w mgl64.Vec3, x mgl64.Vec3) mgl64.Vec3 {
		if a := w.Len(); a > 0 {
			return mgl64.QuatRotate(a, w.Mul(1/a)).Rotate(x)
		}
		return x
	}
	const h = 0.01
	overstated := 0
	for trial := 0; trial < 20000; trial++ {
		n := vec(1).Normalize()
		g := 0.02 * r.Float64()
		face := vec(0.5)
		var sides [2]pointMotion
		for s := range sides {
			sides[s] = pointMotion{center: face.Add(vec(0.08)), velocity: vec(3 / math.Sqrt(3)), angular: vec(40 / math.Sqrt(3))}
		}
		owner := trial % 2 // the side whose face carries the normal
		var onA, onB mgl64.Vec3
		if owner == 0 {
			onA, onB = face, face.Add(n.Mul(g))
		} else {
			onA, onB = face.Sub(n.Mul(g)), face
		}
		p := onA.Add(onB).Mul(0.5)
		moved := func(s int, x mgl64.Vec3) mgl64.Vec3 {
			sd := &sides[s]
			return sd.center.Add(sd.velocity.Mul(h)).Add(turned(sd.angular.Mul(h), x.Sub(sd.center)))
		}
		endN := turned(sides[owner].angular.Mul(h), n)
		end := moved(1, onB).Sub(moved(0, onA)).Dot(endN)
		vel := func(s int) mgl64.Vec3 { return sides[s].velocity.Add(sides[s].angular.Cross(p.Sub(sides[s].center))) }
		linear := g + h*n.Dot(vel(1).Sub(vel(0)))
		bound := turnBound(h, g, p, n, &sides)
		if end < linear-bound-1e-12 {
			t.Fatalf("trial %d: the step ends at gap %.6g, the linearised gap is %.6g, the bound %.6g", trial, end, linear, bound)
		}
		if end < linear-1e-3 {
			overstated++
		}
	}
	if overstated < 100 {
		t.Fatalf("the linearised gap overstated the end gap by a millimetre in %d trials: too few to test", overstated)
	}
}
