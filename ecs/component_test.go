package ecs

import (
	"errors"
	"strings"
	"testing"
)

func newTestWorld(t *testing.T) *World {
	t.Helper()
	w := NewWorld()
	for _, err := range []error{Register[position](w), Register[velocity](w), Register[tag](w), Register[label](w)} {
		if err != nil {
			t.Fatal(err)
		}
	}
	return w
}

func TestRegisterIsIdempotent(t *testing.T) {
	w := NewWorld()
	if Registered[position](w) {
		t.Fatal("Registered before Register")
	}
	if err := Register[position](w); err != nil {
		t.Fatal(err)
	}
	e := w.Spawn()
	if err := Add(w, e, position{X: 4}); err != nil {
		t.Fatal(err)
	}
	if err := Register[position](w); err != nil {
		t.Fatalf("second Register: %v", err)
	}
	if p, ok := Get[position](w, e); !ok || p.X != 4 {
		t.Fatalf("second Register lost data: %v %v", p, ok)
	}
	if !Registered[position](w) {
		t.Fatal("Registered = false after Register")
	}
}

func TestAddGetHasRemoveReplace(t *testing.T) {
	w := newTestWorld(t)
	e := w.Spawn()
	f := w.Spawn()

	if Has[position](w, e) {
		t.Fatal("Has before Add")
	}
	if err := Add(w, e, position{1, 2, 3}); err != nil {
		t.Fatal(err)
	}
	if err := Add(w, f, position{4, 5, 6}); err != nil {
		t.Fatal(err)
	}
	if !Has[position](w, e) || Has[velocity](w, e) {
		t.Fatal("Has mismatch after Add")
	}
	p, ok := Get[position](w, e)
	if !ok || *p != (position{1, 2, 3}) {
		t.Fatalf("Get = %v %v", p, ok)
	}

	// Writes through the pointer are stored.
	p.Y = 20
	if q, _ := Get[position](w, e); q.Y != 20 {
		t.Fatalf("write through pointer lost: %v", q)
	}

	// Replace.
	if err := Add(w, e, position{7, 8, 9}); err != nil {
		t.Fatal(err)
	}
	if Count[position](w) != 2 {
		t.Fatalf("Count after replace = %d, want 2", Count[position](w))
	}
	if q, _ := Get[position](w, e); *q != (position{7, 8, 9}) {
		t.Fatalf("after replace Get = %v", q)
	}

	// Remove e: f's component moves into e's slot and must still be found.
	if err := Remove[position](w, e); err != nil {
		t.Fatal(err)
	}
	if Has[position](w, e) {
		t.Fatal("Has after Remove")
	}
	if q, ok := Get[position](w, f); !ok || *q != (position{4, 5, 6}) {
		t.Fatalf("other entity's component after swap-remove = %v %v", q, ok)
	}
	if Count[position](w) != 1 {
		t.Fatalf("Count = %d, want 1", Count[position](w))
	}

	// Removing an absent component of a live entity is fine.
	if err := Remove[position](w, e); err != nil {
		t.Fatalf("Remove absent: %v", err)
	}
	if err := Remove[velocity](w, e); err != nil {
		t.Fatalf("Remove never-added: %v", err)
	}
}

func TestZeroSizeComponent(t *testing.T) {
	w := newTestWorld(t)
	a, b := w.Spawn(), w.Spawn()
	if err := Add(w, a, tag{}); err != nil {
		t.Fatal(err)
	}
	if !Has[tag](w, a) || Has[tag](w, b) {
		t.Fatal("tag presence wrong")
	}
	if err := Remove[tag](w, a); err != nil {
		t.Fatal(err)
	}
	if Has[tag](w, a) || Count[tag](w) != 0 {
		t.Fatal("tag still present")
	}
}

func TestDespawnRemovesAllComponents(t *testing.T) {
	w := newTestWorld(t)
	e := w.Spawn()
	other := w.Spawn()
	_ = Add(w, e, position{X: 1})
	_ = Add(w, e, velocity{X: 2})
	_ = Add(w, e, label("e"))
	_ = Add(w, other, position{X: 3})
	if err := w.Despawn(e); err != nil {
		t.Fatal(err)
	}
	if Count[position](w) != 1 || Count[velocity](w) != 0 || Count[label](w) != 0 {
		t.Fatalf("counts after despawn: %d %d %d", Count[position](w), Count[velocity](w), Count[label](w))
	}
	if p, ok := Get[position](w, other); !ok || p.X != 3 {
		t.Fatalf("other entity damaged: %v %v", p, ok)
	}
}

