package physics

import (
	"hash/fnv"
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/stagger-physics/stagger/deform"
	"github.com/stagger-physics/stagger/ecs"
)

// segmentDistance is the distance from p to the segment ab.
func segmentDistance(p, a, b mgl64.Vec3) float64 {
	ab := b.Sub(a)
	t := 0.0
	if l2 := ab.LenSqr(); l2 > 0 {
		t = math.Max(0, math.Min(1, p.Sub(a).Dot(ab)/l2))
	}
	return p.Sub(a.Add(ab.Mul(t))).Len()
}

// triangleDistance is the distance from p to triangle abc: to its plane when p projects inside
// (all three sub-triangle areas of the projection positive), else to its nearest edge.
func triangleDistance(p, a, b, c mgl64.Vec3) float64 {
	n := b.Sub(a).Cross(c.Sub(a))
	if n.LenSqr() == 0 {
		return math.Min(segmentDistance(p, a, b), math.Min(segmentDistance(p, b, c), segmentDistance(p, c, a)))
	}
	n = n.Normalize()
	d := n.Dot(p.Sub(a))
	q := p.Sub(n.Mul(d))
	if b.Sub(a).Cross(q.Sub(a)).Dot(n) >= 0 && c.Sub(b).Cross(q.Sub(b)).Dot(n) >= 0 && a.Sub(c).Cross(q.Sub(c)).Dot(n) >= 0 {
		return math.Abs(d)
	}
	return math.Min(segmentDistance(p, a, b), math.Min(segmentDistance(p, b, c), segmentDistance(p, c, a)))
}

// solidAngle is the signed solid angle triangle abc subtends at p (Van Oosterom and Strackee).
func solidAngle(p, a, b, c mgl64.Vec3) float64 {
	x, y, z := a.Sub(p), b.Sub(p), c.Sub(p)
	lx, ly, lz := x.Len(), y.Len(), z.Len()
	num := x.Dot(y.Cross(z))
	den := lx*ly*lz + x.Dot(y)*lz + y.Dot(z)*lx + z.Dot(x)*ly
	return 2 * math.Atan2(num, den)
}

// deepestInside returns how far the deepest surface vertex of d lies inside the closed deformed
// surface of o (0 when none is inside): inside by the winding number of o's outward-wound
// triangles, depth the distance to the nearest of them. It is a brute-force check, independent of
// the contact search.
func deepestInside(d, o *ReducedDeformable) float64 {
	ps := d.SurfaceVertices(nil)
	vs := o.SurfaceVertices(nil)
	tris := o.SurfaceTriangles()
	worst := 0.0
	for _, p := range ps {
		w := 0.0
		for _, t := range tris {
			w += solidAngle(p, vs[t[0]], vs[t[1]], vs[t[2]])
		}
		if w < 2*math.Pi { // winding number below ½: outside
			continue
		}
		dist := math.Inf(1)
		for _, t := range tris {
			dist = math.Min(dist, triangleDistance(p, vs[t[0]], vs[t[1]], vs[t[2]]))
		}
		worst = math.Max(worst, dist)
	}
	return worst
}

// blockStack is a deformable block resting on the ground with a second deformable block, turned a
// little about the vertical and off the first's centre, dropped onto it from 3 cm.
func blockStack(t testing.TB, cfg Config) (*ecs.App, [2]*ReducedDeformable) {
	t.Helper()
	app := newTestApp(t, 0.01, cfg)
	spawnGround(t, app.World, mgl64.Vec3{0, 0, 1}, 0.6)
	eb, _ := spawnBlock(t, app.World, mgl64.Vec3{0, 0, blockHalf}, 10)
	d, err := NewDeformableBox(mgl64.Vec3{blockHalf, blockHalf, blockHalf}, 3, rubber, 10)
	if err != nil {
		t.Fatal(err)
	}
	d.Position = mgl64.Vec3{0.06, -0.04, 3*blockHalf + 0.03}
	d.Orientation = mgl64.QuatRotate(0.3, mgl64.Vec3{0, 0, 1})
	d.Alpha, d.Beta = 0.5, 0.002
	d.Friction = 0.6
	e, err := SpawnDeformable(app.World, d)
	if err != nil {
		t.Fatal(err)
	}
	// Spawning moves the components: both are looked up after the last spawn.
	bottom, _ := ecs.Get[ReducedDeformable](app.World, eb)
	top, _ := ecs.Get[ReducedDeformable](app.World, e)
	bottom.Friction = 0.6
	return app, [2]*ReducedDeformable{bottom, top}
}

