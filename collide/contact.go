package collide

import (
	"math"

	"github.com/go-gl/mathgl/mgl64"
)

// MaxManifoldPoints is the most contact points a Manifold holds: the quadPoints a reduction
// keeps for area, and the corners of the contact region that a turning pair could drive through
// within the step (see candidates.emit).
const MaxManifoldPoints = 8

// quadPoints is how many points a reduction chooses by area (the four spanning the largest
// area hold a resting contact region).
const quadPoints = 4

// Contact is one contact point of a pair (A, B).
type Contact struct {
	// Point is in world space, midway between the two surfaces.
	Point mgl64.Vec3
	// Normal is the unit contact normal from A to B.
	Normal mgl64.Vec3
	// Gap is the signed distance between the surfaces along Normal: negative when they
	// interpenetrate, positive for a speculative contact within the margin.
	Gap float64
	// Feature names the features of A and B that made the point.
	Feature FeatureID
}

// PointOnA returns the world point on A's surface: Point − Normal·Gap/2.
func (c *Contact) PointOnA() mgl64.Vec3 { return madd(c.Point, c.Normal, -0.5*c.Gap) }

// PointOnB returns the world point on B's surface: Point + Normal·Gap/2.
func (c *Contact) PointOnB() mgl64.Vec3 { return madd(c.Point, c.Normal, 0.5*c.Gap) }

// ReferenceKind says which feature pair chose a manifold's normal.
type ReferenceKind uint8

// The reference kinds.
const (
	// ReferenceNone: no reference feature recorded (or no contact).
	ReferenceNone ReferenceKind = iota
	// ReferenceFaceA: a face of A, with B's incident face.
	ReferenceFaceA
	// ReferenceFaceB: a face of B, with A's incident face.
	ReferenceFaceB
	// ReferenceEdges: an edge of A against an edge of B.
	ReferenceEdges
)

// Reference records the feature pair whose axis became a manifold's normal. The pair routines
// read the previous step's Reference to prefer the same reference face when it is still
// nearly as good, so manifolds do not flicker between equivalent faces.
type Reference struct {
	Kind ReferenceKind
	// A and B are the features of A and of B in the pair: for ReferenceFaceA, A is the
	// reference face and B the incident face; for ReferenceFaceB the other way round; for
	// ReferenceEdges the two edges. An unused feature is zero (FeatureNone).
	A, B Feature
}

// swap exchanges the roles of A and B.
func (r Reference) swap() Reference {
	switch r.Kind {
	case ReferenceFaceA:
		r.Kind = ReferenceFaceB
	case ReferenceFaceB:
		r.Kind = ReferenceFaceA
	}
	r.A, r.B = r.B, r.A
	return r
}

// Manifold is the contact set of one pair (A, B): up to MaxManifoldPoints points, most often
// sharing one contact normal (a triangle mesh and a tilted separated pair give per-point normals;
// see Normal and Contact.Normal). It is a fixed-size value so the narrow phase never allocates.
type Manifold struct {
	// Normal is the unit normal from A to B. For convex pairs every point's Normal equals it,
	// except in the manifold of a separated pair whose closest points lie along no face's normal,
	// whose points each keep the direction of their own closest points (tiltedContacts).
	Normal mgl64.Vec3
	// Points holds Count valid contacts.
	Points [MaxManifoldPoints]Contact
	// Count is the number of valid entries of Points.
	Count int
	// Reference records the feature pair that chose Normal (for hysteresis next step).
	Reference Reference

	// motion is the pair's motion while a pair routine fills the manifold (the candidates'
	// reduction reads it; collideOrdered clears it before returning).
	motion pairMotion
}

// Contacts returns the valid points as a slice of the manifold's array.
func (m *Manifold) Contacts() []Contact { return m.Points[:m.Count] }

// Reset empties the manifold.
func (m *Manifold) Reset() { *m = Manifold{} }

// MinGap returns the smallest gap of the manifold, or +Inf when it is empty.
func (m *Manifold) MinGap() float64 {
	g := math.Inf(1)
	for i := 0; i < m.Count; i++ {
		if m.Points[i].Gap < g {
			g = m.Points[i].Gap
		}
	}
	return g
}

// add appends a contact if there is room, reporting success.
func (m *Manifold) add(c Contact) bool {
	if m.Count >= MaxManifoldPoints {
		return false
	}
	m.Points[m.Count] = c
	m.Count++
	return true
}

// swap turns a manifold for (B, A) into the manifold for (A, B): normals flip, features and
// reference swap, points and gaps are unchanged.
func (m *Manifold) swap() {
	m.Normal = m.Normal.Mul(-1)
	for i := 0; i < m.Count; i++ {
		c := &m.Points[i]
		c.Normal = c.Normal.Mul(-1)
		c.Feature = c.Feature.Swap()
	}
	m.Reference = m.Reference.swap()
}
