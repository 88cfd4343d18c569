package physics

import (
	"testing"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/stagger-physics/stagger/collide"
)

// BenchmarkStepFreeBodies steps 1,000 spinning boxes in free flight (gather, predict with the
// gyroscopic midpoint solve, advance, scatter). Allocations must be 0 once warm.
func BenchmarkStepFreeBodies(b *testing.B) {
	app := newTestApp(b, 0.01, DefaultConfig())
	box, err := collide.NewBox(mgl64.Vec3{0.5, 0.3, 0.1})
	if err != nil {
		b.Fatal(err)
	}
	const n = 1000
	for i := 0; i < n; i++ {
		body := NewDynamic(mgl64.Vec3{float64(i % 32), float64(i / 32), 10}, 500)
		body.AngularVelocity = mgl64.Vec3{0.1, 5, 0.2 * float64(i%7)}
		if _, err := Spawn(app.World, body, Collider{Shape: box}); err != nil {
			b.Fatal(err)
		}
	}
	if err := app.StepFixed(); err != nil { // warm
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := app.StepFixed(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/1e6/float64(b.N), "ms/step")
	b.ReportMetric(n, "bodies")
}
