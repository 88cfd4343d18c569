package plugin

import (
	"math"
	"testing"

	"github.com/g3n/engine/core"
	"github.com/g3n/engine/graphic"
	"github.com/g3n/engine/math32"
	"github.com/go-gl/mathgl/mgl64"
	"github.com/stagger-physics/stagger/collide"
	"github.com/stagger-physics/stagger/ecs"
	"github.com/stagger-physics/stagger/physics"
)

// TestSceneFrameIsAProperRotation checks the z-up → y-up map independently of its code: physics up
// is scene up, lengths are kept, and handedness is kept (C a × C b = C (a × b)).
func TestSceneFrameIsAProperRotation(t *testing.T) {
	up := ToScene(mgl64.Vec3{0, 0, 1})
	if up != (math32.Vector3{X: 0, Y: 1, Z: 0}) {
		t.Fatalf("physics up maps to %v, want scene +y", up)
	}
	a, b := mgl64.Vec3{0.3, -1.2, 2}, mgl64.Vec3{-0.7, 0.4, 1.5}
	ca, cb := ToScene(a), ToScene(b)
	cross := ca.Clone().Cross(&cb)
	want := ToScene(a.Cross(b))
	if cross.DistanceTo(&want) > 1e-5 {
		t.Fatalf("C a × C b = %v, C(a × b) = %v: the map is not a proper rotation", cross, want)
	}
	if back := FromScene(ca); back.Sub(a).Len() > 1e-6 {
		t.Fatalf("FromScene(ToScene(a)) = %v, want %v", back, a)
	}
	// A body's rotation applied to a local vector, then mapped, equals the mapped rotation applied to
	// the mapped vector.
	q := mgl64.QuatRotate(0.9, mgl64.Vec3{1, 2, 3}.Normalize())
	local := mgl64.Vec3{0.5, 0.25, -1}
	direct := ToScene(q.Rotate(local))
	sq := QuatToScene(q)
	viaScene := ToScene(local)
	viaScene.ApplyQuaternion(&sq)
	if direct.DistanceTo(&viaScene) > 1e-5 {
		t.Fatalf("rotation maps to %v, want %v", viaScene, direct)
	}
}

// newPluginApp returns an ecs app with the stagger plugin over a fresh scene node.
func newPluginApp(t *testing.T, auto bool) (*ecs.App, *core.Node) {
	t.Helper()
	scene := core.NewNode()
	app, err := ecs.NewApp(0.01, 5)
	if err != nil {
		t.Fatal(err)
	}
	cfg := DefaultConfig()
	cfg.AutoVisuals = auto
	if err := app.AddPlugin(New(scene, cfg)); err != nil {
		t.Fatal(err)
	}
	return app, scene
}

// TestNodeFollowsBodyEveryFrame spawns a spinning, falling box linked to a node and checks, after
// every frame, that the node's world position and orientation are the body's, in the scene frame.
func TestNodeFollowsBodyEveryFrame(t *testing.T) {
	app, scene := newPluginApp(t, false)
	box, err := collide.NewBox(mgl64.Vec3{0.5, 0.2, 0.1})
	if err != nil {
		t.Fatal(err)
	}
	body := physics.NewDynamic(mgl64.Vec3{1, 2, 3}, 300)
	body.LinearVelocity = mgl64.Vec3{1, 0, 4}
	body.AngularVelocity = mgl64.Vec3{0.5, 3, -1}
	e, err := physics.Spawn(app.World, body, physics.Collider{Shape: box})
	if err != nil {
		t.Fatal(err)
	}
	node := core.NewNode()
	scene.Add(node)
	if err := ecs.Add(app.World, e, Visual{Node: node}); err != nil {
		t.Fatal(err)
	}
	// A corner of the box, in body coordinates.
	corner := mgl64.Vec3{0.5, 0.2, 0.1}
	for frame := 0; frame < 120; frame++ {
		if err := app.Update(1.0 / 60); err != nil {
			t.Fatal(err)
		}
		b, _ := ecs.Get[physics.RigidBody](app.World, e)
		wantCorner := ToScene(b.Position.Add(b.Orientation.Rotate(corner)))
		// The node maps the corner's node-local coordinates (C·corner) to the scene.
		local := ToScene(corner)
		node.UpdateMatrixWorld()
		m := node.MatrixWorld()
		got := local.Clone().ApplyMatrix4(&m)
		if got.DistanceTo(&wantCorner) > 1e-4 {
			t.Fatalf("frame %d: corner drawn at %v, body's corner at %v", frame, got, wantCorner)
		}
	}
}

