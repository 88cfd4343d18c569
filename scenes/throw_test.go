package scenes

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/stagger-physics/stagger/ecs"
	"github.com/stagger-physics/stagger/physics"
)

// The throw scene builds a 10-row pyramid of 55 crates of 0.5 m and 62.5 kg on the ground; it
// stands within 1 mm for its first second; at 1 s its script throws one ball of 0.5 m and
// 5,000 kg/m³ at (0, 15, 1) m/s from 6 m in front, 1.5 m up; within 0.4 s the ball has knocked
// crates out of their places, nothing penetrating deeper than 5 mm. The 3 s after the throw are
// `make validate`'s and the benchmarks' (docs/scenes.md, throw).
func TestThrowKnocksCratesOffThePyramid(t *testing.T) {
	r := startScene(t, "throw")
	start := map[ecs.Entity]mgl64.Vec3{}
	for e := range r.known {
		if b, half := r.body(e); b.Kind == physics.Dynamic {
			if half != (mgl64.Vec3{0.25, 0.25, 0.25}) || math.Abs(b.Mass-62.5) > 1e-9 {
				t.Errorf("crate: half extents %v, mass %v kg; want 0.25 m and 62.5 kg", half, b.Mass)
			}
			start[e] = b.Position
		}
	}
	if len(start) != 55 {
		t.Fatalf("%d crates, want 55", len(start))
	}
	// displaced counts the crates farther than d from where they started.
	displaced := func(d float64) int {
		n := 0
		for e, p := range start {
			if b, _ := r.body(e); b.Position.Sub(p).Len() > d {
				n++
			}
		}
		return n
	}
	r.runUntil(throwAt)
	if n := displaced(1e-3); n > 0 {
		t.Errorf("before the throw %d crates moved more than 1 mm", n)
	}
	balls := r.script()
	if len(balls) != 1 {
		t.Fatalf("the throw spawned %d bodies, want one ball", len(balls))
	}
	ball, _ := r.body(balls[0])
	if want := 5000 * 4.0 / 3 * math.Pi * math.Pow(0.25, 3); math.Abs(ball.Mass-want) > 1e-9*want {
		t.Errorf("ball mass %v kg, want %v", ball.Mass, want)
	}
	if ball.LinearVelocity != throwVelocity || ball.Position != (mgl64.Vec3{0, -6, 1.5}) {
		t.Errorf("ball at %v moving %v, want at (0, −6, 1.5) moving %v", ball.Position, ball.LinearVelocity, throwVelocity)
	}
	for r.now() < throwAt+0.4-testStep/2 {
		r.step()
	}
	if n := displaced(0.05); n == 0 {
		t.Error("0.4 s after the throw no crate has moved 5 cm: the ball missed the pyramid")
	}
}
