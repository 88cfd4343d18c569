package collide

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
)

// bpEntry mirrors a broad-phase entry for the brute-force reference.
type bpEntry struct {
	id    ProxyID
	tight AABB
	opts  ProxyOptions
}

// randBox returns a box of size up to s somewhere in the cube of half side spread.
func randBox(r *rand.Rand, spread, s float64) AABB {
	c := randInCube(r, spread)
	h := mgl64.Vec3{s * (0.1 + r.Float64()), s * (0.1 + r.Float64()), s * (0.1 + r.Float64())}
	return AABB{Min: c.Sub(h), Max: c.Add(h)}
}

// brutePairs lists every pair the broad phase must report: fat boxes overlapping, not both
// static, layers and masks agreeing.
func brutePairs(bp *BroadPhase, live []bpEntry) []Pair {
	var out []Pair
	for i := range live {
		for j := range live {
			a, b := live[i], live[j]
			if a.id >= b.id {
				continue
			}
			fa, _ := bp.FatBounds(a.id)
			fb, _ := bp.FatBounds(b.id)
			if !fa.Overlaps(fb) || (a.opts.Static && b.opts.Static) {
				continue
			}
			la, ma, lb, mb := a.opts.Layer, a.opts.Mask, b.opts.Layer, b.opts.Mask
			if la == 0 && ma == 0 {
				la, ma = AllLayers, AllLayers
			}
			if lb == 0 && mb == 0 {
				lb, mb = AllLayers, AllLayers
			}
			if la&mb == 0 || lb&ma == 0 {
				continue
			}
			out = append(out, Pair{a.id, b.id})
		}
	}
	slices.SortFunc(out, comparePairs)
	return out
}

func TestBroadPhaseMatchesBruteForce(t *testing.T) {
	r := newRand(61)
	bp := must(NewBroadPhase(0.05))
	var live []bpEntry
	add := func() {
		opts := ProxyOptions{Static: r.IntN(5) == 0, Data: len(live)}
		if r.IntN(3) == 0 {
			opts.Layer, opts.Mask = 1<<r.IntN(3), uint32(r.IntN(8))
		}
		b := randBox(r, 5, 0.4)
		id, err := bp.Add(b, mgl64.Vec3{}, opts)
		if err != nil {
			t.Fatal(err)
		}
		live = append(live, bpEntry{id, b, opts})
	}
	for i := 0; i < 300; i++ {
		add()
	}
	for step := 0; step < 40; step++ {
		for k := range live {
			e := &live[k]
			if r.IntN(20) == 0 { // static entries start moving, moving ones stop
				e.opts.Static = !e.opts.Static
				if err := bp.SetStatic(e.id, e.opts.Static); err != nil {
					t.Fatal(err)
				}
			}
			if r.IntN(10) == 0 { // a new filter, the static entries' included
				e.opts.Layer, e.opts.Mask = uint32(r.IntN(8)), uint32(r.IntN(8))
				if err := bp.SetLayers(e.id, e.opts.Layer, e.opts.Mask); err != nil {
					t.Fatal(err)
				}
			}
			if e.opts.Static {
				continue
			}
			switch r.IntN(4) {
			case 0: // jump
				e.tight = randBox(r, 5, 0.4)
			case 1: // drift
				d := randInCube(r, 0.08)
				e.tight = e.tight.Translate(d)
			}
			if _, err := bp.Update(e.id, e.tight, mgl64.Vec3{}); err != nil {
				t.Fatal(err)
			}
			if f, _ := bp.FatBounds(e.id); !f.ContainsAABB(e.tight) {
				t.Fatalf("fat box %v does not contain %v", f, e.tight)
			}
		}
		for k := 0; k < 5; k++ {
			i := r.IntN(len(live))
			if err := bp.Remove(live[i].id); err != nil {
				t.Fatal(err)
			}
			live = append(live[:i], live[i+1:]...)
			add()
		}
		got := bp.UpdatePairs()
		want := brutePairs(bp, live)
		if !slices.Equal(got, want) {
			t.Fatalf("step %d: %d pairs, brute force %d", step, len(got), len(want))
		}
	}
	if h, n := bp.TreeHeight(), bp.Len(); float64(h) > 2.5*math.Log2(float64(n))+2 {
		t.Errorf("tree height %d for %d entries", h, n)
	}
}

