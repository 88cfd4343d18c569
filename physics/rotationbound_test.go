package physics

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/stagger-physics/stagger/collide"
)

// TestRotationBoundScalesMomentaAlike: a heavy cube at 100 m/s strikes the end of a free rod in
// zero gravity, spinning it faster than maxContactRotation a step allows, so the step scales the
// island's velocities. Contact impulses are equal and opposite, so before the scaling the pair's
// linear momentum P and angular momentum L (about the origin; the orbital part is unchanged by
// the step's move along v, the spin part is carried by Advance) are those before the impact.
// Scaling every velocity of the island by one factor s must therefore give P_f = s·P₀ and
// L_f = s·L₀ with the same s: a step that scaled linear velocities twice would not.
func TestRotationBoundScalesMomentaAlike(t *testing.T) {
	const h = 0.01
	cfg := DefaultConfig()
	cfg.Gravity = mgl64.Vec3{}
	app := newTestApp(t, h, cfg)
	cube, _ := collide.NewBox(mgl64.Vec3{0.05, 0.05, 0.05})
	rod, _ := collide.NewBox(mgl64.Vec3{0.02, 0.5, 0.02})
	pb := NewDynamic(mgl64.Vec3{0, 0.45, 0}, 1000)
	pb.Friction = 0
	pb.LinearVelocity = mgl64.Vec3{100, 0, 0}
	projectile, err := Spawn(app.World, pb, Collider{Shape: cube})
	if err != nil {
		t.Fatal(err)
	}
	rb := NewDynamic(mgl64.Vec3{0.3, 0, 0}, 1000)
	rb.Friction = 0
	target, err := Spawn(app.World, rb, Collider{Shape: rod})
	if err != nil {
		t.Fatal(err)
	}
	momenta := func() (p, l mgl64.Vec3) {
		for _, e := range []struct{ b RigidBody }{{bodyOf(t, app.World, projectile)}, {bodyOf(t, app.World, target)}} {
			b := e.b
			mv := b.LinearVelocity.Mul(b.Mass)
			p = p.Add(mv)
			l = l.Add(b.Position.Cross(mv)).Add(b.WorldInertia().Mul3x1(b.AngularVelocity))
		}
		return p, l
	}
	p0, l0 := momenta()
	if err := app.StepFixed(); err != nil {
		t.Fatal(err)
	}
	rodSpin := bodyOf(t, app.World, target).AngularVelocity.Len()
	p1, l1 := momenta()
	s := p1.Dot(p0) / p0.Dot(p0)
	if !(s < 0.99) || math.Abs(rodSpin*h-maxContactRotation) > 1e-6 {
		t.Fatalf("the bound did not act: momentum ratio %v, rod turns %v rad a step", s, rodSpin*h)
	}
	if d := p1.Sub(p0.Mul(s)).Len(); d > 1e-9*p0.Len() {
		t.Errorf("linear momentum %v is not a multiple of %v", p1, p0)
	}
	if d := l1.Sub(l0.Mul(s)).Len(); d > 1e-6*l0.Len() {
		t.Errorf("angular momentum %v, want s·L₀ = %v (s = %v from the linear momentum)", l1, l0.Mul(s), s)
	}
}
