package physics

import (
	"fmt"
	"math"
	"slices"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/stagger-physics/stagger/collide"
	"github.com/stagger-physics/stagger/ecs"
)

// World queries: CastRay, CastShape and Overlap find colliders through the step's broad phase
// (docs/architecture.md, World queries).
//
// A query sees every body with a valid RigidBody and Collider, and every ReducedDeformable
// (query_deformable.go), at the pose its component held when the queries last refreshed: the first query after each Step (or before the first step)
// refreshes them, and so does RefreshQueries. Normally, then, a query sees the poses the last
// step wrote. A body the game spawns or moves after that refresh is seen from the next step or
// RefreshQueries on; a despawned entity is never reported. The refresh places each collider in
// the broad phase exactly as the next step's gather would, so queries never change the results
// of the simulation.

// QueryFilter selects the colliders a world query sees. The zero QueryFilter sees every collider
// that is not a sensor.
type QueryFilter struct {
	// Mask is the set of layers the query sees: a collider is seen when its Collider.Layer (0
	// meaning DefaultLayer) shares a bit with Mask. 0 means AllLayers.
	Mask uint32
	// Exclude is an entity the query skips, such as the body casting the ray; the zero Entity
	// excludes nothing.
	Exclude ecs.Entity
	// Sensors makes the query see sensor colliders too.
	Sensors bool
}

// RayHit is where a ray cast by CastRay first meets a collider.
type RayHit struct {
	// Entity is the body hit.
	Entity ecs.Entity
	// Point is the hit point in the world, origin + Distance·direction̂, m.
	Point mgl64.Vec3
	// Normal is the unit outward normal of the collider's surface at Point. A ray that starts
	// inside a collider hits it at Distance 0 with Normal = −direction̂.
	Normal mgl64.Vec3
	// Distance along the ray from its origin, m.
	Distance float64
	// Feature is the collider's feature hit (collide.RayHit.Feature): a face, edge or vertex of
	// the shape, and for a compound also the child (collide.SplitCompoundFeature).
	Feature collide.Feature
}

// ShapeHit is where a shape swept by CastShape first touches a collider.
type ShapeHit struct {
	// Entity is the body hit.
	Entity ecs.Entity
	// Point is the contact point in the world (between the two surfaces), m.
	Point mgl64.Vec3
	// Normal is the unit normal of the hit collider's surface at Point, pointing towards the
	// swept shape.
	Normal mgl64.Vec3
	// Distance the shape travelled along the direction before touching, m: at pose + Distance·
	// direction̂ the shapes are apart by at most ShapeCastTolerance and do not overlap. A shape
	// that already touches or overlaps the collider at pose hits it at Distance 0.
	Distance float64
}

// ShapeCastTolerance is how far apart, m, CastShape leaves the swept shape and the collider it
// reports: the distance returned is short of the exact time of impact by at most this much along
// the contact normal.
const ShapeCastTolerance = 1e-6

// maxSweepIterations bounds CastShape's conservative advancement against one collider. Against a
// convex collider each iteration advances to the separating plane, which ends within a few
// iterations but when the shape only grazes the collider; a sweep that has not converged by then
// reports the distance it reached, which is short of the contact, never past it.
const maxSweepIterations = 64

// queryRecord is one collider as the world queries see it, written by their refresh.
type queryRecord struct {
	gen    uint64 // the refresh that wrote the record; a record of an earlier one is not seen
	shape  collide.Shape
	pose   collide.Pose
	layer  uint32
	sensor bool
}

// queryState is what the world queries keep between calls. Its buffers are reused, so a warm
// query does not allocate.
type queryState struct {
	sim *Simulation
	// stale: a step ran since the last refresh.
	stale     bool
	gen       uint64
	refreshFn func(ecs.Entity, *RigidBody)
	// deform[:deformCount] are the deformables as the last refresh saw them (query_deformable.go).
	deform      []deformQueryRecord
	deformCount int
	deformFn    func(ecs.Entity, *ReducedDeformable)
	// scratch holds one set of buffers per nesting level (an Overlap visit may run queries).
	scratch []*queryScratch
	depth   int
}

