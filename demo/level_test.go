package main

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/stagger-physics/stagger/collide"
	"github.com/stagger-physics/stagger/demo/headless"
	"github.com/stagger-physics/stagger/ecs"
	"github.com/stagger-physics/stagger/physics"
)

// levelRun is a level built without a window: its world and its progress.
type levelRun struct {
	t    *testing.T
	app  *ecs.App
	sim  *physics.Simulation
	prog *progress
	time float64
	dt   float64
}

// startLevel builds level l headless, as the window builds it (the scene's defaults, the level's
// size), with the demo's physics settings.
func startLevel(t *testing.T, l level) *levelRun {
	t.Helper()
	o := headless.DefaultOptions()
	o.Scene = l.scene
	set := map[string]bool{}
	if l.n > 0 {
		o.N, set["n"] = l.n, true
	}
	sc, params, err := o.Resolve(set)
	if err != nil {
		t.Fatal(err)
	}
	app, err := ecs.NewApp(o.Dt, 1)
	if err != nil {
		t.Fatal(err)
	}
	if err := app.AddPlugin(physics.NewPlugin(o.PhysicsConfig())); err != nil {
		t.Fatal(err)
	}
	if err := sc.Build(app.World, params); err != nil {
		t.Fatal(err)
	}
	prog, err := newProgress(l, app.World)
	if err != nil {
		t.Fatal(err)
	}
	sim, _ := physics.SimulationOf(app.World)
	return &levelRun{t: t, app: app, sim: sim, prog: prog, dt: o.Dt}
}

// run steps for seconds of simulated time, evaluating the goal after every step as the window
// does every frame.
func (r *levelRun) run(seconds float64) {
	r.t.Helper()
	for i := 0; i < int(math.Round(seconds/r.dt)); i++ {
		if err := r.app.StepFixed(); err != nil {
			r.t.Fatal(err)
		}
		r.time += r.dt
		r.prog.update(r.app.World, r.time)
	}
}

// centre is the middle of the structure's pieces at the start.
func (r *levelRun) centre() mgl64.Vec3 {
	var c mgl64.Vec3
	for _, pc := range r.prog.pieces {
		c = c.Add(mgl64.Vec3(pc.start).Mul(1 / float64(len(r.prog.pieces))))
	}
	return c
}

// eye is where the window's camera looks from, in the physics frame: 15 m from at, from the
// direction frameScene uses (scene (9, 12, 14), that is physics (9, −14, 12)).
func eye(at mgl64.Vec3) mgl64.Vec3 {
	return at.Add(mgl64.Vec3{9, -14, 12}.Normalize().Mul(15))
}

// throwFrom throws p from the point from at the point at, at the speed of a click held for held
// seconds, and counts the throw.
func (r *levelRun) throwFrom(p projectile, from, at mgl64.Vec3, held float64) {
	r.t.Helper()
	e, err := throwAlong(r.app.World, r.sim, p, from, at.Sub(from).Normalize(), throwSpeed(held))
	if err != nil {
		r.t.Fatal(err)
	}
	r.prog.recordThrow(e, r.time)
}

// TestLevelsStandAtRest: every level left alone for 3 s of simulated time is still being played,
// its goal not met at any step (for a level of goalStand: nothing displaced).
func TestLevelsStandAtRest(t *testing.T) {
	for _, l := range levels {
		r := startLevel(t, l)
		for i := 0; i < 300; i++ {
			r.run(r.dt)
			if r.prog.state != playing || r.prog.metSince >= 0 || r.prog.displaced > 0 {
				t.Fatalf("%s at rest, t = %.2f s: state %v, goal met since %v, %d displaced, top %.3f of %.3f m",
					l.title, r.time, r.prog.state, r.prog.metSince, r.prog.displaced, r.prog.top, r.prog.startTop)
			}
		}
		// The jelly blocks start 0.3 m above their boxes and fall onto them: only the rigid
		// structures must keep their top.
		if d := r.prog.startTop - r.prog.top; l.goal != goalKnockOff && math.Abs(d) > 0.01 {
			t.Errorf("%s at rest: its top moved by %.4f m", l.title, d)
		}
	}
}

