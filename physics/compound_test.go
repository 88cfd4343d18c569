package physics

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/stagger-physics/stagger/collide"
	"github.com/stagger-physics/stagger/ecs"
)

// Test table: a top of half extents (0.6, 0.4, 0.03) on four legs 0.47 m tall at (±0.5, ±0.3),
// with the feet at z = 0 in the frame the children are given in.
var (
	tableTop = mgl64.Vec3{0.6, 0.4, 0.03}
	tableLeg = mgl64.Vec3{0.03, 0.03, 0.235}
	tableXY  = [2]float64{0.5, 0.3}
)

// identity places a child at p without turning it.
func identity(p mgl64.Vec3) collide.Pose {
	return collide.Pose{Position: p, Rotation: mgl64.QuatIdent()}
}

// mustShape returns s, panicking (which fails the test) on a constructor error.
func mustShape[S any](s S, err error) S {
	if err != nil {
		panic(err)
	}
	return s
}

// tableCompound returns the table centred on its centre of mass and the offset of that centre
// from the middle of the feet.
func tableCompound(t testing.TB) (*collide.Compound, mgl64.Vec3) {
	t.Helper()
	top := mustShape(collide.NewBox(tableTop))
	leg := mustShape(collide.NewBox(tableLeg))
	ch := []collide.CompoundChild{{Shape: top, Pose: identity(mgl64.Vec3{0, 0, 2*tableLeg[2] + tableTop[2]})}}
	for _, s := range [4][2]float64{{1, 1}, {-1, 1}, {-1, -1}, {1, -1}} {
		ch = append(ch, collide.CompoundChild{Shape: leg, Pose: identity(mgl64.Vec3{s[0] * tableXY[0], s[1] * tableXY[1], tableLeg[2]})})
	}
	c, off, err := collide.NewCompoundCentered(ch)
	if err != nil {
		t.Fatal(err)
	}
	return c, off
}

// stepFor steps app for the given number of steps, failing the test on an error.
func stepFor(t testing.TB, app *ecs.App, steps int) {
	t.Helper()
	for range steps {
		if err := app.StepFixed(); err != nil {
			t.Fatal(err)
		}
	}
}

// tilt returns the angle, rad, between the body's z axis and the world's.
func tilt(b RigidBody) float64 {
	z := b.RotationMatrix().Col(2)
	return math.Acos(min(1, max(-1, z[2])))
}

// TestCompoundTableStands drops a table onto the ground: it lands on its four legs and stands
// still for 2 s, its centre of mass at the height worked out from its parts.
func TestCompoundTableStands(t *testing.T) {
	const h = 0.01
	app := newTestApp(t, h, DefaultConfig())
	spawnGround(t, app.World, mgl64.Vec3{0, 0, 1}, 0.8)
	table, off := tableCompound(t)
	// The centre of mass by hand: the top's mass at its middle, four legs' at theirs.
	mTop := 8 * tableTop[0] * tableTop[1] * tableTop[2]
	mLeg := 8 * tableLeg[0] * tableLeg[1] * tableLeg[2]
	wantZ := (mTop*(2*tableLeg[2]+tableTop[2]) + 4*mLeg*tableLeg[2]) / (mTop + 4*mLeg)
	if math.Abs(off[2]-wantZ) > 1e-12 || math.Hypot(off[0], off[1]) > 1e-12 {
		t.Fatalf("centre of mass %v from the feet, want (0, 0, %v)", off, wantZ)
	}
	e, err := Spawn(app.World, NewDynamic(mgl64.Vec3{0.3, -0.2, 0.05}.Add(off), 600), Collider{Shape: table})
	if err != nil {
		t.Fatal(err)
	}
	stepFor(t, app, 50) // 0.5 s: fall 5 cm and settle
	start := bodyOf(t, app.World, e)
	if math.Abs(start.Position[2]-wantZ) > 1e-4 || tilt(start) > 1e-4 {
		t.Fatalf("after landing: centre of mass at %v, tilt %v rad; want height %v, level", start.Position, tilt(start), wantZ)
	}
	drift, maxTilt := 0.0, 0.0
	for range 200 { // 2 s
		stepFor(t, app, 1)
		b := bodyOf(t, app.World, e)
		drift = max(drift, b.Position.Sub(start.Position).Len())
		maxTilt = max(maxTilt, tilt(b))
	}
	if drift > 1e-3 || maxTilt > 1e-4 {
		t.Errorf("standing table: drift %v m, tilt %v rad over 2 s", drift, maxTilt)
	}
	t.Logf("drift %.3g m, tilt %.3g rad, height error %.3g m", drift, maxTilt, start.Position[2]-wantZ)
}