// queryScratch is the per-call state of one query. The broad phase's visitors are method values
// bound once, so passing them does not allocate.
type queryScratch struct {
	sim         *Simulation
	filter      QueryFilter
	origin, dir mgl64.Vec3
	best        RayHit
	bestID      collide.ProxyID
	found       bool
	candidates  []collide.ProxyID
	manifold    collide.Manifold
	rayFn       func(collide.ProxyID, float64) float64
	collectFn   func(collide.ProxyID) bool
}

// init binds the state to its simulation.
func (q *queryState) init(s *Simulation) {
	q.sim = s
	q.stale = true
	q.refreshFn = q.refreshBody
}

// RefreshQueries makes the world queries see every body as its components are now (new bodies,
// poses the game has changed), instead of as they were at the first query after the last step.
// It costs one pass over the bodies. It refuses to run during Step.
func (s *Simulation) RefreshQueries() error {
	if s.stepping {
		return fieldError("RefreshQueries", "must not be called during Step (from a contact filter)")
	}
	return s.queries.refresh()
}

// begin readies a query named op: it refuses one made during Step and refreshes stale records.
func (q *queryState) begin(op string) error {
	if q.sim.stepping {
		return fieldError(op, "must not be called during Step (from a contact filter)")
	}
	if q.stale {
		return q.refresh()
	}
	return nil
}

// refresh records every body's collider and places it in the broad phase.
func (q *queryState) refresh() error {
	q.gen++
	q.stale = false
	if err := q.sim.bodies.Each(q.refreshFn); err != nil {
		return fmt.Errorf("physics: %w", err)
	}
	return q.refreshDeformables()
}

// refreshBody is the refresh's query callback. A body or collider the next step would refuse is
// left out (the step reports it).
func (q *queryState) refreshBody(e ecs.Entity, b *RigidBody) {
	s := q.sim
	collider, _ := ecs.Get[Collider](s.world, e)
	if collider == nil || collider.Shape == nil || collider.validate() != nil || b.validateState() != nil {
		return
	}
	pose := collide.Pose{Position: b.Position, Rotation: unitOrientation(b.Orientation)}
	var displacement mgl64.Vec3
	if b.Kind != Static {
		// What the next step's gather will use, so that gather finds the entry already placed.
		displacement = b.LinearVelocity.Mul(s.h)
	}
	c := s.collision
	id, err := c.place(e, b, collider, collider.Shape.Bounds(pose), displacement)
	if err != nil {
		return
	}
	layer, _ := collider.layers()
	c.proxies[id].query = queryRecord{gen: q.gen, shape: collider.Shape, pose: pose, layer: layer, sensor: collider.Sensor}
}

// unitOrientation returns q as RigidBody's normalisation leaves it: the identity for zero, q/|q|
// otherwise.
func unitOrientation(q mgl64.Quat) mgl64.Quat {
	n := math.Sqrt(q.W*q.W + q.V.Dot(q.V))
	switch {
	case n == 0:
		return mgl64.QuatIdent()
	case n != 1:
		return mgl64.Quat{W: q.W / n, V: q.V.Mul(1 / n)}
	}
	return q
}

// acquire returns the scratch of the current nesting level; release must follow.
func (q *queryState) acquire() *queryScratch {
	if q.depth == len(q.scratch) {
		sc := &queryScratch{sim: q.sim}
		sc.rayFn = sc.visitRay
		sc.collectFn = sc.collect
		q.scratch = append(q.scratch, sc)
	}
	sc := q.scratch[q.depth]
	q.depth++
	return sc
}

// release ends the query that acquired the current level's scratch.
func (q *queryState) release() { q.depth-- }

// visible returns the collider of broad-phase entry id if the query's filter sees it.
func (sc *queryScratch) visible(id collide.ProxyID) (*proxyRecord, bool) {
	s := sc.sim
	r := &s.collision.proxies[id]
	f := &sc.filter
	if !r.alive || r.query.gen != s.queries.gen || r.owner == f.Exclude || (r.query.sensor && !f.Sensors) {
		return nil, false
	}
	if f.Mask != 0 && r.query.layer&f.Mask == 0 {
		return nil, false
	}
	return r, s.world.Alive(r.owner)
}

