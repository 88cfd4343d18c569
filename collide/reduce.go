package collide

import (
	"math"

	"github.com/go-gl/mathgl/mgl64"
)

// maxCandidates is how many contact candidates a pair routine may gather before reduction.
const maxCandidates = 16

// exhaustiveReduceLimit is the largest candidate count reduced by trying every 4-subset.
const exhaustiveReduceLimit = 8

// candidates is a fixed-capacity list of contact candidates (no allocation).
type candidates struct {
	c [maxCandidates]Contact
	n int
}

// add appends a candidate; when full, the shallowest candidate is replaced if c is deeper.
func (cs *candidates) add(c Contact) {
	if cs.n < maxCandidates {
		cs.c[cs.n] = c
		cs.n++
		return
	}
	worst := 0
	for i := 1; i < cs.n; i++ {
		if cs.c[i].Gap > cs.c[worst].Gap {
			worst = i
		}
	}
	if c.Gap < cs.c[worst].Gap {
		cs.c[worst] = c
	}
}

// addUnique adds c unless a candidate lies within tol of it; then the deeper of the two is
// kept, or the one with the smaller feature id when their gaps agree within tol (contacts
// found through several triangles of a mesh).
func (cs *candidates) addUnique(c Contact, tol float64) {
	for i := 0; i < cs.n; i++ {
		e := &cs.c[i]
		if e.Point.Sub(c.Point).LenSqr() <= tol*tol {
			if c.Gap < e.Gap-tol || (c.Gap <= e.Gap+tol && c.Feature < e.Feature) {
				*e = c
			}
			return
		}
	}
	cs.add(c)
}

// deepest returns the index of the candidate with the smallest gap (the first among ties).
func (cs *candidates) deepest() int {
	best := 0
	for i := 1; i < cs.n; i++ {
		if cs.c[i].Gap < cs.c[best].Gap {
			best = i
		}
	}
	return best
}

// emit writes the candidates into out, keeping at most MaxManifoldPoints: all of them when
// there are at most quadPoints, otherwise quadPoints chosen for area and what the turning of the
// pair needs besides (below).
//
// Of the quadPoints, the points the pair's motion (out.motion) would carry through the other
// shape within the step (gap after the motion below zero, by more than approachTolerance: for a
// body resting on the ground, every touching point, as gravity presses it down) are needed; so
// is the deepest point. When fewer than quadPoints are needed they are all kept, and the rest of
// the places go to the other candidates that, with them, span the largest area on the plane
// normal to n; otherwise the needed ones and the other touching ones (gap at most
// approachTolerance of the extent, or at most the largest gap of a point the motion drives
// through) compete, by that area, with the deepest kept. Ties go to the deeper subset, then the
// earlier one, and candidates keep their relative order.
//
// The solve holds only the points it is given: a subset chosen by area alone can keep
// speculative points at the margin and drop one already touching (a hull rocking on the ground
// then sinks at it, step after step, on alternate corners) or one the motion is driving down (a
// hull turning onto the ground about a corner drives another below it). A needed point inside
// the kept points' area is held through them: a rigid body's normal velocity is affine in the
// point.
//
// Four points cannot hold a contact region with more corners once the solve turns the pair: the
// turn tilts the gap, an affine function of the point, and a corner outside the kept four sinks
// (two boards turning together, one tipped onto the other by the solve, sank a centimetre in a
// step at the corner left out). So when the pair turns (see turningCorners), the dropped
// candidates outside the kept points' area that its turn could reach are kept too.
func (cs *candidates) emit(n mgl64.Vec3, out *Manifold) {
	if cs.n <= quadPoints {
		for i := 0; i < cs.n; i++ {
			out.add(cs.c[i])
		}
		return
	}
	cs.dropShadowed(n)
	if cs.n > quadPoints {
		kept := cs.keepNeeded(n, &out.motion)
		kept |= cs.turningCorners(n, &out.motion, kept)
		m := 0
		for i := 0; i < cs.n; i++ {
			if kept&(1<<i) != 0 {
				cs.c[m] = cs.c[i]
				m++
			}
		}
		cs.n = m
	}
	for i := 0; i < cs.n; i++ {
		out.add(cs.c[i])
	}
}