// lShape returns an L standing on a post of foot 0.2 m × 0.2 m and height 1 m, with an arm of
// length 2·arm along the direction dir (a unit vector in the xy-plane) at its top, centred on its
// centre of mass; and that centre's offset from the middle of the foot.
func lShape(t testing.TB, arm float64, dir mgl64.Vec3) (*collide.Compound, mgl64.Vec3) {
	t.Helper()
	post := mustShape(collide.NewBox(mgl64.Vec3{0.1, 0.1, 0.5}))
	beam := mustShape(collide.NewBox(mgl64.Vec3{arm, 0.1, 0.05}))
	turn := mgl64.QuatRotate(math.Atan2(dir[1], dir[0]), mgl64.Vec3{0, 0, 1})
	c, off, err := collide.NewCompoundCentered([]collide.CompoundChild{
		{Shape: post, Pose: identity(mgl64.Vec3{0, 0, 0.5})},
		{Shape: beam, Pose: collide.Pose{Position: dir.Mul(0.1 + arm).Add(mgl64.Vec3{0, 0, 0.95}), Rotation: turn}},
	})
	if err != nil {
		t.Fatal(err)
	}
	return c, off
}

// TestCompoundLTipsOver stands L shapes on their posts: one whose centre of mass lies over the
// foot stays up; ones whose centre of mass lies beyond the foot's edge fall over that edge, towards
// the arm, whichever way the arm points, and come to rest on the post's edge and the arm's end.
func TestCompoundLTipsOver(t *testing.T) {
	for _, c := range []struct {
		arm  float64
		dir  mgl64.Vec3
		tips bool
	}{
		{0.1, mgl64.Vec3{1, 0, 0}, false},
		{0.5, mgl64.Vec3{1, 0, 0}, true},
		{0.5, mgl64.Vec3{0, -1, 0}, true},
	} {
		app := newTestApp(t, 0.01, DefaultConfig())
		spawnGround(t, app.World, mgl64.Vec3{0, 0, 1}, 0.8)
		l, off := lShape(t, c.arm, c.dir)
		// The centre of mass over the foot (|x|, |y| < 0.1) or beyond it, by hand: post 0.04 m³ at
		// the axis, arm 0.04·arm m³ at 0.1 + arm along dir.
		reach := 0.04 * c.arm * (0.1 + c.arm) / (0.04 + 0.04*c.arm)
		if !nearVec(off, c.dir.Mul(reach).Add(mgl64.Vec3{0, 0, off[2]}), 1e-12) || (reach > 0.1) != c.tips {
			t.Fatalf("arm %v: centre of mass %v, want %v along %v", c.arm, off, reach, c.dir)
		}
		e, err := Spawn(app.World, NewDynamic(off.Add(mgl64.Vec3{0, 0, 1e-4}), 500), Collider{Shape: l})
		if err != nil {
			t.Fatal(err)
		}
		stepFor(t, app, 150)
		b := bodyOf(t, app.World, e)
		up := b.RotationMatrix().Col(2) // the post's axis
		lean := up.Dot(c.dir)
		side := up.Sub(c.dir.Mul(lean)).Sub(mgl64.Vec3{0, 0, up[2]}).Len()
		if c.tips {
			// Fallen towards the arm, not sideways, until the arm's far lower edge, 1 m out from
			// the foot's edge and 0.9 m up, meets the ground: the post then leans by φ with
			// tan φ = 0.9 (the arm is 1 m long).
			if want := math.Sin(math.Atan(0.9)); math.Abs(lean-want) > 1e-3 || side > 1e-3 {
				t.Errorf("arm %v along %v: post axis %v after 1.5 s, want it leaning %v towards the arm", c.arm, c.dir, up, want)
			}
		} else if tilt(b) > 1e-4 || b.Position.Sub(off).Len() > 1e-3 {
			t.Errorf("arm %v: moved to %v, tilt %v; want it standing at %v", c.arm, b.Position, tilt(b), off)
		}
	}
}

