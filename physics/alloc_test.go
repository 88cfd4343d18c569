package physics

import (
	"testing"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/stagger-physics/stagger/collide"
	"github.com/stagger-physics/stagger/ecs"
)

// TestWarmStepDoesNotAllocate steps 24 stacks of three cubes on the ground with two workers: once
// warm, Simulation.Step allocates nothing, both while every island is solved (sleeping off; 72
// pairs, so the narrow phase runs on the worker pool too) and once the stacks sleep (the default
// configuration), and with the game pushing every top cube before each step (a force off its
// centre and a torque, which the step's predictor applies and clears).
func TestWarmStepDoesNotAllocate(t *testing.T) {
	for _, tc := range []struct {
		name        string
		sleep, push bool
	}{{"awake", false, false}, {"asleep", true, false}, {"pushed", false, true}} {
		t.Run(tc.name, func(t *testing.T) {
			const h, stacks, height = 0.01, 24, 3
			cfg := DefaultConfig()
			cfg.Workers = 2
			if !tc.sleep {
				cfg.SleepTime = 0
			}
			app := newTestApp(t, h, cfg)
			spawnGround(t, app.World, mgl64.Vec3{0, 0, 1}, 0.8)
			for i := 0; i < stacks; i++ {
				for j := 0; j < height; j++ {
					p := mgl64.Vec3{2 * float64(i%6), 2 * float64(i/6), 0.5 + float64(j)}
					spawnCube(t, app.World, p, mgl64.QuatIdent(), 0.8)
				}
			}
			sim, _ := SimulationOf(app.World)
			tick := uint64(0)
			var tops []*RigidBody
			if tc.push {
				query, err := ecs.NewQuery1[RigidBody](app.World)
				if err != nil {
					t.Fatal(err)
				}
				_ = query.Each(func(_ ecs.Entity, b *RigidBody) {
					if b.Kind == Dynamic && b.Position.Z() > 2 {
						tops = append(tops, b)
					}
				})
				if len(tops) != stacks {
					t.Fatalf("found %d top cubes, want %d", len(tops), stacks)
				}
			}
			step := func() {
				for _, b := range tops {
					// Small enough that the stacks stay standing.
					if b.ApplyForce(mgl64.Vec3{0.5, 0, 0}, b.Position.Add(mgl64.Vec3{0, 0, 0.5})) != nil || b.ApplyTorque(mgl64.Vec3{0, 0, 0.05}) != nil {
						t.Fatal("push refused")
					}
				}
				tick++
				if err := sim.Step(h, tick); err != nil {
					t.Fatal(err)
				}
			}
			for i := 0; i < 100; i++ { // settle, warm the buffers (and fall asleep, if sleeping is on)
				step()
			}
			allocs := testing.AllocsPerRun(20, step)
			st := sim.Stats()
			if tc.sleep && (st.Sleeping != stacks*height || st.Islands != 0) {
				t.Fatalf("%+v: want all %d cubes asleep and no island solved", st, stacks*height)
			}
			if tc.push {
				if f, tau := tops[0].AppliedForce(); f != (mgl64.Vec3{}) || tau != (mgl64.Vec3{}) {
					t.Fatalf("the step left force %v torque %v", f, tau)
				}
			}
			if !tc.sleep && (st.Islands != stacks || st.Contacts != 4*stacks*height) {
				t.Fatalf("%+v: want %d islands solved and %d contacts", st, stacks, 4*stacks*height)
			}
			if allocs != 0 {
				t.Fatalf("a warm step allocates %v times", allocs)
			}
		})
	}
}

