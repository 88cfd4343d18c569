package collide_test

import (
	"fmt"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/stagger-physics/stagger/collide"
)

// A unit cube resting on the ground touches it at its four bottom corners, each with the ground's
// normal (from the ground, A, to the cube, B) and a zero gap.
func ExampleCollide() {
	ground, _ := collide.NewHalfSpace(mgl64.Vec3{0, 0, 1}, 0)
	cube, _ := collide.NewBox(mgl64.Vec3{0.5, 0.5, 0.5})
	onGround := collide.Pose{Position: mgl64.Vec3{0, 0, 0.5}, Rotation: mgl64.QuatIdent()}
	var m collide.Manifold
	hit, err := collide.Collide(ground, collide.Pose{Rotation: mgl64.QuatIdent()}, cube, onGround, 0.01, nil, &m)
	if err != nil {
		panic(err)
	}
	fmt.Println("touching:", hit, "points:", m.Count)
	for i := 0; i < m.Count; i++ {
		pt := m.Points[i]
		fmt.Printf("normal %v gap %.3f\n", pt.Normal, pt.Gap)
	}
	// Unordered output:
	// touching: true points: 4
	// normal [0 0 1] gap 0.000
	// normal [0 0 1] gap 0.000
	// normal [0 0 1] gap 0.000
	// normal [0 0 1] gap 0.000
}
