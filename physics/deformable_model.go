package physics

import (
	"errors"
	"math"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/stagger-physics/stagger/collide"
	"github.com/stagger-physics/stagger/deform"
	"github.com/stagger-physics/stagger/ecs"
)

// deformableModel is the BodyModel of a reduced deformable body: a deform.ModalBody (a linear modal
// model on a floating frame) with its 6 + r DoFs (v, ω, ż), and what the step keeps of it from
// step to step — its surface samples and their contacts' impulses, for the warm start. It lives as
// long as its ReducedDeformable component and is reached through it.
type deformableModel struct {
	body reducedBody
	n    int // 6 + r, or r for a held body
	mass float64
	// held is the deform.HeldBody of an anchored body (nil for a free one): its frame does not
	// move, and its generalised velocity is ż alone.
	held *deform.HeldBody

	// surface lists the mesh vertices that are the body's contact samples and the rendered surface's
	// vertices; a sample's id is its index here. triangles index into surface.
	surface   []int32
	triangles [][3]int32
	// samples are the samples' deformed world positions at the start of the step.
	samples []mgl64.Vec3
	// contacts are this step's contacts of the samples: those with colliders sorted by (proxy,
	// sample), then from peers on (deformable_pair.go), those with other deformables' surfaces,
	// sorted by (other body, sample). prev and prevPeers are the last step's, kept for the warm
	// start.
	contacts, prev   []deformContact
	peers, prevPeers int
	// tree bounds the surface triangles for the contacts between deformables (deform.BDTree);
	// sweep (m) and box are the step's bound on any sample's motion and its samples' bounds
	// fattened by the margin and sweep.
	tree  *deform.BDTree
	depth float64 // peerDepth of the surface
	sweep float64
	box   collide.AABB
	// key is what the samples, sweep, box and tree were last computed from, and same whether this
	// step's are the same (deformable_reuse.go). colliders and peerKeys list the colliders and
	// deformables whose contacts with the body this step computed or kept, in the order found;
	// prevColliders and prevPeerKeys are the last step's.
	key                      sampleKey
	same                     bool
	colliders, prevColliders []colliderKey
	peerKeys, prevPeerKeys   []ecs.Entity

	// Scratch, sized at creation: the mass block and its Cholesky factor, a point Jacobian, and the
	// state Displace edits.
	massBuf, chol []float64
	jac           []float64
	state, saved  deform.ModalState
	// err is the last refusal of the modal body (PredictVelocity or Advance), which only a
	// non-finite state can cause.
	err error
}

// reducedBody is what the step needs of a reduced deformable's modal model: deform.ModalBody for a
// free body, deform.HeldBody for one held at some of its vertices. Vectors have DoFs() entries and
// Jacobians 3 × DoFs().
type reducedBody interface {
	DoFs() int
	NumModes() int
	Mass() float64
	MassMatrix(dst []float64)
	EffectiveMass(dst []float64) error
	PointJacobian(p deform.MaterialPoint, dst []float64) error
	SurfaceTree(vertices []int32, triangles [][3]int32, leafSize int) (*deform.BDTree, error)
	Position(p deform.MaterialPoint) (mgl64.Vec3, error)
	VertexMotion(a int, qdot []float64) (x, v mgl64.Vec3, err error)
	PredictVelocity(h float64, g mgl64.Vec3, dst []float64) error
	Advance(h float64, qdot, impulse []float64) error
	State(dst *deform.ModalState)
	SetState(s deform.ModalState) error
	Velocity(dst []float64)
	KineticEnergy() float64
	ElasticEnergy() float64
	CentreOfMass() mgl64.Vec3
	LinearMomentum() mgl64.Vec3
	AngularMomentum() mgl64.Vec3
}

// newDeformableModel wraps body, whose surface samples are the mesh vertices surface.
func newDeformableModel(body reducedBody, surface []int32, triangles [][3]int32) *deformableModel {
	n, r := body.DoFs(), body.NumModes()
	held, _ := body.(*deform.HeldBody)
	return &deformableModel{
		body: body, n: n, mass: body.Mass(), held: held, surface: surface, triangles: triangles,
		samples: make([]mgl64.Vec3, len(surface)),
		massBuf: make([]float64, n*n), chol: make([]float64, n*n), jac: make([]float64, 3*n),
		state: deform.ModalState{Z: make([]float64, r), ZDot: make([]float64, r)},
		saved: deform.ModalState{Z: make([]float64, r), ZDot: make([]float64, r)},
	}
}

