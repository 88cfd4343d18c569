package ecs

import (
	"errors"
	"fmt"
	"reflect"
)

// Plugin bundles the setup of a feature: it registers component types, sets resources and adds
// systems to an App when the App builds it.
type Plugin interface {
	// Build configures app. It may add other plugins.
	Build(app *App) error
}

// AddPlugin records p and calls p.Build(a), returning Build's error wrapped with p's type.
// Adding a plugin equal (==) to one already added is an error and does not build it again;
// values of non-comparable types are never considered equal. A nil plugin or nil pointer is
// an error. A plugin stays recorded even if its Build fails, because its partial setup stays too.
func (a *App) AddPlugin(p Plugin) error {
	if a == nil {
		return errAppNotReady
	}
	if p == nil {
		return errors.New("ecs: AddPlugin: nil plugin")
	}
	v := reflect.ValueOf(p)
	if v.Kind() == reflect.Pointer && v.IsNil() {
		return fmt.Errorf("ecs: AddPlugin: nil %T", p)
	}
	if v.Comparable() {
		for _, q := range a.plugins {
			if reflect.TypeOf(q) == v.Type() && reflect.ValueOf(q).Comparable() && q == p {
				return fmt.Errorf("ecs: AddPlugin: %T already added", p)
			}
		}
	}
	a.plugins = append(a.plugins, p)
	if err := p.Build(a); err != nil {
		return fmt.Errorf("ecs: plugin %T: %w", p, err)
	}
	return nil
}
