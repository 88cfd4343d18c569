package collide

import (
	"github.com/go-gl/mathgl/mgl64"
)

// nullNode marks an absent node in the AABB tree.
const nullNode = int32(-1)

// treeNode is a node of the dynamic AABB tree: a leaf holds one proxy, an internal node the
// union of its two children.
type treeNode struct {
	box                 AABB
	parent, left, right int32
	height              int32
	proxy               ProxyID // leaves only
}

// isLeaf reports whether the node is a leaf.
func (n *treeNode) isLeaf() bool { return n.left == nullNode }

// aabbTree is a dynamic bounding-volume hierarchy of axis-aligned boxes, kept balanced by
// rotations, with leaves inserted where they add the least surface area. Nodes live in one
// slice and are recycled through a free list, so a warm tree does not allocate.
type aabbTree struct {
	nodes  []treeNode
	root   int32
	free   int32
	stack  []int32
	leaves []int32
}

// newAABBTree returns an empty tree.
func newAABBTree() aabbTree {
	return aabbTree{root: nullNode, free: nullNode}
}

// allocNode returns a fresh node index.
func (t *aabbTree) allocNode() int32 {
	if t.free != nullNode {
		i := t.free
		t.free = t.nodes[i].parent
		t.nodes[i] = treeNode{parent: nullNode, left: nullNode, right: nullNode}
		return i
	}
	t.nodes = append(t.nodes, treeNode{parent: nullNode, left: nullNode, right: nullNode})
	return int32(len(t.nodes) - 1)
}

// freeNode returns a node to the free list.
func (t *aabbTree) freeNode(i int32) {
	t.nodes[i] = treeNode{parent: t.free, left: nullNode, right: nullNode, height: -1}
	t.free = i
}

// insert adds a leaf for proxy with box and returns its node index.
func (t *aabbTree) insert(proxy ProxyID, box AABB) int32 {
	if t.nodes == nil {
		// The zero aabbTree, which has never held a node, is empty.
		t.root, t.free = nullNode, nullNode
	}
	leaf := t.allocNode()
	t.nodes[leaf].box = box
	t.nodes[leaf].proxy = proxy
	t.insertLeaf(leaf)
	return leaf
}

// remove deletes a leaf.
func (t *aabbTree) remove(leaf int32) {
	t.removeLeaf(leaf)
	t.freeNode(leaf)
}

// move replaces a leaf's box, re-inserting it.
func (t *aabbTree) move(leaf int32, box AABB) {
	t.removeLeaf(leaf)
	t.nodes[leaf].box = box
	t.insertLeaf(leaf)
}

// insertLeaf links an allocated leaf into the tree.
func (t *aabbTree) insertLeaf(leaf int32) {
	if t.root == nullNode {
		t.root = leaf
		t.nodes[leaf].parent = nullNode
		return
	}
	box := t.nodes[leaf].box
	// Descend to the sibling that minimises the added surface area (the branch-and-bound of
	// the surface area heuristic, greedy form).
	i := t.root
	for !t.nodes[i].isLeaf() {
		n := &t.nodes[i]
		area := n.box.SurfaceArea()
		combined := n.box.Union(box).SurfaceArea()
		cost := 2 * combined
		inherit := 2 * (combined - area)
		cl, cr := t.descendCost(n.left, box)+inherit, t.descendCost(n.right, box)+inherit
		if cost < cl && cost < cr {
			break
		}
		if cl <= cr {
			i = n.left
		} else {
			i = n.right
		}
	}
	sibling := i
	oldParent := t.nodes[sibling].parent
	np := t.allocNode()
	t.nodes[np].parent = oldParent
	t.nodes[np].box = t.nodes[sibling].box.Union(box)
	t.nodes[np].height = t.nodes[sibling].height + 1
	t.nodes[np].left = sibling
	t.nodes[np].right = leaf
	t.nodes[sibling].parent = np
	t.nodes[leaf].parent = np
	if oldParent == nullNode {
		t.root = np
	} else if t.nodes[oldParent].left == sibling {
		t.nodes[oldParent].left = np
	} else {
		t.nodes[oldParent].right = np
	}
	t.refit(np)
}

