package scenes

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/stagger-physics/stagger/collide"
)

// The card house starts exactly assembled: no two cards overlap, and every card touches what holds
// it (the ground or a flat card at its foot, its partner at the top; a flat card its two ridges).
func TestCardhouseStartsTouching(t *testing.T) {
	const levels = 3
	cards := cardhouseLayout(levels)
	if want := levels*(levels+1) + levels*(levels-1)/2; len(cards) != want {
		t.Fatalf("%d cards, want %d", len(cards), want)
	}
	box, err := collide.NewBox(mgl64.Vec3{cardThick / 2, cardDepth / 2, cardLength / 2})
	if err != nil {
		t.Fatal(err)
	}
	ground, err := collide.NewHalfSpace(mgl64.Vec3{0, 0, 1}, 0)
	if err != nil {
		t.Fatal(err)
	}
	pose := func(c cardPose) collide.Pose { return collide.Pose{Position: c.position, Rotation: c.rotation} }
	touching := make([]int, len(cards))
	var mf collide.Manifold
	for i, a := range cards {
		hit, err := collide.Collide(ground, collide.Pose{Rotation: mgl64.QuatIdent()}, box, pose(a), 1e-3, nil, &mf)
		if err != nil {
			t.Fatal(err)
		}
		if hit {
			for k := 0; k < mf.Count; k++ {
				if g := mf.Points[k].Gap; g < -1e-9 {
					t.Errorf("card %d is %.3g m into the ground", i, -g)
				} else if g < 1e-9 {
					touching[i]++
				}
			}
		}
		for j := i + 1; j < len(cards); j++ {
			hit, err := collide.Collide(box, pose(a), box, pose(cards[j]), 1e-3, nil, &mf)
			if err != nil {
				t.Fatal(err)
			}
			if !hit {
				continue
			}
			for k := 0; k < mf.Count; k++ {
				g := mf.Points[k].Gap
				if g < -1e-9 {
					t.Errorf("cards %d and %d overlap by %.3g m", i, j, -g)
				} else if math.Abs(g) <= 1e-9 {
					touching[i]++
					touching[j]++
				}
			}
		}
	}
	for i, n := range touching {
		// A leaning card touches its support along its foot and its partner along its top edge
		// (two points each); a flat card rests on two ridges.
		if n < 4 {
			t.Errorf("card %d at %v touches at %d points, want at least 4", i, cards[i].position, n)
		}
	}
}
