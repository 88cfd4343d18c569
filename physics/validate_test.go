package physics

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/stagger-physics/stagger/collide"
	"github.com/stagger-physics/stagger/ecs"
)

// TestBadInputIsRefusedNamingEntityAndField checks each kind of bad body input gives a FieldError
// naming the entity and the field, and attaches nothing.
func TestBadInputIsRefusedNamingEntityAndField(t *testing.T) {
	box, err := collide.NewBox(mgl64.Vec3{0.5, 0.5, 0.5})
	if err != nil {
		t.Fatal(err)
	}
	nan := math.NaN()
	cases := []struct {
		name  string
		body  RigidBody
		shape collide.Shape
		field string
	}{
		{"nan mass", RigidBody{Kind: Dynamic, Mass: nan}, box, "RigidBody.Mass"},
		{"negative mass", RigidBody{Kind: Dynamic, Mass: -1}, box, "RigidBody.Mass"},
		{"zero density", RigidBody{Kind: Dynamic}, box, "RigidBody.Density"},
		{"inf density", RigidBody{Kind: Dynamic, Density: math.Inf(1)}, box, "RigidBody.Density"},
		{"no collider no mass", RigidBody{Kind: Dynamic, Density: 1}, nil, "RigidBody.Mass"},
		{"no collider no inertia", RigidBody{Kind: Dynamic, Mass: 1}, nil, "RigidBody.Inertia"},
		{"indefinite inertia", RigidBody{Kind: Dynamic, Mass: 1, Inertia: mgl64.Diag3(mgl64.Vec3{1, -1, 1})}, box, "RigidBody.Inertia"},
		{"nan position", RigidBody{Kind: Static, Position: mgl64.Vec3{0, nan, 0}}, box, "RigidBody.Position"},
		{"inf velocity", RigidBody{Kind: Dynamic, Density: 1, LinearVelocity: mgl64.Vec3{math.Inf(-1), 0, 0}}, box, "RigidBody.LinearVelocity"},
		{"nan spin", RigidBody{Kind: Dynamic, Density: 1, AngularVelocity: mgl64.Vec3{nan, 0, 0}}, box, "RigidBody.AngularVelocity"},
		{"negative friction", RigidBody{Kind: Dynamic, Density: 1, Friction: -0.1}, box, "RigidBody.Friction"},
		{"restitution above one", RigidBody{Kind: Dynamic, Density: 1, Restitution: 1.5}, box, "RigidBody.Restitution"},
		{"bad kind", RigidBody{Kind: BodyKind(9)}, box, "RigidBody.Kind"},
		{"broken shape", RigidBody{Kind: Dynamic, Density: 1}, &collide.Box{HalfExtents: mgl64.Vec3{1, 0, 1}}, "Collider.Shape"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := ecs.NewWorld()
			if err := ecs.Register[RigidBody](w); err != nil {
				t.Fatal(err)
			}
			if err := ecs.Register[Collider](w); err != nil {
				t.Fatal(err)
			}
			e := w.Spawn()
			err := AddBody(w, e, c.body, Collider{Shape: c.shape})
			var fe *FieldError
			if !errors.As(err, &fe) {
				t.Fatalf("got %v, want a *FieldError", err)
			}
			if fe.Field != c.field || fe.Entity != e {
				t.Fatalf("got field %q entity %v, want %q %v (%v)", fe.Field, fe.Entity, c.field, e, err)
			}
			if !strings.Contains(err.Error(), e.String()) || !strings.Contains(err.Error(), c.field) {
				t.Fatalf("message %q does not name the entity and field", err)
			}
			if ecs.Has[RigidBody](w, e) || ecs.Has[Collider](w, e) {
				t.Fatal("a refused body was attached")
			}
		})
	}
}

// TestStepRefusesNaNWrittenByTheGame checks that a NaN written into a component after it entered is
// reported by the step, naming the entity and field, and that no other body is changed.
func TestStepRefusesNaNWrittenByTheGame(t *testing.T) {
	app := newTestApp(t, 0.01, DefaultConfig())
	sphere, err := collide.NewSphere(0.5)
	if err != nil {
		t.Fatal(err)
	}
	good, err := Spawn(app.World, NewDynamic(mgl64.Vec3{0, 0, 5}, 100), Collider{Shape: sphere})
	if err != nil {
		t.Fatal(err)
	}
	bad, err := Spawn(app.World, NewDynamic(mgl64.Vec3{3, 0, 5}, 100), Collider{Shape: sphere})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := ecs.Get[RigidBody](app.World, bad)
	b.AngularVelocity[1] = math.NaN()
	err = app.StepFixed()
	var fe *FieldError
	if !errors.As(err, &fe) || fe.Entity != bad || fe.Field != "RigidBody.AngularVelocity" {
		t.Fatalf("got %v, want a FieldError for %v RigidBody.AngularVelocity", err, bad)
	}
	g, _ := ecs.Get[RigidBody](app.World, good)
	if g.Position != (mgl64.Vec3{0, 0, 5}) || g.LinearVelocity != (mgl64.Vec3{}) {
		t.Fatalf("a failed step moved another body: %v %v", g.Position, g.LinearVelocity)
	}
}

// TestMassFromColliderAndDensity checks that a body's mass and inertia come from its collider.
func TestMassFromColliderAndDensity(t *testing.T) {
	w := ecs.NewWorld()
	_ = ecs.Register[RigidBody](w)
	_ = ecs.Register[Collider](w)
	box, _ := collide.NewBox(mgl64.Vec3{1, 0.5, 0.25}) // 2 × 1 × 0.5 m
	e, err := Spawn(w, NewDynamic(mgl64.Vec3{}, 100), Collider{Shape: box})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := ecs.Get[RigidBody](w, e)
	if math.Abs(b.Mass-100) > 1e-12 {
		t.Fatalf("mass %v, want 100", b.Mass)
	}
	want := boxInertia(100, 2, 1, 0.5)
	if d := b.Inertia.Diag().Sub(want).Len(); d > 1e-9 {
		t.Fatalf("inertia %v, want diag %v", b.Inertia, want)
	}
	// A given mass scales the collider's inertia.
	e2, err := Spawn(w, RigidBody{Kind: Dynamic, Mass: 50}, Collider{Shape: box})
	if err != nil {
		t.Fatal(err)
	}
	b2, _ := ecs.Get[RigidBody](w, e2)
	if d := b2.Inertia.Diag().Sub(want.Mul(0.5)).Len(); d > 1e-9 {
		t.Fatalf("scaled inertia %v, want diag %v", b2.Inertia, want.Mul(0.5))
	}
}