// descendCost is the surface area added by putting box under child c.
func (t *aabbTree) descendCost(c int32, box AABB) float64 {
	cn := &t.nodes[c]
	u := cn.box.Union(box).SurfaceArea()
	if cn.isLeaf() {
		return u
	}
	return u - cn.box.SurfaceArea()
}

// removeLeaf unlinks a leaf (its node is kept).
func (t *aabbTree) removeLeaf(leaf int32) {
	if leaf == t.root {
		t.root = nullNode
		return
	}
	parent := t.nodes[leaf].parent
	grand := t.nodes[parent].parent
	sibling := t.nodes[parent].left
	if sibling == leaf {
		sibling = t.nodes[parent].right
	}
	if grand == nullNode {
		t.root = sibling
		t.nodes[sibling].parent = nullNode
		t.freeNode(parent)
		return
	}
	if t.nodes[grand].left == parent {
		t.nodes[grand].left = sibling
	} else {
		t.nodes[grand].right = sibling
	}
	t.nodes[sibling].parent = grand
	t.freeNode(parent)
	t.refit(grand)
}

// refit walks from i to the root, balancing and recomputing heights and boxes.
func (t *aabbTree) refit(i int32) {
	for i != nullNode {
		i = t.balance(i)
		n := &t.nodes[i]
		l, r := &t.nodes[n.left], &t.nodes[n.right]
		n.height = 1 + max(l.height, r.height)
		n.box = l.box.Union(r.box)
		i = n.parent
	}
}

// balance performs a left or right rotation at a if its subtrees' heights differ by more than
// one, returning the index of the subtree's new root.
func (t *aabbTree) balance(a int32) int32 {
	A := &t.nodes[a]
	if A.isLeaf() || A.height < 2 {
		return a
	}
	b, c := A.left, A.right
	diff := t.nodes[c].height - t.nodes[b].height
	switch {
	case diff > 1:
		return t.rotateUp(a, c)
	case diff < -1:
		return t.rotateUp(a, b)
	}
	return a
}

// rotateUp lifts child hi of a (the taller subtree) into a's place. The shorter grandchild of
// hi moves under a.
func (t *aabbTree) rotateUp(a, hi int32) int32 {
	H := &t.nodes[hi]
	f, g := H.left, H.right
	// hi takes a's place.
	H.parent = t.nodes[a].parent
	if H.parent == nullNode {
		t.root = hi
	} else if t.nodes[H.parent].left == a {
		t.nodes[H.parent].left = hi
	} else {
		t.nodes[H.parent].right = hi
	}
	t.nodes[a].parent = hi
	// Keep the taller grandchild under hi, move the shorter one under a.
	keep, give := f, g
	if t.nodes[f].height < t.nodes[g].height {
		keep, give = g, f
	}
	H.left, H.right = a, keep
	A := &t.nodes[a]
	if A.left == hi {
		A.left = give
	} else {
		A.right = give
	}
	t.nodes[give].parent = a
	A.box = t.nodes[A.left].box.Union(t.nodes[A.right].box)
	A.height = 1 + max(t.nodes[A.left].height, t.nodes[A.right].height)
	H.box = A.box.Union(t.nodes[keep].box)
	H.height = 1 + max(A.height, t.nodes[keep].height)
	return hi
}

// height returns the height of the tree (0 for a single leaf, -1 when empty).
func (t *aabbTree) height() int32 {
	if t.root == nullNode || t.nodes == nil {
		return -1
	}
	return t.nodes[t.root].height
}

