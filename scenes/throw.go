package scenes

import (
	"github.com/go-gl/mathgl/mgl64"
	"github.com/stagger-physics/stagger/collide"
	"github.com/stagger-physics/stagger/ecs"
	"github.com/stagger-physics/stagger/physics"
)

// The throw scene: a pyramid of crates and the heavy ball a player throws into it.
const (
	throwCrateHalf    = 0.25 // half side of a crate, m
	throwCrateGap     = 0.01 // gap between neighbouring crates of a row, m
	throwCrateDensity = 500  // kg/m³, a wooden crate: 62.5 kg
	throwAt           = 1.0  // s: the pyramid has settled by then
	throwBallRadius   = 0.25 // m
	throwBallDensity  = 5000 // kg/m³: 327 kg, about five crates
	throwDistance     = 6.0  // the ball starts this far in front of the pyramid (−y), m
	throwHeight       = 1.5  // and this high, m
)

// throwVelocity is the ball's launch velocity, m/s: towards the pyramid (+y) and a little up.
var throwVelocity = mgl64.Vec3{0, 15, 1}

// throwScene is a pyramid of n rows of 0.5 m wooden crates (n at the base, rows centred on the
// 1 cm gaps below) on the ground; at 1 s a 0.5 m ball of 5,000 kg/m³ is thrown at it at 15 m/s
// from 6 m in front, 1.5 m up: the throw a player makes in the demo game. Some crates are knocked
// off, the rest stand. docs/scenes.md, throw.
func throwScene() Scene {
	return Scene{
		Name:     "throw",
		Summary:  "a pyramid of 0.5 m crates, n rows, hit at 1 s by a 0.5 m ball of 5,000 kg/m³ thrown at 15 m/s",
		Defaults: Params{N: 10, Mu: 0.6},
		build:    buildThrow,
		script:   []cue{{at: throwAt, act: throwBall}},
	}
}

func buildThrow(w *ecs.World, p Params) error {
	if err := spawnGround(w, p.Mu); err != nil {
		return err
	}
	half := mgl64.Vec3{throwCrateHalf, throwCrateHalf, throwCrateHalf}
	const pitch = 2*throwCrateHalf + throwCrateGap
	for row := 0; row < p.N; row++ {
		count := p.N - row
		for i := 0; i < count; i++ {
			x := (float64(i) - float64(count-1)/2) * pitch
			pos := mgl64.Vec3{x, 0, throwCrateHalf * float64(2*row+1)}
			if _, err := spawnBox(w, half, pos, mgl64.QuatIdent(), throwCrateDensity, p); err != nil {
				return err
			}
		}
	}
	return nil
}

// throwBall launches the ball at the pyramid.
func throwBall(w *ecs.World, p Params) error {
	ball, err := collide.NewSphere(throwBallRadius)
	if err != nil {
		return err
	}
	b := physics.NewDynamic(mgl64.Vec3{0, -throwDistance, throwHeight}, throwBallDensity)
	b.LinearVelocity = throwVelocity
	b.Friction, b.Restitution = p.Mu, p.E
	_, err = physics.Spawn(w, b, physics.Collider{Shape: ball})
	return err
}
