package deform

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
)

// treeFixture is a free box's modal body with the BDTree of its surface.
type treeFixture struct {
	*modalFixture
	surface   []int32
	triangles [][3]int32
	tree      *BDTree
}

func newTreeFixture(t testing.TB, half mgl64.Vec3, nx, ny, nz, r, leafSize int) *treeFixture {
	t.Helper()
	f := newModalFixture(t, half, nx, ny, nz, Material{Young: 1e5, Poisson: 0.3, Density: 500}, r, 0, 0)
	surface, triangles := f.mesh.Surface()
	tree, err := f.body.SurfaceTree(surface, triangles, leafSize)
	if err != nil {
		t.Fatal(err)
	}
	return &treeFixture{modalFixture: f, surface: surface, triangles: triangles, tree: tree}
}

// randomState sets a random frame and modal coordinates of up to zMax (m·√kg) on the body and
// refits the tree to it.
func (f *treeFixture) randomState(t testing.TB, rng *rand.Rand, centre mgl64.Vec3, zMax float64) *ModalState {
	t.Helper()
	s := &ModalState{}
	f.body.State(s)
	s.Position = centre
	axis := mgl64.Vec3{rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()}.Normalize()
	s.Orientation = mgl64.QuatRotate(2*math.Pi*rng.Float64(), axis)
	for k := range s.Z {
		s.Z[k] = zMax * (2*rng.Float64() - 1)
	}
	if err := f.body.SetState(*s); err != nil {
		t.Fatal(err)
	}
	f.body.State(s)
	if err := f.tree.Refit(s.Position, s.Orientation, s.Z); err != nil {
		t.Fatal(err)
	}
	return s
}

// nodeTriangles appends the triangles of node n's leaves to dst.
func nodeTriangles(tr *BDTree, n int, dst []int32) []int32 {
	if ch, ok := tr.Children(n); ok {
		dst = nodeTriangles(tr, int(ch[0]), dst)
		return nodeTriangles(tr, int(ch[1]), dst)
	}
	return append(dst, tr.LeafTriangles(n)...)
}

// TestBDTreeSpheresHoldDeformedSurface refits the tree of a free box (4 × 3 × 2 cells, 12 modes)
// to random frames and large random modal states and checks, by brute force over every node, that
// its sphere holds every vertex of its triangles and random points on them, deformed by the
// definition x + R (x̄ + Σ z_k Φ_k) over the modes as FreeModes returned them (not the tree's or
// the body's code), and that every leaf is reached once. The modes matter: the rest spheres alone
// (r_k = 0) miss vertices at these states.
func TestBDTreeSpheresHoldDeformedSurface(t *testing.T) {
	f := newTreeFixture(t, mgl64.Vec3{0.4, 0.3, 0.2}, 4, 3, 2, 12, 2)
	centre := centreOfMass(f.mesh, f.mass)
	rng := rand.New(rand.NewPCG(1, 2))
	seen := make([]int, len(f.triangles))
	for _, tri := range nodeTriangles(f.tree, 0, nil) {
		seen[tri]++
	}
	for i, c := range seen {
		if c != 1 {
			t.Fatalf("triangle %d is in %d leaves", i, c)
		}
	}
	restMisses := 0
	var tris []int32
	for trial := 0; trial < 40; trial++ {
		s := f.randomState(t, rng, mgl64.Vec3{rng.Float64(), -2, 3}, 0.1)
		for n := 0; n < f.tree.NumNodes(); n++ {
			c, rad := f.tree.Sphere(n)
			tris = nodeTriangles(f.tree, n, tris[:0])
			for _, ti := range tris {
				var p [3]mgl64.Vec3
				for i, v := range f.triangles[ti] {
					p[i], _ = f.vertexState(s, centre, int(f.surface[v]))
				}
				for q := 0; q < 6; q++ {
					w := [3]float64{1, 0, 0}
					if q >= 3 {
						a, b := rng.Float64(), rng.Float64()
						if a+b > 1 {
							a, b = 1-a, 1-b
						}
						w = [3]float64{1 - a - b, a, b}
					} else {
						w = [3]float64{}
						w[q] = 1
					}
					x := p[0].Mul(w[0]).Add(p[1].Mul(w[1])).Add(p[2].Mul(w[2]))
					if d := x.Sub(c).Len(); d > rad*(1+1e-12)+1e-12 {
						t.Fatalf("trial %d node %d: point of triangle %d at %.6g m from the centre, radius %.6g m", trial, n, ti, d, rad)
					}
				}
			}
		}
		// The rest radii alone, moved with the centre: some vertex falls outside.
		rot := s.Orientation.Mat4().Mat3()
		r := f.tree.r
		for n := range f.tree.nodes {
			nd := &f.tree.nodes[n]
			cz := nd.centre
			for k, zk := range s.Z {
				cz = cz.Add(f.tree.modeCentres[n*r+k].Mul(zk))
			}
			c := s.Position.Add(rot.Mul3x1(cz))
			for _, ti := range nodeTriangles(f.tree, n, tris[:0]) {
				for _, v := range f.triangles[ti] {
					if p, _ := f.vertexState(s, centre, int(f.surface[v])); p.Sub(c).Len() > nd.radius*(1+1e-9) {
						restMisses++
					}
				}
			}
		}
	}
	if restMisses == 0 {
		t.Fatal("the rest radii held every deformed vertex: the states do not exercise the mode bounds")
	}
}

