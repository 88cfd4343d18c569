package physics

import (
	"crypto/sha256"
	"encoding/binary"
	"math"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/stagger-physics/stagger/collide"
	"github.com/stagger-physics/stagger/ecs"
)

// tumblingWorld spawns a scene with motion, friction, rolling and sleeping: a ground, twelve cubes
// dropped turned onto each other, a ball rolling into them and a sensor in its way.
func tumblingWorld(t *testing.T, workers int) (*ecs.App, *Simulation) {
	t.Helper()
	cfg := DefaultConfig()
	cfg.Workers = workers
	app := newTestApp(t, 0.01, cfg)
	spawnGround(t, app.World, mgl64.Vec3{0, 0, 1}, 0.6)
	for i := 0; i < 12; i++ {
		q := mgl64.QuatRotate(0.3*float64(i), mgl64.Vec3{1, 0.5, 0.2}.Normalize())
		spawnCube(t, app.World, mgl64.Vec3{0.3 * float64(i%3), 0.2 * float64(i%2), 0.6 + 1.1*float64(i)}, q, 0.6)
	}
	ball, err := collide.NewSphere(0.3)
	if err != nil {
		t.Fatal(err)
	}
	b := NewDynamic(mgl64.Vec3{-4, 0, 0.3}, 500)
	b.LinearVelocity = mgl64.Vec3{3, 0, 0}
	if _, err := Spawn(app.World, b, Collider{Shape: ball}); err != nil {
		t.Fatal(err)
	}
	zone, _ := collide.NewBox(mgl64.Vec3{0.3, 1, 0.5})
	if _, err := Spawn(app.World, NewStatic(mgl64.Vec3{-2, 0, 0.5}), Collider{Shape: zone, Sensor: true}); err != nil {
		t.Fatal(err)
	}
	sim, _ := SimulationOf(app.World)
	return app, sim
}

// worldHash hashes every body's pose, velocities and sleep flag, bit for bit.
func worldHash(t *testing.T, w *ecs.World) [32]byte {
	t.Helper()
	q, err := ecs.NewQuery1[RigidBody](w)
	if err != nil {
		t.Fatal(err)
	}
	h := sha256.New()
	var buf [8]byte
	put := func(x float64) {
		binary.LittleEndian.PutUint64(buf[:], math.Float64bits(x))
		h.Write(buf[:])
	}
	_ = q.Each(func(_ ecs.Entity, b *RigidBody) {
		for _, v := range []mgl64.Vec3{b.Position, b.LinearVelocity, b.AngularVelocity, b.Orientation.V} {
			put(v[0])
			put(v[1])
			put(v[2])
		}
		put(b.Orientation.W)
		if b.Sleeping {
			put(1)
		}
	})
	var out [32]byte
	copy(out[:], h.Sum(nil))
	return out
}

// The test: 200 steps, snapshot, 300 more (hash), restore, 300 more: the same hash, with
// 1 and 4 workers, and the same contact and sensor events after the restore as after the
// snapshot. The scene keeps moving through all of it (the hash after the snapshot differs from
// the one at it), and sleeps in part by the end.
func TestSnapshotRestoreIsBitExact(t *testing.T) {
	for _, workers := range []int{1, 4} {
		app, sim := tumblingWorld(t, workers)
		stepN(t, app, 200)
		var snap Snapshot
		if err := sim.Snapshot(&snap); err != nil {
			t.Fatal(err)
		}
		at := worldHash(t, app.World)
		ev, _ := ecs.GetResource[ecs.Events[ContactEvent]](app.World)
		var r ecs.EventReader[ContactEvent]
		// events steps once and sums the contact events of that step alone.
		events := func() (n int, impulse float64) {
			r.Read(ev, func(ContactEvent) {})
			stepN(t, app, 1)
			r.Read(ev, func(e ContactEvent) { n++; impulse += e.Impulse })
			return n, impulse
		}
		n1, i1 := events()
		stepN(t, app, 299)
		want := worldHash(t, app.World)
		if want == at {
			t.Fatalf("workers %d: nothing moved after the snapshot; the test would prove nothing", workers)
		}
		if err := sim.Restore(&snap); err != nil {
			t.Fatal(err)
		}
		if got := worldHash(t, app.World); got != at {
			t.Fatalf("workers %d: the restored world differs from the snapshot's", workers)
		}
		if n2, i2 := events(); n2 != n1 || i2 != i1 {
			t.Errorf("workers %d: first step after the restore sent %d contact events (impulse %v), after the snapshot %d (%v)", workers, n2, i2, n1, i1)
		}
		stepN(t, app, 299)
		if got := worldHash(t, app.World); got != want {
			t.Errorf("workers %d: 300 steps after the restore differ from the 300 after the snapshot", workers)
		}
	}
}

