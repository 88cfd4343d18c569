package collide

import (
	"math"
	"sort"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
)

func TestBoxBoxFaceFace(t *testing.T) {
	big := must(NewBox(mgl64.Vec3{2, 2, 0.5}))
	small := must(NewBox(mgl64.Vec3{0.5, 0.5, 0.5}))
	m := collideT(t, big, IdentityPose(), small, at(mgl64.Vec3{0.3, 0.2, 0.99}, mgl64.Quat{}), 0)
	checkManifold(t, &m, 0)
	if m.Count != 4 || !nearVec(m.Normal, mgl64.Vec3{0, 0, 1}, 1e-15) {
		t.Fatalf("%+v", m)
	}
	seen := map[mgl64.Vec3]bool{}
	for _, c := range m.Contacts() {
		if !near(c.Gap, -0.01, 1e-12) || !near(c.Point[2], 0.495, 1e-12) {
			t.Fatalf("contact %+v", c)
		}
		if c.Feature.A() != FaceFeature(4) || c.Feature.B().Type() != FeatureVertex || c.Feature.B().Index() >= 4 {
			t.Fatalf("feature %v", c.Feature)
		}
		seen[mgl64.Vec3{math.Round((c.Point[0] - 0.3) * 2), math.Round((c.Point[1] - 0.2) * 2)}] = true
		if !near(math.Abs(c.Point[0]-0.3), 0.5, 1e-12) || !near(math.Abs(c.Point[1]-0.2), 0.5, 1e-12) {
			t.Fatalf("corner %v", c.Point)
		}
	}
	if len(seen) != 4 {
		t.Fatalf("corners not distinct: %v", seen)
	}
	if m.Reference.Kind != ReferenceFaceA || m.Reference.A != FaceFeature(4) || m.Reference.B != FaceFeature(5) {
		t.Fatalf("reference %+v", m.Reference)
	}
	// Swapped order: the big box is still the reference, now as B.
	m2 := collideT(t, small, at(mgl64.Vec3{0.3, 0.2, 0.99}, mgl64.Quat{}), big, IdentityPose(), 0)
	if m2.Count != 4 || !nearVec(m2.Normal, mgl64.Vec3{0, 0, -1}, 1e-15) || m2.Reference.Kind != ReferenceFaceB {
		t.Fatalf("swapped %+v", m2)
	}
	for i := range m.Contacts() {
		if m2.Points[i].Point != m.Points[i].Point || m2.Points[i].Feature != m.Points[i].Feature.Swap() {
			t.Fatalf("swapped point %d: %+v vs %+v", i, m2.Points[i], m.Points[i])
		}
	}
}

func TestBoxBoxRotatedOnTop(t *testing.T) {
	big := must(NewBox(mgl64.Vec3{2, 2, 0.5}))
	small := must(NewBox(mgl64.Vec3{0.5, 0.5, 0.5}))
	q := rot(math.Pi/4, mgl64.Vec3{0, 0, 1})
	m := collideT(t, big, IdentityPose(), small, at(mgl64.Vec3{0, 0, 0.98}, q), 0)
	checkManifold(t, &m, 0)
	if m.Count != 4 {
		t.Fatalf("%+v", m)
	}
	d := math.Sqrt2 / 2
	for _, c := range m.Contacts() {
		r := math.Hypot(c.Point[0], c.Point[1])
		if !near(r, d, 1e-12) || !near(c.Gap, -0.02, 1e-12) || !near(math.Abs(c.Point[0])*math.Abs(c.Point[1]), 0, 1e-12) {
			t.Fatalf("diamond corner %+v", c)
		}
	}
}

