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

// zeroGravity returns the default configuration without gravity.
func zeroGravity() Config {
	cfg := DefaultConfig()
	cfg.Gravity = mgl64.Vec3{}
	return cfg
}

// spawnBrick adds a 2 × 1 × 0.5 m box of 6 kg (inertia boxInertia(6, 2, 1, 0.5)) at p, turned by q.
func spawnBrick(t *testing.T, w *ecs.World, p mgl64.Vec3, q mgl64.Quat) (ecs.Entity, *RigidBody) {
	t.Helper()
	box, err := collide.NewBox(mgl64.Vec3{1, 0.5, 0.25})
	if err != nil {
		t.Fatal(err)
	}
	b := NewDynamic(p, 6)
	b.Orientation = q
	e, err := Spawn(w, b, Collider{Shape: box})
	if err != nil {
		t.Fatal(err)
	}
	body, _ := ecs.Get[RigidBody](w, e)
	if math.Abs(body.Mass-6) > 1e-12 {
		t.Fatalf("brick mass %v, want 6", body.Mass)
	}
	return e, body
}

// near reports whether a and b agree to tol relative to 1 + |b|.
func near(a, b mgl64.Vec3, tol float64) bool { return a.Sub(b).Len() <= tol*(1+b.Len()) }

// stepN steps app n times.
func stepN(t *testing.T, app *ecs.App, n int) {
	t.Helper()
	for i := 0; i < n; i++ {
		if err := app.StepFixed(); err != nil {
			t.Fatal(err)
		}
	}
}

// An impulse through the centre of mass changes the linear velocity by J/m and leaves the spin
// bit for bit; the body then coasts at the new velocity.
func TestCentralImpulseChangesVelocityOnly(t *testing.T) {
	const h = 0.01
	app := newTestApp(t, h, zeroGravity())
	q := mgl64.QuatRotate(0.7, mgl64.Vec3{1, 2, -1}.Normalize())
	_, b := spawnBrick(t, app.World, mgl64.Vec3{1, 2, 3}, q)
	v0, w0 := mgl64.Vec3{0.5, -1, 0.25}, mgl64.Vec3{0.3, 0.1, -0.2}
	b.LinearVelocity, b.AngularVelocity = v0, w0
	j := mgl64.Vec3{3, -1.5, 12}
	if err := b.ApplyImpulse(j, b.Position); err != nil {
		t.Fatal(err)
	}
	want := v0.Add(mgl64.Vec3{0.5, -0.25, 2}) // J / 6 kg
	if !near(b.LinearVelocity, want, 1e-15) || b.AngularVelocity != w0 {
		t.Fatalf("after J at the centre: v %v ω %v, want v %v and ω %v unchanged", b.LinearVelocity, b.AngularVelocity, want, w0)
	}
	if err := b.ApplyCentralImpulse(j.Mul(-1)); err != nil {
		t.Fatal(err)
	}
	if !near(b.LinearVelocity, v0, 1e-15) || b.AngularVelocity != w0 {
		t.Fatalf("after −J through the centre: v %v ω %v, want %v %v", b.LinearVelocity, b.AngularVelocity, v0, w0)
	}
	if err := b.ApplyCentralImpulse(j); err != nil {
		t.Fatal(err)
	}
	x0 := b.Position
	stepN(t, app, 100)
	if !near(b.LinearVelocity, want, 1e-14) || !near(b.Position, x0.Add(want), 1e-13) {
		t.Fatalf("after 1 s: v %v x %v, want %v %v", b.LinearVelocity, b.Position, want, x0.Add(want))
	}
}

// rodrigues returns the rotation matrix of angle θ about the unit axis u, from Rodrigues' formula
// (independent of the quaternion code the physics uses).
func rodrigues(theta float64, u mgl64.Vec3) mgl64.Mat3 {
	c, s := math.Cos(theta), math.Sin(theta)
	var r mgl64.Mat3
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			x := (1 - c) * u[i] * u[j]
			if i == j {
				x += c
			}
			r.Set(i, j, x)
		}
	}
	// + s [u]×
	r.Set(0, 1, r.At(0, 1)-s*u[2])
	r.Set(0, 2, r.At(0, 2)+s*u[1])
	r.Set(1, 0, r.At(1, 0)+s*u[2])
	r.Set(1, 2, r.At(1, 2)-s*u[0])
	r.Set(2, 0, r.At(2, 0)-s*u[1])
	r.Set(2, 1, r.At(2, 1)+s*u[0])
	return r
}