// CastRay casts a ray from origin along direction (any non-zero length) up to maxDistance metres
// (+Inf for no limit) and returns the first collider or deformable surface it meets that filter
// sees, and whether it met one (deformables: query_deformable.go). Of colliders hit at the same distance, the one with the lower broad-phase entry wins, so
// the answer does not depend on the broad-phase tree's shape. A ray that starts inside a collider hits it at distance 0. See QueryFilter and, for which
// poses a query sees, docs/architecture.md, World queries. It refuses a non-finite origin or
// direction, a zero direction and a negative or NaN maxDistance with a *FieldError naming the
// argument, and any call during Step. A warm CastRay does not allocate.
func (s *Simulation) CastRay(origin, direction mgl64.Vec3, maxDistance float64, filter QueryFilter) (RayHit, bool, error) {
	if !finiteVec(origin) {
		return RayHit{}, false, fieldError("CastRay origin", "must be finite, got %v", origin)
	}
	d, err := unitDirection("CastRay direction", direction)
	if err != nil {
		return RayHit{}, false, err
	}
	if math.IsNaN(maxDistance) || maxDistance < 0 {
		return RayHit{}, false, fieldError("CastRay maxDistance", "must be >= 0 (+Inf for no limit), got %v", maxDistance)
	}
	if err := s.queries.begin("CastRay"); err != nil {
		return RayHit{}, false, err
	}
	sc := s.queries.acquire()
	defer s.queries.release()
	sc.filter, sc.origin, sc.dir = filter, origin, d
	sc.found, sc.bestID = false, -1
	if err := s.collision.broad.RayCast(origin, d, maxDistance, sc.rayFn); err != nil {
		return RayHit{}, false, fmt.Errorf("physics: CastRay: %w", err)
	}
	sc.rayDeformables(maxDistance)
	return sc.best, sc.found, nil
}

// visitRay is CastRay's broad-phase visitor: it casts the ray against entry id's collider up to
// limit and returns the new limit.
func (sc *queryScratch) visitRay(id collide.ProxyID, limit float64) float64 {
	r, ok := sc.visible(id)
	if !ok {
		return limit
	}
	// The shape was validated and the pose is finite and unit, so RayCast cannot fail.
	h, hit, err := collide.RayCast(r.query.shape, r.query.pose, sc.origin, sc.dir, limit)
	if err != nil || !hit {
		return limit
	}
	if sc.found && (h.T > sc.best.Distance || (h.T == sc.best.Distance && id > sc.bestID)) {
		return limit
	}
	sc.best = RayHit{Entity: r.owner, Point: h.Point, Normal: h.Normal, Distance: h.T, Feature: h.Feature}
	sc.bestID, sc.found = id, true
	return h.T
}

// collect is the broad-phase visitor of CastShape and Overlap: it lists the entries the filter
// sees.
func (sc *queryScratch) collect(id collide.ProxyID) bool {
	if _, ok := sc.visible(id); ok {
		sc.candidates = append(sc.candidates, id)
	}
	return true
}

// gatherCandidates lists, in proxy order, the entries whose broad-phase boxes overlap box and
// that the filter sees. Proxy order (the order bodies entered the simulation, ids of removed
// ones reused) does not depend on the tree's shape.
func (sc *queryScratch) gatherCandidates(box collide.AABB) {
	sc.candidates = sc.candidates[:0]
	sc.sim.collision.broad.Query(box, sc.collectFn)
	slices.Sort(sc.candidates)
}

