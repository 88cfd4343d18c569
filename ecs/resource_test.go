package ecs

import "testing"

type gravity struct{ G float64 }

func TestResources(t *testing.T) {
	w := NewWorld()
	if _, ok := GetResource[gravity](w); ok {
		t.Fatal("resource present before SetResource")
	}
	SetResource(w, gravity{G: 9.81})
	p, ok := GetResource[gravity](w)
	if !ok || p.G != 9.81 {
		t.Fatalf("GetResource = %v %v", p, ok)
	}
	p.G = 1.62
	if q, _ := GetResource[gravity](w); q.G != 1.62 {
		t.Fatalf("write through pointer lost: %v", q)
	}
	SetResource(w, gravity{G: 3.7})
	if p.G != 3.7 {
		t.Fatalf("SetResource did not replace in place: old pointer sees %v", p.G)
	}
	// Distinct types are distinct resources, including pointer and interface types.
	SetResource(w, &gravity{G: 1})
	SetResource[any](w, "x")
	if q, _ := GetResource[gravity](w); q.G != 3.7 {
		t.Fatalf("pointer resource overwrote value resource: %v", q)
	}
	if q, ok := GetResource[*gravity](w); !ok || (*q).G != 1 {
		t.Fatal("pointer-typed resource missing")
	}
	if q, ok := GetResource[any](w); !ok || *q != "x" {
		t.Fatal("interface-typed resource missing")
	}
	RemoveResource[gravity](w)
	if _, ok := GetResource[gravity](w); ok {
		t.Fatal("resource present after RemoveResource")
	}
	if _, ok := GetResource[*gravity](w); !ok {
		t.Fatal("RemoveResource removed another type")
	}
	RemoveResource[gravity](w) // removing again is harmless
}
