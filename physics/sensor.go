package physics

import (
	"slices"

	"github.com/stagger-physics/stagger/ecs"
)

// SensorPhase says whether a body started or stopped overlapping a sensor.
type SensorPhase int

const (
	// SensorBegan: the body overlaps the sensor this step and did not the step before.
	SensorBegan SensorPhase = iota
	// SensorEnded: the body overlapped the sensor the step before and no longer does (or
	// one of the two was despawned, lost its collider, or was filtered out).
	SensorEnded
)

// String returns "began" or "ended".
func (p SensorPhase) String() string {
	switch p {
	case SensorBegan:
		return "began"
	case SensorEnded:
		return "ended"
	}
	return "SensorPhase(?)"
}

// SensorEvent is sent through ecs.Events[SensorEvent] after each fixed step, after the step's
// ContactEvents, when a collider or a reduced deformable starts or stops overlapping a sensor (a
// Collider with Sensor set). Overlapping means the two shapes touch or interpenetrate (a gap <= 0
// at the end of the step's collision detection, which sees the poses at the start of the step);
// for a deformable, that one of its surface vertices lies in or on the sensor's shape. There is no
// look-ahead, so a body fast enough to cross a thin sensor within one step is not seen.
//
// As for contacts, a pair is tested only when its layers agree (Collider.Layer and Mask,
// ReducedDeformable.Layer and Mask), the contact filter keeps it, and at least one of the two
// bodies is dynamic: a static or kinematic sensor sees dynamic bodies. Two sensors never see each other. While both bodies of a pair are
// still (static, asleep, or kinematic at rest), the pair keeps its state and sends nothing.
//
// A sensor takes no part in the solve, so bodies that pass through it move exactly as they would
// without it. Events of a step come in a deterministic order, sorted by (Sensor, Other).
type SensorEvent struct {
	Phase SensorPhase
	// Sensor is the entity whose collider is the sensor, Other the one overlapping it.
	Sensor, Other ecs.Entity
}

// sensorEvents turns each step's overlapping sensor pairs into SensorEvents by comparing them
// with the previous step's. Its buffers are reused, so a warm step does not allocate.
type sensorEvents struct {
	prev, cur []SensorEvent // overlapping pairs, sorted by (Sensor, Other)
}

// emit sends the step's events to out.
func (se *sensorEvents) emit(s *Simulation, out *ecs.Events[SensorEvent]) {
	se.cur = se.cur[:0]
	c := s.collision
	for i := range c.pairs {
		st := &c.pairs[i]
		if !st.sensor {
			continue
		}
		ev := SensorEvent{Sensor: st.ownerA, Other: st.ownerB}
		// Every pair of the step joins two colliders the step gathered, so c.bodies describes
		// both; one of them is the sensor.
		if !c.bodies[c.proxies[st.pair.A].body].sensor {
			ev.Sensor, ev.Other = st.ownerB, st.ownerA
		}
		se.cur = append(se.cur, ev)
	}
	// The deformables' overlaps, found with their contacts (collideDeformables).
	se.cur = append(se.cur, s.deformCol.sensed...)
	slices.SortFunc(se.cur, compareSensorEvents)
	i, j := 0, 0
	for i < len(se.prev) || j < len(se.cur) {
		switch {
		case j == len(se.cur) || i < len(se.prev) && compareSensorEvents(se.prev[i], se.cur[j]) < 0:
			ev := se.prev[i]
			ev.Phase = SensorEnded
			out.Send(ev)
			i++
		case i == len(se.prev) || compareSensorEvents(se.cur[j], se.prev[i]) < 0:
			ev := se.cur[j]
			ev.Phase = SensorBegan
			out.Send(ev)
			j++
		default:
			i++
			j++
		}
	}
	se.prev, se.cur = se.cur, se.prev
}

// compareSensorEvents orders events by (Sensor, Other).
func compareSensorEvents(x, y SensorEvent) int {
	if c := compareEntities(x.Sensor, y.Sensor); c != 0 {
		return c
	}
	return compareEntities(x.Other, y.Other)
}
