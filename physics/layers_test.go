package physics

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/stagger-physics/stagger/collide"
	"github.com/stagger-physics/stagger/ecs"
)

// dropOnCube spawns the ground, a cube resting on it and a second cube 1 m above the first, with
// the given colliders' layers and masks; it steps 1.5 s (the top cube lands within 0.5 s) and
// returns the resting cube's and the dropped cube's final heights.
func dropOnCube(t *testing.T, setup func(sim *Simulation, lower, upper *Collider)) (float64, float64) {
	t.Helper()
	app := newTestApp(t, 0.01, DefaultConfig())
	spawnGround(t, app.World, mgl64.Vec3{0, 0, 1}, 0.8)
	lower := spawnCube(t, app.World, mgl64.Vec3{0, 0, 0.5}, mgl64.QuatIdent(), 0.8)
	upper := spawnCube(t, app.World, mgl64.Vec3{0, 0, 2.5}, mgl64.QuatIdent(), 0.8)
	sim, _ := SimulationOf(app.World)
	cl, _ := ecs.Get[Collider](app.World, lower)
	cu, _ := ecs.Get[Collider](app.World, upper)
	setup(sim, cl, cu)
	for step := 0; step < 150; step++ {
		if err := app.StepFixed(); err != nil {
			t.Fatal(err)
		}
	}
	return bodyOf(t, app.World, lower).Position[2], bodyOf(t, app.World, upper).Position[2]
}

// TestLayersThatDoNotMeetPassThrough drops a cube onto another: with the default layers it comes
// to rest on top (z = 1.5); on layers whose masks exclude each other (but both collide with the
// ground on the default layer) it falls through the lower cube to the ground (z = 0.5), and the
// lower cube does not move.
func TestLayersThatDoNotMeetPassThrough(t *testing.T) {
	_, top := dropOnCube(t, func(*Simulation, *Collider, *Collider) {})
	if math.Abs(top-1.5) > 1e-3 {
		t.Fatalf("with the default layers the dropped cube rests at z = %.4f, want 1.5", top)
	}
	low, top := dropOnCube(t, func(_ *Simulation, lower, upper *Collider) {
		lower.Layer, lower.Mask = 2, DefaultLayer|2 // sees the ground and its own layer
		upper.Layer, upper.Mask = 4, DefaultLayer|4
	})
	if math.Abs(top-0.5) > 1e-3 || math.Abs(low-0.5) > 1e-6 {
		t.Fatalf("cubes on layers 2 and 4: the dropped cube ends at z = %.4f (want 0.5, through the other), the resting one at %.6f (want 0.5)", top, low)
	}
	// One-sided: the lower cube would collide with layer 4, but the upper cube's mask leaves out
	// layer 2, so the pair is not tested either.
	_, top = dropOnCube(t, func(_ *Simulation, lower, upper *Collider) {
		lower.Layer = 2
		upper.Layer, upper.Mask = 4, DefaultLayer
	})
	if math.Abs(top-0.5) > 1e-3 {
		t.Fatalf("a mask that leaves out the other's layer: the dropped cube ends at z = %.4f, want 0.5", top)
	}
}

