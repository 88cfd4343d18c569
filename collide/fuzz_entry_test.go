package collide

import (
	"errors"
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
)

// The fuzz targets below cover every exported entry point that takes a shape: Collide, RayCast,
// SamplePoints, RayCastBroadPhase, NewSDFGridFromShape and the Shape methods. Each picks its
// shapes from testShapes (zero values, nil pointers, a NaN field and ordinary shapes of every
// kind) by a byte, and is seeded with every shape, so `go test` runs each shape through each entry
// point. They assert that nothing panics, that invalid input gets a *FieldError and empty outputs,
// and that every output of valid input is finite.

// fuzzPick returns the shape that k selects.
func fuzzPick(k uint8) testShape {
	s := testShapes()
	return s[int(k)%len(s)]
}

// fuzzPose builds a pose with a position in [-5, 5]³ and a unit rotation from fuzz values.
func fuzzPose(px, py, pz, qw, qx, qy, qz float64) Pose {
	return Pose{Position: mgl64.Vec3{fuzzCoord(px), fuzzCoord(py), fuzzCoord(pz)}, Rotation: fuzzQuat(qw, qx, qy, qz)}
}

// fuzzMargin maps a finite, non-negative fuzz value into [0, 1) and passes any other through, so
// that the entry points' refusal of a bad margin is exercised too.
func fuzzMargin(x float64) float64 {
	if !isFinite(x) || x < 0 {
		return x
	}
	return math.Mod(x, 1)
}

// isFieldError reports whether err is a *FieldError.
func isFieldError(err error) bool {
	var fe *FieldError
	return errors.As(err, &fe)
}

// isUnit reports whether v is a finite unit vector.
func isUnit(v mgl64.Vec3) bool {
	return isFiniteVec(v) && math.Abs(v.Len()-1) <= 1e-9
}

// FuzzCollide checks Collide on every pair of shapes at fuzzed poses and margins.
func FuzzCollide(f *testing.F) {
	n := len(testShapes())
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			f.Add(uint8(i), uint8(j), 0.3, 0.1, 0.2, 1.0, 0.1, 0.2, 0.0, 0.05)
		}
	}
	f.Add(uint8(15), uint8(16), 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, math.NaN())
	f.Add(uint8(15), uint8(16), 4.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, -1.0)
	f.Fuzz(func(t *testing.T, ka, kb uint8, px, py, pz, qw, qx, qy, qz, margin float64) {
		a, b := fuzzPick(ka), fuzzPick(kb)
		pb := fuzzPose(px, py, pz, qw, qx, qy, qz)
		margin = fuzzMargin(margin)
		var m Manifold
		ok, err := Collide(a.s, IdentityPose(), b.s, pb, margin, nil, &m)
		if err != nil {
			if !isFieldError(err) || ok || m.Count != 0 {
				t.Fatalf("Collide(%s, %s): error %v (%T), ok %v, %d points", a.name, b.name, err, err, ok, m.Count)
			}
			return
		}
		if !a.valid || !b.valid || !(margin >= 0) || math.IsInf(margin, 0) {
			t.Fatalf("Collide(%s, %s, margin %v) accepted", a.name, b.name, margin)
		}
		if ok != (m.Count > 0) || m.Count > MaxManifoldPoints {
			t.Fatalf("Collide(%s, %s): ok %v with %d points", a.name, b.name, ok, m.Count)
		}
		for i, c := range m.Contacts() {
			if !isFiniteVec(c.Point) || !isFinite(c.Gap) || !isUnit(c.Normal) || c.Gap > margin+1e-9 {
				t.Fatalf("Collide(%s, %s): point %d %+v (margin %v)", a.name, b.name, i, c, margin)
			}
		}
	})
}

// FuzzRayCast checks RayCast on every shape with fuzzed poses and rays.
func FuzzRayCast(f *testing.F) {
	for i := range testShapes() {
		f.Add(uint8(i), 0.1, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, -4.0, 0.05, 0.02, 1.0, 0.0, 0.0, 10.0)
		f.Add(uint8(i), 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, math.Inf(1))
	}
	f.Add(uint8(15), 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, -4.0, 0.0, 0.0, 0.0, 0.0, 0.0, 10.0)
	f.Add(uint8(15), 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, -4.0, 0.0, 0.0, 1.0, 0.0, 0.0, math.NaN())
	f.Fuzz(func(t *testing.T, k uint8, px, py, pz, qw, qx, qy, qz, ox, oy, oz, dx, dy, dz, maxT float64) {
		s := fuzzPick(k)
		pose := fuzzPose(px, py, pz, qw, qx, qy, qz)
		origin := mgl64.Vec3{fuzzCoord(ox), fuzzCoord(oy), fuzzCoord(oz)}
		dir := mgl64.Vec3{fuzzCoord(dx), fuzzCoord(dy), fuzzCoord(dz)}
		if isFinite(maxT) && maxT >= 0 {
			maxT = math.Mod(maxT, 20)
		}
		h, hit, err := RayCast(s.s, pose, origin, dir, maxT)
		if err != nil {
			if !isFieldError(err) || hit || h != (RayHit{}) {
				t.Fatalf("RayCast(%s): error %v, hit %v %+v", s.name, err, hit, h)
			}
			return
		}
		if !s.valid || dir == (mgl64.Vec3{}) || !(maxT >= 0) {
			t.Fatalf("RayCast(%s, dir %v, maxT %v) accepted", s.name, dir, maxT)
		}
		if hit && (!(h.T >= 0 && h.T <= maxT) || !isFiniteVec(h.Point) || !isUnit(h.Normal)) {
			t.Fatalf("RayCast(%s): hit %+v (maxT %v)", s.name, h, maxT)
		}
	})
}

