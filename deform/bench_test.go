package deform

import (
	"testing"

	"github.com/go-gl/mathgl/mgl64"
)

// BenchmarkLowestModes1000 finds the 20 lowest modes of a held beam of about 1,000 vertices
// (24 × 6 × 6 cells, 1,225 vertices): the modal part of a reduced model's precomputation.
func BenchmarkLowestModes1000(b *testing.B) {
	m, _, k, mass, fixed := heldBeam(b)
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

// beam1000 returns the free beam of the modal benchmarks: 24 × 6 × 6 cells, 1,225 vertices.
func beam1000(b *testing.B) (*TetMesh, *BlockMatrix, []float64) {
	return freeBody(b, mgl64.Vec3{0.5, 0.1, 0.1}, 24, 6, 6, Material{Young: 1e7, Poisson: 0.3, Density: 1000})
}

// BenchmarkFreeModes1000 finds the 20 lowest elastic modes of the free beam of about 1,000
// vertices: the precomputation of a floating-frame modal body.
func BenchmarkFreeModes1000(b *testing.B) {
	m, k, mass := beam1000(b)
	iters := 0
	for i := 0; i < b.N; i++ {
		md, err := FreeModes(m, k, mass, 20, 1e-8, 300)
		if err != nil {
			b.Fatal(err)
		}
		iters = md.Iterations
	}
	b.ReportMetric(float64(m.NumVertices()), "vertices")
	b.ReportMetric(float64(iters), "iterations")
	b.ReportMetric(b.Elapsed().Seconds()/float64(b.N), "s/op")
}

// BenchmarkModalBodyStep1000 times one contact-free step (PredictVelocity and Advance) of a
// spinning, vibrating modal body with 20 modes of the free beam of about 1,000 vertices: the
// reduced evaluation, which touches no vertex.
func BenchmarkModalBodyStep1000(b *testing.B) {
	m, k, mass := beam1000(b)
	md, err := FreeModes(m, k, mass, 20, 1e-8, 300)
	if err != nil {
		b.Fatal(err)
	}
	body, err := NewModalBody(m, mass, md, 0.1, 1e-4)
	if err != nil {
		b.Fatal(err)
	}
	z, zd := make([]float64, 20), make([]float64, 20)
	for i := range z {
		z[i], zd[i] = 1e-3*float64(i%3), 1e-2*float64(i%2)
	}
	if err := body.SetState(ModalState{Orientation: mgl64.QuatIdent(), AngularVelocity: mgl64.Vec3{1, 2, 3}, Z: z, ZDot: zd}); err != nil {
		b.Fatal(err)
	}
	qdot := make([]float64, body.DoFs())
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := body.PredictVelocity(0.01, mgl64.Vec3{0, 0, -9.81}, qdot); err != nil {
			b.Fatal(err)
		}
		if err := body.Advance(0.01, qdot, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// heldBeam returns the held beam of about 1,000 vertices (24 × 6 × 6 cells, 1,225 vertices,
// clamped at x = −0.5): its mesh, material, stiffness, masses and held vertices.
func heldBeam(b *testing.B) (*TetMesh, Material, *BlockMatrix, []float64, []bool) {
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
	return m, mtl, k, mass, fixed
}

// heldBeamBasis returns the held beam of heldBeam, its material and masses, and its 6 lowest
// modes.
func heldBeamBasis(b *testing.B) (*TetMesh, Material, []float64, []bool, *Modes) {
	m, mtl, k, mass, fixed := heldBeam(b)
	md, err := LowestModes(k, mass, fixed, 6, 1e-8, 200)
	if err != nil {
		b.Fatal(err)
	}
	return m, mtl, mass, fixed, md
}

// BenchmarkModalDerivativeBasis1000 forms the r = 20 basis of 6 modes and 14 derivatives of the
// held beam of about 1,000 vertices (the modes themselves: BenchmarkLowestModes1000).
func BenchmarkModalDerivativeBasis1000(b *testing.B) {
	m, mtl, mass, fixed, md := heldBeamBasis(b)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := ModalDerivativeBasis(m, mtl, mass, fixed, md, 20); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(b.Elapsed().Seconds()/float64(b.N), "s/op")
}

// BenchmarkReducedStVKPrecompute1000 computes the cubic polynomial coefficients of the reduced StVK
// model of the held beam of about 1,000 vertices (5,184 tetrahedra) for r = 20.
func BenchmarkReducedStVKPrecompute1000(b *testing.B) {
	m, mtl, mass, fixed, md := heldBeamBasis(b)
	basis, err := ModalDerivativeBasis(m, mtl, mass, fixed, md, 20)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := NewReducedStVK(m, mtl, basis, nil); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(m.NumTets()), "tets")
	b.ReportMetric(b.Elapsed().Seconds()/float64(b.N), "s/op")
}

// BenchmarkReducedStVKEvaluate20 evaluates the reduced force and tangent for r = 20 at a large
// deformation: the per-step cost, independent of the mesh.
func BenchmarkReducedStVKEvaluate20(b *testing.B) {
	const r = 20
	m, err := NewBoxMesh(mgl64.Vec3{0.5, 0.1, 0.1}, 6, 2, 2)
	if err != nil {
		b.Fatal(err)
	}
	basis := make([][]float64, r)
	for j := range basis {
		basis[j] = make([]float64, 3*m.NumVertices())
		for i := range basis[j] {
			basis[j][i] = spread(i, j)
		}
	}
	rs, err := NewReducedStVK(m, Material{Young: 1e7, Poisson: 0.3, Density: 1000}, basis, nil)
	if err != nil {
		b.Fatal(err)
	}
	q, f, k := make([]float64, r), make([]float64, r), make([]float64, r*r)
	for j := range q {
		q[j] = 0.1 * spread(j, 3)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := rs.Evaluate(q, f, k); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReducedBodyStep20 times one implicit step of the soft cantilever's reduced StVK body
// (r = 20) sagging under gravity: a few Newton iterations, each one evaluation and an r × r solve.
func BenchmarkReducedBodyStep20(b *testing.B) {
	_, _, body := reducedCantilever(b, 1, 2e-3)
	g := mgl64.Vec3{0, 0, -9.81}
	for i := 0; i < 20; i++ {
		if err := body.Step(0.01, g); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := body.Step(0.01, g); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFrameStVKStep20 times a step (PredictVelocity, EffectiveMass, Advance) of a free
// floating-frame StVK bar in 6 free modes and their derivatives, r = 20, spinning and vibrating;
// the step never touches the mesh, so its size does not matter.
func BenchmarkFrameStVKStep20(b *testing.B) {
	f := newFrameFixture(b, 6, 20, 0.1, 1e-4)
	body := f.body
	z, zd := make([]float64, 20), make([]float64, 20)
	for i := range z {
		z[i], zd[i] = 1e-3*float64(i%3), 1e-2*float64(i%2)
	}
	z[0] = 0.03
	if err := body.SetState(ModalState{Orientation: mgl64.QuatIdent(), AngularVelocity: mgl64.Vec3{1, 2, 3}, Z: z, ZDot: zd}); err != nil {
		b.Fatal(err)
	}
	qdot := make([]float64, body.DoFs())
	me := make([]float64, body.DoFs()*body.DoFs())
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := body.PredictVelocity(0.01, mgl64.Vec3{0, 0, -9.81}, qdot); err != nil {
			b.Fatal(err)
		}
		if err := body.EffectiveMass(me); err != nil {
			b.Fatal(err)
		}
		if err := body.Advance(0.01, qdot, nil); err != nil {
			b.Fatal(err)
		}
	}
}