// TestBroadPhaseRestingDoesNoWork: boxes jittering inside their margin never re-enter the tree
// and the pair list stays the same slice content.
func TestBroadPhaseRestingDoesNoWork(t *testing.T) {
	r := newRand(62)
	bp := must(NewBroadPhase(0.02))
	var boxes []AABB
	var ids []ProxyID
	for i := 0; i < 200; i++ {
		b := randBox(r, 3, 0.3)
		id := must(bp.Add(b, mgl64.Vec3{}, ProxyOptions{}))
		boxes, ids = append(boxes, b), append(ids, id)
	}
	first := slices.Clone(bp.UpdatePairs())
	for step := 0; step < 100; step++ {
		for i, id := range ids {
			moved, err := bp.Update(id, boxes[i].Translate(randInCube(r, 0.005)), mgl64.Vec3{})
			if err != nil || moved {
				t.Fatalf("resting entry re-entered the tree (err %v)", err)
			}
		}
		if len(bp.moved) != 0 {
			t.Fatal("moved list not empty")
		}
		if got := bp.UpdatePairs(); !slices.Equal(got, first) {
			t.Fatal("resting pairs changed")
		}
	}
	allocs := testing.AllocsPerRun(10, func() {
		for i, id := range ids {
			_, _ = bp.Update(id, boxes[i], mgl64.Vec3{})
		}
		bp.UpdatePairs()
	})
	if allocs != 0 {
		t.Errorf("resting step allocates %v times", allocs)
	}
}

func TestBroadPhaseStaticAndLayers(t *testing.T) {
	bp := must(NewBroadPhase(0))
	box := AABB{Max: mgl64.Vec3{1, 1, 1}}
	s1 := must(bp.Add(box, mgl64.Vec3{}, ProxyOptions{Static: true}))
	s2 := must(bp.Add(box, mgl64.Vec3{}, ProxyOptions{Static: true}))
	d1 := must(bp.Add(box, mgl64.Vec3{}, ProxyOptions{Layer: 1, Mask: 2}))
	d2 := must(bp.Add(box, mgl64.Vec3{}, ProxyOptions{Layer: 2, Mask: 1}))
	d3 := must(bp.Add(box, mgl64.Vec3{}, ProxyOptions{Layer: 4, Mask: 4}))
	got := bp.UpdatePairs()
	want := []Pair{{s1, d1}, {s1, d2}, {s1, d3}, {s2, d1}, {s2, d2}, {s2, d3}, {d1, d2}}
	if !slices.Equal(got, want) {
		t.Fatalf("pairs %v, want %v", got, want)
	}
	_ = s2
	if err := bp.Remove(d1); err != nil {
		t.Fatal(err)
	}
	if got := bp.Pairs(); slices.ContainsFunc(got, func(p Pair) bool { return p.A == d1 || p.B == d1 }) {
		t.Fatalf("removed entry still paired: %v", got)
	}
	if err := bp.Remove(d1); err == nil || !containsField(err, "ProxyID") {
		t.Fatalf("double remove: %v", err)
	}
	if _, err := bp.Add(AABB{Min: mgl64.Vec3{1, 0, 0}}, mgl64.Vec3{}, ProxyOptions{}); err == nil || !containsField(err, "AABB.Min.x") {
		t.Fatalf("inverted box: %v", err)
	}
	if _, err := NewBroadPhase(-1); err == nil || !containsField(err, "BroadPhase.margin") {
		t.Fatalf("negative margin: %v", err)
	}
	if _, err := bp.Update(d2, box, mgl64.Vec3{math.NaN(), 0, 0}); err == nil || !containsField(err, "displacement") {
		t.Fatalf("NaN displacement: %v", err)
	}
	// d3 joins layer 1 and sees layer 2: it pairs with d2 from the next UpdatePairs on; then it
	// leaves layer 1 and its pair with d2 goes at once.
	if err := bp.SetLayers(d3, 1, 2); err != nil {
		t.Fatal(err)
	}
	if got := bp.UpdatePairs(); !slices.Contains(got, Pair{d2, d3}) {
		t.Fatalf("after SetLayers(d3, 1, 2): pairs %v, want {d2, d3} among them", got)
	}
	if err := bp.SetLayers(d3, 4, 2); err != nil {
		t.Fatal(err)
	}
	if got := bp.Pairs(); slices.Contains(got, Pair{d2, d3}) {
		t.Fatalf("after SetLayers(d3, 4, 2): pairs %v still hold {d2, d3}", got)
	}
	if err := bp.SetLayers(d1, 1, 1); err == nil || !containsField(err, "ProxyID") {
		t.Fatalf("SetLayers on a removed entry: %v", err)
	}
}

