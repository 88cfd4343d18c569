package physics

import (
	"reflect"

	"github.com/stagger-physics/stagger/collide"
)

// Collider is the component that gives a body its collision shape. The shape is placed in the
// body's frame: its local origin is the body's centre of mass. Shapes whose own centre of mass is
// off their origin are refused for dynamic bodies (see prepareMass).
//
// A shape is treated as immutable once attached: it is validated when it first enters the
// simulation, and again only if Shape is replaced. Shapes may be shared between colliders.
//
// Layer and Mask filter which colliders meet (docs/architecture.md, Layers, sensors and
// filters): two colliders are tested for contact only when each one's Layer shares a bit with
// the other's Mask. The zero values keep everything colliding with everything: Layer 0 means
// DefaultLayer and Mask 0 means AllLayers. The game may change Layer, Mask and Sensor at any
// time; the next step uses the new values.
type Collider struct {
	Shape collide.Shape

	// Layer is the set of layers (bits) the collider belongs to; 0 means DefaultLayer.
	Layer uint32
	// Mask is the set of layers the collider collides with (and, for a sensor, detects); 0
	// means AllLayers.
	Mask uint32
	// Sensor makes the collider a trigger volume: it takes no part in the solve (nothing
	// pushes it and it pushes nothing) and reports, through ecs.Events[SensorEvent], when
	// another collider starts and stops overlapping it. See SensorEvent.
	Sensor bool

	validated collide.Shape // the shape last validated, so a step need not recheck it
	// dynamicOK is the shape last found fit for a dynamic body (validateDynamicShape).
	dynamicOK collide.Shape
}

// validateDynamic checks that the collider's shape can be a dynamic body's, once per shape.
func (c *Collider) validateDynamic() error {
	comparable := reflect.TypeOf(c.Shape).Comparable()
	if comparable && c.Shape == c.dynamicOK {
		return nil
	}
	if err := validateDynamicShape(c.Shape); err != nil {
		return err
	}
	if comparable {
		c.dynamicOK = c.Shape
	}
	return nil
}

// DefaultLayer is the layer of a Collider whose Layer is 0.
const DefaultLayer uint32 = 1

// AllLayers is the mask with every layer, the meaning of a zero Collider.Mask and of a zero
// QueryFilter.Mask.
const AllLayers uint32 = collide.AllLayers

// layers returns the collider's layer and mask with the zero values replaced by their meaning.
func (c *Collider) layers() (layer, mask uint32) { return layersOrDefault(c.Layer, c.Mask) }

// layersOrDefault returns layer and mask with their zero values replaced by their meaning:
// DefaultLayer and AllLayers.
func layersOrDefault(layer, mask uint32) (uint32, uint32) {
	if layer == 0 {
		layer = DefaultLayer
	}
	if mask == 0 {
		mask = AllLayers
	}
	return layer, mask
}

// validator is implemented by shapes that can re-check themselves (every collide shape does).
type validator interface{ Validate() error }

// validate checks that the collider has a valid shape, once per shape.
func (c *Collider) validate() error {
	if c.Shape == nil {
		return fieldError("Collider.Shape", "must not be nil")
	}
	comparable := reflect.TypeOf(c.Shape).Comparable()
	if comparable && c.Shape == c.validated {
		return nil
	}
	if v, ok := c.Shape.(validator); ok {
		if err := v.Validate(); err != nil {
			return fieldError("Collider.Shape", "%v", err)
		}
	}
	if comparable {
		c.validated = c.Shape
	}
	return nil
}