// pairContacts counts the last step's contacts between two deformables.
func pairContacts(sim *Simulation, w *ecs.World) int {
	n := 0
	sim.Contacts(func(c ContactPoint) {
		_, a := ecs.Get[ReducedDeformable](w, c.A)
		_, b := ecs.Get[ReducedDeformable](w, c.B)
		if a && b {
			n++
		}
	})
	return n
}

// surfaceMotion steps sim steps more times (from tick 1000 on) and returns the farthest any
// surface vertex of d moved. The frame's end-of-step velocities are no measure of rest: under a
// held contact the stiff modes' end-of-step velocities reverse every step while the midpoint
// velocity that moves the body is zero (docs/architecture.md, Deformable bodies).
func surfaceMotion(t *testing.T, sim *Simulation, d *ReducedDeformable, steps int) float64 {
	t.Helper()
	before := d.SurfaceVertices(nil)
	for i := 0; i < steps; i++ {
		if err := sim.Step(0.01, uint64(1000+i)); err != nil {
			t.Fatal(err)
		}
	}
	moved := 0.0
	for i, p := range d.SurfaceVertices(nil) {
		moved = math.Max(moved, p.Sub(before[i]).Len())
	}
	return moved
}

// TestDeformableBlocksStack drops a deformable block 3 cm onto another standing on the ground and
// steps 3 s: no surface vertex of either block is ever more than 5 mm inside the other (a
// winding-number test against the other's deformed surface), every value stays finite, the total
// energy of the two (kinetic + elastic + gravitational) never rises in a step by more than
// ε μ² M (g h)², and the stack comes to rest (no vertex moves 1 mm in the next 0.5 s) with the
// top block's centre one block height above the bottom's, less millimetres of sag. Without
// contacts between deformables the top block would fall into the bottom one.
//
// The energy bound is what the solver guarantees, not round-off: an answer that met ε (eq. 28)
// keeps friction within a fraction ε of its own projection, so friction can do positive work up to
// about ε times the kinetic energy its impulse carries, ‖f‖²_M⁻¹ ≤ (μ M g h)²/M (4e-5 J here;
// steps have been seen to gain 7e-6 J on one trajectory and 5e-10 J on another).
func TestDeformableBlocksStack(t *testing.T) {
	cfg := DefaultConfig()
	app, ds := blockStack(t, cfg)
	sim, _ := SimulationOf(app.World)
	g := cfg.Gravity
	energy := func() float64 { return deformEnergy(ds[0], g) + deformEnergy(ds[1], g) }
	scale := ds[1].Mass() * g.Len() * blockHalf
	gh := g.Len() * 0.01
	eps := 1e-4 // solver.Options' default ε, which DefaultConfig keeps (Epsilon 0)
	if cfg.Solver.Epsilon != 0 {
		eps = cfg.Solver.Epsilon
	}
	rise := eps * 0.6 * 0.6 * (ds[0].Mass() + ds[1].Mass()) * gh * gh
	prev := energy()
	worst, deepest := 0.0, 0.0
	touched := 0
	for step := 1; step <= 250; step++ {
		if err := sim.Step(0.01, uint64(step)); err != nil {
			t.Fatal(err)
		}
		if pairContacts(sim, app.World) > 0 {
			touched++
		}
		deep := math.Max(deepestInside(ds[1], ds[0]), deepestInside(ds[0], ds[1]))
		deepest = math.Max(deepest, deep)
		if deep > 0.005 {
			t.Fatalf("step %d: a vertex is %.4g m inside the other block", step, deep)
		}
		e := energy()
		if !finite(e) {
			t.Fatalf("step %d: energy %v", step, e)
		}
		worst = math.Max(worst, e-prev)
		if e > prev+rise {
			t.Fatalf("step %d: energy rose by %.3g J (m g L = %.4g J)", step, e-prev, scale)
		}
		prev = e
	}
	if touched < 200 {
		t.Fatalf("the blocks touched in only %d of 250 steps", touched)
	}
	for i, d := range ds {
		if moved := surfaceMotion(t, sim, d, 50); moved > 1e-3 {
			t.Fatalf("block %d not at rest after 3 s: a vertex moved %.3g m in the last 0.5 s", i, moved)
		}
	}
	if h := ds[1].Position[2] - ds[0].Position[2]; h > 2*blockHalf+0.002 || h < 2*blockHalf-0.02 {
		t.Fatalf("the top block's centre is %.4g m above the bottom's, want %.3g less a sag", h, 2*blockHalf)
	}
	t.Logf("deepest vertex %.3g m inside, largest energy rise in a step %.3g J (m g L = %.4g J)", deepest, worst, scale)
}