// TestBoxBoxOctagonReduction: equal cubes, the upper turned 45°: the clipped overlap is an
// octagon; the four points kept span the largest area among its vertices.
func TestBoxBoxOctagonReduction(t *testing.T) {
	a := must(NewBox(mgl64.Vec3{0.5, 0.5, 0.5}))
	q := rot(math.Pi/4, mgl64.Vec3{0, 0, 1})
	m := collideT(t, a, IdentityPose(), a, at(mgl64.Vec3{0, 0, 0.99}, q), 0)
	checkManifold(t, &m, 0)
	if m.Count != 4 {
		t.Fatalf("%+v", m)
	}
	// The octagon's vertices: (±0.5, ±(√2/2 − 0.5)) and the same swapped.
	o := math.Sqrt2/2 - 0.5
	var oct []mgl64.Vec3
	for _, s := range [][2]float64{{1, 1}, {1, -1}, {-1, 1}, {-1, -1}} {
		oct = append(oct, mgl64.Vec3{0.5 * s[0], o * s[1]}, mgl64.Vec3{o * s[0], 0.5 * s[1]})
	}
	best := 0.0
	for i := 0; i < 8; i++ {
		for j := i + 1; j < 8; j++ {
			for k := j + 1; k < 8; k++ {
				for l := k + 1; l < 8; l++ {
					best = math.Max(best, polygonArea([]mgl64.Vec3{oct[i], oct[j], oct[k], oct[l]}))
				}
			}
		}
	}
	var pts []mgl64.Vec3
	for _, c := range m.Contacts() {
		if !near(c.Gap, -0.01, 1e-12) {
			t.Fatalf("gap %v", c.Gap)
		}
		pts = append(pts, mgl64.Vec3{c.Point[0], c.Point[1]})
	}
	// Clipping keeps points up to boxClipSlop outside the face, so allow that much extra area.
	if got := polygonArea(pts); got < best-1e-9 || got > best*(1+4*boxClipSlop) {
		t.Fatalf("kept area %v, best %v", got, best)
	}
}

// polygonArea returns the area of the convex hull of a few points in the xy plane.
func polygonArea(p []mgl64.Vec3) float64 {
	c := mgl64.Vec3{}
	for _, q := range p {
		c = c.Add(q)
	}
	c = c.Mul(1 / float64(len(p)))
	q := append([]mgl64.Vec3(nil), p...)
	sort.Slice(q, func(i, j int) bool {
		return math.Atan2(q[i][1]-c[1], q[i][0]-c[0]) < math.Atan2(q[j][1]-c[1], q[j][0]-c[0])
	})
	area := 0.0
	for i := range q {
		j := (i + 1) % len(q)
		area += q[i][0]*q[j][1] - q[j][0]*q[i][1]
	}
	return math.Abs(area) / 2
}

func TestBoxBoxEdgeEdge(t *testing.T) {
	a := must(NewBox(mgl64.Vec3{0.5, 0.5, 0.5}))
	qa := rot(math.Pi/4, mgl64.Vec3{1, 0, 0}) // top edge along x at z = √2/2
	qb := rot(math.Pi/4, mgl64.Vec3{0, 1, 0}) // bottom edge along y
	h := math.Sqrt2 / 2
	m := collideT(t, a, IdentityPose().Mul(at(mgl64.Vec3{}, qa)), a, at(mgl64.Vec3{0.1, -0.2, 2*h - 0.01}, qb), 0)
	checkManifold(t, &m, 0)
	if m.Count != 1 || m.Reference.Kind != ReferenceEdges {
		t.Fatalf("%+v", m)
	}
	c := m.Points[0]
	if !near(c.Gap, -0.01, 1e-12) || !nearVec(c.Normal, mgl64.Vec3{0, 0, 1}, 1e-12) || !nearVec(c.Point, mgl64.Vec3{0.1, 0, h - 0.005}, 1e-12) {
		t.Fatalf("contact %+v", c)
	}
	if c.Feature.A().Type() != FeatureEdge || c.Feature.B().Type() != FeatureEdge {
		t.Fatalf("feature %v", c.Feature)
	}
	// Speculative edge–edge, 2 cm apart.
	m = collideT(t, a, at(mgl64.Vec3{}, qa), a, at(mgl64.Vec3{0.1, -0.2, 2*h + 0.02}, qb), 0.05)
	if m.Count != 1 || !near(m.Points[0].Gap, 0.02, 1e-12) {
		t.Fatalf("speculative %+v", m)
	}
	if m = collideT(t, a, at(mgl64.Vec3{}, qa), a, at(mgl64.Vec3{0.1, -0.2, 2*h + 0.02}, qb), 0.01); m.Count != 0 {
		t.Fatalf("beyond margin %+v", m)
	}
}

