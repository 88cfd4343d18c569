package ecs

import "reflect"

// SetResource stores v as w's resource of type T, replacing any previous value. An existing
// resource is overwritten in place, so pointers returned by GetResource stay valid and see the new
// value. It does nothing if w is nil.
func SetResource[T any](w *World, v T) {
	if w == nil {
		return
	}
	t := reflect.TypeFor[T]()
	if p, ok := w.resources[t]; ok {
		*p.(*T) = v
		return
	}
	if w.resources == nil {
		w.resources = make(map[reflect.Type]any)
	}
	p := new(T)
	*p = v
	w.resources[t] = p
}

// GetResource returns a pointer to w's resource of type T, and false if there is none. Writes
// through the pointer update the stored resource. The pointer stays valid until RemoveResource
// removes T's resource.
func GetResource[T any](w *World) (*T, bool) {
	if w == nil {
		return nil, false
	}
	p, ok := w.resources[reflect.TypeFor[T]()]
	if !ok {
		return nil, false
	}
	return p.(*T), true
}

// RemoveResource removes w's resource of type T, if any. Pointers obtained earlier keep the old
// value but are no longer connected to w.
func RemoveResource[T any](w *World) {
	if w == nil {
		return
	}
	delete(w.resources, reflect.TypeFor[T]())
}
