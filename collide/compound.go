package collide

import (
	"errors"
	"math"
	"strconv"

	"github.com/go-gl/mathgl/mgl64"
)

// MaxCompoundChildren is the most children a Compound may have. It also fixes the width of the
// child index inside a compound's contact features (see Compound).
const MaxCompoundChildren = 64

// compoundChildShift is the bit of a Feature's index where a compound stores the child index;
// the child's own feature index keeps the bits below it.
const compoundChildShift = 24

// compoundChildMask selects a child's own feature index inside a compound feature.
const compoundChildMask = 1<<compoundChildShift - 1

// CompoundChild is one part of a Compound: a bounded convex shape placed by Pose in the
// compound's local frame.
type CompoundChild struct {
	Shape Shape
	Pose  Pose
}

// Compound is a rigid union of bounded convex shapes (Sphere, Box, Capsule, ConvexHull), each
// placed at its own pose in the compound's frame: a table of a top and four legs, a dumbbell, an
// L-shaped bracket. Build it with NewCompound or NewCompoundCentered; a zero Compound is invalid.
// It is immutable, and its children's shapes must not be changed after it is built.
//
// Children may overlap. The compound then counts the overlap twice in Volume and
// MassProperties (model such parts so that they only touch). SignedDistance inside is the depth
// in the child that covers the point deepest, which is short of the union's depth where the
// nearest face of that child lies against or inside another child.
//
// Features for contact feature ids and ray hits: feature f of child i is
// CompoundFeature(i, f), the child index stored above the child's own feature index;
// SplitCompoundFeature recovers both.
type Compound struct {
	children []CompoundChild
	local    AABB // bounds at the identity pose
	volume   float64
}

// NewCompound builds a compound of children, which keep their poses: its local frame is the
// frame those poses are given in. There must be 1 to MaxCompoundChildren children, each a valid
// Sphere, Box, Capsule, Cylinder or ConvexHull (no half-space, mesh, grid or nested compound) at a finite
// pose with a unit rotation (within 1e-6); otherwise a *FieldError names the child and field,
// e.g. "Compound.Children[2].Pose.Rotation".
//
// The compound's centre of mass is where its children's mass lies, generally off its origin; a
// dynamic body needs it at the origin (physics refuses such a collider), so build a dynamic
// body's compound with NewCompoundCentered.
func NewCompound(children []CompoundChild) (*Compound, error) {
	c := &Compound{children: append([]CompoundChild(nil), children...)}
	if err := c.Validate(); err != nil {
		return nil, err
	}
	c.local = c.boundsAt(IdentityPose())
	for _, ch := range c.children {
		c.volume += ch.Shape.Volume()
	}
	return c, nil
}

// NewCompoundCentered builds the compound of children moved so that its centre of mass (for a
// uniform density) is at the local origin, as dynamic bodies require, and returns the offset
// that was subtracted from every child's position: the compound placed at pose p covers the
// original children placed at p.Mul(Pose{Position: offset}).
func NewCompoundCentered(children []CompoundChild) (*Compound, mgl64.Vec3, error) {
	c, err := NewCompound(children)
	if err != nil {
		return nil, mgl64.Vec3{}, err
	}
	mp, err := c.MassProperties(1)
	if err != nil {
		return nil, mgl64.Vec3{}, err
	}
	off := mp.CenterOfMass
	for i := range c.children {
		c.children[i].Pose.Position = c.children[i].Pose.Position.Sub(off)
	}
	c.local = c.boundsAt(IdentityPose())
	return c, off, nil
}

// compoundChildAllowed reports whether s is of a kind a compound may hold: a bounded convex
// shape with a contact routine against every other shape.
func compoundChildAllowed(s Shape) bool {
	switch s.(type) {
	case *Sphere, *Box, *Capsule, *Cylinder, *ConvexHull:
		return true
	}
	return false
}

// Validate checks that c has 1 to MaxCompoundChildren children, each an allowed, valid shape at
// a finite pose with a unit rotation (and that c is not nil). The zero Compound, with no
// children, fails.
func (c *Compound) Validate() error {
	if c == nil {
		return fieldErrorf("Compound", "must not be nil")
	}
	if len(c.children) == 0 {
		return fieldErrorf("Compound.Children", "must hold at least one child (build with NewCompound)")
	}
	if len(c.children) > MaxCompoundChildren {
		return fieldErrorf("Compound.Children", "has %d children, at most %d are allowed", len(c.children), MaxCompoundChildren)
	}
	for i := range c.children {
		if err := validateCompoundChild(&c.children[i]); err != nil {
			return childError(i, err)
		}
	}
	return nil
}