// TestBDTreeOverlapsMatchBruteForce queries the trees of two boxes placed close together at random
// frames and modal states: Overlaps returns exactly the leaf pairs whose spheres come within the
// margin in a test of all leaf pairs, each once, and the states give both empty and partial
// answers (neither none nor all pairs every time).
func TestBDTreeOverlapsMatchBruteForce(t *testing.T) {
	fa := newTreeFixture(t, mgl64.Vec3{0.3, 0.3, 0.3}, 3, 3, 3, 8, 2)
	fb := newTreeFixture(t, mgl64.Vec3{0.5, 0.2, 0.1}, 5, 2, 1, 6, 1)
	rng := rand.New(rand.NewPCG(3, 4))
	leaves := func(tr *BDTree) []int {
		var ls []int
		for n := 0; n < tr.NumNodes(); n++ {
			if tr.LeafTriangles(n) != nil {
				ls = append(ls, n)
			}
		}
		return ls
	}
	la, lb := leaves(fa.tree), leaves(fb.tree)
	var got [][2]int32
	empty, partial := 0, 0
	for trial := 0; trial < 200; trial++ {
		fa.randomState(t, rng, mgl64.Vec3{}, 0.05)
		off := mgl64.Vec3{rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()}.Normalize().Mul(0.3 + 1.5*rng.Float64())
		fb.randomState(t, rng, off, 0.05)
		margin := 0.02 * rng.Float64()
		var err error
		if got, err = fa.tree.Overlaps(fb.tree, margin, got); err != nil {
			t.Fatal(err)
		}
		var want [][2]int32
		for _, a := range la {
			ca, ra := fa.tree.Sphere(a)
			for _, b := range lb {
				cb, rb := fb.tree.Sphere(b)
				if ca.Sub(cb).Len() <= ra+rb+margin {
					want = append(want, [2]int32{int32(a), int32(b)})
				}
			}
		}
		sorted := slices.Clone(got)
		slices.SortFunc(sorted, func(x, y [2]int32) int {
			if x[0] != y[0] {
				return int(x[0] - y[0])
			}
			return int(x[1] - y[1])
		})
		if !slices.Equal(sorted, want) {
			t.Fatalf("trial %d: %d pairs from the tree, %d by brute force", trial, len(got), len(want))
		}
		switch {
		case len(want) == 0:
			empty++
		case len(want) < len(la)*len(lb):
			partial++
		}
	}
	if empty < 10 || partial < 10 {
		t.Fatalf("%d empty and %d partial answers in 200: the placements do not exercise the query", empty, partial)
	}
}

