package physics

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/stagger-physics/stagger/collide"
	"github.com/stagger-physics/stagger/ecs"
)

// slabShape is the static box a block rests on in these tests: its top face at z = 0.
var slabShape = func() *collide.Box {
	b, err := collide.NewBox(mgl64.Vec3{1, 1, 0.25})
	if err != nil {
		panic(err)
	}
	return b
}()

// slabPose is slabShape's pose.
var slabPose = collide.Pose{Position: mgl64.Vec3{0, 0, -0.25}, Rotation: mgl64.QuatIdent()}

// blockOnSlab is a jelly block dropped 2 cm onto a static slab (and nothing else), stepped until
// it sleeps and one step more: the step it fell asleep in found its contacts with the velocity it
// had, the first step asleep with none, so that step's look-ahead differs and its contacts are
// computed again. It returns the app, the block, and the largest StepStats.SampleTests of the steps
// before it slept.
func blockOnSlab(t *testing.T) (*ecs.App, *ReducedDeformable, int) {
	t.Helper()
	app := newTestApp(t, 0.01, DefaultConfig())
	if _, err := Spawn(app.World, NewStatic(slabPose.Position), Collider{Shape: slabShape}); err != nil {
		t.Fatal(err)
	}
	_, d := spawnBlock(t, app.World, mgl64.Vec3{0.05, -0.1, blockHalf + 0.02}, 10)
	sim, _ := SimulationOf(app.World)
	most := 0
	for i := 0; i < 500; i++ {
		if err := app.StepFixed(); err != nil {
			t.Fatal(err)
		}
		if sim.Stats().Sleeping == 1 {
			stepFor(t, app, 1)
			return app, d, most
		}
		most = max(most, sim.Stats().SampleTests)
	}
	t.Fatal("the block is not asleep after 5 s")
	return nil, nil, 0
}

// stepContacts returns the last step's contacts.
func stepContacts(sim *Simulation) []ContactPoint {
	var cs []ContactPoint
	sim.Contacts(func(c ContactPoint) { cs = append(cs, c) })
	return cs
}

// TestSleepingDeformableOnSlabIsNotTested: awake on a static slab, a block's samples are each
// tested once a step against the slab (SampleTests = its surface vertices); asleep, none is tested
// for 50 steps (SampleTests 0, the slab pair kept), and its contacts stay exactly as they were.
// They are checked against the slab's own signed distance at the block's surface vertices: every
// contact is a vertex at the contact's gap from the slab (to 1e-12 m), and every vertex within the
// contact margin of the slab has one.
func TestSleepingDeformableOnSlabIsNotTested(t *testing.T) {
	app, d, awakeTests := blockOnSlab(t)
	sim, _ := SimulationOf(app.World)
	verts := d.SurfaceVertices(nil)
	if awakeTests != len(verts) {
		t.Fatalf("awake on the slab: %d sample tests in a step, want one per surface vertex (%d)", awakeTests, len(verts))
	}
	want := stepContacts(sim)
	if len(want) == 0 {
		t.Fatal("asleep with no contact")
	}
	for i := 0; i < 50; i++ {
		stepFor(t, app, 1)
		st := sim.Stats()
		if st.SampleTests != 0 || st.KeptDeformable != 1 || st.Sleeping != 1 {
			t.Fatalf("asleep step %d: %d sample tests, %d kept pairs, %d asleep; want 0, 1, 1", i, st.SampleTests, st.KeptDeformable, st.Sleeping)
		}
		got := stepContacts(sim)
		if len(got) != len(want) {
			t.Fatalf("asleep step %d: %d contacts, was %d", i, len(got), len(want))
		}
		for k := range got {
			if got[k] != want[k] {
				t.Fatalf("asleep step %d: contact %d changed: %+v → %+v", i, k, want[k], got[k])
			}
		}
	}
	verts = d.SurfaceVertices(verts)
	margin := DefaultConfig().ContactMargin
	near := 0
	for _, v := range verts {
		if dist, _ := slabShape.SignedDistance(slabPose.ApplyInverse(v)); dist <= margin {
			near++
		}
	}
	for k, c := range want {
		sample := c.Point.Add(c.Normal.Mul(0.5 * c.Gap))
		found := false
		for _, v := range verts {
			if v.Sub(sample).Len() < 1e-12 {
				dist, _ := slabShape.SignedDistance(slabPose.ApplyInverse(v))
				if math.Abs(dist-c.Gap) > 1e-12 {
					t.Fatalf("contact %d: gap %.15g, the slab's distance at its vertex %.15g", k, c.Gap, dist)
				}
				found = true
			}
		}
		if !found {
			t.Fatalf("contact %d at %v is no surface vertex of the block", k, sample)
		}
	}
	if len(want) < near {
		t.Fatalf("%d contacts, but %d vertices are within the margin of the slab", len(want), near)
	}
}

