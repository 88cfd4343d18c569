package collide

import (
	"slices"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
)

// A copy made mid-run reports the same pairs as the original under the same later moves, and is
// independent of it: moving the original afterwards leaves the copy's pairs alone.
func TestBroadPhaseCopyFrom(t *testing.T) {
	r := newRand(7)
	bp, err := NewBroadPhase(0.05)
	if err != nil {
		t.Fatal(err)
	}
	box := func() AABB {
		c := mgl64.Vec3{4 * r.Float64(), 4 * r.Float64(), 4 * r.Float64()}
		h := mgl64.Vec3{0.3, 0.3, 0.3}
		return AABB{Min: c.Sub(h), Max: c.Add(h)}
	}
	var ids []ProxyID
	for i := 0; i < 200; i++ {
		id, err := bp.Add(box(), mgl64.Vec3{}, ProxyOptions{})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	bp.UpdatePairs()
	var cp BroadPhase
	cp.CopyFrom(bp)
	if !slices.Equal(cp.Pairs(), bp.Pairs()) {
		t.Fatal("the copy's pairs differ at once")
	}
	before := slices.Clone(cp.Pairs())
	moves := make([]AABB, len(ids))
	for i := range moves {
		moves[i] = box()
	}
	for i, id := range ids {
		if _, err := bp.Update(id, moves[i], mgl64.Vec3{}); err != nil {
			t.Fatal(err)
		}
	}
	bp.UpdatePairs()
	if !slices.Equal(cp.Pairs(), before) {
		t.Fatal("moving the original changed the copy")
	}
	for i, id := range ids {
		if _, err := cp.Update(id, moves[i], mgl64.Vec3{}); err != nil {
			t.Fatal(err)
		}
	}
	cp.UpdatePairs()
	if !slices.Equal(cp.Pairs(), bp.Pairs()) || len(bp.Pairs()) == 0 {
		t.Errorf("after the same moves: copy %d pairs, original %d", len(cp.Pairs()), len(bp.Pairs()))
	}
}