// TestDeformableBlockBendsHeldBeam drops a small deformable block onto a deformable beam held at
// both ends, off its middle: the beam's midspan sags under the block by more than it does alone
// (the same beam stepped without the block), its modal coordinates move, no vertex of the block
// is ever more than 5 mm inside the beam, and after 3 s the block rests on it.
func TestDeformableBlockBendsHeldBeam(t *testing.T) {
	const beamTop = 1.0
	half := mgl64.Vec3{0.6, 0.15, 0.05}
	beamApp := func(withBlock bool) (*ecs.App, *ReducedDeformable, *ReducedDeformable) {
		app := newTestApp(t, 0.01, DefaultConfig())
		mesh, err := deform.NewBoxMesh(half, 12, 3, 1)
		if err != nil {
			t.Fatal(err)
		}
		var held []int32
		for a := 0; a < mesh.NumVertices(); a++ {
			if math.Abs(mesh.Vertex(a)[0]) > half[0]-1e-9 {
				held = append(held, int32(a))
			}
		}
		beam := ReducedDeformable{
			Mesh: mesh, Material: deform.Material{Young: 1e6, Poisson: 0.3, Density: 500}, Modes: 6,
			Alpha: 0.5, Beta: 0.002, Held: held, Position: mgl64.Vec3{0, 0, beamTop - half[2]}, Friction: 0.6,
		}
		e, err := SpawnDeformable(app.World, beam)
		if err != nil {
			t.Fatal(err)
		}
		if !withBlock {
			b, _ := ecs.Get[ReducedDeformable](app.World, e)
			return app, b, nil
		}
		d, err := NewDeformableBox(mgl64.Vec3{0.1, 0.1, 0.1}, 3, rubber, 8)
		if err != nil {
			t.Fatal(err)
		}
		d.Position = mgl64.Vec3{0.15, 0.02, beamTop + 0.1 + 0.05}
		d.Alpha, d.Beta, d.Friction = 0.5, 0.002, 0.6
		eb, err := SpawnDeformable(app.World, d)
		if err != nil {
			t.Fatal(err)
		}
		// Spawning moves the components: both are looked up after the last spawn.
		b, _ := ecs.Get[ReducedDeformable](app.World, e)
		blk, _ := ecs.Get[ReducedDeformable](app.World, eb)
		return app, b, blk
	}
	// midspan is the height of the beam's top surface at the middle: its highest vertex near x = 0.
	midspan := func(b *ReducedDeformable) float64 {
		top := math.Inf(-1)
		for _, p := range b.SurfaceVertices(nil) {
			if math.Abs(p[0]) < 1e-3 {
				top = math.Max(top, p[2])
			}
		}
		return top
	}
	aloneApp, alone, _ := beamApp(false)
	stepFor(t, aloneApp, 300)
	app, beam, blk := beamApp(true)
	sim, _ := SimulationOf(app.World)
	for step := 1; step <= 300; step++ {
		if err := sim.Step(0.01, uint64(step)); err != nil {
			t.Fatal(err)
		}
		if deep := deepestInside(blk, beam); deep > 0.005 {
			t.Fatalf("step %d: a vertex of the block is %.4g m inside the beam", step, deep)
		}
	}
	extra := midspan(alone) - midspan(beam)
	// Clamped–clamped, a 4 kg load at midspan sags by P L³/(192 E I) = 14 mm; linear tetrahedra
	// one cell thick lock in bending, and the load is off the middle, so ask for a tenth of that.
	if !(extra > 0.0014) {
		t.Fatalf("the block sags the beam's middle by %.3g m more than its own weight", extra)
	}
	dz := 0.0
	za, zb := alone.Modal(nil), beam.Modal(nil)
	for k := range za {
		dz += (za[k] - zb[k]) * (za[k] - zb[k])
	}
	if !(dz > 0) {
		t.Fatal("the beam's modal coordinates did not move under the block")
	}
	if moved := surfaceMotion(t, sim, blk, 50); moved > 1e-3 {
		t.Fatalf("block not at rest after 3 s: a vertex moved %.3g m in the last 0.5 s", moved)
	}
	low := math.Inf(1)
	for _, p := range blk.SurfaceVertices(nil) {
		low = math.Min(low, p[2])
	}
	if low > beamTop || low < beamTop-0.02 {
		t.Fatalf("the block's lowest vertex is at %.4g m, the beam's top at rest %.3g m", low, beamTop)
	}
	t.Logf("extra midspan sag %.3g m", extra)
}

