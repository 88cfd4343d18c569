package physics

import (
	"fmt"
	"math"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/stagger-physics/stagger/deform"
	"github.com/stagger-physics/stagger/ecs"
)

// DefaultDeformableModes is the number of vibration modes a ReducedDeformable gets when Modes is
// zero.
const DefaultDeformableModes = 10

// Free-mode solve settings at spawn: the subspace iteration's relative tolerance on ω² and its
// iteration bound (deform.FreeModes).
const (
	deformableModeTolerance  = 1e-8
	deformableModeIterations = 300
)

// ReducedDeformable is the component of a reduced deformable body (docs/architecture.md,
// Deformable bodies): a tetrahedral mesh of a linear elastic material whose motion is a floating
// frame — a rigid motion that follows the body's centre of mass and mean rotation — plus its r
// lowest free vibration modes (the Staggered Projections paper's §8) — or, with Model StVK, the
// reduced St. Venant–Kirchhoff model in those modes and their modal derivatives. It falls, collides
// with rigid bodies, static geometry and other deformables through its surface vertices, and is
// solved in the same staggered projection as rigid bodies.
//
// Describe the body in the exported fields (NewDeformableBox fills them for a box) and add it with
// SpawnDeformable, which validates it and computes its modes. Position, Orientation and the
// velocities are those of the frame, as RigidBody's are of a rigid body; the game may set them
// between steps, and the modal state is kept. The mesh's rest centre of mass sits at Position.
type ReducedDeformable struct {
	// Mesh is the rest shape, in the body's own coordinates.
	Mesh *deform.TetMesh
	// Material gives Young's modulus, Poisson's ratio and the density.
	Material deform.Material
	// Modes is the number r of vibration modes; zero means DefaultDeformableModes.
	Modes int
	// Alpha (1/s) and Beta (s) are the Rayleigh damping factors: mode k is damped by
	// α + β ω_k².
	Alpha, Beta float64
	// Held lists mesh vertices held fixed, as a cantilever's root is clamped. Empty: the body is
	// free. Otherwise it is anchored: its frame stays where Position and Orientation put it (its
	// velocities must be zero), its modes are those of the mesh with these vertices held
	// (deform.LowestModes, deform.HeldBody), and only the modes move; the held vertices never do.
	Held []int32
	// Model is the elastic model: LinearModal (the zero value) or StVK, the reduced St.
	// Venant–Kirchhoff model for large deformation, whose coordinates are the Modes free modes and
	// their modal derivatives (free bodies only).
	Model DeformableModel
	// Basis is the StVK model's basis size r, the modes included (its DoFs are 6 + r); zero means
	// twice Modes (at most deform.MaxReducedBasis). It must be zero for LinearModal.
	Basis int
	// CacheDir, if not empty, is the directory of the StVK coefficients' disk cache
	// (deform.CachedReducedStVK): a body of the same mesh, material and basis loads them there
	// instead of computing them. Empty: they are computed at spawn and not stored.
	CacheDir string

	// Position of the centre of mass in the world, m.
	Position mgl64.Vec3
	// Orientation of the floating frame in the world; zero means the identity.
	Orientation mgl64.Quat
	// LinearVelocity of the centre of mass and AngularVelocity of the frame, world frame.
	LinearVelocity, AngularVelocity mgl64.Vec3
	// Friction is the Coulomb coefficient μ ≥ 0 of the body's contacts.
	Friction float64
	// Layer is the set of layers (bits) the body belongs to, as Collider.Layer; 0 means
	// DefaultLayer. Mask is the set of layers it collides with (and is seen by sensors of), as
	// Collider.Mask; 0 means AllLayers. The body meets a collider or another deformable only when
	// each one's Layer shares a bit with the other's Mask (docs/architecture.md, Layers, sensors
	// and filters); the world queries see it when its Layer shares a bit with their
	// QueryFilter.Mask. The game may change both at any time; the next step uses the new values.
	Layer, Mask uint32

	// Sleeping reports that the body rests in a sleeping island, as RigidBody.Sleeping does
	// (docs/architecture.md, Sleeping): its frame and modal velocities are zero, it keeps its
	// deformed shape, and steps leave it in place until something wakes it — an awake body
	// touching its island, its support going away, or the game changing its frame fields, calling
	// SetModalState or setting Sleeping to false. A game may set Sleeping to put the body to sleep
	// where it is, deformed as it is; its velocities are zeroed.
	Sleeping bool

	model *deformableModel
	// written is the frame state the last step wrote, to tell the game's changes apart.
	written deformableFrame
	// sleep is the simulation's record of the body's sleep (deformable_sleep.go).
	sleepState deformableSleep
}