// CastShape sweeps shape from pose along direction (any non-zero length) up to maxDistance metres
// and returns the first collider or deformable surface it touches that filter sees, and whether it
// touched one. The
// shape translates without turning. shape must be a Sphere, Box, Capsule, Cylinder,
// ConvexHull or Compound; it may be placed against any collider. Each candidate found through the broad phase
// is approached by conservative advancement: the shape moves to the plane that separates it from
// the collider (or, when either is a compound, triangle mesh or SDF grid, by the distance between
// them) until the two are within ShapeCastTolerance, so the reported distance is never past the
// contact. An SDF grid's gap is the narrow phase's estimate from sample points of the shape and
// the grid's interpolated field, so against one the distance is as accurate as that estimate.
// Ties are broken as in CastRay.
//
// It refuses a nil or invalid shape or one of another kind, a non-finite pose (a zero rotation
// means the identity; others are normalised), a non-finite or zero direction and a negative or
// non-finite maxDistance with a *FieldError naming the argument, and any call during Step.
func (s *Simulation) CastShape(shape collide.Shape, pose collide.Pose, direction mgl64.Vec3, maxDistance float64, filter QueryFilter) (ShapeHit, bool, error) {
	pose, err := checkQueryShape("CastShape", shape, pose)
	if err != nil {
		return ShapeHit{}, false, err
	}
	d, err := unitDirection("CastShape direction", direction)
	if err != nil {
		return ShapeHit{}, false, err
	}
	if !finite(maxDistance) || maxDistance < 0 {
		return ShapeHit{}, false, fieldError("CastShape maxDistance", "must be finite and >= 0, got %v", maxDistance)
	}
	if err := s.queries.begin("CastShape"); err != nil {
		return ShapeHit{}, false, err
	}
	sc := s.queries.acquire()
	defer s.queries.release()
	sc.filter = filter
	start := shape.Bounds(pose)
	swept := start.Union(start.Translate(d.Mul(maxDistance)))
	sc.gatherCandidates(swept)
	var best ShapeHit
	found := false
	limit := maxDistance
	for _, id := range sc.candidates {
		r := &s.collision.proxies[id]
		h, hit, err := sc.sweep(shape, pose, d, limit, r.query.shape, r.query.pose)
		if err != nil {
			return ShapeHit{}, false, withEntity(r.owner, fmt.Errorf("physics: CastShape: %w", err))
		}
		if hit && (!found || h.Distance < best.Distance) {
			h.Entity = r.owner
			best, found, limit = h, true, h.Distance
		}
	}
	return sc.castShapeDeformables(shape, pose, d, swept, best, found, limit)
}

// sweep advances shape from pose along the unit direction d towards other until they touch
// (within ShapeCastTolerance) or it has gone limit metres.
func (sc *queryScratch) sweep(shape collide.Shape, pose collide.Pose, d mgl64.Vec3, limit float64, other collide.Shape, otherPose collide.Pose) (ShapeHit, bool, error) {
	// A compound, swept or hit, is no convex shape either: the deepest point's normal need not
	// separate its other children.
	convex := true
	switch other.(type) {
	case *collide.TriangleMesh, *collide.SDFGrid, *collide.Compound:
		convex = false
	}
	if _, ok := shape.(*collide.Compound); ok {
		convex = false
	}
	t := 0.0
	at := pose
	for iter := 0; ; iter++ {
		at.Position = madd(pose.Position, d, t)
		// Shapes farther apart than what is left of the sweep cannot meet: the look-ahead of
		// Collide is that distance.
		hit, err := collide.Collide(shape, at, other, otherPose, limit-t+ShapeCastTolerance, nil, &sc.manifold)
		if err != nil || !hit {
			return ShapeHit{}, false, err
		}
		k := 0
		for i := 1; i < sc.manifold.Count; i++ {
			if sc.manifold.Points[i].Gap < sc.manifold.Points[k].Gap {
				k = i
			}
		}
		c := &sc.manifold.Points[k]
		if c.Gap <= ShapeCastTolerance || iter == maxSweepIterations {
			return ShapeHit{Point: c.Point, Normal: c.Normal.Mul(-1), Distance: t}, true, nil
		}
		// The normal (from the shape to the collider) separates two convex shapes by c.Gap, and
		// the shape closes on that plane at d·n per metre travelled, so it cannot touch before
		// c.Gap/(d·n) more; moving away from the plane, it never does. A non-convex collider's
		// normal separates nothing, but no point moves faster than 1 per metre.
		rate := 1.0
		if convex {
			rate = d.Dot(c.Normal)
			if rate <= 0 {
				return ShapeHit{}, false, nil
			}
		}
		t += c.Gap / rate
		if t > limit {
			return ShapeHit{}, false, nil
		}
	}
}