// approachTolerance is, relative to the candidates' extent, how far below zero a point's gap after
// the pair's motion must be for the point to count as driven through. Bodies resting on each
// other move together, and their touching points' gaps stay within rounding of zero: counting
// those by sign would let rounding choose their manifolds (a tower of 100 boxes then drifted 8 cm
// in 60 s).
const approachTolerance = 1e-6

// extent returns the largest coordinate difference between a candidate and the first one: the
// size the tolerances below are relative to.
func (cs *candidates) extent() float64 {
	e := 0.0
	for i := 1; i < cs.n; i++ {
		d := cs.c[i].Point.Sub(cs.c[0].Point)
		e = fmax(e, fmax(math.Abs(d[0]), fmax(math.Abs(d[1]), math.Abs(d[2]))))
	}
	return e
}

// keepNeeded chooses quadPoints of more than quadPoints candidates as emit describes and returns
// them as a bit set over the candidates.
func (cs *candidates) keepNeeded(n mgl64.Vec3, pm *pairMotion) uint32 {
	deep := cs.deepest()
	least := approachTolerance * cs.extent()
	var needed uint32
	count := 0
	farthest := math.Inf(-1) // the largest gap of a point the motion drives through
	for i := 0; i < cs.n; i++ {
		driven := pm.predictedGap(&cs.c[i]) < -least
		if driven {
			farthest = max(farthest, cs.c[i].Gap)
		}
		if i == deep || driven {
			needed |= 1 << i
			count++
		}
	}
	if count < quadPoints {
		return cs.quad(n, needed)
	}
	// The needed ones fill every place: they compete with the other touching points, by area.
	// Alone, they can crowd at the end of the contact region the motion drives in, and the
	// touching other end, lifting in the predicted motion, is driven in instead once the
	// contacts act: two boards lying on each other and turning together sank a centimetre in a
	// step at the dropped end. A point nearer than a driven one touches as much as it does,
	// whatever its sign: a board turning onto another about the edge it touches along drives
	// its far half down, and the contacts there turn it about the kept points, driving in a
	// corner of that edge left out for being 5 µm above. Speculative points (above every driven
	// and touching one) stay out: kept for their area, they let a needed corner sink.
	touching := max(least, farthest)
	var sub candidates
	var from [maxCandidates]int // sub's candidate k is cs's candidate from[k]
	for i := 0; i < cs.n; i++ {
		if needed&(1<<i) != 0 || cs.c[i].Gap <= touching {
			from[sub.n] = i
			sub.c[sub.n] = cs.c[i]
			sub.n++
		}
	}
	var kept uint32
	for k, chosen := 0, sub.quad(n, 1<<sub.deepest()); k < sub.n; k++ {
		if chosen&(1<<k) != 0 {
			kept |= 1 << from[k]
		}
	}
	return kept
}

// quad returns the quadPoints candidates (of more than that) chosen for area with the forced
// ones among them, as a bit set: every subset tried when there are few enough, else greedily.
func (cs *candidates) quad(n mgl64.Vec3, forced uint32) uint32 {
	deep := cs.deepest()
	var keep [quadPoints]int
	if cs.n <= exhaustiveReduceLimit {
		keep = cs.bestQuad(n, forced|1<<deep)
	} else {
		keep = cs.greedyQuad(n, forced&^(1<<deep))
	}
	var set uint32
	for _, i := range keep {
		set |= 1 << i
	}
	return set
}

// turningTolerance is the turn, rad over the step, below which a pair counts as not turning:
// resting bodies turn by rounding only, and their manifolds stay at quadPoints.
const turningTolerance = 1e-3

