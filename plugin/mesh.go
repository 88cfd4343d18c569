package plugin

import (
	"fmt"

	"github.com/g3n/engine/core"
	"github.com/g3n/engine/geometry"
	"github.com/g3n/engine/gls"
	"github.com/g3n/engine/graphic"
	"github.com/g3n/engine/material"
	"github.com/g3n/engine/math32"
	"github.com/stagger-physics/stagger/collide"
)

// halfSpaceDrawSize is the side, in m, of the square drawn for a half-space.
const halfSpaceDrawSize = 200

// MeshFor returns a node holding a mesh of shape in mat, laid out so that, placed at the body's
// pose by the sync system, it covers the collider exactly (see the package doc on frames). A
// compound's node holds one node per child, placed at the child's pose.
func MeshFor(shape collide.Shape, mat material.IMaterial) (*core.Node, error) {
	node := core.NewNode()
	if c, ok := shape.(*collide.Compound); ok {
		// One node per child, placed at the child's pose in the compound's frame and holding the
		// child's meshes as MeshFor lays them out for the child alone.
		for i := 0; i < c.NumChildren(); i++ {
			ch := c.Child(i)
			child := core.NewNode()
			if err := addShapeMeshes(child, ch.Shape, mat); err != nil {
				return nil, err
			}
			p := ToScene(ch.Pose.Position)
			q := QuatToScene(ch.Pose.Rotation)
			child.SetPositionVec(&p)
			child.SetQuaternionQuat(&q)
			node.Add(child)
		}
		return node, nil
	}
	if err := addShapeMeshes(node, shape, mat); err != nil {
		return nil, err
	}
	return node, nil
}

// addShapeMeshes adds to node the meshes of a shape that is no compound, in node-local
// coordinates.
func addShapeMeshes(node *core.Node, shape collide.Shape, mat material.IMaterial) error {
	switch s := shape.(type) {
	case *collide.Box:
		h := s.HalfExtents
		// Physics local (x, y, z) is node local (x, −z, y): width x, height z, length y.
		node.Add(graphic.NewMesh(geometry.NewBox(float32(2*h[0]), float32(2*h[2]), float32(2*h[1])), mat))
	case *collide.Sphere:
		node.Add(graphic.NewMesh(geometry.NewSphere(s.Radius, 24, 16), mat))
	case *collide.Capsule:
		// The capsule's axis is physics local z, which is node local y, the axis of g3n's cylinder.
		if s.HalfHeight > 0 {
			node.Add(graphic.NewMesh(geometry.NewCylinder(s.Radius, 2*s.HalfHeight, 24, 1, false, false), mat))
		}
		for _, sign := range []float64{1, -1} {
			cap := graphic.NewMesh(geometry.NewSphere(s.Radius, 24, 12), mat)
			cap.SetPosition(0, float32(sign*s.HalfHeight), 0)
			node.Add(cap)
		}
	case *collide.Cylinder:
		// The cylinder's axis is physics local z, which is node local y, the axis of g3n's cylinder.
		node.Add(graphic.NewMesh(geometry.NewCylinder(s.Radius, 2*s.HalfHeight, 24, 1, true, true), mat))
	case *collide.ConvexHull:
		node.Add(graphic.NewMesh(hullGeometry(s), mat))
	case *collide.HalfSpace:
		plane := graphic.NewMesh(geometry.NewPlane(halfSpaceDrawSize, halfSpaceDrawSize), mat)
		// g3n's plane faces +z (node local); turn it to face the half-space's outward normal.
		n := ToScene(s.Normal)
		var q math32.Quaternion
		q.SetFromUnitVectors(&math32.Vector3{X: 0, Y: 0, Z: 1}, &n)
		plane.SetQuaternionQuat(&q)
		p := ToScene(s.Normal.Mul(s.Offset))
		plane.SetPositionVec(&p)
		node.Add(plane)
	default:
		return fmt.Errorf("plugin: no mesh for shape kind %v", shape.Kind())
	}
	return nil
}

// paletteColor returns a colour for index i from a fixed, pleasant palette.
func paletteColor(i uint32) *math32.Color {
	palette := [...]uint32{0xE07A5F, 0x81B29A, 0xF2CC8F, 0x3D85C6, 0x9B5DE5, 0xF15BB5, 0x00BBF9, 0xFEE440}
	c := palette[i%uint32(len(palette))]
	return &math32.Color{R: float32(c>>16&0xFF) / 255, G: float32(c>>8&0xFF) / 255, B: float32(c&0xFF) / 255}
}

// hullGeometry returns a flat-shaded mesh of hull h in node-local coordinates: each face is a
// fan of triangles with the face's normal, wound counter-clockwise seen from outside.
func hullGeometry(h *collide.ConvexHull) *geometry.Geometry {
	positions := math32.NewArrayF32(0, 64)
	normals := math32.NewArrayF32(0, 64)
	indices := math32.NewArrayU32(0, 64)
	verts := h.Vertices()
	for f := 0; f < h.NumFaces(); f++ {
		normal, _, ids := h.Face(f)
		n := ToScene(normal)
		first := uint32(positions.Size() / 3)
		for _, id := range ids {
			p := ToScene(verts[id])
			positions.Append(p.X, p.Y, p.Z)
			normals.Append(n.X, n.Y, n.Z)
		}
		for j := 1; j+1 < len(ids); j++ {
			a, b, c := ToScene(verts[ids[0]]), ToScene(verts[ids[j]]), ToScene(verts[ids[j+1]])
			var ab, ac, cross math32.Vector3
			ab.SubVectors(&b, &a)
			ac.SubVectors(&c, &a)
			cross.CrossVectors(&ab, &ac)
			if cross.Dot(&n) >= 0 {
				indices.Append(first, first+uint32(j), first+uint32(j+1))
			} else {
				indices.Append(first, first+uint32(j+1), first+uint32(j))
			}
		}
	}
	g := geometry.NewGeometry()
	g.SetIndices(indices)
	g.AddVBO(gls.NewVBO(positions).AddAttrib(gls.VertexPosition))
	g.AddVBO(gls.NewVBO(normals).AddAttrib(gls.VertexNormal))
	return g
}