// An impulse off the centre spins the body: I_world Δω = r × J, with I_world built here from the
// brick's closed-form inertia and a rotation matrix from Rodrigues' formula. A uniform sphere hit
// tangentially at its equator spins at 5J/(2mR). Without gravity or contact, the world angular
// momentum then stays r × J while the body tumbles.
func TestOffCentreImpulseSpins(t *testing.T) {
	app := newTestApp(t, 0.01, zeroGravity())
	axis := mgl64.Vec3{1, 2, -1}.Normalize()
	_, b := spawnBrick(t, app.World, mgl64.Vec3{1, 2, 3}, mgl64.QuatRotate(0.7, axis))
	corner := b.Orientation.Rotate(mgl64.Vec3{1, -0.5, 0.25}).Add(b.Position)
	j := mgl64.Vec3{0.4, 3, -2}
	if err := b.ApplyImpulse(j, corner); err != nil {
		t.Fatal(err)
	}
	rot := rodrigues(0.7, axis)
	iWorld := rot.Mul3(mgl64.Diag3(boxInertia(6, 2, 1, 0.5))).Mul3(rot.Transpose())
	moment := corner.Sub(b.Position).Cross(j)
	if res := iWorld.Mul3x1(b.AngularVelocity).Sub(moment).Len(); res > 1e-13*moment.Len() {
		t.Fatalf("I_world Δω − r×J = %.3g (Δω %v, r×J %v)", res, b.AngularVelocity, moment)
	}
	if !near(b.LinearVelocity, j.Mul(1.0/6), 1e-15) {
		t.Fatalf("Δv %v, want J/m %v", b.LinearVelocity, j.Mul(1.0/6))
	}
	stepN(t, app, 300)
	if l := b.AngularMomentum(); !near(l, moment, 1e-9) {
		t.Fatalf("tumbling brick's angular momentum %v, want r×J %v", l, moment)
	}

	sphere, err := collide.NewSphere(0.5)
	if err != nil {
		t.Fatal(err)
	}
	ball := RigidBody{Kind: Dynamic, Mass: 2, Position: mgl64.Vec3{5, 0, 0}}
	e, err := Spawn(app.World, ball, Collider{Shape: sphere})
	if err != nil {
		t.Fatal(err)
	}
	s, _ := ecs.Get[RigidBody](app.World, e)
	// J = 1.2 N·s along +y at the point +x of the centre: ω = 5·1.2/(2·2·0.5) = 3 rad/s about +z.
	if err := s.ApplyImpulse(mgl64.Vec3{0, 1.2, 0}, mgl64.Vec3{5.5, 0, 0}); err != nil {
		t.Fatal(err)
	}
	if !near(s.AngularVelocity, mgl64.Vec3{0, 0, 3}, 1e-14) || !near(s.LinearVelocity, mgl64.Vec3{0, 0.6, 0}, 1e-15) {
		t.Fatalf("sphere: ω %v v %v, want (0, 0, 3) and (0, 0.6, 0)", s.AngularVelocity, s.LinearVelocity)
	}
}

// A constant force F on a free body for 1 s gives v = F/m t and, with semi-implicit Euler,
// x = x₀ + (F/m) h² n(n+1)/2, which is ½ (F/m) t² plus the scheme's ½ (F/m) h t. Forces at the
// centre exert no torque.
func TestConstantForceAccelerates(t *testing.T) {
	const h, n = 0.01, 100
	app := newTestApp(t, h, zeroGravity())
	_, b := spawnBrick(t, app.World, mgl64.Vec3{0, 0, 0}, mgl64.QuatRotate(0.3, mgl64.Vec3{0, 0, 1}))
	f := mgl64.Vec3{3, -1.5, 6}
	a := f.Mul(1.0 / 6)
	for i := 0; i < n; i++ {
		// Half at the centre, half through ApplyForce at the centre: both exert no torque.
		if err := b.ApplyCentralForce(f.Mul(0.5)); err != nil {
			t.Fatal(err)
		}
		if err := b.ApplyForce(f.Mul(0.5), b.Position); err != nil {
			t.Fatal(err)
		}
		if got, torque := b.AppliedForce(); got != f || torque != (mgl64.Vec3{}) {
			t.Fatalf("accumulated %v %v, want %v and no torque", got, torque, f)
		}
		stepN(t, app, 1)
	}
	const tEnd = n * h
	if want := a.Mul(tEnd); !near(b.LinearVelocity, want, 1e-13) {
		t.Fatalf("v %v, want F/m t = %v", b.LinearVelocity, want)
	}
	if want := a.Mul(h * h * n * (n + 1) / 2); !near(b.Position, want, 1e-13) {
		t.Fatalf("x %v, want semi-implicit Euler's %v", b.Position, want)
	}
	if d := b.Position.Sub(a.Mul(0.5 * tEnd * tEnd)).Len(); d > 0.5*a.Len()*h*tEnd*(1+1e-9) {
		t.Fatalf("x is %v from ½ F/m t², more than the scheme's ½ |F/m| h t", d)
	}
	if b.AngularVelocity != (mgl64.Vec3{}) {
		t.Fatalf("a central force turned the body: ω %v", b.AngularVelocity)
	}
}

