package collide

import (
	"math"

	"github.com/go-gl/mathgl/mgl64"
)

// holdTolerance: a needed candidate counts as held by a kept subset when it lies, in projection on
// the plane normal to n, within this fraction of the candidates' projected extent of a triangle
// of kept points, and no deeper than their gaps interpolated there (inTriangle). The needed points
// of a face pressed down at one end are corners of the overlap polygon, which no other subset
// contains exactly; within a tenth of the extent, the kept corners beside a dropped one hold it
// to within that distance times the step's turn, while the far end keeps its points.
const holdTolerance = 0.1

// holdingQuad returns the 4-subset of at most exhaustiveReduceLimit candidates that keeps the
// deepest one (deep) and holds every candidate whose bit is set in needed — keeps it, or has it
// inside a triangle of kept points (inTriangle) — with the largest projected hull area; ties
// (within 1e-9·scale²) go to the deeper subset, then the earlier one. It reports false if no
// subset holds them all.
func (cs *candidates) holdingQuad(n mgl64.Vec3, deep int, needed uint32) ([MaxManifoldPoints]int, bool) {
	count := cs.n
	if count < 0 || count > exhaustiveReduceLimit {
		panic("collide: holdingQuad needs at most exhaustiveReduceLimit candidates")
	}
	var p plane2
	cs.project2(n, &p)
	scale := 0.0
	for i := 0; i < count; i++ {
		scale = fmax(scale, fmax(math.Abs(p.x[i]-p.x[0]), math.Abs(p.y[i]-p.y[0])))
	}
	areaTol, depthTol := 1e-9*scale*scale, 1e-9*scale
	slack, gapSlack := holdTolerance*scale, approachTolerance*scale
	var best [MaxManifoldPoints]int
	found := false
	bestArea, bestDepth := 0.0, 0.0
	for a := 0; a < count-3; a++ {
		for b := a + 1; b < count-2; b++ {
			for c := b + 1; c < count-1; c++ {
				for d := c + 1; d < count; d++ {
					set := uint32(1)<<a | 1<<b | 1<<c | 1<<d
					if set&(1<<deep) == 0 {
						continue
					}
					// Twice the hull area: the four triangles' areas sum to it.
					area := math.Abs(p.tri(a, b, c)) + math.Abs(p.tri(a, b, d)) + math.Abs(p.tri(a, c, d)) + math.Abs(p.tri(b, c, d))
					depth := -cs.c[a].Gap - cs.c[b].Gap - cs.c[c].Gap - cs.c[d].Gap
					if found && !(area > bestArea+areaTol || (area > bestArea-areaTol && depth > bestDepth+depthTol)) {
						continue
					}
					quad := [MaxManifoldPoints]int{a, b, c, d}
					if !cs.holdsAll(&p, quad, needed&^set, slack, gapSlack) {
						continue
					}
					best, bestArea, bestDepth, found = quad, area, depth, true
				}
			}
		}
	}
	return best, found
}

// holdsAll reports whether every candidate whose bit is set in points lies inside one of the
// four triangles the candidates of quad span (whose union is their convex hull), as inTriangle
// judges.
func (cs *candidates) holdsAll(p *plane2, quad [MaxManifoldPoints]int, points uint32, slack, gapSlack float64) bool {
	a, b, c, d := quad[0], quad[1], quad[2], quad[3]
	for q := 0; q < cs.n; q++ {
		if points&(1<<q) == 0 {
			continue
		}
		if !cs.inTriangle(p, a, b, c, q, slack, gapSlack) && !cs.inTriangle(p, a, b, d, q, slack, gapSlack) &&
			!cs.inTriangle(p, a, c, d, q, slack, gapSlack) && !cs.inTriangle(p, b, c, d, q, slack, gapSlack) {
			return false
		}
	}
	return true
}

// inTriangle reports whether candidate q lies, in projection p, within slack of the triangle of
// candidates i, j, k (a degenerate triangle holds nothing), with a gap at least the corners'
// gaps interpolated at q (its barycentric coordinates, clamped to the triangle) less gapSlack.
// A rigid body's normal velocity is affine in the point, so a velocity that carries none of the
// corners through its gap then carries q through no more than gapSlack past its own; between
// plane faces (boards lying on each other) the gap is affine in the point too, and every point
// inside the kept ones is held.
func (cs *candidates) inTriangle(p *plane2, i, j, k, q int, slack, gapSlack float64) bool {
	area := p.tri(i, j, k)
	if area < 0 {
		j, k = k, j
		area = -area
	}
	if !(area > 0) {
		return false
	}
	var w [3]float64
	for e, side := range [3][2]int{{j, k}, {k, i}, {i, j}} {
		u, v := side[0], side[1]
		// Twice the signed area: the side's length times q's distance inside it.
		inside := p.tri(u, v, q)
		if inside < -slack*math.Hypot(p.x[v]-p.x[u], p.y[v]-p.y[u]) {
			return false
		}
		w[e] = fmax(inside, 0)
	}
	sum := w[0] + w[1] + w[2]
	if !(sum > 0) {
		return false
	}
	interp := (w[0]*cs.c[i].Gap + w[1]*cs.c[j].Gap + w[2]*cs.c[k].Gap) / sum
	return cs.c[q].Gap >= interp-gapSlack
}