// gravityWork returns the potential energy, J, that the generalised displacement dq adds in
// gravity g: −m g·dx for a free body (the modes do not move its centre of mass), −g·R Σ_a m_a Φ_a dz
// for a held one.
func (d *deformableModel) gravityWork(g mgl64.Vec3, dq []float64) float64 {
	if d.held != nil {
		return -g.Dot(d.held.MomentShift(dq))
	}
	return -d.mass * (g[0]*dq[0] + g[1]*dq[1] + g[2]*dq[2])
}

// DoFs implements BodyModel: 6 + r.
func (d *deformableModel) DoFs() int { return d.n }

// MassBlock implements BodyModel: the effective mass of the modal body's prepared step
// (deform.ModalBody.EffectiveMass, modal_step.go), the matrix through which the velocity that
// moves the body responds to an impulse — not the kinetic mass M(z), whose modal block the
// implicit midpoint step does not follow. Before a step is prepared (or when PredictVelocity
// refused a non-finite state) it is M(z).
func (d *deformableModel) MassBlock(dst []float64) {
	if d.err != nil || d.body.EffectiveMass(dst) != nil {
		d.body.MassMatrix(dst)
	}
}

// InverseMassBlock implements BodyModel: MassBlock's matrix inverted by a Cholesky factorisation
// M = L Lᵀ, then M⁻¹ = L⁻ᵀ L⁻¹, of which only the upper triangle is computed and mirrored, so that
// the block is exactly symmetric. The matrix is positive definite for any configuration that is
// not flattened.
func (d *deformableModel) InverseMassBlock(dst []float64) {
	n := d.n
	d.MassBlock(d.massBuf)
	l := d.chol
	clear(l)
	for j := 0; j < n; j++ {
		s := d.massBuf[j*n+j]
		for k := 0; k < j; k++ {
			s -= l[j*n+k] * l[j*n+k]
		}
		// A non-positive pivot (a degenerate body) leaves a non-finite entry, which the solver's
		// validation refuses and the island is held (failed.go).
		ljj := math.Sqrt(s)
		l[j*n+j] = ljj
		for i := j + 1; i < n; i++ {
			s := d.massBuf[i*n+j]
			for k := 0; k < j; k++ {
				s -= l[i*n+k] * l[j*n+k]
			}
			l[i*n+j] = s / ljj
		}
	}
	// Column j of L⁻¹ solves L x = e_j, with x_i = 0 for i < j; keep L⁻¹ in dst's lower triangle.
	inv := dst
	clear(inv[:n*n])
	for j := 0; j < n; j++ {
		inv[j*n+j] = 1 / l[j*n+j]
		for i := j + 1; i < n; i++ {
			s := 0.0
			for k := j; k < i; k++ {
				s -= l[i*n+k] * inv[k*n+j]
			}
			inv[i*n+j] = s / l[i*n+i]
		}
	}
	// (M⁻¹)_ij = Σ_k (L⁻¹)_ki (L⁻¹)_kj over k ≥ max(i, j); L⁻¹ is copied to the scratch first so that
	// dst can be overwritten.
	copy(l, inv[:n*n])
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			s := 0.0
			for k := j; k < n; k++ {
				s += l[k*n+i] * l[k*n+j]
			}
			dst[i*n+j] = s
			dst[j*n+i] = s
		}
	}
}

// PointJacobian implements BodyModel for the material point nearest p among the surface samples
// (contacts name their sample and use sampleRows instead).
func (d *deformableModel) PointJacobian(p mgl64.Vec3, dst []float64) {
	best, bestD := 0, math.Inf(1)
	for i, s := range d.samples {
		if dd := s.Sub(p).LenSqr(); dd < bestD {
			best, bestD = i, dd
		}
	}
	// The vertex is the mesh's own, so the modal body cannot refuse it.
	_ = d.body.PointJacobian(deform.VertexPoint(int(d.surface[best])), dst)
}

// sampleRows writes sign·uᵀJ_s for the directions u = dirs[0..2], each a row of 6 + r, with J_s the
// point Jacobian of surface sample s: the contact rows of the deformable side (contact_stage.go).
func (d *deformableModel) sampleRows(s int32, dirs *[3]mgl64.Vec3, sign float64, dst []float64) {
	n := d.n
	_ = d.body.PointJacobian(deform.VertexPoint(int(d.surface[s])), d.jac)
	for r, u := range dirs {
		row := dst[r*n : (r+1)*n]
		for c := 0; c < n; c++ {
			row[c] = sign * (u[0]*d.jac[c] + u[1]*d.jac[n+c] + u[2]*d.jac[2*n+c])
		}
	}
}