// A force acts for one step only: the next step starts from no force.
func TestForceIsClearedAfterOneStep(t *testing.T) {
	const h = 0.01
	app := newTestApp(t, h, zeroGravity())
	_, b := spawnBrick(t, app.World, mgl64.Vec3{}, mgl64.QuatIdent())
	if err := b.ApplyForce(mgl64.Vec3{60, 0, 0}, b.Position.Add(mgl64.Vec3{0, 0.5, 0})); err != nil {
		t.Fatal(err)
	}
	stepN(t, app, 1)
	if f, tau := b.AppliedForce(); f != (mgl64.Vec3{}) || tau != (mgl64.Vec3{}) {
		t.Fatalf("after the step the body still holds force %v torque %v", f, tau)
	}
	v1, l1 := b.LinearVelocity, b.AngularMomentum()
	if want := (mgl64.Vec3{0.1, 0, 0}); !near(v1, want, 1e-15) { // h F/m
		t.Fatalf("v after one step %v, want %v", v1, want)
	}
	// The force at +0.5 y exerted τ = (0, 0, −30) N·m for 0.01 s.
	if want := (mgl64.Vec3{0, 0, -0.3}); !near(l1, want, 1e-14) {
		t.Fatalf("angular momentum after one step %v, want %v", l1, want)
	}
	stepN(t, app, 10)
	if b.LinearVelocity != v1 || !near(b.AngularMomentum(), l1, 1e-14) {
		t.Fatalf("the force acted again: v %v → %v, L %v → %v", v1, b.LinearVelocity, l1, b.AngularMomentum())
	}
}

// A torque τ changes the world angular momentum by τ t, whatever the body's shape and orientation
// (the gyroscopic step conserves it otherwise); about a principal axis of a body at rest that is
// the angular acceleration τ/I.
func TestTorqueGivesAngularAcceleration(t *testing.T) {
	const h, n = 0.01, 100
	app := newTestApp(t, h, zeroGravity())
	ea, _ := spawnBrick(t, app.World, mgl64.Vec3{}, mgl64.QuatIdent())
	et, _ := spawnBrick(t, app.World, mgl64.Vec3{5, 0, 0}, mgl64.QuatRotate(1.1, mgl64.Vec3{1, 1, 1}.Normalize()))
	// Component pointers stay valid until the next spawn, so they are taken after the last one.
	aligned, _ := ecs.Get[RigidBody](app.World, ea)
	tilted, _ := ecs.Get[RigidBody](app.World, et)
	tauZ := mgl64.Vec3{0, 0, 2.5}
	tau := mgl64.Vec3{1, -2, 0.5}
	for i := 0; i < n; i++ {
		if err := aligned.ApplyTorque(tauZ); err != nil {
			t.Fatal(err)
		}
		if err := tilted.ApplyTorque(tau); err != nil {
			t.Fatal(err)
		}
		stepN(t, app, 1)
	}
	izz := boxInertia(6, 2, 1, 0.5)[2]
	if want := (mgl64.Vec3{0, 0, 2.5 / izz}); !near(aligned.AngularVelocity, want, 1e-13) {
		t.Fatalf("ω about the principal axis %v, want τ t / I = %v", aligned.AngularVelocity, want)
	}
	if want := tau.Mul(n * h); !near(tilted.AngularMomentum(), want, 1e-12) {
		t.Fatalf("tilted brick's angular momentum %v, want τ t = %v", tilted.AngularMomentum(), want)
	}
	if tilted.LinearVelocity != (mgl64.Vec3{}) || aligned.LinearVelocity != (mgl64.Vec3{}) {
		t.Fatal("a pure torque moved a centre of mass")
	}
}