// TestAutoVisualsFollowLifetime checks that a body with a collider gets a mesh under the scene node,
// and that the mesh goes when the entity is despawned.
func TestAutoVisualsFollowLifetime(t *testing.T) {
	app, scene := newPluginApp(t, true)
	sphere, _ := collide.NewSphere(0.3)
	capsule, _ := collide.NewCapsule(0.2, 0.5)
	ground, _ := collide.NewHalfSpace(mgl64.Vec3{0, 0, 1}, 0)
	a, err := physics.Spawn(app.World, physics.NewDynamic(mgl64.Vec3{0, 0, 2}, 100), physics.Collider{Shape: sphere})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := physics.Spawn(app.World, physics.NewDynamic(mgl64.Vec3{1, 0, 2}, 100), physics.Collider{Shape: capsule}); err != nil {
		t.Fatal(err)
	}
	if _, err := physics.Spawn(app.World, physics.NewStatic(mgl64.Vec3{}), physics.Collider{Shape: ground}); err != nil {
		t.Fatal(err)
	}
	if err := app.Update(0); err != nil {
		t.Fatal(err)
	}
	if n := len(scene.Children()); n != 3 {
		t.Fatalf("scene has %d children after spawning 3 bodies, want 3", n)
	}
	v, ok := ecs.Get[Visual](app.World, a)
	if !ok || v.Node == nil {
		t.Fatal("no Visual was attached")
	}
	if err := app.World.Despawn(a); err != nil {
		t.Fatal(err)
	}
	if err := app.Update(0); err != nil {
		t.Fatal(err)
	}
	if n := len(scene.Children()); n != 2 {
		t.Fatalf("scene has %d children after a despawn, want 2", n)
	}
}

// TestMeshCoversBox checks that the mesh made for a box spans the box's extents in the scene frame.
func TestMeshCoversBox(t *testing.T) {
	box, _ := collide.NewBox(mgl64.Vec3{0.5, 0.2, 0.1})
	node, err := MeshFor(box, materialFor(ecs.Entity{}))
	if err != nil {
		t.Fatal(err)
	}
	bb := node.BoundingBox()
	size := bb.Max.Clone().Sub(&bb.Min)
	want := ToScene(mgl64.Vec3{1, 0.4, 0.2})
	want = math32.Vector3{X: float32(math.Abs(float64(want.X))), Y: float32(math.Abs(float64(want.Y))), Z: float32(math.Abs(float64(want.Z)))}
	if size.DistanceTo(&want) > 1e-5 {
		t.Fatalf("mesh size %v, want %v", size, want)
	}
}

// TestMeshEnclosesHull checks the mesh made for a convex hull: a closed surface wound outwards, so
// its signed volume (divergence theorem over the triangles) equals the hull's volume.
func TestMeshEnclosesHull(t *testing.T) {
	// A wedge: a triangular prism with a slanted face, as the arch's voussoirs are.
	hull, err := collide.NewConvexHull([]mgl64.Vec3{
		{-0.5, -0.3, 0}, {0.5, -0.3, 0}, {-0.2, -0.3, 0.6},
		{-0.5, 0.3, 0}, {0.5, 0.3, 0}, {-0.2, 0.3, 0.6},
	})
	if err != nil {
		t.Fatal(err)
	}
	node, err := MeshFor(hull, materialFor(ecs.Entity{}))
	if err != nil {
		t.Fatal(err)
	}
	mesh, ok := node.Children()[0].(*graphic.Mesh)
	if !ok {
		t.Fatalf("hull node holds %T, want a mesh", node.Children()[0])
	}
	got := float64(mesh.GetGeometry().Volume())
	if want := hull.Volume(); math.Abs(got-want) > 1e-5*want {
		t.Fatalf("mesh volume %v, hull volume %v", got, want)
	}
}

// TestFarBodyNodeStaysFinite places a body at x = 1e39 m, beyond float32's range: its node must
// get a finite position (clamped to ±MaxFloat32), and a body at an ordinary place its exact one.
func TestFarBodyNodeStaysFinite(t *testing.T) {
	app, scene := newPluginApp(t, false)
	nodes := make([]*core.Node, 2)
	for i, p := range []mgl64.Vec3{{1e39, -2e39, 5}, {1, 2, 3}} {
		body := physics.NewStatic(p)
		e, err := physics.Spawn(app.World, body, physics.Collider{})
		if err != nil {
			t.Fatal(err)
		}
		nodes[i] = core.NewNode()
		scene.Add(nodes[i])
		if err := ecs.Add(app.World, e, Visual{Node: nodes[i]}); err != nil {
			t.Fatal(err)
		}
	}
	if err := app.Update(1.0 / 60); err != nil {
		t.Fatal(err)
	}
	if got, want := nodes[0].Position(), (math32.Vector3{X: math.MaxFloat32, Y: 5, Z: math.MaxFloat32}); got != want {
		t.Errorf("far node at %v, want %v", got, want)
	}
	if got, want := nodes[1].Position(), (math32.Vector3{X: 1, Y: 3, Z: -2}); got != want {
		t.Errorf("near node at %v, want %v", got, want)
	}
}
