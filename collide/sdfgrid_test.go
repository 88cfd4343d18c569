package collide

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
)

func TestSDFGridFromShape(t *testing.T) {
	s := must(NewSphere(0.8))
	const cell = 0.05
	g := must(NewSDFGridFromShape(s, cell, 0.2))
	if !relClose(g.Volume(), s.Volume(), 0.03) {
		t.Fatalf("volume %v, sphere %v", g.Volume(), s.Volume())
	}
	r := newRand(131)
	for i := 0; i < 2000; i++ {
		p := randInCube(r, 1)
		d, n := g.SignedDistance(p)
		want, wn := s.SignedDistance(p)
		// Trilinear interpolation of |p| − r errs by O(cell²/|p|).
		if !near(d, want, cell*cell/math.Max(p.Len(), cell)+1e-12) {
			t.Fatalf("%v: grid %v, exact %v", p, d, want)
		}
		if p.Len() > 0.3 && n.Dot(wn) < 0.99 {
			t.Fatalf("%v: normal %v, exact %v", p, n, wn)
		}
	}
	// Outside the grid: value grows with the distance.
	if d, _ := g.SignedDistance(mgl64.Vec3{5, 0, 0}); !near(d, 4.2, 1e-9) {
		t.Fatalf("far field %v", d)
	}
}

func TestSDFGridFromMesh(t *testing.T) {
	h := mgl64.Vec3{0.5, 0.4, 0.3}
	g := must(NewSDFGridFromMesh(boxMesh(h), 0.05, 0.1))
	box := must(NewBox(h))
	r := newRand(132)
	for i := 0; i < 1000; i++ {
		p := randInCube(r, 0.6)
		d, _ := g.SignedDistance(p)
		want, _ := box.SignedDistance(p)
		// The box's distance is piecewise linear; interpolation errs near the medial axis and
		// the edges by at most a cell.
		if !near(d, want, 0.05) {
			t.Fatalf("%v: grid %v, box %v", p, d, want)
		}
	}
	if _, err := NewSDFGridFromMesh(gridMesh(2), 0.1, 0); err == nil || !containsField(err, "SDFGrid.source") {
		t.Fatalf("open mesh: %v", err)
	}
	if _, err := NewSDFGridFromShape(must(NewSphere(1)), 0, 0); err == nil || !containsField(err, "SDFGrid.cellSize") {
		t.Fatalf("zero cell: %v", err)
	}
	if _, err := NewSDFGridFromShape(must(NewSphere(1)), 1e-4, 0); err == nil || !containsField(err, "SDFGrid.cellSize") {
		t.Fatalf("too many nodes: %v", err)
	}
	if _, err := NewSDFGridFromShape(must(NewHalfSpace(mgl64.Vec3{0, 0, 1}, 0)), 0.1, 0); err == nil {
		t.Fatal("half-space source accepted")
	}
}

func TestSDFGridContacts(t *testing.T) {
	ground := must(NewBox(mgl64.Vec3{2, 2, 0.5}))
	g := must(NewSDFGridFromShape(ground, 0.1, 0.3))
	pg := at(mgl64.Vec3{0, 0, -0.5}, mgl64.Quat{}) // top face at z = 0
	// Sphere resting 1 cm deep: exact on a flat face (the field is linear there).
	m := collideT(t, must(NewSphere(0.3)), at(mgl64.Vec3{0.2, 0.1, 0.29}, mgl64.Quat{}), g, pg, 0)
	checkManifold(t, &m, 0)
	if m.Count != 1 || !near(m.Points[0].Gap, -0.01, 1e-9) || !nearVec(m.Normal, mgl64.Vec3{0, 0, -1}, 1e-9) {
		t.Fatalf("sphere: %+v", m)
	}
	// Box resting: four corners.
	m = collideT(t, must(NewBox(mgl64.Vec3{0.3, 0.3, 0.3})), at(mgl64.Vec3{0.1, -0.2, 0.29}, rot(0.3, mgl64.Vec3{0, 0, 1})), g, pg, 0)
	checkManifold(t, &m, 0)
	if m.Count != 4 || !near(m.MinGap(), -0.01, 1e-9) {
		t.Fatalf("box: %+v", m)
	}
	// Capsule lying: points along the segment, ends kept.
	m = collideT(t, must(NewCapsule(0.1, 0.5)), at(mgl64.Vec3{0, 0, 0.09}, rot(math.Pi/2, mgl64.Vec3{0, 1, 0})), g, pg, 0)
	checkManifold(t, &m, 0)
	if m.Count < 2 || !near(m.MinGap(), -0.01, 1e-9) {
		t.Fatalf("capsule: %+v", m)
	}
	// Hull: same as the box.
	m = collideT(t, cubeHull(mgl64.Vec3{0.3, 0.3, 0.3}), at(mgl64.Vec3{0.1, -0.2, 0.29}, mgl64.Quat{}), g, pg, 0)
	if m.Count != 4 || !near(m.MinGap(), -0.01, 1e-9) {
		t.Fatalf("hull: %+v", m)
	}
	// Ray onto the field.
	h, hit, err := RayCast(g, pg, mgl64.Vec3{0.3, 0.2, 3}, mgl64.Vec3{0, 0, -1}, 10)
	if err != nil || !hit || !near(h.T, 3, 1e-6) || !nearVec(h.Normal, mgl64.Vec3{0, 0, 1}, 1e-6) {
		t.Fatalf("ray: %+v %v %v", h, hit, err)
	}
}