func TestBoxBoxVertexFace(t *testing.T) {
	big := must(NewBox(mgl64.Vec3{2, 2, 0.5}))
	small := must(NewBox(mgl64.Vec3{0.5, 0.5, 0.5}))
	q := mgl64.QuatBetweenVectors(mgl64.Vec3{1, 1, 1}.Normalize(), mgl64.Vec3{0, 0, -1})
	z := 0.5 + math.Sqrt(3)/2 - 0.02
	m := collideT(t, big, IdentityPose(), small, at(mgl64.Vec3{0.4, -0.3, z}, q), 0)
	checkManifold(t, &m, 0)
	if m.Count != 1 {
		t.Fatalf("%+v", m)
	}
	c := m.Points[0]
	if !near(c.Gap, -0.02, 1e-12) || !nearVec(c.Point, mgl64.Vec3{0.4, -0.3, 0.49}, 1e-12) || c.Feature != MakeFeatureID(FaceFeature(4), VertexFeature(7)) {
		t.Fatalf("contact %+v", c)
	}
}

func TestBoxBoxSeparatedAndDeep(t *testing.T) {
	a := must(NewBox(mgl64.Vec3{0.5, 0.5, 0.5}))
	r := newRand(21)
	for i := 0; i < 200; i++ {
		pa, pb := randPose(r, 0.3), randPose(r, 0.3)
		m := collideT(t, a, pa, a, pb, 0)
		checkManifold(t, &m, 0)
		if m.Count == 0 {
			t.Fatalf("deep overlap gave no contact: %v %v", pa, pb)
		}
	}
	// Far apart: nothing, whatever the margin below the distance.
	m := collideT(t, a, IdentityPose(), a, at(mgl64.Vec3{3, 0, 0}, rot(0.3, mgl64.Vec3{1, 1, 1})), 0.5)
	if m.Count != 0 {
		t.Fatalf("separated: %+v", m)
	}
	// Coincident boxes: valid normal.
	m = collideT(t, a, IdentityPose(), a, IdentityPose(), 0)
	checkManifold(t, &m, 0)
	if m.Count == 0 || !near(m.Points[0].Gap, -1, 1e-12) {
		t.Fatalf("coincident: %+v", m)
	}
}

// TestBoxBoxRestingFeatureIDsStable rests a box on a box and jitters it slightly for 1,000
// steps, feeding each manifold back as prev: the same four feature ids must come back every
// step. Both a small box on a large one and equal boxes stacked exactly are checked.
func TestBoxBoxRestingFeatureIDsStable(t *testing.T) {
	cases := []struct {
		name   string
		lower  mgl64.Vec3
		upper  mgl64.Vec3
		offset mgl64.Vec3
	}{
		{"small on large", mgl64.Vec3{2, 2, 0.5}, mgl64.Vec3{0.5, 0.5, 0.5}, mgl64.Vec3{0.4, -0.3, 0}},
		{"equal stacked", mgl64.Vec3{0.5, 0.5, 0.5}, mgl64.Vec3{0.5, 0.5, 0.5}, mgl64.Vec3{}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			lower, upper := must(NewBox(tc.lower)), must(NewBox(tc.upper))
			r := newRand(31)
			const jitter = 1e-5
			var prev, cur Manifold
			var want [4]FeatureID
			for step := 0; step < 1000; step++ {
				pl := at(mgl64.Vec3{jitter * r.NormFloat64(), jitter * r.NormFloat64(), jitter * r.NormFloat64()}, rot(jitter*r.NormFloat64(), randUnit(r)))
				pu := at(tc.offset.Add(mgl64.Vec3{jitter * r.NormFloat64(), jitter * r.NormFloat64(), tc.lower[2] + tc.upper[2] - 1e-3 + jitter*r.NormFloat64()}), rot(jitter*r.NormFloat64(), randUnit(r)))
				p := &prev
				if step == 0 {
					p = nil
				}
				if _, err := Collide(lower, pl, upper, pu, 0.01, p, &cur); err != nil {
					t.Fatal(err)
				}
				if cur.Count != 4 {
					t.Fatalf("step %d: %d points", step, cur.Count)
				}
				ids := sortedIDs(&cur)
				if step == 0 {
					want = ids
				} else if ids != want {
					t.Fatalf("step %d: feature ids %v, want %v", step, ids, want)
				}
				prev = cur
			}
		})
	}
}

