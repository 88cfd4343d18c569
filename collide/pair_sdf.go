package collide

import (
	"math"

	"github.com/go-gl/mathgl/mgl64"
)

// maxSDFSamples bounds the sample points a convex shape contributes against an SDF grid.
const maxSDFSamples = 32

// convexSDF collides a convex shape with an SDF grid by sampling the convex's surface: the
// centre of a sphere, points along a capsule's core segment (spaced at most a cell apart, up to
// maxSDFSamples), the vertices, edge midpoints and face centres of a box, points on a cylinder's
// rims, caps and side, or the vertices of a hull. Each sample whose gap (field value minus the
// sample's radius) is within the margin is a candidate with the field's gradient as normal; four
// are kept. Features of the grid the
// samples miss (a sharp corner of the field poking into a large face) are not detected.
func convexSDF(a Shape, pa Pose, g *SDFGrid, pb Pose, margin float64, out *Manifold) error {
	fg := pb.frame()
	fa := pa.frame()
	var pts [maxSDFSamples]mgl64.Vec3 // world
	n := 0
	radius := 0.0
	switch sa := a.(type) {
	case *Sphere:
		pts[0], n, radius = pa.Position, 1, sa.Radius
	case *Capsule:
		radius = sa.Radius
		e0, e1 := capsuleEnds(sa, pa)
		k := int(math.Ceil(2*sa.HalfHeight/g.cell)) + 1
		k = max(2, min(k, maxSDFSamples))
		if sa.HalfHeight == 0 {
			k = 1
		}
		for i := 0; i < k; i++ {
			t := 0.0
			if k > 1 {
				t = float64(i) / float64(k-1)
			}
			pts[n] = lerp(e0, e1, t)
			n++
		}
	case *Box:
		h := sa.HalfExtents
		for i := 0; i < 8; i++ {
			pts[n] = fa.apply(boxVertex(h, i))
			n++
		}
		for k := 0; k < 3; k++ {
			for j := 0; j < 4; j++ {
				var p mgl64.Vec3
				p[(k+1)%3] = h[(k+1)%3] * float64(2*(j&1)-1)
				p[(k+2)%3] = h[(k+2)%3] * float64((j&2)-1)
				pts[n] = fa.apply(p)
				n++
			}
		}
		for k := 0; k < 6; k++ {
			var p mgl64.Vec3
			p[k/2] = h[k/2] * float64(1-2*(k%2))
			pts[n] = fa.apply(p)
			n++
		}
	case *Cylinder:
		// Every other rim sample of both rims, the cap centres and a ring of eight side points
		// at mid-height.
		for k := 0; k < 2*cylinderRimSamples; k += 2 {
			pts[n] = fa.apply(sa.rimPoint(k))
			n++
		}
		pts[n], pts[n+1] = fa.apply(mgl64.Vec3{0, 0, sa.HalfHeight}), fa.apply(mgl64.Vec3{0, 0, -sa.HalfHeight})
		n += 2
		for k := 0; k < cylinderRimSamples; k += 2 {
			p := sa.rimPoint(k)
			p[2] = 0
			pts[n] = fa.apply(p)
			n++
		}
	case *ConvexHull:
		var cs candidates
		for i, v := range sa.vertices {
			sdfSample(g, &fg, fa.apply(v), 0, VertexFeature(i), margin, &cs)
		}
		finishSDF(&cs, out)
		return nil
	default:
		return unsupportedPair(a, g)
	}
	var cs candidates
	for i := 0; i < n; i++ {
		sdfSample(g, &fg, pts[i], radius, VertexFeature(i), margin, &cs)
	}
	finishSDF(&cs, out)
	return nil
}

// sdfSample adds the candidate of one world sample point with the given radius.
func sdfSample(g *SDFGrid, fg *frame, p mgl64.Vec3, radius float64, f Feature, margin float64, cs *candidates) {
	v, nl := g.SignedDistance(fg.applyInv(p))
	gap := v - radius
	if gap > margin {
		return
	}
	n := fg.rotate(nl).Mul(-1) // from the convex into the field's solid
	cs.add(contactAt(madd(p, n, radius), n, gap, MakeFeatureID(f, FaceFeature(0))))
}

// finishSDF writes the candidates, the deepest point's normal as the manifold's.
func finishSDF(cs *candidates, out *Manifold) {
	if cs.n == 0 {
		return
	}
	out.Normal = cs.c[cs.deepest()].Normal
	cs.emit(out.Normal, out)
}
