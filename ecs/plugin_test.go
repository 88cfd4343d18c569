package ecs

import (
	"errors"
	"strings"
	"testing"
)

type countingPlugin struct {
	builds *int
	name   string
}

func (p countingPlugin) Build(a *App) error {
	*p.builds++
	return a.AddSystem(PreUpdate, p.name, func(*World) error { return nil })
}

// ptrPlugin has a non-zero size, so that two of them never share an address.
type ptrPlugin struct{ _ byte }

func (p *ptrPlugin) Build(a *App) error { return Register[position](a.World) }

type failingPlugin struct{}

func (failingPlugin) Build(*App) error { return errors.New("no") }

type selfAddingPlugin struct{}

func (p *selfAddingPlugin) Build(a *App) error { return a.AddPlugin(p) }

type holder struct{ v any }

func (holder) Build(*App) error { return nil }

func TestAddPlugin(t *testing.T) {
	a := newTestApp(t, 0.01, 1)
	n := 0
	p := countingPlugin{builds: &n, name: "counting"}
	if err := a.AddPlugin(p); err != nil {
		t.Fatal(err)
	}
	if n != 1 {
		t.Fatalf("Build called %d times", n)
	}
	if err := a.AddPlugin(p); err == nil {
		t.Fatal("adding the same plugin value twice succeeded")
	}
	if n != 1 {
		t.Fatalf("duplicate plugin was built again (%d)", n)
	}
	if err := a.AddPlugin(countingPlugin{builds: &n, name: "other"}); err != nil {
		t.Fatalf("distinct plugin value rejected: %v", err)
	}

	pp := &ptrPlugin{}
	if err := a.AddPlugin(pp); err != nil {
		t.Fatal(err)
	}
	if !Registered[position](a.World) {
		t.Fatal("plugin Build had no effect")
	}
	if err := a.AddPlugin(pp); err == nil {
		t.Fatal("same pointer plugin added twice")
	}
	if err := a.AddPlugin(&ptrPlugin{}); err != nil {
		t.Fatalf("different pointer rejected: %v", err)
	}
}

func TestAddPluginErrors(t *testing.T) {
	a := newTestApp(t, 0.01, 1)
	if err := a.AddPlugin(nil); err == nil {
		t.Error("nil plugin accepted")
	}
	if err := a.AddPlugin((*ptrPlugin)(nil)); err == nil {
		t.Error("nil pointer plugin accepted")
	}
	err := a.AddPlugin(failingPlugin{})
	if err == nil || !strings.Contains(err.Error(), "failingPlugin") {
		t.Errorf("failing Build = %v, want error naming the plugin", err)
	}
	if err := a.AddPlugin(&selfAddingPlugin{}); err == nil {
		t.Error("plugin adding itself recursively was accepted")
	}
	// Values whose == would panic are never equal and never panic.
	if err := a.AddPlugin(holder{v: []int{1}}); err != nil {
		t.Fatal(err)
	}
	if err := a.AddPlugin(holder{v: []int{1}}); err != nil {
		t.Fatalf("non-comparable plugin: %v", err)
	}
	if err := a.AddPlugin(holder{v: 1}); err != nil {
		t.Fatal(err)
	}
	if err := a.AddPlugin(holder{v: 1}); err == nil {
		t.Error("equal comparable holder accepted twice")
	}
}
