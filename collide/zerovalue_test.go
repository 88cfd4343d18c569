package collide

import (
	"errors"
	"math"
	"strings"
	"sync"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
)

// testShape is one shape the zero-value tests and the entry-point fuzz targets use.
type testShape struct {
	name  string
	s     Shape
	valid bool // Validate accepts it
	ptr   bool // a non-nil pointer, whose methods may be called
}

// testShapes returns, once, the zero value and a nil pointer of every shape type, a shape with a
// NaN field, and an ordinary shape of every kind.
var testShapes = sync.OnceValue(func() []testShape {
	box := must(NewBox(mgl64.Vec3{0.5, 0.3, 0.2}))
	return []testShape{
		{"zero Sphere", &Sphere{}, false, true},
		{"zero Box", &Box{}, false, true},
		{"zero Capsule", &Capsule{}, false, true},
		{"zero HalfSpace", &HalfSpace{}, false, true},
		{"zero ConvexHull", &ConvexHull{}, false, true},
		{"zero TriangleMesh", &TriangleMesh{}, false, true},
		{"zero SDFGrid", &SDFGrid{}, false, true},
		{"NaN Sphere", &Sphere{Radius: math.NaN()}, false, true},
		{"nil *Sphere", (*Sphere)(nil), false, false},
		{"nil *Box", (*Box)(nil), false, false},
		{"nil *Capsule", (*Capsule)(nil), false, false},
		{"nil *HalfSpace", (*HalfSpace)(nil), false, false},
		{"nil *ConvexHull", (*ConvexHull)(nil), false, false},
		{"nil *TriangleMesh", (*TriangleMesh)(nil), false, false},
		{"nil *SDFGrid", (*SDFGrid)(nil), false, false},
		{"Sphere", must(NewSphere(0.5)), true, true},
		{"Box", box, true, true},
		{"Capsule", must(NewCapsule(0.2, 0.4)), true, true},
		{"HalfSpace", must(NewHalfSpace(mgl64.Vec3{0, 0, 1}, -0.5)), true, true},
		{"ConvexHull", cubeHull(mgl64.Vec3{0.4, 0.4, 0.3}), true, true},
		{"TriangleMesh", boxMesh(mgl64.Vec3{0.6, 0.6, 0.2}), true, true},
		{"open TriangleMesh", gridMesh(3), true, true},
		{"SDFGrid", must(NewSDFGridFromShape(box, 0.1, 0.1)), true, true},
		{"zero Compound", &Compound{}, false, true},
		{"nil *Compound", (*Compound)(nil), false, false},
		{"Compound", mixedCompound(), true, true},
		{"zero Cylinder", &Cylinder{}, false, true},
		{"nil *Cylinder", (*Cylinder)(nil), false, false},
		{"Cylinder", must(NewCylinder(0.25, 0.3)), true, true},
	}
})

// wantShapeError checks that err is a *FieldError whose field names the argument arg.
func wantShapeError(t *testing.T, what string, err error, arg string) {
	t.Helper()
	var fe *FieldError
	if !errors.As(err, &fe) || !(fe.Field == arg || strings.HasPrefix(fe.Field, arg+" (")) {
		t.Errorf("%s: got %v, want a *FieldError naming %q", what, err, arg)
	}
}

