package collide

import (
	"fmt"
	"math"

	"github.com/go-gl/mathgl/mgl64"
)

// FieldError reports invalid input. Field names the offending field or argument, for example
// "Box.HalfExtents.y"; Reason says what was expected and what was found.
type FieldError struct {
	Field  string
	Reason string
}

// Error implements error, e.g. "collide: Box.HalfExtents.y must be finite and > 0, got -1".
func (e *FieldError) Error() string {
	return "collide: " + e.Field + " " + e.Reason
}

// fieldErrorf builds a *FieldError for field with a formatted reason.
func fieldErrorf(field, format string, args ...any) error {
	return &FieldError{Field: field, Reason: fmt.Sprintf(format, args...)}
}

// isFinite reports whether x is neither NaN nor ±Inf.
func isFinite(x float64) bool {
	return !math.IsNaN(x) && !math.IsInf(x, 0)
}

// isFiniteVec reports whether every component of v is finite.
func isFiniteVec(v mgl64.Vec3) bool {
	return isFinite(v[0]) && isFinite(v[1]) && isFinite(v[2])
}

// checkPositive refuses a value that is not finite and strictly positive.
func checkPositive(field string, x float64) error {
	if !isFinite(x) || x <= 0 {
		return fieldErrorf(field, "must be finite and > 0, got %v", x)
	}
	return nil
}

// checkNonNegative refuses a value that is not finite and >= 0.
func checkNonNegative(field string, x float64) error {
	if !isFinite(x) || x < 0 {
		return fieldErrorf(field, "must be finite and >= 0, got %v", x)
	}
	return nil
}

// checkFiniteVec refuses a vector with a non-finite component, naming the component.
func checkFiniteVec(field string, v mgl64.Vec3) error {
	for i := 0; i < 3; i++ {
		if !isFinite(v[i]) {
			return fieldErrorf(field+"."+axisName(i), "must be finite, got %v", v[i])
		}
	}
	return nil
}

// checkDensity refuses a density that is not finite and > 0.
func checkDensity(density float64) error {
	return checkPositive("density", density)
}

// axisName names component i (0, 1, 2) of a vector in error messages.
func axisName(i int) string {
	return "xyz"[i : i+1]
}
