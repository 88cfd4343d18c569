package collide

import (
	"slices"

	"github.com/go-gl/mathgl/mgl64"
)

// ProxyID identifies one entry (usually one body's collider) in a BroadPhase. Ids are small
// integers, reused after Remove in last-in first-out order, so the same sequence of calls gives
// the same ids.
type ProxyID int32

// Pair is a candidate pair reported by the broad phase, with A < B.
type Pair struct {
	A, B ProxyID
}

// ProxyOptions describe a broad-phase entry.
type ProxyOptions struct {
	// Static entries never move (ground, level geometry); pairs of two static entries are
	// never reported.
	Static bool
	// Layer is the set of layers (bits) the entry belongs to; Mask the layers it collides
	// with. Two entries pair only if each one's Layer meets the other's Mask. The zero value
	// of both is treated as "all layers" (AllLayers).
	Layer, Mask uint32
	// Data is the caller's value for the entry (a body index, say), returned by Data.
	Data int
}

// AllLayers is the layer mask with every bit set.
const AllLayers = ^uint32(0)

// proxy is one broad-phase entry.
type proxy struct {
	fat         AABB
	node        int32
	static      bool
	layer, mask uint32
	data        int
	moved       bool
	stale       bool // the tree leaf still holds an old fat box (see flush)
	alive       bool
}

// BroadPhase finds candidate pairs among many bounding boxes with an incremental dynamic AABB
// tree. Each entry is stored with a fattened box (its tight box grown by the margin and,
// optionally, by its predicted displacement); an entry only re-enters the tree when its tight
// box leaves the fat one, and only re-entered entries are re-queried. A resting scene therefore
// costs one containment test per entry per step.
//
// The tree is rebuilt top-down (median splits) whenever re-insertions since the last rebuild
// reach half the entry count, which keeps queries fast when most bodies move.
//
// Pairs are kept between steps and are returned sorted by (A, B); two entries pair when their
// fat boxes overlap, they are not both static, and their layers and masks agree. A BroadPhase
// is not safe for concurrent use. The zero BroadPhase is an empty one with margin 0.
type BroadPhase struct {
	margin   float64
	tree     aabbTree
	proxies  []proxy
	free     []ProxyID
	moved    []ProxyID
	pairs    []Pair
	newPairs []Pair
	merged   []Pair
	count    int
	// churn counts re-insertions since the tree was last rebuilt.
	churn int
}

// rebuildChurn: the tree is rebuilt top-down once the re-insertions since the last rebuild
// reach this fraction of the entries (incremental insertion degrades query quality; a
// rebuilt tree answers queries several times faster).
const rebuildChurn = 0.5

// rebuildMinEntries: smaller trees are never rebuilt.
const rebuildMinEntries = 64

// NewBroadPhase returns an empty broad phase whose boxes are fattened by margin (metres, finite
// and >= 0; a few centimetres suits bodies of about a metre).
func NewBroadPhase(margin float64) (*BroadPhase, error) {
	if err := checkNonNegative("BroadPhase.margin", margin); err != nil {
		return nil, err
	}
	return &BroadPhase{margin: margin, tree: newAABBTree()}, nil
}

// Len returns the number of live entries.
func (bp *BroadPhase) Len() int { return bp.count }

// Margin returns the fattening margin.
func (bp *BroadPhase) Margin() float64 { return bp.margin }

// Add inserts an entry with the tight box bounds and returns its id. bounds must be finite
// with Min <= Max. displacement, the expected motion over the next step (velocity·h, or zero),
// stretches the fat box in that direction as in Update, so that a body added moving meets what
// lies in its path on its first step.
func (bp *BroadPhase) Add(bounds AABB, displacement mgl64.Vec3, opts ProxyOptions) (ProxyID, error) {
	if err := bounds.Validate(); err != nil {
		return -1, err
	}
	if !isFiniteVec(displacement) {
		return -1, fieldErrorf("displacement", "must be finite, got %v", displacement)
	}
	var id ProxyID
	if n := len(bp.free); n > 0 {
		id = bp.free[n-1]
		bp.free = bp.free[:n-1]
	} else {
		id = ProxyID(len(bp.proxies))
		bp.proxies = append(bp.proxies, proxy{})
	}
	layer, mask := opts.Layer, opts.Mask
	if layer == 0 && mask == 0 {
		layer, mask = AllLayers, AllLayers
	}
	fat := bp.fatBox(bounds, displacement)
	bp.proxies[id] = proxy{fat: fat, static: opts.Static, layer: layer, mask: mask, data: opts.Data, alive: true}
	bp.proxies[id].node = bp.tree.insert(id, fat)
	bp.markMoved(id)
	bp.count++
	return id, nil
}

// Static reports whether an entry is static.
func (bp *BroadPhase) Static(id ProxyID) (bool, error) {
	if err := bp.check(id); err != nil {
		return false, err
	}
	return bp.proxies[id].static, nil
}

