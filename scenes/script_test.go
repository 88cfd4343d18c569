package scenes

import (
	"errors"
	"testing"

	"github.com/stagger-physics/stagger/ecs"
)

// Advance runs each cue once, in order, before the first step that starts at or after its time
// (rounding of k·h included), reports whether it acted, and does nothing on a world the scene was
// not built in.
func TestAdvanceRunsEachCueOnce(t *testing.T) {
	var ran []float64
	cueAt := func(at float64) cue {
		return cue{at: at, act: func(*ecs.World, Params) error { ran = append(ran, at); return nil }}
	}
	sc := Scene{
		Name: "scripted", Defaults: Params{N: 1},
		build:  func(*ecs.World, Params) error { return nil },
		script: []cue{cueAt(0.05), cueAt(0.05), cueAt(0.3)},
	}
	if got := sc.ScriptEnd(); got != 0.3 {
		t.Errorf("ScriptEnd %v, want 0.3", got)
	}
	w := ecs.NewWorld()
	if _, err := sc.Advance(w, sc.Defaults, 0); err == nil {
		t.Error("Advance on a world the scene was not built in: no error")
	}
	if err := sc.Build(w, sc.Defaults); err != nil {
		t.Fatal(err)
	}
	const h = 0.01
	var acted []int
	for k := 0; k < 30; k++ {
		changed, err := sc.Advance(w, sc.Defaults, float64(k)*h)
		if err != nil {
			t.Fatal(err)
		}
		if changed {
			acted = append(acted, k)
		}
	}
	if len(acted) != 1 || acted[0] != 5 || len(ran) != 2 {
		t.Errorf("up to 0.29 s: Advance reported changes before steps %v and ran %v; want [5] and both cues at 0.05 s", acted, ran)
	}
	// A caller that sums its steps may arrive a rounding short of the cue's time.
	if changed, err := sc.Advance(w, sc.Defaults, 0.3-1e-12); err != nil || !changed {
		t.Errorf("at 0.3 s less a rounding: changed %v, err %v", changed, err)
	}
	if changed, _ := sc.Advance(w, sc.Defaults, 10); changed {
		t.Error("Advance acted after the script's end")
	}
	if len(ran) != 3 || ran[0] != 0.05 || ran[1] != 0.05 || ran[2] != 0.3 {
		t.Errorf("cues ran %v, want [0.05 0.05 0.3]", ran)
	}
	// Building again starts the script over.
	if err := sc.Build(w, sc.Defaults); err != nil {
		t.Fatal(err)
	}
	if changed, err := sc.Advance(w, sc.Defaults, 1); err != nil || !changed || len(ran) != 6 {
		t.Errorf("after a rebuild: changed %v, err %v, %d cues run in all; want true, nil, 6", changed, err, len(ran))
	}
}

// A failing cue is reported with the scene's name and is not run again.
func TestAdvanceReportsAFailingCue(t *testing.T) {
	calls := 0
	sc := Scene{
		Name: "failing", Defaults: Params{N: 1},
		build: func(*ecs.World, Params) error { return nil },
		script: []cue{{at: 0, act: func(*ecs.World, Params) error {
			calls++
			return errors.New("no room")
		}}},
	}
	w := ecs.NewWorld()
	if err := sc.Build(w, sc.Defaults); err != nil {
		t.Fatal(err)
	}
	if _, err := sc.Advance(w, sc.Defaults, 0); err == nil || err.Error() != "scenes: failing: at t = 0 s: no room" {
		t.Errorf("error %v", err)
	}
	if _, err := sc.Advance(w, sc.Defaults, 0.01); err != nil || calls != 1 {
		t.Errorf("second Advance: err %v, cue run %d times; want nil, 1", err, calls)
	}
}

// A scene without a script never acts, and Advance allocates nothing on a step with nothing due.
func TestAdvanceIdleAllocatesNothing(t *testing.T) {
	sc, err := Lookup("impact")
	if err != nil {
		t.Fatal(err)
	}
	w := newSceneApp(t, sc, sc.Defaults).World
	if n := testing.AllocsPerRun(100, func() {
		if changed, err := sc.Advance(w, sc.Defaults, 0.5); changed || err != nil {
			t.Fatalf("before the drop: changed %v, err %v", changed, err)
		}
	}); n != 0 {
		t.Errorf("an idle Advance allocates %v times", n)
	}
	plain, err := Lookup("cardhouse")
	if err != nil {
		t.Fatal(err)
	}
	if changed, err := plain.Advance(w, plain.Defaults, 5); changed || err != nil || plain.ScriptEnd() != 0 {
		t.Errorf("cardhouse: Advance changed %v, err %v, ScriptEnd %v", changed, err, plain.ScriptEnd())
	}
}