// TestWarmQueriesDoNotAllocate: on the stacks of TestWarmStepDoesNotAllocate, with a sensor over
// one stack and a contact filter installed, a warm step still allocates nothing, and neither does
// a warm CastRay, CastShape or Overlap, the first query after each step (which refreshes the
// broad phase) included.
func TestWarmQueriesDoNotAllocate(t *testing.T) {
	const h = 0.01
	cfg := DefaultConfig()
	cfg.Workers = 2
	cfg.SleepTime = 0
	app := newTestApp(t, h, cfg)
	spawnGround(t, app.World, mgl64.Vec3{0, 0, 1}, 0.8)
	for i := 0; i < 24; i++ {
		for j := 0; j < 3; j++ {
			spawnCube(t, app.World, mgl64.Vec3{2 * float64(i%6), 2 * float64(i/6), 0.5 + float64(j)}, mgl64.QuatIdent(), 0.8)
		}
	}
	box, err := collide.NewBox(mgl64.Vec3{0.8, 0.8, 2})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Spawn(app.World, NewStatic(mgl64.Vec3{0, 0, 1.5}), Collider{Shape: box, Sensor: true}); err != nil {
		t.Fatal(err)
	}
	sim, _ := SimulationOf(app.World)
	sim.SetContactFilter(func(a, b ecs.Entity) bool { return true })
	ball, err := collide.NewSphere(0.3)
	if err != nil {
		t.Fatal(err)
	}
	hits := 0
	visit := func(ecs.Entity) bool { hits++; return true }
	tick := uint64(0)
	query := func() {
		if _, ok, err := sim.CastRay(mgl64.Vec3{2.1, 0.1, 10}, mgl64.Vec3{0, 0, -1}, 100, QueryFilter{}); err != nil || !ok {
			t.Fatalf("CastRay: %v, %v", ok, err)
		}
		if _, ok, err := sim.CastShape(ball, collide.Pose{Position: mgl64.Vec3{4, 0, 10}}, mgl64.Vec3{0, 0, -1}, 100, QueryFilter{}); err != nil || !ok {
			t.Fatalf("CastShape: %v, %v", ok, err)
		}
		if err := sim.Overlap(ball, collide.Pose{Position: mgl64.Vec3{6, 0, 0.5}}, QueryFilter{Sensors: true}, visit); err != nil {
			t.Fatal(err)
		}
	}
	step := func() {
		tick++
		if err := sim.Step(h, tick); err != nil {
			t.Fatal(err)
		}
	}
	for i := 0; i < 100; i++ {
		step()
		query()
	}
	if st := sim.Stats(); st.Islands != 24 {
		t.Fatalf("%+v: want 24 islands solved", st)
	}
	if a := testing.AllocsPerRun(20, step); a != 0 {
		t.Errorf("a warm step with a sensor and a contact filter allocates %v times", a)
	}
	if a := testing.AllocsPerRun(20, func() { step(); query() }); a != 0 {
		t.Errorf("a warm step and the queries after it allocate %v times", a)
	}
	if a := testing.AllocsPerRun(100, func() {
		_, _, _ = sim.CastRay(mgl64.Vec3{2.1, 0.1, 10}, mgl64.Vec3{0, 0, -1}, 100, QueryFilter{})
	}); a != 0 {
		t.Errorf("a warm CastRay allocates %v times", a)
	}
}

// TestWarmBounceDoesNotAllocate steps 24 elastic balls bouncing on the ground at different
// heights, so that some bounce in most steps: once warm, the collision rounds allocate nothing.
func TestWarmBounceDoesNotAllocate(t *testing.T) {
	const h = 0.01
	cfg := DefaultConfig()
	cfg.Workers = 2
	app := newTestApp(t, h, cfg)
	spawnPlane(t, app.World, mgl64.Vec3{0, 0, 1}, 0.5, 1)
	for i := 0; i < 24; i++ {
		p := mgl64.Vec3{float64(i%6) * 0.5, float64(i/6) * 0.5, ballRadius + 0.1 + 0.01*float64(i)}
		spawnBall(t, app.World, p, mgl64.Vec3{}, 0.5, 1)
	}
	sim, _ := SimulationOf(app.World)
	tick := uint64(0)
	bounced := 0
	step := func() {
		tick++
		if err := sim.Step(h, tick); err != nil {
			t.Fatal(err)
		}
		bounced += sim.Stats().Bounced
	}
	for i := 0; i < 200; i++ {
		step()
	}
	bounced = 0
	if allocs := testing.AllocsPerRun(20, step); allocs != 0 {
		t.Fatalf("a warm step with bounces allocates %v times", allocs)
	}
	if bounced == 0 {
		t.Fatal("no ball bounced while allocations were counted")
	}
}
