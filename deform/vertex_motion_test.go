package deform

import (
	"testing"

	"github.com/go-gl/mathgl/mgl64"
)

// vertexMover is what TestVertexMotionMatchesJacobian needs of a free or held body.
type vertexMover interface {
	DoFs() int
	Position(p MaterialPoint) (mgl64.Vec3, error)
	PointJacobian(p MaterialPoint, dst []float64) error
	VertexMotion(a int, qdot []float64) (x, v mgl64.Vec3, err error)
}

// TestVertexMotionMatchesJacobian: for a turned, deformed free body and a held one, every
// vertex's VertexMotion equals Position and the product of PointJacobian with a generalised
// velocity, summed plainly over the whole row, to the bit; a vertex out of range and a short
// velocity are refused.
func TestVertexMotionMatchesJacobian(t *testing.T) {
	const r = 5
	mtl := Material{Young: 1e6, Poisson: 0.3, Density: 1000}
	free := newModalFixture(t, mgl64.Vec3{0.3, 0.1, 0.05}, 4, 2, 1, mtl, r, 0, 0).body
	if err := free.SetState(ModalState{
		Position: mgl64.Vec3{0.5, -1, 2}, Orientation: mgl64.QuatRotate(1.1, mgl64.Vec3{0.3, -1, 0.5}.Normalize()),
		Z: []float64{0.02, -0.01, 0.03, 0.005, -0.02}, ZDot: make([]float64, r),
	}); err != nil {
		t.Fatal(err)
	}
	m, k, mass, fixed := cantilever(t, 0.6, 0.1, 6, 2, stiffMaterial)
	md, err := LowestModes(k, mass, fixed, r, 1e-10, 300)
	if err != nil {
		t.Fatal(err)
	}
	held, err := NewHeldBody(m, mass, md, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := held.SetState(ModalState{
		Orientation: mgl64.QuatRotate(0.4, mgl64.Vec3{0, 1, 0}),
		Z:           []float64{0.01, -0.004, 0.003, 0.002, -0.001}, ZDot: make([]float64, r),
	}); err != nil {
		t.Fatal(err)
	}
	u := []float64{0.3, -0.7, 0.2, 1.3, -0.4, 0.9, 0.5, -1.1, 0.8, 0.25, -0.6}
	for _, c := range []struct {
		name string
		b    vertexMover
		nv   int
	}{{"free", free, free.nv}, {"held", held, held.nv}} {
		name, b, nv := c.name, c.b, c.nv
		n := b.DoFs()
		qdot := u[len(u)-n:]
		jac := make([]float64, 3*n)
		for a := 0; a < nv; a++ {
			x, v, err := b.VertexMotion(a, qdot)
			if err != nil {
				t.Fatal(err)
			}
			want, err := b.Position(VertexPoint(a))
			if err != nil {
				t.Fatal(err)
			}
			if err := b.PointJacobian(VertexPoint(a), jac); err != nil {
				t.Fatal(err)
			}
			var jv mgl64.Vec3
			for i := 0; i < 3; i++ {
				for k := 0; k < n; k++ {
					jv[i] += jac[i*n+k] * qdot[k]
				}
			}
			if x != want || v != jv {
				t.Fatalf("%s vertex %d: VertexMotion %v, %v; Position %v, J q̇ %v", name, a, x, v, want, jv)
			}
		}
		if _, _, err := b.VertexMotion(nv, qdot); err == nil {
			t.Errorf("%s: vertex %d out of range accepted", name, nv)
		}
		if _, _, err := b.VertexMotion(-1, qdot); err == nil {
			t.Errorf("%s: vertex −1 accepted", name)
		}
		if _, _, err := b.VertexMotion(0, qdot[:n-1]); err == nil {
			t.Errorf("%s: a velocity of %d entries accepted", name, n-1)
		}
	}
}
