package collide

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
)

// boxEdgesWorld returns the 12 edges of a placed box.
func boxEdgesWorld(h mgl64.Vec3, p Pose) [][2]mgl64.Vec3 {
	var e [][2]mgl64.Vec3
	for i := 0; i < 8; i++ {
		for k := 0; k < 3; k++ {
			if i&(1<<k) == 0 {
				e = append(e, [2]mgl64.Vec3{p.Apply(boxVertex(h, i)), p.Apply(boxVertex(h, i|1<<k))})
			}
		}
	}
	return e
}

// bruteBoxBoxDistance is the distance between two separated boxes from every vertex–box and
// edge–edge pair (the closest features of two polytopes are among these); it returns −1 when an
// edge of one box passes through the other (they intersect).
func bruteBoxBoxDistance(a *Box, pa Pose, b *Box, pb Pose) float64 {
	for _, e := range boxEdgesWorld(a.HalfExtents, pa) {
		if _, d2 := segmentBoxClosest(pb.ApplyInverse(e[0]), pb.ApplyInverse(e[1]), b.HalfExtents); d2 == 0 {
			return -1
		}
	}
	for _, e := range boxEdgesWorld(b.HalfExtents, pb) {
		if _, d2 := segmentBoxClosest(pa.ApplyInverse(e[0]), pa.ApplyInverse(e[1]), a.HalfExtents); d2 == 0 {
			return -1
		}
	}
	best := math.Inf(1)
	for i := 0; i < 8; i++ {
		d, _ := b.SignedDistance(pb.ApplyInverse(pa.Apply(boxVertex(a.HalfExtents, i))))
		best = math.Min(best, d)
		d, _ = a.SignedDistance(pa.ApplyInverse(pb.Apply(boxVertex(b.HalfExtents, i))))
		best = math.Min(best, d)
	}
	for _, ea := range boxEdgesWorld(a.HalfExtents, pa) {
		for _, eb := range boxEdgesWorld(b.HalfExtents, pb) {
			s, t := closestSegmentSegment(ea[0], ea[1], eb[0], eb[1])
			best = math.Min(best, lerp(ea[0], ea[1], s).Sub(lerp(eb[0], eb[1], t)).Len())
		}
	}
	return best
}

func TestGJKBoxBoxDistance(t *testing.T) {
	r := newRand(51)
	a := must(NewBox(mgl64.Vec3{0.5, 0.3, 0.4}))
	b := must(NewBox(mgl64.Vec3{0.35, 0.6, 0.25}))
	checked := 0
	for i := 0; i < 500; i++ {
		pa, pb := randPairPoses(r, 2)
		want := bruteBoxBoxDistance(a, pa, b, pb)
		fa, fb := pa.frame(), pb.frame()
		ga, gb := boxGJK(a.HalfExtents, &fa), boxGJK(b.HalfExtents, &fb)
		res := gjkDistance(&ga, &gb, pb.Position.Sub(pa.Position))
		if want <= 0 {
			continue
		}
		checked++
		if res.intersects || !near(res.distance, want, 1e-9) {
			t.Fatalf("#%d: GJK %+v, brute %v", i, res, want)
		}
		// The closest points are on the surfaces.
		if d, _ := a.SignedDistance(pa.ApplyInverse(res.pa)); !near(d, 0, 1e-9) {
			t.Fatalf("#%d: pa off A by %v", i, d)
		}
		if d, _ := b.SignedDistance(pb.ApplyInverse(res.pb)); !near(d, 0, 1e-9) {
			t.Fatalf("#%d: pb off B by %v", i, d)
		}
	}
	if checked < 100 {
		t.Fatalf("only %d separated samples", checked)
	}
}

// TestBoxBoxSeparatedExactGap: separated boxes within the margin report the exact distance as
// the smallest gap, whatever features are closest (corner to corner included) — or, when the
// manifold is a face's (the direction between the closest points within faceContactCos of
// its normal), that distance along the face's normal, which is between the distance times the
// cosine and the distance.
func TestBoxBoxSeparatedExactGap(t *testing.T) {
	r := newRand(52)
	a := must(NewBox(mgl64.Vec3{0.5, 0.3, 0.4}))
	b := must(NewBox(mgl64.Vec3{0.35, 0.6, 0.25}))
	const margin = 0.2
	checked := 0
	for i := 0; i < 3000 && checked < 200; i++ {
		pa, pb := randPairPoses(r, 1.5)
		want := bruteBoxBoxDistance(a, pa, b, pb)
		if want <= 1e-6 || want > margin {
			continue
		}
		checked++
		m := collideT(t, a, pa, b, pb, margin)
		checkManifold(t, &m, margin)
		lo := want
		if m.Reference.Kind == ReferenceFaceA || m.Reference.Kind == ReferenceFaceB {
			lo = want * faceContactCos
		}
		if m.Count == 0 || m.MinGap() > want+1e-9 || m.MinGap() < lo-1e-9 {
			t.Fatalf("#%d: min gap %v, distance %v (%+v)", i, m.MinGap(), want, m)
		}
	}
	// Corner to corner along the diagonal: no face overlap, the gap is the corner distance.
	c := must(NewBox(mgl64.Vec3{0.5, 0.5, 0.5}))
	m := collideT(t, c, IdentityPose(), c, at(mgl64.Vec3{1.01, 1.01, 1.01}, mgl64.Quat{}), 0.05)
	if m.Count != 1 || !near(m.Points[0].Gap, 0.01*math.Sqrt(3), 1e-12) || m.Points[0].Feature != MakeFeatureID(VertexFeature(7), VertexFeature(0)) {
		t.Fatalf("corner to corner: %+v", m)
	}
}