// Overlap calls visit with every body whose collider, seen by filter, touches or overlaps shape
// placed at pose, in the order of their broad-phase entries (fixed by the order the bodies entered
// the simulation, not by the tree's shape), then every deformable whose surface it touches or
// crosses; visit returns false to stop. shape must be a Sphere,
// Box, Capsule, Cylinder, ConvexHull or Compound. visit may run queries of its own; it must not call Step.
// It refuses a nil visit, a nil or invalid shape or one of another kind and a non-finite pose (a
// zero rotation means the identity; others are normalised) with a *FieldError naming the
// argument, and any call during Step.
func (s *Simulation) Overlap(shape collide.Shape, pose collide.Pose, filter QueryFilter, visit func(ecs.Entity) bool) error {
	if visit == nil {
		return fieldError("Overlap visit", "must not be nil")
	}
	pose, err := checkQueryShape("Overlap", shape, pose)
	if err != nil {
		return err
	}
	if err := s.queries.begin("Overlap"); err != nil {
		return err
	}
	sc := s.queries.acquire()
	defer s.queries.release()
	sc.filter = filter
	sc.gatherCandidates(shape.Bounds(pose))
	for _, id := range sc.candidates {
		r := &s.collision.proxies[id]
		owner := r.owner
		if !s.world.Alive(owner) {
			continue // despawned by an earlier visit
		}
		hit, err := collide.Collide(shape, pose, r.query.shape, r.query.pose, 0, nil, &sc.manifold)
		if err != nil {
			return withEntity(owner, fmt.Errorf("physics: Overlap: %w", err))
		}
		if hit && !visit(owner) {
			return nil
		}
	}
	return sc.overlapDeformables(shape, pose, visit)
}

// checkQueryShape refuses a query shape CastShape and Overlap cannot place against every
// collider, and a non-finite pose; it returns the pose with a unit rotation.
func checkQueryShape(op string, shape collide.Shape, pose collide.Pose) (collide.Pose, error) {
	switch shape.(type) {
	case *collide.Sphere, *collide.Box, *collide.Capsule, *collide.Cylinder, *collide.ConvexHull, *collide.Compound:
	case nil:
		return pose, fieldError(op+" shape", "must not be nil")
	default:
		return pose, fieldError(op+" shape", "must be a Sphere, Box, Capsule, Cylinder, ConvexHull or Compound, got %v", shape.Kind())
	}
	if err := shape.(validator).Validate(); err != nil {
		return pose, fieldError(op+" shape", "%v", err)
	}
	if !finiteVec(pose.Position) {
		return pose, fieldError(op+" pose.Position", "must be finite, got %v", pose.Position)
	}
	if !finiteQuat(pose.Rotation) {
		return pose, fieldError(op+" pose.Rotation", "must be finite, got %v", pose.Rotation)
	}
	pose.Rotation = unitOrientation(pose.Rotation)
	return pose, nil
}

// unitDirection returns v normalised, refusing a non-finite or zero v as the argument name.
func unitDirection(name string, v mgl64.Vec3) (mgl64.Vec3, error) {
	if !finiteVec(v) {
		return v, fieldError(name, "must be finite, got %v", v)
	}
	n := v.Len()
	if !(n > 0) || !finite(n) {
		return v, fieldError(name, "must be non-zero and finite, got %v", v)
	}
	return v.Mul(1 / n), nil
}

// madd returns a + s·b.
func madd(a, b mgl64.Vec3, s float64) mgl64.Vec3 {
	return mgl64.Vec3{a[0] + s*b[0], a[1] + s*b[1], a[2] + s*b[2]}
}
