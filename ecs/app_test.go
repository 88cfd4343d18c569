package ecs

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// recorder returns a system that appends name to log.
func recorder(log *[]string, name string) System {
	return func(*World) error {
		*log = append(*log, name)
		return nil
	}
}

func newTestApp(t *testing.T, step float64, maxSteps int) *App {
	t.Helper()
	a, err := NewApp(step, maxSteps)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func TestStageString(t *testing.T) {
	want := map[Stage]string{Startup: "Startup", PreUpdate: "PreUpdate", FixedUpdate: "FixedUpdate", PostUpdate: "PostUpdate", Stage(9): "Stage(9)", Stage(-1): "Stage(-1)"}
	for s, name := range want {
		if s.String() != name {
			t.Errorf("Stage(%d).String() = %q, want %q", int(s), s.String(), name)
		}
	}
}

func TestUpdateRunsStagesAndSystemsInOrder(t *testing.T) {
	a := newTestApp(t, 0.01, 10)
	var log []string
	// Added deliberately out of stage order.
	add := func(s Stage, name string) {
		if err := a.AddSystem(s, name, recorder(&log, name)); err != nil {
			t.Fatal(err)
		}
	}
	add(PostUpdate, "post1")
	add(FixedUpdate, "fix1")
	add(PreUpdate, "pre1")
	add(Startup, "start1")
	add(FixedUpdate, "fix2")
	add(PostUpdate, "post2")
	add(Startup, "start2")
	add(PreUpdate, "pre2")

	if err := a.Update(0.025); err != nil {
		t.Fatal(err)
	}
	want := []string{"start1", "start2", "pre1", "pre2", "fix1", "fix2", "fix1", "fix2", "post1", "post2"}
	if !slices.Equal(log, want) {
		t.Fatalf("first update ran %v, want %v", log, want)
	}

	log = nil
	if err := a.Update(0.005); err != nil { // completes one step with the carried half
		t.Fatal(err)
	}
	want = []string{"pre1", "pre2", "fix1", "fix2", "post1", "post2"}
	if !slices.Equal(log, want) {
		t.Fatalf("second update ran %v, want %v (Startup must not rerun)", log, want)
	}

	log = nil
	if err := a.Update(0.001); err != nil {
		t.Fatal(err)
	}
	if want = []string{"pre1", "pre2", "post1", "post2"}; !slices.Equal(log, want) {
		t.Fatalf("update without a fixed step ran %v, want %v", log, want)
	}
}

func TestStartupRunsOnce(t *testing.T) {
	a := newTestApp(t, 0.01, 1)
	runs := 0
	_ = a.AddSystem(Startup, "init", func(*World) error { runs++; return nil })
	for range 5 {
		if err := a.Update(0.01); err != nil {
			t.Fatal(err)
		}
	}
	if err := a.StepFixed(); err != nil {
		t.Fatal(err)
	}
	if runs != 1 {
		t.Fatalf("Startup ran %d times, want 1", runs)
	}
	// A Startup system added later runs once, at the next update.
	late := 0
	_ = a.AddSystem(Startup, "late", func(*World) error { late++; return nil })
	_ = a.Update(0)
	_ = a.Update(0)
	if runs != 1 || late != 1 {
		t.Fatalf("after late add: init %d, late %d; want 1, 1", runs, late)
	}
}

func TestSystemErrorStopsUpdateAndIsWrapped(t *testing.T) {
	a := newTestApp(t, 0.01, 10)
	var log []string
	boom := errors.New("boom")
	calls := 0
	_ = a.AddSystem(PreUpdate, "pre", recorder(&log, "pre"))
	_ = a.AddSystem(FixedUpdate, "fix-a", recorder(&log, "fix-a"))
	_ = a.AddSystem(FixedUpdate, "explode", func(*World) error {
		calls++
		if calls == 2 {
			return boom
		}
		return nil
	})
	_ = a.AddSystem(FixedUpdate, "fix-c", recorder(&log, "fix-c"))
	_ = a.AddSystem(PostUpdate, "post", recorder(&log, "post"))

	err := a.Update(0.045) // owes 4 steps; the second fails
	if !errors.Is(err, boom) {
		t.Fatalf("Update = %v, want wrapped boom", err)
	}
	msg := err.Error()
	if !strings.Contains(msg, "FixedUpdate") || !strings.Contains(msg, `"explode"`) {
		t.Fatalf("error %q does not name stage and system", msg)
	}
	want := []string{"pre", "fix-a", "fix-c", "fix-a"}
	if !slices.Equal(log, want) {
		t.Fatalf("ran %v, want %v", log, want)
	}
	// Two steps started, two never ran and count as dropped.
	if a.Clock.Ticks() != 2 || a.Clock.Dropped() != 2 {
		t.Fatalf("Ticks/Dropped = %d/%d, want 2/2", a.Clock.Ticks(), a.Clock.Dropped())
	}

	// Startup errors are wrapped the same way and stop before PreUpdate.
	b := newTestApp(t, 0.01, 1)
	log = nil
	_ = b.AddSystem(Startup, "bad-start", func(*World) error { return boom })
	_ = b.AddSystem(PreUpdate, "pre", recorder(&log, "pre"))
	err = b.Update(0.01)
	if !errors.Is(err, boom) || !strings.Contains(err.Error(), "Startup") || !strings.Contains(err.Error(), "bad-start") {
		t.Fatalf("startup error = %v", err)
	}
	if len(log) != 0 {
		t.Fatalf("systems ran after a Startup error: %v", log)
	}
}

func TestAddSystemValidation(t *testing.T) {
	a := newTestApp(t, 0.01, 1)
	nop := func(*World) error { return nil }
	if err := a.AddSystem(PreUpdate, "", nop); err == nil {
		t.Error("empty name accepted")
	}
	if err := a.AddSystem(PreUpdate, "nil", nil); err == nil {
		t.Error("nil system accepted")
	}
	if err := a.AddSystem(Stage(42), "bad-stage", nop); err == nil {
		t.Error("invalid stage accepted")
	}
	if err := a.AddSystem(PreUpdate, "x", nop); err != nil {
		t.Fatal(err)
	}
	if err := a.AddSystem(PostUpdate, "x", nop); err == nil {
		t.Error("duplicate name in another stage accepted")
	}
	if err := a.AddSystem(PreUpdate, "x", nop); err == nil {
		t.Error("duplicate name accepted")
	}
}

func TestFixedTimeUpdatedPerFixedStep(t *testing.T) {
	a := newTestApp(t, 0.01, 10)
	type seen struct {
		stage Stage
		ft    FixedTime
	}
	var log []seen
	observe := func(s Stage) System {
		return func(w *World) error {
			ft, ok := GetResource[FixedTime](w)
			if !ok {
				return errors.New("FixedTime missing")
			}
			log = append(log, seen{s, *ft})
			return nil
		}
	}
	_ = a.AddSystem(PreUpdate, "pre", observe(PreUpdate))
	_ = a.AddSystem(FixedUpdate, "fix", observe(FixedUpdate))
	_ = a.AddSystem(PostUpdate, "post", observe(PostUpdate))

	if err := a.Update(0.035); err != nil {
		t.Fatal(err)
	}
	wantTicks := []struct {
		stage Stage
		tick  uint64
	}{{PreUpdate, 0}, {FixedUpdate, 0}, {FixedUpdate, 1}, {FixedUpdate, 2}, {PostUpdate, 2}}
	if len(log) != len(wantTicks) {
		t.Fatalf("observed %d system runs, want %d: %v", len(log), len(wantTicks), log)
	}
	for i, w := range wantTicks {
		got := log[i]
		if got.stage != w.stage || got.ft.Tick != w.tick || got.ft.Step != 0.01 {
			t.Errorf("run %d: %v %+v, want stage %v tick %d step 0.01", i, got.stage, got.ft, w.stage, w.tick)
		}
		if d := got.ft.Alpha - 0.5; d > 1e-9 || d < -1e-9 {
			t.Errorf("run %d: Alpha %v, want 0.5", i, got.ft.Alpha)
		}
	}

	log = nil
	if err := a.StepFixed(); err != nil {
		t.Fatal(err)
	}
	if len(log) != 3 || log[0].ft.Tick != 2 || log[1].ft.Tick != 3 || log[2].ft.Tick != 3 {
		t.Fatalf("StepFixed observed %+v, want ticks 2, 3, 3", log)
	}
	if a.Clock.Ticks() != 4 {
		t.Fatalf("Ticks = %d, want 4", a.Clock.Ticks())
	}
	log = nil
	if err := a.Update(0.005); err != nil { // carried 0.005 + 0.005 = one step
		t.Fatal(err)
	}
	if len(log) != 3 || log[1].stage != FixedUpdate || log[1].ft.Tick != 4 {
		t.Fatalf("after StepFixed, Update observed %+v, want fixed tick 4", log)
	}
}

func TestStepFixedRunsOneStepIgnoringFrameTime(t *testing.T) {
	a := newTestApp(t, 0.5, 1)
	var log []string
	_ = a.AddSystem(Startup, "s", recorder(&log, "s"))
	_ = a.AddSystem(PreUpdate, "pre", recorder(&log, "pre"))
	_ = a.AddSystem(FixedUpdate, "fix", recorder(&log, "fix"))
	_ = a.AddSystem(PostUpdate, "post", recorder(&log, "post"))
	for range 2 {
		if err := a.StepFixed(); err != nil {
			t.Fatal(err)
		}
	}
	want := []string{"s", "pre", "fix", "post", "pre", "fix", "post"}
	if !slices.Equal(log, want) {
		t.Fatalf("ran %v, want %v", log, want)
	}
	if a.Clock.Ticks() != 2 || a.Clock.Alpha() != 0 {
		t.Fatalf("Ticks %d Alpha %v, want 2, 0", a.Clock.Ticks(), a.Clock.Alpha())
	}
}

func TestUpdateInvalidFrameRunsNothing(t *testing.T) {
	a := newTestApp(t, 0.01, 1)
	ran := false
	_ = a.AddSystem(Startup, "s", func(*World) error { ran = true; return nil })
	if err := a.Update(-1); err == nil {
		t.Fatal("negative frame accepted")
	}
	if ran {
		t.Fatal("systems ran for an invalid frame")
	}
}

func TestAppMisuse(t *testing.T) {
	if _, err := NewApp(0, 1); err == nil {
		t.Error("NewApp(0, 1) succeeded")
	}
	if _, err := NewApp(0.01, 0); err == nil {
		t.Error("NewApp(0.01, 0) succeeded")
	}
	var zero App
	if zero.Update(0.01) == nil || zero.StepFixed() == nil {
		t.Error("zero App ran")
	}
	a := newTestApp(t, 0.01, 1)
	var inner error
	_ = a.AddSystem(PreUpdate, "reenter", func(*World) error { inner = a.Update(0.01); return nil })
	if err := a.Update(0.01); err != nil {
		t.Fatal(err)
	}
	if inner == nil {
		t.Fatal("re-entrant Update was accepted")
	}
	// The App is usable again after the re-entrant call was refused.
	if err := a.Update(0.01); err != nil {
		t.Fatal(err)
	}
}

func TestUpdateIsAllocationFree(t *testing.T) {
	a := newTestApp(t, 0.01, 4)
	steps := 0
	_ = a.AddSystem(FixedUpdate, "count", func(*World) error { steps++; return nil })
	_ = a.Update(0.02) // runs Startup and creates everything lazily
	if allocs := testing.AllocsPerRun(100, func() { _ = a.Update(0.02) }); allocs != 0 {
		t.Fatalf("Update: %v allocs per run, want 0", allocs)
	}
	if steps < 200 {
		t.Fatalf("fixed systems ran %d times, want >= 200", steps)
	}
}