// TestStruckSleepingDeformableWakes drops a rigid box onto a block asleep on a slab. While the box
// falls within reach of the sleeping block, the block's samples are tested against the box only
// (SampleTests = its surface vertices, the slab pair kept); the block wakes before the box is 5 mm
// into it, is then tested against both every step, no vertex of it gets 5 mm into the box, and
// once both sleep no sample is tested and both pairs are kept.
func TestStruckSleepingDeformableWakes(t *testing.T) {
	app, d, _ := blockOnSlab(t)
	sim, _ := SimulationOf(app.World)
	verts := d.SurfaceVertices(nil)
	n := len(verts)
	top := math.Inf(-1)
	for _, p := range verts {
		top = max(top, p[2])
	}
	shape, err := collide.NewBox(mgl64.Vec3{0.1, 0.1, 0.1})
	if err != nil {
		t.Fatal(err)
	}
	box, err := Spawn(app.World, NewDynamic(mgl64.Vec3{d.Position[0], d.Position[1], top + 0.1 + 0.05}, 500), Collider{Shape: shape})
	if err != nil {
		t.Fatal(err)
	}
	testedAsleep, woke := false, false
	for i := 0; i < 600; i++ {
		// The narrow phase sees the block as it was at the start of the step.
		asleep := d.Sleeping
		stepFor(t, app, 1)
		st := sim.Stats()
		if st.Sleeping == 2 {
			break
		}
		b := bodyOf(t, app.World, box)
		if d.Sleeping && !woke && b.Position[2]-0.1 < top-0.005 {
			t.Fatalf("step %d: the box is %.3g m into the block and the block still sleeps", i, top-(b.Position[2]-0.1))
		}
		switch {
		case asleep && !woke:
			if st.SampleTests != 0 {
				if st.SampleTests != n || st.KeptDeformable != 1 {
					t.Fatalf("step %d, asleep: %d sample tests, %d kept pairs; want %d (the box's) and 1 (the slab's)", i, st.SampleTests, st.KeptDeformable, n)
				}
				testedAsleep = true
			}
		case !asleep:
			woke = true
			if st.SampleTests != 2*n || st.KeptDeformable != 0 {
				t.Fatalf("step %d, awake: %d sample tests, %d kept pairs; want %d and 0", i, st.SampleTests, st.KeptDeformable, 2*n)
			}
		}
		var depth float64
		if depth, verts = deepestVertexIn(d, shape, &b, verts); depth > 0.005 {
			t.Fatalf("step %d: a vertex of the block is %.3g m inside the box", i, depth)
		}
	}
	if !testedAsleep || !woke {
		t.Fatalf("tested against the box while asleep %v, woke %v; want both", testedAsleep, woke)
	}
	if sim.Stats().Sleeping != 2 {
		t.Fatalf("the block and the box did not fall asleep within 6 s: %d asleep", sim.Stats().Sleeping)
	}
	stepFor(t, app, 2) // the first step asleep computes the contacts again (blockOnSlab)
	if st := sim.Stats(); st.SampleTests != 0 || st.KeptDeformable != 2 {
		t.Fatalf("asleep under the box: %d sample tests, %d kept pairs; want 0 and 2", st.SampleTests, st.KeptDeformable)
	}
}