// FuzzSamplePoints checks SamplePoints on every shape with fuzzed poses, points and margins.
func FuzzSamplePoints(f *testing.F) {
	for i := range testShapes() {
		f.Add(uint8(i), 0.1, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.1, 0.2, 0.3, 3.0, -1.0, 0.5, 0.05)
		f.Add(uint8(i), 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
	}
	f.Add(uint8(15), 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, math.Inf(1))
	f.Fuzz(func(t *testing.T, k uint8, px, py, pz, qw, qx, qy, qz, ax, ay, az, bx, by, bz, margin float64) {
		s := fuzzPick(k)
		pose := fuzzPose(px, py, pz, qw, qx, qy, qz)
		points := []mgl64.Vec3{{fuzzCoord(ax), fuzzCoord(ay), fuzzCoord(az)}, {fuzzCoord(bx), fuzzCoord(by), fuzzCoord(bz)}}
		margin = fuzzMargin(margin)
		out := make([]PointSample, len(points))
		n, err := SamplePoints(s.s, pose, points, margin, out)
		if err != nil {
			if !isFieldError(err) || n != 0 || out[0] != (PointSample{}) {
				t.Fatalf("SamplePoints(%s): error %v, %d within, %+v", s.name, err, n, out[0])
			}
			return
		}
		if !s.valid || !(margin >= 0) || math.IsInf(margin, 0) {
			t.Fatalf("SamplePoints(%s, margin %v) accepted", s.name, margin)
		}
		within := 0
		for i, o := range out {
			if !isFinite(o.Gap) || !isUnit(o.Normal) || !isFiniteVec(o.Closest) || o.Within != (o.Gap <= margin) {
				t.Fatalf("SamplePoints(%s): sample %d %+v", s.name, i, o)
			}
			if o.Within {
				within++
			}
		}
		if n != within {
			t.Fatalf("SamplePoints(%s): reported %d within, samples say %d", s.name, n, within)
		}
	})
}

// FuzzRayCastBroadPhase checks RayCastBroadPhase over two entries whose lookup gives fuzzed
// shapes at fuzzed positions.
func FuzzRayCastBroadPhase(f *testing.F) {
	n := len(testShapes())
	for i := 0; i < n; i++ {
		f.Add(uint8(i), uint8(n-1-i), 0.0, 0.0, 0.0, 1.5, 0.0, 0.0, -4.0, 0.0, 0.0, 1.0, 0.0, 0.0)
	}
	f.Fuzz(func(t *testing.T, ka, kb uint8, ax, ay, az, bx, by, bz, ox, oy, oz, dx, dy, dz float64) {
		entries := []testShape{fuzzPick(ka), fuzzPick(kb)}
		poses := []Pose{
			{Position: mgl64.Vec3{fuzzCoord(ax), fuzzCoord(ay), fuzzCoord(az)}, Rotation: mgl64.QuatIdent()},
			{Position: mgl64.Vec3{fuzzCoord(bx), fuzzCoord(by), fuzzCoord(bz)}, Rotation: mgl64.QuatIdent()},
		}
		var bp BroadPhase
		for _, p := range poses {
			// A fixed box: the shapes may be nil pointers, whose Bounds panics.
			if _, err := bp.Add(AABB{Min: p.Position.Sub(mgl64.Vec3{1, 1, 1}), Max: p.Position.Add(mgl64.Vec3{1, 1, 1})}, mgl64.Vec3{}, ProxyOptions{}); err != nil {
				t.Fatal(err)
			}
		}
		lookup := func(id ProxyID) (Shape, Pose, bool) { return entries[id].s, poses[id], true }
		origin := mgl64.Vec3{fuzzCoord(ox), fuzzCoord(oy), fuzzCoord(oz)}
		dir := mgl64.Vec3{fuzzCoord(dx), fuzzCoord(dy), fuzzCoord(dz)}
		id, h, hit, err := RayCastBroadPhase(&bp, origin, dir, 20, lookup)
		if err != nil {
			if !isFieldError(err) || hit || id != -1 {
				t.Fatalf("RayCastBroadPhase(%s, %s): error %v, hit %v, id %d", entries[0].name, entries[1].name, err, hit, id)
			}
			return
		}
		if dir == (mgl64.Vec3{}) {
			t.Fatal("zero direction accepted")
		}
		if hit && (id < 0 || id > 1 || !entries[id].valid || !(h.T >= 0 && h.T <= 20) || !isFiniteVec(h.Point) || !isUnit(h.Normal)) {
			t.Fatalf("RayCastBroadPhase(%s, %s): id %d hit %+v", entries[0].name, entries[1].name, id, h)
		}
	})
}

// FuzzNewSDFGridFromShape checks NewSDFGridFromShape on every shape with fuzzed cell sizes and
// margins (kept coarse enough that a grid has at most about 30³ nodes).
func FuzzNewSDFGridFromShape(f *testing.F) {
	for i := range testShapes() {
		f.Add(uint8(i), 0.2, 0.1)
	}
	f.Add(uint8(15), 0.0, 0.1)
	f.Add(uint8(15), 0.2, math.NaN())
	f.Fuzz(func(t *testing.T, k uint8, cell, margin float64) {
		s := fuzzPick(k)
		if isFinite(cell) && cell > 0 {
			cell = 0.05 + math.Mod(cell, 0.5)
		}
		if isFinite(margin) && margin >= 0 {
			margin = math.Mod(margin, 0.3)
		}
		g, err := NewSDFGridFromShape(s.s, cell, margin)
		if err != nil {
			if !isFieldError(err) || g != nil {
				t.Fatalf("NewSDFGridFromShape(%s): error %v, grid %v", s.name, err, g != nil)
			}
			return
		}
		if !s.valid || s.s.Kind() == KindHalfSpace || s.s.Kind() == KindSDFGrid {
			t.Fatalf("NewSDFGridFromShape(%s, %v, %v) accepted", s.name, cell, margin)
		}
		if err := g.Validate(); err != nil {
			t.Fatal(err)
		}
		if d, n := g.SignedDistance(mgl64.Vec3{0.1, 0.2, 0.05}); !isFinite(d) || !isUnit(n) {
			t.Fatalf("grid of %s: SignedDistance %v, %v", s.name, d, n)
		}
	})
}

// FuzzShapeMethods checks Bounds, Support, SignedDistance, Volume and MassProperties of every
// shape that is not a nil pointer (whose methods panic, as in Go generally).
func FuzzShapeMethods(f *testing.F) {
	for i := range testShapes() {
		f.Add(uint8(i), 0.1, 0.2, 0.3, 1.0, 0.1, 0.0, 0.2, 1.0, -1.0, 0.5, 0.3, 0.2, -0.1, 1000.0)
		f.Add(uint8(i), 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
		f.Add(uint8(i), 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, math.NaN(), 0.0, 0.0, math.Inf(1), 0.0, 0.0, math.NaN())
	}
	f.Fuzz(func(t *testing.T, k uint8, px, py, pz, qw, qx, qy, qz, dx, dy, dz, x, y, z, density float64) {
		s := fuzzPick(k)
		if !s.ptr {
			return
		}
		pose := fuzzPose(px, py, pz, qw, qx, qy, qz)
		finite := !math.IsNaN(s.s.Volume()) // a NaN field makes every answer NaN
		if b := s.s.Bounds(pose); finite && (!isFiniteVec(b.Min) || !isFiniteVec(b.Max) || b.Validate() != nil) {
			t.Fatalf("%s: Bounds %v", s.name, b)
		}
		if p := s.s.Support(mgl64.Vec3{dx, dy, dz}); finite && !isFiniteVec(p) {
			t.Fatalf("%s: Support(%v) = %v", s.name, mgl64.Vec3{dx, dy, dz}, p)
		}
		p := mgl64.Vec3{fuzzCoord(x), fuzzCoord(y), fuzzCoord(z)}
		if d, n := s.s.SignedDistance(p); finite && (!isFinite(d) || !isFiniteVec(n) || (s.valid && !isUnit(n))) {
			t.Fatalf("%s: SignedDistance(%v) = %v, %v", s.name, p, d, n)
		}
		if v := s.s.Volume(); finite && !(v >= 0) {
			t.Fatalf("%s: Volume %v", s.name, v)
		}
		mp, err := s.s.MassProperties(density)
		if err != nil {
			if !isFieldError(err) {
				t.Fatalf("%s: MassProperties error %v (%T)", s.name, err, err)
			}
			return
		}
		if !s.valid || !(density > 0) || math.IsInf(density, 0) {
			t.Fatalf("%s: MassProperties(%v) accepted", s.name, density)
		}
		if !isFinite(mp.Mass) || mp.Mass < 0 || !isFiniteVec(mp.CenterOfMass) {
			t.Fatalf("%s: MassProperties(%v) = %+v", s.name, density, mp)
		}
	})
}
