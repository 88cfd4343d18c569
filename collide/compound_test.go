package collide

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
)

// turnedAt returns the pose at position p rotated by angle about axis.
func turnedAt(p mgl64.Vec3, angle float64, axis mgl64.Vec3) Pose {
	return Pose{Position: p, Rotation: mgl64.QuatRotate(angle, axis.Normalize())}
}

// mixedCompound is a compound of one child of every allowed kind, some of them turned.
func mixedCompound() *Compound {
	return must(NewCompound([]CompoundChild{
		{must(NewBox(mgl64.Vec3{0.3, 0.2, 0.1})), turnedAt(mgl64.Vec3{0, 0, 0}, 0.3, mgl64.Vec3{0, 0, 1})},
		{must(NewSphere(0.15)), turnedAt(mgl64.Vec3{0.45, 0, 0.05}, 0, mgl64.Vec3{1, 0, 0})},
		{must(NewCapsule(0.08, 0.2)), turnedAt(mgl64.Vec3{-0.4, 0.1, 0}, math.Pi/2, mgl64.Vec3{0, 1, 0})},
		{cubeHull(mgl64.Vec3{0.1, 0.1, 0.1}), turnedAt(mgl64.Vec3{0, 0.3, 0.15}, 0.7, mgl64.Vec3{1, 1, 0})},
		{must(NewCylinder(0.1, 0.12)), turnedAt(mgl64.Vec3{0.1, -0.3, 0.05}, 0.5, mgl64.Vec3{0, 1, 1})},
	}))
}

// tableLegHalf and friends size the test table: a top of half extents (0.6, 0.4, 0.03) on four
// legs 0.47 m tall at (±0.5, ±0.3).
var (
	tableTopHalf = mgl64.Vec3{0.6, 0.4, 0.03}
	tableLegHalf = mgl64.Vec3{0.03, 0.03, 0.235}
	tableLegXY   = mgl64.Vec2{0.5, 0.3}
)

// tableChildren returns the table's top and legs with the legs' feet at z = 0.
func tableChildren() []CompoundChild {
	top := must(NewBox(tableTopHalf))
	leg := must(NewBox(tableLegHalf))
	ch := []CompoundChild{{top, Pose{Position: mgl64.Vec3{0, 0, 2*tableLegHalf[2] + tableTopHalf[2]}, Rotation: mgl64.QuatIdent()}}}
	for _, s := range [4][2]float64{{1, 1}, {-1, 1}, {-1, -1}, {1, -1}} {
		p := mgl64.Vec3{s[0] * tableLegXY[0], s[1] * tableLegXY[1], tableLegHalf[2]}
		ch = append(ch, CompoundChild{leg, Pose{Position: p, Rotation: mgl64.QuatIdent()}})
	}
	return ch
}

// TestCompoundTwoBoxesIsOneBox checks that two boxes side by side have the mass properties of one
// box twice as long, and that turning the pair turns its inertia.
func TestCompoundTwoBoxesIsOneBox(t *testing.T) {
	h := mgl64.Vec3{0.5, 0.3, 0.2}
	half := must(NewBox(h))
	pair := must(NewCompound([]CompoundChild{
		{half, Pose{Position: mgl64.Vec3{-0.5, 0, 0}, Rotation: mgl64.QuatIdent()}},
		{half, Pose{Position: mgl64.Vec3{0.5, 0, 0}, Rotation: mgl64.QuatIdent()}},
	}))
	whole := must(must(NewBox(mgl64.Vec3{1, 0.3, 0.2})).MassProperties(700))
	got := must(pair.MassProperties(700))
	if !relClose(got.Mass, whole.Mass, 1e-14) || got.CenterOfMass.Len() > 1e-15 {
		t.Errorf("mass %v at %v, want %v at the origin", got.Mass, got.CenterOfMass, whole.Mass)
	}
	for k := range got.Inertia {
		if !near(got.Inertia[k], whole.Inertia[k], 1e-12*whole.Inertia[0]) {
			t.Fatalf("inertia %v, want %v", got.Inertia, whole.Inertia)
		}
	}
	if !relClose(pair.Volume(), 8*1*0.3*0.2, 1e-14) {
		t.Errorf("volume %v", pair.Volume())
	}
	// The same pair along y, built from boxes turned a quarter turn about z: the moments about x
	// and y swap.
	q := mgl64.QuatRotate(math.Pi/2, mgl64.Vec3{0, 0, 1})
	turned := must(NewCompound([]CompoundChild{
		{half, Pose{Position: mgl64.Vec3{0, -0.5, 0}, Rotation: q}},
		{half, Pose{Position: mgl64.Vec3{0, 0.5, 0}, Rotation: q}},
	}))
	tm := must(turned.MassProperties(700))
	want := mgl64.Diag3(mgl64.Vec3{whole.Inertia.At(1, 1), whole.Inertia.At(0, 0), whole.Inertia.At(2, 2)})
	for k := range tm.Inertia {
		if !near(tm.Inertia[k], want[k], 1e-12*want[0]) {
			t.Fatalf("turned pair: inertia %v, want %v", tm.Inertia, want)
		}
	}
}