// The gravity scale multiplies gravity for one body and persists: scale 0 floats, 2 falls twice
// as fast as 1, −1 rises. A struct literal and NewDynamic have scale 1; a bad scale is refused.
func TestGravityScale(t *testing.T) {
	const h, n = 0.01, 100
	cfg := DefaultConfig()
	app := newTestApp(t, h, cfg)
	if s := (&RigidBody{}).GravityScale(); s != 1 {
		t.Fatalf("zero RigidBody's gravity scale %v, want 1", s)
	}
	scales := []float64{0, 1, 2, -1}
	entities := make([]ecs.Entity, len(scales))
	for i := range scales {
		entities[i], _ = spawnBrick(t, app.World, mgl64.Vec3{3 * float64(i), 0, 100}, mgl64.QuatIdent())
	}
	bodies := make([]*RigidBody, len(scales))
	for i, s := range scales {
		b, _ := ecs.Get[RigidBody](app.World, entities[i])
		if b.GravityScale() != 1 {
			t.Fatalf("NewDynamic's gravity scale %v, want 1", b.GravityScale())
		}
		if err := b.SetGravityScale(s); err != nil {
			t.Fatal(err)
		}
		bodies[i] = b
	}
	for _, bad := range []float64{math.NaN(), math.Inf(1), -2 * MaxGravityScale} {
		err := bodies[2].SetGravityScale(bad)
		var fe *FieldError
		if !errors.As(err, &fe) || fe.Field != "RigidBody.SetGravityScale(scale)" {
			t.Fatalf("SetGravityScale(%v): %v, want a FieldError naming the argument", bad, err)
		}
	}
	stepN(t, app, n)
	g := cfg.Gravity
	for i, b := range bodies {
		s := scales[i]
		if b.GravityScale() != s {
			t.Fatalf("scale %v became %v", s, b.GravityScale())
		}
		wantV := g.Mul(s * n * h)
		wantX := mgl64.Vec3{3 * float64(i), 0, 100}.Add(g.Mul(s * h * h * n * (n + 1) / 2))
		if !near(b.LinearVelocity, wantV, 1e-13) || !near(b.Position, wantX, 1e-13) {
			t.Errorf("scale %v: v %v x %v, want %v %v", s, b.LinearVelocity, b.Position, wantV, wantX)
		}
	}
	if bodies[0].Position != (mgl64.Vec3{0, 0, 100}) || bodies[0].LinearVelocity != (mgl64.Vec3{}) {
		t.Errorf("scale 0 moved: x %v v %v", bodies[0].Position, bodies[0].LinearVelocity)
	}
	drop1, drop2 := 100-bodies[1].Position.Z(), 100-bodies[2].Position.Z()
	if math.Abs(drop2-2*drop1) > 1e-12*drop1 {
		t.Errorf("scale 2 fell %v m, scale 1 %v m: want twice as far", drop2, drop1)
	}
	// The energy of a scaled body counts its own gravity: free fall loses only the scheme's
	// ½ m h² |s g|² a step, whatever s.
	e0, err := Energy(app.World, g)
	if err != nil {
		t.Fatal(err)
	}
	stepN(t, app, 1)
	e1, _ := Energy(app.World, g)
	loss := 0.0
	for _, s := range scales {
		loss += 0.5 * 6 * h * h * s * s * g.Dot(g)
	}
	if math.Abs((e0-e1)-loss) > 1e-9*math.Abs(e0) {
		t.Errorf("energy fell by %v J in a step, want %v", e0-e1, loss)
	}
}

