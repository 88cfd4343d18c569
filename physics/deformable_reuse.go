package physics

import (
	"slices"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/stagger-physics/stagger/collide"
	"github.com/stagger-physics/stagger/ecs"
)

// Reuse of a deformable's contacts while nothing they depend on has changed (docs/architecture.md,
// Deformable bodies). A deformable's samples, sweep and box are functions of its configuration
// (frame and z), its predicted velocity q̇ᴾ, the step length and the margin; its contacts with a
// collider add the collider's pose, shape and sweep; its contacts with another deformable add that
// body's samples, sweep and BD-tree, itself a function of its configuration. A sleeping body's
// configuration and q̇ᴾ repeat exactly from step to step (a step that puts it to sleep leaves it
// where its contacts were found, sleeping.go), so its samples, its contacts with still colliders
// and with other sleeping deformables come out of the narrow phase as they went in. They are kept
// instead: the result is the same to the bit, since everything a kept contact was computed from is
// compared exactly, and the contact is listed and warm-started as a computed one would be.

// sampleKey is what a deformable's samples, sweep and box were last computed from.
type sampleKey struct {
	valid           bool
	h, margin       float64
	position        mgl64.Vec3
	orientation     mgl64.Quat
	z, qdot         []float64
	treePosition    mgl64.Vec3 // the configuration the BD-tree was last refitted to, if treeValid
	treeValid       bool
	treeOrientation mgl64.Quat
	treeZ           []float64
}

// colliderKey is what a deformable's contacts with one collider were computed from.
type colliderKey struct {
	proxy  collide.ProxyID
	entity ecs.Entity
	pose   collide.Pose
	shape  collide.Shape
	sweep  float64
}

// refreshKey compares the model's configuration st, predicted velocity qdot, step length h and
// margin with those its samples were last computed from, records them if they differ, and reports
// whether they were the same (the samples, sweep and box still hold).
func (m *deformableModel) refreshKey(h, margin float64, qdot []float64) bool {
	st, k := &m.state, &m.key
	m.body.State(st)
	if k.valid && k.h == h && k.margin == margin && k.position == st.Position && k.orientation == st.Orientation &&
		slices.Equal(k.z, st.Z) && slices.Equal(k.qdot, qdot) {
		return true
	}
	k.valid, k.h, k.margin = true, h, margin
	k.position, k.orientation = st.Position, st.Orientation
	k.z = append(k.z[:0], st.Z...)
	k.qdot = append(k.qdot[:0], qdot...)
	return false
}

// fitTree refits the model's BD-tree to its configuration m.state (set by refreshKey) unless it
// was last refitted to the same one, and reports whether the tree holds the configuration. Only a
// non-finite state is refused, which the step's checks keep out.
func (m *deformableModel) fitTree() bool {
	st, k := &m.state, &m.key
	if k.treeValid && k.treePosition == st.Position && k.treeOrientation == st.Orientation && slices.Equal(k.treeZ, st.Z) {
		return true
	}
	k.treeValid = m.tree.Refit(st.Position, st.Orientation, st.Z) == nil
	if k.treeValid {
		k.treePosition, k.treeOrientation = st.Position, st.Orientation
		k.treeZ = append(k.treeZ[:0], st.Z...)
	}
	return k.treeValid
}

// forget drops what the model remembers of the inputs of its samples, tree and contacts, so that
// the next step computes them all: a restore puts back contacts that other inputs gave.
func (m *deformableModel) forget() {
	m.key.valid, m.key.treeValid = false, false
	m.colliders, m.prevColliders = m.colliders[:0], m.prevColliders[:0]
	m.peerKeys, m.prevPeerKeys = m.peerKeys[:0], m.prevPeerKeys[:0]
}

// keptCollider reports whether the model's contacts with collider cb (entry id) may be kept from
// the last step: the model is unchanged (same) and the last step computed them from the collider at
// the same pose, shape and sweep. at is the caller's cursor in prevColliders, which is sorted by
// proxy as the candidates are; it is advanced past id.
func (m *deformableModel) keptCollider(same bool, id collide.ProxyID, cb *collisionBody, at *int) bool {
	pc := m.prevColliders
	for *at < len(pc) && pc[*at].proxy < id {
		*at++
	}
	if !same || *at >= len(pc) || pc[*at].proxy != id {
		return false
	}
	k := &pc[*at]
	*at++
	return k.entity == cb.entity && k.pose == cb.pose && k.sweep == cb.sweep && sameShape(k.shape, cb.shape)
}

// testedPeer reports whether the last step computed the model's contacts with deformable e (both
// ways).
func (m *deformableModel) testedPeer(e ecs.Entity) bool {
	for _, p := range m.prevPeerKeys {
		if p == e {
			return true
		}
	}
	return false
}
