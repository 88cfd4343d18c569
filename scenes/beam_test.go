package scenes

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/stagger-physics/stagger/ecs"
	"github.com/stagger-physics/stagger/physics"
)

// TestCrossingFrequency checks the crossing counter on a sampled sine about an offset against its
// known frequency.
func TestCrossingFrequency(t *testing.T) {
	const f, dt = 2.7, 0.01
	xs := make([]float64, 1000)
	for i := range xs {
		xs[i] = 0.3 + math.Sin(2*math.Pi*f*float64(i)*dt+0.4)
	}
	if got := CrossingFrequency(xs, dt); math.Abs(got/f-1) > 1e-3 {
		t.Fatalf("frequency %v, want %v", got, f)
	}
	if got := CrossingFrequency([]float64{1, 1, 1}, dt); got != 0 {
		t.Fatalf("a constant signal has frequency %v, want 0", got)
	}
}

// TestBeamMatchesBeamTheory runs the beam scene for 1,000 steps of 10 ms through the physics step
// and checks the cantilever against Euler–Bernoulli: its first bending frequency (crossings of the
// tip's height about its mean) within 3 %, its static sag — the mean of the undamped vibration
// about it — within 3 %, the total energy (kinetic, elastic, gravitational) within 1 % of the
// vibration's energy at every step, and the root never moving.
func TestBeamMatchesBeamTheory(t *testing.T) {
	cfg := physics.DefaultConfig()
	app, d, c := buildBeamScene(t, cfg)
	surface := d.SurfaceVertices(nil)
	// The root's surface vertices, which the clamp must keep in place.
	var root []int
	var rootRest []mgl64.Vec3
	for i, p := range surface {
		if p[0] < -beamLength/2+1e-9 {
			root = append(root, i)
			rootRest = append(rootRest, p)
		}
	}
	e0, err := physics.Energy(app.World, cfg.Gravity)
	if err != nil {
		t.Fatal(err)
	}
	const steps = 1000
	sags := make([]float64, 0, steps)
	energies := make([]float64, 0, steps)
	kinMax := 0.0
	for i := 0; i < steps; i++ {
		if err := app.StepFixed(); err != nil {
			t.Fatal(err)
		}
		surface = d.SurfaceVertices(surface)
		sags = append(sags, c.Sag(surface))
		e, err := physics.Energy(app.World, cfg.Gravity)
		if err != nil {
			t.Fatal(err)
		}
		energies = append(energies, e)
		kinMax = math.Max(kinMax, d.KineticEnergy())
		for j, r := range root {
			if surface[r] != rootRest[j] {
				t.Fatalf("step %d: root vertex %d moved from %v to %v", i, r, rootRest[j], surface[r])
			}
		}
	}
	f := CrossingFrequency(sags, 0.01)
	mean := 0.0
	for _, s := range sags {
		mean += s
	}
	mean /= steps
	drift := 0.0
	for _, e := range energies {
		drift = math.Max(drift, math.Abs(e-e0))
	}
	t.Logf("first bending %.4f Hz, beam theory %.4f Hz (%+.2f %%); sag %.5f m, beam theory %.5f m (%+.2f %%); energy drift %.3g J of %.3g J", f, c.FreqExpected, 100*(f/c.FreqExpected-1), mean, c.SagExpected, 100*(mean/c.SagExpected-1), drift, kinMax)
	if math.Abs(f/c.FreqExpected-1) > 0.03 {
		t.Errorf("first bending frequency %.4f Hz, Euler–Bernoulli %.4f Hz: more than 3 %% apart", f, c.FreqExpected)
	}
	if math.Abs(mean/c.SagExpected-1) > 0.03 {
		t.Errorf("static sag %.5f m, Euler–Bernoulli %.5f m: more than 3 %% apart", mean, c.SagExpected)
	}
	if !(kinMax > 0) || drift > 0.01*kinMax {
		t.Errorf("energy drifts by %.3g J, more than 1 %% of the vibration's %.3g J", drift, kinMax)
	}
}

// buildBeamScene builds the beam scene with its defaults in an app stepping 10 ms with cfg, and
// returns the app, the cantilever's body and its Cantilever component.
func buildBeamScene(t *testing.T, cfg physics.Config) (*ecs.App, *physics.ReducedDeformable, Cantilever) {
	t.Helper()
	sc, err := Lookup("beam")
	if err != nil {
		t.Fatal(err)
	}
	app, err := ecs.NewApp(0.01, 1)
	if err != nil {
		t.Fatal(err)
	}
	if err := app.AddPlugin(physics.NewPlugin(cfg)); err != nil {
		t.Fatal(err)
	}
	if err := sc.Build(app.World, sc.Defaults); err != nil {
		t.Fatal(err)
	}
	q, err := ecs.NewQuery2[physics.ReducedDeformable, Cantilever](app.World)
	if err != nil {
		t.Fatal(err)
	}
	var d *physics.ReducedDeformable
	var c Cantilever
	_ = q.Each(func(_ ecs.Entity, b *physics.ReducedDeformable, cc *Cantilever) { d, c = b, *cc })
	if d == nil {
		t.Fatal("the beam scene has no Cantilever")
	}
	return app, d, c
}

// TestBeamTipLoad checks the beam scene's body — the modal model the step uses, with the scene's
// modes — against Euler–Bernoulli's PL³/(3EI) for a small vertical load P shared equally by the
// free end's vertices: its static tip deflection within 3 %. The model's static answer is read
// through the body's public state alone: setting z to each unit vector gives mode k's shape Φ_k
// at the surface vertices (the deformed positions less the rest ones) and ω_k² (twice the elastic
// energy), and the static modal coordinates are z_k = Φ_kᵀ f / ω_k².
func TestBeamTipLoad(t *testing.T) {
	_, d, c := buildBeamScene(t, physics.DefaultConfig())
	const load = 1.0 // N, downwards: a 6 mm deflection, far inside the linear range
	rest := d.SurfaceVertices(nil)
	var end []int
	for i, p := range rest {
		if p[0] > beamLength/2-1e-9 {
			end = append(end, i)
		}
	}
	if want := (beamAcross + 1) * (beamAcross + 1); len(end) != want {
		t.Fatalf("%d surface vertices on the free end, want %d", len(end), want)
	}
	r := len(d.Modal(nil))
	z, zd := make([]float64, r), make([]float64, r)
	shape := make([]mgl64.Vec3, len(rest))
	tip := 0.0
	for k := 0; k < r; k++ {
		clear(z)
		z[k] = 1
		if err := d.SetModalState(z, zd); err != nil {
			t.Fatal(err)
		}
		shape = d.SurfaceVertices(shape)
		omega2 := 2 * d.ElasticEnergy()
		if !(omega2 > 0) {
			t.Fatalf("mode %d: ω² = %v", k, omega2)
		}
		work := 0.0 // Φ_kᵀ f for the load −P/n ẑ at each of the n end vertices
		for _, i := range end {
			work -= (shape[i][2] - rest[i][2]) * load / float64(len(end))
		}
		tip -= (shape[c.Tip][2] - rest[c.Tip][2]) * work / omega2
	}
	want := load * math.Pow(beamLength, 3) / (3 * beamMaterial.Young * math.Pow(beamSide, 4) / 12)
	t.Logf("tip deflection under %.3g N: %.5g m, beam theory %.5g m (%+.2f %%)", load, tip, want, 100*(tip/want-1))
	if math.Abs(tip/want-1) > 0.03 {
		t.Errorf("tip deflection %.5g m under %.3g N, Euler–Bernoulli PL³/3EI %.5g m: more than 3 %% apart", tip, load, want)
	}
}
