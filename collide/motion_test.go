package collide

import (
	"math"
	"sort"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
)

// TestCollideMovingKeepsThePointsTheMotionDrivesIn: random 12-point hulls just above or touching
// the ground, turning and falling, against the ground. Brute force over the hull's vertices finds
// the ones the motion carries below the ground within the step (gap + displacement·n below
// −approachTolerance of the candidates' extent) and the deepest one. When there are fewer than
// quadPoints of them, every one must be in the manifold (or shadowed, within the
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
		if len(cands) <= quadPoints {
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
		if len(needed) < quadPoints {
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
		if static.Count < quadPoints {
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

// TestTurningBoardsKeepTheCornersTheTurnReaches: a board lying tilted on a larger one at a random
// yaw, the two turning together about a random horizontal axis, so that the predicted motion
// drives no point and the solve decides how they turn against each other. The contact region
// (computed here by clipping the upper board's bottom face against the lower board's top) has up
// to eight corners. Every corner whose gap is within what the turn moves it (turnReach) must be
// held: in the manifold's hull in projection, since the gap after any rigid turn is affine in the
// point, or shadowed by a kept point as deep (dropShadowed). Four points cannot do that: two
// boards turning together in the impact scene, one tipped onto the other by the solve, sank a
// centimetre in a step at the corner left out. Without the turn the manifold keeps four points,
// as for bodies at rest.
func TestTurningBoardsKeepTheCornersTheTurnReaches(t *testing.T) {
	r := newRand(23)
	lowerHalf := mgl64.Vec3{0.45, 0.3, 0.005}
	lower, err := NewBox(lowerHalf)
	if err != nil {
		t.Fatal(err)
	}
	const h = 0.01
	checked, beyondFour := 0, 0
	for trial := 0; trial < 400; trial++ {
		upperHalf, upperPose, region, ok := boardOnBoard(r, lowerHalf)
		if !ok {
			continue
		}
		upper, err := NewBox(upperHalf)
		if err != nil {
			t.Fatal(err)
		}
		centre := upperPose.Position
		spinAxis := 2 * math.Pi * r.Float64()
		turn := mgl64.Vec3{math.Cos(spinAxis), math.Sin(spinAxis), 0}.Mul((0.5 + 3*r.Float64()) * h)
		pm := pairMotion{a: Motion{Angular: turn}, b: Motion{Angular: turn}, originA: centre}
		var moving, static Manifold
		if _, err := CollideMoving(upper, upperPose, pm.a, lower, IdentityPose(), pm.b, 0.02, nil, &moving); err != nil {
			t.Fatal(err)
		}
		if _, err := Collide(upper, upperPose, lower, IdentityPose(), 0.02, nil, &static); err != nil {
			t.Fatal(err)
		}
		if static.Count > quadPoints {
			t.Fatalf("trial %d: at rest the manifold has %d points", trial, static.Count)
		}
		extent := 0.0 // the reduction's scale for its shadow tolerance
		for _, v := range region {
			extent = math.Max(extent, math.Max(math.Abs(v[0]-region[0][0]), math.Abs(v[1]-region[0][1])))
		}
		reachable := 0
		for _, v := range region {
			gap := v[2] - lowerHalf[2]
			if gap > 0.9*pm.turnReach(v) {
				continue
			}
			reachable++
			if !insideHull2(&moving, v, 1e-4) && !shadowedBy(&moving, v, gap, extent) {
				t.Fatalf("trial %d: the turn reaches the corner %v (gap %.3g, reach %.3g), outside the manifold %v (static %v) region %v centre %v", trial, v, gap, pm.turnReach(v), moving.Contacts(), static.Contacts(), region, centre)
			}
		}
		checked++
		if reachable > quadPoints {
			beyondFour++
		}
	}
	if checked < 300 || beyondFour < 50 {
		t.Fatalf("%d trials checked, %d with more than %d reachable corners: too few to test", checked, beyondFour, quadPoints)
	}
}

// shadowedBy reports whether a point of m at least as deep as gap (within a micrometre) lies
// within the reduction's shadow tolerance of v in projection on z = 0 (dropShadowed).
func shadowedBy(m *Manifold, v mgl64.Vec3, gap, extent float64) bool {
	tol := 1.01*shadowTolerance*extent + 1e-12
	for _, c := range m.Contacts() {
		dx, dy := c.Point[0]-v[0], c.Point[1]-v[1]
		if dx*dx+dy*dy <= tol*tol && c.Gap <= gap+1e-6 {
			return true
		}
	}
	return false
}

// insideHull2 reports whether v lies, within tol in barycentric coordinates (the points are
// midway between the surfaces, off the corners by rounding of the tilt), in the convex hull of m's points projected on
// the plane z = 0: in a triangle of three of them.
func insideHull2(m *Manifold, v mgl64.Vec3, tol float64) bool {
	pts := m.Contacts()
	cross := func(o, a, b mgl64.Vec3) float64 {
		return (a[0]-o[0])*(b[1]-o[1]) - (a[1]-o[1])*(b[0]-o[0])
	}
	for i := range pts {
		for j := i + 1; j < len(pts); j++ {
			for k := j + 1; k < len(pts); k++ {
				a, b, c := pts[i].Point, pts[j].Point, pts[k].Point
				whole := cross(a, b, c)
				if math.Abs(whole) < 1e-12 {
					continue
				}
				s1, s2, s3 := cross(v, b, c)/whole, cross(a, v, c)/whole, cross(a, b, v)/whole
				if s1 >= -tol && s2 >= -tol && s3 >= -tol {
					return true
				}
			}
		}
	}
	return false
}

// hullArea returns the area of the convex hull of a manifold's points projected on the plane
// z = 0 (Andrew's monotone chain, then the shoelace formula).
func hullArea(m *Manifold) float64 {
	pts := make([][2]float64, 0, m.Count)
	for _, c := range m.Contacts() {
		pts = append(pts, [2]float64{c.Point[0], c.Point[1]})
	}
	if len(pts) < 3 {
		return 0
	}
	sort.Slice(pts, func(i, j int) bool {
		return pts[i][0] < pts[j][0] || (pts[i][0] == pts[j][0] && pts[i][1] < pts[j][1])
	})
	cross := func(o, a, b [2]float64) float64 {
		return (a[0]-o[0])*(b[1]-o[1]) - (a[1]-o[1])*(b[0]-o[0])
	}
	hull := make([][2]float64, 0, 2*len(pts))
	for pass := 0; pass < 2; pass++ {
		base := len(hull)
		for _, p := range pts {
			for len(hull) >= base+2 && cross(hull[len(hull)-2], hull[len(hull)-1], p) <= 0 {
				hull = hull[:len(hull)-1]
			}
			hull = append(hull, p)
		}
		hull = hull[:len(hull)-1]
		for i, j := 0, len(pts)-1; i < j; i, j = i+1, j-1 {
			pts[i], pts[j] = pts[j], pts[i]
		}
	}
	area := 0.0
	for i := range hull {
		a, b := hull[i], hull[(i+1)%len(hull)]
		area += a[0]*b[1] - b[0]*a[1]
	}
	return 0.5 * math.Abs(area)
}

// A card falling past another's top edge, as the impact scene brought them together (seed 4,
// 2.76 s): card B, turning at 4 rad/s and falling at 1.5 m/s, hangs with its bottom edge a few
// millimetres over card A's top edge, so its face lies beyond A's face and clips to nothing. Its
// closest point alone let the solve turn B about that point and drive the edge's far end onto A's
// face, 8.9 mm deep. For every corner of B within the margin whose gap the pair's motion over the
// step can close (its approach plus how far the two turns can move it), the turn about the
// closest point that carries the corner straight onto A must close some contact of the manifold
// (as in TestTiltedBoardsHoldTheTurn).
func TestCardFallingPastAnEdgeHoldsTheTurn(t *testing.T) {
	const h, margin = 0.01, 0.02
	card := must(NewBox(mgl64.Vec3{0.005, 0.3, 0.45}))
	pa := Pose{Position: mgl64.Vec3{-1.074994, 0.000024, 0.435208}, Rotation: mgl64.Quat{W: 0.991005, V: mgl64.Vec3{0.000006, 0.133828, -0.000044}}.Normalize()}
	pb := Pose{Position: mgl64.Vec3{-0.905185, -0.001008, 1.318429}, Rotation: mgl64.Quat{W: 0.068533, V: mgl64.Vec3{0.000679, -0.997647, 0.001564}}.Normalize()}
	ma := Motion{Linear: mgl64.Vec3{0.142750, -0.000157, 0.133483}.Mul(h), Angular: mgl64.Vec3{0.004776, -0.023017, 0.001288}.Mul(h)}
	mb := Motion{Linear: mgl64.Vec3{-0.594785, 0.002481, -1.538397}.Mul(h), Angular: mgl64.Vec3{-0.036148, -4.058943, 0.045580}.Mul(h)}
	fa, fb := pa.frame(), pb.frame()
	ga, gb := boxGJK(card.HalfExtents, &fa), boxGJK(card.HalfExtents, &fb)
	closest := gjkDistance(&ga, &gb, pb.Position.Sub(pa.Position))
	if closest.intersects {
		t.Fatal("the cards overlap: the pose is not the one captured")
	}
	for _, shape := range []Shape{card, cubeHull(card.HalfExtents)} {
		var m Manifold
		if _, err := CollideMoving(shape, pa, ma, shape, pb, mb, margin, nil, &m); err != nil {
			t.Fatal(err)
		}
		reached := 0
		for i := 0; i < 8; i++ {
			w := pb.Apply(boxVertex(card.HalfExtents, i))
			d, g := card.SignedDistance(pa.ApplyInverse(w))
			if !(d > 0) || d > margin {
				continue
			}
			toward := pa.Rotate(g).Mul(-1) // from the corner onto A
			tc, ok := turnOnto(&m, pa, ma, pb, mb, closest.pb, w, toward, d)
			if !ok {
				continue
			}
			reached++
			if angle, closing := tc.angle, tc.closing; closing > 0.1*d {
				t.Errorf("%T: turning the falling card %.3g rad about its closest point onto the other (its corner %d, %.4g m away) leaves every contact open by at least %.4g (%d points)", shape, angle, i, d, closing, m.Count)
			}
		}
		if reached < 2 {
			t.Fatalf("%T: %d corners of the falling card within reach: the pose is not the one captured", shape, reached)
		}
	}
}

// A card falling edge first across another's corner, as the impact scene brought them together
// (seed 12, 2.79 s): card B, falling at 2.4 m/s and turning at 7 rad/s, runs its bottom edge
// diagonally over the corner of card A, which lies flat, beyond A's end edge at one end and
// beyond its side edge at the other. The edge pair's closest points, at A's end edge, slant away
// from A's face, and with them and the corners' contacts alone the solve turned B down onto A's
// face over the corner, 5.2 mm deep. For every point of B's bottom edges that lies over A's face
// and that the pair's motion over the step can bring onto it (its approach plus how far the two
// turns can move it), the turn about the closest point that carries the point straight onto A's
// face must close some contact of the manifold (as in TestCardFallingPastAnEdgeHoldsTheTurn).
func TestCardFallingAcrossACornerHoldsTheFace(t *testing.T) {
	const h, margin = 0.01, 0.05
	half := mgl64.Vec3{0.005, 0.3, 0.45}
	card := must(NewBox(half))
	pa := Pose{Position: mgl64.Vec3{0.483221, 0.000636, 0.862813}, Rotation: mgl64.Quat{W: 0.699977, V: mgl64.Vec3{-0.001233, 0.714163, 0.001245}}.Normalize()}
	pb := Pose{Position: mgl64.Vec3{0.776821, 0.011929, 1.297295}, Rotation: mgl64.Quat{W: 0.181533, V: mgl64.Vec3{-0.018748, 0.983021, 0.019067}}.Normalize()}
	ma := Motion{Linear: mgl64.Vec3{-0.005200, 0.000204, -0.097632}.Mul(h), Angular: mgl64.Vec3{-0.004158, -0.001089, 0.000158}.Mul(h)}
	mb := Motion{Linear: mgl64.Vec3{-0.148459, 0.028615, -2.413883}.Mul(h), Angular: mgl64.Vec3{-4.150714, 4.289784, 3.418718}.Mul(h)}
	fa, fb := pa.frame(), pb.frame()
	ga, gb := boxGJK(half, &fa), boxGJK(half, &fb)
	closest := gjkDistance(&ga, &gb, pb.Position.Sub(pa.Position))
	if closest.intersects {
		t.Fatal("the cards overlap: the pose is not the one captured")
	}
	for _, shape := range []Shape{card, cubeHull(half)} {
		var m Manifold
		if _, err := CollideMoving(shape, pa, ma, shape, pb, mb, margin, nil, &m); err != nil {
			t.Fatal(err)
		}
		reached := 0
		for _, x := range []float64{-half[0], half[0]} {
			for i := 0; i <= 20; i++ {
				w := pb.Apply(mgl64.Vec3{x, -half[1] + 2*half[1]*float64(i)/20, half[2]})
				l := pa.ApplyInverse(w)
				if math.Abs(l[1]) > half[1] || math.Abs(l[2]) > half[2] || math.Abs(l[0]) <= half[0] {
					continue // not over A's face
				}
				d := math.Abs(l[0]) - half[0]
				toward := pa.Rotate(mgl64.Vec3{-math.Copysign(1, l[0]), 0, 0}) // onto A's face
				tc, ok := turnOnto(&m, pa, ma, pb, mb, closest.pb, w, toward, d)
				if d > margin || !ok {
					continue
				}
				reached++
				if angle, closing := tc.angle, tc.closing; closing > 0.1*d {
					t.Errorf("%T: turning the falling card %.3g rad about its closest point onto the other's face (its edge point %.4f, %.4g m above) leaves every contact open by at least %.4g (%d points)", shape, angle, w, d, closing, m.Count)
				}
			}
		}
		if reached < 4 {
			t.Fatalf("%T: %d points of the falling card's edges over the other's face within reach: the pose is not the one captured", shape, reached)
		}
	}
}

// turnClosing is what turnOnto measures: the turn's angle and the least gap any contact keeps.
type turnClosing struct{ angle, closing float64 }

// turnOnto turns B about its closest point on A (pivot) so that B's point w, d from A along
// toward, comes onto A, and returns the turn's angle and the least gap any of m's contacts keeps
// after that turn (each contact's gap plus its normal's part of its point's move). It reports
// false when the pair's motion over the step cannot close d at w (its approach plus how far the
// two turns can move w falls short) or the turn is undefined (w on the line through the pivot
// along toward).
func turnOnto(m *Manifold, pa Pose, ma Motion, pb Pose, mb Motion, pivot, w, toward mgl64.Vec3, d float64) (turnClosing, bool) {
	approach := mb.displacement(pb.Position, w).Sub(ma.displacement(pa.Position, w)).Dot(toward)
	turn := ma.Angular.Cross(w.Sub(pa.Position)).Len() + mb.Angular.Cross(w.Sub(pb.Position)).Len()
	arm := w.Sub(pivot)
	axis, ok := unit(arm.Cross(toward))
	if d-approach-turn > 0 || !ok {
		return turnClosing{}, false
	}
	angle := d / axis.Cross(arm).Dot(toward)
	closing := math.Inf(1)
	for _, c := range m.Contacts() {
		move := axis.Cross(c.PointOnB().Sub(pivot)).Mul(angle)
		closing = min(closing, c.Gap+c.Normal.Dot(move))
	}
	return turnClosing{angle, closing}, true
}