// query calls visit for every leaf whose box overlaps box, in a deterministic order; visit
// returns false to stop.
func (t *aabbTree) query(box AABB, visit func(ProxyID) bool) {
	if t.root == nullNode || t.nodes == nil {
		return
	}
	stack := append(t.stack[:0], t.root)
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		n := &t.nodes[i]
		if !n.box.Overlaps(box) {
			continue
		}
		if n.isLeaf() {
			if !visit(n.proxy) {
				break
			}
			continue
		}
		stack = append(stack, n.right, n.left)
	}
	t.stack = stack[:0]
}

// rayCast visits every leaf whose box the ray origin + t·dir, t ∈ [0, maxT], crosses. visit
// returns the new maxT (clip the ray to the nearest hit so far), or a negative value to stop.
func (t *aabbTree) rayCast(origin, dir mgl64.Vec3, maxT float64, visit func(ProxyID, float64) float64) {
	if t.root == nullNode || t.nodes == nil {
		return
	}
	inv := mgl64.Vec3{1 / dir[0], 1 / dir[1], 1 / dir[2]}
	stack := append(t.stack[:0], t.root)
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		n := &t.nodes[i]
		if _, _, hit := n.box.IntersectRay(origin, inv, maxT); !hit {
			continue
		}
		if n.isLeaf() {
			v := visit(n.proxy, maxT)
			if v < 0 {
				break
			}
			maxT = min(maxT, v)
			continue
		}
		stack = append(stack, n.right, n.left)
	}
	t.stack = stack[:0]
}

// rebuild rebuilds the whole tree top-down from its leaves, splitting each node's leaves at the
// median of their centres along the widest axis. It restores query quality after many
// incremental moves; leaf node indices are preserved.
func (t *aabbTree) rebuild() {
	if t.root == nullNode || t.nodes == nil {
		return
	}
	leaves := t.leaves[:0]
	// Collect leaves, free internal nodes.
	stack := append(t.stack[:0], t.root)
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		n := &t.nodes[i]
		if n.isLeaf() {
			leaves = append(leaves, i)
			continue
		}
		stack = append(stack, n.right, n.left)
		t.freeNode(i)
	}
	t.stack = stack[:0]
	t.leaves = leaves[:0]
	t.root = t.buildRange(leaves)
	t.nodes[t.root].parent = nullNode
}

// buildRange builds a subtree over the given leaves and returns its root.
func (t *aabbTree) buildRange(leaves []int32) int32 {
	if len(leaves) == 1 {
		l := leaves[0]
		t.nodes[l].height = 0
		return l
	}
	var cb AABB
	for k, l := range leaves {
		c := t.nodes[l].box.Center()
		if k == 0 {
			cb = AABB{Min: c, Max: c}
		} else {
			cb = cb.AddPoint(c)
		}
	}
	size := cb.Size()
	axis := 0
	if size[1] > size[axis] {
		axis = 1
	}
	if size[2] > size[axis] {
		axis = 2
	}
	mid := len(leaves) / 2
	t.selectNth(leaves, mid, axis)
	left := t.buildRange(leaves[:mid])
	right := t.buildRange(leaves[mid:])
	p := t.allocNode()
	n := &t.nodes[p]
	n.left, n.right = left, right
	n.box = t.nodes[left].box.Union(t.nodes[right].box)
	n.height = 1 + max(t.nodes[left].height, t.nodes[right].height)
	t.nodes[left].parent = p
	t.nodes[right].parent = p
	return p
}

// selectNth partially orders leaves so that leaves[k] has the k-th smallest centre along axis,
// with smaller (or equal) centres before it (quickselect; ties broken by node index so the
// result is deterministic).
func (t *aabbTree) selectNth(leaves []int32, k, axis int) {
	less := func(a, b int32) bool {
		ca := t.nodes[a].box.Min[axis] + t.nodes[a].box.Max[axis]
		cb := t.nodes[b].box.Min[axis] + t.nodes[b].box.Max[axis]
		if ca != cb {
			return ca < cb
		}
		return a < b
	}
	quickselect(leaves, k, less)
}
