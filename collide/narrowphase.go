package collide

// Collide finds the contacts between shape a placed at pa and shape b placed at pb and writes
// them to out (which is reset first). It reports whether out holds at least one contact.
//
// Every point of the manifold has a gap <= margin: margin >= 0 is the speculative distance,
// pairs closer than it report contacts with positive gap. The normal points from a to b.
// prev, if not nil, is the manifold the same pair (same order) produced last step; pair
// routines that choose a reference face prefer the previous one while it is nearly as good, so
// manifolds and feature ids do not flicker. prev and out may be the same manifold.
//
// A Compound on either side (or both) meets the other shape child by child; the points of all
// child pairs are pooled and reduced to one manifold, their features naming the child
// (CompoundFeature).
//
// Errors: a nil shape or one that fails its Validate method (the zero value of a ConvexHull,
// TriangleMesh or SDFGrid, say: see Shape), a non-finite pose, a negative or non-finite margin,
// or a pair that has no routine (two half-spaces, two triangle meshes: such pairs are
// static–static and the broad phase never reports them). On an error out is empty.
func Collide(a Shape, pa Pose, b Shape, pb Pose, margin float64, prev *Manifold, out *Manifold) (bool, error) {
	return CollideMoving(a, pa, Motion{}, b, pb, Motion{}, margin, prev, out)
}

// CollideMoving is Collide for shapes that move over the step the contacts are for: ma and mb are
// the motions of a and b (see Motion). Of the candidate points beyond MaxManifoldPoints, the
// manifold keeps the one the relative motion would carry deepest, if the motion carries it
// through the other shape (its gap after the motion is negative), besides the deepest point and
// those spanning the largest area: a hull turning onto the ground about one corner sinks at the
// corner turning down otherwise. The points, gaps and normal are those of the poses pa and pb.
// Errors are Collide's, and a non-finite motion.
func CollideMoving(a Shape, pa Pose, ma Motion, b Shape, pb Pose, mb Motion, margin float64, prev *Manifold, out *Manifold) (bool, error) {
	if out == nil {
		return false, fieldErrorf("out", "must not be nil")
	}
	var prevCopy Manifold
	if prev != nil {
		prevCopy = *prev
		prev = &prevCopy
	}
	out.Reset()
	if err := checkPairInput(a, pa, b, pb, margin); err != nil {
		return false, err
	}
	if err := checkMotion("ma", ma); err != nil {
		return false, err
	}
	if err := checkMotion("mb", mb); err != nil {
		return false, err
	}
	if err := collideOrdered(a, pa, ma, b, pb, mb, margin, prev, out); err != nil {
		out.Reset()
		return false, err
	}
	return out.Count > 0, nil
}

// collideOrdered runs the routine for the checked pair (a, b), swapping the shapes into the order
// the routines take and the result back. prev, if not nil, is the caller's copy: it may be
// swapped in place.
func collideOrdered(a Shape, pa Pose, ma Motion, b Shape, pb Pose, mb Motion, margin float64, prev *Manifold, out *Manifold) error {
	swapped := pairSwapped(a, pa, b, pb)
	if swapped {
		a, b = b, a
		pa, pb = pb, pa
		ma, mb = mb, ma
		if prev != nil {
			prev.swap()
		}
	}
	out.motion = pairMotion{a: ma, b: mb, originA: pa.Position, originB: pb.Position}
	defer func() { out.motion = pairMotion{} }()
	var err error
	if c, ok := a.(*Compound); ok {
		err = compoundPair(c, pa, b, pb, margin, prev, out)
	} else {
		err = dispatchPair(a, pa, b, pb, margin, prev, out)
	}
	if err != nil {
		return err
	}
	if swapped {
		out.swap()
	}
	return nil
}

