package collide

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
)

// cubeCloud returns the corners of a box with half extents h plus duplicates, interior points,
// and points on its faces and edges.
func cubeCloud(r *rand.Rand, h mgl64.Vec3) []mgl64.Vec3 {
	var pts []mgl64.Vec3
	for i := 0; i < 8; i++ {
		pts = append(pts, boxVertex(h, i), boxVertex(h, i)) // duplicates
	}
	for i := 0; i < 50; i++ {
		p := mgl64.Vec3{h[0] * (2*r.Float64() - 1), h[1] * (2*r.Float64() - 1), h[2] * (2*r.Float64() - 1)}
		pts = append(pts, p) // interior
		k := r.IntN(3)
		q := p
		q[k] = h[k] * sign(r.Float64()-0.5) // on a face
		pts = append(pts, q)
		e := q
		e[(k+1)%3] = h[(k+1)%3] * sign(r.Float64()-0.5) // on an edge
		pts = append(pts, e)
	}
	r.Shuffle(len(pts), func(i, j int) { pts[i], pts[j] = pts[j], pts[i] })
	return pts
}

// checkHullTopology verifies Euler's formula, outward counter-clockwise faces, convexity and
// that every input point is inside.
func checkHullTopology(t testing.TB, h *ConvexHull, input []mgl64.Vec3) {
	t.Helper()
	if v, e, f := len(h.Vertices()), h.NumEdges(), h.NumFaces(); v-e+f != 2 {
		t.Fatalf("Euler: V %d − E %d + F %d ≠ 2", v, e, f)
	}
	tol := 1e-7 * (1 + h.local.Size().Len())
	for i := 0; i < h.NumFaces(); i++ {
		n, off, loop := h.Face(i)
		if len(loop) < 3 {
			t.Fatalf("face %d has %d vertices", i, len(loop))
		}
		for k := range loop {
			a, b, c := h.vertices[loop[k]], h.vertices[loop[(k+1)%len(loop)]], h.vertices[loop[(k+2)%len(loop)]]
			if b.Sub(a).Cross(c.Sub(b)).Dot(n) < -tol {
				t.Fatalf("face %d turns clockwise at %d", i, k)
			}
			if math.Abs(n.Dot(a)-off) > 10*tol {
				t.Fatalf("face %d vertex off its plane by %v", i, n.Dot(a)-off)
			}
		}
		for _, p := range h.vertices {
			if n.Dot(p) > off+tol {
				t.Fatalf("vertex above face %d", i)
			}
		}
	}
	for _, p := range input {
		if d, _ := h.SignedDistance(p); d > tol {
			t.Fatalf("input point %v outside the hull by %v", p, d)
		}
	}
}

func TestConvexHullCubeCloud(t *testing.T) {
	r := newRand(91)
	hext := mgl64.Vec3{0.5, 1, 1.5}
	pts := cubeCloud(r, hext)
	h := must(NewConvexHull(pts))
	checkHullTopology(t, h, pts)
	if len(h.Vertices()) != 8 || h.NumFaces() != 6 || h.NumEdges() != 12 {
		t.Fatalf("cube hull: %d vertices, %d faces, %d edges", len(h.Vertices()), h.NumFaces(), h.NumEdges())
	}
	for i := 0; i < 6; i++ {
		if _, _, loop := h.Face(i); len(loop) != 4 {
			t.Fatalf("face %d has %d vertices", i, len(loop))
		}
	}
	box := must(NewBox(hext))
	hm, _ := h.MassProperties(3)
	bm, _ := box.MassProperties(3)
	if !relClose(hm.Mass, bm.Mass, 1e-12) || !nearVec(hm.CenterOfMass, mgl64.Vec3{}, 1e-12) {
		t.Fatalf("mass %v com %v, box %v", hm.Mass, hm.CenterOfMass, bm.Mass)
	}
	for j := 0; j < 3; j++ {
		for k := 0; k < 3; k++ {
			if !near(hm.Inertia.At(j, k), bm.Inertia.At(j, k), 1e-12*bm.Mass) {
				t.Fatalf("inertia[%d][%d] %v, box %v", j, k, hm.Inertia.At(j, k), bm.Inertia.At(j, k))
			}
		}
	}
	// Support and bounds agree with the box.
	pose := randPose(r, 3)
	if hb, bb := h.Bounds(pose), box.Bounds(pose); !nearVec(hb.Min, bb.Min, 1e-12) || !nearVec(hb.Max, bb.Max, 1e-12) {
		t.Fatalf("bounds %v vs %v", hb, bb)
	}
}