// sortedIDs returns the manifold's feature ids in increasing order.
func sortedIDs(m *Manifold) [4]FeatureID {
	var ids [4]FeatureID
	for i := 0; i < m.Count && i < 4; i++ {
		ids[i] = m.Points[i].Feature
	}
	sort.Slice(ids[:], func(i, j int) bool { return ids[i] < ids[j] })
	return ids
}

// TestBoxBoxHysteresis checks the preference for the previous reference face: equal stacked
// cubes, the upper one tilted, choose the lower box's top face by default; told that last step
// used the upper box's bottom face, they keep it while it is within the hysteresis band, and
// drop it once it is clearly worse.
func TestBoxBoxHysteresis(t *testing.T) {
	c := must(NewBox(mgl64.Vec3{0.5, 0.5, 0.5}))
	pl := IdentityPose()
	run := func(tilt float64, prev *Manifold) Manifold {
		var m Manifold
		pu := at(mgl64.Vec3{0, 0, 0.495 + 0.5*(math.Cos(tilt)+math.Sin(math.Abs(tilt)))}, rot(tilt, mgl64.Vec3{1, 0, 0}))
		if _, err := Collide(c, pl, c, pu, 0, prev, &m); err != nil {
			t.Fatal(err)
		}
		return m
	}
	m := run(0.01, nil)
	if m.Reference.Kind != ReferenceFaceA || m.Reference.A != FaceFeature(4) {
		t.Fatalf("default reference %+v", m.Reference)
	}
	prev := Manifold{Count: 1, Reference: Reference{Kind: ReferenceFaceB, A: FaceFeature(4), B: FaceFeature(5)}}
	m = run(0.01, &prev)
	if m.Reference.Kind != ReferenceFaceB || m.Reference.B != FaceFeature(5) {
		t.Fatalf("hysteresis did not keep B's face: %+v", m.Reference)
	}
	checkManifold(t, &m, 0)
	m = run(0.3, &prev)
	if m.Reference.Kind != ReferenceFaceA {
		t.Fatalf("a clearly worse previous face was kept: %+v", m.Reference)
	}
}