// layers returns the body's layer and mask with the zero values replaced by their meaning, as
// Collider.layers does.
func (d *ReducedDeformable) layers() (layer, mask uint32) { return layersOrDefault(d.Layer, d.Mask) }

// layersMeet reports whether two bodies with these (layer, mask) pairs may meet: each one's layer
// shares a bit with the other's mask.
func layersMeet(layerA, maskA, layerB, maskB uint32) bool {
	return layerA&maskB != 0 && layerB&maskA != 0
}

// deformableFrame is the frame part of a ReducedDeformable's state.
type deformableFrame struct {
	position, linear, angular mgl64.Vec3
	orientation               mgl64.Quat
}

// frame returns d's frame state.
func (d *ReducedDeformable) frame() deformableFrame {
	return deformableFrame{position: d.Position, linear: d.LinearVelocity, angular: d.AngularVelocity, orientation: d.Orientation}
}

// NewDeformableBox returns the description of a box of half-extents half, meshed with cells cells
// along its longest side (and proportionally many, at least one, along the others), of material
// with r modes (zero: DefaultDeformableModes), at rest at the origin, with DefaultFriction. It
// refuses bad extents or a mesh beyond deform.MaxVertices, naming the argument.
func NewDeformableBox(half mgl64.Vec3, cells int, material deform.Material, r int) (ReducedDeformable, error) {
	if cells < 1 {
		return ReducedDeformable{}, fieldError("NewDeformableBox cells", "must be ≥ 1, got %d", cells)
	}
	longest := max(half[0], half[1], half[2])
	var n [3]int
	for i := range n {
		n[i] = 1
		if longest > 0 && finite(half[i]/longest) {
			n[i] = max(1, int(math.Round(float64(cells)*half[i]/longest)))
		}
	}
	mesh, err := deform.NewBoxMesh(half, n[0], n[1], n[2])
	if err != nil {
		return ReducedDeformable{}, fieldError("NewDeformableBox", "%v", err)
	}
	return ReducedDeformable{Mesh: mesh, Material: material, Modes: r, Orientation: mgl64.QuatIdent(), Friction: DefaultFriction}, nil
}

// SpawnDeformable creates an entity carrying d (see AddDeformable).
func SpawnDeformable(w *ecs.World, d ReducedDeformable) (ecs.Entity, error) {
	e := w.Spawn()
	if err := AddDeformable(w, e, d); err != nil {
		_ = w.Despawn(e)
		return ecs.Entity{}, err
	}
	return e, nil
}

// AddDeformable validates d, computes its free vibration modes and reduced mass (deform.FreeModes,
// deform.NewModalBody) and attaches it to e, which must not be a RigidBody. Bad input is refused
// with a *FieldError naming e and the field; nothing is attached then. The mode solve is the
// expensive part: it runs here, once, never in a step.
func AddDeformable(w *ecs.World, e ecs.Entity, d ReducedDeformable) error {
	if !w.Alive(e) {
		return withEntity(e, ecs.ErrDeadEntity)
	}
	if _, ok := ecs.Get[RigidBody](w, e); ok {
		return withEntity(e, fieldError("ReducedDeformable", "the entity already has a RigidBody"))
	}
	if err := d.prepare(); err != nil {
		return withEntity(e, err)
	}
	return ecs.Add(w, e, d)
}

