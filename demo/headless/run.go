package headless

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"io"
	"math"
	"sort"
	"time"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/stagger-physics/stagger/ecs"
	"github.com/stagger-physics/stagger/physics"
	"github.com/stagger-physics/stagger/scenes"
)

// Run simulates scene sc with parameters p for o.Seconds at step o.Dt and measures it. If progress
// is not nil, a progress bar is drawn on it (meant for a terminal).
func Run(o Options, sc scenes.Scene, p scenes.Params, progress io.Writer) (Result, error) {
	app, err := ecs.NewApp(o.Dt, 1)
	if err != nil {
		return Result{}, err
	}
	cfg := o.PhysicsConfig()
	if err := app.AddPlugin(physics.NewPlugin(cfg)); err != nil {
		return Result{}, err
	}
	if err := sc.Build(app.World, p); err != nil {
		return Result{}, err
	}
	bodies, err := ecs.NewQuery1[physics.RigidBody](app.World)
	if err != nil {
		return Result{}, err
	}
	deformables, err := ecs.NewQuery1[physics.ReducedDeformable](app.World)
	if err != nil {
		return Result{}, err
	}
	sim, _ := physics.SimulationOf(app.World)
	m := newMeter(app.World, bodies, cfg.Gravity)
	m.deformables, m.deformFn = deformables, m.measureDeformable
	beam := newBeamMeter(app.World)
	steps := int(math.Round(o.Seconds / o.Dt))
	times := make([]float64, 0, steps)
	phases := make([]physics.PhaseTimes, 0, steps)
	bar := newProgressBar(progress, steps)
	res := Result{
		Scene: sc.Name, N: p.N, Seed: p.Seed, Solver: o.Solver, Friction: o.Friction, Mu: p.Mu, E: p.E,
		Dt: o.Dt, Steps: steps, Workers: o.Workers, EnergyRise: math.Inf(-1),
	}
	if err := m.start(); err != nil {
		return res, err
	}
	contacts, islands, sleeping, iters, converged, cutShort := 0, 0, 0, 0, 0, 0
	for i := 0; i < steps; i++ {
		// The scene's script acts before the step that starts at t (docs/scenes.md, Scripts); what
		// it adds is not the step's doing, so the energy reference moves with it.
		t := float64(i) * o.Dt
		changed, err := sc.Advance(app.World, p, t)
		if err != nil {
			return res, fmt.Errorf("step %d: %w", i, err)
		}
		if changed {
			if err := m.rebase(); err != nil {
				return res, err
			}
		}
		t0 := time.Now()
		if err := app.StepFixed(); err != nil {
			return res, fmt.Errorf("step %d: %w", i, err)
		}
		times = append(times, float64(time.Since(t0).Nanoseconds())/1e6)
		st := sim.Stats()
		phases = append(phases, st.Phases)
		if st.NonFinite > 0 {
			res.NonFinite = true
		}
		contacts += st.Contacts
		res.ContactsMax = max(res.ContactsMax, st.Contacts)
		islands += st.Islands
		sleeping += st.Sleeping
		iters += st.Iterations
		res.WorkTotal += st.Work
		converged += st.Converged
		cutShort += st.CutShort
		res.ErrRatioMax = math.Max(res.ErrRatioMax, st.MaxErrRatio)
		res.MaxPenetration = math.Max(res.MaxPenetration, -st.MinGap)
		if t >= lateFrom-lateTolerance {
			res.MaxPenetrationLate = math.Max(res.MaxPenetrationLate, -st.MinGap)
		}
		res.SeparationWork += st.SeparationWork
		if err := m.measure(st.SeparationWork); err != nil {
			return res, err
		}
		beam.measure()
		bar.update(i + 1)
	}
	bar.finish()
	res.MsMedian, res.MsP95 = percentile(times, 0.5), percentile(times, 0.95)
	res.PhaseMsMean, res.PhaseMsP95 = summarizePhases(phases)
	res.CutShort = cutShort
	if math.IsInf(res.ErrRatioMax, 1) {
		res.ErrRatioMax = math.MaxFloat64 // JSON has no infinity
	}
	if steps > 0 {
		res.ContactsMean = float64(contacts) / float64(steps)
		res.IslandsMean = float64(islands) / float64(steps)
		res.SleepingMean = float64(sleeping) / float64(steps)
	}
	if islands > 0 {
		res.ItersMean = float64(iters) / float64(islands)
		res.ConvergedFrac = float64(converged) / float64(islands)
		res.CutShortFrac = float64(cutShort) / float64(islands)
	}
	res.MaxShift, res.MaxDrop, res.EnergyRise, res.MinZ = m.maxShift, m.maxDrop, m.energyRise, m.minZ
	if steps == 0 {
		res.EnergyRise = 0
	}
	if math.IsInf(res.MinZ, 0) {
		// No step, or no dynamic body (or a body at −Inf, which nonfinite reports): JSON has no
		// infinity.
		res.MinZ = 0
	}
	res.NonFinite = res.NonFinite || m.nonFinite
	// Counted at the end, so that the bodies a scene's script spawned are included.
	res.Bodies = bodies.Count() + deformables.Count()
	res.Slide, res.SlideExpected = slideOf(app.World, float64(steps)*o.Dt)
	res.FreqHz, res.FreqExpectedHz, res.SagM, res.SagExpectedM = beam.result(o.Dt)
	res.Hash = m.hash()
	return res, nil
}