func TestErrorsDeadEntity(t *testing.T) {
	w := newTestWorld(t)
	e := w.Spawn()
	if err := w.Despawn(e); err != nil {
		t.Fatal(err)
	}
	never := Entity{index: 99, generation: 1}
	for _, dead := range []Entity{e, never, {}} {
		checks := map[string]error{
			"Add":     Add(w, dead, position{}),
			"Remove":  Remove[position](w, dead),
			"Despawn": w.Despawn(dead),
		}
		for name, err := range checks {
			if !errors.Is(err, ErrDeadEntity) {
				t.Errorf("%s(%v) = %v, want ErrDeadEntity", name, dead, err)
				continue
			}
			if !strings.Contains(err.Error(), dead.String()) {
				t.Errorf("%s error %q does not name %v", name, err, dead)
			}
		}
		if Has[position](w, dead) {
			t.Errorf("Has(%v) = true", dead)
		}
		if _, ok := Get[position](w, dead); ok {
			t.Errorf("Get(%v) ok", dead)
		}
	}
}

type unregistered struct{ N int }

func TestErrorsNotRegistered(t *testing.T) {
	w := newTestWorld(t)
	e := w.Spawn()
	checks := map[string]error{
		"Add":    Add(w, e, unregistered{1}),
		"Remove": Remove[unregistered](w, e),
	}
	_, err := NewQuery1[unregistered](w)
	checks["NewQuery1"] = err
	_, err = NewQuery2[position, unregistered](w)
	checks["NewQuery2"] = err
	_, err = NewQuery3[position, velocity, unregistered](w)
	checks["NewQuery3"] = err
	for name, err := range checks {
		if !errors.Is(err, ErrNotRegistered) {
			t.Errorf("%s = %v, want ErrNotRegistered", name, err)
			continue
		}
		if !strings.Contains(err.Error(), "ecs.unregistered") {
			t.Errorf("%s error %q does not name the type", name, err)
		}
	}
	if Has[unregistered](w, e) {
		t.Error("Has on unregistered type")
	}
	if _, ok := Get[unregistered](w, e); ok {
		t.Error("Get on unregistered type")
	}
	if Count[unregistered](w) != 0 {
		t.Error("Count on unregistered type")
	}
}

func TestNilWorldDoesNotPanic(t *testing.T) {
	var w *World
	if err := Register[position](w); err == nil {
		t.Error("Register on nil world succeeded")
	}
	e := w.Spawn()
	if !e.IsZero() || w.Alive(e) || w.Len() != 0 {
		t.Error("nil world spawned an entity")
	}
	if err := Add(w, e, position{}); err == nil {
		t.Error("Add on nil world succeeded")
	}
	if err := Remove[position](w, e); err == nil {
		t.Error("Remove on nil world succeeded")
	}
	if err := w.Despawn(e); !errors.Is(err, ErrDeadEntity) {
		t.Errorf("Despawn on nil world = %v", err)
	}
	if _, err := NewQuery1[position](w); err == nil {
		t.Error("NewQuery1 on nil world succeeded")
	}
	if _, ok := Get[position](w, e); ok || Has[position](w, e) || Count[position](w) != 0 {
		t.Error("nil world reports components")
	}
	SetResource(w, 1)
	if _, ok := GetResource[int](w); ok {
		t.Error("nil world reports a resource")
	}
	RemoveResource[int](w)
	w.Entities(func(Entity) { t.Error("nil world visited an entity") })
}

func TestZeroWorldIsUsable(t *testing.T) {
	var w World
	if err := Register[position](&w); err != nil {
		t.Fatal(err)
	}
	e := w.Spawn()
	if err := Add(&w, e, position{X: 1}); err != nil {
		t.Fatal(err)
	}
	SetResource(&w, 5)
	if r, ok := GetResource[int](&w); !ok || *r != 5 {
		t.Fatal("resource on zero World")
	}
}