// TestLayersChangedByTheGame: layers changed while the world runs take effect at the next step,
// in both directions. A cube dropped on layers that exclude the cube below lands on it when the
// game restores the default layers in mid-fall; a cube asleep on another wakes and falls through
// it when the game moves the two to such layers.
func TestLayersChangedByTheGame(t *testing.T) {
	app := newTestApp(t, 0.01, DefaultConfig())
	spawnGround(t, app.World, mgl64.Vec3{0, 0, 1}, 0.8)
	lower := spawnCube(t, app.World, mgl64.Vec3{0, 0, 0.5}, mgl64.QuatIdent(), 0.8)
	upper := spawnCube(t, app.World, mgl64.Vec3{0, 0, 2.5}, mgl64.QuatIdent(), 0.8)
	cl, _ := ecs.Get[Collider](app.World, lower)
	cu, _ := ecs.Get[Collider](app.World, upper)
	cl.Layer, cl.Mask = 2, DefaultLayer|2
	cu.Layer, cu.Mask = 4, DefaultLayer|4
	run := func(steps int) {
		for range steps {
			if err := app.StepFixed(); err != nil {
				t.Fatal(err)
			}
		}
	}
	run(10) // 0.1 s: the upper cube has fallen 5 cm
	if z := bodyOf(t, app.World, upper).Position[2]; z < 2.4 {
		t.Fatalf("after 0.1 s the upper cube is at z = %.3f, want still above 2.4", z)
	}
	cl.Layer, cl.Mask, cu.Layer, cu.Mask = 0, 0, 0, 0
	run(140)
	if z := bodyOf(t, app.World, upper).Position[2]; math.Abs(z-1.5) > 1e-3 {
		t.Fatalf("default layers restored in mid-fall: the cube rests at z = %.4f, want 1.5 on the other", z)
	}
	cl.Layer = 2
	cu.Layer, cu.Mask = 4, DefaultLayer // sees the ground only
	run(100)
	if z := bodyOf(t, app.World, upper).Position[2]; math.Abs(z-0.5) > 1e-3 {
		t.Fatalf("moved to layer 4 while resting on the other cube: it ends at z = %.4f, want 0.5 on the ground", z)
	}
	if z := bodyOf(t, app.World, lower).Position[2]; math.Abs(z-0.5) > 1e-6 {
		t.Fatalf("the lower cube ends at z = %.6f, want 0.5", z)
	}
}

// TestContactFilterDropsPairs: a contact filter that refuses every pair lets both cubes fall
// through the ground, called with the lower entity index first; one that refuses only the two
// cubes' pair lets the dropped cube fall through the resting one onto the ground.
func TestContactFilterDropsPairs(t *testing.T) {
	calls := 0
	low, top := dropOnCube(t, func(sim *Simulation, _, _ *Collider) {
		sim.SetContactFilter(func(a, b ecs.Entity) bool {
			calls++
			if compareEntities(a, b) >= 0 {
				t.Errorf("filter called with %v, %v: want the lower index first", a, b)
			}
			return false
		})
	})
	// Free fall for 1.5 s from 0.5 m and 2.5 m ends about 11 m below the ground.
	if low > -5 || top > -5 || calls == 0 {
		t.Fatalf("a filter refusing every pair: the cubes end at z = %.3f and %.3f (want in free fall below the ground), %d calls", low, top, calls)
	}
	low, top = dropOnCube(t, func(sim *Simulation, _, _ *Collider) {
		sim.SetContactFilter(func(a, b ecs.Entity) bool {
			ca, _ := ecs.Get[Collider](sim.world, a)
			cb, _ := ecs.Get[Collider](sim.world, b)
			_, groundA := ca.Shape.(*collide.HalfSpace)
			_, groundB := cb.Shape.(*collide.HalfSpace)
			return groundA || groundB
		})
	})
	if math.Abs(top-0.5) > 1e-3 || math.Abs(low-0.5) > 1e-6 {
		t.Fatalf("a filter refusing the cubes' pair: the dropped cube ends at z = %.4f (want 0.5), the resting one at %.6f (want 0.5)", top, low)
	}
}

