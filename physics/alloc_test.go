package physics

import (
	"testing"

	"github.com/go-gl/mathgl/mgl64"
)

// TestWarmStepDoesNotAllocate steps 24 stacks of three cubes on the ground with two workers: once
// warm, Simulation.Step allocates nothing, both while every island is solved (sleeping off; 72
// pairs, so the narrow phase runs on the worker pool too) and once the stacks sleep (the default
// configuration).
func TestWarmStepDoesNotAllocate(t *testing.T) {
	for _, tc := range []struct {
		name  string
		sleep bool
	}{{"awake", false}, {"asleep", true}} {
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
			step := func() {
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
			if !tc.sleep && (st.Islands != stacks || st.Contacts != 4*stacks*height) {
				t.Fatalf("%+v: want %d islands solved and %d contacts", st, stacks, 4*stacks*height)
			}
			if allocs != 0 {
				t.Fatalf("a warm step allocates %v times", allocs)
			}
		})
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
