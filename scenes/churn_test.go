package scenes

import (
	"testing"

	"github.com/stagger-physics/stagger/ecs"
	"github.com/stagger-physics/stagger/physics"
)

// The churn scene at n = 50 keeps spawning five crates every 0.01 s where they overlap nothing and
// removes each 10 spawns after its own: after 0.3 s there are never more than 50 crates alive, the
// oldest alive is at most 0.1 s old, and the scene reported a change before every step. Nothing is
// non-finite or penetrates deeper than 5 mm (sceneRun.step), so no crate was spawned inside another.
func TestChurnSpawnsAndRemovesCrates(t *testing.T) {
	sc, err := Lookup("churn")
	if err != nil {
		t.Fatal(err)
	}
	p := sc.Defaults
	p.N = 50
	r := &sceneRun{t: t, sc: sc, p: p, app: newSceneApp(t, sc, p), known: map[ecs.Entity]bool{}}
	r.sim, _ = physics.SimulationOf(r.app.World)
	q, err := ecs.NewQuery1[physics.RigidBody](r.app.World)
	if err != nil {
		t.Fatal(err)
	}
	most := 0
	for r.now() < 0.3-testStep/2 {
		changed, err := sc.Advance(r.app.World, p, r.now())
		if err != nil {
			t.Fatal(err)
		}
		if !changed {
			t.Fatalf("at %.2f s the script did nothing", r.now())
		}
		r.step()
		live := 0
		_ = q.Each(func(_ ecs.Entity, b *physics.RigidBody) {
			if b.Kind == physics.Dynamic {
				live++
			}
		})
		if live > p.N {
			t.Fatalf("at %.2f s %d crates alive, want at most %d", r.now(), live, p.N)
		}
		most = max(most, live)
	}
	if most < p.N-churnPerStep {
		t.Errorf("at most %d crates alive at once, want about %d", most, p.N)
	}
	crates, _ := ecs.GetResource[churnCrates](r.app.World)
	if oldest := crates.born[0]; r.steps-1-oldest >= p.N/churnPerStep {
		t.Errorf("the oldest crate alive was spawned %d actions ago, want fewer than %d", r.steps-1-oldest, p.N/churnPerStep)
	}
}