// TestInvalidShapesRefused passes every invalid shape (zero values, nil pointers, NaN fields) to
// each entry point that takes a shape: each must return a *FieldError naming the argument, and
// leave its outputs empty, instead of panicking.
func TestInvalidShapesRefused(t *testing.T) {
	pose := IdentityPose()
	other := Pose{Position: mgl64.Vec3{0.3, 0, 0}, Rotation: mgl64.QuatIdent()}
	for _, bad := range testShapes() {
		if bad.valid {
			continue
		}
		for _, good := range testShapes() {
			if !good.valid {
				continue
			}
			for _, order := range []struct {
				a, b Shape
				arg  string
			}{{bad.s, good.s, "a"}, {good.s, bad.s, "b"}} {
				var m Manifold
				m.Count = 2 // Collide must empty it
				ok, err := Collide(order.a, pose, order.b, other, 0.1, nil, &m)
				wantShapeError(t, "Collide("+bad.name+" as "+order.arg+", "+good.name+")", err, order.arg)
				if ok || m.Count != 0 {
					t.Errorf("Collide(%s as %s, %s): ok %v, %d points", bad.name, order.arg, good.name, ok, m.Count)
				}
			}
		}
		h, hit, err := RayCast(bad.s, pose, mgl64.Vec3{-5, 0.01, 0.02}, mgl64.Vec3{1, 0, 0}, 10)
		wantShapeError(t, "RayCast("+bad.name+")", err, "s")
		if hit || h != (RayHit{}) {
			t.Errorf("RayCast(%s): hit %v %+v", bad.name, hit, h)
		}
		out := []PointSample{{Gap: 7}}
		n, err := SamplePoints(bad.s, pose, []mgl64.Vec3{{0.1, 0, 0}}, 0.1, out)
		wantShapeError(t, "SamplePoints("+bad.name+")", err, "s")
		if n != 0 || out[0].Gap != 7 {
			t.Errorf("SamplePoints(%s): %d within, wrote %+v", bad.name, n, out[0])
		}
		if g, err := NewSDFGridFromShape(bad.s, 0.1, 0.1); err == nil || g != nil {
			t.Errorf("NewSDFGridFromShape(%s): %v, %v", bad.name, g, err)
		}
		if v, ok := bad.s.(interface{ Validate() error }); !ok || v.Validate() == nil {
			t.Errorf("%s passes Validate", bad.name)
		}
	}
	if g, err := NewSDFGridFromMesh(&TriangleMesh{}, 0.1, 0.1); err == nil || g != nil {
		t.Errorf("NewSDFGridFromMesh(zero mesh): %v, %v", g, err)
	}
}

// TestZeroShapeMethods checks the documented answers of a zero shape's methods: the zero value of
// a bounded shape is the single point at its local origin, and MassProperties refuses it.
func TestZeroShapeMethods(t *testing.T) {
	pose := Pose{Position: mgl64.Vec3{1, 2, 3}, Rotation: mgl64.QuatRotate(0.7, mgl64.Vec3{0, 1, 0})}
	p := mgl64.Vec3{0.3, -0.4, 1.2}
	for _, z := range []Shape{&Sphere{}, &Box{}, &Capsule{}, &ConvexHull{}, &TriangleMesh{}, &SDFGrid{}, &Compound{}} {
		name := z.Kind().String()
		if b := z.Bounds(pose); b.Min != pose.Position || b.Max != pose.Position {
			t.Errorf("zero %s: Bounds %v, want the point box at %v", name, b, pose.Position)
		}
		for _, d := range []mgl64.Vec3{{1, 0, 0}, {-1, 2, 3}, {}, {math.NaN(), 0, 0}} {
			if s := z.Support(d); s != (mgl64.Vec3{}) {
				t.Errorf("zero %s: Support(%v) = %v, want the origin", name, d, s)
			}
		}
		d, n := z.SignedDistance(p)
		if !near(d, p.Len(), 1e-15) || !nearVec(n, p.Normalize(), 1e-15) {
			t.Errorf("zero %s: SignedDistance(%v) = %v, %v; want %v, %v", name, p, d, n, p.Len(), p.Normalize())
		}
		if d, _ := z.SignedDistance(mgl64.Vec3{math.NaN(), 0, 0}); !math.IsInf(d, 1) {
			t.Errorf("zero %s: SignedDistance(NaN) = %v, want +Inf", name, d)
		}
		if v := z.Volume(); v != 0 {
			t.Errorf("zero %s: Volume %v", name, v)
		}
		if _, err := z.MassProperties(1000); err == nil {
			t.Errorf("zero %s: MassProperties accepted", name)
		}
	}
	h := &HalfSpace{Offset: 2}
	if d, n := h.SignedDistance(p); d != -2 || n != (mgl64.Vec3{}) {
		t.Errorf("zero-normal HalfSpace: SignedDistance %v, %v; want -2 and a zero normal", d, n)
	}
	if b := h.Bounds(pose); !isFiniteVec(b.Min) || !isFiniteVec(b.Max) {
		t.Errorf("zero HalfSpace: Bounds %v", b)
	}
	if s := h.Support(mgl64.Vec3{1, 0, 0}); !isFiniteVec(s) {
		t.Errorf("zero HalfSpace: Support %v", s)
	}
}

