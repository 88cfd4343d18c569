package physics

import (
	"github.com/go-gl/mathgl/mgl64"
)

// StandardGravity is g on Earth's surface, m/s², pointing down (−z).
const StandardGravity = 9.80665

// Config holds the settings of the simulation. The step length h is the ecs.App's fixed step.
type Config struct {
	// Gravity is the acceleration of free fall in the world frame, m/s².
	Gravity mgl64.Vec3
}

// DefaultConfig returns Earth gravity along −z.
func DefaultConfig() Config {
	return Config{Gravity: mgl64.Vec3{0, 0, -StandardGravity}}
}

// Validate reports a config value the simulation cannot use.
func (c Config) Validate() error {
	if !finiteVec(c.Gravity) {
		return fieldError("Config.Gravity", "must be finite, got %v", c.Gravity)
	}
	return nil
}
