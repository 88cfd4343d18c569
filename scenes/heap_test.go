package scenes

import (
	"math"
	"testing"

	"github.com/stagger-physics/stagger/ecs"
	"github.com/stagger-physics/stagger/physics"
)

// The heap scene builds 30 crates of 0.4 m in two layers and six soft blocks released at heights
// spread evenly from 1.6 to 3.6 m; in the first 0.6 s the blocks fall and the first lands on the
// heap, nothing non-finite and nothing penetrating deeper than 5 mm (sceneRun.step).
func TestHeapDropsSoftBlocksOnCrates(t *testing.T) {
	r := startScene(t, "heap")
	crates := 0
	for e := range r.known {
		if b, half := r.body(e); b.Kind == physics.Dynamic {
			crates++
			if half[0] != heapCrateHalf || half[1] != heapCrateHalf || half[2] != heapCrateHalf {
				t.Errorf("crate with half extents %v, want %v", half, heapCrateHalf)
			}
		}
	}
	if crates != 30 {
		t.Errorf("%d crates, want 30", crates)
	}
	q, err := ecs.NewQuery1[physics.ReducedDeformable](r.app.World)
	if err != nil {
		t.Fatal(err)
	}
	lowest, highest, blocks := math.Inf(1), math.Inf(-1), 0
	_ = q.Each(func(_ ecs.Entity, d *physics.ReducedDeformable) {
		blocks++
		lowest, highest = math.Min(lowest, d.Position[2]), math.Max(highest, d.Position[2])
	})
	if blocks != 6 || lowest != heapDropLow || math.Abs(highest-heapDropHigh) > 1e-12 {
		t.Errorf("%d soft blocks released from %v m to %v m, want 6 from %v to %v", blocks, lowest, highest, heapDropLow, heapDropHigh)
	}
	r.runUntil(0.6)
	landed := false
	_ = q.Each(func(_ ecs.Entity, d *physics.ReducedDeformable) {
		// Free fall from 1.6 m would be below 0 m by now; a block resting on the 0.8 m heap is not.
		if d.Position[2] < heapDropLow-0.5 && d.Position[2] > 4*heapCrateHalf {
			landed = true
		}
	})
	if !landed {
		t.Error("no soft block has landed on the heap after 0.6 s")
	}
}
