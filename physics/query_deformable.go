package physics

import (
	"fmt"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/stagger-physics/stagger/collide"
	"github.com/stagger-physics/stagger/ecs"
)

// World queries against reduced deformable bodies (docs/architecture.md, World queries). The
// queries' refresh records each deformable's deformed surface in the world — the boundary
// triangles of SurfaceTriangles at the vertices SurfaceVertices gives, moved to the frame the
// component holds if the game has changed it since the last step — and its bounds. Deformables are
// not in the broad phase (their contacts query it; deformable_contact.go), so each query tests
// them after the colliders, in the order of the deformable component's storage, by their bounds
// first. CastRay intersects the triangles directly (Möller–Trumbore, collide.RayTriangle), from
// either side as a triangle-mesh collider's ray cast does: a ray that starts inside hits the
// surface where it leaves, the normal facing the ray. CastShape and Overlap test the shape against
// the surface as a collide.TriangleMesh, which the first such query after a refresh builds (and
// allocates). A collider and a deformable hit at the same distance: the collider wins.

// deformQueryRecord is one deformable as the world queries see it, written by their refresh.
type deformQueryRecord struct {
	entity ecs.Entity
	layer  uint32
	// vertices are the deformed surface's world positions, triangles index them (the body's own
	// list), box bounds them.
	vertices  []mgl64.Vec3
	triangles [][3]int32
	box       collide.AABB
	// mesh is the surface as a triangle mesh for CastShape and Overlap, nil until one needs it
	// after the refresh; meshErr is its refusal (a triangle deformed to zero area).
	mesh     *collide.TriangleMesh
	meshErr  error
	meshTris [][3]int
}

// refreshDeformables records every deformable for the queries, in storage order.
func (q *queryState) refreshDeformables() error {
	s := q.sim
	q.deformCount = 0
	if err := s.registerDeformables(); err != nil || s.deformQuery == nil {
		return err
	}
	if q.deformFn == nil {
		q.deformFn = q.refreshDeformable
	}
	if err := s.deformQuery.Each(q.deformFn); err != nil {
		return fmt.Errorf("physics: %w", err)
	}
	return nil
}

// refreshDeformable is the refresh's query callback for deformables. A body the next step would
// refuse (not added, or with a non-finite frame) is left out.
func (q *queryState) refreshDeformable(e ecs.Entity, d *ReducedDeformable) {
	m := d.model
	if m == nil || d.checkMotion() != nil {
		return
	}
	if q.deformCount == len(q.deform) {
		q.deform = append(q.deform, deformQueryRecord{})
	}
	r := &q.deform[q.deformCount]
	q.deformCount++
	r.entity, r.triangles, r.mesh, r.meshErr = e, m.triangles, nil, nil
	r.layer, _ = d.layers()
	r.vertices = d.SurfaceVertices(r.vertices)
	if d.frame() != d.written {
		// The model still has the frame the last step wrote: carry the surface to the game's.
		m.body.State(&m.state)
		from, inv := m.state.Position, m.state.Orientation.Conjugate()
		to, rot := d.Position, unitOrientation(d.Orientation)
		for i, p := range r.vertices {
			r.vertices[i] = to.Add(rot.Rotate(inv.Rotate(p.Sub(from))))
		}
	}
	r.box = collide.AABBFromPoints(r.vertices...)
}

// surfaceMesh returns the record's surface as a triangle mesh, building it on first use.
func (r *deformQueryRecord) surfaceMesh() (*collide.TriangleMesh, error) {
	if r.mesh == nil && r.meshErr == nil {
		r.meshTris = r.meshTris[:0]
		for _, t := range r.triangles {
			r.meshTris = append(r.meshTris, [3]int{int(t[0]), int(t[1]), int(t[2])})
		}
		r.mesh, r.meshErr = collide.NewTriangleMesh(r.vertices, r.meshTris)
	}
	return r.mesh, r.meshErr
}

// seesDeformable reports whether the query's filter sees deformable record i.
func (sc *queryScratch) seesDeformable(i int) bool {
	s := sc.sim
	r := &s.queries.deform[i]
	f := &sc.filter
	if r.entity == f.Exclude || (f.Mask != 0 && r.layer&f.Mask == 0) {
		return false
	}
	return s.world.Alive(r.entity)
}

