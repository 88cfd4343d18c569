package physics

import (
	"github.com/go-gl/mathgl/mgl64"
	"github.com/stagger-physics/stagger/ecs"
)

// Energy returns the total mechanical energy of the world's dynamic bodies, J: kinetic energy plus
// the potential energy −m s g·x of gravity g, scaled by each body's GravityScale s; and for each
// ReducedDeformable its kinetic and elastic energy and −m g·c with c its deformed centre of mass.
func Energy(w *ecs.World, g mgl64.Vec3) (float64, error) {
	q, err := ecs.NewQuery1[RigidBody](w)
	if err != nil {
		return 0, err
	}
	total := 0.0
	err = q.Each(func(_ ecs.Entity, b *RigidBody) {
		if b.Kind == Dynamic {
			total += b.KineticEnergy() - b.Mass*b.GravityScale()*g.Dot(b.Position)
		}
	})
	if err != nil || !ecs.Registered[ReducedDeformable](w) {
		return total, err
	}
	dq, err := ecs.NewQuery1[ReducedDeformable](w)
	if err != nil {
		return 0, err
	}
	err = dq.Each(func(_ ecs.Entity, d *ReducedDeformable) {
		total += d.KineticEnergy() + d.ElasticEnergy() - d.Mass()*g.Dot(d.CentreOfMass())
	})
	return total, err
}
