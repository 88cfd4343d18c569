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
// −approachTolerance of the candidates' extent) and the deepest one; when there are at most MaxManifoldPoints of them, every one must be in the
// manifold (or shadowed, within the reduction's tolerance in the ground's plane, by a kept point
// at least as deep). Collide without the motion, which ranks by area alone, must drop one of
// them in some of the trials, or the trials would not test the motion.
func TestCollideMovingKeepsThePointsTheMotionDrivesIn(t *testing.T) {
	r := newRand(7)
	ground, err := NewHalfSpace(mgl64.Vec3{0, 0, 1}, 0)
	if err != nil {
		t.Fatal(err)
	}
	const h, margin = 0.01, 0.05
	checked, staticDrops := 0, 0
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
		type vertex struct {
			p   mgl64.Vec3
			gap float64
		}
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
		for i, c := range cands {
			d := motion.Linear.Add(motion.Angular.Cross(c.p.Sub(pose.Position)))
			if i == deep || c.gap+d[2] < -approachTolerance*reach {
				needed = append(needed, c)
			}
		}
		if len(needed) > MaxManifoldPoints {
			continue
		}
		held := func(m *Manifold, v vertex) bool {
			tol := 1.01*shadowTolerance*extent + 1e-12
			for _, c := range m.Contacts() {
				dx, dy := c.Point[0]-v.p[0], c.Point[1]-v.p[1]
				if dx*dx+dy*dy <= tol*tol && c.Gap <= v.gap+1e-12 {
					return true
				}
			}
			return false
		}
		checked++
		dropped := false
		for _, v := range needed {
			if !held(&moving, v) {
				t.Fatalf("trial %d: the motion drives the vertex at %v (gap %.4g) below the ground, but the manifold %v leaves it out", trial, v.p, v.gap, moving.Contacts())
			}
			dropped = dropped || !held(&static, v)
		}
		if dropped {
			staticDrops++
		}
	}
	if checked < 500 || staticDrops < 20 {
		t.Fatalf("%d trials checked, %d of them with a needed point the static reduction drops: the trials do not exercise the motion", checked, staticDrops)
	}
	t.Logf("%d trials checked; the static reduction dropped a needed point in %d", checked, staticDrops)
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