// prepare validates d and builds its model.
func (d *ReducedDeformable) prepare() error {
	if d.Modes == 0 {
		d.Modes = DefaultDeformableModes
	}
	if d.Orientation == (mgl64.Quat{}) {
		d.Orientation = mgl64.QuatIdent()
	}
	switch {
	case d.Mesh == nil:
		return fieldError("ReducedDeformable.Mesh", "is nil")
	case len(d.Held) == 0 && (d.Modes < 1 || d.Modes > 3*d.Mesh.NumVertices()-6):
		return fieldError("ReducedDeformable.Modes", "must be in [1, %d] (3 per vertex less the 6 rigid modes), got %d", 3*d.Mesh.NumVertices()-6, d.Modes)
	case !(d.Alpha >= 0) || !finite(d.Alpha):
		return fieldError("ReducedDeformable.Alpha", "must be finite and ≥ 0, got %v", d.Alpha)
	case !(d.Beta >= 0) || !finite(d.Beta):
		return fieldError("ReducedDeformable.Beta", "must be finite and ≥ 0, got %v", d.Beta)
	}
	if err := d.checkMotion(); err != nil {
		return err
	}
	if err := d.checkModel(); err != nil {
		return err
	}
	if err := d.Material.Validate(); err != nil {
		return fieldError("ReducedDeformable.Material", "%v", err)
	}
	mass := deform.LumpedMass(d.Mesh, d.Material.Density)
	k, err := deform.Stiffness(d.Mesh, d.Material)
	if err != nil {
		return fieldError("ReducedDeformable.Mesh", "%v", err)
	}
	var body reducedBody
	if len(d.Held) > 0 {
		body, err = d.heldBody(k, mass)
		if err != nil {
			return err
		}
	} else {
		modes, err := deform.FreeModes(d.Mesh, k, mass, d.Modes, deformableModeTolerance, deformableModeIterations)
		if err != nil {
			return fieldError("ReducedDeformable.Mesh", "free modes: %v", err)
		}
		if d.Model == StVK {
			if body, err = d.stvkBody(mass, modes); err != nil {
				return err
			}
		} else if body, err = deform.NewModalBody(d.Mesh, mass, modes, d.Alpha, d.Beta); err != nil {
			return fieldError("ReducedDeformable.Mesh", "%v", err)
		}
	}
	surface, triangles := d.Mesh.Surface()
	d.model = newDeformableModel(body, surface, triangles)
	if d.model.tree, err = body.SurfaceTree(surface, triangles, deformLeafSize); err != nil {
		return fieldError("ReducedDeformable.Mesh", "%v", err)
	}
	d.model.depth = peerDepth(d.Mesh, surface, triangles)
	if err := d.model.setFrame(d); err != nil {
		return err
	}
	d.written = d.frame()
	return nil
}

// heldBody validates Held and the frame's velocities of an anchored body and returns its model,
// with the modes of the mesh held at Held.
func (d *ReducedDeformable) heldBody(k *deform.BlockMatrix, mass []float64) (*deform.HeldBody, error) {
	nv := d.Mesh.NumVertices()
	fixed := make([]bool, nv)
	free := nv
	for i, a := range d.Held {
		if a < 0 || int(a) >= nv {
			return nil, fieldError(fmt.Sprintf("ReducedDeformable.Held[%d]", i), "vertex %d out of range [0, %d)", a, nv)
		}
		if !fixed[a] {
			fixed[a] = true
			free--
		}
	}
	switch {
	case free == 0:
		return nil, fieldError("ReducedDeformable.Held", "holds every vertex: nothing can move")
	case d.Modes < 1 || d.Modes > 3*free:
		return nil, fieldError("ReducedDeformable.Modes", "must be in [1, %d] (3 per free vertex), got %d", 3*free, d.Modes)
	case d.LinearVelocity != (mgl64.Vec3{}):
		return nil, fieldError("ReducedDeformable.LinearVelocity", "must be zero for a held body, got %v", d.LinearVelocity)
	case d.AngularVelocity != (mgl64.Vec3{}):
		return nil, fieldError("ReducedDeformable.AngularVelocity", "must be zero for a held body, got %v", d.AngularVelocity)
	}
	modes, err := deform.LowestModes(k, mass, fixed, d.Modes, deformableModeTolerance, deformableModeIterations)
	if err != nil {
		return nil, fieldError("ReducedDeformable.Mesh", "held modes: %v", err)
	}
	body, err := deform.NewHeldBody(d.Mesh, mass, modes, d.Alpha, d.Beta)
	if err != nil {
		return nil, fieldError("ReducedDeformable.Mesh", "%v", err)
	}
	return body, nil
}