// TestCompoundDumbbellRollsStraight rolls a dumbbell, two balls on a thin bar across the slope,
// down an incline: it rolls straight down, without drifting along its axle, with the
// acceleration g·sinθ / (1 + I/(m r²)) of a body of its mass and its moment I about the axle
// rolling on balls of radius r.
func TestCompoundDumbbellRollsStraight(t *testing.T) {
	const h, r, l, theta = 0.005, 0.1, 0.3, 0.2
	app := newTestApp(t, h, DefaultConfig())
	n := mgl64.Vec3{math.Sin(theta), 0, math.Cos(theta)} // the slope falls towards +x
	spawnGround(t, app.World, n, 1)
	ball := mustShape(collide.NewSphere(r))
	bar := mustShape(collide.NewCapsule(0.02, l))
	axle := mgl64.QuatRotate(math.Pi/2, mgl64.Vec3{1, 0, 0}) // the capsule's z axis along y
	d, err := collide.NewCompound([]collide.CompoundChild{
		{Shape: ball, Pose: identity(mgl64.Vec3{0, l, 0})},
		{Shape: ball, Pose: identity(mgl64.Vec3{0, -l, 0})},
		{Shape: bar, Pose: collide.Pose{Rotation: axle}},
	})
	if err != nil {
		t.Fatal(err)
	}
	mp, err := d.MassProperties(1000)
	if err != nil {
		t.Fatal(err)
	}
	e, err := Spawn(app.World, NewDynamic(n.Mul(r), 1000), Collider{Shape: d})
	if err != nil {
		t.Fatal(err)
	}
	const steps = 200 // 1 s
	stepFor(t, app, steps)
	b := bodyOf(t, app.World, e)
	down := mgl64.Vec3{math.Cos(theta), 0, -math.Sin(theta)}
	travel := b.Position.Sub(n.Mul(r))
	along, across, off := travel.Dot(down), travel[1], travel.Dot(n)
	iAxle := mp.Inertia.At(1, 1)
	a := StandardGravity * math.Sin(theta) / (1 + iAxle/(mp.Mass*r*r))
	// Semi-implicit Euler from rest covers a·h²·N(N+1)/2.
	want := a * h * h * steps * (steps + 1) / 2
	if math.Abs(along-want) > 0.01*want || math.Abs(across) > 1e-6 || math.Abs(off) > 1e-3 {
		t.Errorf("after 1 s: %v m down the slope (want %v), %v m along the axle, %v m off the slope", along, want, across, off)
	}
	if w := b.AngularVelocity; math.Abs(w[0])+math.Abs(w[2]) > 1e-6*math.Abs(w[1]) {
		t.Errorf("angular velocity %v, want it about the axle (y) only", w)
	}
	// Rolling, not sliding: the contact points' velocity v + ω×(−r n) is zero.
	if slip := b.LinearVelocity.Add(b.AngularVelocity.Cross(n.Mul(-r))).Len(); slip > 0.01*b.LinearVelocity.Len() {
		t.Errorf("slip speed %v at speed %v", slip, b.LinearVelocity.Len())
	}
	t.Logf("down %.6f m (want %.6f), across %.3g m", along, want, across)
}

