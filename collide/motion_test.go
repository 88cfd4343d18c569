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
// the manifold or more, and some four candidates hold them all (each is kept, or lies within
// holdTolerance of a triangle of the four and no deeper than their gaps interpolated there, so
// that no velocity keeping the four out keeps it in), the manifold must hold them all too.
// Collide without the motion, which ranks by area alone, must drop one of them in some of the
// trials, or the trials would not test the motion.
func TestCollideMovingKeepsThePointsTheMotionDrivesIn(t *testing.T) {
	r := newRand(7)
	ground, err := NewHalfSpace(mgl64.Vec3{0, 0, 1}, 0)
	if err != nil {
		t.Fatal(err)
	}
	const h, margin = 0.01, 0.05
	checked, staticDrops, held := 0, 0, 0
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
		for i, c := range cands {
			d := motion.Linear.Add(motion.Angular.Cross(c.p.Sub(pose.Position)))
			if i == deep || c.gap+d[2] < -approachTolerance*reach {
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
		if len(cands) > exhaustiveReduceLimit {
			continue
		}
		// The contact points sit halfway between the hull's vertex and the ground (gap/2 up).
		var corners [][2]float64
		var gaps []float64
		for _, c := range moving.Contacts() {
			corners = append(corners, [2]float64{c.Point[0], c.Point[1]})
			gaps = append(gaps, c.Gap)
		}
		slack := 1.01*holdTolerance*extent + 1e-12
		for _, v := range needed {
			if !kept(&moving, v) && !heldByTriangles(corners, gaps, [2]float64{v.p[0], v.p[1]}, v.gap, slack, 1e-9) {
				// Only a failure if some four candidates hold every needed point.
				if anyQuadHolds(cands, needed, deep, slack) {
					t.Fatalf("trial %d: %d needed points; the vertex at %v (gap %.4g) is neither kept nor held by the manifold %v", trial, len(needed), v.p, v.gap, moving.Contacts())
				}
			}
		}
		held++
	}
	if checked < 500 || staticDrops < 20 || held < 5 {
		t.Fatalf("%d trials checked, %d of them with a needed point the static reduction drops, %d with the manifold full of needed points: the trials do not exercise the motion", checked, staticDrops, held)
	}
	t.Logf("%d trials checked; the static reduction dropped a needed point in %d; %d with the manifold full of needed points", checked, staticDrops, held)
}

// vertex is a hull vertex in the world and its gap to the ground.
type vertex struct {
	p   mgl64.Vec3
	gap float64
}

// heldByTriangles reports whether the point q (gap g) lies within slack of a triangle of the
// given corners and its gap is at least their gaps interpolated there (barycentric coordinates
// clamped to the triangle) less gapTol: then no rigid velocity that keeps the corners from
// passing through their gaps drives q through its own.
func heldByTriangles(corners [][2]float64, gaps []float64, q [2]float64, g, slack, gapTol float64) bool {
	cross := func(a, b, c [2]float64) float64 { return (b[0]-a[0])*(c[1]-a[1]) - (c[0]-a[0])*(b[1]-a[1]) }
	n := len(corners)
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			for k := j + 1; k < n; k++ {
				a, b, c := corners[i], corners[j], corners[k]
				ga, gb, gc := gaps[i], gaps[j], gaps[k]
				if cross(a, b, c) < 0 {
					b, c, gb, gc = c, b, gc, gb
				}
				if !(cross(a, b, c) > 0) {
					continue
				}
				// Signed distances inside each side, opposite corners a, b, c.
				da := cross(b, c, q) / math.Hypot(c[0]-b[0], c[1]-b[1])
				db := cross(c, a, q) / math.Hypot(a[0]-c[0], a[1]-c[1])
				dc := cross(a, b, q) / math.Hypot(b[0]-a[0], b[1]-a[1])
				if da < -slack || db < -slack || dc < -slack {
					continue
				}
				wa, wb, wc := math.Max(cross(b, c, q), 0), math.Max(cross(c, a, q), 0), math.Max(cross(a, b, q), 0)
				if s := wa + wb + wc; s > 0 && g >= (wa*ga+wb*gb+wc*gc)/s-gapTol {
					return true
				}
			}
		}
	}
	return false
}

