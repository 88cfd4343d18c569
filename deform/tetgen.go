package deform

import (
	"io"

	"github.com/go-gl/mathgl/mgl64"
)

// LoadTetGen reads a tetrahedral mesh in TetGen's formats: node lists the points — a header
// "<points> 3 <attributes> <boundary markers 0|1>" (the last two may be left out, meaning 0)
// then one line "<number> <x> <y> <z> [attributes…] [marker]" per point — and ele the
// tetrahedra — a header "<tetrahedra> 4 <region attribute 0|1>" then "<number> <a> <b> <c> <d>
// [region]" per tetrahedron. Points are numbered consecutively from 0 or 1 (the first line's
// number sets the base, which the tetrahedra's vertex numbers then use); '#' starts a comment.
// Attributes, markers and regions are read and dropped. The corners may be listed in either
// orientation as long as every tetrahedron agrees (the sign of the total volume decides); the
// mesh is returned positively oriented.
//
// Errors are *ParseError naming the file and line: a bad header or number, a point or
// tetrahedron numbered out of sequence, a vertex number out of range or repeated, an inverted
// or degenerate tetrahedron (named by its number in the file), quadratic 10-node tetrahedra,
// missing or extra lines. Counts above MaxVertices or MaxTets are refused from the header, and
// memory grows only with the lines actually read.
func LoadTetGen(node, ele io.Reader) (*TetMesh, error) {
	vertices, base, err := readTetGenNodes(node)
	if err != nil {
		return nil, err
	}
	l := newLineReader(ele, "ele")
	head, ok, err := l.next()
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, l.errorf("empty: needs the header \"<tetrahedra> 4 <region attribute>\"")
	}
	if len(head) < 2 || len(head) > 3 {
		return nil, l.errorf("header: want \"<tetrahedra> 4 [region attribute]\", got %d fields", len(head))
	}
	count, err := l.int(head[0], "tetrahedron count")
	if err != nil {
		return nil, err
	}
	if count < 1 || count > MaxTets {
		return nil, l.errorf("tetrahedron count: must be in [1, %d] (deform.MaxTets), got %d", MaxTets, count)
	}
	per, err := l.int(head[1], "nodes per tetrahedron")
	if err != nil {
		return nil, err
	}
	if per != 4 {
		return nil, l.errorf("nodes per tetrahedron: only linear tetrahedra (4) are supported, got %d", per)
	}
	region := 0
	if len(head) == 3 {
		if region, err = l.int(head[2], "region attribute"); err != nil {
			return nil, err
		}
		if region != 0 && region != 1 {
			return nil, l.errorf("region attribute: must be 0 or 1, got %d", region)
		}
	}
	tets := make([][4]int32, 0, min(count, 4096))
	lines := make([]int, 0, min(count, 4096))
	first := 0
	for len(tets) < count {
		f, ok, err := l.next()
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, l.errorf("ends after %d of %d tetrahedra", len(tets), count)
		}
		if len(f) != 5+region {
			return nil, l.errorf("tetrahedron line: want %d fields, got %d", 5+region, len(f))
		}
		num, err := l.int(f[0], "tetrahedron number")
		if err != nil {
			return nil, err
		}
		if len(tets) == 0 && (num == 0 || num == 1) {
			first = num
		}
		if num != first+len(tets) {
			return nil, l.errorf("tetrahedron number %d out of sequence, want %d", num, first+len(tets))
		}
		var t [4]int32
		for a := 0; a < 4; a++ {
			v, err := l.int(f[1+a], "vertex number")
			if err != nil {
				return nil, err
			}
			if v-base < 0 || v-base >= len(vertices) {
				return nil, l.errorf("tetrahedron %d: vertex %d out of range [%d, %d]", num, v, base, base+len(vertices)-1)
			}
			t[a] = int32(v - base)
			for b := 0; b < a; b++ {
				if t[b] == t[a] {
					return nil, l.errorf("tetrahedron %d: vertex %d repeated", num, v)
				}
			}
		}
		if len(f) == 6 {
			if _, err := l.float(f[5], "region"); err != nil {
				return nil, err
			}
		}
		tets, lines = append(tets, t), append(lines, l.line)
	}
	if _, more, err := l.next(); err != nil {
		return nil, err
	} else if more {
		return nil, l.errorf("extra line after the %d tetrahedra of the header", count)
	}
	corners := func(t [4]int32) [4]mgl64.Vec3 {
		return [4]mgl64.Vec3{vertices[t[0]], vertices[t[1]], vertices[t[2]], vertices[t[3]]}
	}
	total := 0.0
	for _, t := range tets {
		total += signedVolume(corners(t))
	}
	for i := range tets {
		if total < 0 {
			tets[i][1], tets[i][2] = tets[i][2], tets[i][1]
		}
		if err := checkTetShape(corners(tets[i])); err != nil {
			return nil, &ParseError{File: "ele", Line: lines[i], Reason: "tetrahedron " + itoa(first+i) + ": " + err.Error()}
		}
	}
	return NewTetMesh(vertices, tets)
}