// TestCompoundDumbbellInertia checks a dumbbell, two balls on a capsule bar along z, against the
// inertia worked out by hand from the solids' textbook moments and the parallel-axis theorem.
func TestCompoundDumbbellInertia(t *testing.T) {
	const rho, r, l, rc, hc = 1000.0, 0.1, 0.4, 0.02, 0.3 // ball radius, ball centre at ±l, bar radius and half length
	ball := must(NewSphere(r))
	bar := must(NewCapsule(rc, hc))
	for _, axis := range []int{0, 2} { // the bar along z, then turned to lie along x
		rot := mgl64.QuatIdent()
		var end mgl64.Vec3
		end[axis] = l
		if axis == 0 {
			rot = mgl64.QuatRotate(math.Pi/2, mgl64.Vec3{0, 1, 0})
		}
		d := must(NewCompound([]CompoundChild{
			{ball, Pose{Position: end, Rotation: mgl64.QuatIdent()}},
			{ball, Pose{Position: end.Mul(-1), Rotation: mgl64.QuatIdent()}},
			{bar, Pose{Rotation: rot}},
		}))
		mp := must(d.MassProperties(rho))
		mb := rho * 4 / 3 * math.Pi * r * r * r
		// The bar: a cylinder of length 2hc and two hemispherical caps of centroid 3rc/8 out from
		// the cylinder's ends, each with moment 83/320·m·rc² about its centroid's transverse axis.
		mcyl := rho * math.Pi * rc * rc * 2 * hc
		mcap := rho * 2 / 3 * math.Pi * rc * rc * rc
		dc := hc + 3*rc/8
		barAxial := mcyl*rc*rc/2 + 2*(2.0/5*mcap*rc*rc)
		barTrans := mcyl*(rc*rc/4+(2*hc)*(2*hc)/12) + 2*(83.0/320*mcap*rc*rc+mcap*dc*dc)
		wantAxial := 2*(2.0/5*mb*r*r) + barAxial
		wantTrans := 2*(2.0/5*mb*r*r+mb*l*l) + barTrans
		wantMass := 2*mb + mcyl + 2*mcap
		if !relClose(mp.Mass, wantMass, 1e-12) || mp.CenterOfMass.Len() > 1e-15 {
			t.Errorf("axis %d: mass %v at %v, want %v", axis, mp.Mass, mp.CenterOfMass, wantMass)
		}
		for i := 0; i < 3; i++ {
			want := wantTrans
			if i == axis {
				want = wantAxial
			}
			if !relClose(mp.Inertia.At(i, i), want, 1e-12) {
				t.Errorf("axis %d: I[%d][%d] = %v, want %v", axis, i, i, mp.Inertia.At(i, i), want)
			}
			for j := 0; j < 3; j++ {
				if i != j && math.Abs(mp.Inertia.At(i, j)) > 1e-12*wantAxial {
					t.Errorf("axis %d: I[%d][%d] = %v, want 0", axis, i, j, mp.Inertia.At(i, j))
				}
			}
		}
	}
}

