package collide

// compoundPair collides compound a with shape b (any shape, a compound too): every child of a
// whose box comes within margin of b meets b (or, for a compound b, each of b's children whose
// box comes within margin of it) through the ordinary pair routines at its world pose. The
// points of all child pairs are pooled, their features tagged with the child indices
// (CompoundFeature) so that a contact keeps its id from step to step, and reduced to
// MaxManifoldPoints as a single pair's candidates are. The manifold's normal and Reference are
// those of the child pair with the deepest point; prev's Reference is handed to the child pair
// it names, so that pair keeps its reference face as a lone pair would.
func compoundPair(a *Compound, pa Pose, b Shape, pb Pose, margin float64, prev *Manifold, out *Manifold) error {
	var cs candidates
	var scratch compoundScratch
	pm := out.motion
	bc, bCompound := b.(*Compound)
	reach := b.Bounds(pb).Expand(margin)
	for i := range a.children {
		sa, wa := a.children[i].Shape, a.childPose(pa, i)
		boxA := sa.Bounds(wa)
		if !boxA.Overlaps(reach) {
			continue
		}
		if !bCompound {
			ma := pm.a.about(pa.Position, wa.Position)
			if err := scratch.child(sa, wa, ma, i, b, pb, pm.b, -1, margin, prev, &cs); err != nil {
				return err
			}
			continue
		}
		boxA = boxA.Expand(margin)
		for j := range bc.children {
			sb, wb := bc.children[j].Shape, bc.childPose(pb, j)
			if !sb.Bounds(wb).Overlaps(boxA) {
				continue
			}
			ma, mb := pm.a.about(pa.Position, wa.Position), pm.b.about(pb.Position, wb.Position)
			if err := scratch.child(sa, wa, ma, i, sb, wb, mb, j, margin, prev, &cs); err != nil {
				return err
			}
		}
	}
	if cs.n == 0 {
		return nil
	}
	out.Normal = cs.c[cs.deepest()].Normal
	cs.emit(out.Normal, out)
	out.Reference = scratch.reference
	return nil
}

// compoundScratch holds one child pair's manifolds and the reference of the deepest pair so far.
type compoundScratch struct {
	prev, out Manifold
	deepest   float64
	reference Reference
	found     bool
}

// child collides child i of compound A (shape sa at world pose wa, moving by ma) with sb at wb
// (moving by mb), which is child j of compound B, or all of B when j < 0, and adds the points,
// their features tagged, to cs.
func (s *compoundScratch) child(sa Shape, wa Pose, ma Motion, i int, sb Shape, wb Pose, mb Motion, j int, margin float64, prev *Manifold, cs *candidates) error {
	var childPrev *Manifold
	if prev != nil && prev.Count > 0 && prev.Reference.Kind != ReferenceNone {
		ia, fa := SplitCompoundFeature(prev.Reference.A)
		fb := prev.Reference.B
		jb := -1
		if j >= 0 {
			jb, fb = SplitCompoundFeature(fb)
		}
		if ia == i && jb == j {
			s.prev = Manifold{Count: 1, Reference: Reference{Kind: prev.Reference.Kind, A: fa, B: fb}}
			childPrev = &s.prev
		}
	}
	s.out.Reset()
	if err := collideOrdered(sa, wa, ma, sb, wb, mb, margin, childPrev, &s.out); err != nil {
		return err
	}
	if s.out.Count == 0 {
		return nil
	}
	for k := 0; k < s.out.Count; k++ {
		c := s.out.Points[k]
		fa, fb := tagChildFeatures(i, j, c.Feature.A(), c.Feature.B())
		c.Feature = MakeFeatureID(fa, fb)
		cs.add(c)
	}
	if g := s.out.MinGap(); !s.found || g < s.deepest {
		r := s.out.Reference
		r.A, r.B = tagChildFeatures(i, j, r.A, r.B)
		s.deepest, s.reference, s.found = g, r, true
	}
	return nil
}

// tagChildFeatures tags feature fa of A with child i and feature fb of B with child j (B is no
// compound when j < 0).
func tagChildFeatures(i, j int, fa, fb Feature) (Feature, Feature) {
	fa = CompoundFeature(i, fa)
	if j >= 0 {
		fb = CompoundFeature(j, fb)
	}
	return fa, fb
}
