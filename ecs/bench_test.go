package ecs

import "testing"

type benchPos struct{ X, Y, Z float64 }
type benchVel struct{ X, Y, Z float64 }
type benchTag struct{ N int }

func benchWorld(b *testing.B) *World {
	b.Helper()
	w := NewWorld()
	if err := Register[benchPos](w); err != nil {
		b.Fatal(err)
	}
	if err := Register[benchVel](w); err != nil {
		b.Fatal(err)
	}
	if err := Register[benchTag](w); err != nil {
		b.Fatal(err)
	}
	return w
}

// BenchmarkQuery2Iterate100k integrates position += velocity over 100,000 entities per op.
func BenchmarkQuery2Iterate100k(b *testing.B) {
	const n = 100_000
	w := benchWorld(b)
	for i := range n {
		e := w.Spawn()
		if err := Add(w, e, benchPos{X: float64(i)}); err != nil {
			b.Fatal(err)
		}
		if err := Add(w, e, benchVel{X: 1, Y: 2, Z: 3}); err != nil {
			b.Fatal(err)
		}
	}
	q, err := NewQuery2[benchPos, benchVel](w)
	if err != nil {
		b.Fatal(err)
	}
	integrate := func(_ Entity, p *benchPos, v *benchVel) {
		p.X += v.X
		p.Y += v.Y
		p.Z += v.Z
	}
	b.ReportAllocs()
	ops := 0
	for b.Loop() {
		if err := q.Each(integrate); err != nil {
			b.Fatal(err)
		}
		ops++
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(ops*n), "ns/entity")
}

// BenchmarkAddRemoveChurn adds a component to 10,000 entities and removes it again per op.
func BenchmarkAddRemoveChurn(b *testing.B) {
	const n = 10_000
	w := benchWorld(b)
	es := make([]Entity, n)
	for i := range es {
		es[i] = w.Spawn()
		if err := Add(w, es[i], benchPos{}); err != nil {
			b.Fatal(err)
		}
	}
	// One untimed round grows the velocity storage to its steady-state capacity.
	for _, e := range es {
		_ = Add(w, e, benchVel{})
	}
	for _, e := range es {
		_ = Remove[benchVel](w, e)
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, e := range es {
			if err := Add(w, e, benchVel{X: 1}); err != nil {
				b.Fatal(err)
			}
		}
		for _, e := range es {
			if err := Remove[benchVel](w, e); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkSpawnDespawn spawns an entity, gives it two components and despawns it per op, in a
// world with 10,000 other live entities.
func BenchmarkSpawnDespawn(b *testing.B) {
	w := benchWorld(b)
	for range 10_000 {
		e := w.Spawn()
		_ = Add(w, e, benchPos{})
	}
	b.ReportAllocs()
	for b.Loop() {
		e := w.Spawn()
		if err := Add(w, e, benchPos{X: 1}); err != nil {
			b.Fatal(err)
		}
		if err := Add(w, e, benchVel{X: 1}); err != nil {
			b.Fatal(err)
		}
		if err := w.Despawn(e); err != nil {
			b.Fatal(err)
		}
	}
}
