package scenes

import (
	"fmt"
	"math"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/stagger-physics/stagger/collide"
	"github.com/stagger-physics/stagger/deform"
	"github.com/stagger-physics/stagger/ecs"
	"github.com/stagger-physics/stagger/physics"
)

// The springboard scene's plank, the post that clamps its root and the crates on its free end.
// The plank runs along x from inside the post; the vertices inside the post are held, so the
// free length is springboardFree. Its cells are springboardCell long and wide, with two layers
// through the thickness: coarse enough that a step stays cheap, fine enough that the bottom crate
// stands on a dozen of the plank's surface samples (docs/architecture.md, Deformable bodies).
const (
	springboardLength    = 2.2 // the plank's whole length, m
	springboardClamped   = 0.2 // the length held inside the post, m
	springboardFree      = springboardLength - springboardClamped
	springboardWidth     = 0.6  // m
	springboardThick     = 0.05 // m
	springboardCell      = 0.1  // cells' length and width, m
	springboardLayers    = 2    // cells through the thickness
	springboardHeight    = 1.2  // height of the plank's centre line at the root, m
	springboardModes     = 8    // held vibration modes
	springboardCrateHalf = 0.15 // half-side of a crate, m
	springboardCrateRho  = 200  // crates' density, kg/m³: 5.4 kg a crate
	springboardTipGap    = 0.2  // from the bottom crate's outer side to the plank's tip, m: room to strike
	springboardPostHalf  = 0.2  // half the post's side along the plank, m (across it, 1.5 times)
	springboardMaxCrates = 6
)

// springboardMaterial is a springy plywood-like board: the clamped plank of this mesh sags by
// about 5 cm at its tip under three crates and its own weight (docs/scenes.md, springboard).
// Linear tetrahedra two layers thick lock in bending, so the mesh is about six times stiffer than
// Euler–Bernoulli's beam of the same modulus; the modulus is chosen for the mesh's sag.
var springboardMaterial = deform.Material{Young: 3e8, Poisson: 0.3, Density: 500}

// Rayleigh damping of the plank: α damps the first bending mode (about 2 Hz under the crates) to
// a few percent of critical, so that a struck board swings for a few seconds; β takes the higher
// modes' ringing out within a few steps.
const (
	springboardAlpha = 1.0
	springboardBeta  = 0.002
)

// Collision layers: the post clamps the plank's root inside itself, so the two must not meet;
// everything else meets both.
const (
	springboardPlankLayer uint32 = 1 << 4
	springboardPostLayer  uint32 = 1 << 5
)

// Springboard is the component the springboard scene attaches to its plank: what a test or runner
// needs to measure its sag.
type Springboard struct {
	// Tip is the index, in the plank's SurfaceVertices, of the middle vertex of the free end's top
	// edge; Rest is its undeformed world position.
	Tip  int
	Rest mgl64.Vec3
	// Load is the crates' total weight, N, and LoadAt the x of the stack's centre at the start.
	Load, LoadAt float64
}

// Sag returns how far below its rest height the tip is, m, for the plank's surface vertices
// surface.
func (s Springboard) Sag(surface []mgl64.Vec3) float64 { return s.Rest[2] - surface[s.Tip][2] }

// springboard is a soft plank clamped in a post at one end, sticking out over the ground, with a
// stack of n crates on its free end, at rest in its sag.
func springboard() Scene {
	return Scene{
		Name:     "springboard",
		Summary:  "a soft 2 m plank clamped at one end 1.2 m above the ground, sagging under a stack of n 0.3 m crates on its free end",
		Defaults: Params{N: 3, Mu: 0.6},
		check: func(p Params) error {
			if p.N > springboardMaxCrates {
				return fmt.Errorf("n is the number of crates and must be in [1, %d], got %d", springboardMaxCrates, p.N)
			}
			return nil
		},
		build: buildSpringboard,
	}
}

