package plugin

import (
	"math"

	"github.com/g3n/engine/core"
	"github.com/stagger-physics/stagger/ecs"
	"github.com/stagger-physics/stagger/physics"
)

// autoVisual is a node the plugin made for an entity and must remove when the entity is gone.
type autoVisual struct {
	entity     ecs.Entity
	node       core.INode
	deformable bool // the node is a DeformableVisual's mesh, not a Visual's
}

// syncer copies body poses into g3n nodes, and manages automatic visuals.
type syncer struct {
	world   *ecs.World
	scene   core.INode
	auto    bool
	posed   *ecs.Query2[physics.RigidBody, Visual]
	bodies  *ecs.Query2[physics.RigidBody, physics.Collider]
	missing []ecs.Entity
	made    []autoVisual
	poseFn  func(ecs.Entity, *physics.RigidBody, *Visual)
	findFn  func(ecs.Entity, *physics.RigidBody, *physics.Collider)

	// shaped and deformables are the deformable bodies with and without regard to a visual;
	// bareDeform collects those without one for the automatic visuals.
	shaped      *ecs.Query2[physics.ReducedDeformable, DeformableVisual]
	deformables *ecs.Query1[physics.ReducedDeformable]
	bareDeform  []ecs.Entity
	shapeFn     func(ecs.Entity, *physics.ReducedDeformable, *DeformableVisual)
	findDefFn   func(ecs.Entity, *physics.ReducedDeformable)
}

func newSyncer(w *ecs.World, scene core.INode, auto bool) (*syncer, error) {
	posed, err := ecs.NewQuery2[physics.RigidBody, Visual](w)
	if err != nil {
		return nil, err
	}
	bodies, err := ecs.NewQuery2[physics.RigidBody, physics.Collider](w)
	if err != nil {
		return nil, err
	}
	shaped, err := ecs.NewQuery2[physics.ReducedDeformable, DeformableVisual](w)
	if err != nil {
		return nil, err
	}
	deformables, err := ecs.NewQuery1[physics.ReducedDeformable](w)
	if err != nil {
		return nil, err
	}
	s := &syncer{world: w, scene: scene, auto: auto, posed: posed, bodies: bodies, shaped: shaped, deformables: deformables}
	s.poseFn = s.pose
	s.findFn = s.findMissing
	s.shapeFn = s.shape
	s.findDefFn = s.findBareDeformable
	return s, nil
}

// run is the post-update system.
func (s *syncer) run(w *ecs.World) error {
	if s.auto {
		if err := s.updateAutoVisuals(); err != nil {
			return err
		}
	}
	if err := s.posed.Each(s.poseFn); err != nil {
		return err
	}
	return s.shaped.Each(s.shapeFn)
}

// shape writes one deformable body's deformed surface into its mesh.
func (s *syncer) shape(_ ecs.Entity, d *physics.ReducedDeformable, v *DeformableVisual) {
	if v.Mesh != nil {
		v.Mesh.Update(d)
	}
}

// pose copies one body's pose into its node. A non-finite pose is never written.
func (s *syncer) pose(_ ecs.Entity, b *physics.RigidBody, v *Visual) {
	if v.Node == nil || !finitePose(b) {
		return
	}
	n := v.Node.GetNode()
	p := ToScene(b.Position)
	q := QuatToScene(b.Orientation)
	n.SetPositionVec(&p)
	n.SetQuaternionQuat(&q)
}

// updateAutoVisuals removes the nodes of despawned entities and makes nodes for new bodies.
func (s *syncer) updateAutoVisuals() error {
	kept := s.made[:0]
	for _, a := range s.made {
		if s.world.Alive(a.entity) && (!a.deformable && ecs.Has[Visual](s.world, a.entity) || a.deformable && ecs.Has[DeformableVisual](s.world, a.entity)) {
			kept = append(kept, a)
			continue
		}
		s.scene.GetNode().Remove(a.node)
		a.node.Dispose()
	}
	s.made = kept
	s.missing = s.missing[:0]
	if err := s.bodies.Each(s.findFn); err != nil {
		return err
	}
	for _, e := range s.missing {
		c, _ := ecs.Get[physics.Collider](s.world, e)
		node, err := MeshFor(c.Shape, materialFor(e))
		if err != nil {
			continue // a shape without a mesh stays invisible
		}
		s.scene.GetNode().Add(node)
		if err := ecs.Add(s.world, e, Visual{Node: node}); err != nil {
			return err
		}
		s.made = append(s.made, autoVisual{entity: e, node: node})
	}
	s.bareDeform = s.bareDeform[:0]
	if err := s.deformables.Each(s.findDefFn); err != nil {
		return err
	}
	for _, e := range s.bareDeform {
		d, _ := ecs.Get[physics.ReducedDeformable](s.world, e)
		mesh, err := NewDeformableMesh(d, materialFor(e))
		if err != nil {
			continue // a body not added through physics has no surface to draw
		}
		s.scene.GetNode().Add(mesh)
		if err := ecs.Add(s.world, e, DeformableVisual{Mesh: mesh}); err != nil {
			return err
		}
		s.made = append(s.made, autoVisual{entity: e, node: mesh, deformable: true})
	}
	return nil
}

// findBareDeformable collects deformable bodies without a visual.
func (s *syncer) findBareDeformable(e ecs.Entity, _ *physics.ReducedDeformable) {
	if !ecs.Has[DeformableVisual](s.world, e) {
		s.bareDeform = append(s.bareDeform, e)
	}
}

// findMissing collects bodies with a collider and no visual.
func (s *syncer) findMissing(e ecs.Entity, _ *physics.RigidBody, c *physics.Collider) {
	if c.Shape != nil && !ecs.Has[Visual](s.world, e) {
		s.missing = append(s.missing, e)
	}
}

// finitePose reports whether a body's position and orientation are finite.
func finitePose(b *physics.RigidBody) bool {
	for _, x := range [...]float64{b.Position[0], b.Position[1], b.Position[2], b.Orientation.W, b.Orientation.V[0], b.Orientation.V[1], b.Orientation.V[2]} {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return false
		}
	}
	return true
}
