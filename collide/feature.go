package collide

import "strconv"

// FeatureType says whether a Feature is a vertex, an edge or a face of its shape.
type FeatureType uint8

// The feature types. FeatureNone marks an unset feature.
const (
	FeatureNone FeatureType = iota
	FeatureVertex
	FeatureEdge
	FeatureFace
)

// String returns "none", "vertex", "edge" or "face".
func (t FeatureType) String() string {
	switch t {
	case FeatureNone:
		return "none"
	case FeatureVertex:
		return "vertex"
	case FeatureEdge:
		return "edge"
	case FeatureFace:
		return "face"
	}
	return "FeatureType(" + strconv.Itoa(int(t)) + ")"
}

// featureIndexBits is the width of a Feature's index; the top two bits hold the type.
const featureIndexBits = 30

// featureIndexMask selects a Feature's index.
const featureIndexMask = 1<<featureIndexBits - 1

// Feature names one vertex, edge or face of one shape: the type in the top two bits, the index
// (numbered per shape type, see each shape's documentation) in the low 30 bits.
type Feature uint32

// VertexFeature returns the feature for vertex i.
func VertexFeature(i int) Feature { return makeFeature(FeatureVertex, i) }

// EdgeFeature returns the feature for edge i.
func EdgeFeature(i int) Feature { return makeFeature(FeatureEdge, i) }

// FaceFeature returns the feature for face i.
func FaceFeature(i int) Feature { return makeFeature(FeatureFace, i) }

// makeFeature packs a type and an index (taken modulo 2³⁰).
func makeFeature(t FeatureType, i int) Feature {
	return Feature(uint32(t)<<featureIndexBits | uint32(i)&featureIndexMask)
}

// Type returns the feature's type.
func (f Feature) Type() FeatureType { return FeatureType(f >> featureIndexBits) }

// Index returns the feature's index within its type.
func (f Feature) Index() int { return int(f & featureIndexMask) }

// String returns e.g. "face 4".
func (f Feature) String() string {
	return f.Type().String() + " " + strconv.Itoa(f.Index())
}

// FeatureID identifies the pair of features that made one contact point: A's feature in the
// high 32 bits, B's in the low 32 bits. It stays the same while the contact persists so the
// solver can match this step's contacts with last step's impulses.
type FeatureID uint64

// MakeFeatureID packs the features of A and B.
func MakeFeatureID(a, b Feature) FeatureID {
	return FeatureID(uint64(a)<<32 | uint64(b))
}

// A returns the feature of shape A.
func (id FeatureID) A() Feature { return Feature(id >> 32) }

// B returns the feature of shape B.
func (id FeatureID) B() Feature { return Feature(id) }

// Swap returns the id with the roles of A and B exchanged.
func (id FeatureID) Swap() FeatureID { return MakeFeatureID(id.B(), id.A()) }

// String returns e.g. "A face 4 / B vertex 2".
func (id FeatureID) String() string {
	return "A " + id.A().String() + " / B " + id.B().String()
}