// cardPairs are poses of two 1 cm cards (half extents 0.005 × 0.3 × 0.45) from a card house hit
// by falling blocks: overlapping nearly parallel, where the least-penetration axis is an edge
// pair's a few degrees off a face normal, and separated, closing in at 20° off the vertical.
var cardPairs = []struct {
	name      string
	pa, pb    Pose
	separated bool
}{
	{
		name: "overlapping, lying on each other",
		pa:   at(mgl64.Vec3{-1.6702439091297565, -0.0005347950756763906, 0.09998907582223379}, mgl64.Quat{W: 0.7468454980963722, V: mgl64.Vec3{0.0004143419952877297, -0.6649265859430525, 0.009709047327570108}}),
		pb:   at(mgl64.Vec3{-1.0933407380226399, -0.0044032198697969704, 0.05201315869442931}, mgl64.Quat{W: 0.7404039944246318, V: mgl64.Vec3{-0.005050738049913586, -0.6721307279720586, 0.004086514523607433}}),
	},
	{
		name: "overlapping, leaning",
		pa:   at(mgl64.Vec3{0.14707804545179246, 0.002119409220677302, 0.23720103674218132}, mgl64.Quat{W: 0.4909412423535166, V: mgl64.Vec3{-0.015862339876637408, 0.8709991052273102, 0.009254265138247684}}),
		pb:   at(mgl64.Vec3{0.0934682236859645, -0.12141379739698185, 0.2863164511416586}, mgl64.Quat{W: 0.48997952461038685, V: mgl64.Vec3{-0.0259586997672687, 0.870569400214208, 0.036812100994734455}}),
	},
	{
		name:      "separated, falling onto a card",
		pa:        at(mgl64.Vec3{1.0798707653934516, -0.029385127462308078, 0.17900670542273345}, mgl64.Quat{W: 0.8323036519006146, V: mgl64.Vec3{0.0227115167004119, 0.5528153067935233, -0.03391245518758774}}),
		pb:        at(mgl64.Vec3{0.9883278065107505, -0.01196604332421026, 0.23792194427337507}, mgl64.Quat{W: 0.8315431696655634, V: mgl64.Vec3{0.05659705499156953, 0.5476123754519626, 0.07384725181540794}}),
		separated: true,
	},
}

// TestNearlyParallelCardsMakeFaceContacts checks faceContactCos on boxes and on the same cards
// as hulls: each pair gets a clipped face manifold of several points rather than the single
// point of an edge pair or of the closest points, which let the rest of the card sink one to
// three centimetres in a step. A separated pair's smallest gap stays between the exact distance
// times the cosine and the distance.
func TestNearlyParallelCardsMakeFaceContacts(t *testing.T) {
	half := mgl64.Vec3{0.005, 0.3, 0.45}
	card, hull := must(NewBox(half)), cubeHull(half)
	for _, pc := range cardPairs {
		for _, shapes := range [][2]Shape{{card, card}, {hull, hull}, {card, hull}} {
			m := collideT(t, shapes[0], pc.pa, shapes[1], pc.pb, 0.03)
			checkManifold(t, &m, 0.03)
			face := m.Reference.Kind == ReferenceFaceA || m.Reference.Kind == ReferenceFaceB
			if !face || m.Count < 2 {
				t.Errorf("%s, %T–%T: %d points, reference %+v; want a face manifold", pc.name, shapes[0], shapes[1], m.Count, m.Reference)
				continue
			}
			if pc.separated {
				d := bruteBoxBoxDistance(card, pc.pa, card, pc.pb)
				if g := m.MinGap(); g > d+1e-9 || g < d*faceContactCos-1e-9 {
					t.Errorf("%s, %T–%T: smallest gap %v, distance %v", pc.name, shapes[0], shapes[1], g, d)
				}
			}
		}
	}
}

// TestTouchingBoardsMakeAContact: a board tilted by up to 0.6° lying at a random yaw on a larger
// one, lowered until the lowest corner of the region over the lower board touches its top exactly
// (often a point on the lower board's edge). The separating axis then reports a separation of
// rounding size, and the exact distance query finds the boards overlapping. The pair must still
// have a contact, its smallest gap zero within a micrometre, as boxes and as hulls: the closest-point
// routine used to write nothing, and a board touching another at an edge went uncollided.
func TestTouchingBoardsMakeAContact(t *testing.T) {
	r := newRand(23)
	lowerHalf := mgl64.Vec3{0.45, 0.3, 0.005}
	lower, lowerHull := must(NewBox(lowerHalf)), cubeHull(lowerHalf)
	for trial := 0; trial < 400; trial++ {
		upperHalf, pose, _, ok := boardOnBoard(r, lowerHalf)
		if !ok {
			continue
		}
		upper, upperHull := must(NewBox(upperHalf)), cubeHull(upperHalf)
		for _, shapes := range [][2]Shape{{upper, lower}, {upperHull, lowerHull}} {
			m := collideT(t, shapes[0], pose, shapes[1], IdentityPose(), 0.02)
			if m.Count == 0 || math.Abs(m.MinGap()) > 1e-6 {
				t.Fatalf("trial %d, %T: %d points, smallest gap %v; want a contact touching", trial, shapes[0], m.Count, m.MinGap())
			}
		}
	}
}

