package physics

import (
	"cmp"
	"math"
	"math/bits"
	"slices"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/stagger-physics/stagger/collide"
	"github.com/stagger-physics/stagger/deform"
	"github.com/stagger-physics/stagger/ecs"
)

// noProxy is the proxy of a deformable contact whose other body is a deformable, not a collider.
const noProxy collide.ProxyID = -1

// deformLeafSize is the number of surface triangles per leaf of a deformable's BD-tree: small
// leaves keep the sample–triangle tests near the contact, and the tree's refit is O(r) per node.
const deformLeafSize = 2

// peerDepth returns how far behind a surface triangle's plane a sample of another deformable may
// be and still touch it (docs/architecture.md, Deformable bodies): half the shortest edge of the
// rest surface. A sample deeper than that is taken to be behind another part of the surface — the
// far side of the body — rather than pressed in; every body is at least one edge thick.
func peerDepth(mesh *deform.TetMesh, surface []int32, triangles [][3]int32) float64 {
	shortest := math.Inf(1)
	for _, t := range triangles {
		for i := 0; i < 3; i++ {
			a, b := mesh.Vertex(int(surface[t[i]])), mesh.Vertex(int(surface[t[(i+1)%3]]))
			shortest = min(shortest, a.Sub(b).Len())
		}
	}
	return 0.5 * shortest
}

// faceHit is a surface sample's contact with a triangle of another deformable's surface.
type faceHit struct {
	face     int32
	bary     [3]float64 // the point of the triangle nearest the sample
	normal   mgl64.Vec3 // the triangle's outward unit normal
	gap      float64    // the sample's signed distance from the triangle's plane
	distance float64    // from the sample to the triangle
}

// faceContact tests sample p against surface triangle face of model b at its start-of-step
// position: a contact when p is in front of the triangle's plane by at most look with its
// projection on the plane within look of the triangle, or behind the plane by at most depth and
// either within look of the triangle or inside its prism (its projection in the triangle, to
// prismSlack). Behind the plane the projection's distance from the triangle is no test: a sample
// above a face, more than look in front of it, is behind the plane of a side face that meets the
// first at an edge sharper than a right angle (a soft block bulging), and its projection there
// can fall less than look beyond the side's top edge although the sample is outside the body and
// farther than look from both faces. The prisms of the triangles at a convex edge overlap behind
// the surface, so a sample pressed in is still inside one of them.
func faceContact(p mgl64.Vec3, b *deformableModel, face int32, look, depth float64) (faceHit, bool) {
	t := b.triangles[face]
	x0, x1, x2 := b.samples[t[0]], b.samples[t[1]], b.samples[t[2]]
	nrm := x1.Sub(x0).Cross(x2.Sub(x0))
	l := nrm.Len()
	if !(l > 0) {
		return faceHit{}, false // flattened: no normal
	}
	n := nrm.Mul(1 / l)
	d := n.Dot(p.Sub(x0))
	if !(d <= look && d >= -depth) {
		return faceHit{}, false
	}
	_, w, _ := collide.ClosestOnTriangle(p, x0, x1, x2)
	q := x0.Mul(w[0]).Add(x1.Mul(w[1])).Add(x2.Mul(w[2]))
	lateral, distance := p.Sub(n.Mul(d)).Sub(q).Len(), p.Sub(q).Len()
	if lateral > look || (d < 0 && distance > look && lateral > prismSlack) {
		return faceHit{}, false
	}
	return faceHit{face: face, bary: w, normal: n, gap: d, distance: distance}, true
}

// prismSlack, m, is how far outside a triangle the projection of a sample behind its plane may
// fall and still count as inside its prism: rounding, for a sample on the edge two triangles
// share.
const prismSlack = 1e-9

