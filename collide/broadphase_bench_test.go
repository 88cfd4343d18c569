package collide

import (
	"testing"

	"github.com/go-gl/mathgl/mgl64"
)

const benchBodies = 10000

// BenchmarkBroadPhaseRandom10k: 10,000 boxes (0.5 m) moving at up to 3 m/s in a 50 m cube;
// one op is one step (update all bounds with displacement, then the pair list).
func BenchmarkBroadPhaseRandom10k(b *testing.B) {
	r := newRand(71)
	bp := must(NewBroadPhase(0.05))
	boxes := make([]AABB, benchBodies)
	vel := make([]mgl64.Vec3, benchBodies)
	ids := make([]ProxyID, benchBodies)
	for i := range boxes {
		c := randInCube(r, 25)
		boxes[i] = AABB{Min: c.Sub(mgl64.Vec3{0.25, 0.25, 0.25}), Max: c.Add(mgl64.Vec3{0.25, 0.25, 0.25})}
		vel[i] = randInCube(r, 3)
		ids[i] = must(bp.Add(boxes[i], mgl64.Vec3{}, ProxyOptions{Static: i%10 == 0}))
	}
	bp.UpdatePairs()
	const h = 1.0 / 60
	b.ReportAllocs()
	b.ResetTimer()
	pairs := 0
	for n := 0; n < b.N; n++ {
		for i := range boxes {
			if i%10 == 0 {
				continue
			}
			d := vel[i].Mul(h)
			boxes[i] = boxes[i].Translate(d)
			c := boxes[i].Center()
			for k := 0; k < 3; k++ {
				if c[k] > 25 || c[k] < -25 {
					vel[i][k] = -vel[i][k]
				}
			}
			_, _ = bp.Update(ids[i], boxes[i], d)
		}
		pairs = len(bp.UpdatePairs())
	}
	b.ReportMetric(float64(pairs), "pairs")
}

// BenchmarkBroadPhaseRestingPile10k: a pile of 10,000 touching unit cubes (25×20×20) at rest,
// jittering by 0.1 mm; one op is one step.
func BenchmarkBroadPhaseRestingPile10k(b *testing.B) {
	r := newRand(72)
	bp := must(NewBroadPhase(0.02))
	boxes := make([]AABB, 0, benchBodies)
	ids := make([]ProxyID, 0, benchBodies)
	must(bp.Add(AABB{Min: mgl64.Vec3{-100, -100, -1}, Max: mgl64.Vec3{100, 100, 0}}, mgl64.Vec3{}, ProxyOptions{Static: true}))
	for x := 0; x < 25; x++ {
		for y := 0; y < 20; y++ {
			for z := 0; z < 20; z++ {
				c := mgl64.Vec3{float64(x), float64(y), float64(z) + 0.5}
				box := AABB{Min: c.Sub(mgl64.Vec3{0.5, 0.5, 0.5}), Max: c.Add(mgl64.Vec3{0.5, 0.5, 0.5})}
				boxes = append(boxes, box)
				ids = append(ids, must(bp.Add(box, mgl64.Vec3{}, ProxyOptions{})))
			}
		}
	}
	bp.UpdatePairs()
	jitter := make([]mgl64.Vec3, len(boxes))
	for i := range jitter {
		jitter[i] = randInCube(r, 1e-4)
	}
	b.ReportAllocs()
	b.ResetTimer()
	pairs := 0
	for n := 0; n < b.N; n++ {
		for i := range boxes {
			j := jitter[(i+n)%len(jitter)]
			_, _ = bp.Update(ids[i], boxes[i].Translate(j), mgl64.Vec3{})
		}
		pairs = len(bp.UpdatePairs())
	}
	b.ReportMetric(float64(pairs), "pairs")
}