// TestToppleLevelsComeDown plays the levels of goalTopple headless: throws from where the camera
// looks at the structure's middle, 3 s apart, must bring each down (its top below half its
// height) within two throws, scored by the throws used. The control: a throw that lands 6 m to
// the side leaves the card house standing and the level in play.
func TestToppleLevelsComeDown(t *testing.T) {
	for _, tc := range []struct {
		title string
		p     projectile
	}{
		{"Card house", projectiles[0]},
		{"Tower", projectiles[0]},
		{"Catenary arch", projectiles[2]},
		{"Springboard", projectiles[0]},
	} {
		l := levels[levelIndex(t, tc.title)]
		if l.goal != goalTopple {
			t.Fatalf("%s: goal %v", l.title, l.goal)
		}
		r := startLevel(t, l)
		r.run(0.5)
		for r.prog.state == playing && r.prog.throws < 2 {
			r.throwFrom(tc.p, eye(r.centre()), r.centre(), 1)
			r.run(3)
		}
		if r.prog.state != won || r.prog.top >= toppleHeight*r.prog.startTop {
			t.Errorf("%s: %v after %d throws of a %s, top %.2f of %.2f m", l.title, r.prog.state, r.prog.throws,
				tc.p.name, r.prog.top, r.prog.startTop)
		}
		want := 3
		if r.prog.throws > l.par3 {
			want = 2
		}
		if r.prog.stars() != want {
			t.Errorf("%s: won in %d throws with %d stars, want %d", l.title, r.prog.throws, r.prog.stars(), want)
		}
	}
	l := levels[levelIndex(t, "Card house")]
	r := startLevel(t, l)
	r.run(0.5)
	r.throwFrom(projectiles[2], eye(r.centre()), r.centre().Add(mgl64.Vec3{6, 0, -r.centre()[2]}), 1)
	r.run(4)
	if r.prog.state != playing || r.prog.displaced > 0 || r.prog.top < 0.99*r.prog.startTop {
		t.Errorf("a throw 6 m wide of the card house: %v, %d displaced, top %.2f of %.2f m", r.prog.state,
			r.prog.displaced, r.prog.top, r.prog.startTop)
	}
}

// TestTargetLevel: in the pyramid, a light ball thrown low at the top cube's upper half knocks it
// off, and the level is won with three stars while two thirds of the rest stands; a heavy ball
// thrown into the pyramid's middle brings the rest down, and the level is lost.
func TestTargetLevel(t *testing.T) {
	l := levels[levelIndex(t, "Pyramid's top")]
	r := startLevel(t, l)
	top := mgl64.Vec3(r.prog.pieces[r.prog.target].start)
	if top[2] < r.centre()[2] || r.prog.startTop-top[2] > 0.51 {
		t.Fatalf("the target at %v is not the top cube (structure top %.2f m)", top, r.prog.startTop)
	}
	r.run(0.5)
	at := top.Add(mgl64.Vec3{0, 0, 0.3})
	r.throwFrom(projectiles[0], at.Add(mgl64.Vec3{9, -14, 3}.Normalize().Mul(15)), at, 0)
	r.run(3)
	tb, _ := ecs.Get[physics.RigidBody](r.app.World, r.prog.pieces[r.prog.target].entity)
	if r.prog.state != won || r.prog.stars() != 3 || tb.Position.Sub(top).Len() < 1 {
		t.Errorf("a ball at the top cube: %v, %d stars, target moved %.2f m, %d others displaced",
			r.prog.state, r.prog.stars(), tb.Position.Sub(top).Len(), r.prog.displaced)
	}
	r = startLevel(t, l)
	r.run(0.5)
	r.throwFrom(projectiles[2], eye(r.centre()), r.centre(), 1)
	r.run(3)
	if r.prog.state != lost || float64(r.prog.displaced) <= othersAllowed*float64(len(r.prog.pieces)-1) {
		t.Errorf("a heavy ball into the pyramid's middle: %v with %d of %d others displaced", r.prog.state,
			r.prog.displaced, len(r.prog.pieces)-1)
	}
}

