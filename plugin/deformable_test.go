package plugin

import (
	"math"
	"testing"

	"github.com/g3n/engine/gls"
	"github.com/go-gl/mathgl/mgl64"
	"github.com/stagger-physics/stagger/deform"
	"github.com/stagger-physics/stagger/ecs"
	"github.com/stagger-physics/stagger/physics"
)

// spawnJelly adds a soft deformable cube of half-extent 0.25 m, 4 cells a side, at p, started
// bent in its first modes and vibrating.
func spawnJelly(t *testing.T, w *ecs.World, p mgl64.Vec3) ecs.Entity {
	t.Helper()
	d, err := physics.NewDeformableBox(mgl64.Vec3{0.25, 0.25, 0.25}, 4, deform.Material{Young: 2e5, Poisson: 0.3, Density: 500}, 6)
	if err != nil {
		t.Fatal(err)
	}
	d.Position = p
	d.AngularVelocity = mgl64.Vec3{0.3, -0.2, 0.5}
	e, err := physics.SpawnDeformable(w, d)
	if err != nil {
		t.Fatal(err)
	}
	c, _ := ecs.Get[physics.ReducedDeformable](w, e)
	if err := c.SetModalState([]float64{0.2, -0.1, 0.15, 0, 0.05, 0}, []float64{0, 0.5, 0, -0.3, 0, 0.2}); err != nil {
		t.Fatal(err)
	}
	return e
}

// TestDeformableMeshFollowsSurface spawns a vibrating, spinning, falling deformable block with
// automatic visuals and checks, after every frame, that its mesh's vertices are the body's
// deformed surface vertices mapped to the scene frame, that every normal is a unit vector pointing
// out of the body (away from its centre of mass: the block stays convex-like for these small
// deformations), that the mesh changes between frames, and that it goes when the entity is
// despawned.
func TestDeformableMeshFollowsSurface(t *testing.T) {
	app, scene := newPluginApp(t, true)
	e := spawnJelly(t, app.World, mgl64.Vec3{0, 0, 5})
	var prev []float32
	for frame := 0; frame < 10; frame++ {
		if err := app.Update(1.0 / 60); err != nil {
			t.Fatal(err)
		}
		v, ok := ecs.Get[DeformableVisual](app.World, e)
		if !ok || v.Mesh == nil {
			t.Fatal("no DeformableVisual was attached")
		}
		d, _ := ecs.Get[physics.ReducedDeformable](app.World, e)
		want := d.SurfaceVertices(nil)
		pos := *v.Mesh.GetGeometry().VBO(gls.VertexPosition).Buffer()
		nor := *v.Mesh.GetGeometry().VBO(gls.VertexNormal).Buffer()
		if len(pos) != 3*len(want) || len(nor) != 3*len(want) {
			t.Fatalf("mesh has %d position and %d normal floats, want %d", len(pos), len(nor), 3*len(want))
		}
		centre := ToScene(d.Position)
		for i, p := range want {
			s := ToScene(p)
			if dx := math.Abs(float64(pos[3*i]-s.X)) + math.Abs(float64(pos[3*i+1]-s.Y)) + math.Abs(float64(pos[3*i+2]-s.Z)); dx > 0 {
				t.Fatalf("frame %d: vertex %d drawn at %v, body's at %v", frame, i, pos[3*i:3*i+3], s)
			}
			n := mgl64.Vec3{float64(nor[3*i]), float64(nor[3*i+1]), float64(nor[3*i+2])}
			if math.Abs(n.Len()-1) > 1e-6 {
				t.Fatalf("frame %d: normal %d has length %v", frame, i, n.Len())
			}
			out := mgl64.Vec3{float64(s.X - centre.X), float64(s.Y - centre.Y), float64(s.Z - centre.Z)}
			if n.Dot(out) <= 0 {
				t.Fatalf("frame %d: normal %d %v points into the body (vertex %v from the centre)", frame, i, n, out)
			}
		}
		if prev != nil {
			same := true
			for i := range pos {
				same = same && pos[i] == prev[i]
			}
			if same {
				t.Fatalf("frame %d: the mesh did not change", frame)
			}
		}
		prev = append(prev[:0], pos...)
	}
	if n := len(scene.Children()); n != 1 {
		t.Fatalf("scene has %d children, want the deformable's mesh", n)
	}
	if err := app.World.Despawn(e); err != nil {
		t.Fatal(err)
	}
	if err := app.Update(0); err != nil {
		t.Fatal(err)
	}
	if n := len(scene.Children()); n != 0 {
		t.Fatalf("scene has %d children after the despawn, want 0", n)
	}
}

// TestDeformableFaceNormals checks the recomputed normals against the faces of an undeformed
// block: a vertex inside a face (not on an edge) has the face's outward normal, mapped to the
// scene frame.
func TestDeformableFaceNormals(t *testing.T) {
	app, _ := newPluginApp(t, false)
	d, err := physics.NewDeformableBox(mgl64.Vec3{0.3, 0.2, 0.1}, 6, deform.Material{Young: 1e6, Poisson: 0.3, Density: 500}, 2)
	if err != nil {
		t.Fatal(err)
	}
	d.Position = mgl64.Vec3{1, 2, 3}
	e, err := physics.SpawnDeformable(app.World, d)
	if err != nil {
		t.Fatal(err)
	}
	c, _ := ecs.Get[physics.ReducedDeformable](app.World, e)
	mesh, err := NewDeformableMesh(c, materialFor(e))
	if err != nil {
		t.Fatal(err)
	}
	nor := *mesh.GetGeometry().VBO(gls.VertexNormal).Buffer()
	half := mgl64.Vec3{0.3, 0.2, 0.1}
	checked := 0
	for i, p := range c.SurfaceVertices(nil) {
		local := p.Sub(d.Position)
		var on []int // the axes whose faces the vertex lies on
		for k := 0; k < 3; k++ {
			if math.Abs(math.Abs(local[k])-half[k]) < 1e-9 {
				on = append(on, k)
			}
		}
		if len(on) != 1 {
			continue
		}
		var want mgl64.Vec3
		want[on[0]] = math.Copysign(1, local[on[0]])
		s := ToScene(want)
		got := mgl64.Vec3{float64(nor[3*i]), float64(nor[3*i+1]), float64(nor[3*i+2])}
		if got.Sub(mgl64.Vec3{float64(s.X), float64(s.Y), float64(s.Z)}).Len() > 1e-6 {
			t.Fatalf("vertex %d at %v: normal %v, want %v", i, local, got, s)
		}
		checked++
	}
	if checked == 0 {
		t.Fatal("no face-interior vertex was checked")
	}
}

// TestDeformableMeshUpdateDoesNotAllocate checks that a warm update of a deformable's mesh
// allocates nothing.
func TestDeformableMeshUpdateDoesNotAllocate(t *testing.T) {
	app, _ := newPluginApp(t, true)
	e := spawnJelly(t, app.World, mgl64.Vec3{0, 0, 5})
	if err := app.Update(1.0 / 60); err != nil {
		t.Fatal(err)
	}
	v, _ := ecs.Get[DeformableVisual](app.World, e)
	d, _ := ecs.Get[physics.ReducedDeformable](app.World, e)
	if allocs := testing.AllocsPerRun(20, func() { v.Mesh.Update(d) }); allocs != 0 {
		t.Fatalf("a warm mesh update allocates %v times", allocs)
	}
}