// validateCompoundChild checks one child; its errors name fields relative to the child.
func validateCompoundChild(ch *CompoundChild) error {
	s := ch.Shape
	if s == nil {
		return fieldErrorf("Shape", "must not be nil")
	}
	if !compoundChildAllowed(s) {
		return fieldErrorf("Shape", "must be a Sphere, Box, Capsule, Cylinder or ConvexHull, got %v", s.Kind())
	}
	if err := s.(interface{ Validate() error }).Validate(); err != nil {
		return shapeFieldError(err)
	}
	if err := ch.Pose.Validate(); err != nil {
		var fe *FieldError
		if errors.As(err, &fe) {
			return fe
		}
		return fieldErrorf("Pose", "is invalid: %v", err)
	}
	return nil
}

// shapeFieldError names the field "Shape" in err, an error of a child's shape.
func shapeFieldError(err error) error {
	var fe *FieldError
	if errors.As(err, &fe) {
		return &FieldError{Field: "Shape (" + fe.Field + ")", Reason: fe.Reason}
	}
	return fieldErrorf("Shape", "is invalid: %v", err)
}

// childError prefixes the field of a child's error with "Compound.Children[i].".
func childError(i int, err error) error {
	prefix := "Compound.Children[" + strconv.Itoa(i) + "]."
	var fe *FieldError
	if errors.As(err, &fe) {
		return &FieldError{Field: prefix + fe.Field, Reason: fe.Reason}
	}
	return fieldErrorf(prefix[:len(prefix)-1], "is invalid: %v", err)
}

// Kind returns KindCompound.
func (c *Compound) Kind() ShapeKind { return KindCompound }

// NumChildren returns the number of children.
func (c *Compound) NumChildren() int { return len(c.children) }

// Child returns child i (its shape and its pose in the compound's frame). It panics if i is out
// of range.
func (c *Compound) Child(i int) CompoundChild {
	checkIndex("Compound.Child", i, len(c.children))
	return c.children[i]
}

// childPose returns the world pose of child i of the compound placed at pose.
func (c *Compound) childPose(pose Pose, i int) Pose {
	return composePose(pose, c.children[i].Pose)
}

// composePose is p.Mul(q), except that a zero rotation of p acts as the identity (as the zero
// Pose does everywhere) instead of wiping out q's rotation.
func composePose(p, q Pose) Pose {
	if p.Rotation == (mgl64.Quat{}) {
		return Pose{Position: p.Position.Add(q.Position), Rotation: q.Rotation}
	}
	return p.Mul(q)
}

// Bounds returns the union of the children's world boxes; the zero Compound gives the point box
// at the pose's position.
func (c *Compound) Bounds(pose Pose) AABB {
	if len(c.children) == 0 {
		return AABB{Min: pose.Position, Max: pose.Position}
	}
	return c.boundsAt(pose)
}

// boundsAt returns the union of the children's boxes at pose (at least one child).
func (c *Compound) boundsAt(pose Pose) AABB {
	box := c.children[0].Shape.Bounds(c.childPose(pose, 0))
	for i := 1; i < len(c.children); i++ {
		box = box.Union(c.children[i].Shape.Bounds(c.childPose(pose, i)))
	}
	return box
}

// Volume returns the sum of the children's volumes (overlaps count twice; 0 for the zero
// Compound).
func (c *Compound) Volume() float64 { return c.volume }

