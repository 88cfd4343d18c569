package ecs

import (
	"math"
	"slices"
	"testing"
)

type position struct{ X, Y, Z float64 }
type velocity struct{ X, Y, Z float64 }
type tag struct{}
type label string

func TestEntityZeroValueIsNeverAlive(t *testing.T) {
	w := NewWorld()
	var zero Entity
	if !zero.IsZero() {
		t.Fatal("zero Entity: IsZero() = false")
	}
	for range 10 {
		e := w.Spawn()
		if e.IsZero() {
			t.Fatalf("Spawn returned the zero Entity")
		}
		if e.Generation() < 1 {
			t.Fatalf("Spawn returned generation %d, want >= 1", e.Generation())
		}
	}
	if w.Alive(zero) {
		t.Fatal("zero Entity is alive")
	}
}

func TestEntityString(t *testing.T) {
	e := Entity{index: 12, generation: 3}
	if got, want := e.String(), "entity 12v3"; got != want {
		t.Fatalf("String() = %q, want %q", got, want)
	}
	if e.Index() != 12 || e.Generation() != 3 {
		t.Fatalf("Index/Generation = %d/%d, want 12/3", e.Index(), e.Generation())
	}
}

func TestSpawnAssignsSequentialIndices(t *testing.T) {
	w := NewWorld()
	for i := range 5 {
		e := w.Spawn()
		if e.Index() != uint32(i) || e.Generation() != 1 {
			t.Fatalf("spawn %d: got %v, want entity %dv1", i, e, i)
		}
	}
	if w.Len() != 5 {
		t.Fatalf("Len() = %d, want 5", w.Len())
	}
}

func TestDespawnThenSpawnReusesSlotWithNewGeneration(t *testing.T) {
	w := NewWorld()
	if err := Register[position](w); err != nil {
		t.Fatal(err)
	}
	if err := Register[label](w); err != nil {
		t.Fatal(err)
	}
	a := w.Spawn()
	b := w.Spawn()
	if err := Add(w, a, position{X: 1}); err != nil {
		t.Fatal(err)
	}
	if err := Add(w, a, label("old")); err != nil {
		t.Fatal(err)
	}
	if err := w.Despawn(a); err != nil {
		t.Fatal(err)
	}
	if w.Alive(a) {
		t.Fatal("despawned entity still alive")
	}
	if w.Len() != 1 {
		t.Fatalf("Len() = %d, want 1", w.Len())
	}

	c := w.Spawn()
	if c.Index() != a.Index() {
		t.Fatalf("reused index %d, want %d", c.Index(), a.Index())
	}
	if c.Generation() != a.Generation()+1 {
		t.Fatalf("generation %d, want %d", c.Generation(), a.Generation()+1)
	}
	if c == a {
		t.Fatal("new entity equals despawned id")
	}
	if w.Alive(a) || !w.Alive(c) || !w.Alive(b) {
		t.Fatalf("Alive: old=%v new=%v other=%v, want false true true", w.Alive(a), w.Alive(c), w.Alive(b))
	}
	if _, ok := Get[position](w, a); ok {
		t.Fatal("Get on despawned id succeeded")
	}
	if Has[position](w, c) || Has[label](w, c) {
		t.Fatal("new entity in reused slot has stale components")
	}
	if _, ok := Get[position](w, c); ok {
		t.Fatal("Get on new entity returned a stale component")
	}
	// Writing through the old id must not reach the new occupant.
	if err := Add(w, a, position{X: 9}); err == nil {
		t.Fatal("Add on despawned id succeeded")
	}
	if Has[position](w, c) {
		t.Fatal("Add on old id reached the reused slot")
	}
}

func TestDespawnTwiceIsError(t *testing.T) {
	w := NewWorld()
	e := w.Spawn()
	if err := w.Despawn(e); err != nil {
		t.Fatal(err)
	}
	if err := w.Despawn(e); err == nil {
		t.Fatal("second Despawn succeeded")
	}
	if w.Len() != 0 {
		t.Fatalf("Len() = %d, want 0", w.Len())
	}
}

func TestExhaustedGenerationRetiresSlot(t *testing.T) {
	w := NewWorld()
	e := w.Spawn()
	w.entities.slots[e.index].generation = math.MaxUint32
	e.generation = math.MaxUint32
	if !w.Alive(e) {
		t.Fatal("setup: entity not alive")
	}
	if err := w.Despawn(e); err != nil {
		t.Fatal(err)
	}
	n := w.Spawn()
	if n.Index() == e.Index() {
		t.Fatalf("slot with exhausted generation was reused: %v", n)
	}
	if w.Alive(e) {
		t.Fatal("retired entity is alive")
	}
}

func TestEntitiesAscendingOrder(t *testing.T) {
	w := NewWorld()
	var es []Entity
	for range 8 {
		es = append(es, w.Spawn())
	}
	for _, i := range []int{5, 1, 6} {
		if err := w.Despawn(es[i]); err != nil {
			t.Fatal(err)
		}
	}
	re := w.Spawn() // reuses index 6 (last freed)
	if re.Index() != 6 {
		t.Fatalf("reused index %d, want 6", re.Index())
	}
	var got []Entity
	w.Entities(func(e Entity) { got = append(got, e) })
	want := []Entity{es[0], es[2], es[3], es[4], re, es[7]}
	if !slices.Equal(got, want) {
		t.Fatalf("Entities visited %v, want %v", got, want)
	}
}

func TestEntitiesAllowsDespawnDuringIteration(t *testing.T) {
	w := NewWorld()
	for range 6 {
		w.Spawn()
	}
	var visited []uint32
	w.Entities(func(e Entity) {
		visited = append(visited, e.Index())
		if e.Index() == 1 {
			if err := w.Despawn(Entity{index: 3, generation: 1}); err != nil {
				t.Error(err)
			}
		}
	})
	if want := []uint32{0, 1, 2, 4, 5}; !slices.Equal(visited, want) {
		t.Fatalf("visited %v, want %v", visited, want)
	}
}