// The snapshot must carry the warm starts: restoring it with the pairs' impulses cleared gives a
// different trajectory (so TestSnapshotRestoreIsBitExact would see a snapshot that dropped them).
func TestSnapshotCarriesWarmStarts(t *testing.T) {
	app, sim := tumblingWorld(t, 1)
	stepN(t, app, 200)
	var snap Snapshot
	if err := sim.Snapshot(&snap); err != nil {
		t.Fatal(err)
	}
	stepN(t, app, 100)
	want := worldHash(t, app.World)
	for i := range snap.pairs {
		snap.pairs[i].alpha = [collide.MaxManifoldPoints]float64{}
		snap.pairs[i].friction = [collide.MaxManifoldPoints]mgl64.Vec3{}
	}
	if err := sim.Restore(&snap); err != nil {
		t.Fatal(err)
	}
	stepN(t, app, 100)
	if worldHash(t, app.World) == want {
		t.Error("dropping the warm starts changed nothing: the test cannot see them")
	}
}

// Restore refuses a world whose bodies changed since the snapshot, naming the entity, and changes
// nothing; it refuses nil and empty snapshots.
func TestRestoreRefusesAnotherWorld(t *testing.T) {
	app, sim := tumblingWorld(t, 1)
	stepN(t, app, 10)
	var snap Snapshot
	if err := sim.Restore(&snap); err == nil || !strings.Contains(err.Error(), "no snapshot") {
		t.Errorf("empty snapshot: %v", err)
	}
	if err := sim.Restore(nil); err == nil {
		t.Error("nil snapshot accepted")
	}
	if err := sim.Snapshot(&snap); err != nil {
		t.Fatal(err)
	}
	stepN(t, app, 10)
	extra := spawnCube(t, app.World, mgl64.Vec3{10, 0, 0.5}, mgl64.QuatIdent(), 0.5)
	before := worldHash(t, app.World)
	if err := sim.Restore(&snap); err == nil || !strings.Contains(err.Error(), extra.String()) {
		t.Errorf("after a spawn: %v; want an error naming %v", err, extra)
	}
	if worldHash(t, app.World) != before {
		t.Error("a refused restore changed the world")
	}
	if err := app.World.Despawn(extra); err != nil {
		t.Fatal(err)
	}
	stepN(t, app, 1)
	if err := sim.Restore(&snap); err != nil {
		t.Errorf("with the extra cube gone again: %v", err)
	}
}

// deformHash hashes the world's rigid bodies (worldHash) and the deformable's frame, sleep flag and
// modal state, bit for bit.
func deformHash(t *testing.T, w *ecs.World, d *ReducedDeformable) [32]byte {
	t.Helper()
	rigid := worldHash(t, w)
	h := sha256.New()
	h.Write(rigid[:])
	var buf [8]byte
	put := func(xs ...float64) {
		for _, x := range xs {
			binary.LittleEndian.PutUint64(buf[:], math.Float64bits(x))
			h.Write(buf[:])
		}
	}
	putDeformable(put, d)
	if d.Sleeping {
		put(1)
	}
	var out [32]byte
	copy(out[:], h.Sum(nil))
	return out
}