// turningCorners returns, as a bit set, the candidates outside kept that the pair's turn could
// drive through the other shape within the step: those whose gap is at most how far the two
// shapes' rotations over the step (pm) move the point, whichever way the solve then turns them,
// and whose projection on the plane normal to n lies outside the kept points' hull (a point
// inside is held through them). At most MaxManifoldPoints − |kept| are returned, those the turn
// could drive deepest first, ties to the earlier candidate. A pair turning by less than
// turningTolerance gets none.
func (cs *candidates) turningCorners(n mgl64.Vec3, pm *pairMotion, kept uint32) uint32 {
	if pm.a.Angular.Len()+pm.b.Angular.Len() <= turningTolerance {
		return 0
	}
	var p plane2
	cs.project2(n, &p)
	var hull [quadPoints]int
	h := 0
	for i := 0; i < cs.n; i++ {
		if kept&(1<<i) != 0 && h < quadPoints {
			hull[h] = i
			h++
		}
	}
	e := cs.extent()
	areaTol := 1e-9 * e * e
	var depth [maxCandidates]float64 // how far past contact the turn could drive candidate i
	var reachable uint32
	for i := 0; i < cs.n; i++ {
		if kept&(1<<i) != 0 {
			continue
		}
		reach := pm.turnReach(cs.c[i].Point)
		if cs.c[i].Gap <= reach && !p.insideAny(hull[:h], i, areaTol) {
			reachable |= 1 << i
			depth[i] = reach - cs.c[i].Gap
		}
	}
	var set uint32
	for places := MaxManifoldPoints - h; places > 0 && reachable != 0; places-- {
		best := -1
		for i := 0; i < cs.n; i++ {
			if reachable&(1<<i) != 0 && (best < 0 || depth[i] > depth[best]) {
				best = i
			}
		}
		set |= 1 << best
		reachable &^= 1 << best
	}
	return set
}

// insideAny reports whether point i lies, within areaTol, in a triangle of three of the points
// hull: that is, in their convex hull.
func (p *plane2) insideAny(hull []int, i int, areaTol float64) bool {
	for a := 0; a < len(hull); a++ {
		for b := a + 1; b < len(hull); b++ {
			for c := b + 1; c < len(hull); c++ {
				ta, tb, tc := hull[a], hull[b], hull[c]
				whole := p.tri(ta, tb, tc)
				if math.Abs(whole) <= areaTol {
					continue // degenerate: it bounds no area
				}
				s1, s2, s3 := p.tri(i, tb, tc)/whole, p.tri(ta, i, tc)/whole, p.tri(ta, tb, i)/whole
				tol := areaTol / math.Abs(whole)
				if s1 >= -tol && s2 >= -tol && s3 >= -tol {
					return true
				}
			}
		}
	}
	return false
}

// shadowTolerance: a candidate whose projection on the contact plane lies within this fraction
// of the candidates' projected extent from a deeper candidate's is shadowed by it.
const shadowTolerance = 1e-2

// dropShadowed removes, before a reduction, every candidate that lies (in projection on the
// plane normal to n) within shadowTolerance of the extent from a strictly deeper candidate,
// keeping the others' relative order. Such a pair constrains the same spot of the contact
// region, and the deeper point is the one that must not sink. Without this, the area criterion
// can prefer the shallower point by a rounding-sized gain in area: a thin board lying on the
// ground has its top corners nearly above its bottom ones, and a manifold that kept a top corner
// let the bottom corner beneath it sink a centimetre a step.
func (cs *candidates) dropShadowed(n mgl64.Vec3) {
	var p plane2
	cs.project2(n, &p)
	scale := 0.0
	for i := 0; i < cs.n; i++ {
		scale = fmax(scale, fmax(math.Abs(p.x[i]-p.x[0]), math.Abs(p.y[i]-p.y[0])))
	}
	tol2 := shadowTolerance * scale
	tol2 *= tol2
	var shadowed [maxCandidates]bool
	for i := 0; i < cs.n; i++ {
		for j := 0; j < cs.n; j++ {
			dx, dy := p.x[i]-p.x[j], p.y[i]-p.y[j]
			if cs.c[j].Gap < cs.c[i].Gap && dx*dx+dy*dy <= tol2 {
				shadowed[i] = true
				break
			}
		}
	}
	m := 0
	for i := 0; i < cs.n; i++ {
		if !shadowed[i] {
			cs.c[m] = cs.c[i]
			m++
		}
	}
	cs.n = m
}

// plane2 holds candidate coordinates projected on a plane.
type plane2 struct {
	x, y [maxCandidates]float64
}

