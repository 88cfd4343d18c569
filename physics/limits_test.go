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

// extremeBodies are dynamic bodies the solver cannot take (each made every step of the whole
// world fail before the limits), with the field that must be named.
func extremeBodies(t *testing.T) []struct {
	name  string
	body  RigidBody
	shape collide.Shape
	field string
} {
	t.Helper()
	mustShape := func(s collide.Shape, err error) collide.Shape {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	cube := mustShape(collide.NewBox(mgl64.Vec3{0.5, 0.5, 0.5}))
	ground := mustShape(collide.NewHalfSpace(mgl64.Vec3{0, 0, 1}, 0))
	withMass := func(m float64, inertia mgl64.Mat3) RigidBody {
		b := NewDynamic(mgl64.Vec3{5, 0, 3}, 0)
		b.Mass, b.Inertia = m, inertia
		return b
	}
	return []struct {
		name  string
		body  RigidBody
		shape collide.Shape
		field string
	}{
		{"sphere of radius 1e-6", NewDynamic(mgl64.Vec3{5, 0, 3}, 1000), mustShape(collide.NewSphere(1e-6)), "Collider.Shape"},
		{"capsule r 1e-4 half-height 500", NewDynamic(mgl64.Vec3{5, 0, 3}, 1000), mustShape(collide.NewCapsule(1e-4, 500)), "RigidBody.Inertia"},
		{"box of half-extent 5e6", NewDynamic(mgl64.Vec3{5, 0, 3}, 1000), mustShape(collide.NewBox(mgl64.Vec3{5e6, 5e6, 5e6})), "Collider.Shape"},
		{"inertia 1e-100", withMass(1, mgl64.Diag3(mgl64.Vec3{1e-100, 1e-100, 1e-100})), cube, "RigidBody.Inertia"},
		{"inertia diag(1e12, 1e-12, 1e12)", withMass(1, mgl64.Diag3(mgl64.Vec3{1e12, 1e-12, 1e12})), cube, "RigidBody.Inertia"},
		{"mass 1e300", withMass(1e300, mgl64.Diag3(mgl64.Vec3{1e300, 1e300, 1e300})), cube, "RigidBody.Mass"},
		{"mass 1e-12", withMass(1e-12, mgl64.Diag3(mgl64.Vec3{1e-12, 1e-12, 1e-12})), cube, "RigidBody.Mass"},
		{"dynamic half-space", withMass(1, mgl64.Ident3()), ground, "Collider.Shape"},
	}
}

// TestExtremeBodiesAreRefused spawns each body of extremeBodies into a world where a cube falls
// onto a ground: each is refused with a FieldError naming the entity and field and stating the
// limit, and the cube lands as if nothing had happened.
func TestExtremeBodiesAreRefused(t *testing.T) {
	app := newTestApp(t, 0.01, DefaultConfig())
	spawnGround(t, app.World, mgl64.Vec3{0, 0, 1}, 0.8)
	cube := spawnCube(t, app.World, mgl64.Vec3{0, 0, 2}, mgl64.QuatIdent(), 0.8)
	for _, c := range extremeBodies(t) {
		e, err := Spawn(app.World, c.body, Collider{Shape: c.shape})
		var fe *FieldError
		if !errors.As(err, &fe) || fe.Field != c.field || fe.Entity.IsZero() {
			t.Errorf("%s: Spawn gave %v (entity %v), want a FieldError naming an entity and %s", c.name, err, e, c.field)
			continue
		}
		if !strings.Contains(err.Error(), "physics.M") && !strings.Contains(err.Error(), "HalfSpace") {
			t.Errorf("%s: %q states no limit", c.name, err)
		}
		if app.World.Alive(fe.Entity) {
			t.Errorf("%s: the refused entity %v is still alive", c.name, fe.Entity)
		}
		steps(t, app, 20)
	}
	steps(t, app, 100)
	nearValue(t, "the cube's height after the refusals", bodyOf(t, app.World, cube).Position.Z(), 0.5, 1e-3)
}

// TestExtremeValuesWrittenLaterAreRefused writes each extreme body's mass properties and shape
// into a dynamic body already stepping: the step names the entity and the field.
func TestExtremeValuesWrittenLaterAreRefused(t *testing.T) {
	for _, c := range extremeBodies(t) {
		app := newTestApp(t, 0.01, DefaultConfig())
		e := spawnCube(t, app.World, mgl64.Vec3{0, 0, 2}, mgl64.QuatIdent(), 0.8)
		steps(t, app, 2)
		b, _ := ecs.Get[RigidBody](app.World, e)
		b.Mass, b.Inertia = c.body.Mass, c.body.Inertia
		col, _ := ecs.Get[Collider](app.World, e)
		col.Shape = c.shape
		err := app.StepFixed()
		var fe *FieldError
		if !errors.As(err, &fe) || fe.Field != c.field || fe.Entity != e {
			t.Errorf("%s written into %v: step gave %v, want a FieldError naming %v and %s", c.name, e, err, e, c.field)
		}
	}
}

// TestBodiesAtTheLimitsStep checks that bodies just inside the limits are accepted and land: a
// 1 mm sphere, a needle of 0.5 mm radius and 0.5 m half-length, a 1 km box.
func TestBodiesAtTheLimitsStep(t *testing.T) {
	for _, c := range []struct {
		name    string
		shape   func() (collide.Shape, error)
		density float64
		rest    float64
	}{
		{"1 mm sphere", func() (collide.Shape, error) { return collide.NewSphere(1e-3) }, 8000, 1e-3},
		{"needle", func() (collide.Shape, error) { return collide.NewCapsule(5e-4, 0.5) }, 8000, 5e-4},
		{"1 km box", func() (collide.Shape, error) { return collide.NewBox(mgl64.Vec3{1000, 1000, 1000}) }, 0.5, 1000},
	} {
		app := newTestApp(t, 0.01, DefaultConfig())
		spawnGround(t, app.World, mgl64.Vec3{0, 0, 1}, 0.8)
		s, err := c.shape()
		if err != nil {
			t.Fatal(err)
		}
		b := NewDynamic(mgl64.Vec3{0, 0, c.rest + 0.1}, c.density)
		if caps, ok := s.(*collide.Capsule); ok {
			// Lying down.
			b.Orientation = mgl64.QuatRotate(math.Pi/2, mgl64.Vec3{1, 0, 0})
			b.Position[2] = caps.Radius + 0.1
			c.rest = caps.Radius
		}
		e, err := Spawn(app.World, b, Collider{Shape: s})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		steps(t, app, 200)
		nearValue(t, c.name+"'s resting height", bodyOf(t, app.World, e).Position.Z(), c.rest, max(1e-3*c.rest, 2e-5))
	}
}

// TestSymmetricEigenRange compares symmetricEigenRange with the known principal moments of
// rotated diagonal tensors R D Rᵀ, across scales.
func TestSymmetricEigenRange(t *testing.T) {
	for _, c := range []struct {
		d mgl64.Vec3
		q mgl64.Quat
	}{
		{mgl64.Vec3{1, 2, 3}, mgl64.QuatRotate(0.7, mgl64.Vec3{1, 2, 3}.Normalize())},
		{mgl64.Vec3{5e-30, 5e-30, 7e-30}, mgl64.QuatRotate(2.1, mgl64.Vec3{0, 1, 1}.Normalize())},
		{mgl64.Vec3{1e12, 1e-12, 1e12}, mgl64.QuatIdent()},
		{mgl64.Vec3{4e200, 1e200, 2e200}, mgl64.QuatRotate(1.3, mgl64.Vec3{1, 0, 1}.Normalize())},
		{mgl64.Vec3{2, 2, 2}, mgl64.QuatRotate(0.4, mgl64.Vec3{1, 1, 0}.Normalize())},
	} {
		r := c.q.Mat4().Mat3()
		m := r.Mul3(mgl64.Diag3(c.d)).Mul3(r.Transpose())
		lo, hi := symmetricEigenRange(m)
		wantLo, wantHi := min(c.d[0], c.d[1], c.d[2]), max(c.d[0], c.d[1], c.d[2])
		// The closed form loses half the digits of a double eigenvalue, plenty for a limit.
		if math.Abs(hi-wantHi) > 1e-7*wantHi || math.Abs(lo-wantLo) > 1e-7*wantHi {
			t.Errorf("eigenvalues of R diag%v Rᵀ: [%g, %g], want [%g, %g]", c.d, lo, hi, wantLo, wantHi)
		}
	}
}

// TestSpeedLimitsAtSpawn refuses a dynamic body thrown faster than MaxSpeed and a kinematic one
// spun faster than MaxAngularSpeed, and accepts a static one with any velocity (it ignores it).
func TestSpeedLimitsAtSpawn(t *testing.T) {
	app := newTestApp(t, 0.01, DefaultConfig())
	fast := NewDynamic(mgl64.Vec3{}, 100)
	fast.LinearVelocity = mgl64.Vec3{0, 2e5, 0}
	spun := NewStatic(mgl64.Vec3{})
	spun.Kind = Kinematic
	spun.AngularVelocity = mgl64.Vec3{0, 0, 1e160}
	still := NewStatic(mgl64.Vec3{})
	still.AngularVelocity = mgl64.Vec3{0, 0, 1e160}
	cube, err := collide.NewBox(mgl64.Vec3{0.5, 0.5, 0.5})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		body  RigidBody
		field string
	}{{fast, "RigidBody.LinearVelocity"}, {spun, "RigidBody.AngularVelocity"}, {still, ""}} {
		_, err := Spawn(app.World, c.body, Collider{Shape: cube})
		var fe *FieldError
		switch {
		case c.field == "" && err != nil:
			t.Errorf("%v body refused: %v", c.body.Kind, err)
		case c.field != "" && (!errors.As(err, &fe) || fe.Field != c.field):
			t.Errorf("%v body: Spawn gave %v, want a FieldError naming %s", c.body.Kind, err, c.field)
		}
	}
}