// pairSwapped reports whether (a, b) must be swapped for dispatch: a compound goes first (its
// children then meet the other shape in their own order), other shapes go by pairRank, and two
// shapes of the same rank by sameRankAfter.
func pairSwapped(a Shape, pa Pose, b Shape, pb Pose) bool {
	_, ca := a.(*Compound)
	_, cb := b.(*Compound)
	if ca != cb {
		return cb
	}
	ra, rb := pairRank(a.Kind()), pairRank(b.Kind())
	return ra > rb || (ra == rb && sameRankAfter(a, pa, b, pb))
}

// checkPairInput refuses nil or invalid shapes, non-finite poses and bad margins.
func checkPairInput(a Shape, pa Pose, b Shape, pb Pose, margin float64) error {
	if err := checkShape("a", a); err != nil {
		return err
	}
	if err := checkShape("b", b); err != nil {
		return err
	}
	if err := checkPoseFinite("pa", pa); err != nil {
		return err
	}
	if err := checkPoseFinite("pb", pb); err != nil {
		return err
	}
	if !isFinite(margin) || margin < 0 {
		return fieldErrorf("margin", "must be finite and >= 0, got %v", margin)
	}
	return nil
}

// checkMotion refuses a motion with a non-finite component.
func checkMotion(name string, m Motion) error {
	if !isFiniteVec(m.Linear) {
		return fieldErrorf(name+".Linear", "must be finite, got %v", m.Linear)
	}
	if !isFiniteVec(m.Angular) {
		return fieldErrorf(name+".Angular", "must be finite, got %v", m.Angular)
	}
	return nil
}

// checkPoseFinite refuses a pose with a non-finite component.
func checkPoseFinite(name string, p Pose) error {
	if !isFiniteVec(p.Position) {
		return fieldErrorf(name+".Position", "must be finite, got %v", p.Position)
	}
	if !isFinite(p.Rotation.W) || !isFiniteVec(p.Rotation.V) {
		return fieldErrorf(name+".Rotation", "must be finite, got %v", p.Rotation)
	}
	return nil
}

// pairRank orders shape kinds for dispatch: each pair routine takes the lower-ranked shape as
// A (moving, simple shapes first; static environment shapes last).
func pairRank(k ShapeKind) int {
	switch k {
	case KindSphere:
		return 0
	case KindCapsule:
		return 1
	case KindCylinder:
		return 2
	case KindBox:
		return 3
	case KindConvexHull:
		return 4
	case KindHalfSpace:
		return 5
	case KindTriangleMesh:
		return 6
	case KindSDFGrid:
		return 7
	}
	return 10 + int(k)
}

// sameRankAfter orders two shapes of the same kind so that Collide(a, b) and Collide(b, a) run
// the same computation (and so give the same points): the larger shape first, then the lower
// pose (z, then x, y), then the rotation. It reports whether b goes first.
func sameRankAfter(a Shape, pa Pose, b Shape, pb Pose) bool {
	ka, kb := shapeOrderKey(a), shapeOrderKey(b)
	for i := range ka {
		if ka[i] != kb[i] {
			return ka[i] < kb[i]
		}
	}
	keyA := [7]float64{pa.Position[2], pa.Position[0], pa.Position[1], pa.Rotation.W, pa.Rotation.V[0], pa.Rotation.V[1], pa.Rotation.V[2]}
	keyB := [7]float64{pb.Position[2], pb.Position[0], pb.Position[1], pb.Rotation.W, pb.Rotation.V[0], pb.Rotation.V[1], pb.Rotation.V[2]}
	for i := range keyA {
		if keyA[i] != keyB[i] {
			return keyA[i] > keyB[i]
		}
	}
	return false
}

// shapeOrderKey returns a size key for same-kind ordering; larger keys go first.
func shapeOrderKey(s Shape) [4]float64 {
	switch v := s.(type) {
	case *Sphere:
		return [4]float64{v.Radius}
	case *Box:
		return [4]float64{v.Volume(), v.HalfExtents[0], v.HalfExtents[1], v.HalfExtents[2]}
	case *Capsule:
		return [4]float64{v.Volume(), v.Radius, v.HalfHeight}
	case *Cylinder:
		return [4]float64{v.Volume(), v.Radius, v.HalfHeight}
	case *ConvexHull:
		p := v.vertices[0]
		return [4]float64{v.Volume(), float64(len(v.vertices)), p[0], p[1] + p[2]}
	}
	return [4]float64{s.Volume()}
}