func buildSpringboard(w *ecs.World, p Params) error {
	if err := ecs.Register[Springboard](w); err != nil {
		return err
	}
	if err := spawnGround(w, p.Mu); err != nil {
		return err
	}
	// The plank's root end is at x = −springboardClamped, its tip at x = springboardFree.
	centre := mgl64.Vec3{springboardFree - springboardLength/2, 0, springboardHeight}
	half := mgl64.Vec3{springboardLength / 2, springboardWidth / 2, springboardThick / 2}
	mesh, err := deform.NewBoxMesh(half,
		int(math.Round(springboardLength/springboardCell)), int(math.Round(springboardWidth/springboardCell)), springboardLayers)
	if err != nil {
		return err
	}
	var held []int32
	for a := 0; a < mesh.NumVertices(); a++ {
		if centre[0]+mesh.Vertex(a)[0] < 1e-9 {
			held = append(held, int32(a))
		}
	}
	e, err := physics.SpawnDeformable(w, physics.ReducedDeformable{
		Mesh: mesh, Material: springboardMaterial, Modes: springboardModes, Held: held,
		Alpha: springboardAlpha, Beta: springboardBeta, Friction: p.Mu,
		Position: centre, Layer: springboardPlankLayer, Mask: physics.AllLayers &^ springboardPostLayer,
	})
	if err != nil {
		return err
	}
	plank, _ := ecs.Get[physics.ReducedDeformable](w, e)
	rest := plank.SurfaceVertices(nil)
	tip := -1
	for i, s := range rest {
		if s[0] > springboardFree-1e-9 && math.Abs(s[1]) < 1e-9 && s[2] > centre[2]+half[2]-1e-9 {
			tip = i
		}
	}
	if tip < 0 {
		// The free end's top edge has a middle vertex for an even number of cells across.
		return fmt.Errorf("springboard: no surface vertex at the middle of the tip's top edge")
	}
	if err := spawnSpringboardPost(w, p.Mu); err != nil {
		return err
	}
	// The bottom crate's footprint on the plank, and the plank's top surface samples under it.
	x0 := springboardFree - springboardTipGap - springboardCrateHalf
	var under []int
	for i, s := range rest {
		if math.Abs(s[0]-x0) <= springboardCrateHalf+1e-9 && math.Abs(s[1]) <= springboardCrateHalf+1e-9 && s[2] > centre[2]+half[2]-1e-9 {
			under = append(under, i)
		}
	}
	crate := mgl64.Vec3{springboardCrateHalf, springboardCrateHalf, springboardCrateHalf}
	weight := float64(p.N) * 8 * crate[0] * crate[1] * crate[2] * springboardCrateRho * physics.StandardGravity
	if err := sagSpringboard(plank, rest, under, weight); err != nil {
		return err
	}
	// Stand the stack on the sagged plank: its axis along the normal of the plank's top at the
	// footprint, the bottom crate's face through the highest of the samples under it.
	surface := plank.SurfaceVertices(nil)
	slope := springboardSlope(surface, under)
	q := mgl64.QuatRotate(-math.Atan(slope), mgl64.Vec3{0, 1, 0})
	up, along := q.Rotate(mgl64.Vec3{0, 0, 1}), q.Rotate(mgl64.Vec3{1, 0, 0})
	foot := mgl64.Vec3{x0, 0, 0}
	foot[2] = math.Inf(-1)
	for _, i := range under {
		// The height at x0 of the plane through sample i with the stack's normal.
		foot[2] = math.Max(foot[2], surface[i][2]+along[2]/along[0]*(x0-surface[i][0]))
	}
	for k := 0; k < p.N; k++ {
		at := foot.Add(up.Mul(float64(2*k+1) * crate[2]))
		if _, err := spawnBox(w, crate, at, q, springboardCrateRho, p); err != nil {
			return err
		}
	}
	return ecs.Add(w, e, Springboard{Tip: tip, Rest: rest[tip], Load: weight, LoadAt: x0})
}

// spawnSpringboardPost adds the static post from the ground to above the plank that clamps its
// held root, on a layer the plank does not meet.
func spawnSpringboardPost(w *ecs.World, mu float64) error {
	top := springboardHeight + 0.25
	half := mgl64.Vec3{springboardPostHalf, springboardPostHalf * 1.5, top / 2}
	box, err := collide.NewBox(half)
	if err != nil {
		return err
	}
	b := physics.NewStatic(mgl64.Vec3{-half[0], 0, half[2]})
	b.Friction = mu
	_, err = physics.Spawn(w, b, physics.Collider{Shape: box, Layer: springboardPostLayer, Mask: physics.AllLayers &^ springboardPlankLayer})
	return err
}

// sagSpringboard sets the plank's modes to the static equilibrium of its model under gravity and
// the weight load spread evenly over the surface samples under (indices into the undeformed
// surface rest), so that the scene starts at rest rather than dropping the crates through the
// sag. With mass-orthonormal modes the equilibrium is z_k = f_k/ω_k², the modal load over the
// mode's stiffness. Everything is read through the body's public state: with z the k-th unit
// vector, the surface moves by mode k's shape, the centre of mass by Σ m_a Φ_ak / m (gravity's
// load on the mode is m g·that), and the elastic energy is ω_k²/2.
func sagSpringboard(d *physics.ReducedDeformable, rest []mgl64.Vec3, under []int, weight float64) error {
	g := mgl64.Vec3{0, 0, -physics.StandardGravity}
	r := len(d.Modal(nil))
	z, zd := make([]float64, r), make([]float64, r)
	com0 := d.CentreOfMass()
	shape := make([]mgl64.Vec3, 0, len(rest))
	load := mgl64.Vec3{0, 0, -weight / float64(len(under))}
	static := make([]float64, r)
	for k := 0; k < r; k++ {
		clear(z)
		z[k] = 1
		if err := d.SetModalState(z, zd); err != nil {
			return err
		}
		omega2 := 2 * d.ElasticEnergy()
		if !(omega2 > 0) {
			return fmt.Errorf("springboard: mode %d has ω² = %v", k, omega2)
		}
		f := d.CentreOfMass().Sub(com0).Mul(d.Mass()).Dot(g)
		shape = d.SurfaceVertices(shape)
		for _, i := range under {
			f += shape[i].Sub(rest[i]).Dot(load)
		}
		static[k] = f / omega2
	}
	return d.SetModalState(static, zd)
}

// springboardSlope returns the slope dz/dx of the least-squares line through the samples of
// surface at the indices under.
func springboardSlope(surface []mgl64.Vec3, under []int) float64 {
	var mx, mz float64
	for _, i := range under {
		mx += surface[i][0]
		mz += surface[i][2]
	}
	n := float64(len(under))
	mx, mz = mx/n, mz/n
	var sxx, sxz float64
	for _, i := range under {
		dx := surface[i][0] - mx
		sxx += dx * dx
		sxz += dx * (surface[i][2] - mz)
	}
	return sxz / sxx
}
