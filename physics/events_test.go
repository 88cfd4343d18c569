package physics

import (
	"testing"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/stagger-physics/stagger/collide"
	"github.com/stagger-physics/stagger/ecs"
)

// A cube dropped on the ground: no events while it falls, exactly one ContactBegan when it lands,
// ContactPersisted every step it rests (asleep or not), and one ContactEnded when the game lifts
// it off. A second cube far away never produces an event.
func TestContactEventsOfALandingCube(t *testing.T) {
	app := newTestApp(t, 0.01, DefaultConfig())
	plane, err := collide.NewHalfSpace(mgl64.Vec3{0, 0, 1}, 0)
	if err != nil {
		t.Fatal(err)
	}
	ground, err := Spawn(app.World, NewStatic(mgl64.Vec3{}), Collider{Shape: plane})
	if err != nil {
		t.Fatal(err)
	}
	cube := spawnCube(t, app.World, mgl64.Vec3{0, 0, 1.0}, mgl64.QuatIdent(), 0.8)
	far := spawnCube(t, app.World, mgl64.Vec3{50, 0, 30}, mgl64.QuatIdent(), 0.8)
	events, ok := ecs.GetResource[ecs.Events[ContactEvent]](app.World)
	if !ok {
		t.Fatal("the physics plugin added no ContactEvent events")
	}
	var reader ecs.EventReader[ContactEvent]
	count := map[ContactPhase]int{}
	landed := -1
	check := func(step int) {
		reader.Read(events, func(ev ContactEvent) {
			count[ev.Phase]++
			if ev.A == far || ev.B == far {
				t.Errorf("step %d: event %v for the far cube", step, ev.Phase)
			}
			if ev.A != ground || ev.B != cube {
				t.Errorf("step %d: event between %v and %v, want the ground then the cube", step, ev.A, ev.B)
			}
			switch ev.Phase {
			case ContactBegan:
				landed = step
			case ContactPersisted:
				if ev.Points != 4 || !(ev.Impulse > 0) || ev.Normal.Sub(mgl64.Vec3{0, 0, 1}).Len() > 1e-9 {
					t.Errorf("step %d: resting contact %+v, want 4 points pressing along +z", step, ev)
				}
			}
		})
	}
	for step := 0; step < 150; step++ {
		if err := app.StepFixed(); err != nil {
			t.Fatal(err)
		}
		check(step)
	}
	if count[ContactBegan] != 1 || count[ContactEnded] != 0 || landed < 0 {
		t.Fatalf("after landing: %v", count)
	}
	if want := 150 - 1 - landed; count[ContactPersisted] != want {
		t.Errorf("%d ContactPersisted events, want one per step since landing (%d)", count[ContactPersisted], want)
	}
	// The game lifts the cube 1 m up: the contact ends.
	b, _ := ecs.Get[RigidBody](app.World, cube)
	b.Position[2] += 1
	for step := 150; step < 155; step++ {
		if err := app.StepFixed(); err != nil {
			t.Fatal(err)
		}
		check(step)
	}
	if count[ContactEnded] != 1 || count[ContactBegan] != 1 {
		t.Errorf("after lifting: %v, want exactly one ContactEnded", count)
	}
}