// Remove deletes an entry; its pairs disappear at once.
func (bp *BroadPhase) Remove(id ProxyID) error {
	if err := bp.check(id); err != nil {
		return err
	}
	bp.tree.remove(bp.proxies[id].node)
	bp.proxies[id] = proxy{node: nullNode}
	bp.free = append(bp.free, id)
	bp.count--
	bp.pairs = slices.DeleteFunc(bp.pairs, func(p Pair) bool { return p.A == id || p.B == id })
	bp.moved = slices.DeleteFunc(bp.moved, func(m ProxyID) bool { return m == id })
	return nil
}

// Update gives an entry its new tight box. displacement, the expected motion over the next
// step (velocity·h, or zero), stretches the fat box in that direction. The entry re-enters the
// tree only when the box it sweeps over the step (bounds stretched by displacement) leaves its
// fat box, or the fat box has become much larger than needed; Update reports whether it did.
// Testing the swept box rather than bounds alone is what lets a fast body find, before the step,
// the pairs it will meet during it.
func (bp *BroadPhase) Update(id ProxyID, bounds AABB, displacement mgl64.Vec3) (bool, error) {
	if err := bp.check(id); err != nil {
		return false, err
	}
	if err := bounds.Validate(); err != nil {
		return false, err
	}
	if !isFiniteVec(displacement) {
		return false, fieldErrorf("displacement", "must be finite, got %v", displacement)
	}
	p := &bp.proxies[id]
	swept := sweepBox(bounds, displacement)
	loose := bounds.Expand(4*bp.margin + maxAbs(displacement))
	if p.fat.ContainsAABB(swept) && loose.ContainsAABB(p.fat) {
		return false, nil
	}
	p.fat = bp.fatBox(bounds, displacement)
	p.stale = true
	bp.markMoved(id)
	return true, nil
}

// SetLayers changes an entry's layer and mask (see ProxyOptions; zero for both means AllLayers).
// Pairs the new filter refuses disappear at once; pairs it newly allows are found by the next
// UpdatePairs, which re-queries the entry. Setting the values the entry already has does nothing.
func (bp *BroadPhase) SetLayers(id ProxyID, layer, mask uint32) error {
	if err := bp.check(id); err != nil {
		return err
	}
	if layer == 0 && mask == 0 {
		layer, mask = AllLayers, AllLayers
	}
	p := &bp.proxies[id]
	if p.layer == layer && p.mask == mask {
		return nil
	}
	p.layer, p.mask = layer, mask
	bp.pairs = slices.DeleteFunc(bp.pairs, func(q Pair) bool {
		return (q.A == id || q.B == id) && !bp.canPair(q.A, q.B)
	})
	bp.markMoved(id)
	return nil
}

// SetStatic changes whether an entry is static (see ProxyOptions): pairs of two static entries
// disappear at once, and an entry that stops being static is re-queried by the next UpdatePairs,
// which finds its pairs with static entries. Setting the value the entry already has does
// nothing.
func (bp *BroadPhase) SetStatic(id ProxyID, static bool) error {
	if err := bp.check(id); err != nil {
		return err
	}
	p := &bp.proxies[id]
	if p.static == static {
		return nil
	}
	p.static = static
	bp.pairs = slices.DeleteFunc(bp.pairs, func(q Pair) bool {
		return (q.A == id || q.B == id) && !bp.canPair(q.A, q.B)
	})
	bp.markMoved(id)
	return nil
}

// sweepBox returns box stretched by displacement: the box it covers moving along it.
func sweepBox(box AABB, displacement mgl64.Vec3) AABB {
	for i := 0; i < 3; i++ {
		if displacement[i] < 0 {
			box.Min[i] += displacement[i]
		} else {
			box.Max[i] += displacement[i]
		}
	}
	return box
}

// fatBox returns the fat box stored for tight box bounds moving by displacement: the swept box
// grown by the margin.
func (bp *BroadPhase) fatBox(bounds AABB, displacement mgl64.Vec3) AABB {
	return sweepBox(bounds.Expand(bp.margin), displacement)
}

// FatBounds returns the fat box stored for an entry.
func (bp *BroadPhase) FatBounds(id ProxyID) (AABB, error) {
	if err := bp.check(id); err != nil {
		return AABB{}, err
	}
	return bp.proxies[id].fat, nil
}

// Data returns the caller's value stored with an entry.
func (bp *BroadPhase) Data(id ProxyID) (int, error) {
	if err := bp.check(id); err != nil {
		return 0, err
	}
	return bp.proxies[id].data, nil
}

// check refuses an unknown or removed id.
func (bp *BroadPhase) check(id ProxyID) error {
	if id < 0 || int(id) >= len(bp.proxies) || !bp.proxies[id].alive {
		return fieldErrorf("ProxyID", "%d is not a live broad-phase entry", id)
	}
	return nil
}

// markMoved queues an entry for re-querying.
func (bp *BroadPhase) markMoved(id ProxyID) {
	bp.churn++
	if !bp.proxies[id].moved {
		bp.proxies[id].moved = true
		bp.moved = append(bp.moved, id)
	}
}

