package collide

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
)

// pairCase is a pair of shapes used by the property tests, with the spread of B's position
// around A's.
type pairCase struct {
	name   string
	a, b   Shape
	spread float64
}

// primitivePairs returns every supported primitive pair.
func primitivePairs() []pairCase {
	sphere := must(NewSphere(0.4))
	sphere2 := must(NewSphere(0.25))
	box := must(NewBox(mgl64.Vec3{0.5, 0.3, 0.4}))
	box2 := must(NewBox(mgl64.Vec3{0.35, 0.6, 0.25}))
	capsule := must(NewCapsule(0.2, 0.5))
	capsule2 := must(NewCapsule(0.3, 0.2))
	half := must(NewHalfSpace(mgl64.Vec3{0.1, 0.2, 1}, 0.1))
	hull := testHull(0.45)
	hull2 := testHull(0.35)
	mesh := boxMesh(mgl64.Vec3{0.6, 0.5, 0.4})
	sdf := must(NewSDFGridFromShape(must(NewBox(mgl64.Vec3{0.6, 0.5, 0.4})), 0.05, 0.1))
	return []pairCase{
		{"sphere-mesh", sphere, mesh, 1.1},
		{"capsule-mesh", capsule, mesh, 1.2},
		{"box-mesh", box, mesh, 1.2},
		{"hull-mesh", hull, mesh, 1.2},
		{"sphere-sdf", sphere, sdf, 1.1},
		{"box-sdf", box, sdf, 1.2},
		{"sphere-hull", sphere, hull, 1},
		{"capsule-hull", capsule, hull, 1.1},
		{"box-hull", box, hull, 1.1},
		{"hull-hull", hull, hull2, 0.75},
		{"hull-halfspace", hull, half, 0.7},
		{"sphere-sphere", sphere, sphere2, 0.8},
		{"sphere-box", sphere, box, 1},
		{"sphere-capsule", sphere, capsule, 1},
		{"sphere-halfspace", sphere, half, 0.6},
		{"capsule-capsule", capsule, capsule2, 1.1},
		{"capsule-box", capsule, box, 1.1},
		{"capsule-halfspace", capsule, half, 0.8},
		{"box-box", box, box2, 1.1},
		{"box-halfspace", box, half, 0.8},
	}
}

// randPairPoses places A randomly and B near it.
func randPairPoses(r *rand.Rand, spread float64) (Pose, Pose) {
	pa := randPose(r, 2)
	pb := randPose(r, 0)
	pb.Position = pa.Position.Add(randInCube(r, spread))
	return pa, pb
}