// TestDeformablePairIslandPassesKKTCheck solves the two-block stack's islands, which hold both
// deformables, with Staggered Projections run to a tight ε and checks each converged answer with
// the solver's independent checker: the contact projection's KKT conditions (eq. 25) to 1e-9 m/s
// and the friction projection's (eq. 24) to 1e-6 m/s.
func TestDeformablePairIslandPassesKKTCheck(t *testing.T) {
	cfg := tightKKTConfig()
	app, _ := blockStack(t, cfg)
	checkIslandsKKT(t, app, cfg, 100, 2, 80)
}

// deformablesHash hashes the deformables' states, bit for bit.
func deformablesHash(ds [2]*ReducedDeformable) uint64 {
	h := fnv.New64a()
	put := func(xs ...float64) {
		var b [8]byte
		for _, x := range xs {
			u := math.Float64bits(x)
			for i := range b {
				b[i] = byte(u >> (8 * i))
			}
			h.Write(b[:])
		}
	}
	for _, d := range ds {
		putDeformable(put, d)
	}
	return h.Sum64()
}

// TestDeformablePairDeterministic steps the two-block stack with one and with two workers: the
// states are bit-identical after every step of 1 s.
func TestDeformablePairDeterministic(t *testing.T) {
	var apps [2]*ecs.App
	var ds [2][2]*ReducedDeformable
	for i := range apps {
		cfg := DefaultConfig()
		cfg.Workers = i + 1
		apps[i], ds[i] = blockStack(t, cfg)
	}
	for step := 0; step < 100; step++ {
		var hs [2]uint64
		for i := range apps {
			stepFor(t, apps[i], 1)
			hs[i] = deformablesHash(ds[i])
		}
		if hs[0] != hs[1] {
			t.Fatalf("step %d: state hash %x with one worker, %x with two", step, hs[0], hs[1])
		}
	}
}

// TestDeformablePairWarmStepDoesNotAllocate: once warm, a step of the two-block stack allocates
// nothing, and the blocks touch.
func TestDeformablePairWarmStepDoesNotAllocate(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Workers = 2
	app, _ := blockStack(t, cfg)
	sim, _ := SimulationOf(app.World)
	if allocs := warmStepAllocs(t, sim, 0.01); allocs != 0 {
		t.Fatalf("%v allocations per warm step", allocs)
	}
	if pairContacts(sim, app.World) == 0 {
		t.Fatal("no contacts between the blocks: the scene does not exercise them")
	}
}