// sensorFall drops a ball of radius 0.25 from z = 6 onto the ground through a static sensor box
// (half extents 1, 1, 0.5 at z = 3) if withSensor; it returns the ball's state before every step,
// the sensor events with the step each came after, and the contact events involving the sensor.
func sensorFall(t *testing.T, withSensor bool, steps int) (states []bodyState, events []SensorEvent, at []int, sensorContacts int, ball, sensor ecs.Entity) {
	t.Helper()
	app := newTestApp(t, 0.01, DefaultConfig())
	spawnGround(t, app.World, mgl64.Vec3{0, 0, 1}, 0.8)
	sphere, err := collide.NewSphere(0.25)
	if err != nil {
		t.Fatal(err)
	}
	b := NewDynamic(mgl64.Vec3{0.1, -0.2, 6}, 1000)
	b.Restitution = 0.5
	ball, err = Spawn(app.World, b, Collider{Shape: sphere})
	if err != nil {
		t.Fatal(err)
	}
	if withSensor {
		box, err := collide.NewBox(mgl64.Vec3{1, 1, 0.5})
		if err != nil {
			t.Fatal(err)
		}
		sensor, err = Spawn(app.World, NewStatic(mgl64.Vec3{0, 0, 3}), Collider{Shape: box, Sensor: true})
		if err != nil {
			t.Fatal(err)
		}
	}
	sensorEvents, _ := ecs.GetResource[ecs.Events[SensorEvent]](app.World)
	contactEvents, _ := ecs.GetResource[ecs.Events[ContactEvent]](app.World)
	var sr ecs.EventReader[SensorEvent]
	var cr ecs.EventReader[ContactEvent]
	sim, _ := SimulationOf(app.World)
	for step := range steps {
		bb := bodyOf(t, app.World, ball)
		states = append(states, bb.state())
		if err := app.StepFixed(); err != nil {
			t.Fatal(err)
		}
		sr.Read(sensorEvents, func(ev SensorEvent) {
			events = append(events, ev)
			at = append(at, step)
		})
		cr.Read(contactEvents, func(ev ContactEvent) {
			if withSensor && (ev.A == sensor || ev.B == sensor) {
				sensorContacts++
			}
		})
		sim.Contacts(func(c ContactPoint) {
			if withSensor && (c.A == sensor || c.B == sensor) {
				sensorContacts++
			}
		})
	}
	return states, events, at, sensorContacts, ball, sensor
}

// TestSensorReportsOverlapsAndLeavesTheFallAlone drops a ball through a static sensor box onto
// the ground. The sensor sends SensorBegan at the first step whose start pose has the ball
// overlapping the box (ball bottom at or below the box top, z − r ≤ 3.5) and SensorEnded at the
// first whose start pose has it clear below (z + r < 2.5), nothing else, and no contact of any
// kind; the ball's every state, through the sensor and its bounces on the ground, is bit-identical
// to a run without the sensor.
func TestSensorReportsOverlapsAndLeavesTheFallAlone(t *testing.T) {
	const steps = 200
	ref, refEvents, _, _, _, _ := sensorFall(t, false, steps)
	states, events, at, contacts, ball, sensor := sensorFall(t, true, steps)
	if len(refEvents) != 0 {
		t.Fatalf("sensor events without a sensor: %v", refEvents)
	}
	for i := range states {
		if states[i] != ref[i] {
			t.Fatalf("step %d: the ball's state %+v differs from the run without the sensor %+v", i, states[i], ref[i])
		}
	}
	if contacts != 0 {
		t.Errorf("%d contact points or contact events involve the sensor, want none", contacts)
	}
	// Independent expectation from the recorded start-of-step poses.
	began, ended := -1, -1
	for i, s := range states {
		z := s.position[2]
		if began < 0 && z-0.25 <= 3.5 {
			began = i
		}
		if began >= 0 && ended < 0 && z+0.25 < 2.5 {
			ended = i
		}
	}
	if began < 0 || ended < 0 {
		t.Fatalf("the ball never crossed the sensor (began %d, ended %d)", began, ended)
	}
	want := []SensorEvent{{SensorBegan, sensor, ball}, {SensorEnded, sensor, ball}}
	if len(events) != 2 || events[0] != want[0] || events[1] != want[1] || at[0] != began || at[1] != ended {
		t.Fatalf("sensor events %v after steps %v, want %v after steps [%d %d]", events, at, want, began, ended)
	}
}