// Impulses, forces and a new gravity scale wake a sleeping body, which then moves; a zero push
// leaves it asleep.
func TestPushWakesSleepingBody(t *testing.T) {
	app, cubes := sleepyStack(t, DefaultConfig(), 3)
	sim, _ := SimulationOf(app.World)
	stepUntilAsleep(t, app, 3, 200)
	top, _ := ecs.Get[RigidBody](app.World, cubes[2])
	if err := top.ApplyImpulse(mgl64.Vec3{}, top.Position); err != nil {
		t.Fatal(err)
	}
	if err := top.ApplyForce(mgl64.Vec3{}, top.Position); err != nil {
		t.Fatal(err)
	}
	stepN(t, app, 1)
	if st := sim.Stats(); st.Islands != 0 || st.Sleeping != 3 {
		t.Fatalf("a zero push woke the stack: %+v", st)
	}

	pushes := []struct {
		name string
		push func(b *RigidBody) error
	}{
		{"impulse", func(b *RigidBody) error { return b.ApplyImpulse(mgl64.Vec3{2, 0, 0}, b.Position) }},
		{"force", func(b *RigidBody) error { return b.ApplyForce(mgl64.Vec3{400, 0, 0}, b.Position) }},
		{"torque", func(b *RigidBody) error { return b.ApplyTorque(mgl64.Vec3{0, 0, 100}) }},
		{"gravity scale", func(b *RigidBody) error { return b.SetGravityScale(-1) }},
	}
	for _, p := range pushes {
		top, _ := ecs.Get[RigidBody](app.World, cubes[2])
		before := *top
		if err := p.push(top); err != nil {
			t.Fatal(err)
		}
		if top.Sleeping {
			t.Fatalf("%s: the body still reports Sleeping", p.name)
		}
		stepN(t, app, 1)
		if st := sim.Stats(); st.Sleeping != 0 || st.Islands == 0 {
			t.Fatalf("%s: %+v, want the stack awake and solved", p.name, st)
		}
		stepN(t, app, 4)
		moved := top.Position.Sub(before.Position).Len() + top.Orientation.Sub(before.Orientation).Len()
		if top.Sleeping || moved < 1e-3 {
			t.Fatalf("%s: Sleeping %v, moved %v; want awake and moving", p.name, top.Sleeping, moved)
		}
		if p.name == "gravity scale" {
			if top.Position.Z() <= before.Position.Z() {
				t.Fatalf("scale −1: z %v → %v, want rising", before.Position.Z(), top.Position.Z())
			}
			break
		}
		// Put the stack back to sleep, restacked where it started.
		for i, e := range cubes {
			b, _ := ecs.Get[RigidBody](app.World, e)
			b.Position, b.Orientation = mgl64.Vec3{0, 0, 0.5 + float64(i)}, mgl64.QuatIdent()
			b.LinearVelocity, b.AngularVelocity = mgl64.Vec3{}, mgl64.Vec3{}
		}
		stepUntilAsleep(t, app, 3, 300)
	}
}

// Nothing pushes a static or kinematic body: the calls accept the input and change nothing, and
// the kinematic body moves with its own velocity only.
func TestForcesOnStaticAndKinematicDoNothing(t *testing.T) {
	const h = 0.01
	app := newTestApp(t, h, DefaultConfig())
	box, _ := collide.NewBox(mgl64.Vec3{0.5, 0.5, 0.5})
	platform := NewKinematic(mgl64.Vec3{0, 0, 1})
	platform.LinearVelocity = mgl64.Vec3{1, 0, 0}
	ke, err := Spawn(app.World, platform, Collider{Shape: box})
	if err != nil {
		t.Fatal(err)
	}
	se, err := Spawn(app.World, NewStatic(mgl64.Vec3{5, 0, 1}), Collider{Shape: box})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range []ecs.Entity{ke, se} {
		b, _ := ecs.Get[RigidBody](app.World, e)
		before := *b
		for _, err := range []error{
			b.ApplyImpulse(mgl64.Vec3{100, 0, 0}, b.Position.Add(mgl64.Vec3{0, 1, 0})),
			b.ApplyCentralImpulse(mgl64.Vec3{100, 0, 0}),
			b.ApplyForce(mgl64.Vec3{0, 1e4, 0}, b.Position.Add(mgl64.Vec3{1, 0, 0})),
			b.ApplyCentralForce(mgl64.Vec3{0, 1e4, 0}),
			b.ApplyTorque(mgl64.Vec3{1e3, 0, 0}),
		} {
			if err != nil {
				t.Fatal(err)
			}
		}
		if *b != before {
			t.Fatalf("%v: a push changed a %v body", e, b.Kind)
		}
	}
	stepN(t, app, 50)
	k := bodyOf(t, app.World, ke)
	if !near(k.Position, mgl64.Vec3{0.5, 0, 1}, 1e-12) || k.LinearVelocity != (mgl64.Vec3{1, 0, 0}) || k.AngularVelocity != (mgl64.Vec3{}) || k.Orientation != mgl64.QuatIdent() {
		t.Fatalf("kinematic body: x %v v %v ω %v q %v, want carried by its own velocity only", k.Position, k.LinearVelocity, k.AngularVelocity, k.Orientation)
	}
	if s := bodyOf(t, app.World, se); s.Position != (mgl64.Vec3{5, 0, 1}) || s.Orientation != mgl64.QuatIdent() {
		t.Fatalf("static body moved to %v %v", s.Position, s.Orientation)
	}
}