// slideOf measures the incline scene: how far the body carrying scenes.Slide moved down the slope,
// and Coulomb's answer for that time. Scenes without a Slide give zeros.
func slideOf(w *ecs.World, t float64) (slide, expected float64) {
	if !ecs.Registered[scenes.Slide](w) {
		return 0, 0
	}
	q, err := ecs.NewQuery2[physics.RigidBody, scenes.Slide](w)
	if err != nil {
		return 0, 0
	}
	_ = q.Each(func(_ ecs.Entity, b *physics.RigidBody, s *scenes.Slide) {
		slide, expected = s.Distance(b.Position), s.Expected(t)
	})
	return slide, expected
}

// lateFrom, s, is where max_penetration_late starts: by then a scene's bodies have settled onto
// their contacts, or fallen into them, so deeper penetration is the solver's error and not the
// start's. lateTolerance absorbs the rounding of the step's start time k·h.
const (
	lateFrom      = 1.0
	lateTolerance = 1e-9
)

// meter measures drift, drop, height, energy and finiteness over the run.
type meter struct {
	world       *ecs.World
	bodies      *ecs.Query1[physics.RigidBody]
	deformables *ecs.Query1[physics.ReducedDeformable] // nil: none
	modal, z    []float64                              // scratch for the deformables' states
	deformFn    func(ecs.Entity, *physics.ReducedDeformable)
	gravity     mgl64.Vec3
	origin      map[ecs.Entity]mgl64.Vec3 // the dynamic bodies present at the start
	energy      float64
	maxShift    float64
	maxDrop     float64
	minZ        float64
	energyRise  float64
	nonFinite   bool
}

func newMeter(w *ecs.World, bodies *ecs.Query1[physics.RigidBody], g mgl64.Vec3) *meter {
	return &meter{world: w, bodies: bodies, gravity: g, origin: map[ecs.Entity]mgl64.Vec3{},
		minZ: math.Inf(1), energyRise: math.Inf(-1)}
}

// start records where each dynamic body starts and the initial energy.
func (m *meter) start() error {
	err := m.bodies.Each(func(e ecs.Entity, b *physics.RigidBody) {
		if b.Kind == physics.Dynamic {
			m.origin[e] = b.Position
		}
	})
	if err != nil {
		return err
	}
	m.energy, err = physics.Energy(m.world, m.gravity)
	return err
}

// rebase takes the world's present energy as the reference of the next step's change: the scene's
// script changed the world (a spawned body brings its own kinetic and potential energy), and that
// change is no step's gain.
func (m *meter) rebase() error {
	e, err := physics.Energy(m.world, m.gravity)
	m.energy = e
	return err
}

// measure updates the maxima after a step. Drift and drop follow the bodies present at the start
// (the scene's structure: a block its script drops later would fall by design); height and
// finiteness follow every dynamic body. separationWork is the potential energy the step's
// separation of overlaps added (physics.StepStats.SeparationWork): a declared position correction,
// not a gain of the dynamics, so it is not counted in the rise.
func (m *meter) measure(separationWork float64) error {
	err := m.bodies.Each(func(e ecs.Entity, b *physics.RigidBody) {
		if b.Kind != physics.Dynamic {
			return
		}
		for _, x := range stateOf(b) {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				m.nonFinite = true
			}
		}
		if z := b.Position[2]; !math.IsNaN(z) {
			// A NaN would make min_z NaN, which JSON cannot hold; nonfinite reports it.
			m.minZ = math.Min(m.minZ, z)
		}
		o, ok := m.origin[e]
		if !ok {
			return
		}
		d := b.Position.Sub(o)
		m.maxShift = math.Max(m.maxShift, math.Hypot(d[0], d[1]))
		m.maxDrop = math.Max(m.maxDrop, -d[2])
	})
	if err != nil {
		return err
	}
	if err := m.deformables.Each(m.deformFn); err != nil {
		return err
	}
	e, err := physics.Energy(m.world, m.gravity)
	if err != nil {
		return err
	}
	m.energyRise = math.Max(m.energyRise, e-m.energy-separationWork)
	m.energy = e
	return nil
}