// TestBroadPhaseDeterministic: the same calls give the same pairs in the same order.
func TestBroadPhaseDeterministic(t *testing.T) {
	run := func() []Pair {
		r := newRand(63)
		bp := must(NewBroadPhase(0.05))
		for i := 0; i < 500; i++ {
			must(bp.Add(randBox(r, 6, 0.5), mgl64.Vec3{}, ProxyOptions{}))
		}
		for i := 0; i < 500; i += 3 {
			_, _ = bp.Update(ProxyID(i), randBox(r, 6, 0.5), randInCube(r, 0.1))
		}
		return slices.Clone(bp.UpdatePairs())
	}
	a, b := run(), run()
	if !slices.Equal(a, b) || len(a) == 0 {
		t.Fatalf("non-deterministic or empty: %d vs %d", len(a), len(b))
	}
}

// checkTree verifies the tree's structure: parent links, boxes enclosing children, heights, and
// that every live proxy's leaf holds its fat box.
func checkTree(t *testing.T, bp *BroadPhase) {
	t.Helper()
	bp.flush()
	tr := &bp.tree
	if tr.root == nullNode {
		return
	}
	leaves := 0
	var walk func(i, parent int32) int32
	walk = func(i, parent int32) int32 {
		n := &tr.nodes[i]
		if n.parent != parent {
			t.Fatalf("node %d parent %d, want %d", i, n.parent, parent)
		}
		if n.isLeaf() {
			leaves++
			if n.height != 0 || bp.proxies[n.proxy].node != i || bp.proxies[n.proxy].fat != n.box {
				t.Fatalf("leaf %d inconsistent", i)
			}
			return 0
		}
		hl, hr := walk(n.left, i), walk(n.right, i)
		if n.height != 1+max(hl, hr) {
			t.Fatalf("node %d height %d, children %d %d", i, n.height, hl, hr)
		}
		if n.box != tr.nodes[n.left].box.Union(tr.nodes[n.right].box) {
			t.Fatalf("node %d box is not the union of its children", i)
		}
		return n.height
	}
	walk(tr.root, nullNode)
	if leaves != bp.Len() {
		t.Fatalf("%d leaves for %d entries", leaves, bp.Len())
	}
}

func TestBroadPhaseTreeInvariants(t *testing.T) {
	r := newRand(64)
	bp := must(NewBroadPhase(0.01))
	var ids []ProxyID
	for round := 0; round < 20; round++ {
		for i := 0; i < 30; i++ {
			ids = append(ids, must(bp.Add(randBox(r, 4, 0.3), mgl64.Vec3{}, ProxyOptions{})))
		}
		// A few moves (incremental re-insertion) or many (rebuild).
		n := 3
		if round%4 == 3 {
			n = len(ids)
		}
		for i := 0; i < n; i++ {
			_, _ = bp.Update(ids[r.IntN(len(ids))], randBox(r, 4, 0.3), randInCube(r, 0.2))
		}
		for i := 0; i < 10; i++ {
			k := r.IntN(len(ids))
			if err := bp.Remove(ids[k]); err != nil {
				t.Fatal(err)
			}
			ids = append(ids[:k], ids[k+1:]...)
		}
		bp.UpdatePairs()
		checkTree(t, bp)
	}
}

