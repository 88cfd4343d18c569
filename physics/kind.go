package physics

import "fmt"

// BodyKind says how a body takes part in the simulation.
type BodyKind uint8

const (
	// Dynamic bodies have finite mass and move under gravity, contact and the game's forces and
	// impulses.
	Dynamic BodyKind = iota
	// Kinematic bodies move with the velocities the game gives them and are not pushed by anything
	// (forces and impulses on them are ignored).
	Kinematic
	// Static bodies never move.
	Static
)

// String returns the kind's name.
func (k BodyKind) String() string {
	switch k {
	case Dynamic:
		return "dynamic"
	case Kinematic:
		return "kinematic"
	case Static:
		return "static"
	}
	return fmt.Sprintf("BodyKind(%d)", uint8(k))
}

// valid reports whether k is one of the declared kinds.
func (k BodyKind) valid() bool { return k <= Static }
