package collide

import (
	"github.com/go-gl/mathgl/mgl64"
)

// worldPlane returns the world normal and offset of h placed at pose: the solid is
// {x : n·x <= offset}.
func worldPlane(h *HalfSpace, pose Pose) (mgl64.Vec3, float64) {
	n := pose.Rotate(h.Normal)
	return n, h.Offset + n.Dot(pose.Position)
}

// capsuleHalfSpace collides capsule a with half-space b: each end of the core segment is a
// sphere against the plane. Points: vertex 0 (−z end) and vertex 1 (+z end) of the capsule.
func capsuleHalfSpace(a *Capsule, pa Pose, b *HalfSpace, pb Pose, margin float64, out *Manifold) {
	pn, off := worldPlane(b, pb)
	n := pn.Mul(-1)
	out.Normal = n
	ends := 2
	if a.HalfHeight == 0 {
		ends = 1
	}
	for i := 0; i < ends; i++ {
		z := -a.HalfHeight
		if i == 1 {
			z = a.HalfHeight
		}
		e := pa.Apply(mgl64.Vec3{0, 0, z})
		gap := pn.Dot(e) - off - a.Radius
		if gap <= margin {
			out.add(contactAt(madd(e, n, a.Radius), n, gap, MakeFeatureID(VertexFeature(i), FaceFeature(0))))
		}
	}
	if out.Count == 0 {
		out.Normal = mgl64.Vec3{}
	}
}

// boxHalfSpace collides box a with half-space b: every box vertex within the margin of the
// plane is a candidate; more than four are reduced to the four spanning the largest area.
func boxHalfSpace(a *Box, pa Pose, b *HalfSpace, pb Pose, margin float64, out *Manifold) {
	pn, off := worldPlane(b, pb)
	n := pn.Mul(-1)
	f := pa.frame()
	var cs candidates
	for i := 0; i < 8; i++ {
		v := f.apply(boxVertex(a.HalfExtents, i))
		gap := pn.Dot(v) - off
		if gap <= margin {
			cs.add(contactAt(v, n, gap, MakeFeatureID(VertexFeature(i), FaceFeature(0))))
		}
	}
	if cs.n == 0 {
		return
	}
	out.Normal = n
	out.Reference = Reference{Kind: ReferenceFaceB, B: FaceFeature(0)}
	cs.emit(n, out)
}
