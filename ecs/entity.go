package ecs

import (
	"math"
	"strconv"
)

// Entity is a generational entity id: the index of a slot in its World plus the generation of
// that slot when the entity was spawned. Entities are small values meant to be copied and
// compared with ==. The zero Entity is never alive, because generations start at 1.
type Entity struct {
	index      uint32
	generation uint32
}

// Index returns the slot index of e. Indices of despawned entities are reused.
func (e Entity) Index() uint32 { return e.index }

// Generation returns the generation of e's slot at the time e was spawned (1 or more for any
// spawned entity, 0 for the zero Entity).
func (e Entity) Generation() uint32 { return e.generation }

// String returns a short description such as "entity 12v3" (index 12, generation 3).
func (e Entity) String() string {
	var buf [32]byte
	b := append(buf[:0], "entity "...)
	b = strconv.AppendUint(b, uint64(e.index), 10)
	b = append(b, 'v')
	b = strconv.AppendUint(b, uint64(e.generation), 10)
	return string(b)
}

// IsZero reports whether e is the zero Entity, which no World ever hands out.
func (e Entity) IsZero() bool { return e == Entity{} }

// entitySlot is the allocator's record of one slot. generation is the generation of the live
// occupant when alive, or the generation the next occupant will get when not.
type entitySlot struct {
	generation uint32
	alive      bool
}

// entityAllocator hands out generational ids, reusing freed slots last-in first-out.
type entityAllocator struct {
	slots []entitySlot
	free  []uint32
	live  int
}

// spawn returns a new live entity, or the zero Entity if the uint32 index space is exhausted.
func (a *entityAllocator) spawn() Entity {
	var index uint32
	if n := len(a.free); n > 0 {
		index = a.free[n-1]
		a.free = a.free[:n-1]
	} else {
		if uint64(len(a.slots)) > math.MaxUint32 {
			return Entity{}
		}
		index = uint32(len(a.slots))
		a.slots = append(a.slots, entitySlot{generation: 1})
	}
	s := &a.slots[index]
	s.alive = true
	a.live++
	return Entity{index: index, generation: s.generation}
}

// alive reports whether e is the current live occupant of its slot.
func (a *entityAllocator) alive(e Entity) bool {
	if uint64(e.index) >= uint64(len(a.slots)) {
		return false
	}
	s := a.slots[e.index]
	return s.alive && s.generation == e.generation
}

// release frees the slot of the live entity e. The slot's generation is bumped so that e stays
// dead forever; a slot whose generation cannot be bumped any more is retired instead of reused.
func (a *entityAllocator) release(e Entity) {
	s := &a.slots[e.index]
	s.alive = false
	a.live--
	if s.generation == math.MaxUint32 {
		return
	}
	s.generation++
	a.free = append(a.free, e.index)
}