// TestCompoundMassMatchesVoxels checks the mass properties of an L of two turned boxes and an
// off-centre ball against a voxel integration of the compound's inside (SignedDistance < 0),
// a method that knows nothing of the parallel-axis theorem.
func TestCompoundMassMatchesVoxels(t *testing.T) {
	c := must(NewCompound([]CompoundChild{
		{must(NewBox(mgl64.Vec3{0.4, 0.1, 0.1})), turnedAt(mgl64.Vec3{0.3, 0, 0}, 0.4, mgl64.Vec3{0, 0, 1})},
		{must(NewBox(mgl64.Vec3{0.1, 0.1, 0.3})), turnedAt(mgl64.Vec3{-0.15, -0.1, 0.45}, 0.2, mgl64.Vec3{1, 0, 0})},
		{must(NewSphere(0.12)), turnedAt(mgl64.Vec3{0.1, 0.35, -0.1}, 0, mgl64.Vec3{1, 0, 0})},
	}))
	mp := must(c.MassProperties(1))
	box := c.Bounds(IdentityPose())
	const n = 80
	size := box.Size()
	cell := size.Mul(1.0 / n)
	dv := cell[0] * cell[1] * cell[2]
	var mass float64
	var first mgl64.Vec3
	var second mgl64.Mat3
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			for k := 0; k < n; k++ {
				p := box.Min.Add(mgl64.Vec3{(float64(i) + 0.5) * cell[0], (float64(j) + 0.5) * cell[1], (float64(k) + 0.5) * cell[2]})
				if d, _ := c.SignedDistance(p); d >= 0 {
					continue
				}
				mass += dv
				first = madd(first, p, dv)
				second = second.Add(p.OuterProd3(p).Mul(dv))
			}
		}
	}
	com := first.Mul(1 / mass)
	// Inertia about the centre of mass from the second moment: tr(S)·E − S with S = Σ(p−c)(p−c)ᵀ.
	s := second.Sub(com.OuterProd3(com).Mul(mass))
	inertia := mgl64.Ident3().Mul(s.Trace()).Sub(s)
	if !relClose(mp.Mass, mass, 0.01) {
		t.Errorf("mass %v, voxels %v", mp.Mass, mass)
	}
	if !nearVec(mp.CenterOfMass, com, 0.005) {
		t.Errorf("centre of mass %v, voxels %v", mp.CenterOfMass, com)
	}
	scale := inertia.At(0, 0) + inertia.At(1, 1) + inertia.At(2, 2)
	for k := range inertia {
		if !near(mp.Inertia[k], inertia[k], 0.01*scale) {
			t.Fatalf("inertia %v, voxels %v", mp.Inertia, inertia)
		}
	}
	if mp.CenterOfMass.Len() < 0.05 {
		t.Fatalf("the test compound should be off-centre, centre of mass %v", mp.CenterOfMass)
	}
}

// TestCompoundCentered checks that NewCompoundCentered moves the centre of mass to the origin and
// that the centred compound, placed at the offset, covers the same space as the original.
func TestCompoundCentered(t *testing.T) {
	children := mixedCompound().children
	orig := must(NewCompound(children))
	want := must(orig.MassProperties(1)).CenterOfMass
	c, off, err := NewCompoundCentered(children)
	if err != nil {
		t.Fatal(err)
	}
	if !nearVec(off, want, 1e-15) || off.Len() < 0.01 {
		t.Errorf("offset %v, want the centre of mass %v", off, want)
	}
	if got := must(c.MassProperties(1)).CenterOfMass; got.Len() > 1e-12 {
		t.Errorf("centred compound's centre of mass %v", got)
	}
	if children[0].Pose.Position != (mgl64.Vec3{}) {
		t.Errorf("the caller's children were changed: %v", children[0].Pose)
	}
	r := newRand(3)
	pose := randPose(r, 1)
	moved := pose.Mul(Pose{Position: off, Rotation: mgl64.QuatIdent()})
	for k := 0; k < 200; k++ {
		p := randInCube(r, 1.5).Add(pose.Position)
		d0, _ := orig.SignedDistance(pose.ApplyInverse(p))
		d1, _ := c.SignedDistance(moved.ApplyInverse(p))
		if !near(d0, d1, 1e-12) {
			t.Fatalf("point %v: distance %v from the original, %v from the centred compound", p, d0, d1)
		}
	}
}

