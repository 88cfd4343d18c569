package deform

import (
	"fmt"

	"github.com/go-gl/mathgl/mgl64"
)

// VertexMotion returns vertex a's deformed world position, as Position gives it, and its world
// velocity J_a q̇ for the generalised velocity qdot (6 + r entries, v, ω, ż), as the product of
// PointJacobian with qdot gives it: the same products summed in the same order, less the
// Jacobian's zero entries, so that both agree with those to the bit but for the sign of a zero.
// It takes one deformed position where Position and PointJacobian take two, and no Jacobian. It
// refuses a vertex out of range and a short qdot.
func (b *ModalBody) VertexMotion(a int, qdot []float64) (x, v mgl64.Vec3, err error) {
	n := 6 + b.r
	switch {
	case a < 0 || a >= b.nv:
		return x, v, fmt.Errorf("deform: ModalBody.VertexMotion a: %d out of range [0, %d)", a, b.nv)
	case len(qdot) < n:
		return x, v, fmt.Errorf("deform: ModalBody.VertexMotion qdot: needs %d entries, got %d", n, len(qdot))
	}
	d := b.rotation.Mul3x1(b.local(VertexPoint(a)))
	x = b.position.Add(d)
	// J = [I₃ | −[d]× | R Φ_a], row by row as PointJacobian lays it out.
	v[0] = qdot[0] + d[2]*qdot[4] + -d[1]*qdot[5]
	v[1] = qdot[1] + -d[2]*qdot[3] + d[0]*qdot[5]
	v[2] = qdot[2] + d[1]*qdot[3] + -d[0]*qdot[4]
	addModes(&v, &b.rotation, b.phi[3*a*b.r:], b.r, qdot[6:])
	return x, v, nil
}

// VertexMotion returns vertex a's deformed world position, as Position gives it, and its world
// velocity R Φ_a ż for the modal velocity qdot (r entries), as the product of PointJacobian with
// qdot gives it, to the bit but for the sign of a zero. It refuses a vertex out of range and a
// short qdot.
func (b *HeldBody) VertexMotion(a int, qdot []float64) (x, v mgl64.Vec3, err error) {
	switch {
	case a < 0 || a >= b.nv:
		return x, v, fmt.Errorf("deform: HeldBody.VertexMotion a: %d out of range [0, %d)", a, b.nv)
	case len(qdot) < b.r:
		return x, v, fmt.Errorf("deform: HeldBody.VertexMotion qdot: needs %d entries, got %d", b.r, len(qdot))
	}
	if x, err = b.Position(VertexPoint(a)); err != nil {
		return x, v, err
	}
	addModes(&v, &b.rotation, b.phi[3*a*b.r:], b.r, qdot)
	return x, v, nil
}

// addModes adds Σ_k (R φ_k) ż_k to v, k in increasing order for each component, with φ_k the
// vertex's mode k (row holds its three rows of r entries) and ż = zdot.
func addModes(v *mgl64.Vec3, rot *mgl64.Mat3, row []float64, r int, zdot []float64) {
	for k := 0; k < r; k++ {
		world := rot.Mul3x1(mgl64.Vec3{row[k], row[r+k], row[2*r+k]})
		v[0] += world[0] * zdot[k]
		v[1] += world[1] * zdot[k]
		v[2] += world[2] * zdot[k]
	}
}