// convexMesh runs the routine for a convex shape against a triangle mesh.
func convexMesh(a Shape, pa Pose, m *TriangleMesh, pb Pose, margin float64, out *Manifold) error {
	switch sa := a.(type) {
	case *Sphere:
		sphereMesh(sa, pa, m, pb, margin, out)
	case *Capsule:
		capsuleMesh(sa, pa, m, pb, margin, out)
	case *Cylinder:
		cylinderMesh(sa, pa, m, pb, margin, out)
	case *Box:
		var t boxTopology
		A := newPlacedBox(sa, pa, &t)
		polyMesh(&A, AABB{Min: sa.HalfExtents.Mul(-1), Max: sa.HalfExtents}, m, pb, margin, out)
	case *ConvexHull:
		A := newPlacedHull(sa, pa)
		polyMesh(&A, sa.local, m, pb, margin, out)
	default:
		return unsupportedPair(a, m)
	}
	return nil
}

// unsupportedPair is the error for a pair without a routine.
func unsupportedPair(a, b Shape) error {
	return fieldErrorf("pair", "%v–%v has no contact routine (static–static pairs are never tested)", a.Kind(), b.Kind())
}

// dispatchPair runs the routine for (a, b), already in rank order.
func dispatchPair(a Shape, pa Pose, b Shape, pb Pose, margin float64, prev *Manifold, out *Manifold) error {
	switch sb := b.(type) {
	case *TriangleMesh:
		return convexMesh(a, pa, sb, pb, margin, out)
	case *SDFGrid:
		return convexSDF(a, pa, sb, pb, margin, out)
	}
	switch sa := a.(type) {
	case *Sphere:
		return sphereVs(sa, pa, b, pb, margin, out)
	case *Capsule:
		switch sb := b.(type) {
		case *Capsule:
			capsuleCapsule(sa, pa, sb, pb, margin, out)
			return nil
		case *Box:
			capsuleBox(sa, pa, sb, pb, margin, out)
			return nil
		case *HalfSpace:
			capsuleHalfSpace(sa, pa, sb, pb, margin, out)
			return nil
		case *ConvexHull:
			capsuleHull(sa, pa, sb, pb, margin, out)
			return nil
		case *Cylinder:
			capsuleCylinder(sa, pa, sb, pb, margin, out)
			return nil
		}
	case *Cylinder:
		switch sb := b.(type) {
		case *Cylinder:
			cylinderCylinder(sa, pa, sb, pb, margin, out)
			return nil
		case *Box:
			cylinderBox(sa, pa, sb, pb, margin, out)
			return nil
		case *ConvexHull:
			cylinderHull(sa, pa, sb, pb, margin, out)
			return nil
		case *HalfSpace:
			cylinderHalfSpace(sa, pa, sb, pb, margin, out)
			return nil
		}
	case *Box:
		switch sb := b.(type) {
		case *Box:
			boxBox(sa, pa, sb, pb, margin, prev, out)
			return nil
		case *HalfSpace:
			boxHalfSpace(sa, pa, sb, pb, margin, out)
			return nil
		case *ConvexHull:
			boxHull(sa, pa, sb, pb, margin, prev, out)
			return nil
		}
	case *ConvexHull:
		switch sb := b.(type) {
		case *ConvexHull:
			hullHull(sa, pa, sb, pb, margin, prev, out)
			return nil
		case *HalfSpace:
			hullHalfSpace(sa, pa, sb, pb, margin, out)
			return nil
		}
	}
	return unsupportedPair(a, b)
}