// NewKinematic's defaults, and those of a struct literal, are the documented ones.
func TestKinematicDefaults(t *testing.T) {
	k := NewKinematic(mgl64.Vec3{1, 2, 3})
	if k.Kind != Kinematic || k.Friction != DefaultFriction || k.Restitution != 0 || k.Orientation != mgl64.QuatIdent() ||
		k.Position != (mgl64.Vec3{1, 2, 3}) || k.LinearVelocity != (mgl64.Vec3{}) || k.AngularVelocity != (mgl64.Vec3{}) {
		t.Fatalf("NewKinematic: %+v", k)
	}
	if lit := (RigidBody{Kind: Kinematic}); lit.Friction != 0 || lit.GravityScale() != 1 {
		t.Fatalf("struct literal: friction %v, gravity scale %v; documented 0 and 1", lit.Friction, lit.GravityScale())
	}
}

// Non-finite input is refused with a FieldError naming the method and argument and changes
// nothing; so is finite input whose effect would overflow. A force too large for the step is
// refused by the step, naming the entity; no component ever holds NaN or Inf.
func TestNonFinitePushesAreRefused(t *testing.T) {
	const h = 0.01
	app := newTestApp(t, h, DefaultConfig())
	brick, b := spawnBrick(t, app.World, mgl64.Vec3{0, 0, 10}, mgl64.QuatIdent())
	b.LinearVelocity = mgl64.Vec3{1, 0, 0}
	nan, inf := math.NaN(), math.Inf(1)
	p := b.Position
	cases := []struct {
		field string
		push  func() error
	}{
		{"RigidBody.ApplyImpulse(impulse)", func() error { return b.ApplyImpulse(mgl64.Vec3{nan, 0, 0}, p) }},
		{"RigidBody.ApplyImpulse(worldPoint)", func() error { return b.ApplyImpulse(mgl64.Vec3{1, 0, 0}, mgl64.Vec3{0, inf, 0}) }},
		{"RigidBody.ApplyImpulse(impulse)", func() error { return b.ApplyImpulse(mgl64.Vec3{0, 1e308, 0}, mgl64.Vec3{1e308, 0, 0}) }}, // r × J overflows
		{"RigidBody.ApplyImpulse(impulse)", func() error { return b.ApplyImpulse(mgl64.Vec3{0, 1, 0}, mgl64.Vec3{1e308, 0, 0}) }},     // fine, next
		{"RigidBody.ApplyCentralImpulse(impulse)", func() error { return b.ApplyCentralImpulse(mgl64.Vec3{0, -inf, 0}) }},
		{"RigidBody.ApplyForce(force)", func() error { return b.ApplyForce(mgl64.Vec3{0, 0, nan}, p) }},
		{"RigidBody.ApplyForce(worldPoint)", func() error { return b.ApplyForce(mgl64.Vec3{1, 0, 0}, mgl64.Vec3{nan, 0, 0}) }},
		{"RigidBody.ApplyForce(force)", func() error { return b.ApplyForce(mgl64.Vec3{0, 1e300, 0}, mgl64.Vec3{1e300, 0, 0}) }}, // torque overflows
		{"RigidBody.ApplyCentralForce(force)", func() error { return b.ApplyCentralForce(mgl64.Vec3{inf, 0, 0}) }},
		{"RigidBody.ApplyTorque(torque)", func() error { return b.ApplyTorque(mgl64.Vec3{0, nan, 0}) }},
	}
	before := *b
	for i, c := range cases {
		err := c.push()
		if i == 3 {
			// A huge lever arm with a small impulse gives a large but finite spin: accepted.
			if err != nil {
				t.Fatalf("case %d: %v", i, err)
			}
			*b = before
			continue
		}
		var fe *FieldError
		if !errors.As(err, &fe) || fe.Field != c.field || !strings.Contains(err.Error(), c.field) {
			t.Fatalf("case %d: got %v, want a FieldError naming %s", i, err, c.field)
		}
		if *b != before {
			t.Fatalf("case %d: a refused push changed the body", i)
		}
	}
	// Accumulating past the largest float is refused too, keeping the first force.
	if err := b.ApplyCentralForce(mgl64.Vec3{1.5e308, 0, 0}); err != nil {
		t.Fatal(err)
	}
	if err := b.ApplyCentralForce(mgl64.Vec3{1.5e308, 0, 0}); err == nil {
		t.Fatal("an accumulated force of 3e308 N was accepted")
	}
	if f, _ := b.AppliedForce(); f != (mgl64.Vec3{1.5e308, 0, 0}) {
		t.Fatalf("accumulated force %v after the refusal", f)
	}
	// The step checks what the force does over h: 1.5e308 N on 6 kg gives 2.5e305 m/s, finite,
	// so it acts. On a body of 1 mg (MinMass), 1e308 N would give 1e312 m/s: the step refuses it, naming
	// the entity, drops it and moves nothing; the next step runs without it.
	sphere, _ := collide.NewSphere(0.01)
	light, err := Spawn(app.World, RigidBody{Kind: Dynamic, Mass: MinMass, Position: mgl64.Vec3{5, 0, 10}}, Collider{Shape: sphere})
	if err != nil {
		t.Fatal(err)
	}
	l, _ := ecs.Get[RigidBody](app.World, light)
	b, _ = ecs.Get[RigidBody](app.World, brick) // the spawn may have moved the components
	if err := l.ApplyCentralForce(mgl64.Vec3{1e308, 0, 0}); err != nil {
		t.Fatal(err)
	}
	lBefore, bBefore := *l, *b
	err = app.StepFixed()
	var fe *FieldError
	if !errors.As(err, &fe) || fe.Entity != light || fe.Field != "RigidBody.AppliedForce" {
		t.Fatalf("got %v, want a FieldError for %v RigidBody.AppliedForce", err, light)
	}
	if f, _ := l.AppliedForce(); f != (mgl64.Vec3{}) || l.LinearVelocity != lBefore.LinearVelocity || l.Position != lBefore.Position {
		t.Fatalf("the refused force was kept (%v) or acted (v %v)", f, l.LinearVelocity)
	}
	if b.Position != bBefore.Position {
		t.Fatal("a refused step moved another body")
	}
	stepN(t, app, 5)
	if !near(b.LinearVelocity, mgl64.Vec3{1 + 1.5e308*0.01/6, 0, 0}.Add(DefaultConfig().Gravity.Mul(0.05)), 1e-12) {
		t.Fatalf("brick: v %v, want its 1.5e308 N for one step", b.LinearVelocity)
	}
	for _, e := range []*RigidBody{b, l} {
		for _, v := range []mgl64.Vec3{e.Position, e.LinearVelocity, e.AngularVelocity, e.Orientation.V} {
			if !finiteVec(v) || !finite(e.Orientation.W) {
				t.Fatalf("a step wrote a non-finite state: x %v v %v ω %v q %v", e.Position, e.LinearVelocity, e.AngularVelocity, e.Orientation)
			}
		}
	}
}