// TestBroadPhaseSweptBoxes checks that an entry's displacement counts from the start: a box added
// moving towards a wall 1 m away pairs with it before it has moved, and a box whose tight box
// stays inside its fat box but whose step's displacement now reaches the wall re-enters the tree
// and pairs.
func TestBroadPhaseSweptBoxes(t *testing.T) {
	unit := AABB{Min: mgl64.Vec3{-0.1, -0.1, -0.1}, Max: mgl64.Vec3{0.1, 0.1, 0.1}}
	wall := AABB{Min: mgl64.Vec3{1, -5, -5}, Max: mgl64.Vec3{1.02, 5, 5}}

	bp := must(NewBroadPhase(0.05))
	w := must(bp.Add(wall, mgl64.Vec3{}, ProxyOptions{Static: true}))
	fast := must(bp.Add(unit, mgl64.Vec3{3, 0, 0}, ProxyOptions{}))
	if got := bp.UpdatePairs(); !slices.Equal(got, []Pair{{w, fast}}) {
		t.Fatalf("added moving 3 m towards a wall 0.9 m away: pairs %v, want [{%d %d}]", got, w, fast)
	}
	if fat := must(bp.FatBounds(fast)); fat.Max.X() < 0.1+0.05+3 || fat.Min.X() > -0.1-0.05 {
		t.Fatalf("fat box %v does not cover the box swept by 3 m along x with margin 0.05", fat)
	}

	slow := must(bp.Add(unit.Translate(mgl64.Vec3{0, 2, 0}), mgl64.Vec3{}, ProxyOptions{}))
	bp.UpdatePairs()
	// Same tight box, still inside its fat box, but now about to move 3 m in the step.
	moved := must(bp.Update(slow, unit.Translate(mgl64.Vec3{0, 2, 0}), mgl64.Vec3{3, 0, 0}))
	if !moved {
		t.Fatal("an entry whose swept box leaves its fat box did not re-enter the tree")
	}
	if got := bp.UpdatePairs(); !slices.Contains(got, Pair{w, slow}) {
		t.Fatalf("pairs %v lack the wall and the entry about to cross it", got)
	}
	// Resting again: nothing to do.
	if moved := must(bp.Update(fast, unit, mgl64.Vec3{3, 0, 0})); moved {
		t.Fatal("an entry whose swept box stays inside its fat box re-entered the tree")
	}
	if _, err := bp.Add(unit, mgl64.Vec3{math.Inf(1), 0, 0}, ProxyOptions{}); err == nil || !containsField(err, "displacement") {
		t.Fatalf("Add with an infinite displacement: %v, want an error naming displacement", err)
	}
}

// TestBroadPhaseSetStatic changes an entry between static and not: two overlapping static entries
// do not pair, pair once one is not static, and stop pairing when it is static again.
func TestBroadPhaseSetStatic(t *testing.T) {
	bp := must(NewBroadPhase(0.05))
	box := AABB{Min: mgl64.Vec3{0, 0, 0}, Max: mgl64.Vec3{1, 1, 1}}
	a := must(bp.Add(box, mgl64.Vec3{}, ProxyOptions{Static: true}))
	b := must(bp.Add(box.Translate(mgl64.Vec3{0.5, 0, 0}), mgl64.Vec3{}, ProxyOptions{Static: true}))
	if got := bp.UpdatePairs(); len(got) != 0 {
		t.Fatalf("two static entries pair: %v", got)
	}
	for _, step := range []struct {
		static bool
		want   []Pair
	}{{false, []Pair{{a, b}}}, {false, []Pair{{a, b}}}, {true, nil}, {false, []Pair{{a, b}}}} {
		if err := bp.SetStatic(b, step.static); err != nil {
			t.Fatal(err)
		}
		if got := bp.UpdatePairs(); !slices.Equal(got, step.want) {
			t.Fatalf("after SetStatic(%v): pairs %v, want %v", step.static, got, step.want)
		}
		if got := must(bp.Static(b)); got != step.static {
			t.Fatalf("Static = %v after SetStatic(%v)", got, step.static)
		}
	}
	if err := bp.SetStatic(ProxyID(7), true); err == nil {
		t.Fatal("SetStatic of an unknown entry gave no error")
	}
}
