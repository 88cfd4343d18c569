package physics

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/stagger-physics/stagger/ecs"
)

// kindScene returns an app with a static slab whose top is the plane z = 0 and a unit cube of
// kind k at p.
func kindScene(t *testing.T, k BodyKind, p mgl64.Vec3) (*ecs.App, ecs.Entity) {
	t.Helper()
	app := newTestApp(t, 0.01, DefaultConfig())
	spawnStaticBox(t, app.World, mgl64.Vec3{0, 0, -0.5}, mgl64.Vec3{10, 10, 0.5})
	e := spawnCube(t, app.World, p, mgl64.QuatIdent(), 0.8)
	b, _ := ecs.Get[RigidBody](app.World, e)
	if k != Dynamic {
		*b = NewStatic(p)
		b.Kind = k
	}
	return app, e
}

// steps runs n fixed steps.
func steps(t *testing.T, app *ecs.App, n int) {
	t.Helper()
	for i := 0; i < n; i++ {
		if err := app.StepFixed(); err != nil {
			t.Fatal(err)
		}
	}
}

// nearValue fails unless got is within tol of want.
func nearValue(t *testing.T, what string, got, want, tol float64) {
	t.Helper()
	if math.Abs(got-want) > tol {
		t.Errorf("%s = %.6g, want %.6g ± %.3g", what, got, want, tol)
	}
}

// TestBecomingDynamicCollides turns a static and a kinematic cube held 2 m above a static slab
// into dynamic ones (mass from Density): each must fall and come to rest on the slab, not
// through it.
func TestBecomingDynamicCollides(t *testing.T) {
	for _, k := range []BodyKind{Static, Kinematic} {
		app, e := kindScene(t, k, mgl64.Vec3{0, 0, 2})
		steps(t, app, 20)
		nearValue(t, k.String()+" cube's height before the change", bodyOf(t, app.World, e).Position.Z(), 2, 0)
		b, _ := ecs.Get[RigidBody](app.World, e)
		b.Kind, b.Density = Dynamic, 500
		steps(t, app, 300)
		got := bodyOf(t, app.World, e)
		nearValue(t, k.String()+"→dynamic cube's height", got.Position.Z(), 0.5, 1e-3)
		nearValue(t, k.String()+"→dynamic cube's mass", got.Mass, 500, 1e-9)
	}
}

// TestBecomingStaticHolds freezes a falling cube in mid-air as a static body: it stays exactly
// where it was, ignoring its velocity, and a cube dropped on it rests on it.
func TestBecomingStaticHolds(t *testing.T) {
	app, e := kindScene(t, Dynamic, mgl64.Vec3{0, 0, 4})
	steps(t, app, 30)
	b, _ := ecs.Get[RigidBody](app.World, e)
	b.Kind = Static
	at := b.Position
	top := spawnCube(t, app.World, at.Add(mgl64.Vec3{0.1, 0, 2}), mgl64.QuatIdent(), 0.8)
	steps(t, app, 300)
	if got := bodyOf(t, app.World, e).Position; got != at {
		t.Errorf("the cube made static moved from %v to %v", at, got)
	}
	nearValue(t, "height of the cube dropped on the one made static", bodyOf(t, app.World, top).Position.Z(), at.Z()+1, 1e-3)
}

// TestBecomingKinematicMoves turns a cube resting on the slab kinematic with a velocity of 1 m/s
// along x: it must move exactly with it, and push a dynamic cube in its way.
func TestBecomingKinematicMoves(t *testing.T) {
	app, e := kindScene(t, Dynamic, mgl64.Vec3{0, 0, 0.5})
	other := spawnCube(t, app.World, mgl64.Vec3{1.5, 0, 0.5}, mgl64.QuatIdent(), 0.3)
	steps(t, app, 50)
	b, _ := ecs.Get[RigidBody](app.World, e)
	b.Kind = Kinematic
	b.LinearVelocity = mgl64.Vec3{1, 0, 0}
	x0 := b.Position.X()
	steps(t, app, 200)
	got := bodyOf(t, app.World, e)
	nearValue(t, "kinematic cube's x after 2 s at 1 m/s", got.Position.X(), x0+2, 1e-9)
	if x := bodyOf(t, app.World, other).Position.X(); x < got.Position.X()+1-2e-3 {
		t.Errorf("the pushed cube is at x = %.4f, inside the kinematic cube at x = %.4f", x, got.Position.X())
	}
}

// TestStaticKinematicSwaps lifts a cube resting on a static block by making the block kinematic
// with an upward velocity, then stops it by making it static again: the cube rides up and stays.
func TestStaticKinematicSwaps(t *testing.T) {
	app, lift := kindScene(t, Static, mgl64.Vec3{0, 0, 0.5})
	rider := spawnCube(t, app.World, mgl64.Vec3{0, 0, 1.5}, mgl64.QuatIdent(), 0.8)
	steps(t, app, 50)
	b, _ := ecs.Get[RigidBody](app.World, lift)
	b.Kind = Kinematic
	b.LinearVelocity = mgl64.Vec3{0, 0, 0.5}
	steps(t, app, 200) // 1 m up
	nearValue(t, "lift's height", bodyOf(t, app.World, lift).Position.Z(), 1.5, 1e-9)
	nearValue(t, "rider's height on the moving lift", bodyOf(t, app.World, rider).Position.Z(), 2.5, 2e-3)
	b, _ = ecs.Get[RigidBody](app.World, lift)
	b.Kind = Static
	at := b.Position
	steps(t, app, 200)
	if got := bodyOf(t, app.World, lift).Position; got != at {
		t.Errorf("the lift made static moved from %v to %v", at, got)
	}
	nearValue(t, "rider's height on the stopped lift", bodyOf(t, app.World, rider).Position.Z(), 2.5, 1e-3)
}