// TestDeformablePairWarmStartsByBodyAndSample steps the two-block stack and checks, after each
// step, every contact between the blocks against the previous step's, found by a search of all of
// them: a contact whose (other body, sample) touched last step starts from last step's impulse,
// any other from zero, and most contacts of the settling stack are carried.
func TestDeformablePairWarmStartsByBodyAndSample(t *testing.T) {
	app, _ := blockStack(t, DefaultConfig())
	sim, _ := SimulationOf(app.World)
	stepFor(t, app, 40)
	carried, total := 0, 0
	for step := 0; step < 20; step++ {
		stepFor(t, app, 1)
		for _, p := range sim.contacts.points {
			if !p.a.onFace {
				continue
			}
			m := sim.deformModels[-1-p.pair]
			ct := &m.contacts[p.point]
			if ct.sample != p.b.sample || m.contacts[p.point].proxy != noProxy {
				t.Fatalf("step %d: the list's point names sample %d, its model's contact %d", step, p.b.sample, ct.sample)
			}
			var want contactImpulse
			for i := range m.prev {
				if o := &m.prev[i]; o.proxy == noProxy && o.other == ct.other && o.sample == ct.sample {
					want = contactImpulse{normal: o.alpha, friction: o.friction}
				}
			}
			if p.warm != want {
				t.Fatalf("step %d: sample %d starts from %v, last step's impulse was %v", step, ct.sample, p.warm, want)
			}
			total++
			if want.normal != 0 {
				carried++
			}
		}
	}
	if total == 0 || carried < total/4 {
		t.Fatalf("%d of %d contacts between the blocks carried a warm start", carried, total)
	}
}

// TestFaceContactBehindSharpEdge: a sample hovering above a block's top face, farther than the
// look-ahead from it, is behind the plane of a side face that meets the top at an edge sharper
// than a right angle (as a soft block bulging under load does), and its projection on that plane
// falls less than the look-ahead beyond the side's top edge. It is outside the body and farther
// than the look-ahead from both faces, so it is no contact of the side triangle; a sample pressed
// in within the side's prism, and one in front of the side within the look-ahead, still are.
func TestFaceContactBehindSharpEdge(t *testing.T) {
	const look, depth = 0.02, 0.067
	// The side triangle lies in the plane x = 0 (outward normal +x) below its top edge z = 0; the
	// top face (not needed here) falls 5° below horizontal inwards from the edge, x < 0, so the edge
	// is 85°: the top face's plane is z = x·tan 5°.
	side := &deformableModel{
		samples:   []mgl64.Vec3{{0, -0.2, -0.3}, {0, 0.2, -0.3}, {0, 0, 0}},
		triangles: [][3]int32{{0, 1, 2}},
	}
	if n := side.samples[1].Sub(side.samples[0]).Cross(side.samples[2].Sub(side.samples[0])); n[0] <= 0 {
		t.Fatalf("test triangle's normal %v does not point along +x", n)
	}
	tilt := math.Tan(5 * math.Pi / 180)
	// 5.1 cm behind the side's plane, 2.4 cm above the top face's plane.
	hover := mgl64.Vec3{-0.051, 0, -0.051*tilt + 0.024}
	if above := (hover[2] - hover[0]*tilt) * math.Cos(5*math.Pi/180); above <= look {
		t.Fatalf("setup: the sample is %.3g m above the top face, want more than the look-ahead", above)
	}
	if hit, ok := faceContact(hover, side, 0, look, depth); ok {
		t.Errorf("a sample outside the body, above its top face, is a contact of the side face: gap %.4g m", hit.gap)
	}
	pressed := mgl64.Vec3{-0.03, 0.05, -0.1}
	if hit, ok := faceContact(pressed, side, 0, look, depth); !ok || math.Abs(hit.gap+0.03) > 1e-12 {
		t.Errorf("a sample 3 cm inside the side's prism: contact %v, gap %.4g, want a contact at gap -0.03", ok, hit.gap)
	}
	near := mgl64.Vec3{0.01, 0, 0.015}
	if hit, ok := faceContact(near, side, 0, look, depth); !ok || math.Abs(hit.gap-0.01) > 1e-12 {
		t.Errorf("a sample 1 cm in front of the side, 1.5 cm above its edge: contact %v, gap %.4g, want a contact at gap 0.01", ok, hit.gap)
	}
}
