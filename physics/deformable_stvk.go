package physics

import (
	"fmt"

	"github.com/stagger-physics/stagger/deform"
)

// DeformableModel chooses the elastic model of a ReducedDeformable.
type DeformableModel uint8

const (
	// LinearModal is the linear modal model on a floating frame (deform.ModalBody): the r lowest
	// free vibration modes, each a linear spring. It is the zero value.
	LinearModal DeformableModel = iota
	// StVK is the reduced St. Venant–Kirchhoff model on a floating frame
	// (deform.NewFrameStVKBody): the free modes and their modal derivatives, with the cubic
	// reduced StVK force, for large deformation (a bending bar shortens instead of stretching).
	StVK
)

// String returns the model's name.
func (m DeformableModel) String() string {
	switch m {
	case LinearModal:
		return "LinearModal"
	case StVK:
		return "StVK"
	}
	return fmt.Sprintf("DeformableModel(%d)", uint8(m))
}

// checkModel validates Model and Basis (after Modes' default) and sets Basis' default for StVK:
// twice the modes, within the mesh's elastic DoFs and deform.MaxReducedBasis.
func (d *ReducedDeformable) checkModel() error {
	switch d.Model {
	case LinearModal:
		if d.Basis != 0 {
			return fieldError("ReducedDeformable.Basis", "is for the StVK model only; must be 0 for LinearModal, got %d", d.Basis)
		}
		return nil
	case StVK:
	default:
		return fieldError("ReducedDeformable.Model", "must be LinearModal or StVK, got %v", d.Model)
	}
	if len(d.Held) > 0 {
		return fieldError("ReducedDeformable.Model", "StVK bodies must be free (Held empty): a held StVK body is not supported in the step")
	}
	most := min(deform.MaxReducedBasis, 3*d.Mesh.NumVertices()-6)
	if d.Basis == 0 {
		d.Basis = min(2*d.Modes, most)
	}
	if d.Basis < d.Modes || d.Basis > most {
		return fieldError("ReducedDeformable.Basis", "must be in [%d (the modes), %d], got %d", d.Modes, most, d.Basis)
	}
	return nil
}

// stvkBody builds the StVK body of a free deformable from its free modes: the modal derivative
// basis, the reduced StVK coefficients (from the disk cache in CacheDir when it is set) and the
// floating-frame body. It runs at spawn, never in a step.
func (d *ReducedDeformable) stvkBody(mass []float64, modes *deform.Modes) (*deform.ModalBody, error) {
	basis, err := deform.ModalDerivativeBasis(d.Mesh, d.Material, mass, nil, modes, d.Basis)
	if err != nil {
		return nil, fieldError("ReducedDeformable.Mesh", "StVK basis: %v", err)
	}
	var model *deform.ReducedStVK
	if d.CacheDir != "" {
		model, _, err = deform.CachedReducedStVK(d.Mesh, d.Material, basis, d.CacheDir, nil)
		if err != nil {
			return nil, fieldError("ReducedDeformable.CacheDir", "%v", err)
		}
	} else if model, err = deform.NewReducedStVK(d.Mesh, d.Material, basis, nil); err != nil {
		return nil, fieldError("ReducedDeformable.Mesh", "StVK coefficients: %v", err)
	}
	body, err := deform.NewFrameStVKBody(d.Mesh, d.Material, mass, basis, model, d.Alpha, d.Beta)
	if err != nil {
		return nil, fieldError("ReducedDeformable.Mesh", "%v", err)
	}
	return body, nil
}
