package headless

import (
	"github.com/go-gl/mathgl/mgl64"
	"github.com/stagger-physics/stagger/ecs"
	"github.com/stagger-physics/stagger/physics"
	"github.com/stagger-physics/stagger/scenes"
)

// beamMeter follows the tip of the beam scene's cantilever (scenes.Cantilever) over the run, to
// measure its first bending frequency and its sag. In other scenes it does nothing.
type beamMeter struct {
	body    *physics.ReducedDeformable
	c       scenes.Cantilever
	surface []mgl64.Vec3
	sags    []float64
}

// newBeamMeter finds the world's cantilever, if any.
func newBeamMeter(w *ecs.World) *beamMeter {
	m := &beamMeter{}
	if !ecs.Registered[scenes.Cantilever](w) {
		return m
	}
	q, err := ecs.NewQuery2[physics.ReducedDeformable, scenes.Cantilever](w)
	if err != nil {
		return m
	}
	_ = q.Each(func(_ ecs.Entity, d *physics.ReducedDeformable, c *scenes.Cantilever) {
		m.body, m.c = d, *c
	})
	return m
}

// measure records the tip's sag after a step.
func (m *beamMeter) measure() {
	if m.body == nil {
		return
	}
	m.surface = m.body.SurfaceVertices(m.surface)
	m.sags = append(m.sags, m.c.Sag(m.surface))
}

// result returns the tip's frequency (scenes.CrossingFrequency) and mean sag with Euler–Bernoulli's
// answers; zeros without a cantilever.
func (m *beamMeter) result(dt float64) (freq, freqExpected, sag, sagExpected float64) {
	if m.body == nil || len(m.sags) == 0 {
		return 0, 0, 0, 0
	}
	for _, s := range m.sags {
		sag += s
	}
	sag /= float64(len(m.sags))
	return scenes.CrossingFrequency(m.sags, dt), m.c.FreqExpected, sag, m.c.SagExpected
}