// TestConvexHullMassMonteCarlo integrates volume, centre of mass and inertia of a random hull
// by seeded Monte Carlo and compares with the exact values.
func TestConvexHullMassMonteCarlo(t *testing.T) {
	r := newRand(92)
	var pts []mgl64.Vec3
	for i := 0; i < 40; i++ {
		pts = append(pts, mgl64.Vec3{0.3 + 0.8*r.NormFloat64(), -0.2 + 0.5*r.NormFloat64(), 0.1 + 0.3*r.NormFloat64()})
	}
	h := must(NewConvexHull(pts))
	checkHullTopology(t, h, pts)
	mp, _ := h.MassProperties(1)
	b := h.local
	size := b.Size()
	const n = 300000
	var cnt float64
	var sum mgl64.Vec3
	var acc [3][3]float64
	var samples []mgl64.Vec3
	for i := 0; i < n; i++ {
		p := mgl64.Vec3{b.Min[0] + size[0]*r.Float64(), b.Min[1] + size[1]*r.Float64(), b.Min[2] + size[2]*r.Float64()}
		inside := true
		for _, f := range h.faces {
			if f.normal.Dot(p) > f.offset {
				inside = false
				break
			}
		}
		if inside {
			cnt++
			sum = sum.Add(p)
			samples = append(samples, p)
		}
	}
	boxVol := size[0] * size[1] * size[2]
	vol := boxVol * cnt / n
	com := sum.Mul(1 / cnt)
	for _, p := range samples {
		q := p.Sub(com)
		for j := 0; j < 3; j++ {
			for k := 0; k < 3; k++ {
				d := 0.0
				if j == k {
					d = q.Dot(q)
				}
				acc[j][k] += (d - q[j]*q[k]) * boxVol / n
			}
		}
	}
	if !relClose(vol, h.Volume(), 0.02) || !nearVec(com, mp.CenterOfMass, 0.02) {
		t.Fatalf("Monte Carlo volume %v com %v; exact %v %v", vol, com, h.Volume(), mp.CenterOfMass)
	}
	scale := mp.Inertia.Trace()
	for j := 0; j < 3; j++ {
		for k := 0; k < 3; k++ {
			if math.Abs(acc[j][k]-mp.Inertia.At(j, k)) > 0.03*scale {
				t.Fatalf("inertia[%d][%d] Monte Carlo %v exact %v", j, k, acc[j][k], mp.Inertia.At(j, k))
			}
		}
	}
}

// bruteHullDistance returns the distance from an outside point to the hull as the smallest
// distance to any face polygon (projection when it falls inside the polygon, else the polygon's
// edges).
func bruteHullDistance(h *ConvexHull, p mgl64.Vec3) float64 {
	best := math.Inf(1)
	for i := 0; i < h.NumFaces(); i++ {
		n, off, loop := h.Face(i)
		q := p.Sub(n.Mul(n.Dot(p) - off))
		inside := true
		for k := range loop {
			a, b := h.vertices[loop[k]], h.vertices[loop[(k+1)%len(loop)]]
			if b.Sub(a).Cross(q.Sub(a)).Dot(n) < 0 {
				inside = false
			}
			t := closestOnSegment(p, a, b)
			best = math.Min(best, p.Sub(lerp(a, b, t)).Len())
		}
		if inside {
			best = math.Min(best, math.Abs(n.Dot(p)-off))
		}
	}
	return best
}

func TestConvexHullSignedDistance(t *testing.T) {
	r := newRand(93)
	var pts []mgl64.Vec3
	for i := 0; i < 30; i++ {
		pts = append(pts, randUnit(r).Mul(0.5+0.5*r.Float64()))
	}
	h := must(NewConvexHull(pts))
	for i := 0; i < 500; i++ {
		p := randInCube(r, 2)
		d, n := h.SignedDistance(p)
		if !near(n.Len(), 1, 1e-12) {
			t.Fatalf("normal %v", n)
		}
		if d > 0 {
			if want := bruteHullDistance(h, p); !near(d, want, 1e-9) {
				t.Fatalf("outside %v: %v, brute %v", p, d, want)
			}
		} else if want := -bruteHullDistance(h, p); !near(d, want, 1e-9) {
			t.Fatalf("inside %v: %v, brute %v", p, d, want)
		}
		if sd, _ := h.SignedDistance(p.Sub(n.Mul(d))); !near(sd, 0, 1e-9) {
			t.Fatalf("projection off the surface by %v", sd)
		}
	}
}

