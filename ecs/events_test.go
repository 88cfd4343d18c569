package ecs

import (
	"testing"
)

func TestEventsLiveTwoUpdatesAndReadersSeeEachOnce(t *testing.T) {
	app, err := NewApp(0.01, 1)
	if err != nil {
		t.Fatal(err)
	}
	if err := AddEvent[int](app); err != nil {
		t.Fatal(err)
	}
	if err := AddEvent[int](app); err != nil {
		t.Fatalf("adding an event type twice: %v", err)
	}
	sent := 0
	if err := app.AddSystem(FixedUpdate, "send", func(w *World) error {
		e, _ := GetResource[Events[int]](w)
		e.Send(sent)
		e.Send(sent + 1)
		sent += 2
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	var every, slow EventReader[int]
	var seen []int
	events, _ := GetResource[Events[int]](app.World)
	for frame := 0; frame < 6; frame++ {
		if err := app.StepFixed(); err != nil {
			t.Fatal(err)
		}
		every.Read(events, func(v int) { seen = append(seen, v) })
		if events.Len() > 4 {
			t.Fatalf("frame %d: %d events held, want at most two updates' worth", frame, events.Len())
		}
	}
	for i, v := range seen {
		if v != i {
			t.Fatalf("reader saw %v, want 0..%d in order, each once", seen, sent-1)
		}
	}
	if len(seen) != sent {
		t.Fatalf("reader saw %d events, want %d", len(seen), sent)
	}
	// A reader that never read sees only what is still held: the last two updates' events.
	var got []int
	slow.Read(events, func(v int) { got = append(got, v) })
	if len(got) != 4 || got[0] != sent-4 {
		t.Errorf("late reader saw %v, want the last 4 events", got)
	}
	if n := slow.Read(events, func(int) {}); n != 0 {
		t.Errorf("a second read saw %d events again", n)
	}
}

func TestEventsDoNotAllocateOnceWarm(t *testing.T) {
	var e Events[int]
	var r EventReader[int]
	sum := 0
	visit := func(v int) { sum += v }
	for i := 0; i < 3; i++ {
		e.Send(i)
		e.Update()
	}
	allocs := testing.AllocsPerRun(100, func() {
		for i := 0; i < 8; i++ {
			e.Send(i)
		}
		r.Read(&e, visit)
		e.Update()
	})
	if allocs != 0 {
		t.Errorf("%v allocations per update once warm", allocs)
	}
}

func BenchmarkEvents(b *testing.B) {
	var e Events[[4]float64]
	var r EventReader[[4]float64]
	visit := func([4]float64) {}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		for k := 0; k < 100; k++ {
			e.Send([4]float64{float64(k)})
		}
		r.Read(&e, visit)
		e.Update()
	}
}
