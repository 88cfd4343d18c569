// Package ecs is a small, generic entity-component world with resources, a staged system
// schedule and a fixed-step clock. It knows nothing of physics or rendering and depends only on
// the Go standard library.
//
// # Entities
//
// An [Entity] is a generational id: a slot index plus a generation. Despawning an entity bumps
// its slot's generation before the slot is reused, so a stale id is never mistaken for the new
// occupant and never reaches its components. Generations start at 1, so the zero Entity is never
// alive. A slot whose generation is exhausted is retired rather than reused.
//
// # Components
//
// Every component type must be registered with [Register] before it is used. Each registered type
// is stored in its own sparse set: a dense array of values, a parallel dense array of owning
// entities, and a sparse array mapping entity index to dense slot. Adding is an append, removing is
// a swap with the last element, and lookups are two array reads after one map access to find the
// storage. Pointers returned by [Get] point into the dense array and stay valid until the next
// structural change (Add of a new entity, Remove, Despawn) of that storage.
//
// # Queries
//
// [Query1], [Query2] and [Query3] visit every entity that has all of their component types.
// Iteration is driven by the dense array of the currently smallest storage (ties go to the
// earliest type parameter) and skips entities that lack any other queried component. It performs
// no map access and no allocation per element, and no allocation at all once the query exists.
//
// Iteration order is the dense order of the driving storage. That order is a pure function of the
// sequence of world operations (spawn, despawn, add, remove) that built the world: two worlds built
// by the same sequence iterate in the same order. It is not sorted by entity and changes when
// components are removed (swap-remove moves the last element into the hole).
//
// While Each runs, the storages of its component types are locked: adding a component of a queried
// type to an entity that lacks it, removing one, or despawning an entity that has one is rejected
// with [ErrIterating] and leaves the world unchanged, and Each then returns an error wrapping
// [ErrIterating]. Replacing an existing component's value with [Add], reading with [Get], and any
// change to other component types, to resources, or spawning are allowed during iteration.
//
// # Resources
//
// Resources are singleton values keyed by their Go type: [SetResource], [GetResource],
// [RemoveResource].
//
// # Schedule, clock and app
//
// An [App] owns a [World], a [FixedClock] and a schedule of [System] functions grouped into
// ordered [Stage]s. [App.Update] feeds frame time to the clock and runs Startup (once), PreUpdate,
// FixedUpdate once per owed fixed step, and PostUpdate. The clock caps the number of fixed steps
// per frame and drops the excess so that a slow frame cannot spiral. [Plugin]s bundle
// registrations, resources and systems.
//
// # Misuse
//
// The package does not panic on misuse. A dead entity yields [ErrDeadEntity], an unregistered
// component type yields [ErrNotRegistered] (both wrapped with the offending entity or type, test
// with errors.Is), and calls without an error result report failure with false or a zero value.
// A nil *World behaves as an empty world that cannot be changed.
//
// The package keeps no global state; a World, its queries and its App are not safe for
// concurrent use.
package ecs