// TestTiltedBoardsHoldTheTurn: a board falling edge first, steep (40–80° from the horizontal,
// yawed and rolled a little), its bottom edge beyond another board's end edge and above it, so that
// their closest points lie along a direction more than 15° from every face normal (vertex or edge
// over edge). Turning it about its closest point until another of its vertices within the margin
// reaches the lower board must be forbidden by the manifold's constraints to first order: some
// contact's gap, less the motion of B's point along its normal, must close to within a tenth of
// that vertex's distance. The closest points' contact alone does not move under that turn: so a
// card falling edge first onto a card's end turned about its one closest corner and sank 7 mm at
// the other end of its edge. Boxes and the same boxes as hulls are checked.
func TestTiltedBoardsHoldTheTurn(t *testing.T) {
	r := newRand(31)
	half := mgl64.Vec3{0.45, 0.3, 0.005}
	const margin = 0.1
	box, hull := must(NewBox(half)), cubeHull(half)
	checked := 0
	for trial := 0; checked < 100 && trial < 5000; trial++ {
		pitch := (40 + 40*r.Float64()) * math.Pi / 180
		yaw := (20*r.Float64() - 10) * math.Pi / 180
		roll := (10*r.Float64() - 5) * math.Pi / 180
		rot := mgl64.QuatRotate(yaw, mgl64.Vec3{0, 0, 1}).Mul(mgl64.QuatRotate(pitch, mgl64.Vec3{0, 1, 0})).Mul(mgl64.QuatRotate(roll, mgl64.Vec3{1, 0, 0}))
		pose := Pose{Rotation: rot}
		low := mgl64.Vec3{0, 0, math.Inf(1)}
		for i := 0; i < 8; i++ {
			if w := pose.Apply(boxVertex(half, i)); w[2] < low[2] {
				low = w
			}
		}
		target := mgl64.Vec3{half[0] + 0.03*r.Float64(), 0.1*r.Float64() - 0.05, half[2] + 0.01 + 0.03*r.Float64()}
		pose.Position = target.Sub(low)
		fa, fb := IdentityPose().frame(), pose.frame()
		ga, gb := boxGJK(half, &fa), boxGJK(half, &fb)
		d := gjkDistance(&ga, &gb, pose.Position)
		if d.intersects || d.distance > 0.8*margin {
			continue
		}
		dir, _ := unit(d.pb.Sub(d.pa))
		if boxFaceCos(IdentityPose(), dir) >= faceContactCos || boxFaceCos(pose, dir) >= faceContactCos {
			continue // near a face normal: speculativeFace's case
		}
		// B's vertex within the margin of A farthest from the closest point, and the turn about
		// the closest point that carries it straight onto A.
		var far, toward mgl64.Vec3
		dist, reach := 0.0, 0.0
		for i := 0; i < 8; i++ {
			w := pose.Apply(boxVertex(half, i))
			dv, g := box.SignedDistance(w)
			if dv > 0 && dv <= margin && w.Sub(d.pb).Len() > reach {
				far, toward, dist, reach = w, g.Mul(-1), dv, w.Sub(d.pb).Len()
			}
		}
		arm := far.Sub(d.pb)
		axis, ok := unit(arm.Cross(toward))
		if !ok || reach < 0.2 || d.distance < 0.2*dist {
			continue
		}
		rate := axis.Cross(arm).Dot(toward)
		if rate < 0 {
			axis, rate = axis.Mul(-1), -rate
		}
		angle := dist / rate
		checked++
		for _, shapes := range [][2]Shape{{box, box}, {hull, hull}} {
			m := collideT(t, shapes[0], IdentityPose(), shapes[1], pose, margin)
			closing := math.Inf(1)
			for _, c := range m.Contacts() {
				move := axis.Cross(c.PointOnB().Sub(d.pb)).Mul(angle)
				closing = min(closing, c.Gap+c.Normal.Dot(move))
			}
			if closing > 0.1*dist {
				t.Fatalf("trial %d, %T: turning the board %.3g rad onto the one below (its vertex %.4g away) leaves every contact open by at least %.4g (%d points)", trial, shapes[0], angle, dist, closing, m.Count)
			}
		}
	}
	if checked < 50 {
		t.Fatalf("only %d tilted poses checked", checked)
	}
}

