package deform

import (
	"io"
	"strings"

	"github.com/go-gl/mathgl/mgl64"
)

// LoadOBJ reads a Wavefront .obj surface: its vertices ("v x y z", further numbers such as w or
// a colour ignored) and faces ("f" with three or more corners, each "v", "v/vt", "v//vn" or
// "v/vt/vn"; the texture and normal numbers are ignored). Vertex numbers count from 1, or back
// from the latest vertex when negative (−1 is the last one read); a face may only use vertices
// read before it. Polygons are split into fans of triangles (v0, vk, vk+1), keeping their
// winding. '#' starts a comment; other statements (vt, vn, g, o, s, usemtl, mtllib, l, …) are
// skipped. The result suits collide.NewTriangleMesh and VoxelizeSurface, which check the
// geometry (zero-area triangles, closedness).
//
// Errors are *ParseError naming the line: a bad number, a vertex number of 0 or out of range, a
// face with fewer than three corners or a repeated corner, no face at all, more than
// MaxVertices vertices or MaxTriangles triangles.
func LoadOBJ(r io.Reader) ([]mgl64.Vec3, [][3]int, error) {
	l := newLineReader(r, "obj")
	var vertices []mgl64.Vec3
	var triangles [][3]int
	var face []int
	seen := map[int]struct{}{}
	for {
		f, ok, err := l.next()
		if err != nil {
			return nil, nil, err
		}
		if !ok {
			break
		}
		switch f[0] {
		case "v":
			if len(f) < 4 {
				return nil, nil, l.errorf("vertex: want \"v x y z\", got %d numbers", len(f)-1)
			}
			if len(vertices) >= MaxVertices {
				return nil, nil, l.errorf("more than %d vertices (deform.MaxVertices)", MaxVertices)
			}
			var p mgl64.Vec3
			for a := 0; a < 3; a++ {
				if p[a], err = l.float(f[1+a], "vertex coordinate "+"xyz"[a:a+1]); err != nil {
					return nil, nil, err
				}
			}
			vertices = append(vertices, p)
		case "f":
			if len(f) < 4 {
				return nil, nil, l.errorf("face: needs at least 3 corners, got %d", len(f)-1)
			}
			face = face[:0]
			for _, c := range f[1:] {
				if i := strings.IndexByte(c, '/'); i >= 0 {
					c = c[:i]
				}
				v, err := l.int(c, "face vertex number")
				if err != nil {
					return nil, nil, err
				}
				idx := v - 1
				if v < 0 {
					idx = len(vertices) + v
				}
				if v == 0 || idx < 0 || idx >= len(vertices) {
					return nil, nil, l.errorf("face: vertex number %d out of range (%d vertices read so far; 1-based, or negative from the last)", v, len(vertices))
				}
				face = append(face, idx)
			}
			if v, ok := repeatedCorner(face, seen); ok {
				return nil, nil, l.errorf("face: vertex number %d repeated (degenerate face)", v+1)
			}
			if len(triangles)+len(face)-2 > MaxTriangles {
				return nil, nil, l.errorf("more than %d triangles (deform.MaxTriangles)", MaxTriangles)
			}
			for k := 1; k+1 < len(face); k++ {
				triangles = append(triangles, [3]int{face[0], face[k], face[k+1]})
			}
		}
	}
	if len(triangles) == 0 {
		return nil, nil, l.errorf("no faces")
	}
	return vertices, triangles, nil
}

// repeatedCorner returns a vertex that face lists twice, if any: by pairs for a small face, and
// through the scratch set seen for a large one, so that a long face line costs linear time.
func repeatedCorner(face []int, seen map[int]struct{}) (int, bool) {
	if len(face) <= 16 {
		for i, u := range face {
			for _, w := range face[:i] {
				if u == w {
					return u, true
				}
			}
		}
		return 0, false
	}
	clear(seen)
	for _, u := range face {
		if _, ok := seen[u]; ok {
			return u, true
		}
		seen[u] = struct{}{}
	}
	return 0, false
}
