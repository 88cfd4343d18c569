package plugin

import "github.com/g3n/engine/core"

// Visual is the component that links an entity to a g3n node. After every frame the node's
// position and orientation equal the entity's RigidBody pose (converted to the scene frame). The
// node's scale and children are the game's.
type Visual struct {
	Node core.INode
}
