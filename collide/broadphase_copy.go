package collide

// CopyFrom makes bp a deep copy of src — its entries with their fattened boxes, the tree, the
// pending moves and the current pairs — reusing bp's storage, so that bp then reports exactly the
// pairs src would. A game's snapshot of a simulation uses it (physics.Simulation.Snapshot).
func (bp *BroadPhase) CopyFrom(src *BroadPhase) {
	bp.margin = src.margin
	bp.tree.copyFrom(&src.tree)
	bp.proxies = append(bp.proxies[:0], src.proxies...)
	bp.free = append(bp.free[:0], src.free...)
	bp.moved = append(bp.moved[:0], src.moved...)
	bp.pairs = append(bp.pairs[:0], src.pairs...)
	bp.newPairs, bp.merged = bp.newPairs[:0], bp.merged[:0] // scratch of UpdatePairs
	bp.count, bp.churn = src.count, src.churn
}

// copyFrom makes t a deep copy of src, reusing t's storage.
func (t *aabbTree) copyFrom(src *aabbTree) {
	t.nodes = append(t.nodes[:0], src.nodes...)
	t.root, t.free = src.root, src.free
	t.stack = t.stack[:0] // scratch of the queries
	t.leaves = append(t.leaves[:0], src.leaves...)
}