// TestCompoundRefusesBadChildren checks that each kind of bad child is refused with a *FieldError
// naming the child's index and field.
func TestCompoundRefusesBadChildren(t *testing.T) {
	box := must(NewBox(mgl64.Vec3{0.1, 0.1, 0.1}))
	id := IdentityPose()
	ok := CompoundChild{box, id}
	sixtyFive := make([]CompoundChild, MaxCompoundChildren+1)
	for i := range sixtyFive {
		sixtyFive[i] = ok
	}
	for _, c := range []struct {
		children []CompoundChild
		field    string
	}{
		{nil, "Compound.Children"},
		{sixtyFive, "Compound.Children"},
		{[]CompoundChild{ok, ok, {nil, id}}, "Compound.Children[2].Shape"},
		{[]CompoundChild{ok, {must(NewHalfSpace(mgl64.Vec3{0, 0, 1}, 0)), id}}, "Compound.Children[1].Shape"},
		{[]CompoundChild{{boxMesh(mgl64.Vec3{1, 1, 1}), id}}, "Compound.Children[0].Shape"},
		{[]CompoundChild{ok, {must(NewSDFGridFromShape(box, 0.05, 0.05)), id}}, "Compound.Children[1].Shape"},
		{[]CompoundChild{ok, {mixedCompound(), id}}, "Compound.Children[1].Shape"},
		{[]CompoundChild{ok, ok, ok, {&Box{HalfExtents: mgl64.Vec3{0.1, -1, 0.1}}, id}}, "Compound.Children[3].Shape (Box.HalfExtents.y)"},
		{[]CompoundChild{ok, {&ConvexHull{}, id}}, "Compound.Children[1].Shape (ConvexHull)"},
		{[]CompoundChild{ok, {box, Pose{Position: mgl64.Vec3{0, math.NaN(), 0}, Rotation: mgl64.QuatIdent()}}}, "Compound.Children[1].Pose.Position.y"},
		{[]CompoundChild{{box, Pose{Rotation: mgl64.Quat{W: 2}}}}, "Compound.Children[0].Pose.Rotation"},
		{[]CompoundChild{ok, {box, Pose{Rotation: mgl64.Quat{W: math.Inf(1)}}}}, "Compound.Children[1].Pose.Rotation.W"},
	} {
		got, err := NewCompound(c.children)
		if got != nil || !containsField(err, c.field) {
			t.Errorf("%d children: got %v, %v; want a *FieldError for %q", len(c.children), got, err, c.field)
		}
		if len(c.children) > 0 && len(c.children) <= MaxCompoundChildren {
			if _, _, err := NewCompoundCentered(c.children); !containsField(err, c.field) {
				t.Errorf("NewCompoundCentered: %v, want a *FieldError for %q", err, c.field)
			}
		}
	}
	if c, err := NewCompound(sixtyFive[:MaxCompoundChildren]); err != nil || c.NumChildren() != MaxCompoundChildren {
		t.Errorf("%d children refused: %v", MaxCompoundChildren, err)
	}
}

// childVertices returns points whose convex hull is child i's shape (in the compound's frame; not
// for a cylinder, whose support the test computes directly), for the brute-force support check;
// a sphere or capsule gives its centres and radius instead.
func childVertices(ch CompoundChild) (pts []mgl64.Vec3, radius float64) {
	switch s := ch.Shape.(type) {
	case *Box:
		for i := 0; i < 8; i++ {
			v := mgl64.Vec3{s.HalfExtents[0], s.HalfExtents[1], s.HalfExtents[2]}
			for k := 0; k < 3; k++ {
				if i>>k&1 == 1 {
					v[k] = -v[k]
				}
			}
			pts = append(pts, ch.Pose.Apply(v))
		}
	case *ConvexHull:
		for _, v := range s.Vertices() {
			pts = append(pts, ch.Pose.Apply(v))
		}
	case *Sphere:
		pts, radius = []mgl64.Vec3{ch.Pose.Position}, s.Radius
	case *Capsule:
		pts = []mgl64.Vec3{ch.Pose.Apply(mgl64.Vec3{0, 0, s.HalfHeight}), ch.Pose.Apply(mgl64.Vec3{0, 0, -s.HalfHeight})}
		radius = s.Radius
	}
	return pts, radius
}

