package physics

import (
	"github.com/stagger-physics/stagger/ecs"
)

// AddBody validates body (with collider, which may have a nil Shape for a body without collision),
// derives its missing mass properties, and attaches both components to e. Bad input is refused with
// a *FieldError naming e and the field; nothing is attached then.
func AddBody(w *ecs.World, e ecs.Entity, body RigidBody, collider Collider) error {
	if !w.Alive(e) {
		return withEntity(e, ecs.ErrDeadEntity)
	}
	var c *Collider
	if collider.Shape != nil {
		c = &collider
	}
	if err := prepareBody(&body, c); err != nil {
		return withEntity(e, err)
	}
	if err := ecs.Add(w, e, body); err != nil {
		return err
	}
	if c != nil {
		if err := ecs.Add(w, e, collider); err != nil {
			_ = ecs.Remove[RigidBody](w, e)
			return err
		}
	}
	return nil
}

// Spawn creates an entity carrying body and collider (see AddBody).
func Spawn(w *ecs.World, body RigidBody, collider Collider) (ecs.Entity, error) {
	e := w.Spawn()
	if err := AddBody(w, e, body, collider); err != nil {
		_ = w.Despawn(e)
		return ecs.Entity{}, err
	}
	return e, nil
}
