package physics

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/stagger-physics/stagger/collide"
	"github.com/stagger-physics/stagger/ecs"
)

// restingCubeApp returns an app, sleeping off, with a cube settled on the ground for one second.
func restingCubeApp(t *testing.T) (*ecs.App, ecs.Entity, *Simulation) {
	t.Helper()
	cfg := DefaultConfig()
	cfg.SleepTime = 0
	app := newTestApp(t, 0.01, cfg)
	spawnGround(t, app.World, mgl64.Vec3{0, 0, 1}, 0.8)
	e := spawnCube(t, app.World, mgl64.Vec3{0, 0, 0.5}, mgl64.QuatIdent(), 0.8)
	for i := 0; i < 100; i++ {
		if err := app.StepFixed(); err != nil {
			t.Fatal(err)
		}
	}
	sim, _ := SimulationOf(app.World)
	return app, e, sim
}

// A resting pair keeps its manifold; a pair whose body the game moves or gives another shape, or
// that slides, computes it again.
func TestRestingPairKeepsManifold(t *testing.T) {
	app, e, sim := restingCubeApp(t)
	kept := 0
	for i := 0; i < 50; i++ {
		if err := app.StepFixed(); err != nil {
			t.Fatal(err)
		}
		kept += sim.Stats().KeptPairs
	}
	if kept < 45 {
		t.Errorf("resting cube: manifold kept in %d of 50 steps, want nearly all", kept)
	}
	if b := bodyOf(t, app.World, e); math.Abs(b.Position[2]-0.5) > 1e-9 {
		t.Errorf("resting cube drifted to z = %.12f", b.Position[2])
	}

	// Lifted by the game by 2 mm: the manifold is computed again and sees the gap.
	b, _ := ecs.Get[RigidBody](app.World, e)
	b.Position[2] += 0.002
	if err := app.StepFixed(); err != nil {
		t.Fatal(err)
	}
	if st := sim.Stats(); st.KeptPairs != 0 || math.Abs(st.MinGap-0.002) > 1e-6 {
		t.Errorf("lifted cube: kept %d pairs, min gap %v, want 0 and 0.002", st.KeptPairs, st.MinGap)
	}

	// Given a larger shape in place: computed again (the cube now reaches 1 cm into the ground).
	app, e, sim = restingCubeApp(t)
	big, err := collide.NewBox(mgl64.Vec3{0.51, 0.51, 0.51})
	if err != nil {
		t.Fatal(err)
	}
	col, _ := ecs.Get[Collider](app.World, e)
	col.Shape = big
	if err := app.StepFixed(); err != nil {
		t.Fatal(err)
	}
	if st := sim.Stats(); st.KeptPairs != 0 || math.Abs(st.MinGap+0.01) > 1e-6 {
		t.Errorf("replaced shape: kept %d pairs, min gap %v, want 0 and −0.01", st.KeptPairs, st.MinGap)
	}

	// Sliding at 1 m/s: never kept.
	app, e, sim = restingCubeApp(t)
	b, _ = ecs.Get[RigidBody](app.World, e)
	b.LinearVelocity = mgl64.Vec3{1, 0, 0}
	for i := 0; i < 10; i++ {
		if err := app.StepFixed(); err != nil {
			t.Fatal(err)
		}
		if st := sim.Stats(); st.KeptPairs != 0 {
			t.Fatalf("sliding cube, step %d: manifold kept", i)
		}
	}
}

// poseNear bounds the motion of every point within reach: translation plus reach times the angle.
func TestPoseNear(t *testing.T) {
	p := collide.IdentityPose()
	q := p
	q.Position[0] += 0.6e-9
	if !poseNear(p, q, 1) {
		t.Error("0.6e-9 m translation rejected")
	}
	q.Rotation = mgl64.QuatRotate(0.5e-9, mgl64.Vec3{0, 0, 1})
	if poseNear(p, q, 1) {
		t.Error("0.6e-9 m plus 0.5e-9 m of turn accepted")
	}
	if !poseNear(p, q, 0.5) {
		t.Error("0.6e-9 m plus 0.25e-9 m of turn rejected")
	}
	q = p
	q.Rotation = q.Rotation.Scale(-1) // the same rotation
	if !poseNear(p, q, 1) {
		t.Error("the negated quaternion counted as a turn")
	}
}
