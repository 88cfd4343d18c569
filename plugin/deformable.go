package plugin

import (
	"errors"
	"math"

	"github.com/g3n/engine/geometry"
	"github.com/g3n/engine/gls"
	"github.com/g3n/engine/graphic"
	"github.com/g3n/engine/material"
	"github.com/g3n/engine/math32"
	"github.com/go-gl/mathgl/mgl64"
	"github.com/stagger-physics/stagger/physics"
)

// DeformableVisual is the component that links an entity carrying a physics.ReducedDeformable to
// the g3n mesh of its surface (NewDeformableMesh). After every frame the mesh's vertices are the
// body's deformed surface vertices and its normals are recomputed from them, in the scene frame.
// The mesh's node stays at the identity pose: the geometry holds scene coordinates.
type DeformableVisual struct {
	Mesh *DeformableMesh
}

// DeformableMesh is a g3n mesh of a reduced deformable body's render surface — the boundary
// triangles of its tetrahedral mesh, not the tetrahedra — whose vertex positions and normals are
// rewritten in place by Update.
type DeformableMesh struct {
	*graphic.Mesh
	positions, normals *gls.VBO
	triangles          [][3]int32
	// vertices and accum are per-vertex scratch, sized at creation, so Update allocates nothing.
	vertices []mgl64.Vec3
	accum    []mgl64.Vec3
}

// NewDeformableMesh returns a mesh in mat of d's surface, which must have been added with
// physics.AddDeformable or SpawnDeformable, with its present deformed shape.
func NewDeformableMesh(d *physics.ReducedDeformable, mat material.IMaterial) (*DeformableMesh, error) {
	if d == nil {
		return nil, errors.New("plugin: NewDeformableMesh: the deformable is nil")
	}
	tris := d.SurfaceTriangles()
	if len(tris) == 0 {
		return nil, errors.New("plugin: NewDeformableMesh: the deformable has no surface (was it added with physics.AddDeformable?)")
	}
	vertices := d.SurfaceVertices(nil)
	indices := math32.NewArrayU32(0, 3*len(tris))
	for _, t := range tris {
		indices.Append(uint32(t[0]), uint32(t[1]), uint32(t[2]))
	}
	positions := gls.NewVBO(math32.NewArrayF32(3*len(vertices), 3*len(vertices))).AddAttrib(gls.VertexPosition)
	normals := gls.NewVBO(math32.NewArrayF32(3*len(vertices), 3*len(vertices))).AddAttrib(gls.VertexNormal)
	g := geometry.NewGeometry()
	g.SetIndices(indices)
	g.AddVBO(positions)
	g.AddVBO(normals)
	m := &DeformableMesh{
		Mesh: graphic.NewMesh(g, mat), positions: positions, normals: normals, triangles: tris,
		vertices: vertices, accum: make([]mgl64.Vec3, len(vertices)),
	}
	m.write()
	return m, nil
}

// Update writes d's deformed surface into the mesh: positions through ToScene, and each vertex's
// normal as the normalised sum of its triangles' area-weighted normals. d must be the body the mesh
// was made for. A non-finite surface is never written; the mesh keeps its last shape then.
func (m *DeformableMesh) Update(d *physics.ReducedDeformable) {
	m.vertices = d.SurfaceVertices(m.vertices)
	if len(m.vertices) != len(m.accum) {
		return // not the body the mesh was made for
	}
	m.write()
}

// write fills the VBOs from m.vertices.
func (m *DeformableMesh) write() {
	for _, v := range m.vertices {
		if !finite3(v) {
			return
		}
	}
	clear(m.accum)
	for _, t := range m.triangles {
		a, b, c := m.vertices[t[0]], m.vertices[t[1]], m.vertices[t[2]]
		// The cross product's length is twice the triangle's area, so larger faces weigh more.
		n := b.Sub(a).Cross(c.Sub(a))
		for _, i := range t {
			m.accum[i] = m.accum[i].Add(n)
		}
	}
	pos, nor := *m.positions.Buffer(), *m.normals.Buffer()
	for i, v := range m.vertices {
		p := ToScene(v)
		pos[3*i], pos[3*i+1], pos[3*i+2] = p.X, p.Y, p.Z
		n := m.accum[i]
		if l := n.Len(); l > 0 {
			n = n.Mul(1 / l)
		}
		s := ToScene(n)
		nor[3*i], nor[3*i+1], nor[3*i+2] = s.X, s.Y, s.Z
	}
	m.positions.Update()
	m.normals.Update()
}

// finite3 reports whether every component of v is finite.
func finite3(v mgl64.Vec3) bool {
	for _, x := range v {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return false
		}
	}
	return true
}