// setFrame gives the model d's frame state, keeping the modal state.
func (m *deformableModel) setFrame(d *ReducedDeformable) error {
	st := &m.state
	m.body.State(st)
	st.Position, st.Orientation = d.Position, d.Orientation
	st.LinearVelocity, st.AngularVelocity = d.LinearVelocity, d.AngularVelocity
	if err := m.body.SetState(*st); err != nil {
		return fieldError("ReducedDeformable", "%v", err)
	}
	m.body.State(st)
	d.Orientation = st.Orientation // normalised
	return nil
}

// checkMotion validates the fields a game may change between steps: the frame's pose and
// velocities, and the friction coefficient.
func (d *ReducedDeformable) checkMotion() error {
	switch {
	case !(d.Friction >= 0) || !finite(d.Friction):
		return fieldError("ReducedDeformable.Friction", "must be finite and ≥ 0, got %v", d.Friction)
	case !finiteVec(d.Position):
		return fieldError("ReducedDeformable.Position", "not finite: %v", d.Position)
	case !finiteQuat(d.Orientation):
		return fieldError("ReducedDeformable.Orientation", "not finite: %v", d.Orientation)
	case !finiteVec(d.LinearVelocity):
		return fieldError("ReducedDeformable.LinearVelocity", "not finite: %v", d.LinearVelocity)
	case !finiteVec(d.AngularVelocity):
		return fieldError("ReducedDeformable.AngularVelocity", "not finite: %v", d.AngularVelocity)
	}
	return nil
}

// check validates the frame fields a game may have changed since the last step and hands them to
// the model. It reports whether the game had changed them.
func (d *ReducedDeformable) check() (changed bool, err error) {
	if d.model == nil {
		return false, fieldError("ReducedDeformable", "was not added with AddDeformable or SpawnDeformable")
	}
	if d.frame() == d.written {
		return false, nil
	}
	if d.Orientation == (mgl64.Quat{}) {
		d.Orientation = mgl64.QuatIdent()
	}
	if err := d.checkMotion(); err != nil {
		return false, err
	}
	if err := d.model.setFrame(d); err != nil {
		return false, err
	}
	d.written = d.frame()
	return true, nil
}

// store writes the model's frame state into d if it is finite, and reports whether it wrote.
func (d *ReducedDeformable) store() bool {
	m := d.model
	if m.err != nil {
		return false
	}
	st := &m.state
	m.body.State(st)
	if !finiteVec(st.Position) || !finiteQuat(st.Orientation) || !finiteVec(st.LinearVelocity) || !finiteVec(st.AngularVelocity) {
		return false
	}
	d.Position, d.Orientation = st.Position, st.Orientation
	d.LinearVelocity, d.AngularVelocity = st.LinearVelocity, st.AngularVelocity
	d.written = d.frame()
	return true
}

// Mass returns the body's total mass, kg (zero before it is added).
func (d *ReducedDeformable) Mass() float64 {
	if d.model == nil {
		return 0
	}
	return d.model.mass
}

