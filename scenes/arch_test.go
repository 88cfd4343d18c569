package scenes

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/stagger-physics/stagger/collide"
)

// The arch starts exactly assembled: neighbouring voussoirs share their joint face (touching over
// it, not overlapping), blocks two apart do not touch, and the two feet stand level on the ground.
func TestArchStartsTouching(t *testing.T) {
	const n = 15
	var hulls []*collide.ConvexHull
	var poses []collide.Pose
	for _, b := range archVoussoirs(n) {
		var pts []mgl64.Vec3
		for _, c := range b {
			pts = append(pts, mgl64.Vec3{c[0], -archDepth / 2, c[1]}, mgl64.Vec3{c[0], archDepth / 2, c[1]})
		}
		h, centre, err := collide.NewConvexHullCentered(pts)
		if err != nil {
			t.Fatal(err)
		}
		hulls = append(hulls, h)
		poses = append(poses, collide.Pose{Position: centre, Rotation: mgl64.QuatIdent()})
	}
	var mf collide.Manifold
	for i := range hulls {
		for j := i + 1; j < len(hulls); j++ {
			hit, err := collide.Collide(hulls[i], poses[i], hulls[j], poses[j], 1e-3, nil, &mf)
			if err != nil {
				t.Fatal(err)
			}
			if j == i+1 {
				if !hit || mf.Count < 4 {
					t.Errorf("voussoirs %d and %d: joint found %v with %d points, want a face contact", i, j, hit, mf.Count)
					continue
				}
				for k := 0; k < mf.Count; k++ {
					if g := mf.Points[k].Gap; math.Abs(g) > 1e-9 {
						t.Errorf("voussoirs %d and %d: joint gap %.3g m", i, j, g)
					}
				}
			} else if hit {
				for k := 0; k < mf.Count; k++ {
					if g := mf.Points[k].Gap; g < 1e-4 {
						t.Errorf("voussoirs %d and %d, not neighbours, are %.3g m apart", i, j, g)
					}
				}
			}
		}
	}
	ground, err := collide.NewHalfSpace(mgl64.Vec3{0, 0, 1}, 0)
	if err != nil {
		t.Fatal(err)
	}
	for i, h := range hulls {
		hit, err := collide.Collide(ground, collide.Pose{Rotation: mgl64.QuatIdent()}, h, poses[i], 1e-3, nil, &mf)
		if err != nil {
			t.Fatal(err)
		}
		foot := i == 0 || i == len(hulls)-1
		if hit != foot {
			t.Errorf("voussoir %d: on the ground %v, want %v", i, hit, foot)
			continue
		}
		for k := 0; k < mf.Count && foot; k++ {
			if g := mf.Points[k].Gap; math.Abs(g) > 1e-9 {
				t.Errorf("foot %d: gap %.3g m, want level on the ground", i, g)
			}
		}
	}
}
