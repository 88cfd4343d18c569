package deform

import (
	"testing"

	"github.com/go-gl/mathgl/mgl64"
)

// BenchmarkLowestModes1000 finds the 20 lowest modes of a held beam of about 1,000 vertices
// (24 × 6 × 6 cells, 1,225 vertices): the modal part of a reduced model's precomputation.
func BenchmarkLowestModes1000(b *testing.B) {
	mtl := Material{Young: 1e7, Poisson: 0.3, Density: 1000}
	m, err := NewBoxMesh(mgl64.Vec3{0.5, 0.1, 0.1}, 24, 6, 6)
	if err != nil {
		b.Fatal(err)
	}
	k, err := Stiffness(m, mtl)
	if err != nil {
		b.Fatal(err)
	}
	mass := LumpedMass(m, mtl.Density)
	fixed := make([]bool, m.NumVertices())
	for a := range fixed {
		fixed[a] = m.Vertex(a)[0] < -0.5+1e-12
	}
	iters := 0
	for i := 0; i < b.N; i++ {
		md, err := LowestModes(k, mass, fixed, 20, 1e-8, 200)
		if err != nil {
			b.Fatal(err)
		}
		iters = md.Iterations
	}
	b.ReportMetric(float64(m.NumVertices()), "vertices")
	b.ReportMetric(float64(iters), "iterations")
	b.ReportMetric(b.Elapsed().Seconds()/float64(b.N), "s/op")
}