// project2 stores the candidates' coordinates in a tangent basis of n.
func (cs *candidates) project2(n mgl64.Vec3, p *plane2) {
	t1, t2 := tangentBasis(n)
	for i := 0; i < cs.n; i++ {
		p.x[i] = cs.c[i].Point.Dot(t1)
		p.y[i] = cs.c[i].Point.Dot(t2)
	}
}

// tri returns twice the signed area of triangle (i, j, k).
func (p *plane2) tri(i, j, k int) float64 {
	return (p.x[j]-p.x[i])*(p.y[k]-p.y[i]) - (p.x[k]-p.x[i])*(p.y[j]-p.y[i])
}

// bestQuad tries every 4-subset (at most 70) that holds the candidates whose bits are set in
// forced (at most four, the deepest among them) and returns the indices, increasing. The subset
// whose projected convex hull has the largest area wins; areas within 1e-9·scale² of each other
// tie, a tie goes to the deeper subset (its summed −Gap larger by more than 1e-9·scale), and
// among those to the earlier subset in loop order.
//
// Hull areas come from a table of triangle areas filled once: for any four points, the areas
// of the four triangles they span sum to twice the area of their convex hull. (In convex
// position each diagonal cuts the hull into two of the triangles; with one point inside the
// triangle of the other three, the three small triangles tile that one, which is the hull.)
func (cs *candidates) bestQuad(n mgl64.Vec3, forced uint32) [quadPoints]int {
	count := cs.n
	if count < 0 || count > exhaustiveReduceLimit {
		// emit hands larger sets to greedyQuad; this bound also lets the compiler drop the
		// index checks below.
		panic("collide: bestQuad needs at most exhaustiveReduceLimit candidates")
	}
	var p plane2
	cs.project2(n, &p)
	scale := 0.0
	for i := 0; i < count; i++ {
		scale = fmax(scale, fmax(math.Abs(p.x[i]-p.x[0]), math.Abs(p.y[i]-p.y[0])))
	}
	areaTol, depthTol := 1e-9*scale*scale, 1e-9*scale

	// depths[i] is candidate i's −Gap. Summed in index order they give a subset's depth, equal
	// to −(sum of its gaps) bit for bit (rounding is symmetric under negation).
	var depths [exhaustiveReduceLimit]float64
	for i := 0; i < count; i++ {
		depths[i] = -cs.c[i].Gap
	}
	// triArea[i][j][k] (i < j < k) is the area of triangle (i, j, k); other entries stay unused.
	// A triangle's first index is at most exhaustiveReduceLimit−3, its second one more.
	var triArea [exhaustiveReduceLimit - 2][exhaustiveReduceLimit - 1][exhaustiveReduceLimit]float64
	for i := 0; i < count-2; i++ {
		for j := i + 1; j < count-1; j++ {
			dxIJ, dyIJ := p.x[j]-p.x[i], p.y[j]-p.y[i]
			row := &triArea[i][j]
			for k := j + 1; k < count; k++ {
				row[k] = 0.5 * math.Abs(dxIJ*(p.y[k]-p.y[i])-(p.x[k]-p.x[i])*dyIJ)
			}
		}
	}

	best := [quadPoints]int{0, 1, 2, 3}
	// A subset replaces the best when its area exceeds largerThan, or when it exceeds
	// tiedAbove and its depth exceeds deeperThan. The best area starts at −1 (no subset yet).
	bestArea, bestDepth := -1.0, 0.0
	largerThan, tiedAbove, deeperThan := bestArea+areaTol, bestArea-areaTol, bestDepth+depthTol
	for a := 0; a < count-3; a++ {
		for b := a + 1; b < count-2; b++ {
			depthAB := depths[a] + depths[b]
			rowABD := &triArea[a][b]
			for c := b + 1; c < count-1; c++ {
				depthABC := depthAB + depths[c]
				areaABC := rowABD[c]
				rowACD, rowBCD := &triArea[a][c], &triArea[b][c]
				for d := c + 1; d < count; d++ {
					if forced&^(1<<a|1<<b|1<<c|1<<d) != 0 {
						continue
					}
					// Twice the hull area (the measure areaTol is in): the four triangles' sum.
					area := areaABC + rowABD[d] + rowACD[d] + rowBCD[d]
					depth := depthABC + depths[d]
					if area > largerThan || (area > tiedAbove && depth > deeperThan) {
						best, bestArea, bestDepth = [quadPoints]int{a, b, c, d}, area, depth
						largerThan, tiedAbove, deeperThan = bestArea+areaTol, bestArea-areaTol, bestDepth+depthTol
					}
				}
			}
		}
	}
	return best
}