// anyQuadHolds reports whether four of the candidates, the deepest among them, hold every needed
// one (heldByTriangles, or one of the four).
func anyQuadHolds(cands, needed []vertex, deep int, slack float64) bool {
	n := len(cands)
	for a := 0; a < n; a++ {
		for b := a + 1; b < n; b++ {
			for c := b + 1; c < n; c++ {
				for d := c + 1; d < n; d++ {
					quad := []int{a, b, c, d}
					if a != deep && b != deep && c != deep && d != deep {
						continue
					}
					var corners [][2]float64
					var gaps []float64
					for _, i := range quad {
						corners = append(corners, [2]float64{cands[i].p[0], cands[i].p[1]})
						gaps = append(gaps, cands[i].gap)
					}
					all := true
					for _, v := range needed {
						in := false
						for _, i := range quad {
							in = in || cands[i].p == v.p
						}
						if !in && !heldByTriangles(corners, gaps, [2]float64{v.p[0], v.p[1]}, v.gap, slack, 1e-9) {
							all = false
							break
						}
					}
					if all {
						return true
					}
				}
			}
		}
	}
	return false
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

// TestCollideMovingHoldsBothEndsOfTurningBoards: a board lying on another, turned 30° about the
// vertical (their overlap has eight corners), and turning about a horizontal axis at 6 rad/s, so
// that the step's motion drives the half of the overlap on one side down and lifts the other.
// The driven corners fill the manifold; kept alone, they would leave the lifting end with no
// point, and once the contacts reverse the turn that end sinks through unopposed. The manifold
// must keep points at both ends and hold every corner: between plane faces each corner is a
// convex combination of kept ones with the same combination of gaps.
func TestCollideMovingHoldsBothEndsOfTurningBoards(t *testing.T) {
	board, err := NewBox(mgl64.Vec3{0.45, 0.3, 0.005})
	if err != nil {
		t.Fatal(err)
	}
	lower := IdentityPose()
	upper := Pose{Position: mgl64.Vec3{0, 0, 0.01}, Rotation: mgl64.QuatRotate(math.Pi/6, mgl64.Vec3{0, 0, 1})}
	const h = 0.01
	motion := Motion{Angular: mgl64.Vec3{0, 6 * h, 0}} // x > 0 goes down, x < 0 up
	var moving, static Manifold
	if _, err := CollideMoving(board, upper, motion, board, lower, Motion{}, 0.05, nil, &moving); err != nil {
		t.Fatal(err)
	}
	if _, err := Collide(board, upper, board, lower, 0.05, nil, &static); err != nil {
		t.Fatal(err)
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, c := range moving.Contacts() {
		lo, hi = math.Min(lo, c.Point[0]), math.Max(hi, c.Point[0])
	}
	if moving.Count != MaxManifoldPoints || lo > -0.3 || hi < 0.3 {
		t.Fatalf("manifold %v: its points span x in [%.3f, %.3f], want both ends (beyond ±0.3)", moving.Contacts(), lo, hi)
	}
	// Every corner of the overlap (the static manifold's candidates are the same eight) is held.
	var corners [][2]float64
	var gaps []float64
	for _, c := range moving.Contacts() {
		corners = append(corners, [2]float64{c.Point[0], c.Point[1]})
		gaps = append(gaps, c.Gap)
	}
	for _, sx := range []float64{-1, 1} {
		for _, sy := range []float64{-1, 1} {
			// The lower board's corners inside the upper one, and the other way round, are among
			// the overlap's corners; the lower board's own corners are enough to check the span.
			q := [2]float64{sx * 0.45, sy * 0.3}
			if inside(upper, q) && !heldByTriangles(corners, gaps, q, 0, holdTolerance*0.9, 1e-9) {
				t.Fatalf("the overlap's corner %v is not held by the manifold %v", q, moving.Contacts())
			}
		}
	}
}

// inside reports whether the point q of the plane z = 0 lies under the upper board at pose p.
func inside(p Pose, q [2]float64) bool {
	local := p.Rotation.Inverse().Rotate(mgl64.Vec3{q[0] - p.Position[0], q[1] - p.Position[1], 0})
	return math.Abs(local[0]) <= 0.45 && math.Abs(local[1]) <= 0.3
}