// MassProperties combines the children's: the total mass, the mass-weighted centre of mass, and
// the inertia about that centre, the sum of each child's inertia turned to the compound's axes
// (R·I·Rᵀ) and moved to the common centre by the parallel-axis theorem, m(|d|²E − d·dᵀ).
func (c *Compound) MassProperties(density float64) (MassProperties, error) {
	if err := c.Validate(); err != nil {
		return MassProperties{}, err
	}
	if err := checkDensity(density); err != nil {
		return MassProperties{}, err
	}
	var parts [MaxCompoundChildren]MassProperties
	total := 0.0
	var moment mgl64.Vec3
	for i, ch := range c.children {
		mp, err := ch.Shape.MassProperties(density)
		if err != nil {
			return MassProperties{}, childError(i, shapeFieldError(err))
		}
		r := ch.Pose.Matrix()
		mp.CenterOfMass = ch.Pose.Apply(mp.CenterOfMass)
		mp.Inertia = r.Mul3(mp.Inertia).Mul3(r.Transpose())
		parts[i] = mp
		total += mp.Mass
		moment = madd(moment, mp.CenterOfMass, mp.Mass)
	}
	com := moment.Mul(1 / total)
	var inertia mgl64.Mat3
	for i := range c.children {
		mp := &parts[i]
		d := mp.CenterOfMass.Sub(com)
		shift := mgl64.Ident3().Mul(d.Dot(d)).Sub(d.OuterProd3(d)).Mul(mp.Mass)
		inertia = inertia.Add(mp.Inertia).Add(shift)
	}
	// Round-off in R·I·Rᵀ leaves the tensor slightly asymmetric; average it out.
	inertia = inertia.Add(inertia.Transpose()).Mul(0.5)
	return MassProperties{Mass: total, CenterOfMass: com, Inertia: inertia}, nil
}

// Support returns the support point of the child that reaches furthest along d (the first such
// child among ties). For d = 0 or a non-finite d it returns the support point along +z, a
// point of the compound's surface.
func (c *Compound) Support(d mgl64.Vec3) mgl64.Vec3 {
	if len(c.children) == 0 {
		return mgl64.Vec3{}
	}
	if !isFiniteVec(d) || d == (mgl64.Vec3{}) {
		d = mgl64.Vec3{0, 0, 1}
	}
	var best mgl64.Vec3
	bestDot := math.Inf(-1)
	for i := range c.children {
		ch := &c.children[i]
		p := ch.Pose.Apply(ch.Shape.Support(ch.Pose.InverseRotate(d)))
		if v := p.Dot(d); v > bestDot {
			best, bestDot = p, v
		}
	}
	return best
}

// SignedDistance returns the smallest of the children's signed distances and that child's
// normal. Outside the compound this is its exact distance. Inside, it is the depth in the child
// that covers the point deepest: exact unless that child's nearest face lies against or inside
// another child, where the union reaches deeper. A point with a NaN coordinate is reported at
// +Inf with normal +z.
func (c *Compound) SignedDistance(p mgl64.Vec3) (float64, mgl64.Vec3) {
	if len(c.children) == 0 || hasNaN(p) {
		return pointDistance(p)
	}
	best, normal := math.Inf(1), mgl64.Vec3{0, 0, 1}
	for i := range c.children {
		ch := &c.children[i]
		d, n := ch.Shape.SignedDistance(ch.Pose.ApplyInverse(p))
		if d < best {
			best, normal = d, ch.Pose.Rotate(n)
		}
	}
	return best, normal
}

// rayCastLocal intersects a ray with every child and keeps the nearest entry; the feature is
// tagged with the child hit.
func (c *Compound) rayCastLocal(o, d mgl64.Vec3, maxT float64) (float64, mgl64.Vec3, Feature, bool) {
	hit := false
	var bestT float64
	var bestN mgl64.Vec3
	var bestF Feature
	limit := maxT
	for i := range c.children {
		ch := &c.children[i]
		rc, ok := ch.Shape.(localRayCaster)
		if !ok {
			continue
		}
		t, n, f, ok := rc.rayCastLocal(ch.Pose.ApplyInverse(o), ch.Pose.InverseRotate(d), limit)
		if !ok || (hit && t >= bestT) {
			continue
		}
		hit, bestT, bestN, bestF, limit = true, t, ch.Pose.Rotate(n), CompoundFeature(i, f), t
		if t == 0 {
			break // the ray starts inside this child
		}
	}
	return bestT, bestN, bestF, hit
}

// CompoundFeature returns the compound's feature for feature f of child i: the child index is
// stored in the index bits above the child's own index (which keeps its low 24 bits).
func CompoundFeature(child int, f Feature) Feature {
	return makeFeature(f.Type(), child<<compoundChildShift|f.Index()&compoundChildMask)
}

// SplitCompoundFeature is the inverse of CompoundFeature: the child index and the child's own
// feature.
func SplitCompoundFeature(f Feature) (child int, childFeature Feature) {
	return f.Index() >> compoundChildShift, makeFeature(f.Type(), f.Index()&compoundChildMask)
}
