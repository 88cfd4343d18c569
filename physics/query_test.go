package physics

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/stagger-physics/stagger/collide"
	"github.com/stagger-physics/stagger/ecs"
)

// stackScene spawns the ground and a stack of three unit cubes centred on x = y = 0 (bottom to
// top), and steps it settle steps.
func stackScene(t testing.TB, settle int) (*ecs.App, *Simulation, ecs.Entity, [3]ecs.Entity) {
	t.Helper()
	app := newTestApp(t, 0.01, DefaultConfig())
	plane, err := collide.NewHalfSpace(mgl64.Vec3{0, 0, 1}, 0)
	if err != nil {
		t.Fatal(err)
	}
	ground, err := Spawn(app.World, NewStatic(mgl64.Vec3{}), Collider{Shape: plane})
	if err != nil {
		t.Fatal(err)
	}
	var cubes [3]ecs.Entity
	for i := range cubes {
		cubes[i] = spawnCube(t, app.World, mgl64.Vec3{0, 0, 0.5 + float64(i)}, mgl64.QuatIdent(), 0.8)
	}
	for range settle {
		if err := app.StepFixed(); err != nil {
			t.Fatal(err)
		}
	}
	sim, _ := SimulationOf(app.World)
	return app, sim, ground, cubes
}

// castRay runs CastRay and fails the test on an error.
func castRay(t *testing.T, sim *Simulation, o, d mgl64.Vec3, maxD float64, f QueryFilter) (RayHit, bool) {
	t.Helper()
	h, ok, err := sim.CastRay(o, d, maxD, f)
	if err != nil {
		t.Fatal(err)
	}
	return h, ok
}