// TestCompoundQueries checks the world queries against a standing table: CastRay hits the child
// the ray meets first (the top from above and below, a leg from the side) and names it in its
// feature, CastShape sweeps a
// compound onto the ground by the height of its feet, and Overlap with a compound reports a body
// only when one of its children touches it.
func TestCompoundQueries(t *testing.T) {
	app := newTestApp(t, 0.01, DefaultConfig())
	plane := mustShape(collide.NewHalfSpace(mgl64.Vec3{0, 0, 1}, 0))
	ground, err := Spawn(app.World, NewStatic(mgl64.Vec3{}), Collider{Shape: plane})
	if err != nil {
		t.Fatal(err)
	}
	table, off := tableCompound(t)
	base := mgl64.Vec3{1, 2, 0}
	e, err := Spawn(app.World, NewStatic(base.Add(off)), Collider{Shape: table})
	if err != nil {
		t.Fatal(err)
	}
	sim, _ := SimulationOf(app.World)
	topZ := 2 * (tableLeg[2] + tableTop[2])
	underZ := 2 * tableLeg[2]
	for _, c := range []struct {
		name       string
		origin     mgl64.Vec3
		dir        mgl64.Vec3
		dist       float64
		normal     mgl64.Vec3
		wantEntity ecs.Entity
		child      int // the child hit: 0 the top, 1 the leg at (+x, +y)
	}{
		{"from above", mgl64.Vec3{0.1, 0.1, 3}, mgl64.Vec3{0, 0, -1}, 3 - topZ, mgl64.Vec3{0, 0, 1}, e, 0},
		{"from below the top", mgl64.Vec3{0.1, 0.1, 0.2}, mgl64.Vec3{0, 0, 1}, underZ - 0.2, mgl64.Vec3{0, 0, -1}, e, 0},
		{"at a leg", mgl64.Vec3{3, tableXY[1], 0.2}, mgl64.Vec3{-1, 0, 0}, 3 - tableXY[0] - tableLeg[0], mgl64.Vec3{1, 0, 0}, e, 1},
		{"between the legs", mgl64.Vec3{3, 0, 0.2}, mgl64.Vec3{-1, 0, 0}, 0, mgl64.Vec3{}, ecs.Entity{}, 0},
	} {
		h, ok := castRay(t, sim, base.Add(c.origin), c.dir, 10, QueryFilter{Exclude: ground})
		if c.wantEntity.IsZero() {
			if ok {
				t.Errorf("%s: hit %+v, want a miss (the ray passes under the top between the legs)", c.name, h)
			}
			continue
		}
		if !ok || h.Entity != c.wantEntity || math.Abs(h.Distance-c.dist) > 1e-9 || !nearVec(h.Normal, c.normal, 1e-9) {
			t.Errorf("%s: hit %v %+v, want %v at %v with normal %v", c.name, ok, h, c.wantEntity, c.dist, c.normal)
		}
		if child, _ := collide.SplitCompoundFeature(h.Feature); child != c.child {
			t.Errorf("%s: hit child %d (feature %v), want %d", c.name, child, h.Feature, c.child)
		}
	}

	// A second table swept down from 0.4 m above the ground, beside the first, lands on its feet.
	other := base.Add(mgl64.Vec3{3, 0, 0})
	sh, ok, err := sim.CastShape(table, identity(other.Add(off).Add(mgl64.Vec3{0, 0, 0.4})), mgl64.Vec3{0, 0, -1}, 1, QueryFilter{})
	if err != nil || !ok || sh.Entity != ground || math.Abs(sh.Distance-0.4) > 2*ShapeCastTolerance {
		t.Errorf("CastShape: %+v ok %v err %v; want the ground at 0.4", sh, ok, err)
	}

	// A ball under the top between the legs overlaps the table's bounds but none of its children.
	ball := mustShape(collide.NewSphere(0.1))
	count := func(p mgl64.Vec3) int {
		n := 0
		err := sim.Overlap(ball, identity(base.Add(p)), QueryFilter{Exclude: ground}, func(ecs.Entity) bool { n++; return true })
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	if n := count(mgl64.Vec3{0, 0, 0.3}); n != 0 {
		t.Errorf("ball between the legs overlaps %d bodies", n)
	}
	if n := count(mgl64.Vec3{tableXY[0], tableXY[1], 0.3}); n != 1 {
		t.Errorf("ball at a leg overlaps %d bodies", n)
	}
	// The compound as the query shape.
	var seen []ecs.Entity
	if err := sim.Overlap(table, identity(other.Add(off).Add(mgl64.Vec3{0, 0, -1e-3})), QueryFilter{}, func(x ecs.Entity) bool { seen = append(seen, x); return true }); err != nil || len(seen) != 1 || seen[0] != ground {
		t.Errorf("Overlap(table on the ground): %v, %v", seen, err)
	}
}

// TestCompoundOffCentreRefused checks that a dynamic body refuses a compound whose centre of mass
// is off its origin and names the constructor that fixes it.
func TestCompoundOffCentreRefused(t *testing.T) {
	app := newTestApp(t, 0.01, DefaultConfig())
	ball := mustShape(collide.NewSphere(0.1))
	c := mustShape(collide.NewCompound([]collide.CompoundChild{{Shape: ball, Pose: identity(mgl64.Vec3{0.5, 0, 0})}}))
	_, err := Spawn(app.World, NewDynamic(mgl64.Vec3{}, 100), Collider{Shape: c})
	var fe *FieldError
	if !errors.As(err, &fe) || fe.Field != "Collider.Shape" || !strings.Contains(fe.Error(), "collide.NewCompoundCentered") {
		t.Errorf("off-centre compound: %v", err)
	}
}

// nearVec reports whether a and b agree within tol in every component.
func nearVec(a, b mgl64.Vec3, tol float64) bool {
	return math.Abs(a[0]-b[0]) <= tol && math.Abs(a[1]-b[1]) <= tol && math.Abs(a[2]-b[2]) <= tol
}

// TestCompoundWarmStepDoesNotAllocate stacks a table on a table and rolls a dumbbell beside them,
// all awake: once warm, a step allocates nothing (the compound pairs' scratch is on the stack),
// and each table rests on four contacts.
func TestCompoundWarmStepDoesNotAllocate(t *testing.T) {
	const h = 0.01
	cfg := DefaultConfig()
	cfg.SleepTime = 0
	app := newTestApp(t, h, cfg)
	spawnGround(t, app.World, mgl64.Vec3{0, 0, 1}, 0.8)
	table, off := tableCompound(t)
	height := 2 * (tableLeg[2] + tableTop[2])
	for k := 0; k < 2; k++ {
		if _, err := Spawn(app.World, NewDynamic(off.Add(mgl64.Vec3{0, 0, float64(k) * height}), 600), Collider{Shape: table}); err != nil {
			t.Fatal(err)
		}
	}
	ball := mustShape(collide.NewSphere(0.1))
	dumbbell := mustShape(collide.NewCompound([]collide.CompoundChild{
		{Shape: ball, Pose: identity(mgl64.Vec3{0, 0.3, 0})},
		{Shape: ball, Pose: identity(mgl64.Vec3{0, -0.3, 0})},
	}))
	roller := NewDynamic(mgl64.Vec3{3, 0, 0.1}, 1000)
	roller.LinearVelocity, roller.AngularVelocity = mgl64.Vec3{0.5, 0, 0}, mgl64.Vec3{0, 5, 0}
	if _, err := Spawn(app.World, roller, Collider{Shape: dumbbell}); err != nil {
		t.Fatal(err)
	}
	sim, _ := SimulationOf(app.World)
	tick := uint64(0)
	step := func() {
		tick++
		if err := sim.Step(h, tick); err != nil {
			t.Fatal(err)
		}
	}
	for range 100 {
		step()
	}
	allocs := testing.AllocsPerRun(20, step)
	// Lower table on the ground, upper table on the lower one, dumbbell on its two balls.
	if st := sim.Stats(); st.Contacts != 4+4+2 {
		t.Errorf("%+v: want 10 contacts", st)
	}
	if allocs != 0 {
		t.Errorf("a warm step allocates %v times", allocs)
	}
}
