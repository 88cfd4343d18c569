package physics

import "math"

// combineFriction is the friction coefficient of a contact between two bodies: the geometric mean
// √(μa μb). It lies between the two, equals μ when both bodies share it, and is zero when either
// surface is frictionless (ice on anything slides).
func combineFriction(a, b float64) float64 { return math.Sqrt(a * b) }

// combineRestitution is the restitution coefficient of a contact between two bodies: the larger of
// the two, so that a bouncy ball bounces on any floor.
func combineRestitution(a, b float64) float64 { return max(a, b) }