// rayDeformables casts CastRay's ray against the deformables up to maxDistance, or short of the
// collider already hit, keeping the nearest hit in sc.best.
func (sc *queryScratch) rayDeformables(maxDistance float64) {
	q := &sc.sim.queries
	o, d := sc.origin, sc.dir
	inv := mgl64.Vec3{1 / d[0], 1 / d[1], 1 / d[2]}
	limit := maxDistance
	if sc.found {
		limit = sc.best.Distance
	}
	for i := 0; i < q.deformCount; i++ {
		if !sc.seesDeformable(i) {
			continue
		}
		r := &q.deform[i]
		if _, _, hit := r.box.IntersectRay(o, inv, limit); !hit {
			continue
		}
		best, bt := limit, -1
		for t, tri := range r.triangles {
			a, b, c := r.vertices[tri[0]], r.vertices[tri[1]], r.vertices[tri[2]]
			th, ok := collide.RayTriangle(o, d, a, b, c)
			// What is hit already wins ties: a closer triangle must be strictly closer.
			if !ok || th > best || (th == best && (bt >= 0 || sc.found)) {
				continue
			}
			best, bt = th, t
		}
		if bt < 0 {
			continue
		}
		tri := r.triangles[bt]
		a := r.vertices[tri[0]]
		n := r.vertices[tri[1]].Sub(a).Cross(r.vertices[tri[2]].Sub(a))
		if l := n.Len(); l > 0 {
			n = n.Mul(1 / l)
		} else {
			n = d.Mul(-1) // a triangle deformed to a sliver has no direction of its own
		}
		if n.Dot(d) > 0 {
			n = n.Mul(-1) // hit from behind: the normal faces the ray
		}
		sc.best = RayHit{Entity: r.entity, Point: madd(o, d, best), Normal: n, Distance: best, Feature: collide.FaceFeature(bt)}
		sc.found, limit = true, best
	}
}

// identityPose places a deformable's surface, which is recorded in world coordinates.
var identityPose = collide.Pose{Rotation: mgl64.QuatIdent()}

// castShapeDeformables sweeps CastShape's shape against the deformables whose bounds meet the
// swept box, after the colliders: hit (found) is replaced by a strictly closer one.
func (sc *queryScratch) castShapeDeformables(shape collide.Shape, pose collide.Pose, d mgl64.Vec3, swept collide.AABB, best ShapeHit, found bool, limit float64) (ShapeHit, bool, error) {
	q := &sc.sim.queries
	for i := 0; i < q.deformCount; i++ {
		if !sc.seesDeformable(i) || !q.deform[i].box.Overlaps(swept) {
			continue
		}
		r := &q.deform[i]
		mesh, err := r.surfaceMesh()
		if err != nil {
			return ShapeHit{}, false, withEntity(r.entity, fmt.Errorf("physics: CastShape: deformed surface: %w", err))
		}
		h, hit, err := sc.sweep(shape, pose, d, limit, mesh, identityPose)
		if err != nil {
			return ShapeHit{}, false, withEntity(r.entity, fmt.Errorf("physics: CastShape: %w", err))
		}
		if hit && (!found || h.Distance < best.Distance) {
			h.Entity = r.entity
			best, found, limit = h, true, h.Distance
		}
	}
	return best, found, nil
}

// overlapDeformables calls visit with every deformable, seen by the filter, whose surface shape at
// pose touches or overlaps, until visit returns false.
func (sc *queryScratch) overlapDeformables(shape collide.Shape, pose collide.Pose, visit func(ecs.Entity) bool) error {
	q := &sc.sim.queries
	box := shape.Bounds(pose)
	// visit may run queries (RefreshQueries too): the records are read afresh by index.
	for i := 0; i < q.deformCount; i++ {
		if !sc.seesDeformable(i) || !q.deform[i].box.Overlaps(box) {
			continue
		}
		r := &q.deform[i]
		mesh, err := r.surfaceMesh()
		if err != nil {
			return withEntity(r.entity, fmt.Errorf("physics: Overlap: deformed surface: %w", err))
		}
		hit, err := collide.Collide(shape, pose, mesh, identityPose, 0, nil, &sc.manifold)
		if err != nil {
			return withEntity(r.entity, fmt.Errorf("physics: Overlap: %w", err))
		}
		if hit && !visit(r.entity) {
			return nil
		}
	}
	return nil
}