func TestConvexHullDegenerate(t *testing.T) {
	cases := []struct {
		name string
		pts  []mgl64.Vec3
		want string
	}{
		{"three points", []mgl64.Vec3{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}, "at least 4"},
		{"duplicates", []mgl64.Vec3{{0, 0, 0}, {0, 0, 0}, {0, 0, 0}, {0, 0, 0}, {1e-12, 0, 0}, {1, 0, 0}}, "4 distinct"},
		{"all coincident", []mgl64.Vec3{{1, 1, 1}, {1, 1, 1}, {1, 1, 1 + 1e-13}, {1, 1, 1}, {1, 1, 1}}, "distinct"},
		{"collinear", []mgl64.Vec3{{0, 0, 0}, {1, 1, 1}, {2, 2, 2}, {3, 3, 3}, {0.5, 0.5, 0.5}}, "collinear"},
		{"coplanar", []mgl64.Vec3{{0, 0, 1}, {1, 0, 1}, {0, 1, 1}, {1, 1, 1}, {0.3, 0.7, 1}}, "coplanar"},
		{"NaN", []mgl64.Vec3{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, math.NaN()}}, "points[3].z"},
	}
	for _, c := range cases {
		_, err := NewConvexHull(c.pts)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "ConvexHull.points") {
			t.Errorf("%s: %v", c.name, err)
		}
	}
	if err := (&ConvexHull{}).Validate(); err == nil {
		t.Error("zero hull validated")
	}
	if _, err := must(NewConvexHull(cubeCloud(newRand(1), mgl64.Vec3{1, 1, 1}))).MassProperties(-1); err == nil {
		t.Error("negative density accepted")
	}
}

// FuzzConvexHull builds hulls from fuzzed point clouds: construction either fails with an error
// or yields a closed convex polyhedron containing every input point.
func FuzzConvexHull(f *testing.F) {
	f.Add(int64(1), 8, 0.0)
	f.Add(int64(2), 30, 1.0)
	f.Add(int64(3), 12, 2.0)
	f.Fuzz(func(t *testing.T, seed int64, n int, mode float64) {
		if n < 0 {
			n = -n
		}
		n = n%200 + 1
		r := newRand(uint64(seed))
		pts := make([]mgl64.Vec3, 0, n)
		for i := 0; i < n; i++ {
			var p mgl64.Vec3
			switch int(math.Abs(mode)) % 4 {
			case 0: // random
				p = randInCube(r, 1)
			case 1: // grid (many coplanar and collinear points)
				p = mgl64.Vec3{float64(r.IntN(3)), float64(r.IntN(3)), float64(r.IntN(3))}
			case 2: // nearly flat
				p = mgl64.Vec3{r.Float64(), r.Float64(), 1e-7 * r.Float64()}
			default: // sphere with duplicates
				p = randUnit(r)
				if i > 0 && r.IntN(3) == 0 {
					p = pts[r.IntN(len(pts))]
				}
			}
			pts = append(pts, p)
		}
		h, err := NewConvexHull(pts)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "collide: ConvexHull") {
				t.Fatalf("error without field: %v", err)
			}
			return
		}
		checkHullTopology(t, h, pts)
		if mp, err := h.MassProperties(1); err != nil || !(mp.Mass > 0) || hasNaN(mp.CenterOfMass) {
			t.Fatalf("mass properties %+v %v", mp, err)
		}
	})
}

func TestConvexHullCentered(t *testing.T) {
	pts := []mgl64.Vec3{{0, 0, 0}, {1, 1, 1}, {-1, 1, 1}, {1, -1, 1}, {-1, -1, 1}}
	h, off, err := NewConvexHullCentered(pts)
	if err != nil {
		t.Fatal(err)
	}
	mp, _ := h.MassProperties(1)
	if !nearVec(off, mgl64.Vec3{0, 0, 0.75}, 1e-12) || !nearVec(mp.CenterOfMass, mgl64.Vec3{}, 1e-12) {
		t.Fatalf("offset %v, centre of mass %v", off, mp.CenterOfMass)
	}
}

// TestConvexHullLarge builds hulls of 3,000 points on a sphere (every one a vertex) and of 5,000
// in a ball, large enough that the plane offsets come from the vertex-graph climb: the topology
// checks hold, every sphere point is a vertex, and the volumes approach the ball's.
func TestConvexHullLarge(t *testing.T) {
	sphere := spherePoints(3000)
	h, err := NewConvexHull(sphere)
	if err != nil {
		t.Fatal(err)
	}
	if len(h.vertices)*len(h.faces) <= bruteOffsetWork {
		t.Fatalf("%d vertices and %d faces do not exercise the climb", len(h.vertices), len(h.faces))
	}
	checkHullTopology(t, h, sphere)
	if len(h.Vertices()) != len(sphere) {
		t.Errorf("%d of %d points on a sphere are hull vertices", len(h.Vertices()), len(sphere))
	}
	ball := 4 * math.Pi / 3
	if v := h.Volume(); v > ball || v < 0.995*ball {
		t.Errorf("sphere hull volume %v, want just under %v", v, ball)
	}
	r := newRand(5)
	var cloud []mgl64.Vec3
	for len(cloud) < 5000 {
		if p := randInCube(r, 1); p.Len() <= 1 {
			cloud = append(cloud, p)
		}
	}
	h, err = NewConvexHull(cloud)
	if err != nil {
		t.Fatal(err)
	}
	checkHullTopology(t, h, cloud)
	if v := h.Volume(); v > ball || v < 0.8*ball {
		t.Errorf("ball hull volume %v, want a little under %v", v, ball)
	}
}
