package ecs

import (
	"errors"
	"math/rand/v2"
	"slices"
	"testing"
)

// modelEntity is the brute-force record of one live entity's components.
type modelEntity struct {
	pos *position
	vel *velocity
	lab *label
}

// randomWorld applies a seeded random sequence of world operations to a fresh world while keeping
// a brute-force model, and calls check every checkEvery operations and at the end.
func randomWorld(t *testing.T, seed uint64, ops, checkEvery int, check func(w *World, model map[Entity]*modelEntity)) *World {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	w := NewWorld()
	if err := errors.Join(Register[position](w), Register[velocity](w), Register[label](w)); err != nil {
		t.Fatal(err)
	}
	model := map[Entity]*modelEntity{}
	var live []Entity
	pick := func() (Entity, int) {
		i := rng.IntN(len(live))
		return live[i], i
	}
	for op := range ops {
		switch r := rng.IntN(100); {
		case r < 20 || len(live) == 0:
			e := w.Spawn()
			live = append(live, e)
			model[e] = &modelEntity{}
		case r < 30:
			e, i := pick()
			if err := w.Despawn(e); err != nil {
				t.Fatal(err)
			}
			live = slices.Delete(live, i, i+1)
			delete(model, e)
		case r < 45:
			e, _ := pick()
			v := position{X: rng.Float64(), Y: float64(op)}
			if err := Add(w, e, v); err != nil {
				t.Fatal(err)
			}
			model[e].pos = &v
		case r < 60:
			e, _ := pick()
			v := velocity{Z: rng.Float64()}
			if err := Add(w, e, v); err != nil {
				t.Fatal(err)
			}
			model[e].vel = &v
		case r < 72:
			e, _ := pick()
			v := label(rune('a' + rng.IntN(26)))
			if err := Add(w, e, v); err != nil {
				t.Fatal(err)
			}
			model[e].lab = &v
		case r < 80:
			e, _ := pick()
			if err := Remove[position](w, e); err != nil {
				t.Fatal(err)
			}
			model[e].pos = nil
		case r < 90:
			e, _ := pick()
			if err := Remove[velocity](w, e); err != nil {
				t.Fatal(err)
			}
			model[e].vel = nil
		default:
			e, _ := pick()
			if err := Remove[label](w, e); err != nil {
				t.Fatal(err)
			}
			model[e].lab = nil
		}
		if (op+1)%checkEvery == 0 || op == ops-1 {
			check(w, model)
		}
	}
	return w
}

// visits collects the entities a query visits, failing on a duplicate visit.
type visits struct {
	t     *testing.T
	name  string
	order []Entity
	seen  map[Entity]bool
}

func newVisits(t *testing.T, name string) *visits {
	return &visits{t: t, name: name, seen: map[Entity]bool{}}
}

func (v *visits) add(e Entity) {
	if v.seen[e] {
		v.t.Errorf("%s visited %v twice", v.name, e)
	}
	v.seen[e] = true
	v.order = append(v.order, e)
}

// expect compares the visited set with the model entities accepted by want.
func (v *visits) expect(model map[Entity]*modelEntity, want func(*modelEntity) bool, count int) {
	n := 0
	for e, m := range model {
		if want(m) {
			n++
			if !v.seen[e] {
				v.t.Errorf("%s missed %v", v.name, e)
			}
		}
	}
	if len(v.seen) != n {
		v.t.Errorf("%s visited %d entities, want %d", v.name, len(v.seen), n)
	}
	if count != n {
		v.t.Errorf("%s Count() = %d, want %d", v.name, count, n)
	}
}

