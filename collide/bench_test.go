package collide

import (
	"fmt"
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
)

// benchPair runs Collide on one resting configuration, feeding the manifold back as prev.
func benchPair(b *testing.B, sa Shape, pa Pose, sb Shape, pb Pose) {
	var m, prev Manifold
	if ok, err := Collide(sa, pa, sb, pb, 0.01, nil, &prev); err != nil || !ok {
		b.Fatalf("no contact: %v", err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Collide(sa, pa, sb, pb, 0.01, &prev, &m); err != nil {
			b.Fatal(err)
		}
		prev = m
	}
}

func BenchmarkSphereSphere(b *testing.B) {
	s := must(NewSphere(0.5))
	benchPair(b, s, IdentityPose(), s, at(mgl64.Vec3{0.3, 0.2, 0.9}, mgl64.Quat{}))
}

func BenchmarkSphereBox(b *testing.B) {
	benchPair(b, must(NewSphere(0.5)), at(mgl64.Vec3{0.2, 0.1, 0.99}, mgl64.Quat{}), must(NewBox(mgl64.Vec3{1, 1, 0.5})), IdentityPose())
}

func BenchmarkSphereCapsule(b *testing.B) {
	benchPair(b, must(NewSphere(0.5)), at(mgl64.Vec3{0.2, 0.1, 0.99}, mgl64.Quat{}), must(NewCapsule(0.5, 1)), at(mgl64.Vec3{}, rot(math.Pi/2, mgl64.Vec3{0, 1, 0})))
}

func BenchmarkSphereHalfSpace(b *testing.B) {
	benchPair(b, must(NewSphere(0.5)), at(mgl64.Vec3{0, 0, 0.49}, mgl64.Quat{}), must(NewHalfSpace(mgl64.Vec3{0, 0, 1}, 0)), IdentityPose())
}

func BenchmarkCapsuleCapsule(b *testing.B) {
	c := must(NewCapsule(0.3, 1))
	q := rot(math.Pi/2, mgl64.Vec3{0, 1, 0})
	benchPair(b, c, at(mgl64.Vec3{}, q), c, at(mgl64.Vec3{0.5, 0, 0.59}, q))
}

func BenchmarkCapsuleBox(b *testing.B) {
	benchPair(b, must(NewCapsule(0.3, 1)), at(mgl64.Vec3{0, 0, 0.79}, rot(math.Pi/2, mgl64.Vec3{0, 1, 0})), must(NewBox(mgl64.Vec3{2, 2, 0.5})), IdentityPose())
}

func BenchmarkCapsuleHalfSpace(b *testing.B) {
	benchPair(b, must(NewCapsule(0.3, 1)), at(mgl64.Vec3{0, 0, 0.29}, rot(math.Pi/2, mgl64.Vec3{0, 1, 0})), must(NewHalfSpace(mgl64.Vec3{0, 0, 1}, 0)), IdentityPose())
}

func BenchmarkBoxHalfSpace(b *testing.B) {
	benchPair(b, must(NewBox(mgl64.Vec3{0.5, 0.5, 0.5})), at(mgl64.Vec3{0, 0, 0.49}, rot(0.01, mgl64.Vec3{1, 1, 0})), must(NewHalfSpace(mgl64.Vec3{0, 0, 1}, 0)), IdentityPose())
}

func BenchmarkBoxBoxResting(b *testing.B) {
	c := must(NewBox(mgl64.Vec3{0.5, 0.5, 0.5}))
	benchPair(b, c, IdentityPose(), c, at(mgl64.Vec3{0.01, -0.02, 0.999}, rot(0.001, mgl64.Vec3{1, 2, 3})))
}

func BenchmarkBoxBoxRotated(b *testing.B) {
	c := must(NewBox(mgl64.Vec3{0.5, 0.5, 0.5}))
	benchPair(b, c, IdentityPose(), c, at(mgl64.Vec3{0, 0, 0.99}, rot(math.Pi/4, mgl64.Vec3{0, 0, 1})))
}

func BenchmarkBoxBoxEdge(b *testing.B) {
	c := must(NewBox(mgl64.Vec3{0.5, 0.5, 0.5}))
	h := math.Sqrt2 / 2
	benchPair(b, c, at(mgl64.Vec3{}, rot(math.Pi/4, mgl64.Vec3{1, 0, 0})), c, at(mgl64.Vec3{0.1, -0.2, 2*h - 0.01}, rot(math.Pi/4, mgl64.Vec3{0, 1, 0})))
}

func BenchmarkBoxBoxSeparated(b *testing.B) {
	c := must(NewBox(mgl64.Vec3{0.5, 0.5, 0.5}))
	benchPair(b, c, IdentityPose(), c, at(mgl64.Vec3{1.003, 1.003, 1.003}, mgl64.Quat{}))
}

func BenchmarkSphereHull(b *testing.B) {
	benchPair(b, must(NewSphere(0.3)), at(mgl64.Vec3{0.1, 0, 0.75}, mgl64.Quat{}), cubeHull(mgl64.Vec3{0.5, 0.5, 0.5}), IdentityPose())
}

func BenchmarkCapsuleHull(b *testing.B) {
	benchPair(b, must(NewCapsule(0.2, 0.3)), at(mgl64.Vec3{0.1, 0, 0.69}, rot(math.Pi/2, mgl64.Vec3{0, 1, 0})), cubeHull(mgl64.Vec3{0.5, 0.5, 0.5}), IdentityPose())
}

func BenchmarkBoxHullResting(b *testing.B) {
	benchPair(b, must(NewBox(mgl64.Vec3{2, 2, 0.5})), IdentityPose(), cubeHull(mgl64.Vec3{0.5, 0.5, 0.5}), at(mgl64.Vec3{0.1, 0.2, 0.999}, rot(0.001, mgl64.Vec3{1, 2, 3})))
}

func BenchmarkHullHullResting(b *testing.B) {
	c := cubeHull(mgl64.Vec3{0.5, 0.5, 0.5})
	benchPair(b, c, IdentityPose(), c, at(mgl64.Vec3{0.01, -0.02, 0.999}, rot(0.001, mgl64.Vec3{1, 2, 3})))
}

func BenchmarkHullHull24(b *testing.B) {
	h := testHull(0.5)
	benchPair(b, h, IdentityPose(), h, at(mgl64.Vec3{0.1, 0.05, 0.5}, rot(0.4, mgl64.Vec3{1, 2, 3})))
}

func BenchmarkHullHalfSpace(b *testing.B) {
	benchPair(b, testHull(0.5), at(mgl64.Vec3{0, 0, 0.2}, mgl64.Quat{}), must(NewHalfSpace(mgl64.Vec3{0, 0, 1}, 0)), IdentityPose())
}

func BenchmarkSphereMesh(b *testing.B) {
	benchPair(b, must(NewSphere(0.3)), at(mgl64.Vec3{0.2, 0.1, 0.29}, mgl64.Quat{}), gridMesh(20), IdentityPose())
}

func BenchmarkCapsuleMesh(b *testing.B) {
	benchPair(b, must(NewCapsule(0.2, 0.6)), at(mgl64.Vec3{0.2, 0.1, 0.19}, rot(math.Pi/2, mgl64.Vec3{0, 1, 0})), gridMesh(20), IdentityPose())
}

func BenchmarkBoxMesh(b *testing.B) {
	benchPair(b, must(NewBox(mgl64.Vec3{0.4, 0.3, 0.25})), at(mgl64.Vec3{0.2, 0.1, 0.249}, rot(0.3, mgl64.Vec3{0, 0, 1})), gridMesh(20), IdentityPose())
}

func BenchmarkHullMesh(b *testing.B) {
	benchPair(b, cubeHull(mgl64.Vec3{0.4, 0.3, 0.25}), at(mgl64.Vec3{0.2, 0.1, 0.249}, rot(0.3, mgl64.Vec3{0, 0, 1})), gridMesh(20), IdentityPose())
}

func BenchmarkBoxSDF(b *testing.B) {
	g := must(NewSDFGridFromShape(must(NewBox(mgl64.Vec3{2, 2, 0.5})), 0.1, 0.3))
	benchPair(b, must(NewBox(mgl64.Vec3{0.3, 0.3, 0.3})), at(mgl64.Vec3{0.1, -0.2, 0.799}, rot(0.3, mgl64.Vec3{0, 0, 1})), g, IdentityPose())
}

func BenchmarkSamplePoints1000(b *testing.B) {
	s := must(NewBox(mgl64.Vec3{1, 1, 1}))
	r := newRand(5)
	pts := make([]mgl64.Vec3, 1000)
	for i := range pts {
		pts[i] = randInCube(r, 2)
	}
	out := make([]PointSample, len(pts))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		_, _ = SamplePoints(s, IdentityPose(), pts, 0.05, out)
	}
}