// TestIndexPanicMessages checks that the index accessors panic, as a slice index does, with a
// message naming the method, the index and the range.
func TestIndexPanicMessages(t *testing.T) {
	hull := cubeHull(mgl64.Vec3{1, 1, 1})
	mesh := boxMesh(mgl64.Vec3{1, 1, 1})
	for _, c := range []struct {
		call func()
		want string
	}{
		{func() { (&ConvexHull{}).Face(0) }, "collide: ConvexHull.Face: index 0 out of range [0, 0)"},
		{func() { hull.Face(6) }, "collide: ConvexHull.Face: index 6 out of range [0, 6)"},
		{func() { hull.Face(-1) }, "collide: ConvexHull.Face: index -1 out of range [0, 6)"},
		{func() { hull.Edge(12) }, "collide: ConvexHull.Edge: index 12 out of range [0, 12)"},
		{func() { (&ConvexHull{}).Edge(0) }, "collide: ConvexHull.Edge: index 0 out of range [0, 0)"},
		{func() { mesh.Triangle(12) }, "collide: TriangleMesh.Triangle: index 12 out of range [0, 12)"},
		{func() { (&TriangleMesh{}).Triangle(-3) }, "collide: TriangleMesh.Triangle: index -3 out of range [0, 0)"},
	} {
		if got := panicMessage(c.call); got != c.want {
			t.Errorf("panic %q, want %q", got, c.want)
		}
	}
	// In range, no panic.
	if got := panicMessage(func() { hull.Face(5); hull.Edge(11); mesh.Triangle(0) }); got != "" {
		t.Errorf("in-range index panicked: %s", got)
	}
}

// panicMessage runs f and returns the message it panicked with, or "".
func panicMessage(f func()) (msg string) {
	defer func() {
		if r := recover(); r != nil {
			if s, ok := r.(string); ok {
				msg = s
			} else if e, ok := r.(error); ok {
				msg = e.Error()
			} else {
				msg = "non-string panic"
			}
		}
	}()
	f()
	return ""
}