// runQueries runs every test query over w, checks the visits against the model, and returns the
// visiting orders.
func runQueries(t *testing.T, w *World, model map[Entity]*modelEntity) [][]Entity {
	t.Helper()
	q1, err1 := NewQuery1[position](w)
	q2, err2 := NewQuery2[position, velocity](w)
	q2b, err3 := NewQuery2[label, velocity](w)
	q3, err4 := NewQuery3[velocity, label, position](w)
	if err := errors.Join(err1, err2, err3, err4); err != nil {
		t.Fatal(err)
	}

	v1 := newVisits(t, "Query1[position]")
	err := q1.Each(func(e Entity, p *position) {
		v1.add(e)
		if m := model[e]; m == nil || m.pos == nil || *m.pos != *p {
			t.Errorf("Query1 %v: wrong position %v", e, *p)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	v1.expect(model, func(m *modelEntity) bool { return m.pos != nil }, q1.Count())

	v2 := newVisits(t, "Query2[position,velocity]")
	err = q2.Each(func(e Entity, p *position, v *velocity) {
		v2.add(e)
		if m := model[e]; m == nil || m.pos == nil || m.vel == nil || *m.pos != *p || *m.vel != *v {
			t.Errorf("Query2 %v: wrong components %v %v", e, *p, *v)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	v2.expect(model, func(m *modelEntity) bool { return m.pos != nil && m.vel != nil }, q2.Count())

	v2b := newVisits(t, "Query2[label,velocity]")
	err = q2b.Each(func(e Entity, l *label, v *velocity) {
		v2b.add(e)
		if m := model[e]; m == nil || m.lab == nil || m.vel == nil || *m.lab != *l || *m.vel != *v {
			t.Errorf("Query2b %v: wrong components %v %v", e, *l, *v)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	v2b.expect(model, func(m *modelEntity) bool { return m.lab != nil && m.vel != nil }, q2b.Count())

	v3 := newVisits(t, "Query3[velocity,label,position]")
	err = q3.Each(func(e Entity, v *velocity, l *label, p *position) {
		v3.add(e)
		m := model[e]
		if m == nil || m.pos == nil || m.vel == nil || m.lab == nil || *m.pos != *p || *m.vel != *v || *m.lab != *l {
			t.Errorf("Query3 %v: wrong components %v %v %v", e, *v, *l, *p)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	v3.expect(model, func(m *modelEntity) bool { return m.pos != nil && m.vel != nil && m.lab != nil }, q3.Count())

	return [][]Entity{v1.order, v2.order, v2b.order, v3.order}
}

func TestQueriesMatchBruteForce(t *testing.T) {
	for _, seed := range []uint64{1, 2, 3, 42, 1234567} {
		checks := 0
		randomWorld(t, seed, 3000, 97, func(w *World, model map[Entity]*modelEntity) {
			checks++
			if w.Len() != len(model) {
				t.Fatalf("seed %d: Len() = %d, model has %d", seed, w.Len(), len(model))
			}
			runQueries(t, w, model)
		})
		if checks < 30 {
			t.Fatalf("seed %d: only %d checks ran", seed, checks)
		}
	}
}

func TestQueryOrderIsDeterministic(t *testing.T) {
	const seed = 77
	var first, second [][][]Entity
	randomWorld(t, seed, 2000, 50, func(w *World, m map[Entity]*modelEntity) {
		first = append(first, runQueries(t, w, m))
	})
	randomWorld(t, seed, 2000, 50, func(w *World, m map[Entity]*modelEntity) {
		second = append(second, runQueries(t, w, m))
	})
	if len(first) != len(second) || len(first) == 0 {
		t.Fatalf("different number of checkpoints: %d vs %d", len(first), len(second))
	}
	nonEmpty := 0
	for i := range first {
		for j := range first[i] {
			if !slices.Equal(first[i][j], second[i][j]) {
				t.Fatalf("checkpoint %d query %d: orders differ:\n%v\n%v", i, j, first[i][j], second[i][j])
			}
			if len(first[i][j]) > 1 {
				nonEmpty++
			}
		}
	}
	if nonEmpty == 0 {
		t.Fatal("no checkpoint had an order to compare")
	}
}

func TestQueryDrivenBySmallestStorage(t *testing.T) {
	w := newTestWorld(t)
	var es []Entity
	for i := range 10 {
		e := w.Spawn()
		es = append(es, e)
		_ = Add(w, e, position{X: float64(i)})
	}
	// Velocities added in reverse order: the velocity storage is smaller, so it drives.
	for _, i := range []int{8, 3, 5} {
		_ = Add(w, es[i], velocity{})
	}
	q, err := NewQuery2[position, velocity](w)
	if err != nil {
		t.Fatal(err)
	}
	var got []Entity
	if err := q.Each(func(e Entity, _ *position, _ *velocity) { got = append(got, e) }); err != nil {
		t.Fatal(err)
	}
	if want := []Entity{es[8], es[3], es[5]}; !slices.Equal(got, want) {
		t.Fatalf("order %v, want velocity dense order %v", got, want)
	}
}

func TestQueryEachIsAllocationFree(t *testing.T) {
	w := newTestWorld(t)
	for i := range 1000 {
		e := w.Spawn()
		_ = Add(w, e, position{X: float64(i)})
		if i%2 == 0 {
			_ = Add(w, e, velocity{X: 1})
		}
		if i%3 == 0 {
			_ = Add(w, e, label("x"))
		}
	}
	q1, _ := NewQuery1[position](w)
	q2, _ := NewQuery2[position, velocity](w)
	q3, _ := NewQuery3[position, velocity, label](w)
	sum := 0.0
	f1 := func(_ Entity, p *position) { sum += p.X }
	f2 := func(_ Entity, p *position, v *velocity) { p.X += v.X }
	f3 := func(_ Entity, p *position, v *velocity, _ *label) { p.Y += v.X }
	n := 0
	cases := map[string]func(){
		"Query1.Each":  func() { _ = q1.Each(f1) },
		"Query2.Each":  func() { _ = q2.Each(f2) },
		"Query3.Each":  func() { _ = q3.Each(f3) },
		"Query2.Count": func() { n += q2.Count() },
		"Query3.Count": func() { n += q3.Count() },
	}
	for name, run := range cases {
		run() // warm
		if allocs := testing.AllocsPerRun(100, run); allocs != 0 {
			t.Errorf("%s: %v allocs per run, want 0", name, allocs)
		}
	}
	if sum == 0 || n == 0 {
		t.Fatal("queries did not run")
	}
}

func TestQueryRefusesStructuralChangesDuringIteration(t *testing.T) {
	w := newTestWorld(t)
	a, b, c := w.Spawn(), w.Spawn(), w.Spawn()
	_ = Add(w, a, position{X: 1})
	_ = Add(w, a, velocity{X: 1})
	_ = Add(w, b, position{X: 2})
	_ = Add(w, b, velocity{X: 2})
	_ = Add(w, c, position{X: 3}) // no velocity
	q, err := NewQuery2[position, velocity](w)
	if err != nil {
		t.Fatal(err)
	}

	var refused []error
	visited := 0
	err = q.Each(func(e Entity, p *position, v *velocity) {
		visited++
		if e != a {
			return
		}
		refused = append(refused,
			Add(w, c, velocity{}),  // new component of a queried type
			Remove[velocity](w, b), // removal from a queried storage
			w.Despawn(b),           // despawn of an entity with queried components
			Remove[position](w, a), // removal of the visited entity's own component
		)
		// Allowed: replacing in place, other types, spawning, reading.
		if err := Add(w, b, velocity{X: 20}); err != nil {
			t.Errorf("replace during iteration: %v", err)
		}
		if err := Add(w, a, label("ok")); err != nil {
			t.Errorf("other type during iteration: %v", err)
		}
		w.Spawn()
		if _, ok := Get[position](w, c); !ok {
			t.Error("Get during iteration failed")
		}
	})
	if !errors.Is(err, ErrIterating) {
		t.Fatalf("Each = %v, want ErrIterating", err)
	}
	if visited != 2 {
		t.Fatalf("visited %d entities, want 2", visited)
	}
	for i, e := range refused {
		if !errors.Is(e, ErrIterating) {
			t.Errorf("refused change %d returned %v, want ErrIterating", i, e)
		}
	}
	if !w.Alive(b) || !Has[velocity](w, b) || Has[velocity](w, c) || !Has[position](w, a) {
		t.Fatal("a refused change modified the world")
	}
	if v, _ := Get[velocity](w, b); v.X != 20 {
		t.Fatalf("in-place replace lost: %v", v)
	}
	if Count[velocity](w) != 2 || Count[position](w) != 3 {
		t.Fatalf("counts changed: %d %d", Count[velocity](w), Count[position](w))
	}

	// After Each the storages are unlocked again, and a clean Each returns nil.
	if err := q.Each(func(Entity, *position, *velocity) {}); err != nil {
		t.Fatalf("clean Each after refusal: %v", err)
	}
	if err := Add(w, c, velocity{}); err != nil {
		t.Fatalf("Add after iteration: %v", err)
	}
	if err := w.Despawn(b); err != nil {
		t.Fatalf("Despawn after iteration: %v", err)
	}
}

func TestQueryDespawnOfUnrelatedEntityAllowed(t *testing.T) {
	w := newTestWorld(t)
	a, other := w.Spawn(), w.Spawn()
	_ = Add(w, a, position{})
	_ = Add(w, other, label("x"))
	q, _ := NewQuery1[position](w)
	err := q.Each(func(Entity, *position) {
		if err := w.Despawn(other); err != nil {
			t.Errorf("despawn of entity without queried components: %v", err)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if w.Alive(other) || Count[label](w) != 0 {
		t.Fatal("despawn did not happen")
	}
}

func TestQueryUnlocksAfterPanic(t *testing.T) {
	w := newTestWorld(t)
	e := w.Spawn()
	_ = Add(w, e, position{})
	q, _ := NewQuery1[position](w)
	func() {
		defer func() { _ = recover() }()
		_ = q.Each(func(Entity, *position) { panic("boom") })
	}()
	if err := Remove[position](w, e); err != nil {
		t.Fatalf("storage still locked after panic: %v", err)
	}
}

func TestNestedQueries(t *testing.T) {
	w := newTestWorld(t)
	for i := range 4 {
		e := w.Spawn()
		_ = Add(w, e, position{X: float64(i)})
	}
	q, _ := NewQuery1[position](w)
	pairs := 0
	err := q.Each(func(Entity, *position) {
		if err := q.Each(func(Entity, *position) { pairs++ }); err != nil {
			t.Error(err)
		}
	})
	if err != nil || pairs != 16 {
		t.Fatalf("nested: err=%v pairs=%d, want 16", err, pairs)
	}
	if err := Remove[position](w, Entity{index: 0, generation: 1}); err != nil {
		t.Fatalf("storage locked after nested queries: %v", err)
	}
}

func TestQueryMisuseReturnsErrors(t *testing.T) {
	var q1 *Query1[position]
	var q2 *Query2[position, velocity]
	var q3 *Query3[position, velocity, label]
	if q1.Each(func(Entity, *position) {}) == nil || q2.Each(func(Entity, *position, *velocity) {}) == nil ||
		q3.Each(func(Entity, *position, *velocity, *label) {}) == nil {
		t.Fatal("Each on nil query returned nil")
	}
	if q1.Count() != 0 || q2.Count() != 0 || q3.Count() != 0 {
		t.Fatal("Count on nil query")
	}
	w := newTestWorld(t)
	q, _ := NewQuery1[position](w)
	if q.Each(nil) == nil {
		t.Fatal("Each(nil) returned nil")
	}
}
