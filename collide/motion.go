package collide

import "github.com/go-gl/mathgl/mgl64"

// Motion is how a shape is expected to move before its contacts are next computed (over a
// simulation step): Linear is the displacement of its pose's Position, m, and Angular the
// rotation vector about that point, rad (angular velocity times the step). The zero Motion is
// a shape at rest.
//
// CollideMoving uses it only to choose which points a manifold keeps: a point the pair's
// motion would carry through the other shape within the step is kept even when the largest
// contact area would leave it out (see candidates.emit). Gaps and normals are those of the
// poses as given.
type Motion struct {
	Linear  mgl64.Vec3
	Angular mgl64.Vec3
}

// displacement returns how far the point p of a shape whose pose's Position is origin moves.
func (m Motion) displacement(origin, p mgl64.Vec3) mgl64.Vec3 {
	return m.Linear.Add(m.Angular.Cross(p.Sub(origin)))
}

// about returns the same motion described about the point to instead of from (a compound's
// child about its own pose's Position).
func (m Motion) about(from, to mgl64.Vec3) Motion {
	return Motion{Linear: m.displacement(from, to), Angular: m.Angular}
}

// pairMotion is the motion of a pair in dispatch order, with the pose origins the motions are
// about. Candidates are ranked by it while a routine runs (Manifold.motion).
type pairMotion struct {
	a, b             Motion
	originA, originB mgl64.Vec3
}

// predictedGap returns the gap of contact c after the pair's motion: its gap plus the normal
// component of B's displacement at the point relative to A's (negative when they approach).
func (pm *pairMotion) predictedGap(c *Contact) float64 {
	d := pm.b.displacement(pm.originB, c.Point).Sub(pm.a.displacement(pm.originA, c.Point))
	return c.Gap + d.Dot(c.Normal)
}

// turnReach returns how far the pair's rotations over the step move point p: the sum over the
// two shapes of |θ × (p − origin)|, a bound on the normal displacement either turn can give p.
func (pm *pairMotion) turnReach(p mgl64.Vec3) float64 {
	return pm.a.Angular.Cross(p.Sub(pm.originA)).Len() + pm.b.Angular.Cross(p.Sub(pm.originB)).Len()
}

// reaches reports whether the pair's motion can close contact c within the step: its predicted
// gap, less how far the two turns can move its point, is at most 0.
func (pm *pairMotion) reaches(c *Contact) bool {
	return pm.predictedGap(c)-pm.turnReach(c.Point) <= 0
}