func BenchmarkRayCastBroadPhase(b *testing.B) {
	r := newRand(6)
	bp := must(NewBroadPhase(0.05))
	s := must(NewBox(mgl64.Vec3{0.3, 0.3, 0.3}))
	poses := make([]Pose, 1000)
	for i := range poses {
		poses[i] = randPose(r, 20)
		must(bp.Add(s.Bounds(poses[i]), mgl64.Vec3{}, ProxyOptions{Data: i}))
	}
	lookup := func(id ProxyID) (Shape, Pose, bool) { return s, poses[id], true }
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		_, _, _, _ = RayCastBroadPhase(bp, mgl64.Vec3{-25, 0.1, 0.2}, mgl64.Vec3{1, 0.01, 0.02}, 50, lookup)
	}
}

// spherePoints returns n points spread evenly on the unit sphere (a Fibonacci lattice): every
// one is a hull vertex, the worst case for hull building.
func spherePoints(n int) []mgl64.Vec3 {
	pts := make([]mgl64.Vec3, n)
	golden := math.Pi * (3 - math.Sqrt(5))
	for i := range pts {
		z := 1 - 2*(float64(i)+0.5)/float64(n)
		r := math.Sqrt(1 - z*z)
		a := golden * float64(i)
		pts[i] = mgl64.Vec3{r * math.Cos(a), r * math.Sin(a), z}
	}
	return pts
}

// BenchmarkNewConvexHull builds hulls of n points on a sphere (all on the hull) and in a ball
// (most inside).
func BenchmarkNewConvexHull(b *testing.B) {
	for _, n := range []int{1024, 8192, 65536} {
		sphere := spherePoints(n)
		r := newRand(uint64(n))
		ball := make([]mgl64.Vec3, n)
		for i := range ball {
			for {
				p := randInCube(r, 1)
				if p.Len() <= 1 {
					ball[i] = p
					break
				}
			}
		}
		for _, c := range []struct {
			name string
			pts  []mgl64.Vec3
		}{{"sphere", sphere}, {"ball", ball}} {
			b.Run(fmt.Sprintf("%s-%d", c.name, n), func(b *testing.B) {
				for b.Loop() {
					if _, err := NewConvexHull(c.pts); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