// TestStandLevel: dropping the level's weights one by one on the middle of the stack's top holds
// them all, and the level is won with three stars once they settle; the stack's heavy middle
// cube does not give way. The control: a heavy ball thrown at the top cube knocks it off, and the
// level is lost.
func TestStandLevel(t *testing.T) {
	l := levels[levelIndex(t, "Heavy middle")]
	r := startLevel(t, l)
	r.run(0.5)
	for r.prog.canThrow() {
		at := mgl64.Vec3{r.centre()[0], r.centre()[1], r.prog.startTop}
		from := eye(r.centre())
		e, err := dropWeight(r.app.World, r.sim, from, at.Sub(from).Normalize())
		if err != nil {
			t.Fatal(err)
		}
		r.prog.recordThrow(e, r.time)
		r.run(1.5)
	}
	if len(r.prog.weights) != l.weights || r.prog.state != playing {
		t.Fatalf("%d weights dropped of %d, state %v", len(r.prog.weights), l.weights, r.prog.state)
	}
	r.run(settleTime)
	if r.prog.state != won || r.prog.held != l.weights || r.prog.stars() != 3 {
		t.Errorf("weights dropped on the top: %v, %d held, %d stars", r.prog.state, r.prog.held, r.prog.stars())
	}
	for _, e := range r.prog.weights {
		if b, _ := ecs.Get[physics.RigidBody](r.app.World, e); b.Position[2] < r.prog.startTop {
			t.Errorf("a weight rests at %v, below the stack's top %.2f m", b.Position, r.prog.startTop)
		}
	}
	r = startLevel(t, l)
	r.run(0.5)
	r.throwFrom(projectiles[2], eye(r.centre()), mgl64.Vec3(r.prog.pieces[2].start), 1)
	r.run(2)
	if r.prog.state != lost {
		t.Errorf("a heavy ball at the top cube: %v, %d displaced", r.prog.state, r.prog.displaced)
	}
}

// TestKnockOffLevel plays the jelly level headless: a throw of the light ball from where
// the camera looks, aimed at each block's centre in turn, 2.5 s apart, must knock every block off
// its box within the level's throws, and the level is won once they all stay off for holdTime.
// The control: as many throws aimed 6 m to the side of the blocks leave every block on its box
// and the level in play.
func TestKnockOffLevel(t *testing.T) {
	l := levels[levelIndex(t, "Jelly")]
	r := startLevel(t, l)
	r.run(1)
	p := projectiles[0] // the light ball
	for _, b := range r.prog.blocks {
		if r.prog.state != playing {
			break
		}
		d, _ := ecs.Get[physics.ReducedDeformable](r.app.World, b.entity)
		at := d.Position
		r.throwFrom(p, eye(at), at, 1)
		r.run(2.5)
		t.Logf("throw %d: %d off, state %v", r.prog.throws, r.prog.off, r.prog.state)
	}
	r.run(holdTime + 0.1)
	if r.prog.state != won || r.prog.off != len(r.prog.blocks) || r.prog.stars() != 3 {
		t.Errorf("a %s at each block: %v after %d throws, %d of %d blocks off, %d stars", p.name, r.prog.state,
			r.prog.throws, r.prog.off, len(r.prog.blocks), r.prog.stars())
	}
	for _, b := range r.prog.blocks {
		d, _ := ecs.Get[physics.ReducedDeformable](r.app.World, b.entity)
		pb, _ := ecs.Get[physics.RigidBody](r.app.World, b.pedestal)
		if top := b.shape.Bounds(collide.Pose{Position: pb.Position, Rotation: pb.Orientation}).Max[2]; d.Position[2] > top+0.1 {
			t.Errorf("a block knocked off rests at %v, above its box's top %.2f m", d.Position, top)
		}
	}

	r = startLevel(t, l)
	r.run(1)
	for _, b := range r.prog.blocks {
		d, _ := ecs.Get[physics.ReducedDeformable](r.app.World, b.entity)
		at := d.Position.Add(mgl64.Vec3{6, 0, 0})
		at[2] = 0
		r.throwFrom(p, eye(at), at, 1)
		r.run(0.5)
	}
	r.run(holdTime + 1)
	if r.prog.state != playing || r.prog.off != 0 || r.prog.metSince >= 0 {
		t.Errorf("throws 6 m wide of the blocks: %v, %d off", r.prog.state, r.prog.off)
	}
}

// levelIndex returns the index of the level titled title.
func levelIndex(t *testing.T, title string) int {
	t.Helper()
	for i, l := range levels {
		if l.title == title {
			return i
		}
	}
	t.Fatalf("no level %q", title)
	return -1
}