// TestCompoundSupportAndDistance checks Support against the brute-force maximum over the
// children's vertices (or centres plus radius), SignedDistance outside against the distance to
// the nearest of many surface samples, and the sign of SignedDistance against the children's.
func TestCompoundSupportAndDistance(t *testing.T) {
	c := mixedCompound()
	r := newRand(11)
	for k := 0; k < 500; k++ {
		d := randUnit(r)
		best := math.Inf(-1)
		for _, ch := range c.children {
			if cy, ok := ch.Shape.(*Cylinder); ok {
				// The rim point furthest along d: the cap centre along the axis a, then r along
				// d's part normal to a.
				a := ch.Pose.Rotate(mgl64.Vec3{0, 0, 1})
				da := d.Dot(a)
				best = max(best, ch.Pose.Position.Dot(d)+math.Abs(da)*cy.HalfHeight+cy.Radius*math.Sqrt(max(0, 1-da*da)))
				continue
			}
			pts, rad := childVertices(ch)
			for _, p := range pts {
				best = max(best, p.Dot(d)+rad)
			}
		}
		if got := c.Support(d).Dot(d); !near(got, best, 1e-12) {
			t.Fatalf("Support(%v)·d = %v, brute force %v", d, got, best)
		}
	}
	b := c.Bounds(IdentityPose())
	for i := 0; i < 3; i++ {
		var e mgl64.Vec3
		e[i] = 1
		if hi, lo := c.Support(e)[i], c.Support(e.Mul(-1))[i]; hi > b.Max[i]+1e-12 || lo < b.Min[i]-1e-12 || hi < b.Max[i]-0.05 {
			t.Errorf("axis %d: support %v..%v, bounds %v..%v", i, lo, hi, b.Min[i], b.Max[i])
		}
	}
	if p := c.Support(mgl64.Vec3{}); !near(p[2], c.Support(mgl64.Vec3{0, 0, 1})[2], 0) {
		t.Errorf("Support(0) = %v, want the top point", p)
	}
	// Surface samples: each child's surface points that no other child covers.
	var surface []mgl64.Vec3
	for i, ch := range c.children {
		for n := 0; n < 4000; n++ {
			u := randUnit(r)
			p := ch.Pose.Apply(ch.Shape.Support(ch.Pose.InverseRotate(u)))
			// Support points cover the convex surface; add points along faces by projecting
			// random interior points onto the child's surface.
			q := ch.Pose.Apply(randInCube(r, 0.4))
			dq, nq := ch.Shape.SignedDistance(ch.Pose.ApplyInverse(q))
			q = madd(q, ch.Pose.Rotate(nq), -dq)
			for _, s := range []mgl64.Vec3{p, q} {
				covered := false
				for j, o := range c.children {
					if d, _ := o.Shape.SignedDistance(o.Pose.ApplyInverse(s)); j != i && d < 0 {
						covered = true
					}
				}
				if !covered {
					surface = append(surface, s)
				}
			}
		}
	}
	for k := 0; k < 300; k++ {
		p := randInCube(r, 1.2)
		d, n := c.SignedDistance(p)
		if !isUnit(n) {
			t.Fatalf("SignedDistance(%v) normal %v", p, n)
		}
		inside := false
		for _, ch := range c.children {
			if dc, _ := ch.Shape.SignedDistance(ch.Pose.ApplyInverse(p)); dc < 0 {
				inside = true
			}
		}
		if inside != (d < 0) {
			t.Fatalf("SignedDistance(%v) = %v, inside a child: %v", p, d, inside)
		}
		if d <= 0.02 {
			continue
		}
		nearest := math.Inf(1)
		for _, s := range surface {
			nearest = min(nearest, s.Sub(p).Len())
		}
		// The samples are a finite subset of the surface: the true distance is at most the
		// nearest sample's, and not much less.
		if d > nearest+1e-9 || d < nearest-0.03 {
			t.Fatalf("SignedDistance(%v) = %v, nearest surface sample %v", p, d, nearest)
		}
		if foot := madd(p, n, -d); !near(must2(c.SignedDistance(foot)), 0, 1e-9) {
			t.Fatalf("SignedDistance(%v): foot %v is not on the surface", p, foot)
		}
	}
}

// must2 returns the first of two results.
func must2(d float64, _ mgl64.Vec3) float64 { return d }

