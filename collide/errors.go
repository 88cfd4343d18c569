package collide

import (
	"errors"
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

// checkShape refuses a nil shape and one that fails its Validate method: the zero value of a
// ConvexHull, TriangleMesh or SDFGrid (not built by its constructor), a Sphere of radius 0, a nil
// *Box. The error names the argument arg and, in parentheses, the shape's field.
func checkShape(arg string, s Shape) error {
	if s == nil {
		return fieldErrorf(arg, "must not be nil")
	}
	var err error
	switch v := s.(type) {
	case *Sphere:
		err = v.Validate()
	case *Box:
		err = v.Validate()
	case *Capsule:
		err = v.Validate()
	case *Cylinder:
		err = v.Validate()
	case *HalfSpace:
		err = v.Validate()
	case *ConvexHull:
		err = v.Validate()
	case *TriangleMesh:
		err = v.Validate()
	case *SDFGrid:
		err = v.Validate()
	case interface{ Validate() error }:
		err = v.Validate()
	}
	if err == nil {
		return nil
	}
	var fe *FieldError
	if errors.As(err, &fe) {
		return &FieldError{Field: arg + " (" + fe.Field + ")", Reason: fe.Reason}
	}
	return fieldErrorf(arg, "is invalid: %v", err)
}

// pointDistance is the signed distance and normal of the local point p from the single point at
// the local origin: how the methods of an unbuilt (zero) ConvexHull, TriangleMesh or SDFGrid
// answer, like a Sphere of radius 0.
func pointDistance(p mgl64.Vec3) (float64, mgl64.Vec3) {
	if hasNaN(p) {
		return math.Inf(1), mgl64.Vec3{0, 0, 1}
	}
	return length(p), unitOr(p, mgl64.Vec3{0, 0, 1})
}

// checkIndex panics, as indexing a slice does but naming the method, if i is not in [0, n).
func checkIndex(method string, i, n int) {
	if i < 0 || i >= n {
		panic(fmt.Sprintf("collide: %s: index %d out of range [0, %d)", method, i, n))
	}
}

// checkDensity refuses a density that is not finite and > 0.
func checkDensity(density float64) error {
	return checkPositive("density", density)
}

// axisName names component i (0, 1, 2) of a vector in error messages.
func axisName(i int) string {
	return "xyz"[i : i+1]
}