// TestZeroBroadPhase checks that the zero BroadPhase is an empty broad phase with margin 0, that
// nil callbacks and a nil broad phase or lookup are refused or ignored as documented, and that
// RayCastBroadPhase names the entry whose shape is invalid.
func TestZeroBroadPhase(t *testing.T) {
	var bp BroadPhase
	if bp.Len() != 0 || bp.TreeHeight() != -1 || len(bp.UpdatePairs()) != 0 {
		t.Fatalf("zero broad phase: len %d, height %d", bp.Len(), bp.TreeHeight())
	}
	bp.Query(AABB{Max: mgl64.Vec3{1, 1, 1}}, func(ProxyID) bool { t.Error("visited an entry of the empty broad phase"); return true })
	unit := AABB{Min: mgl64.Vec3{-1, -1, -1}, Max: mgl64.Vec3{1, 1, 1}}
	a := must(bp.Add(unit, mgl64.Vec3{}, ProxyOptions{}))
	b := must(bp.Add(unit.Translate(mgl64.Vec3{1.5, 0, 0}), mgl64.Vec3{}, ProxyOptions{}))
	if pairs := bp.UpdatePairs(); len(pairs) != 1 || pairs[0] != (Pair{a, b}) {
		t.Errorf("pairs %v, want [{%d %d}]", pairs, a, b)
	}
	if fat := must(bp.FatBounds(a)); fat != unit {
		t.Errorf("fat box %v with margin 0, want %v", fat, unit)
	}
	var seen []ProxyID
	bp.Query(unit, func(id ProxyID) bool { seen = append(seen, id); return true })
	if len(seen) != 2 {
		t.Errorf("query saw %v", seen)
	}
	bp.Query(unit, nil) // documented: visits nothing
	if err := bp.RayCast(mgl64.Vec3{-5, 0, 0}, mgl64.Vec3{1, 0, 0}, 10, nil); !containsField(err, "visit") {
		t.Errorf("RayCast with a nil visit: %v", err)
	}

	sphere := must(NewSphere(1))
	lookup := func(id ProxyID) (Shape, Pose, bool) {
		if id == b {
			return &ConvexHull{}, IdentityPose(), true
		}
		return sphere, IdentityPose(), true
	}
	if _, _, _, err := RayCastBroadPhase(nil, mgl64.Vec3{}, mgl64.Vec3{1, 0, 0}, 1, lookup); !containsField(err, "bp") {
		t.Errorf("nil broad phase: %v", err)
	}
	if _, _, _, err := RayCastBroadPhase(&bp, mgl64.Vec3{}, mgl64.Vec3{1, 0, 0}, 1, nil); !containsField(err, "lookup") {
		t.Errorf("nil lookup: %v", err)
	}
	// From −x the ray meets entry a's sphere first and stops there; from +x it reaches b first.
	id, h, hit, err := RayCastBroadPhase(&bp, mgl64.Vec3{-5, 0, 0}, mgl64.Vec3{1, 0, 0}, 10, lookup)
	if err != nil || !hit || id != a || !near(h.T, 4, 1e-12) {
		t.Errorf("ray from -x: id %d hit %v T %v err %v", id, hit, h.T, err)
	}
	_, _, hit, err = RayCastBroadPhase(&bp, mgl64.Vec3{5, 0, 0}, mgl64.Vec3{-1, 0, 0}, 10, lookup)
	want := "collide: lookup(1) shape (ConvexHull) must be built with NewConvexHull"
	if hit || err == nil || err.Error() != want {
		t.Errorf("ray through the zero hull: hit %v, err %v; want %q", hit, err, want)
	}
}

// TestShapeChecksDoNotAllocate checks that validating the shapes in Collide, RayCast and
// SamplePoints allocates nothing for valid shapes: the narrow phase calls Collide for every pair
// on every step.
func TestShapeChecksDoNotAllocate(t *testing.T) {
	pose := IdentityPose()
	other := Pose{Position: mgl64.Vec3{0.3, 0.1, 0.2}, Rotation: mgl64.QuatRotate(0.3, mgl64.Vec3{1, 0, 0})}
	points := []mgl64.Vec3{{0.1, 0.2, 0.3}, {2, 0, 0}}
	out := make([]PointSample, len(points))
	for _, a := range testShapes() {
		if !a.valid {
			continue
		}
		if err := checkShape("a", a.s); err != nil {
			t.Fatalf("%s: %v", a.name, err)
		}
		if n := testing.AllocsPerRun(10, func() {
			_ = checkShape("a", a.s)
			_, _, _ = RayCast(a.s, pose, mgl64.Vec3{-5, 0, 0}, mgl64.Vec3{1, 0, 0}, 10)
			_, _ = SamplePoints(a.s, pose, points, 0.1, out)
		}); n != 0 {
			t.Errorf("%s: shape check, RayCast and SamplePoints allocate %v times", a.name, n)
		}
		for _, b := range testShapes() {
			if !b.valid {
				continue
			}
			var m Manifold
			if n := testing.AllocsPerRun(10, func() { _, _ = Collide(a.s, pose, b.s, other, 0.05, &m, &m) }); n != 0 {
				if _, err := Collide(a.s, pose, b.s, other, 0.05, nil, &m); err == nil { // pairs without a routine build an error
					t.Errorf("Collide(%s, %s) allocates %v times", a.name, b.name, n)
				}
			}
		}
	}
}