// TestCompoundTableOnGround checks that a table resting on the ground (a half-space, a box mesh
// and a box's SDF grid) gets its contacts under its legs only, one per leg, from each order of
// the pair.
func TestCompoundTableOnGround(t *testing.T) {
	table := must(NewCompound(tableChildren()))
	ground := must(NewHalfSpace(mgl64.Vec3{0, 0, 1}, 0))
	slab := boxMesh(mgl64.Vec3{3, 3, 0.5})
	slabPose := Pose{Position: mgl64.Vec3{0, 0, -0.5}, Rotation: mgl64.QuatIdent()}
	grid := must(NewSDFGridFromShape(must(NewBox(mgl64.Vec3{1.5, 1.5, 0.5})), 0.1, 0.1))
	pose := Pose{Position: mgl64.Vec3{0.2, -0.1, -0.001}, Rotation: mgl64.QuatIdent()}
	for _, g := range []struct {
		name  string
		shape Shape
		pose  Pose
	}{{"half-space", ground, IdentityPose()}, {"mesh", slab, slabPose}, {"SDF grid", grid, slabPose}} {
		for _, swap := range []bool{false, true} {
			var m Manifold
			var hit bool
			var err error
			if swap {
				hit, err = Collide(g.shape, g.pose, table, pose, 0.05, nil, &m)
			} else {
				hit, err = Collide(table, pose, g.shape, g.pose, 0.05, nil, &m)
			}
			if err != nil || !hit || m.Count != 4 {
				t.Fatalf("%s (swapped %v): hit %v, %d points, %v", g.name, swap, hit, m.Count, err)
			}
			legs := map[int]bool{}
			for _, c := range m.Contacts() {
				f := c.Feature.A()
				if swap {
					f = c.Feature.B()
				}
				child, _ := SplitCompoundFeature(f)
				local := c.Point.Sub(pose.Position)
				lx, ly := math.Abs(local[0]), math.Abs(local[1])
				if child < 1 || child > 4 || math.Abs(lx-tableLegXY[0]) > tableLegHalf[0]+1e-9 || math.Abs(ly-tableLegXY[1]) > tableLegHalf[1]+1e-9 {
					t.Errorf("%s (swapped %v): point %v (child %d) is not under a leg", g.name, swap, local, child)
				}
				if !near(c.Gap, -0.001, 1e-9) {
					t.Errorf("%s: gap %v, want -0.001", g.name, c.Gap)
				}
				wantN := mgl64.Vec3{0, 0, -1}
				if swap {
					wantN = wantN.Mul(-1)
				}
				if !nearVec(c.Normal, wantN, 1e-12) {
					t.Errorf("%s: normal %v, want %v", g.name, c.Normal, wantN)
				}
				legs[child] = true
			}
			if len(legs) != 4 {
				t.Errorf("%s (swapped %v): contacts under legs %v, want all four", g.name, swap, legs)
			}
		}
	}
}

// featureSet returns the sorted feature ids of m.
func featureSet(m *Manifold) []FeatureID {
	var ids []FeatureID
	for _, c := range m.Contacts() {
		ids = append(ids, c.Feature)
	}
	slices.Sort(ids)
	return ids
}

// TestCompoundFeaturesStable checks that the feature ids of a compound's contacts stay the same
// from one call to the next at a slightly moved pose, against the ground and against a box (whose
// pair routine chooses a reference face from prev), and that they differ between children.
func TestCompoundFeaturesStable(t *testing.T) {
	table := must(NewCompound(tableChildren()))
	ground := must(NewHalfSpace(mgl64.Vec3{0, 0, 1}, 0))
	floor := must(NewBox(mgl64.Vec3{2, 2, 0.1}))
	floorPose := Pose{Position: mgl64.Vec3{0, 0, -0.1}, Rotation: mgl64.QuatIdent()}
	p0 := turnedAt(mgl64.Vec3{0, 0, -0.002}, 0.002, mgl64.Vec3{1, 0.3, 0})
	p1 := turnedAt(mgl64.Vec3{1e-4, -2e-4, -0.0021}, 0.0025, mgl64.Vec3{1, 0.35, 0.05})
	for _, g := range []struct {
		name  string
		shape Shape
		pose  Pose
	}{{"half-space", ground, IdentityPose()}, {"box", floor, floorPose}} {
		var m0, m1 Manifold
		if _, err := Collide(table, p0, g.shape, g.pose, 0.02, nil, &m0); err != nil {
			t.Fatal(err)
		}
		if _, err := Collide(table, p1, g.shape, g.pose, 0.02, &m0, &m1); err != nil {
			t.Fatal(err)
		}
		ids0, ids1 := featureSet(&m0), featureSet(&m1)
		if len(ids0) != 4 || !slices.Equal(ids0, ids1) {
			t.Errorf("%s: features %v, then %v", g.name, ids0, ids1)
		}
		children := map[int]bool{}
		for _, id := range ids0 {
			c, _ := SplitCompoundFeature(id.A())
			children[c] = true
		}
		if len(children) != 4 {
			t.Errorf("%s: contacts from children %v, want the four legs", g.name, children)
		}
	}
}