// An impulse given before the body's mass is known (attached with ecs.Add rather than Spawn) is
// held and applied by the next step once the mass is derived.
func TestImpulseBeforeMassIsKnown(t *testing.T) {
	const h = 0.01
	app := newTestApp(t, h, zeroGravity())
	sphere, _ := collide.NewSphere(0.5)
	e := app.World.Spawn()
	body := NewDynamic(mgl64.Vec3{}, 3/(4.0/3*math.Pi*0.125)) // 3 kg
	if err := body.ApplyImpulse(mgl64.Vec3{0, 1.2, 0}, mgl64.Vec3{0.5, 0, 0}); err != nil {
		t.Fatal(err)
	}
	if body.LinearVelocity != (mgl64.Vec3{}) {
		t.Fatal("an impulse on a body of unknown mass acted at once")
	}
	if err := ecs.Add(app.World, e, body); err != nil {
		t.Fatal(err)
	}
	if err := ecs.Add(app.World, e, Collider{Shape: sphere}); err != nil {
		t.Fatal(err)
	}
	stepN(t, app, 1)
	b := bodyOf(t, app.World, e)
	// Δv = J/m = 0.4 m/s along y; ω = 5J/(2mR) = 2 rad/s about z.
	if !near(b.LinearVelocity, mgl64.Vec3{0, 0.4, 0}, 1e-13) || !near(b.AngularVelocity, mgl64.Vec3{0, 0, 2}, 1e-13) {
		t.Fatalf("v %v ω %v, want (0, 0.4, 0) and (0, 0, 2)", b.LinearVelocity, b.AngularVelocity)
	}
	if !near(b.Position, mgl64.Vec3{0, 0.4 * h, 0}, 1e-13) {
		t.Fatalf("x %v, want moved by h Δv in the same step", b.Position)
	}
}