// measureDeformable checks a deformable body's frame and modal state for non-finite values and
// takes its lowest surface point into min_z.
func (m *meter) measureDeformable(_ ecs.Entity, d *physics.ReducedDeformable) {
	for _, x := range m.deformableState(d) {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			m.nonFinite = true
		}
	}
	if z := d.Position[2]; !math.IsNaN(z) {
		m.minZ = math.Min(m.minZ, z)
	}
}

// deformableState lists a deformable body's frame state (as stateOf) and then its modal
// coordinates and velocities, in m.modal.
func (m *meter) deformableState(d *physics.ReducedDeformable) []float64 {
	p, q, v, w := d.Position, d.Orientation, d.LinearVelocity, d.AngularVelocity
	m.modal = append(m.modal[:0], p[0], p[1], p[2], q.W, q.V[0], q.V[1], q.V[2], v[0], v[1], v[2], w[0], w[1], w[2])
	m.z = d.Modal(m.z)
	m.modal = append(m.modal, m.z...)
	m.z = d.ModalVelocities(m.z)
	return append(m.modal, m.z...)
}

// hash returns the SHA-256 of every body's state, as float64 bits in query order: the rigid
// bodies', then the deformable bodies' frames and modal states.
func (m *meter) hash() string {
	h := sha256.New()
	var buf [8]byte
	put := func(x float64) {
		binary.LittleEndian.PutUint64(buf[:], math.Float64bits(x))
		h.Write(buf[:])
	}
	_ = m.bodies.Each(func(_ ecs.Entity, b *physics.RigidBody) {
		for _, x := range stateOf(b) {
			put(x)
		}
	})
	_ = m.deformables.Each(func(_ ecs.Entity, d *physics.ReducedDeformable) {
		for _, x := range m.deformableState(d) {
			put(x)
		}
	})
	return hex.EncodeToString(h.Sum(nil))
}

// stateOf lists a body's position, orientation and velocities.
func stateOf(b *physics.RigidBody) [13]float64 {
	p, q, v, w := b.Position, b.Orientation, b.LinearVelocity, b.AngularVelocity
	return [13]float64{p[0], p[1], p[2], q.W, q.V[0], q.V[1], q.V[2], v[0], v[1], v[2], w[0], w[1], w[2]}
}

// summarizePhases returns the mean and the 95th percentile (nearest rank) of each phase's time
// over the steps, in ms.
func summarizePhases(phases []physics.PhaseTimes) (mean, p95 PhaseMs) {
	xs := make([]float64, len(phases))
	summarize := func(phase func(*physics.PhaseTimes) time.Duration) (float64, float64) {
		sum := 0.0
		for i := range phases {
			xs[i] = float64(phase(&phases[i]).Nanoseconds()) / 1e6
			sum += xs[i]
		}
		if len(xs) == 0 {
			return 0, 0
		}
		return sum / float64(len(xs)), percentile(xs, 0.95)
	}
	mean.Gather, p95.Gather = summarize(func(p *physics.PhaseTimes) time.Duration { return p.Gather })
	mean.Broad, p95.Broad = summarize(func(p *physics.PhaseTimes) time.Duration { return p.BroadPhase })
	mean.Narrow, p95.Narrow = summarize(func(p *physics.PhaseTimes) time.Duration { return p.NarrowPhase })
	mean.Islands, p95.Islands = summarize(func(p *physics.PhaseTimes) time.Duration { return p.Islands })
	mean.Solve, p95.Solve = summarize(func(p *physics.PhaseTimes) time.Duration { return p.Solve })
	mean.Integrate, p95.Integrate = summarize(func(p *physics.PhaseTimes) time.Duration { return p.Integrate })
	return mean, p95
}

// percentile returns the q-quantile of xs (nearest rank), sorting a copy.
func percentile(xs []float64, q float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	i := int(math.Ceil(q*float64(len(s)))) - 1
	return s[max(0, min(i, len(s)-1))]
}