// randomChild returns a random allowed child at a random pose within 0.5 m of the origin.
func randomChild(r *rand.Rand) CompoundChild {
	pose := randPose(r, 0.5)
	switch r.IntN(4) {
	case 0:
		return CompoundChild{must(NewSphere(0.05 + 0.2*r.Float64())), pose}
	case 1:
		return CompoundChild{must(NewBox(mgl64.Vec3{0.05 + 0.2*r.Float64(), 0.05 + 0.2*r.Float64(), 0.05 + 0.2*r.Float64()})), pose}
	case 2:
		return CompoundChild{must(NewCapsule(0.05+0.1*r.Float64(), 0.2*r.Float64())), pose}
	}
	pts := make([]mgl64.Vec3, 12)
	for i := range pts {
		pts[i] = randInCube(r, 0.2)
	}
	return CompoundChild{must(NewConvexHull(pts)), pose}
}

// randomCompound returns a compound of 1 to 4 random children.
func randomCompound(r *rand.Rand) *Compound {
	ch := make([]CompoundChild, 1+r.IntN(4))
	for i := range ch {
		ch[i] = randomChild(r)
	}
	return must(NewCompound(ch))
}

// TestCompoundCollideMatchesChildren collides random compounds with random shapes (and other
// compounds) and checks the result against colliding each child separately: contact exactly when
// some child touches, the same deepest gap, and every point one of its child pair's points.
func TestCompoundCollideMatchesChildren(t *testing.T) {
	r := newRand(7)
	ground := must(NewHalfSpace(mgl64.Vec3{0, 0, 1}, 0))
	hit := 0
	for k := 0; k < 400; k++ {
		a := randomCompound(r)
		pa := randPose(r, 0.3)
		var b Shape
		switch k % 4 {
		case 0:
			b = ground
		case 1:
			b = randomCompound(r)
		default:
			b = randomChild(r).Shape
		}
		pb := randPose(r, 0.8)
		if b == ground {
			pb = IdentityPose()
		}
		const margin = 0.05
		var m, mr Manifold
		ok, err := Collide(a, pa, b, pb, margin, nil, &m)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Collide(b, pb, a, pa, margin, nil, &mr); err != nil {
			t.Fatal(err)
		}
		// Each child pair on its own, keyed by the tagged child indices.
		bChildren := []CompoundChild{{b, IdentityPose()}}
		bc, bCompound := b.(*Compound)
		if bCompound {
			bChildren = bc.children
		}
		deepest := math.Inf(1)
		pairs := map[[2]int]Manifold{}
		for i, ca := range a.children {
			for j, cb := range bChildren {
				wb := pb
				if bCompound {
					wb = pb.Mul(cb.Pose)
				}
				var cm Manifold
				if _, err := Collide(ca.Shape, pa.Mul(ca.Pose), cb.Shape, wb, margin, nil, &cm); err != nil {
					t.Fatal(err)
				}
				if cm.Count > 0 {
					pairs[[2]int{i, j}] = cm
					deepest = min(deepest, cm.MinGap())
				}
			}
		}
		if ok != (len(pairs) > 0) {
			t.Fatalf("case %d: compound hit %v, child pairs touching %d", k, ok, len(pairs))
		}
		if !ok {
			continue
		}
		hit++
		if m.MinGap() != deepest || mr.MinGap() != deepest || mr.Count != m.Count {
			t.Fatalf("case %d: deepest gap %v (reversed %v, %d vs %d points), children %v", k, m.MinGap(), mr.MinGap(), mr.Count, m.Count, deepest)
		}
		for _, c := range m.Contacts() {
			i, fa := SplitCompoundFeature(c.Feature.A())
			j, fb := 0, c.Feature.B()
			if bCompound {
				j, fb = SplitCompoundFeature(fb)
			}
			cm, found := pairs[[2]int{i, j}]
			match := false
			for _, q := range cm.Contacts() {
				if q.Feature == MakeFeatureID(fa, fb) && q.Point == c.Point && q.Gap == c.Gap && q.Normal == c.Normal {
					match = true
				}
			}
			if !found || !match {
				t.Fatalf("case %d: point %+v (children %d, %d) is not one of its child pair's %+v", k, c, i, j, cm.Contacts())
			}
		}
	}
	if hit < 100 {
		t.Errorf("only %d of 400 cases touched", hit)
	}
}