// boxFaceCos is the largest |cos| between dir and a face normal of a box at pose.
func boxFaceCos(pose Pose, dir mgl64.Vec3) float64 {
	best := 0.0
	for _, a := range []mgl64.Vec3{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}} {
		best = max(best, math.Abs(pose.Rotation.Rotate(a).Dot(dir)))
	}
	return best
}

// Two cards whose ends cross in an X, as the impact scene brought them together (seed 12 under a
// variant): one lying nearly flat, the other leaning 14° with its end under the first's end, each
// rolled a few degrees the other way. Their best axis is an edge–edge axis near the flat card's
// face normal, so the manifold clips that face while the leaning card's face runs steeply under
// its end. Around that pose (B moved up to 5 mm and turned up to 3°), of each penetrating
// contact's two points — the contact point moved half its gap either way along the normal, one
// on each card's surface — at least one must lie in the other card (its signed distance at most
// 0.1 mm, a hundredth of a card): a clipped point below the reference card's far face is in
// neither. Before, such points went into the manifold with gaps of −2 and −16 cm on cards 1 cm
// thick that touched by 0.05 mm, and the solver pushed the cards apart as if they were that deep.
func TestCrossedCardEndsHaveNoPhantomDepth(t *testing.T) {
	r := newRand(47)
	half := mgl64.Vec3{0.005, 0.3, 0.45}
	box, hull := must(NewBox(half)), cubeHull(half)
	inside := func(p Pose, w mgl64.Vec3) float64 {
		d, _ := box.SignedDistance(p.Rotation.Conjugate().Rotate(w.Sub(p.Position)))
		return d
	}
	pa := Pose{Position: mgl64.Vec3{-1.0631, 0.0010, 0.0938}, Rotation: mgl64.Quat{W: 0.68899, V: mgl64.Vec3{0.03738, -0.72022, -0.07196}}.Normalize()}
	b0 := Pose{Position: mgl64.Vec3{-0.18646, 0.02724, 0.14434}, Rotation: mgl64.Quat{W: 0.78740, V: mgl64.Vec3{-0.02934, 0.61482, -0.03374}}.Normalize()}
	checked := 0
	for trial := 0; trial < 1000; trial++ {
		turn := mgl64.QuatRotate(3*math.Pi/180*r.Float64(), randUnit(r))
		pb := Pose{Position: b0.Position.Add(randInCube(r, 0.005)), Rotation: turn.Mul(b0.Rotation).Normalize()}
		for _, s := range []Shape{box, hull} {
			var m Manifold
			if _, err := Collide(s, pa, s, pb, 0.02, nil, &m); err != nil {
				t.Fatal(err)
			}
			for _, c := range m.Contacts() {
				if c.Gap >= 0 {
					continue
				}
				checked++
				onB, onA := c.Point.Add(c.Normal.Mul(0.5*c.Gap)), c.Point.Sub(c.Normal.Mul(0.5*c.Gap))
				if da, db := inside(pa, onB), inside(pb, onA); min(da, db) > 1e-4 {
					t.Errorf("trial %d (%T): a contact %.4g m deep whose points lie %.3g m outside A and %.3g m outside B (%v)", trial, s, -c.Gap, da, db, c.Feature)
				}
			}
		}
	}
	if checked < 100 {
		t.Fatalf("only %d penetrating contacts: the poses do not cross the cards", checked)
	}
}