// faceRows writes sign·uᵀJ_f for the directions u = dirs[0..2], each a row of 6 + r, with J_f the
// point Jacobian of the material point of surface triangle face with barycentric weights bary —
// the weights' combination of its three vertices' Jacobians: the contact rows of a deformable
// side that is a point of its surface rather than a sample (deformable_pair.go).
func (d *deformableModel) faceRows(face int32, bary *[3]float64, dirs *[3]mgl64.Vec3, sign float64, dst []float64) {
	n := d.n
	tri := d.triangles[face]
	pt := deform.MaterialPoint{
		Vertices: [4]int32{d.surface[tri[0]], d.surface[tri[1]], d.surface[tri[2]]},
		Weights:  [4]float64{bary[0], bary[1], bary[2]},
	}
	// The vertices are the mesh's own and the weights finite, so the modal body cannot refuse it.
	_ = d.body.PointJacobian(pt, d.jac)
	for r, u := range dirs {
		row := dst[r*n : (r+1)*n]
		for c := 0; c < n; c++ {
			row[c] = sign * (u[0]*d.jac[c] + u[1]*d.jac[n+c] + u[2]*d.jac[2*n+c])
		}
	}
}

// PredictVelocity implements BodyModel: the modal body's IMEX predictor (paper §8, eq. 12).
func (d *deformableModel) PredictVelocity(h float64, g mgl64.Vec3, dst []float64) {
	if d.err = d.body.PredictVelocity(h, g, dst); d.err != nil {
		// Only a non-finite state gets here; the step's velocity is then the current one, and
		// Advance reports the failure.
		d.body.Velocity(dst)
	}
}

// Advance implements BodyModel.
func (d *deformableModel) Advance(h float64, qdot, impulse []float64) {
	if d.err != nil {
		return
	}
	d.err = d.body.Advance(h, qdot, impulse)
}

// Displace implements BodyModel: the frame of a free body moves by dq's linear part and turns by the Cayley map of
// its angular part (a world rotation vector), and the modal coordinates move by its modal part.
// The velocities keep their body-frame values, as a rigid body's do (rigidModel.Displace).
func (d *deformableModel) Displace(dq []float64) {
	st := &d.state
	d.body.State(st)
	if d.held != nil {
		// Only the modes move.
		for k := range st.Z {
			st.Z[k] += dq[k]
		}
		if err := d.body.SetState(*st); err != nil {
			d.err = err
		}
		return
	}
	st.Position = st.Position.Add(mgl64.Vec3{dq[0], dq[1], dq[2]})
	q := st.Orientation
	wBody := q.Conjugate().Rotate(st.AngularVelocity)
	turn := q.Conjugate().Rotate(mgl64.Vec3{dq[3], dq[4], dq[5]})
	st.Orientation = normalizeQuat(q.Mul(cayleyRotation(turn)))
	st.AngularVelocity = st.Orientation.Rotate(wBody)
	for k := range st.Z {
		st.Z[k] += dq[6+k]
	}
	if err := d.body.SetState(*st); err != nil {
		d.err = err
	}
}

// Velocity implements BodyModel.
func (d *deformableModel) Velocity(dst []float64) { d.body.Velocity(dst) }

// sampleSpeeds refreshes the samples' world positions and returns the largest speed, m/s, any of
// them has with the generalised velocity qdot.
func (d *deformableModel) sampleSpeeds(qdot []float64) float64 {
	fastest := 0.0
	for i, a := range d.surface {
		// The vertex is the mesh's own and qdot the body's, so the modal body cannot refuse them.
		x, v, _ := d.body.VertexMotion(int(a), qdot)
		d.samples[i] = x
		fastest = max(fastest, v.Len())
	}
	return fastest
}

// errNonFinite is a deformable model's record of an update that came out non-finite.
var errNonFinite = errors.New("physics: deformable state not finite")

// finite reports whether the model's whole state is finite.
func (d *deformableModel) finite() bool {
	st := &d.state
	d.body.State(st)
	if !finiteVec(st.Position) || !finiteQuat(st.Orientation) || !finiteVec(st.LinearVelocity) || !finiteVec(st.AngularVelocity) {
		return false
	}
	return finiteSlice(st.Z) && finiteSlice(st.ZDot)
}