// TestSleepingDeformablePairIsKept: two stacked blocks asleep keep their pair's contacts without a
// test, unchanged, and a step allocates nothing; when the game pushes the top one, the pair's samples are tested again in the
// next step.
func TestSleepingDeformablePairIsKept(t *testing.T) {
	app, ds := blockStack(t, DefaultConfig())
	sim, _ := SimulationOf(app.World)
	stepUntilAsleep(t, app, 2, 600)
	stepFor(t, app, 1) // as in blockOnSlab
	want := stepContacts(sim)
	if pairContacts(sim, app.World) == 0 {
		t.Fatal("asleep with no contact between the blocks")
	}
	for i := 0; i < 20; i++ {
		stepFor(t, app, 1)
		st := sim.Stats()
		if st.SampleTests != 0 || st.KeptDeformable < 2 {
			t.Fatalf("asleep step %d: %d sample tests, %d kept pairs; want 0 and the ground's and the blocks' pairs", i, st.SampleTests, st.KeptDeformable)
		}
		got := stepContacts(sim)
		if len(got) != len(want) {
			t.Fatalf("asleep step %d: %d contacts, was %d", i, len(got), len(want))
		}
		for k := range got {
			if got[k] != want[k] {
				t.Fatalf("asleep step %d: contact %d changed", i, k)
			}
		}
	}
	tick := uint64(1 << 20)
	if allocs := testing.AllocsPerRun(20, func() {
		tick++
		if err := sim.Step(0.01, tick); err != nil {
			t.Fatal(err)
		}
	}); allocs != 0 || sim.Stats().KeptDeformable < 2 {
		t.Fatalf("asleep: %v allocations a step, %d kept pairs", allocs, sim.Stats().KeptDeformable)
	}
	ds[1].LinearVelocity = mgl64.Vec3{0.05, 0, 0}
	stepFor(t, app, 1)
	// The top block's samples against the bottom's triangles and the bottom's against the top's:
	// more tests than the two surfaces have vertices.
	if st := sim.Stats(); ds[1].Sleeping || st.SampleTests <= 2*len(ds[0].SurfaceVertices(nil)) {
		t.Fatalf("pushed: top asleep %v, %d sample tests; want awake and the pair tested", ds[1].Sleeping, st.SampleTests)
	}
}

// TestDeformableReuseMatchesRecomputation steps a stack of two blocks, asleep from 1.5 s, onto which
// a third block, turned, is dropped at 1.6 s and a rigid box at 3 s, twice: once as is, once making every deformable forget
// what its samples and contacts were computed from before each step, so that everything is
// computed again. Every step of 5 s — falling, resting, asleep, struck and asleep again — gives
// bit-identical states and contacts.
func TestDeformableReuseMatchesRecomputation(t *testing.T) {
	type run struct {
		app *ecs.App
		sim *Simulation
		ds  [2]*ReducedDeformable
	}
	shape, err := collide.NewBox(mgl64.Vec3{0.1, 0.1, 0.1})
	if err != nil {
		t.Fatal(err)
	}
	var runs [2]run
	for i := range runs {
		app, ds := blockStack(t, DefaultConfig())
		sim, _ := SimulationOf(app.World)
		runs[i] = run{app: app, sim: sim, ds: ds}
	}
	kept := 0
	for step := 0; step < 500; step++ {
		for i := range runs {
			w := runs[i].app.World
			switch step {
			case 300:
				if _, err := Spawn(w, NewDynamic(mgl64.Vec3{0.05, 0, 1.8}, 500), Collider{Shape: shape}); err != nil {
					t.Fatal(err)
				}
			case 160:
				// Turned, so that its box meets the top block's some steps before its surface
				// comes within reach: a pair tested without contact while one side sleeps.
				_, d := spawnBlock(t, w, mgl64.Vec3{-0.05, 0.05, 1.6}, 10)
				d.Orientation = mgl64.QuatRotate(0.7, mgl64.Vec3{1, 1, 0}.Normalize())
			}
			// Spawning moves the components: the first two blocks are looked up again.
			j := 0
			q, _ := ecs.NewQuery1[ReducedDeformable](w)
			_ = q.Each(func(_ ecs.Entity, d *ReducedDeformable) {
				if j < len(runs[i].ds) {
					runs[i].ds[j] = d
				}
				if i == 1 {
					d.model.forget()
				}
				j++
			})
		}
		for i := range runs {
			stepFor(t, runs[i].app, 1)
		}
		if step > 160 && step < 300 {
			// While the third block falls onto the sleeping stack.
			kept += runs[0].sim.Stats().KeptDeformable
		}
		if runs[1].sim.Stats().KeptDeformable != 0 {
			t.Fatalf("step %d: the run that forgets kept %d pairs", step, runs[1].sim.Stats().KeptDeformable)
		}
		a, b := stepContacts(runs[0].sim), stepContacts(runs[1].sim)
		if len(a) != len(b) {
			t.Fatalf("step %d: %d contacts kept, %d computed", step, len(a), len(b))
		}
		for k := range a {
			if a[k] != b[k] {
				t.Fatalf("step %d: contact %d differs: %+v, computed %+v", step, k, a[k], b[k])
			}
		}
		if deformablesHash(runs[0].ds) != deformablesHash(runs[1].ds) {
			t.Fatalf("step %d: the blocks' states differ", step)
		}
	}
	if kept == 0 {
		t.Fatal("no pair kept while the third block fell: the test compared no kept contact")
	}
}