// canPair applies the static and layer rules.
func (bp *BroadPhase) canPair(a, b ProxyID) bool {
	pa, pb := &bp.proxies[a], &bp.proxies[b]
	if pa.static && pb.static {
		return false
	}
	return pa.layer&pb.mask != 0 && pb.layer&pa.mask != 0
}

// UpdatePairs brings the pair list up to date with the entries that re-entered the tree since
// the last call and returns it, sorted by (A, B). The slice is owned by the broad phase and
// valid until the next call that changes it. With nothing moved, it does no work.
func (bp *BroadPhase) UpdatePairs() []Pair {
	if len(bp.moved) == 0 {
		return bp.pairs
	}
	bp.flush()
	// Drop pairs of moved entries whose fat boxes separated.
	keep := bp.pairs[:0]
	for _, p := range bp.pairs {
		a, b := &bp.proxies[p.A], &bp.proxies[p.B]
		if (a.moved || b.moved) && !a.fat.Overlaps(b.fat) {
			continue
		}
		keep = append(keep, p)
	}
	bp.pairs = keep
	// Query each moved entry.
	bp.newPairs = bp.newPairs[:0]
	for _, m := range bp.moved {
		box := bp.proxies[m].fat
		bp.tree.query(box, func(o ProxyID) bool {
			if o == m || (bp.proxies[o].moved && o < m) || !bp.canPair(m, o) {
				return true
			}
			p := Pair{A: min(m, o), B: max(m, o)}
			bp.newPairs = append(bp.newPairs, p)
			return true
		})
	}
	for _, m := range bp.moved {
		bp.proxies[m].moved = false
	}
	bp.moved = bp.moved[:0]
	if len(bp.newPairs) == 0 {
		return bp.pairs
	}
	slices.SortFunc(bp.newPairs, comparePairs)
	// Merge, dropping duplicates.
	bp.merged = bp.merged[:0]
	i, j := 0, 0
	for i < len(bp.pairs) || j < len(bp.newPairs) {
		var p Pair
		switch {
		case j == len(bp.newPairs) || (i < len(bp.pairs) && comparePairs(bp.pairs[i], bp.newPairs[j]) < 0):
			p = bp.pairs[i]
			i++
		case i == len(bp.pairs) || comparePairs(bp.newPairs[j], bp.pairs[i]) < 0:
			p = bp.newPairs[j]
			j++
		default:
			p = bp.pairs[i]
			i++
			j++
		}
		if n := len(bp.merged); n > 0 && bp.merged[n-1] == p {
			continue
		}
		bp.merged = append(bp.merged, p)
	}
	bp.pairs, bp.merged = bp.merged, bp.pairs
	return bp.pairs
}

// flush brings the tree up to date with the fat boxes changed by Update: one top-down rebuild
// when many entries moved, individual re-insertions otherwise. It also sorts the moved list.
func (bp *BroadPhase) flush() {
	slices.Sort(bp.moved)
	rebuild := bp.count >= rebuildMinEntries && float64(bp.churn) >= rebuildChurn*float64(bp.count)
	for _, m := range bp.moved {
		p := &bp.proxies[m]
		if !p.stale {
			continue
		}
		p.stale = false
		if rebuild {
			bp.tree.nodes[p.node].box = p.fat
		} else {
			bp.tree.move(p.node, p.fat)
		}
	}
	if rebuild {
		bp.tree.rebuild()
		bp.churn = 0
	}
}

// Pairs returns the pair list as of the last UpdatePairs.
func (bp *BroadPhase) Pairs() []Pair { return bp.pairs }

// comparePairs orders pairs by A then B.
func comparePairs(x, y Pair) int {
	switch {
	case x.A != y.A:
		return int(x.A - y.A)
	case x.B != y.B:
		return int(x.B - y.B)
	}
	return 0
}

// Query calls visit with every entry whose fat box overlaps box, in a deterministic order
// (stop by returning false). A nil visit visits nothing.
func (bp *BroadPhase) Query(box AABB, visit func(ProxyID) bool) {
	if visit == nil {
		return
	}
	bp.flush()
	bp.tree.query(box, visit)
}

// RayCast calls visit with every entry whose fat box the ray from origin along dir crosses
// within maxT metres (dir is normalised; distances are in metres). visit receives the current
// limit and returns the distance of its hit (clipping the search to the nearest hit so far),
// the limit to ignore the entry, or a negative value to stop. Entries are visited in a
// deterministic order. It refuses a bad ray as collide.RayCast does, and a nil visit.
func (bp *BroadPhase) RayCast(origin, dir mgl64.Vec3, maxT float64, visit func(id ProxyID, maxT float64) float64) error {
	if visit == nil {
		return fieldErrorf("visit", "must not be nil")
	}
	d, err := checkRay(origin, dir, maxT)
	if err != nil {
		return err
	}
	bp.flush()
	bp.tree.rayCast(origin, d, maxT, visit)
	return nil
}

// TreeHeight returns the height of the internal tree (for diagnostics; about log2 of the entry
// count when balanced).
func (bp *BroadPhase) TreeHeight() int { return int(bp.tree.height()) }
