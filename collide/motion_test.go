package collide

import (
	"math"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
)

// TestCollideMovingKeepsThePointsTheMotionDrivesIn: random 12-point hulls just above or touching
// the ground, turning and falling, against the ground. Brute force over the hull's vertices finds
// the ones the motion carries below the ground within the step (gap + displacement·n below
// −approachTolerance of the candidates' extent) and the deepest one. When there are fewer than
// MaxManifoldPoints of them, every one must be in the manifold (or shadowed, within the
// reduction's tolerance in the ground's plane, by a kept point at least as deep). When they fill
// the manifold or more, it must keep the deepest and no speculative point (neither needed nor
// touching, nor nearer than a driven one). Collide without the motion, which ranks by area alone, must drop one of them in
// some of the trials, or the trials would not test the motion.
func TestCollideMovingKeepsThePointsTheMotionDrivesIn(t *testing.T) {
	r := newRand(7)
	ground, err := NewHalfSpace(mgl64.Vec3{0, 0, 1}, 0)
	if err != nil {
		t.Fatal(err)
	}
	const h, margin = 0.01, 0.05
	checked, staticDrops, full := 0, 0, 0
	for trial := 0; trial < 3000; trial++ {
		points := make([]mgl64.Vec3, 12)
		radii := mgl64.Vec3{0.05 + 0.15*r.Float64(), 0.05 + 0.15*r.Float64(), 0.05 + 0.15*r.Float64()}
		for j := range points {
			d := randUnit(r)
			points[j] = mgl64.Vec3{d[0] * radii[0], d[1] * radii[1], d[2] * radii[2]}
		}
		hull, _, err := NewConvexHullCentered(points)
		if err != nil {
			continue
		}
		rot := mgl64.QuatRotate(math.Pi*r.Float64(), randUnit(r))
		pose := Pose{Rotation: rot}
		low := math.Inf(1)
		for _, v := range hull.Vertices() {
			low = math.Min(low, pose.Apply(v)[2])
		}
		pose.Position = mgl64.Vec3{0, 0, -low + 0.004*(r.Float64()-0.7)}
		motion := Motion{
			Linear:  mgl64.Vec3{0.3 * (r.Float64() - 0.5), 0.3 * (r.Float64() - 0.5), -0.01 - 0.8*r.Float64()}.Mul(h),
			Angular: randUnit(r).Mul(4 * r.Float64() * h),
		}
		var moving, static Manifold
		if _, err := CollideMoving(hull, pose, motion, ground, IdentityPose(), Motion{}, margin, nil, &moving); err != nil {
			t.Fatal(err)
		}
		if _, err := Collide(hull, pose, ground, IdentityPose(), margin, nil, &static); err != nil {
			t.Fatal(err)
		}
		// Brute force: the candidates (vertices within the margin), the needed ones, their extent.
		var cands, needed []vertex
		deep := -1
		for _, v := range hull.Vertices() {
			w := pose.Apply(v)
			if w[2] > margin {
				continue
			}
			cands = append(cands, vertex{w, w[2]})
			if deep < 0 || w[2] < cands[deep].gap {
				deep = len(cands) - 1
			}
		}
		if len(cands) <= MaxManifoldPoints {
			continue
		}
		extent := 0.0
		for _, c := range cands {
			extent = math.Max(extent, math.Max(math.Abs(c.p[0]-cands[0].p[0]), math.Abs(c.p[1]-cands[0].p[1])))
		}
		reach := 0.0 // the tolerance's scale: the candidates' extent, as the reduction takes it
		for _, c := range cands {
			d := c.p.Sub(cands[0].p)
			reach = math.Max(reach, math.Max(math.Abs(d[0]), math.Max(math.Abs(d[1]), math.Abs(d[2]))))
		}
		drivenTop := math.Inf(-1) // the largest gap of a driven vertex
		for i, c := range cands {
			d := motion.Linear.Add(motion.Angular.Cross(c.p.Sub(pose.Position)))
			driven := c.gap+d[2] < -approachTolerance*reach
			if driven {
				drivenTop = math.Max(drivenTop, c.gap)
			}
			if i == deep || driven {
				needed = append(needed, c)
			}
		}
		kept := func(m *Manifold, v vertex) bool {
			tol := 1.01*shadowTolerance*extent + 1e-12
			for _, c := range m.Contacts() {
				dx, dy := c.Point[0]-v.p[0], c.Point[1]-v.p[1]
				if dx*dx+dy*dy <= tol*tol && c.Gap <= v.gap+1e-12 {
					return true
				}
			}
			return false
		}
		if len(needed) < MaxManifoldPoints {
			checked++
			dropped := false
			for _, v := range needed {
				if !kept(&moving, v) {
					t.Fatalf("trial %d: the motion drives the vertex at %v (gap %.4g) below the ground, but the manifold %v leaves it out", trial, v.p, v.gap, moving.Contacts())
				}
				dropped = dropped || !kept(&static, v)
			}
			if dropped {
				staticDrops++
			}
			continue
		}
		// The needed points fill the manifold: it keeps the deepest, and only needed or touching
		// points (no speculative one, above the touching and the driven ones, kept for its area).
		touching := math.Max(approachTolerance*reach, drivenTop)
		for _, c := range moving.Contacts() {
			ok := false
			for _, v := range needed {
				ok = ok || math.Abs(c.Point[0]-v.p[0]) < 1e-12 && math.Abs(c.Point[1]-v.p[1]) < 1e-12
			}
			if !ok && c.Gap > touching {
				t.Fatalf("trial %d: %d needed points, but the manifold keeps a speculative point %v (gap %.4g)", trial, len(needed), c.Point, c.Gap)
			}
		}
		if !kept(&moving, cands[deep]) {
			t.Fatalf("trial %d: the manifold %v leaves out the deepest vertex %v", trial, moving.Contacts(), cands[deep].p)
		}
		full++
	}
	if checked < 500 || staticDrops < 20 || full < 5 {
		t.Fatalf("%d trials checked, %d of them with a needed point the static reduction drops, %d with the manifold full of needed points: the trials do not exercise the motion", checked, staticDrops, full)
	}
	t.Logf("%d trials checked; the static reduction dropped a needed point in %d; %d with the manifold full of needed points", checked, staticDrops, full)
}