// A dynamic convex hull whose points are off their centroid is refused with a message that names
// NewConvexHullCentered; the hull that call builds is accepted.
func TestOffCentreHullNamesTheFix(t *testing.T) {
	app := newTestApp(t, 0.01, DefaultConfig())
	var pts []mgl64.Vec3
	for _, x := range []float64{2, 3} {
		for _, y := range []float64{0, 1} {
			for _, z := range []float64{0, 1} {
				pts = append(pts, mgl64.Vec3{x, y, z})
			}
		}
	}
	hull, err := collide.NewConvexHull(pts)
	if err != nil {
		t.Fatal(err)
	}
	_, err = Spawn(app.World, NewDynamic(mgl64.Vec3{}, 100), Collider{Shape: hull})
	var fe *FieldError
	if !errors.As(err, &fe) || fe.Field != "Collider.Shape" || !strings.Contains(err.Error(), "collide.NewConvexHullCentered") {
		t.Fatalf("got %v, want a Collider.Shape error naming collide.NewConvexHullCentered", err)
	}
	centred, off, err := collide.NewConvexHullCentered(pts)
	if err != nil {
		t.Fatal(err)
	}
	if !near(off, mgl64.Vec3{2.5, 0.5, 0.5}, 1e-12) {
		t.Fatalf("offset %v, want the cube's centre (2.5, 0.5, 0.5)", off)
	}
	if _, err := Spawn(app.World, NewDynamic(off, 100), Collider{Shape: centred}); err != nil {
		t.Fatal(err)
	}
}

// A force enters the contact solve like gravity: a cube pressed into the ground stays on it with
// the ground's impulse carrying weight and push, (m g + F) h a step; pushed sideways below μ m g
// it sticks, above it slides with Coulomb's acceleration F/m − μ g.
func TestForceAgainstContact(t *testing.T) {
	const h, mu = 0.01, 0.8
	for _, tc := range []struct {
		name  string
		force mgl64.Vec3
	}{{"pressed", mgl64.Vec3{0, 0, -20}}, {"below friction", mgl64.Vec3{5, 0, 0}}, {"above friction", mgl64.Vec3{15, 0, 0}}} {
		t.Run(tc.name, func(t *testing.T) {
			app := newTestApp(t, h, DefaultConfig())
			spawnGround(t, app.World, mgl64.Vec3{0, 0, 1}, mu)
			e := spawnCube(t, app.World, mgl64.Vec3{0, 0, 0.5}, mgl64.QuatIdent(), mu)
			sim, _ := SimulationOf(app.World)
			stepN(t, app, 20) // settle
			b, _ := ecs.Get[RigidBody](app.World, e)
			x0 := b.Position
			for i := 0; i < 100; i++ {
				if err := b.ApplyCentralForce(tc.force); err != nil {
					t.Fatal(err)
				}
				stepN(t, app, 1)
			}
			switch tc.name {
			case "pressed":
				total := 0.0
				sim.Contacts(func(c ContactPoint) { total += c.NormalImpulse })
				want := (StandardGravity + 20) * h
				t.Logf("ground impulse %.9g N·s (want %.9g), z %.9g", total, want, b.Position.Z())
				if math.Abs(total-want) > 1e-4*want || math.Abs(b.Position.Z()-0.5) > 1e-4 {
					t.Fatalf("ground impulse %v N·s, want %v; z %v, want 0.5", total, want, b.Position.Z())
				}
			case "below friction":
				t.Logf("moved %.3g m", b.Position.Sub(x0).Len())
				if d := b.Position.Sub(x0).Len(); d > 1e-6 {
					t.Fatalf("a push below μ m g moved the cube %v m", d)
				}
			default:
				want := 15 - mu*StandardGravity // 1 kg, for 1 s
				t.Logf("sliding speed %.9g m/s (want %.9g)", b.LinearVelocity.X(), want)
				if got := b.LinearVelocity.X(); math.Abs(got-want) > 1e-4*want {
					t.Fatalf("sliding speed %v m/s after 1 s, want F/m − μ g = %v", got, want)
				}
			}
		})
	}
}
