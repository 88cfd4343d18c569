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
)

// TestMeshCoversCompound checks the node made for a compound of turned children: mapped back to
// the physics frame through the nodes' world matrices, every vertex of every child mesh lies in
// or on the compound (its signed distance at most float32 round-off), and the vertices span the
// compound's bounding box. A child placed or turned wrongly would put vertices outside.
func TestMeshCoversCompound(t *testing.T) {
	box, _ := collide.NewBox(mgl64.Vec3{0.5, 0.2, 0.1})
	capsule, _ := collide.NewCapsule(0.1, 0.3)
	ball, _ := collide.NewSphere(0.15)
	leg, _ := collide.NewBox(mgl64.Vec3{0.05, 0.1, 0.3})
	c, err := collide.NewCompound([]collide.CompoundChild{
		{Shape: box, Pose: collide.Pose{Position: mgl64.Vec3{0, 0, 0.5}, Rotation: mgl64.QuatIdent()}},
		{Shape: capsule, Pose: collide.Pose{Position: mgl64.Vec3{0.3, 0.4, 0.1}, Rotation: mgl64.QuatRotate(math.Pi/2, mgl64.Vec3{0, 1, 0})}},
		{Shape: ball, Pose: collide.Pose{Position: mgl64.Vec3{-0.6, -0.3, 0.2}, Rotation: mgl64.QuatIdent()}},
		{Shape: leg, Pose: collide.Pose{Position: mgl64.Vec3{-0.2, 0.5, -0.1}, Rotation: mgl64.QuatRotate(0.5, mgl64.Vec3{1, 1, 0}.Normalize())}},
	})
	if err != nil {
		t.Fatal(err)
	}
	node, err := MeshFor(c, materialFor(ecs.Entity{}))
	if err != nil {
		t.Fatal(err)
	}
	if n := len(node.Children()); n != c.NumChildren() {
		t.Fatalf("compound node has %d children, want %d", n, c.NumChildren())
	}
	node.UpdateMatrixWorld()
	lo := mgl64.Vec3{math.Inf(1), math.Inf(1), math.Inf(1)}
	hi := lo.Mul(-1)
	count := 0
	var visit func(n core.INode)
	visit = func(n core.INode) {
		if m, ok := n.(*graphic.Mesh); ok {
			world := m.MatrixWorld()
			m.GetGeometry().ReadVertices(func(v math32.Vector3) bool {
				v.ApplyMatrix4(&world)
				p := FromScene(v)
				if d, _ := c.SignedDistance(p); d > 1e-5 {
					t.Errorf("vertex %v is %v m outside the compound", p, d)
					return true
				}
				for i := 0; i < 3; i++ {
					lo[i], hi[i] = min(lo[i], p[i]), max(hi[i], p[i])
				}
				count++
				return false
			})
		}
		for _, ch := range n.Children() {
			visit(ch)
		}
	}
	visit(node)
	// The capsule's and the ball's tessellations reach their extremes only up to the polygons'
	// sag, a few mm here; the boxes' corners are exact.
	b := c.Bounds(collide.IdentityPose())
	if count == 0 || !nearVec3(lo, b.Min, 0.01) || !nearVec3(hi, b.Max, 0.01) {
		t.Errorf("%d vertices span %v to %v, compound bounds %v to %v", count, lo, hi, b.Min, b.Max)
	}
}

// nearVec3 reports whether a and b agree within tol in every component.
func nearVec3(a, b mgl64.Vec3, tol float64) bool {
	return math.Abs(a[0]-b[0]) <= tol && math.Abs(a[1]-b[1]) <= tol && math.Abs(a[2]-b[2]) <= tol
}