// readTetGenNodes reads a .node file's points and the number of its first point (0 or 1).
func readTetGenNodes(r io.Reader) ([]mgl64.Vec3, int, error) {
	l := newLineReader(r, "node")
	head, ok, err := l.next()
	if err != nil {
		return nil, 0, err
	}
	if !ok {
		return nil, 0, l.errorf("empty: needs the header \"<points> 3 <attributes> <boundary markers>\"")
	}
	if len(head) < 2 || len(head) > 4 {
		return nil, 0, l.errorf("header: want \"<points> 3 [attributes] [boundary markers]\", got %d fields", len(head))
	}
	count, err := l.int(head[0], "point count")
	if err != nil {
		return nil, 0, err
	}
	if count < 4 || count > MaxVertices {
		return nil, 0, l.errorf("point count: must be in [4, %d] (deform.MaxVertices), got %d", MaxVertices, count)
	}
	dim, err := l.int(head[1], "dimension")
	if err != nil {
		return nil, 0, err
	}
	if dim != 3 {
		return nil, 0, l.errorf("dimension: must be 3, got %d", dim)
	}
	attrs, marks := 0, 0
	if len(head) >= 3 {
		if attrs, err = l.int(head[2], "attribute count"); err != nil {
			return nil, 0, err
		}
		// A line holds at most maxLineBytes/2 fields, so more attributes could never be read.
		if attrs < 0 || attrs > maxLineBytes/2 {
			return nil, 0, l.errorf("attribute count: must be in [0, %d], got %d", maxLineBytes/2, attrs)
		}
	}
	if len(head) == 4 {
		if marks, err = l.int(head[3], "boundary markers"); err != nil {
			return nil, 0, err
		}
		if marks != 0 && marks != 1 {
			return nil, 0, l.errorf("boundary markers: must be 0 or 1, got %d", marks)
		}
	}
	vertices := make([]mgl64.Vec3, 0, min(count, 4096))
	base := 0
	for len(vertices) < count {
		f, ok, err := l.next()
		if err != nil {
			return nil, 0, err
		}
		if !ok {
			return nil, 0, l.errorf("ends after %d of %d points", len(vertices), count)
		}
		if len(f) != 4+attrs+marks {
			return nil, 0, l.errorf("point line: want %d fields, got %d", 4+attrs+marks, len(f))
		}
		num, err := l.int(f[0], "point number")
		if err != nil {
			return nil, 0, err
		}
		if len(vertices) == 0 {
			if num != 0 && num != 1 {
				return nil, 0, l.errorf("point number: the first must be 0 or 1, got %d", num)
			}
			base = num
		}
		if num != base+len(vertices) {
			return nil, 0, l.errorf("point number %d out of sequence, want %d", num, base+len(vertices))
		}
		var p mgl64.Vec3
		for a := 0; a < 3; a++ {
			if p[a], err = l.float(f[1+a], "point "+itoa(num)+" coordinate "+"xyz"[a:a+1]); err != nil {
				return nil, 0, err
			}
		}
		for _, s := range f[4:] {
			if _, err := l.float(s, "point "+itoa(num)+" attribute or marker"); err != nil {
				return nil, 0, err
			}
		}
		vertices = append(vertices, p)
	}
	if _, more, err := l.next(); err != nil {
		return nil, 0, err
	} else if more {
		return nil, 0, l.errorf("extra line after the %d points of the header", count)
	}
	return vertices, base, nil
}