// Modal appends the modal coordinates z (r entries, m·√kg: the modes are mass-normalised; for
// StVK, the Basis coordinates, the modes first) to dst and returns it. They are the body's deformation; read them, set the frame fields to move it.
func (d *ReducedDeformable) Modal(dst []float64) []float64 {
	if d.model == nil {
		return dst[:0]
	}
	d.model.body.State(&d.model.state)
	return append(dst[:0], d.model.state.Z...)
}

// ModalVelocities appends the modal velocities ż (r entries) to dst and returns it.
func (d *ReducedDeformable) ModalVelocities(dst []float64) []float64 {
	if d.model == nil {
		return dst[:0]
	}
	d.model.body.State(&d.model.state)
	return append(dst[:0], d.model.state.ZDot...)
}

// SurfaceVertices appends the deformed world positions of the mesh's boundary vertices to dst, in
// the order SurfaceTriangles indexes, and returns it.
func (d *ReducedDeformable) SurfaceVertices(dst []mgl64.Vec3) []mgl64.Vec3 {
	dst = dst[:0]
	if d.model == nil {
		return dst
	}
	for _, a := range d.model.surface {
		p, _ := d.model.body.Position(deform.VertexPoint(int(a)))
		dst = append(dst, p)
	}
	return dst
}

// SurfaceTriangles returns the boundary triangles as indices into SurfaceVertices' list, wound
// counter-clockwise seen from outside. The slice is the body's: do not modify it.
func (d *ReducedDeformable) SurfaceTriangles() [][3]int32 {
	if d.model == nil {
		return nil
	}
	return d.model.triangles
}

// KineticEnergy returns ½ q̇ᵀ M(z) q̇, J.
func (d *ReducedDeformable) KineticEnergy() float64 {
	if d.model == nil {
		return 0
	}
	return d.model.body.KineticEnergy()
}

// ElasticEnergy returns the strain energy, J: ½ Σ ω_k² z_k² (LinearModal) or the reduced StVK
// energy W(z) (StVK).
func (d *ReducedDeformable) ElasticEnergy() float64 {
	if d.model == nil {
		return 0
	}
	return d.model.body.ElasticEnergy()
}

// CentreOfMass returns the deformed body's centre of mass, m: Position for a free body, whose
// modes do not move it; for a held body, Position moved by the modes' share.
func (d *ReducedDeformable) CentreOfMass() mgl64.Vec3 {
	if d.model == nil {
		return d.Position
	}
	return d.model.body.CentreOfMass()
}

// LinearMomentum returns Σ m ẋ over the mesh, kg·m/s (m v for a free body).
func (d *ReducedDeformable) LinearMomentum() mgl64.Vec3 {
	if d.model == nil {
		return mgl64.Vec3{}
	}
	return d.model.body.LinearMomentum()
}

// AngularMomentum returns the angular momentum about the world origin, including the modes' share,
// kg·m²/s.
func (d *ReducedDeformable) AngularMomentum() mgl64.Vec3 {
	if d.model == nil {
		return mgl64.Vec3{}
	}
	return d.model.body.AngularMomentum()
}

// SetModalState sets the modal coordinates and velocities (r entries each), to start a body
// deformed or vibrating; it wakes a sleeping body. It refuses wrong lengths and non-finite values, naming the field, and
// changes nothing then.
func (d *ReducedDeformable) SetModalState(z, zdot []float64) error {
	if d.model == nil {
		return fieldError("ReducedDeformable", "was not added with AddDeformable or SpawnDeformable")
	}
	m := d.model
	st := &m.state
	m.body.State(st)
	r := len(st.Z)
	if len(z) != r || len(zdot) != r {
		return fieldError("ReducedDeformable modal state", "needs %d entries each, got %d and %d", r, len(z), len(zdot))
	}
	copy(st.Z, z)
	copy(st.ZDot, zdot)
	if err := m.body.SetState(*st); err != nil {
		return fieldError("ReducedDeformable modal state", "%v", err)
	}
	// A new modal state wakes a sleeping body, as a push wakes a rigid one.
	d.wake()
	return nil
}
