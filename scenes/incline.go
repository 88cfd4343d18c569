package scenes

import (
	"fmt"
	"math"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/stagger-physics/stagger/ecs"
	"github.com/stagger-physics/stagger/physics"
)

// Slide is the component the incline scene attaches to its cube so that a runner can measure the
// cube's motion down the slope and compare it with Coulomb's law.
type Slide struct {
	// Start is the cube's position at release, m.
	Start mgl64.Vec3
	// Down is the unit vector pointing down the slope.
	Down mgl64.Vec3
	// Accel is Coulomb's acceleration down the slope, g(sin θ − μ cos θ), or 0 when friction holds
	// the cube (tan θ ≤ μ); g is physics.StandardGravity.
	Accel float64
}

// Distance returns how far a body now at position p has moved down the slope from Start.
func (s Slide) Distance(p mgl64.Vec3) float64 { return p.Sub(s.Start).Dot(s.Down) }

// Expected returns Coulomb's answer for the distance after t seconds from rest: ½ Accel t².
func (s Slide) Expected(t float64) float64 { return 0.5 * s.Accel * t * t }

// incline releases one unit cube at rest on a static plane tilted by n degrees. It sticks when
// tan θ ≤ μ and otherwise slides with a = g(sin θ − μ cos θ).
func incline() Scene {
	return Scene{
		Name:     "incline",
		Summary:  "one unit cube released at rest on a plane tilted by n degrees; sticks below tan θ = μ, else slides with g(sin θ − μ cos θ)",
		Defaults: Params{N: 30, Mu: 0.8},
		check: func(p Params) error {
			if p.N >= 90 {
				return fmt.Errorf("n is the slope in degrees and must be < 90, got %d", p.N)
			}
			return nil
		},
		build: buildIncline,
	}
}

func buildIncline(w *ecs.World, p Params) error {
	if err := ecs.Register[Slide](w); err != nil {
		return err
	}
	theta := degrees(float64(p.N))
	normal := mgl64.Vec3{-math.Sin(theta), 0, math.Cos(theta)}
	if err := spawnPlane(w, normal, p.Mu); err != nil {
		return err
	}
	start := normal.Mul(0.5)
	e, err := spawnUnitCube(w, start, mgl64.QuatRotate(-theta, mgl64.Vec3{0, 1, 0}), p)
	if err != nil {
		return err
	}
	accel := math.Max(0, physics.StandardGravity*(math.Sin(theta)-p.Mu*math.Cos(theta)))
	return ecs.Add(w, e, Slide{Start: start, Down: mgl64.Vec3{-math.Cos(theta), 0, -math.Sin(theta)}, Accel: accel})
}