// TestSnapshotRestoresDeformablesBitExact: the soft stack (a rigid box dropped onto a deformable
// block) is snapshot 20 steps in, while the box squashes the block, and stepped 100 more; after
// the restore the same 100 steps give the same state, bit for bit, at every step, with 1 and 2
// workers — contacts, warm starts and the block's falling asleep included. The stack keeps moving
// after the snapshot, and losing the deformable's warm starts (dropping its contacts from the
// restored state) changes the steps, so the test sees them.
func TestSnapshotRestoresDeformablesBitExact(t *testing.T) {
	for _, workers := range []int{1, 2} {
		cfg := DefaultConfig()
		cfg.Workers = workers
		app, d, _ := softStack(t, cfg)
		sim, _ := SimulationOf(app.World)
		stepN(t, app, 20)
		var snap Snapshot
		if err := sim.Snapshot(&snap); err != nil {
			t.Fatal(err)
		}
		at := deformHash(t, app.World, d)
		var want [60][32]byte
		for i := range want {
			stepN(t, app, 1)
			want[i] = deformHash(t, app.World, d)
		}
		if want[0] == at {
			t.Fatal("the stack does not move after the snapshot")
		}
		if err := sim.Restore(&snap); err != nil {
			t.Fatal(err)
		}
		if got := deformHash(t, app.World, d); got != at {
			t.Fatalf("%d workers: the restored state differs from the snapshot's", workers)
		}
		for i := range want {
			stepN(t, app, 1)
			if got := deformHash(t, app.World, d); got != want[i] {
				t.Fatalf("%d workers: step %d after the restore differs from the original", workers, i+1)
			}
		}
		// Without the warm starts the steps differ: the test would see them lost.
		if err := sim.Restore(&snap); err != nil {
			t.Fatal(err)
		}
		d.model.contacts, d.model.peers = d.model.contacts[:0], 0
		stepN(t, app, 1)
		if deformHash(t, app.World, d) == want[0] {
			t.Fatalf("%d workers: the deformable's warm starts make no difference", workers)
		}
	}
}

// TestRestoreRefusesOtherDeformables: a snapshot is refused, naming the entity and changing
// nothing, in a world where a deformable was spawned or despawned since, or its ReducedDeformable
// replaced; once the world is as it was, the restore is accepted.
func TestRestoreRefusesOtherDeformables(t *testing.T) {
	app := newTestApp(t, 0.01, DefaultConfig())
	sim, _ := SimulationOf(app.World)
	spawnGround(t, app.World, mgl64.Vec3{0, 0, 1}, 0.6)
	var empty Snapshot
	if err := sim.Snapshot(&empty); err != nil {
		t.Fatal(err)
	}
	e, d := spawnBlock(t, app.World, mgl64.Vec3{0, 0, 1}, 4)
	stepN(t, app, 5)
	var snap Snapshot
	if err := sim.Snapshot(&snap); err != nil {
		t.Fatal(err)
	}
	before := deformHash(t, app.World, d)
	if err := sim.Restore(&empty); err == nil || !strings.Contains(err.Error(), e.String()) {
		t.Errorf("restoring the world before the block: %v; want an error naming %v", err, e)
	}
	if deformHash(t, app.World, d) != before {
		t.Error("a refused restore changed the block")
	}
	other, _ := spawnBlock(t, app.World, mgl64.Vec3{2, 0, 1}, 4)
	if err := sim.Restore(&snap); err == nil || !strings.Contains(err.Error(), other.String()) {
		t.Errorf("after a spawn: %v; want an error naming %v", err, other)
	}
	if err := app.World.Despawn(other); err != nil {
		t.Fatal(err)
	}
	fresh, err := NewDeformableBox(mgl64.Vec3{blockHalf, blockHalf, blockHalf}, 3, rubber, 4)
	if err != nil {
		t.Fatal(err)
	}
	if err := AddDeformable(app.World, e, fresh); err != nil {
		t.Fatal(err)
	}
	if err := sim.Restore(&snap); err == nil || !strings.Contains(err.Error(), e.String()) || !strings.Contains(err.Error(), "replaced") {
		t.Errorf("after the component was replaced: %v; want an error naming %v", err, e)
	}
	if err := app.World.Despawn(e); err != nil {
		t.Fatal(err)
	}
	if err := sim.Restore(&snap); err == nil || !strings.Contains(err.Error(), e.String()) {
		t.Errorf("after a despawn: %v; want an error naming %v", err, e)
	}
	if err := sim.Restore(&empty); err != nil {
		t.Errorf("the world without the block again: %v", err)
	}
}
