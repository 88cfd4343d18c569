package physics

import (
	"math"
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

// TestHugeSpinsStayFinite spins a kinematic and a dynamic cube at 1e160 rad/s: each step turns
// them by the Cayley map's limit, a half-turn, and neither pose may become NaN nor the body freeze;
// the dynamic one falls freely meanwhile.
func TestHugeSpinsStayFinite(t *testing.T) {
	app := newTestApp(t, 0.01, DefaultConfig())
	kin := spawnCube(t, app.World, mgl64.Vec3{5, 0, 3}, mgl64.QuatIdent(), 0.5)
	dyn := spawnCube(t, app.World, mgl64.Vec3{-5, 0, 100}, mgl64.QuatIdent(), 0.5)
	b, _ := ecs.Get[RigidBody](app.World, kin)
	b.Kind = Kinematic
	b.AngularVelocity = mgl64.Vec3{1e160, 3e159, 0}
	b, _ = ecs.Get[RigidBody](app.World, dyn)
	b.AngularVelocity = mgl64.Vec3{0, 1e160, 2e159}
	sim, _ := SimulationOf(app.World)
	for n := 1; n <= 20; n++ {
		if err := app.StepFixed(); err != nil {
			t.Fatal(err)
		}
		checkUnitPose(t, "kinematic cube", bodyOf(t, app.World, kin))
		d := bodyOf(t, app.World, dyn)
		checkUnitPose(t, "dynamic cube", d)
		if st := sim.Stats(); st.NonFinite != 0 {
			t.Fatalf("step %d: %d non-finite updates (%v)", n, st.NonFinite, sim.NonFiniteBodies())
		}
		fn := float64(n)
		nearValue(t, "spinning dynamic cube's height", d.Position.Z(), 100+DefaultConfig().Gravity.Z()*0.01*0.01*fn*(fn+1)/2, 1e-9)
	}
}

// TestOverflowIsReportedByEntity moves a kinematic and a dynamic body to the edge of float64: the
// step that would take them to +Inf leaves each where it was, and names both in NonFiniteEvents and
// NonFiniteBodies, while a third body falls on.
func TestOverflowIsReportedByEntity(t *testing.T) {
	app := newTestApp(t, 0.01, Config{Gravity: mgl64.Vec3{0, 0, -9.81}})
	kin := spawnCube(t, app.World, mgl64.Vec3{0, 0, 0}, mgl64.QuatIdent(), 0.5)
	dyn := spawnCube(t, app.World, mgl64.Vec3{0, 1.795e308, 0}, mgl64.QuatIdent(), 0.5)
	other := spawnCube(t, app.World, mgl64.Vec3{0, 5, 0}, mgl64.QuatIdent(), 0.5)
	b, _ := ecs.Get[RigidBody](app.World, kin)
	b.Kind = Kinematic
	b.Position = mgl64.Vec3{1.795e308, 0, 0}
	b.LinearVelocity = mgl64.Vec3{1e308, 0, 0}
	b, _ = ecs.Get[RigidBody](app.World, dyn)
	b.LinearVelocity = mgl64.Vec3{0, 1e308, 0}
	if err := app.StepFixed(); err != nil {
		t.Fatal(err)
	}
	got := nonFiniteEvents(t, app)
	if len(got) != 2 || got[0].Entity != dyn || got[1].Entity != kin {
		t.Fatalf("NonFiniteEvents %v, want the dynamic %v then the kinematic %v", got, dyn, kin)
	}
	sim, _ := SimulationOf(app.World)
	if st := sim.Stats(); st.NonFinite != 2 {
		t.Errorf("Stats().NonFinite = %d, want 2", st.NonFinite)
	}
	if p := bodyOf(t, app.World, kin).Position; p != (mgl64.Vec3{1.795e308, 0, 0}) {
		t.Errorf("kinematic body moved to %v", p)
	}
	if p := bodyOf(t, app.World, dyn).Position; p != (mgl64.Vec3{0, 1.795e308, 0}) {
		t.Errorf("dynamic body moved to %v", p)
	}
	nearValue(t, "the third body's height", bodyOf(t, app.World, other).Position.Z(), -9.81*0.01*0.01, 1e-12)
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