// vertex is a hull vertex in the world and its gap to the ground.
type vertex struct {
	p   mgl64.Vec3
	gap float64
}

// TestCollideMovingRefusesNonFiniteMotion: a non-finite motion is an error naming it.
func TestCollideMovingRefusesNonFiniteMotion(t *testing.T) {
	box, _ := NewBox(mgl64.Vec3{1, 1, 1})
	ground, _ := NewHalfSpace(mgl64.Vec3{0, 0, 1}, 0)
	var m Manifold
	_, err := CollideMoving(box, Pose{Position: mgl64.Vec3{0, 0, 1}}, Motion{Angular: mgl64.Vec3{math.NaN(), 0, 0}}, ground, IdentityPose(), Motion{}, 0.1, nil, &m)
	if err == nil || !strings.Contains(err.Error(), "ma.Angular") {
		t.Fatalf("NaN angular motion: error %v, want one naming ma.Angular", err)
	}
	if m.Count != 0 {
		t.Fatalf("NaN angular motion: %d points written", m.Count)
	}
}

// TestCollideMovingKeepsBothEndsOfRandomBoards: random boards lying on one another at random
// yaws, turning together about a random horizontal axis through the upper one's centre, so that
// the motion drives the part of the overlap on one side of the axis down and lifts the rest. The
// manifold must still span the overlap, as the static reduction (largest area) does: its hull at
// least half the static one's area. Kept only on the side driven down, it left the lifting end
// with no point, and once the contacts reversed the turn that end sank through unopposed.
func TestCollideMovingKeepsBothEndsOfRandomBoards(t *testing.T) {
	r := newRand(11)
	const h = 0.01
	checked := 0
	for trial := 0; trial < 500; trial++ {
		lowerHalf := mgl64.Vec3{0.2 + 0.4*r.Float64(), 0.1 + 0.3*r.Float64(), 0.002 + 0.01*r.Float64()}
		upperHalf := mgl64.Vec3{0.2 + 0.4*r.Float64(), 0.1 + 0.3*r.Float64(), 0.002 + 0.01*r.Float64()}
		lower, err := NewBox(lowerHalf)
		if err != nil {
			t.Fatal(err)
		}
		upper, err := NewBox(upperHalf)
		if err != nil {
			t.Fatal(err)
		}
		yaw := (0.1 + 0.8*r.Float64()) * math.Pi / 2
		centre := mgl64.Vec3{0.1 * (r.Float64() - 0.5), 0.1 * (r.Float64() - 0.5), lowerHalf[2] + upperHalf[2]}
		upperPose := Pose{Position: centre, Rotation: mgl64.QuatRotate(yaw, mgl64.Vec3{0, 0, 1})}
		angle := 2 * math.Pi * r.Float64()
		motion := Motion{Angular: mgl64.Vec3{math.Cos(angle), math.Sin(angle), 0}.Mul((1 + 7*r.Float64()) * h)}
		var moving, static Manifold
		if _, err := CollideMoving(upper, upperPose, motion, lower, IdentityPose(), Motion{}, 0.05, nil, &moving); err != nil {
			t.Fatal(err)
		}
		if _, err := Collide(upper, upperPose, lower, IdentityPose(), 0.05, nil, &static); err != nil {
			t.Fatal(err)
		}
		if static.Count < MaxManifoldPoints {
			continue
		}
		checked++
		if a, s := hullArea(&moving), hullArea(&static); a < 0.5*s {
			t.Fatalf("trial %d: the manifold's hull has area %.4g, the static one's %.4g: %v", trial, a, s, moving.Contacts())
		}
	}
	if checked < 300 {
		t.Fatalf("only %d trials had a full static manifold", checked)
	}
}

// hullArea returns the area of the convex hull of a manifold's points of at most four, projected
// on the plane z = 0: half the sum of the areas of the triangles any three of them span when
// there are four, that triangle's when three.
func hullArea(m *Manifold) float64 {
	pts := m.Contacts()
	tri := func(ca, cb, cc Contact) float64 {
		a, b, c := ca.Point, cb.Point, cc.Point
		return 0.5 * math.Abs((b[0]-a[0])*(c[1]-a[1])-(c[0]-a[0])*(b[1]-a[1]))
	}
	switch len(pts) {
	case 3:
		return tri(pts[0], pts[1], pts[2])
	case 4:
		return 0.5 * (tri(pts[0], pts[1], pts[2]) + tri(pts[0], pts[1], pts[3]) + tri(pts[0], pts[2], pts[3]) + tri(pts[1], pts[2], pts[3]))
	}
	return 0
}