// TestCastRayHitsTheTopOfAStack: a ray from 10 m above a settled stack of three cubes hits the
// top cube at its top face (distance 10 − (z_top + 0.5) from the cube's own position, normal +z);
// rays that point away, pass beside, or stop short miss; a filter that leaves out the top cube's
// layer, or excludes it, hits the middle cube; a sensor above the stack is seen only by a filter
// that asks for sensors; and a ray that starts inside a cube hits it at distance 0.
func TestCastRayHitsTheTopOfAStack(t *testing.T) {
	app, sim, ground, cubes := stackScene(t, 50)
	down := mgl64.Vec3{0, 0, -3} // any length
	origin := mgl64.Vec3{0.2, -0.1, 10}
	top := bodyOf(t, app.World, cubes[2])
	h, ok := castRay(t, sim, origin, down, 100, QueryFilter{})
	want := 10 - (top.Position[2] + 0.5)
	if !ok || h.Entity != cubes[2] || math.Abs(h.Distance-want) > 1e-9 {
		t.Fatalf("ray down: %+v, %v; want the top cube %v at %.9f", h, ok, cubes[2], want)
	}
	if h.Normal.Sub(mgl64.Vec3{0, 0, 1}).Len() > 1e-9 || h.Point.Sub(mgl64.Vec3{0.2, -0.1, 10 - want}).Len() > 1e-9 {
		t.Fatalf("ray down: point %v normal %v, want (0.2, -0.1, %.6f) and +z", h.Point, h.Normal, 10-want)
	}
	for _, miss := range []struct {
		name   string
		o, d   mgl64.Vec3
		maxD   float64
		filter QueryFilter
	}{
		{"up", origin, mgl64.Vec3{0, 0, 1}, 100, QueryFilter{}},
		{"beside", mgl64.Vec3{3, 0, 10}, mgl64.Vec3{0, 0.2, 1e-3}, math.Inf(1), QueryFilter{}},
		{"short", origin, down, want - 1e-6, QueryFilter{}},
		{"no layer", origin, down, 100, QueryFilter{Mask: 2}},
	} {
		if h, ok := castRay(t, sim, miss.o, miss.d, miss.maxD, miss.filter); ok {
			t.Errorf("ray %s: hit %+v, want a miss", miss.name, h)
		}
	}
	// The ground is hit by a ray beside the stack, at its own distance.
	if h, ok := castRay(t, sim, mgl64.Vec3{3, 0, 2}, mgl64.Vec3{0, 0, -1}, math.Inf(1), QueryFilter{}); !ok || h.Entity != ground || h.Distance != 2 {
		t.Errorf("ray beside the stack: %+v, %v; want the ground at 2", h, ok)
	}

	middle := bodyOf(t, app.World, cubes[1])
	wantMiddle := 10 - (middle.Position[2] + 0.5)
	c, _ := ecs.Get[Collider](app.World, cubes[2])
	c.Layer = 2
	if err := sim.RefreshQueries(); err != nil {
		t.Fatal(err)
	}
	for _, f := range []QueryFilter{{Mask: DefaultLayer}, {Exclude: cubes[2]}} {
		if h, ok := castRay(t, sim, origin, down, 100, f); !ok || h.Entity != cubes[1] || math.Abs(h.Distance-wantMiddle) > 1e-9 {
			t.Errorf("filter %+v: %+v, %v; want the middle cube at %.9f", f, h, ok, wantMiddle)
		}
	}
	if h, ok := castRay(t, sim, origin, down, 100, QueryFilter{Mask: 2}); !ok || h.Entity != cubes[2] {
		t.Errorf("filter on layer 2: %+v, %v; want the top cube", h, ok)
	}

	// A sensor 5 m up, spawned after the last step: a refresh sees it.
	box, _ := collide.NewBox(mgl64.Vec3{1, 1, 0.25})
	sensor, err := Spawn(app.World, NewStatic(mgl64.Vec3{0, 0, 5}), Collider{Shape: box, Sensor: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := sim.RefreshQueries(); err != nil {
		t.Fatal(err)
	}
	if h, ok := castRay(t, sim, origin, down, 100, QueryFilter{}); !ok || h.Entity != cubes[2] {
		t.Errorf("sensors left out: %+v, %v; want the top cube", h, ok)
	}
	if h, ok := castRay(t, sim, origin, down, 100, QueryFilter{Sensors: true}); !ok || h.Entity != sensor || math.Abs(h.Distance-4.75) > 1e-12 {
		t.Errorf("sensors seen: %+v, %v; want the sensor at 4.75", h, ok)
	}
	// From inside the middle cube.
	in := mgl64.Vec3{0, 0.3, middle.Position[2]}
	if h, ok := castRay(t, sim, in, mgl64.Vec3{1, 0, 0}, 10, QueryFilter{}); !ok || h.Entity != cubes[1] || h.Distance != 0 || h.Normal != (mgl64.Vec3{-1, 0, 0}) {
		t.Errorf("ray from inside the middle cube: %+v, %v; want it at 0 with normal −x", h, ok)
	}
}

// TestQueriesBeforeTheFirstStepAndAfterDespawn: bodies spawned before any step are seen at once,
// and a body despawned after the last refresh is never reported.
func TestQueriesBeforeTheFirstStepAndAfterDespawn(t *testing.T) {
	app, sim, _, cubes := stackScene(t, 0)
	h, ok := castRay(t, sim, mgl64.Vec3{0, 0, 10}, mgl64.Vec3{0, 0, -1}, 100, QueryFilter{})
	if !ok || h.Entity != cubes[2] || h.Distance != 7 {
		t.Fatalf("before any step: %+v, %v; want the top cube at 7", h, ok)
	}
	if err := app.World.Despawn(cubes[2]); err != nil {
		t.Fatal(err)
	}
	h, ok = castRay(t, sim, mgl64.Vec3{0, 0, 10}, mgl64.Vec3{0, 0, -1}, 100, QueryFilter{})
	if !ok || h.Entity != cubes[1] || h.Distance != 8 {
		t.Fatalf("after despawning the top cube: %+v, %v; want the middle cube at 8", h, ok)
	}
	var seen []ecs.Entity
	ball, _ := collide.NewSphere(3)
	if err := sim.Overlap(ball, collide.Pose{Position: mgl64.Vec3{0, 0, 2.5}}, QueryFilter{}, func(e ecs.Entity) bool {
		seen = append(seen, e)
		return true
	}); err != nil {
		t.Fatal(err)
	}
	if slices.Contains(seen, cubes[2]) || len(seen) != 3 {
		t.Fatalf("Overlap after the despawn saw %v, want the ground and the two cubes left", seen)
	}
}

// TestCastShape sweeps shapes down onto the top of a stack of cubes (top face at z = 3): a sphere
// of radius 0.5 from z = 10 touches after 6.5 m; one that passes 0.3 m beyond the cube's edge
// meets the edge when the centre is 0.4 m above the face (0.3² + 0.4² = 0.5²), after 6.6 m; a
// tilted box touches with its lowest corner. The distance is never past the contact and short of
// it by at most ShapeCastTolerance, and the shape placed there does not overlap the cube.
func TestCastShape(t *testing.T) {
	app, sim, _, cubes := stackScene(t, 0)
	sphere, _ := collide.NewSphere(0.5)
	box, _ := collide.NewBox(mgl64.Vec3{0.3, 0.2, 0.1})
	tilt := mgl64.QuatRotate(0.3, mgl64.Vec3{1, 1, 0}.Normalize())
	tilted := collide.Pose{Position: mgl64.Vec3{0.1, 0, 10}, Rotation: tilt}
	// The tilted box's lowest point, from its own support function.
	lowest := tilted.Apply(box.Support(tilted.InverseRotate(mgl64.Vec3{0, 0, -1})))[2]
	for _, tc := range []struct {
		name  string
		shape collide.Shape
		pose  collide.Pose
		want  float64
	}{
		{"sphere on the face", sphere, collide.Pose{Position: mgl64.Vec3{0.1, -0.2, 10}}, 6.5},
		{"sphere on the edge", sphere, collide.Pose{Position: mgl64.Vec3{0.8, 0, 10}}, 6.6},
		{"tilted box", box, tilted, lowest - 3},
	} {
		h, ok, err := sim.CastShape(tc.shape, tc.pose, mgl64.Vec3{0, 0, -2}, 20, QueryFilter{})
		if err != nil {
			t.Fatal(err)
		}
		if !ok || h.Entity != cubes[2] || h.Distance > tc.want || tc.want-h.Distance > 2*ShapeCastTolerance {
			t.Errorf("%s: %+v, %v; want the top cube at %.9f", tc.name, h, ok, tc.want)
			continue
		}
		at := tc.pose
		at.Position[2] -= h.Distance
		var m collide.Manifold
		cube, _ := ecs.Get[Collider](app.World, cubes[2])
		top := bodyOf(t, app.World, cubes[2])
		if hit, _ := collide.Collide(tc.shape, at, cube.Shape, collide.Pose{Position: top.Position, Rotation: top.Orientation}, 0, nil, &m); hit && m.MinGap() < 0 {
			t.Errorf("%s: placed at the reported distance it overlaps the cube by %.3g", tc.name, -m.MinGap())
		}
	}
	h, ok, err := sim.CastShape(sphere, collide.Pose{Position: mgl64.Vec3{0, 0, 10}}, mgl64.Vec3{0, 0, -1}, 20, QueryFilter{})
	if err != nil || !ok || h.Normal.Sub(mgl64.Vec3{0, 0, 1}).Len() > 1e-9 || math.Abs(h.Point[2]-3) > 1e-5 {
		t.Errorf("sphere on the face: normal %v point %v (err %v), want +z at z = 3", h.Normal, h.Point, err)
	}
	// Misses: sideways past the stack, too short, and up; a shape already touching hits at 0.
	for _, miss := range []struct {
		name string
		pose collide.Pose
		dir  mgl64.Vec3
		maxD float64
	}{
		{"beside", collide.Pose{Position: mgl64.Vec3{3, 0, 10}}, mgl64.Vec3{0, 1, 0}, 20},
		{"short", collide.Pose{Position: mgl64.Vec3{0, 0, 10}}, mgl64.Vec3{0, 0, -1}, 6.4},
		{"up", collide.Pose{Position: mgl64.Vec3{0, 0, 10}}, mgl64.Vec3{0, 0, 1}, 20},
	} {
		if h, ok, err := sim.CastShape(sphere, miss.pose, miss.dir, miss.maxD, QueryFilter{}); ok || err != nil {
			t.Errorf("%s: %+v, %v, %v; want a miss", miss.name, h, ok, err)
		}
	}
	if h, ok, _ := sim.CastShape(sphere, collide.Pose{Position: mgl64.Vec3{0, 0, 3.4}}, mgl64.Vec3{1, 0, 0}, 5, QueryFilter{}); !ok || h.Distance != 0 || h.Entity != cubes[2] {
		t.Errorf("a sphere overlapping the top cube: %+v, %v; want a hit at 0", h, ok)
	}
}

// TestOverlapVisitsExactlyTheOverlappingBodies places 60 spheres of random radii at random points
// and checks Overlap of a turned box against an independent test: a sphere overlaps the box when
// the box-frame distance from its centre to the box (by clamping) is at most its radius. Spheres
// within 1e-9 m of touching are left out of the comparison. A filter on layer 2 sees only the
// spheres on that layer, and visit returning false stops the query.
func TestOverlapVisitsExactlyTheOverlappingBodies(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Gravity = mgl64.Vec3{}
	app := newTestApp(t, 0.01, cfg)
	sim, _ := SimulationOf(app.World)
	rng := rand.New(rand.NewPCG(7, 8))
	half := mgl64.Vec3{1.5, 0.7, 0.4}
	queryBox, _ := collide.NewBox(half)
	pose := collide.Pose{Position: mgl64.Vec3{0.2, -0.1, 0.3}, Rotation: mgl64.QuatRotate(0.7, mgl64.Vec3{1, 2, 3}.Normalize())}
	type ball struct {
		e      ecs.Entity
		layer2 bool
		dist   float64 // clamped box-frame distance minus the radius
	}
	var balls []ball
	for i := range 60 {
		r := 0.05 + 0.5*rng.Float64()
		c := mgl64.Vec3{4*rng.Float64() - 2, 4*rng.Float64() - 2, 4*rng.Float64() - 2}
		s, _ := collide.NewSphere(r)
		body := NewStatic(c)
		col := Collider{Shape: s}
		if i%3 == 0 {
			col.Layer = 2
		}
		e, err := Spawn(app.World, body, col)
		if err != nil {
			t.Fatal(err)
		}
		local := pose.ApplyInverse(c)
		var outside mgl64.Vec3
		for k := range 3 {
			outside[k] = max(math.Abs(local[k])-half[k], 0)
		}
		balls = append(balls, ball{e, i%3 == 0, outside.Len() - r})
	}
	check := func(f QueryFilter) int {
		var seen []ecs.Entity
		if err := sim.Overlap(queryBox, pose, f, func(e ecs.Entity) bool { seen = append(seen, e); return true }); err != nil {
			t.Fatal(err)
		}
		in := 0
		for _, b := range balls {
			if f.Mask == 2 && !b.layer2 || math.Abs(b.dist) < 1e-9 {
				continue
			}
			if got, want := slices.Contains(seen, b.e), b.dist <= 0; got != want {
				t.Errorf("filter %+v: sphere %v at distance %.4g from the box: seen %v", f, b.e, b.dist, got)
			}
			if b.dist <= 0 {
				in++
			}
		}
		return in
	}
	all, layer2 := check(QueryFilter{}), check(QueryFilter{Mask: 2})
	if all < 5 || layer2 < 2 || layer2 >= all {
		t.Fatalf("%d overlapping spheres, %d on layer 2: the scene does not test much", all, layer2)
	}
	visits := 0
	if err := sim.Overlap(queryBox, pose, QueryFilter{}, func(ecs.Entity) bool { visits++; return false }); err != nil || visits != 1 {
		t.Errorf("visit returning false: %d visits (err %v), want 1", visits, err)
	}
}

// TestQueriesLeaveTheSimulationAlone runs the same falling pile twice, once with a ray cast, a
// shape cast and an overlap query after every step (each of which refreshes the broad phase), and
// requires bit-identical bodies throughout.
func TestQueriesLeaveTheSimulationAlone(t *testing.T) {
	run := func(query bool) [][]bodyState {
		app := newTestApp(t, 0.01, DefaultConfig())
		sim, _ := SimulationOf(app.World)
		spawnGround(t, app.World, mgl64.Vec3{0, 0, 1}, 0.6)
		var cubes []ecs.Entity
		for i := range 12 {
			q := mgl64.QuatRotate(0.3*float64(i), mgl64.Vec3{1, 0.5, 0.2}.Normalize())
			cubes = append(cubes, spawnCube(t, app.World, mgl64.Vec3{0.3 * float64(i%3), 0.2 * float64(i%2), 0.8 + 1.3*float64(i)}, q, 0.6))
		}
		ball, _ := collide.NewSphere(0.4)
		var out [][]bodyState
		for step := range 300 {
			if err := app.StepFixed(); err != nil {
				t.Fatal(err)
			}
			if query {
				z := 0.05 * float64(step%100)
				if _, _, err := sim.CastRay(mgl64.Vec3{0.3, 0.1, 20}, mgl64.Vec3{0, 0.01, -1}, 40, QueryFilter{}); err != nil {
					t.Fatal(err)
				}
				if _, _, err := sim.CastShape(ball, collide.Pose{Position: mgl64.Vec3{-2, 0, z}}, mgl64.Vec3{1, 0, 0}, 5, QueryFilter{}); err != nil {
					t.Fatal(err)
				}
				if err := sim.Overlap(ball, collide.Pose{Position: mgl64.Vec3{0, 0, z}}, QueryFilter{}, func(ecs.Entity) bool { return true }); err != nil {
					t.Fatal(err)
				}
			}
			var states []bodyState
			for _, c := range cubes {
				b := bodyOf(t, app.World, c)
				states = append(states, b.state())
			}
			out = append(out, states)
		}
		return out
	}
	plain, queried := run(false), run(true)
	for step := range plain {
		if !slices.Equal(plain[step], queried[step]) {
			t.Fatalf("step %d: the bodies differ when queries run between steps", step)
		}
	}
}

// TestQueryInputErrors: bad arguments are refused with a *FieldError naming the argument, and
// queries from a contact filter (during Step) are refused.
func TestQueryInputErrors(t *testing.T) {
	app, sim, _, _ := stackScene(t, 0)
	sphere, _ := collide.NewSphere(0.5)
	mesh, err := collide.NewTriangleMesh([]mgl64.Vec3{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}, [][3]int{{0, 1, 2}})
	if err != nil {
		t.Fatal(err)
	}
	ok := func(ecs.Entity) bool { return true }
	at := collide.Pose{Position: mgl64.Vec3{0, 0, 10}}
	nan := math.NaN()
	for _, tc := range []struct {
		field string
		err   error
	}{
		{"CastRay origin", second(sim.CastRay(mgl64.Vec3{nan, 0, 0}, mgl64.Vec3{0, 0, 1}, 1, QueryFilter{}))},
		{"CastRay direction", second(sim.CastRay(mgl64.Vec3{}, mgl64.Vec3{}, 1, QueryFilter{}))},
		{"CastRay direction", second(sim.CastRay(mgl64.Vec3{}, mgl64.Vec3{math.Inf(1), 0, 0}, 1, QueryFilter{}))},
		{"CastRay maxDistance", second(sim.CastRay(mgl64.Vec3{}, mgl64.Vec3{0, 0, 1}, -1, QueryFilter{}))},
		{"CastRay maxDistance", second(sim.CastRay(mgl64.Vec3{}, mgl64.Vec3{0, 0, 1}, nan, QueryFilter{}))},
		{"CastShape shape", third(sim.CastShape(nil, at, mgl64.Vec3{0, 0, -1}, 1, QueryFilter{}))},
		{"CastShape shape", third(sim.CastShape(mesh, at, mgl64.Vec3{0, 0, -1}, 1, QueryFilter{}))},
		{"CastShape shape", third(sim.CastShape(&collide.ConvexHull{}, at, mgl64.Vec3{0, 0, -1}, 1, QueryFilter{}))},
		{"CastShape pose.Position", third(sim.CastShape(sphere, collide.Pose{Position: mgl64.Vec3{0, nan, 0}}, mgl64.Vec3{0, 0, -1}, 1, QueryFilter{}))},
		{"CastShape pose.Rotation", third(sim.CastShape(sphere, collide.Pose{Rotation: mgl64.Quat{W: nan}}, mgl64.Vec3{0, 0, -1}, 1, QueryFilter{}))},
		{"CastShape direction", third(sim.CastShape(sphere, at, mgl64.Vec3{}, 1, QueryFilter{}))},
		{"CastShape maxDistance", third(sim.CastShape(sphere, at, mgl64.Vec3{0, 0, -1}, math.Inf(1), QueryFilter{}))},
		{"Overlap visit", sim.Overlap(sphere, at, QueryFilter{}, nil)},
		{"Overlap shape", sim.Overlap(nil, at, QueryFilter{}, ok)},
		{"Overlap pose.Position", sim.Overlap(sphere, collide.Pose{Position: mgl64.Vec3{math.Inf(-1), 0, 0}}, QueryFilter{}, ok)},
	} {
		var fe *FieldError
		if !errors.As(tc.err, &fe) || fe.Field != tc.field {
			t.Errorf("want a *FieldError naming %q, got %v", tc.field, tc.err)
		}
	}
	// From a contact filter, during Step.
	var inStep error
	sim.SetContactFilter(func(a, b ecs.Entity) bool {
		_, _, inStep = sim.CastRay(mgl64.Vec3{}, mgl64.Vec3{0, 0, 1}, 1, QueryFilter{})
		return true
	})
	if err := app.StepFixed(); err != nil {
		t.Fatal(err)
	}
	var fe *FieldError
	if !errors.As(inStep, &fe) || fe.Field != "CastRay" {
		t.Errorf("CastRay from a contact filter: %v, want a *FieldError naming CastRay", inStep)
	}
	if _, _, err := sim.CastRay(mgl64.Vec3{}, mgl64.Vec3{0, 0, 1}, 1, QueryFilter{}); err != nil {
		t.Errorf("CastRay after the step: %v", err)
	}
}

// second returns the error of a three-result call.
func second[A, B any](_ A, _ B, err error) error { return err }

// third returns the error of a three-result call.
func third[A, B any](_ A, _ B, err error) error { return err }