func TestPairPropertiesRandomPoses(t *testing.T) {
	const margin = 0.05
	r := newRand(41)
	shift := shiftV
	for _, pc := range primitivePairs() {
		hits := 0
		for i := 0; i < 400; i++ {
			pa, pb := randPairPoses(r, pc.spread)
			m := collideT(t, pc.a, pa, pc.b, pb, margin)
			checkManifold(t, &m, margin)
			if m.Count == 0 {
				continue
			}
			hits++
			// Swapping A and B flips the normal and keeps points, gaps and (swapped) features.
			s := collideT(t, pc.b, pb, pc.a, pa, margin)
			if s.Count != m.Count || !nearVec(s.Normal, m.Normal.Mul(-1), 1e-12) {
				t.Fatalf("%s #%d: swapped count %d normal %v; want %d %v", pc.name, i, s.Count, s.Normal, m.Count, m.Normal.Mul(-1))
			}
			for k := 0; k < m.Count; k++ {
				c, d := m.Points[k], s.Points[k]
				if !nearVec(c.Point, d.Point, 1e-12) || !near(c.Gap, d.Gap, 1e-12) || c.Feature != d.Feature.Swap() || !nearVec(c.Normal, d.Normal.Mul(-1), 1e-12) {
					t.Fatalf("%s #%d: swapped point %d %+v vs %+v", pc.name, i, k, d, c)
				}
			}
			// Translating both translates the contacts.
			ta, tb := pa, pb
			ta.Position = ta.Position.Add(shift)
			tb.Position = tb.Position.Add(shift)
			tr := collideT(t, pc.a, ta, pc.b, tb, margin)
			if tr.Count != m.Count {
				t.Fatalf("%s #%d: translated count %d, want %d", pc.name, i, tr.Count, m.Count)
			}
			for k := 0; k < m.Count; k++ {
				c, d := m.Points[k], tr.Points[k]
				if !nearVec(c.Point.Add(shift), d.Point, 1e-9) || !near(c.Gap, d.Gap, 1e-9) || !nearVec(c.Normal, d.Normal, 1e-9) || c.Feature != d.Feature {
					t.Fatalf("%s #%d: translated point %d %+v vs %+v", pc.name, i, k, d, c)
				}
			}
			// The normal points from A to B: moving B along a contact's normal by δ opens that
			// contact's gap by δ (matched by feature id).
			const delta = 1e-6
			lo, hi := 0.9, 1.1
			if _, ok := pc.b.(*SDFGrid); ok {
				// The interpolated field's gradient is not unit near edges, corners and the
				// medial axis: only the direction (opening, not closing) is asserted.
				lo, hi = 0, 1.5
			}
			for k := 0; k < m.Count; k++ {
				c := m.Points[k]
				mb := pb
				mb.Position = madd(pb.Position, c.Normal, delta)
				mv := collideT(t, pc.a, pa, pc.b, mb, margin)
				for _, d := range mv.Contacts() {
					if d.Feature != c.Feature {
						continue
					}
					if rate := (d.Gap - c.Gap) / delta; rate <= lo || rate > hi {
						t.Fatalf("%s #%d: moving B along contact %d's normal changed its gap at rate %v", pc.name, i, k, rate)
					}
				}
			}
			checkGapsAgainstSignedDistance(t, pc, pa, pb, &m)
		}
		if hits < 50 {
			t.Errorf("%s: only %d of 400 random poses touched", pc.name, hits)
		}
	}
}

// checkGapsAgainstSignedDistance compares gaps with the shapes' exact signed distances where
// the two must agree: the sphere's centre, contacts made by a vertex or a segment end against a
// flat feature, and separated closest-point contacts.
func checkGapsAgainstSignedDistance(t *testing.T, pc pairCase, pa, pb Pose, m *Manifold) {
	t.Helper()
	const tol = 1e-9
	switch pc.b.(type) {
	case *SDFGrid, *TriangleMesh:
		return // interpolated or one-sided: checked by their own tests
	}
	for k := 0; k < m.Count; k++ {
		c := m.Points[k]
		onA, onB := c.PointOnA(), c.PointOnB()
		switch sa := pc.a.(type) {
		case *Sphere:
			d, _ := pc.b.SignedDistance(pb.ApplyInverse(pa.Position))
			if !near(c.Gap, d-sa.Radius, tol) {
				t.Fatalf("%s: gap %v, SignedDistance %v − r", pc.name, c.Gap, d)
			}
			continue
		}
		if _, ok := pc.b.(*HalfSpace); ok {
			if d, _ := pc.b.SignedDistance(pb.ApplyInverse(onA)); !near(c.Gap, d, tol) {
				t.Fatalf("%s: gap %v, half-space distance of the point on A %v", pc.name, c.Gap, d)
			}
			switch sa := pc.a.(type) {
			case *Capsule:
				// The point lies on the sphere of the segment end that made it.
				l := pa.ApplyInverse(onA)
				end := mgl64.Vec3{0, 0, sa.HalfHeight}
				if c.Feature.A() == VertexFeature(0) {
					end[2] = -sa.HalfHeight
				}
				if d := l.Sub(end).Len() - sa.Radius; !near(d, 0, tol) {
					t.Fatalf("%s: point on A is %v off its end sphere", pc.name, d)
				}
			default:
				if d, _ := pc.a.SignedDistance(pa.ApplyInverse(onA)); !near(d, 0, tol) {
					t.Fatalf("%s: point on A is %v off A's surface", pc.name, d)
				}
			}
			continue
		}
		single := m.Count == 1 && c.Feature.A().Type() != FeatureVertex
		if c.Gap >= 0 && single {
			da, _ := pc.a.SignedDistance(pa.ApplyInverse(onB))
			db, _ := pc.b.SignedDistance(pb.ApplyInverse(onA))
			lo := 1.0
			if m.Reference.Kind == ReferenceFaceA || m.Reference.Kind == ReferenceFaceB {
				// The closest points' contact of a face manifold, along the face's normal
				// (speculativeFace): its gap is the distance times a cosine near 1.
				lo = faceContactCos
			}
			if da < c.Gap-tol || db < c.Gap-tol || da*lo > c.Gap+tol || db*lo > c.Gap+tol {
				t.Fatalf("%s: separated gap %v, signed distances %v %v (%+v) pa=%v pb=%v", pc.name, c.Gap, da, db, c, pa, pb)
			}
		}
		if _, ok := pc.a.(*Box); ok && m.Reference.Kind == ReferenceFaceA && c.Gap >= 0 && c.Feature.A().Type() == FeatureFace && c.Feature.B().Type() == FeatureVertex {
			// Vertex of B over a face of A: its distance to A is the gap when it lies over the
			// face proper (not in the clip slop beyond the face's edge).
			local := pa.ApplyInverse(onB)
			if b, ok := pc.a.(*Box); ok && insideFaceSlab(b.HalfExtents, local, c.Feature.A().Index()) {
				if d, _ := pc.a.SignedDistance(local); !near(d, c.Gap, tol) {
					t.Fatalf("%s: vertex gap %v, signed distance %v local %v m=%+v", pc.name, c.Gap, d, local, m)
				}
			}
		}
	}
}

