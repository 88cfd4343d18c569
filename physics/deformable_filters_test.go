package physics

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/stagger-physics/stagger/collide"
	"github.com/stagger-physics/stagger/ecs"
)

// spawnGroundEntity adds the static ground of spawnGround (the half-space z ≤ 0, friction 0.6)
// and returns its entity.
func spawnGroundEntity(t testing.TB, w *ecs.World) ecs.Entity {
	t.Helper()
	plane, err := collide.NewHalfSpace(mgl64.Vec3{0, 0, 1}, 0)
	if err != nil {
		t.Fatal(err)
	}
	ground := NewStatic(mgl64.Vec3{})
	ground.Friction = 0.6
	e, err := Spawn(w, ground, Collider{Shape: plane})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// stepFixed runs n fixed steps of app.
func stepFixed(t *testing.T, app *ecs.App, n int) {
	t.Helper()
	for range n {
		if err := app.StepFixed(); err != nil {
			t.Fatal(err)
		}
	}
}

// blockDrop spawns the ground and a deformable block 2 cm above it, lets setup change the block
// and the ground's collider, steps 0.6 s and returns the block's height. Resting, the block's
// centre is at blockHalf less a sag of millimetres; falling freely through the ground it drops
// ½ g t² = 1.77 m.
func blockDrop(t *testing.T, setup func(sim *Simulation, block *ReducedDeformable, ground *Collider)) float64 {
	t.Helper()
	app := newTestApp(t, 0.01, DefaultConfig())
	ground := spawnGroundEntity(t, app.World)
	_, block := spawnBlock(t, app.World, mgl64.Vec3{0, 0, blockHalf + 0.02}, 10)
	sim, _ := SimulationOf(app.World)
	gc, _ := ecs.Get[Collider](app.World, ground)
	setup(sim, block, gc)
	stepFixed(t, app, 60)
	return block.Position[2]
}

// TestDeformableLayersThatDoNotMeetPassThrough: a deformable block dropped on the ground rests on
// it with the default layers; when the block's mask leaves out the ground's layer, or the
// ground's mask the block's, it falls through.
func TestDeformableLayersThatDoNotMeetPassThrough(t *testing.T) {
	if z := blockDrop(t, func(*Simulation, *ReducedDeformable, *Collider) {}); math.Abs(z-blockHalf) > 0.01 {
		t.Fatalf("with the default layers the block ends at z = %.4f, want it resting at %.2f", z, blockHalf)
	}
	for _, tc := range []struct {
		name  string
		setup func(*Simulation, *ReducedDeformable, *Collider)
	}{
		{"block mask", func(_ *Simulation, d *ReducedDeformable, _ *Collider) { d.Layer, d.Mask = 2, 2 }},
		{"ground mask", func(_ *Simulation, d *ReducedDeformable, g *Collider) { d.Layer, g.Mask = 2, DefaultLayer }},
	} {
		if z := blockDrop(t, tc.setup); !(z < blockHalf-1.5) {
			t.Errorf("%s: the block ends at z = %.4f, want it fallen through the ground (below %.2f)", tc.name, z, blockHalf-1.5)
		}
	}
}

// stackDrop runs blockStack for 0.5 s after setup and returns the top block's height: resting on
// the bottom block about 3 blockHalf, fallen through it onto the ground about blockHalf.
func stackDrop(t *testing.T, setup func(sim *Simulation, bottom, top *ReducedDeformable)) float64 {
	t.Helper()
	app, ds := blockStack(t, DefaultConfig())
	sim, _ := SimulationOf(app.World)
	setup(sim, ds[0], ds[1])
	stepFixed(t, app, 50)
	return ds[1].Position[2]
}

// TestDeformablePairLayersThatDoNotMeetPassThrough: the top block of a stack of two deformables
// rests on the bottom one with the default layers; on layers that do not meet (either mask
// leaving out the other's layer, both still meeting the ground), or with the contact filter
// dropping the pair, it falls through the bottom block onto the ground.
func TestDeformablePairLayersThatDoNotMeetPassThrough(t *testing.T) {
	if z := stackDrop(t, func(*Simulation, *ReducedDeformable, *ReducedDeformable) {}); math.Abs(z-3*blockHalf) > 0.01 {
		t.Fatalf("with the default layers the top block ends at z = %.4f, want it resting at %.2f", z, 3*blockHalf)
	}
	for _, tc := range []struct {
		name  string
		setup func(*Simulation, *ReducedDeformable, *ReducedDeformable)
	}{
		{"both masks", func(_ *Simulation, bottom, top *ReducedDeformable) {
			bottom.Layer, bottom.Mask = 2, DefaultLayer|2
			top.Layer, top.Mask = 4, DefaultLayer|4
		}},
		{"top mask", func(_ *Simulation, bottom, top *ReducedDeformable) {
			bottom.Layer = 2
			top.Layer, top.Mask = 4, DefaultLayer
		}},
		{"bottom mask", func(_ *Simulation, bottom, top *ReducedDeformable) {
			bottom.Layer, bottom.Mask = 2, DefaultLayer
			top.Layer = 4
		}},
		{"filter", func(sim *Simulation, _, _ *ReducedDeformable) {
			w := sim.world
			sim.SetContactFilter(func(a, b ecs.Entity) bool {
				_, da := ecs.Get[ReducedDeformable](w, a)
				_, db := ecs.Get[ReducedDeformable](w, b)
				return !(da && db)
			})
		}},
	} {
		if z := stackDrop(t, tc.setup); math.Abs(z-blockHalf) > 0.01 {
			t.Errorf("%s: the top block ends at z = %.4f, want it through the bottom block, on the ground at %.2f", tc.name, z, blockHalf)
		}
	}
}

// TestContactFilterSeesDeformables: the block is spawned before the ground, so its index is the
// lower. A filter that keeps every pair is asked once per step about (block, ground), in entity
// order, and the block rests; one that drops the pair lets the block fall through; with the
// block's mask leaving out the ground's layer the filter is never asked about the pair.
func TestContactFilterSeesDeformables(t *testing.T) {
	const steps = 60
	run := func(keep bool, mask uint32) (calls int, z float64) {
		app := newTestApp(t, 0.01, DefaultConfig())
		blockE, _ := spawnBlock(t, app.World, mgl64.Vec3{0, 0, blockHalf + 0.02}, 10)
		ground := spawnGroundEntity(t, app.World)
		block, _ := ecs.Get[ReducedDeformable](app.World, blockE) // spawning may move components
		block.Mask = mask
		if compareEntities(blockE, ground) >= 0 {
			t.Fatal("the block's entity does not come before the ground's: the order check is void")
		}
		sim, _ := SimulationOf(app.World)
		sim.SetContactFilter(func(a, b ecs.Entity) bool {
			calls++
			if a != blockE || b != ground {
				t.Errorf("filter asked about (%v, %v), want (block %v, ground %v)", a, b, blockE, ground)
			}
			return keep
		})
		stepFixed(t, app, steps)
		return calls, block.Position[2]
	}
	if calls, z := run(true, 0); calls != steps || math.Abs(z-blockHalf) > 0.01 {
		t.Errorf("keeping filter: %d calls, block at z = %.4f; want %d calls and the block resting at %.2f", calls, z, steps, blockHalf)
	}
	if calls, z := run(false, 0); calls != steps || !(z < blockHalf-1.5) {
		t.Errorf("dropping filter: %d calls, block at z = %.4f; want %d calls and the block fallen through", calls, z, steps)
	}
	if calls, z := run(true, 2); calls != 0 || !(z < blockHalf-1.5) {
		t.Errorf("layers that do not meet: %d calls, block at z = %.4f; want no call and the block fallen through", calls, z)
	}
}

// TestContactEventsOfALandingDeformable drops a deformable block 5 cm onto the ground: no event
// while it falls, exactly one ContactBegan when it lands, with an impulse, then ContactPersisted
// every step it rests (awake and asleep), pressing along the ground's normal from A to B with the
// block's weight per step, m |g| h, and one ContactEnded when the game lifts it 1 m. With the
// ground spawned first the ground is A and the normal +z; spawned after the block, the block is A
// and the normal −z.
func TestContactEventsOfALandingDeformable(t *testing.T) {
	for _, groundFirst := range []bool{true, false} {
		cfg := DefaultConfig()
		const h = 0.01
		app := newTestApp(t, h, cfg)
		var ground, blockE ecs.Entity
		if groundFirst {
			ground = spawnGroundEntity(t, app.World)
			blockE, _ = spawnBlock(t, app.World, mgl64.Vec3{0, 0, blockHalf + 0.05}, 10)
		} else {
			blockE, _ = spawnBlock(t, app.World, mgl64.Vec3{0, 0, blockHalf + 0.05}, 10)
			ground = spawnGroundEntity(t, app.World)
		}
		block, _ := ecs.Get[ReducedDeformable](app.World, blockE)
		wantA, wantB, wantN := ground, blockE, mgl64.Vec3{0, 0, 1}
		if !groundFirst {
			wantA, wantB, wantN = blockE, ground, mgl64.Vec3{0, 0, -1}
		}
		weight := block.Mass() * cfg.Gravity.Len() * h
		events, _ := ecs.GetResource[ecs.Events[ContactEvent]](app.World)
		var reader ecs.EventReader[ContactEvent]
		count := map[ContactPhase]int{}
		landed, slept := -1, false
		check := func(step int) {
			reader.Read(events, func(ev ContactEvent) {
				count[ev.Phase]++
				if ev.A != wantA || ev.B != wantB {
					t.Errorf("ground first %v, step %d: %v event between %v and %v, want %v then %v", groundFirst, step, ev.Phase, ev.A, ev.B, wantA, wantB)
				}
				switch ev.Phase {
				case ContactBegan:
					landed = step
					if !(ev.Impulse > 0) || ev.Normal.Sub(wantN).Len() > 1e-9 {
						t.Errorf("ground first %v, step %d: landing %+v, want an impulse along %v", groundFirst, step, ev, wantN)
					}
				case ContactPersisted:
					if ev.Points < 1 || ev.Normal.Sub(wantN).Len() > 1e-9 {
						t.Errorf("ground first %v, step %d: resting %+v, want points pressing along %v", groundFirst, step, ev, wantN)
					}
					if step > landed+10 && math.Abs(ev.Impulse-weight) > 0.01*weight {
						t.Errorf("ground first %v, step %d: resting impulse %.6f N·s, want the weight's %.6f", groundFirst, step, ev.Impulse, weight)
					}
				}
			})
		}
		const steps = 120
		for step := range steps {
			stepFixed(t, app, 1)
			check(step)
			slept = slept || block.Sleeping
		}
		if count[ContactBegan] != 1 || count[ContactEnded] != 0 || landed < 0 {
			t.Fatalf("ground first %v, after landing: %v", groundFirst, count)
		}
		if !slept {
			t.Errorf("ground first %v: the block never slept: the asleep case is not exercised", groundFirst)
		}
		if want := steps - 1 - landed; count[ContactPersisted] != want {
			t.Errorf("ground first %v: %d ContactPersisted events, want one per step since landing (%d)", groundFirst, count[ContactPersisted], want)
		}
		block.Position[2] += 1
		for step := steps; step < steps+5; step++ {
			stepFixed(t, app, 1)
			check(step)
		}
		if count[ContactEnded] != 1 || count[ContactBegan] != 1 {
			t.Errorf("ground first %v, after lifting: %v, want exactly one ContactEnded", groundFirst, count)
		}
	}
}

// TestContactEventsOfStackedDeformables: on the stack of two deformables, their pair gives one
// event per step from the step they first touch — never two, although each block's samples touch
// the other's faces — and the event sums the touching points of both directions, as
// Simulation.Contacts lists them (normal impulse or gap within RestingGap); its normal points
// from the bottom block (A, spawned first) up to the top one. Once settled it carries the top
// block's weight per step.
func TestContactEventsOfStackedDeformables(t *testing.T) {
	cfg := DefaultConfig()
	const h = 0.01
	app, ds := blockStack(t, cfg)
	sim, _ := SimulationOf(app.World)
	nr := len(sim.models)
	stepFixed(t, app, 1)
	bottom, top := sim.entities[nr], sim.entities[nr+1]
	if compareEntities(bottom, top) >= 0 {
		t.Fatal("the bottom block's entity does not come first")
	}
	events, _ := ecs.GetResource[ecs.Events[ContactEvent]](app.World)
	var reader ecs.EventReader[ContactEvent]
	began, both := -1, 0
	var last ContactEvent
	for step := 1; step < 120; step++ {
		stepFixed(t, app, 1)
		var pair []ContactEvent
		reader.Read(events, func(ev ContactEvent) {
			if ev.A == bottom && ev.B == top {
				pair = append(pair, ev)
			} else if ev.A == top && ev.B == bottom {
				t.Errorf("step %d: event with A %v after B %v", step, ev.A, ev.B)
			}
		})
		points, dirs, impulse := 0, [2]int{}, 0.0
		sim.Contacts(func(c ContactPoint) {
			if !(c.A == bottom && c.B == top || c.A == top && c.B == bottom) {
				return
			}
			if c.NormalImpulse > 0 || c.Gap <= cfg.RestingGap {
				points++
				impulse += c.NormalImpulse
				if c.B == top {
					dirs[0]++
				} else {
					dirs[1]++
				}
			}
		})
		if dirs[0] > 0 && dirs[1] > 0 {
			both++
		}
		if points == 0 {
			if began >= 0 || len(pair) != 0 {
				t.Fatalf("step %d: no touching point between the blocks, events %+v (began at %d)", step, pair, began)
			}
			continue
		}
		if len(pair) != 1 {
			t.Fatalf("step %d: %d events for the blocks' pair, want one: %+v", step, len(pair), pair)
		}
		ev := pair[0]
		if began < 0 {
			began = step
			if ev.Phase != ContactBegan {
				t.Fatalf("step %d: first event of the pair is %v, want began", step, ev.Phase)
			}
		} else if ev.Phase != ContactPersisted {
			t.Fatalf("step %d: event %v, want persisted", step, ev.Phase)
		}
		if ev.Points != points || math.Abs(ev.Impulse-impulse) > 1e-12*max(1, impulse) {
			t.Fatalf("step %d: event of %d points and impulse %v, want the %d touching points' %v", step, ev.Points, ev.Impulse, points, impulse)
		}
		if !(ev.Normal[2] > 0.99) {
			t.Fatalf("step %d: event normal %v, want about +z from the bottom block to the top one", step, ev.Normal)
		}
		last = ev
	}
	if began < 0 || both == 0 {
		t.Fatalf("the blocks began touching at step %d, in %d steps with points both ways: the scene does not exercise the pair", began, both)
	}
	weight := ds[1].Mass() * cfg.Gravity.Len() * h
	if math.Abs(last.Impulse-weight) > 0.01*weight {
		t.Errorf("settled pair impulse %.6f N·s, want the top block's weight %.6f", last.Impulse, weight)
	}
}

// deformableSensorFall drops a deformable block from z = 6 towards the ground, through a static
// sensor box (half extents 1, 1, 0.5 at z = 3) if withSensor, whose Mask is sensorMask, for 100
// steps (it reaches the ground after 105). It returns the block's frame and its lowest and highest
// surface height before every step, the sensor events with the step each came after, and the
// number of contact points and contact events involving the sensor.
func deformableSensorFall(t *testing.T, withSensor bool, sensorMask uint32) (frames []deformableFrame, low, high []float64, events []SensorEvent, at []int, sensorContacts int, block, sensor ecs.Entity) {
	t.Helper()
	app := newTestApp(t, 0.01, DefaultConfig())
	spawnGroundEntity(t, app.World)
	block, d := spawnBlock(t, app.World, mgl64.Vec3{0.1, -0.2, 6}, 10)
	d.Layer = 2
	if withSensor {
		box, err := collide.NewBox(mgl64.Vec3{1, 1, 0.5})
		if err != nil {
			t.Fatal(err)
		}
		sensor, err = Spawn(app.World, NewStatic(mgl64.Vec3{0, 0, 3}), Collider{Shape: box, Sensor: true, Mask: sensorMask})
		if err != nil {
			t.Fatal(err)
		}
		d, _ = ecs.Get[ReducedDeformable](app.World, block)
	}
	sensorEvents, _ := ecs.GetResource[ecs.Events[SensorEvent]](app.World)
	contactEvents, _ := ecs.GetResource[ecs.Events[ContactEvent]](app.World)
	var sr ecs.EventReader[SensorEvent]
	var cr ecs.EventReader[ContactEvent]
	sim, _ := SimulationOf(app.World)
	var buf []mgl64.Vec3
	for step := range 100 {
		frames = append(frames, d.frame())
		buf = d.SurfaceVertices(buf)
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, p := range buf {
			lo, hi = min(lo, p[2]), max(hi, p[2])
		}
		low, high = append(low, lo), append(high, hi)
		stepFixed(t, app, 1)
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
	return frames, low, high, events, at, sensorContacts, block, sensor
}

// TestSensorSeesDeformable drops a deformable block through a static sensor box. The sensor sends
// SensorBegan after the first step whose start has a surface vertex at or below the box's top
// (z ≤ 3.5; the block stays within the box's x and y) and SensorEnded after the first whose start
// has every vertex below its bottom (z < 2.5), nothing else, and no contact of any kind; the
// block's frame is bit-identical, step by step, to a fall without the sensor. A sensor whose mask
// leaves out the block's layer sends nothing.
func TestSensorSeesDeformable(t *testing.T) {
	ref, _, _, refEvents, _, _, _, _ := deformableSensorFall(t, false, 0)
	frames, low, high, events, at, contacts, block, sensor := deformableSensorFall(t, true, 0)
	if len(refEvents) != 0 {
		t.Fatalf("sensor events without a sensor: %v", refEvents)
	}
	for i := range frames {
		if frames[i] != ref[i] {
			t.Fatalf("step %d: the block's frame %+v differs from the fall without the sensor %+v", i, frames[i], ref[i])
		}
	}
	if contacts != 0 {
		t.Errorf("%d contact points or contact events involve the sensor, want none", contacts)
	}
	began, ended := -1, -1
	for i := range low {
		if began < 0 && low[i] <= 3.5 {
			began = i
		}
		if began >= 0 && ended < 0 && high[i] < 2.5 {
			ended = i
		}
	}
	if began < 0 || ended < 0 {
		t.Fatalf("the block never crossed the sensor (began %d, ended %d)", began, ended)
	}
	want := []SensorEvent{{SensorBegan, sensor, block}, {SensorEnded, sensor, block}}
	if len(events) != 2 || events[0] != want[0] || events[1] != want[1] || at[0] != began || at[1] != ended {
		t.Fatalf("sensor events %v after steps %v, want %v after steps [%d %d]", events, at, want, began, ended)
	}
	if _, _, _, masked, _, _, _, _ := deformableSensorFall(t, true, DefaultLayer); len(masked) != 0 {
		t.Errorf("a sensor whose mask leaves out the block's layer sent %v", masked)
	}
}

// TestDeformableEventsWarmDoNotAllocate: on the stack of two deformables, with a contact filter
// and a sensor around the stack, a warm step and its contact and sensor events allocate nothing,
// and the events are there to send.
func TestDeformableEventsWarmDoNotAllocate(t *testing.T) {
	cfg := DefaultConfig()
	cfg.SleepTime = 0
	app, _ := blockStack(t, cfg)
	box, err := collide.NewBox(mgl64.Vec3{1, 1, 1})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Spawn(app.World, NewStatic(mgl64.Vec3{0, 0, 0.5}), Collider{Shape: box, Sensor: true}); err != nil {
		t.Fatal(err)
	}
	sim, _ := SimulationOf(app.World)
	sim.SetContactFilter(func(a, b ecs.Entity) bool { return true })
	var contacts ecs.Events[ContactEvent]
	var sensors ecs.Events[SensorEvent]
	tick := uint64(0)
	step := func() {
		tick++
		if err := sim.Step(0.01, tick); err != nil {
			t.Fatal(err)
		}
		contacts.Update()
		sensors.Update()
		sim.events.emit(sim, &contacts)
		sim.sensors.emit(sim, &sensors)
	}
	for range 100 {
		step()
	}
	if a := testing.AllocsPerRun(20, step); a != 0 {
		t.Errorf("a warm step with its events allocates %v times", a)
	}
	// Touching: the ground with the bottom block and the blocks' pair. Both blocks overlap the
	// sensor.
	if n := len(sim.events.prev); n != 2 {
		t.Errorf("%d touching pairs, want 2: %+v", n, sim.events.prev)
	}
	if n := len(sim.sensors.prev); n != 2 {
		t.Errorf("%d sensor overlaps, want the 2 blocks: %+v", n, sim.sensors.prev)
	}
}
