package physics

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/stagger-physics/stagger/ecs"
)

// checkUnitPose fails unless b's pose and velocities are finite and its orientation a unit
// quaternion.
func checkUnitPose(t *testing.T, what string, b RigidBody) {
	t.Helper()
	if !finiteVec(b.Position) || !finiteQuat(b.Orientation) || !finiteVec(b.LinearVelocity) || !finiteVec(b.AngularVelocity) {
		t.Fatalf("%s: non-finite state %+v", what, b)
	}
	q := b.Orientation
	if n := math.Sqrt(q.W*q.W + q.V.Dot(q.V)); math.Abs(n-1) > 1e-12 {
		t.Fatalf("%s: |orientation| = %v, want 1", what, n)
	}
}

// nonFiniteEvents returns the NonFiniteEvents of the last update.
func nonFiniteEvents(t *testing.T, app *ecs.App) []NonFiniteEvent {
	t.Helper()
	ev, ok := ecs.GetResource[ecs.Events[NonFiniteEvent]](app.World)
	if !ok {
		t.Fatal("no ecs.Events[NonFiniteEvent] resource")
	}
	var out []NonFiniteEvent
	var r ecs.EventReader[NonFiniteEvent]
	r.Read(ev, func(e NonFiniteEvent) { out = append(out, e) })
	return out
}

// TestHugeSpinsAreRefused gives a kinematic and a dynamic cube an angular velocity of 1e160 rad/s
// (which used to write a NaN orientation, or freeze the body, or stop the world once it touched
// something): the step refuses it naming the entity and field. At MaxAngularSpeed both spin on
// with unit orientations, the dynamic one resting on the ground.
func TestHugeSpinsAreRefused(t *testing.T) {
	for _, k := range []BodyKind{Kinematic, Dynamic} {
		app := newTestApp(t, 0.01, DefaultConfig())
		spawnGround(t, app.World, mgl64.Vec3{0, 0, 1}, 0.8)
		e := spawnCube(t, app.World, mgl64.Vec3{0, 0, 0.5}, mgl64.QuatIdent(), 0.5)
		steps(t, app, 2)
		b, _ := ecs.Get[RigidBody](app.World, e)
		b.Kind = k
		b.AngularVelocity = mgl64.Vec3{1e160, 3e159, 0}
		err := app.StepFixed()
		var fe *FieldError
		if !errors.As(err, &fe) || fe.Entity != e || fe.Field != "RigidBody.AngularVelocity" || !strings.Contains(err.Error(), "MaxAngularSpeed") {
			t.Fatalf("%v cube spun at 1e160 rad/s: step gave %v, want a FieldError naming %v, the field and the limit", k, err, e)
		}
		b, _ = ecs.Get[RigidBody](app.World, e)
		b.AngularVelocity = mgl64.Vec3{0, 0, MaxAngularSpeed}
		for n := 0; n < 20; n++ {
			if err := app.StepFixed(); err != nil {
				t.Fatal(err)
			}
			checkUnitPose(t, k.String()+" cube at MaxAngularSpeed", bodyOf(t, app.World, e))
		}
	}
}

// TestCayleyRotationOfHugeVectors checks that the Cayley map of a rotation vector too large to
// square is the half-turn about it that the map tends to, not NaN.
func TestCayleyRotationOfHugeVectors(t *testing.T) {
	for _, v := range []mgl64.Vec3{{1e160, 0, 0}, {3e200, -4e200, 0}, {0, 0, -1e308}} {
		q := cayleyRotation(v)
		axis := v.Mul(1 / maxAbs3(v)).Normalize()
		if math.Abs(q.W) > 1e-100 || q.V.Sub(axis).Len() > 1e-12 {
			t.Errorf("cayleyRotation(%v) = %v, want the half-turn (0, %v)", v, q, axis)
		}
	}
}