// greedyQuad picks the deepest point, then the candidates whose bits are set in forced (in index
// order, as many as fit), then, for the places left, the point farthest from the deepest, the
// point making the largest triangle with the first two, and the point adding the most area to
// that triangle; indices increasing. Near ties (within a relative 1e-9) go to the earlier
// candidate, so rounding noise does not change the choice.
func (cs *candidates) greedyQuad(n mgl64.Vec3, forced uint32) [quadPoints]int {
	var p plane2
	cs.project2(n, &p)
	xs, ys := &p.x, &p.y
	scale := 0.0
	for i := 0; i < cs.n; i++ {
		scale = fmax(scale, fmax(math.Abs(xs[i]-xs[0]), math.Abs(ys[i]-ys[0])))
	}
	lenTol, areaTol := 1e-9*scale, 1e-9*scale*scale
	p0 := 0
	for i := 1; i < cs.n; i++ {
		if cs.c[i].Gap < cs.c[p0].Gap-lenTol {
			p0 = i
		}
	}
	q := [quadPoints]int{p0}
	picked, taken := 1, uint32(1)<<p0
	for i := 0; i < cs.n && picked < quadPoints; i++ {
		if forced&(1<<i) != 0 && taken&(1<<i) == 0 {
			q[picked], taken = i, taken|1<<i
			picked++
		}
	}
	if picked == 1 {
		p1, best := -1, -1.0
		for i := 0; i < cs.n; i++ {
			d := (xs[i]-xs[p0])*(xs[i]-xs[p0]) + (ys[i]-ys[p0])*(ys[i]-ys[p0])
			if i != p0 && d > best+areaTol {
				p1, best = i, d
			}
		}
		q[1], taken = p1, taken|1<<p1
		picked++
	}
	if picked == 2 {
		p2, best := -1, -1.0
		for i := 0; i < cs.n; i++ {
			if a := math.Abs(p.tri(q[0], q[1], i)); taken&(1<<i) == 0 && a > best+areaTol {
				p2, best = i, a
			}
		}
		q[2], taken = p2, taken|1<<p2
		picked++
	}
	if picked == 3 {
		p0, p1, p2 := q[0], q[1], q[2]
		if p.tri(p0, p1, p2) < 0 {
			p1, p2 = p2, p1
		}
		p3, best := -1, math.Inf(-1)
		for i := 0; i < cs.n; i++ {
			if taken&(1<<i) != 0 {
				continue
			}
			a := fmax(-p.tri(p0, p1, i), fmax(-p.tri(p1, p2, i), -p.tri(p2, p0, i)))
			if a > best+areaTol {
				p3, best = i, a
			}
		}
		q[3] = p3
	}
	for i := 1; i < len(q); i++ {
		for j := i; j > 0 && q[j] < q[j-1]; j-- {
			q[j], q[j-1] = q[j-1], q[j]
		}
	}
	return q
}

// contactBetween returns the contact between the world points pa on A and pb on B along the
// unit normal n (A → B): gap (pb − pa)·n, point midway.
func contactBetween(pa, pb, n mgl64.Vec3, id FeatureID) Contact {
	return Contact{
		Point:   lerp(pa, pb, 0.5),
		Normal:  n,
		Gap:     pb.Sub(pa).Dot(n),
		Feature: id,
	}
}

// contactAt returns the contact whose point on A is pa, with normal n and the given gap.
func contactAt(pa, n mgl64.Vec3, gap float64, id FeatureID) Contact {
	return Contact{Point: madd(pa, n, 0.5*gap), Normal: n, Gap: gap, Feature: id}
}

// fmax returns the larger of a and b (no NaN or signed-zero handling: inputs are finite).
func fmax(a, b float64) float64 {
	if a > b {
		return a
	}
	return b
}
