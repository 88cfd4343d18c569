package physics

import (
	"testing"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/stagger-physics/stagger/collide"
	"github.com/stagger-physics/stagger/ecs"
)

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