// collideDeformablePairs lists the contacts between deformables, after their contacts with
// colliders (collideDeformables, which has set every model's samples, sweep and box). For every
// pair whose boxes meet, each body's BD-tree is refitted to its start-of-step state (once a step,
// and not at all while the state is the one it was last refitted to);
// the trees give the pairs of leaves whose spheres come within the look-ahead (margin plus both
// sweeps), and each surface sample of either body in such a leaf is tested against the other
// body's triangles of the paired leaf (faceContact). A sample touching several triangles keeps
// the nearest (the lower index on a tie): one contact per (other body, sample), normal the
// triangle's outward normal (from the other body to the sample, as a collider's is), and the
// other body's side the triangle's nearest point, whose rows combine its vertices' Jacobians
// (deformableModel.faceRows). The contacts are sorted by (other body, sample) in each model and
// warm-started from last step's of the same key. A pair whose boxes meet is tested only when its
// layers meet both ways and the contact filter keeps it. A pair neither body of which has changed
// since last step computed its contacts keeps them (deformable_reuse.go).
func (s *Simulation) collideDeformablePairs(margin float64) {
	dm := s.deformModels
	if len(dm) < 2 {
		return
	}
	dc := &s.deformCol
	dc.fitted = growFits(dc.fitted, len(dm))
	nr := len(s.models)
	for j := range dm {
		layerJ, maskJ := s.deformables[j].layers()
		for k := j + 1; k < len(dm); k++ {
			if !dm[j].box.Overlaps(dm[k].box) {
				continue
			}
			// The layers, then the contact filter, as for a pair of colliders.
			if layerK, maskK := s.deformables[k].layers(); !layersMeet(layerJ, maskJ, layerK, maskK) {
				continue
			}
			// A tree is refitted once a step, and only when one of its pairs needs it.
			if !dc.fit(dm, j) || !dc.fit(dm, k) {
				continue
			}
			ej, ek := s.entities[nr+j], s.entities[nr+k]
			if s.filter != nil && !callFilter(s.filter, ej, ek) {
				continue
			}
			kept := dm[j].same && dm[k].same && dm[j].testedPeer(ek)
			dm[j].peerKeys = append(dm[j].peerKeys, ek)
			dm[k].peerKeys = append(dm[k].peerKeys, ej)
			if kept {
				// Neither body has changed since last step computed the pair's contacts: they
				// stand (deformable_reuse.go).
				dm[j].keepPeer(ek, k)
				dm[k].keepPeer(ej, j)
				dc.kept++
				continue
			}
			look := margin + dm[j].sweep + dm[k].sweep
			// Only a negative or non-finite look-ahead is refused, which the config's and the
			// sweep's checks keep out.
			var err error
			if dc.leaves, err = dm[j].tree.Overlaps(dm[k].tree, look, dc.leaves); err != nil || len(dc.leaves) == 0 {
				continue
			}
			s.samplesOnFaces(j, k, false, look)
			s.samplesOnFaces(k, j, true, look)
		}
	}
	for j, m := range dm {
		peers := m.contacts[m.peers:]
		slices.SortFunc(peers, peerCompare)
		old := m.prevPeers
		for i := range peers {
			ct := &peers[i]
			for old < len(m.prev) && peerCompare(m.prev[old], *ct) < 0 {
				old++
			}
			var warm contactImpulse
			if old < len(m.prev) && peerCompare(m.prev[old], *ct) == 0 {
				warm = contactImpulse{normal: m.prev[old].alpha, friction: m.prev[old].friction}
			}
			s.contacts.add(contactPoint{
				pair: -1 - j, point: m.peers + i,
				a:        contactSide{model: nr + ct.peer, onFace: true, face: ct.face, bary: ct.bary},
				b:        contactSide{model: nr + j, sample: ct.sample},
				position: ct.position, normal: ct.normal, gap: ct.gap,
				friction:    combineFriction(s.deformables[j].Friction, s.deformables[ct.peer].Friction),
				restitution: combineRestitution(0, 0),
				warm:        warm,
			})
		}
	}
}