// TestBDTreeRefitDoesNotAllocate: once warm, a refit and a query allocate nothing.
func TestBDTreeRefitDoesNotAllocate(t *testing.T) {
	fa := newTreeFixture(t, mgl64.Vec3{0.3, 0.3, 0.3}, 3, 3, 3, 8, 2)
	fb := newTreeFixture(t, mgl64.Vec3{0.3, 0.3, 0.3}, 3, 3, 3, 8, 2)
	z := make([]float64, 8)
	for k := range z {
		z[k] = 0.01 * float64(k-4)
	}
	q := mgl64.QuatRotate(0.3, mgl64.Vec3{0, 0, 1})
	var pairs [][2]int32
	run := func() {
		if err := fa.tree.Refit(mgl64.Vec3{0, 0, 0}, q, z); err != nil {
			t.Fatal(err)
		}
		if err := fb.tree.Refit(mgl64.Vec3{0.5, 0.1, 0.2}, q, z); err != nil {
			t.Fatal(err)
		}
		var err error
		if pairs, err = fa.tree.Overlaps(fb.tree, 0.01, pairs); err != nil {
			t.Fatal(err)
		}
	}
	run()
	if len(pairs) == 0 {
		t.Fatal("no overlapping leaves: the query is not exercised")
	}
	if allocs := testing.AllocsPerRun(20, run); allocs != 0 {
		t.Fatalf("%v allocations per refit and query", allocs)
	}
}

// TestBDTreeRefusesBadInput: bad arguments are refused with an error naming them, and a refused
// refit changes no sphere.
func TestBDTreeRefusesBadInput(t *testing.T) {
	rest := []mgl64.Vec3{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}
	modes := []mgl64.Vec3{{0, 0, 1}, {0, 0, 1}, {0, 0, 1}}
	tris := [][3]int32{{0, 1, 2}}
	for _, tc := range []struct {
		name string
		call func() error
	}{
		{"r", func() error { _, err := NewBDTree(rest, nil, -1, tris, 1); return err }},
		{"modes", func() error { _, err := NewBDTree(rest, modes[:2], 1, tris, 1); return err }},
		{"triangles", func() error { _, err := NewBDTree(rest, modes, 1, nil, 1); return err }},
		{"leafSize", func() error { _, err := NewBDTree(rest, modes, 1, tris, 0); return err }},
		{"rest[1]", func() error {
			_, err := NewBDTree([]mgl64.Vec3{{}, {math.NaN(), 0, 0}, {}}, modes, 1, tris, 1)
			return err
		}},
		{"triangles[0]", func() error { _, err := NewBDTree(rest, modes, 1, [][3]int32{{0, 1, 3}}, 1); return err }},
		{"vertices[0]", func() error {
			f := newModalFixture(t, mgl64.Vec3{0.2, 0.2, 0.2}, 2, 2, 2, Material{Young: 1e5, Poisson: 0.3, Density: 500}, 2, 0, 0)
			_, err := f.body.SurfaceTree([]int32{99, 0, 1}, tris, 1)
			return err
		}},
	} {
		if err := tc.call(); err == nil || !strings.Contains(err.Error(), tc.name) {
			t.Errorf("%s: got %v, want an error naming it", tc.name, err)
		}
	}
	tr, err := NewBDTree(rest, modes, 1, tris, 1)
	if err != nil {
		t.Fatal(err)
	}
	c0, r0 := tr.Sphere(0)
	for _, tc := range []struct {
		name string
		call func() error
	}{
		{"z", func() error { return tr.Refit(mgl64.Vec3{}, mgl64.QuatIdent(), []float64{1, 2}) }},
		{"z[0]", func() error { return tr.Refit(mgl64.Vec3{}, mgl64.QuatIdent(), []float64{math.Inf(1)}) }},
		{"position", func() error { return tr.Refit(mgl64.Vec3{math.NaN(), 0, 0}, mgl64.QuatIdent(), []float64{1}) }},
		{"orientation", func() error { return tr.Refit(mgl64.Vec3{}, mgl64.Quat{}, []float64{1}) }},
		{"margin", func() error { _, err := tr.Overlaps(tr, -1, nil); return err }},
		{"o", func() error { _, err := tr.Overlaps(nil, 0, nil); return err }},
	} {
		if err := tc.call(); err == nil || !strings.Contains(err.Error(), tc.name) {
			t.Errorf("%s: got %v, want an error naming it", tc.name, err)
		}
	}
	if c, r := tr.Sphere(0); c != c0 || r != r0 {
		t.Fatal("a refused refit moved the root sphere")
	}
}
