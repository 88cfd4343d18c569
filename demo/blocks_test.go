package main

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/stagger-physics/stagger/collide"
	"github.com/stagger-physics/stagger/deform"
	"github.com/stagger-physics/stagger/ecs"
	"github.com/stagger-physics/stagger/physics"
)

// TestBlockOff checks the definition of a block off its pedestal on a box 0.7 m square and 0.6 m
// tall: centres above the top face are on it, to its very edge; a centre beside the box (on the
// ground or raised on a fallen block) or below its top is off.
func TestBlockOff(t *testing.T) {
	top := collide.AABB{Min: mgl64.Vec3{-0.35, -0.35, 0}, Max: mgl64.Vec3{0.35, 0.35, 0.6}}
	for _, tc := range []struct {
		centre mgl64.Vec3
		off    bool
	}{
		{mgl64.Vec3{0, 0, 0.8}, false},
		{mgl64.Vec3{0.35, -0.35, 0.8}, false},
		{mgl64.Vec3{0, 0, 0.6}, false},
		{mgl64.Vec3{0.36, 0, 0.8}, true},
		{mgl64.Vec3{0, -0.4, 0.8}, true},
		{mgl64.Vec3{0, 0, 0.59}, true},
		{mgl64.Vec3{1, 0, 0.2}, true},
		{mgl64.Vec3{-0.8, 0.1, 0.7}, true},
	} {
		if got := blockOff(tc.centre, top); got != tc.off {
			t.Errorf("centre %v over %v: off %v, want %v", tc.centre, top, got, tc.off)
		}
	}
}

// jellyWorld returns a world with the physics plugin and one 0.4 m jelly block, unturned, its
// centre at at, over a static box of half-extents half centred at box, and the block's entity.
func jellyWorld(t *testing.T, at, box, half mgl64.Vec3) (*ecs.World, ecs.Entity) {
	t.Helper()
	app, err := ecs.NewApp(0.01, 1)
	if err != nil {
		t.Fatal(err)
	}
	if err := app.AddPlugin(physics.NewPlugin(physics.DefaultConfig())); err != nil {
		t.Fatal(err)
	}
	shape, err := collide.NewBox(half)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := physics.Spawn(app.World, physics.NewStatic(box), physics.Collider{Shape: shape}); err != nil {
		t.Fatal(err)
	}
	d, err := physics.NewDeformableBox(mgl64.Vec3{0.2, 0.2, 0.2}, 2, deform.Material{Young: 1e5, Poisson: 0.3, Density: 500}, 6)
	if err != nil {
		t.Fatal(err)
	}
	d.Position = at
	e, err := physics.SpawnDeformable(app.World, d)
	if err != nil {
		t.Fatal(err)
	}
	return app.World, e
}

// TestFindBlocks: a block over a box has that box as its pedestal, and is on it until moved
// beside it; a block over nothing but the ground is an error. In the jelly level, the block on
// the left stands on a static pedestal and the one on the right on a dynamic box (the jelly
// scene's alternation), each below its block and under its centre.
func TestFindBlocks(t *testing.T) {
	w, e := jellyWorld(t, mgl64.Vec3{0.1, 0, 1}, mgl64.Vec3{0, 0, 0.3}, mgl64.Vec3{0.35, 0.35, 0.3})
	blocks, err := findBlocks(w)
	if err != nil {
		t.Fatal(err)
	}
	if len(blocks) != 1 || blocks[0].entity != e {
		t.Fatalf("blocks %+v, want the one block", blocks)
	}
	if pb, ok := ecs.Get[physics.RigidBody](w, blocks[0].pedestal); !ok || pb.Kind != physics.Static || blockIsOff(w, blocks[0]) {
		t.Errorf("the block's pedestal %+v: want the static box, the block on it", pb)
	}
	d, _ := ecs.Get[physics.ReducedDeformable](w, e)
	d.Position = mgl64.Vec3{0.7, 0, 0.2}
	if !blockIsOff(w, blocks[0]) {
		t.Error("a block on the ground beside its box is not off")
	}
	bare, _ := jellyWorld(t, mgl64.Vec3{2, 0, 1}, mgl64.Vec3{0, 0, 0.3}, mgl64.Vec3{0.35, 0.35, 0.3})
	if _, err := findBlocks(bare); err == nil {
		t.Error("a block over the bare ground: no error")
	}

	r := startLevel(t, levels[levelIndex(t, "Jelly")])
	// The jelly scene at n = 2: a block stacked on a block on the static box, one on the loose box.
	if len(r.prog.blocks) != 3 {
		t.Fatalf("%d blocks in the jelly level, want 3", len(r.prog.blocks))
	}
	for _, b := range r.prog.blocks {
		pb, _ := ecs.Get[physics.RigidBody](r.app.World, b.pedestal)
		bb := b.shape.Bounds(collide.Pose{Position: pb.Position, Rotation: pb.Orientation})
		want := physics.Static
		if b.start[0] > 0 {
			want = physics.Dynamic
		}
		if pb.Kind != want || bb.Max[2] > b.start[2] || math.Abs(pb.Position[0]-b.start[0]) > 0.1 || math.Abs(pb.Position[1]-b.start[1]) > 0.1 {
			t.Errorf("block at %v: pedestal %v at %v, top %.2f m; want a %v box under it", b.start, pb.Kind, pb.Position, bb.Max[2], want)
		}
	}
}

// TestAimSeesDeformables: a throw aimed straight down onto an unturned block at rest aims at its
// top face, half its side above its centre; one beside it aims at the box under it; one aimed
// sideways through the block's middle aims at its face at x = −0.2.
func TestAimSeesDeformables(t *testing.T) {
	w, _ := jellyWorld(t, mgl64.Vec3{0, 0, 1}, mgl64.Vec3{0, 0, 0.3}, mgl64.Vec3{0.35, 0.35, 0.3})
	sim, ok := physics.SimulationOf(w)
	if !ok {
		t.Fatal("no simulation")
	}
	down := mgl64.Vec3{0, 0, -1}
	for _, c := range []struct {
		origin, dir, want mgl64.Vec3
	}{
		{mgl64.Vec3{0.05, -0.13, 5}, down, mgl64.Vec3{0.05, -0.13, 1.2}}, // the block's top face
		{mgl64.Vec3{0.3, 0, 5}, down, mgl64.Vec3{0.3, 0, 0.6}},           // beside it: the box's top
		{mgl64.Vec3{-3, 0.01, 1.02}, mgl64.Vec3{1, 0, 0}, mgl64.Vec3{-0.2, 0.01, 1.02}},
	} {
		got, err := aimPoint(sim, c.origin, c.dir)
		if err != nil {
			t.Fatal(err)
		}
		if got.Sub(c.want).Len() > 1e-9 {
			t.Errorf("aimed from %v along %v: %v, want %v", c.origin, c.dir, got, c.want)
		}
	}
}