// TestCompoundRayCast checks that a ray hits the nearest child, against each child cast
// separately, and names that child in the feature.
func TestCompoundRayCast(t *testing.T) {
	table := must(NewCompound(tableChildren()))
	pose := turnedAt(mgl64.Vec3{1, 2, 0}, 0.4, mgl64.Vec3{0, 0, 1})
	// From below between the legs: the underside of the top, 0.47 m up.
	h, hit, err := RayCast(table, pose, pose.Apply(mgl64.Vec3{0.1, 0.05, -1}), mgl64.Vec3{0, 0, 1}, 5)
	if child, f := SplitCompoundFeature(h.Feature); err != nil || !hit || !near(h.T, 1.47, 1e-12) || child != 0 || f != FaceFeature(boxFaceIndex(2, -1)) || !nearVec(h.Normal, mgl64.Vec3{0, 0, -1}, 1e-12) {
		t.Errorf("ray from below: %+v hit %v err %v", h, hit, err)
	}
	// Along the long side at leg height: the leg at (+0.5, +0.3) first.
	h, hit, err = RayCast(table, pose, pose.Apply(mgl64.Vec3{2, 0.3, 0.1}), pose.Rotate(mgl64.Vec3{-1, 0, 0}), 5)
	if child, _ := SplitCompoundFeature(h.Feature); err != nil || !hit || !near(h.T, 1.47, 1e-12) || child != 1 {
		t.Errorf("ray along the side: %+v hit %v err %v", h, hit, err)
	}
	r := newRand(5)
	for k := 0; k < 300; k++ {
		c := randomCompound(r)
		cp := randPose(r, 0.3)
		o := randUnit(r).Mul(2)
		d := randInCube(r, 0.4).Sub(o)
		best, bestChild := math.Inf(1), -1
		for i, ch := range c.children {
			if hc, ok, err := RayCast(ch.Shape, cp.Mul(ch.Pose), o, d, 5); err == nil && ok && hc.T < best {
				best, bestChild = hc.T, i
			}
		}
		h, hit, err := RayCast(c, cp, o, d, 5)
		if err != nil || hit != (bestChild >= 0) {
			t.Fatalf("case %d: hit %v err %v, children hit %v", k, hit, err, bestChild >= 0)
		}
		if child, _ := SplitCompoundFeature(h.Feature); hit && (!near(h.T, best, 1e-12) || child != bestChild) {
			t.Fatalf("case %d: T %v child %d, nearest child %d at %v", k, h.T, child, bestChild, best)
		}
	}
}

// TestCompoundFeatureRoundTrip checks that CompoundFeature and SplitCompoundFeature are inverse
// for every child index and keep the feature's type.
func TestCompoundFeatureRoundTrip(t *testing.T) {
	for i := 0; i < MaxCompoundChildren; i++ {
		for _, f := range []Feature{FaceFeature(5), EdgeFeature(1 << 20), VertexFeature(0), 0} {
			g := CompoundFeature(i, f)
			if c, h := SplitCompoundFeature(g); c != i || h != f || g.Type() != f.Type() {
				t.Fatalf("CompoundFeature(%d, %v) = %v splits into %d, %v", i, f, g, c, h)
			}
		}
	}
}
