package scenes

import (
	"fmt"
	"math"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/stagger-physics/stagger/deform"
	"github.com/stagger-physics/stagger/ecs"
	"github.com/stagger-physics/stagger/physics"
)

// The beam scene's cantilever: 1 m long, 5 cm square, of a stiff plastic (E = 100 MPa, ν = 0,
// 1000 kg/m³) so that it vibrates at a few hertz, well resolved by a 10 ms step, and sags by
// centimetres. ν = 0 matches Euler–Bernoulli's uniaxial bending. Linear tetrahedra lock in bending
// (too stiff), by an error that falls with the square of the cells' size both along and across;
// 240 × 8 × 8 cells bring the static sag within 2.4 % of beam theory (200 × 6 × 6: 3.9 %), and
// six modes — the three lowest bending modes in each direction of the section — reproduce the
// static answer of the whole mesh to 0.02 % (docs/scenes.md).
const (
	beamLength = 1.0
	beamSide   = 0.05
	beamAcross = 8 // cells across each side of the section
	beamHeight = 1.5
	beamModes  = 6
)

var beamMaterial = deform.Material{Young: 1e8, Poisson: 0, Density: 1000}

// Cantilever is the component the beam scene attaches to its beam so that a runner can measure
// its vibration and sag and compare them with Euler–Bernoulli beam theory.
type Cantilever struct {
	// Tip is the index, in the body's SurfaceVertices, of the free end's centre line vertex that
	// the measurements follow; Rest is its undeformed world position.
	Tip  int
	Rest mgl64.Vec3
	// FreqExpected is the first bending frequency (1.8751²/2π)·√(EI/(ρAL⁴)), Hz.
	FreqExpected float64
	// SagExpected is the tip's static deflection under its own weight, wL⁴/(8EI), m.
	SagExpected float64
}

// Sag returns how far below its rest height the tip is, m, for the body's surface vertices
// surface.
func (c Cantilever) Sag(surface []mgl64.Vec3) float64 { return c.Rest[2] - surface[c.Tip][2] }

// beam is a slender cantilever clamped at its root and released straight, at rest, in gravity: it
// vibrates about its sag, undamped. n is the number of cells along it (8 × 8 across).
func beam() Scene {
	return Scene{
		Name:     "beam",
		Summary:  "a 1 m × 5 cm × 5 cm cantilever of n cells along (8 × 8 across), released straight in gravity; its first bending frequency and sag against Euler–Bernoulli",
		Defaults: Params{N: 240, Mu: 0.5},
		check: func(p Params) error {
			if p.N < 10 || p.N > 400 {
				return fmt.Errorf("n is the number of cells along the beam and must be in [10, 400], got %d", p.N)
			}
			return nil
		},
		build: buildBeam,
	}
}

func buildBeam(w *ecs.World, p Params) error {
	if err := ecs.Register[Cantilever](w); err != nil {
		return err
	}
	if err := spawnGround(w, p.Mu); err != nil {
		return err
	}
	half := mgl64.Vec3{beamLength / 2, beamSide / 2, beamSide / 2}
	mesh, err := deform.NewBoxMesh(half, p.N, beamAcross, beamAcross)
	if err != nil {
		return err
	}
	var held []int32
	tip := -1
	for a := 0; a < mesh.NumVertices(); a++ {
		v := mesh.Vertex(a)
		if v[0] < -half[0]+1e-9 {
			held = append(held, int32(a))
		}
	}
	d := physics.ReducedDeformable{
		Mesh: mesh, Material: beamMaterial, Modes: beamModes, Held: held, Friction: p.Mu,
		// Kuhn's subdivision cuts every cell along the same diagonal, which makes the meshed beam
		// bend more easily about one diagonal of its section than the other; turned by −45° about
		// its axis, the softer direction, whose frequency is the closer to beam theory, is vertical.
		// A square section's EI is the same about every axis, so the theory does not change.
		Position:    mgl64.Vec3{0, 0, beamHeight},
		Orientation: mgl64.QuatRotate(-math.Pi/4, mgl64.Vec3{1, 0, 0}),
	}
	e, err := physics.SpawnDeformable(w, d)
	if err != nil {
		return err
	}
	body, _ := ecs.Get[physics.ReducedDeformable](w, e)
	surface := body.SurfaceVertices(nil)
	for i, s := range surface {
		local := s.Sub(d.Position)
		if local[0] > half[0]-1e-9 && math.Abs(local[1]) < 1e-9 && math.Abs(local[2]) < 1e-9 {
			tip = i
		}
	}
	if tip < 0 {
		// The free end's centre is a surface vertex for an even number of cells across.
		return fmt.Errorf("beam: no surface vertex at the tip's centre")
	}
	inertia, area := math.Pow(beamSide, 4)/12, beamSide*beamSide
	ei := beamMaterial.Young * inertia
	weight := beamMaterial.Density * area * physics.StandardGravity
	return ecs.Add(w, e, Cantilever{
		Tip: tip, Rest: surface[tip],
		FreqExpected: 1.875104 * 1.875104 / (2 * math.Pi) * math.Sqrt(ei/(beamMaterial.Density*area*math.Pow(beamLength, 4))),
		SagExpected:  weight * math.Pow(beamLength, 4) / (8 * ei),
	})
}

// CrossingFrequency returns the frequency, Hz, of the signal xs sampled every dt seconds, from
// its crossings of its own mean (linearly interpolated between samples): half the number of
// crossings less one over the time between the first and the last. It returns 0 for fewer than
// two crossings.
func CrossingFrequency(xs []float64, dt float64) float64 {
	if len(xs) < 2 {
		return 0
	}
	mean := 0.0
	for _, x := range xs {
		mean += x
	}
	mean /= float64(len(xs))
	first, last, n := 0.0, 0.0, 0
	for i := 1; i < len(xs); i++ {
		a, b := xs[i-1]-mean, xs[i]-mean
		if (a < 0) == (b < 0) {
			continue
		}
		t := (float64(i-1) + a/(a-b)) * dt
		if n == 0 {
			first = t
		}
		last = t
		n++
	}
	if n < 2 {
		return 0
	}
	return float64(n-1) / (2 * (last - first))
}
