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
		blockE, block := spawnBlock(t, app.World, mgl64.Vec3{0, 0, blockHalf + 0.02}, 10)
		ground := spawnGroundEntity(t, app.World)
		block, _ = ecs.Get[ReducedDeformable](app.World, blockE) // spawning may move components
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
