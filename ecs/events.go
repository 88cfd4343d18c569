package ecs

import (
	"fmt"
	"reflect"
)

// Events is a double-buffered channel of events of type T, kept as a resource. Systems Send events
// during an update; Update, run once per App update before PreUpdate's other systems by the system
// AddEvent registers, retires the previous update's events and keeps this update's, so every event
// stays readable for the update it was sent in and the next one. Each reader keeps its own cursor
// (EventReader) and sees every event once if it reads at least once per update. Once its buffers
// have grown, sending and reading do not allocate.
type Events[T any] struct {
	old, cur []T
	oldStart uint64 // sequence number of old[0]
	curStart uint64 // sequence number of cur[0]
}

// Send appends ev to this update's events.
func (e *Events[T]) Send(ev T) { e.cur = append(e.cur, ev) }

// Update retires the previous update's events; this update's become the previous ones.
func (e *Events[T]) Update() {
	e.old, e.cur = e.cur, e.old[:0]
	e.oldStart = e.curStart
	e.curStart = e.oldStart + uint64(len(e.old))
}

// Len returns the number of events held: the previous update's and this one's.
func (e *Events[T]) Len() int { return len(e.old) + len(e.cur) }

// EventReader is one reader's cursor into an Events[T]. The zero value starts at the oldest event
// still held.
type EventReader[T any] struct {
	next uint64
}

// Read calls visit for every event of e this reader has not seen, oldest first, and returns how
// many it visited. Events retired before the reader got to them are skipped.
func (r *EventReader[T]) Read(e *Events[T], visit func(T)) int {
	if r.next < e.oldStart {
		r.next = e.oldStart
	}
	n := 0
	for ; r.next < e.curStart; r.next++ {
		visit(e.old[r.next-e.oldStart])
		n++
	}
	for ; r.next < e.curStart+uint64(len(e.cur)); r.next++ {
		visit(e.cur[r.next-e.curStart])
		n++
	}
	return n
}

// AddEvent adds the Events[T] resource to app's world, if it has none, and the PreUpdate system
// that calls its Update once per App update. Adding the same event type twice is not an error.
func AddEvent[T any](app *App) error {
	if _, ok := GetResource[Events[T]](app.World); ok {
		return nil
	}
	SetResource(app.World, Events[T]{})
	name := fmt.Sprintf("ecs.events[%v]", reflect.TypeFor[T]())
	return app.AddSystem(PreUpdate, name, func(w *World) error {
		e, ok := GetResource[Events[T]](w)
		if !ok {
			return fmt.Errorf("%s: the Events resource was removed", name)
		}
		e.Update()
		return nil
	})
}
