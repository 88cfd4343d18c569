package deform

import "fmt"

// Material is a homogeneous, isotropic, linear elastic material.
type Material struct {
	// Young is Young's modulus E, Pa; Poisson is Poisson's ratio ν, in (−1, 0.5); Density ρ,
	// kg/m³.
	Young, Poisson, Density float64
}

// Validate refuses a material that is not finite and in range, naming the field.
func (m Material) Validate() error {
	switch {
	case !(m.Young > 0) || !finite(m.Young):
		return fmt.Errorf("deform: Material.Young: must be finite and > 0, got %v", m.Young)
	case !(m.Poisson > -1 && m.Poisson < 0.5):
		return fmt.Errorf("deform: Material.Poisson: must be in (−1, 0.5), got %v", m.Poisson)
	case !(m.Density > 0) || !finite(m.Density):
		return fmt.Errorf("deform: Material.Density: must be finite and > 0, got %v", m.Density)
	}
	return nil
}

// lame returns the Lamé parameters λ = Eν/((1+ν)(1−2ν)) and μ = E/(2(1+ν)).
func (m Material) lame() (lambda, mu float64) {
	e, nu := m.Young, m.Poisson
	return e * nu / ((1 + nu) * (1 - 2*nu)), e / (2 * (1 + nu))
}