// insideFaceSlab reports whether p lies over face f of the box (within its rectangle).
func insideFaceSlab(h, p mgl64.Vec3, f int) bool {
	k := f / 2
	for j := 0; j < 3; j++ {
		if j != k && math.Abs(p[j]) > h[j] {
			return false
		}
	}
	return true
}

func TestCollideErrors(t *testing.T) {
	s := must(NewSphere(1))
	h := must(NewHalfSpace(mgl64.Vec3{0, 0, 1}, 0))
	var m Manifold
	cases := []struct {
		err   error
		field string
	}{}
	check := func(field string, err error) {
		cases = append(cases, struct {
			err   error
			field string
		}{err, field})
	}
	check("a", collideErr(nil, IdentityPose(), s, IdentityPose(), 0, nil, &m))
	check("b", collideErr(s, IdentityPose(), nil, IdentityPose(), 0, nil, &m))
	check("margin", collideErr(s, IdentityPose(), s, IdentityPose(), -1, nil, &m))
	check("margin", collideErr(s, IdentityPose(), s, IdentityPose(), math.NaN(), nil, &m))
	check("pb.Position", collideErr(s, IdentityPose(), s, Pose{Position: mgl64.Vec3{math.Inf(1), 0, 0}}, 0, nil, &m))
	check("pa.Rotation", collideErr(s, Pose{Rotation: mgl64.Quat{W: math.NaN()}}, s, IdentityPose(), 0, nil, &m))
	check("pair", collideErr(h, IdentityPose(), h, IdentityPose(), 0, nil, &m))
	check("out", collideErr(s, IdentityPose(), s, IdentityPose(), 0, nil, nil))
	for _, c := range cases {
		if c.err == nil || !containsField(c.err, c.field) {
			t.Errorf("want error naming %s, got %v", c.field, c.err)
		}
	}
	if m.Count != 0 {
		t.Errorf("failed call left %d points", m.Count)
	}
}

// collideErr runs Collide and returns only its error.
func collideErr(a Shape, pa Pose, b Shape, pb Pose, margin float64, prev, out *Manifold) error {
	_, err := Collide(a, pa, b, pb, margin, prev, out)
	return err
}

// testHull returns a fixed irregular hull of about the given radius.
func testHull(radius float64) *ConvexHull {
	r := newRand(uint64(1000 * radius))
	var pts []mgl64.Vec3
	for i := 0; i < 24; i++ {
		p := randUnit(r).Mul(radius * (0.7 + 0.3*r.Float64()))
		p[2] *= 0.7
		pts = append(pts, p)
	}
	return must(NewConvexHull(pts))
}

// shiftV is the translation used by the translation-invariance property.
var shiftV = mgl64.Vec3{3.7, -1.25, 5.5}