// samplesOnFaces appends to deformable ia's contacts those of its samples with deformable ib's
// surface triangles, over the leaf pairs in s.deformCol.leaves (ia's leaf first unless swapped).
// Each sample's candidate triangles are taken in increasing order, each once, and the samples in
// increasing order (deformCollision.mark, row).
func (s *Simulation) samplesOnFaces(ia, ib int, swapped bool, look float64) {
	dc := &s.deformCol
	a, b := s.deformModels[ia], s.deformModels[ib]
	dc.startCandidates(len(a.samples), len(b.triangles))
	for _, lp := range dc.leaves {
		la, lb := lp[0], lp[1]
		if swapped {
			la, lb = lb, la
		}
		faces := b.tree.LeafTriangles(int(lb))
		// The leaf's sphere holds its triangles, and faceContact takes no sample farther than
		// look + depth from a triangle.
		centre, radius := b.tree.Sphere(int(lb))
		reach := (radius + look + b.depth) * (radius + look + b.depth)
		for _, ta := range a.tree.LeafTriangles(int(la)) {
			for _, v := range a.triangles[ta] {
				if a.samples[v].Sub(centre).LenSqr() > reach {
					continue
				}
				dc.mark(v, faces)
			}
		}
	}
	slices.Sort(dc.marked)
	other := s.entities[len(s.models)+ib]
	for _, si := range dc.marked {
		var best faceHit
		found := false
		row := dc.row(si)
		for w, word := range row {
			for ; word != 0; word &= word - 1 {
				face := int32(w<<6 + bits.TrailingZeros64(word))
				dc.sampleTests++
				hit, ok := faceContact(a.samples[si], b, face, look, b.depth)
				if ok && (!found || hit.distance < best.distance) {
					best, found = hit, true
				}
			}
		}
		clear(row)
		dc.slot[si] = -1
		if !found {
			continue
		}
		a.contacts = append(a.contacts, deformContact{
			proxy: noProxy, other: other, sample: si, peer: ib, face: best.face, bary: best.bary,
			position: a.samples[si].Sub(best.normal.Mul(0.5 * best.gap)), normal: best.normal, gap: best.gap,
		})
	}
}

// peerCompare orders deformable–deformable contacts by (other body, sample), the other body by
// its entity, which does not change when deformables come and go.
func peerCompare(x, y deformContact) int {
	switch {
	case x.other.Index() != y.other.Index():
		return cmp.Compare(x.other.Index(), y.other.Index())
	case x.other.Generation() != y.other.Generation():
		return cmp.Compare(x.other.Generation(), y.other.Generation())
	}
	return int(x.sample) - int(y.sample)
}

// treeFit is whether a deformable's BD-tree holds its configuration this step.
type treeFit uint8

const (
	fitUnknown treeFit = iota // not needed yet
	fitDone                   // refitted, or still fitted from an earlier step
	fitFailed                 // the refit refused the state
)

// fit reports whether deformable j's BD-tree holds its start-of-step configuration, refitting it
// the first time a step asks. Only a non-finite state is refused, which the step's checks keep out;
// such a body then meets no other deformable.
func (dc *deformCollision) fit(dm []*deformableModel, j int) bool {
	if dc.fitted[j] == fitUnknown {
		dc.fitted[j] = fitFailed
		if dm[j].fitTree() {
			dc.fitted[j] = fitDone
		}
	}
	return dc.fitted[j] == fitDone
}

// keepPeer appends to the model's contacts last step's with the surface of deformable e, which
// is the step's deformable peer.
func (m *deformableModel) keepPeer(e ecs.Entity, peer int) {
	for _, ct := range m.prev[m.prevPeers:] {
		if ct.other == e {
			ct.peer, ct.alpha, ct.friction = peer, 0, mgl64.Vec3{}
			m.contacts = append(m.contacts, ct)
		}
	}
}

// growFits returns s resized to n and cleared, reusing its capacity.
func growFits(s []treeFit, n int) []treeFit {
	if cap(s) < n {
		return make([]treeFit, n)
	}
	s = s[:n]
	clear(s)
	return s
}