// TestOverflowIsReportedByEntity puts a kinematic and a dynamic body at the edge of float64 with
// velocities the step itself could have given them (beyond what a game may write): the step
// that would take them to +Inf leaves each where it was and names both in NonFiniteEvents and
// NonFiniteBodies, while a third body falls on.
func TestOverflowIsReportedByEntity(t *testing.T) {
	app := newTestApp(t, 0.01, Config{Gravity: mgl64.Vec3{0, 0, -9.81}})
	kin := spawnCube(t, app.World, mgl64.Vec3{0, 0, 0}, mgl64.QuatIdent(), 0.5)
	dyn := spawnCube(t, app.World, mgl64.Vec3{0, 1.795e308, 0}, mgl64.QuatIdent(), 0.5)
	other := spawnCube(t, app.World, mgl64.Vec3{0, 5, 0}, mgl64.QuatIdent(), 0.5)
	steps(t, app, 1)
	b, _ := ecs.Get[RigidBody](app.World, kin)
	b.Kind = Kinematic
	b.Position = mgl64.Vec3{1.795e308, 0, 0}
	b.LinearVelocity = mgl64.Vec3{1e308, 0, 0}
	b.written = b.state() // as if the step had written it
	b, _ = ecs.Get[RigidBody](app.World, dyn)
	b.LinearVelocity = mgl64.Vec3{0, 1e308, 0}
	b.written = b.state()
	at := map[ecs.Entity]mgl64.Vec3{kin: bodyOf(t, app.World, kin).Position, dyn: bodyOf(t, app.World, dyn).Position}
	z := bodyOf(t, app.World, other).Position.Z()
	if err := app.StepFixed(); err != nil {
		t.Fatal(err)
	}
	got := nonFiniteEvents(t, app)
	if len(got) != 2 || got[0].Entity != dyn || got[1].Entity != kin {
		t.Fatalf("NonFiniteEvents %v, want the dynamic %v then the kinematic %v", got, dyn, kin)
	}
	sim, _ := SimulationOf(app.World)
	if st := sim.Stats(); st.NonFinite != 2 || len(sim.NonFiniteBodies()) != 2 {
		t.Errorf("Stats().NonFinite = %d, NonFiniteBodies %v, want both bodies", st.NonFinite, sim.NonFiniteBodies())
	}
	for e, p := range at {
		if got := bodyOf(t, app.World, e).Position; got != p {
			t.Errorf("%v moved from %v to %v", e, p, got)
		}
	}
	if got := bodyOf(t, app.World, other).Position.Z(); !(got < z) {
		t.Errorf("the third body did not fall: z %v then %v", z, got)
	}
}

// TestHugeAndTinyOrientationsNormalise spawns bodies whose orientation quaternions are far from
// unit length: each is scaled to the rotation it denotes, not replaced by the identity.
func TestHugeAndTinyOrientationsNormalise(t *testing.T) {
	app := newTestApp(t, 0.01, DefaultConfig())
	r := math.Sqrt2 / 2
	for _, c := range []struct{ in, want mgl64.Quat }{
		{mgl64.Quat{W: 1e200, V: mgl64.Vec3{1e200, 0, 0}}, mgl64.Quat{W: r, V: mgl64.Vec3{r, 0, 0}}},
		{mgl64.Quat{W: 0, V: mgl64.Vec3{0, -1e-200, 1e-200}}, mgl64.Quat{W: 0, V: mgl64.Vec3{0, -r, r}}},
		{mgl64.Quat{W: 3e307, V: mgl64.Vec3{0, 4e307, 0}}, mgl64.Quat{W: 0.6, V: mgl64.Vec3{0, 0.8, 0}}},
	} {
		b := NewStatic(mgl64.Vec3{})
		b.Orientation = c.in
		e, err := Spawn(app.World, b, Collider{})
		if err != nil {
			t.Fatal(err)
		}
		got := bodyOf(t, app.World, e).Orientation
		if !got.ApproxEqualThreshold(c.want, 1e-15) {
			t.Errorf("orientation %v became %v, want %v", c.in, got, c.want)
		}
	}
}
