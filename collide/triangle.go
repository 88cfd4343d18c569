package collide

import "github.com/go-gl/mathgl/mgl64"

// ClosestOnTriangle returns the point of triangle (a, b, c) nearest p, its barycentric weights
// (w₀a + w₁b + w₂c, each in [0, 1], summing to 1) and its region: 0 the face, 1–3 the vertices a,
// b, c, 4–6 the edges ab, bc, ca. The region is found from p's Voronoi regions of the triangle's
// features (Ericson, Real-Time Collision Detection §5.1.5); a vertex's point is the vertex itself.
func ClosestOnTriangle(p, a, b, c mgl64.Vec3) (mgl64.Vec3, [3]float64, int) {
	ab, ac, ap := b.Sub(a), c.Sub(a), p.Sub(a)
	d1, d2 := ab.Dot(ap), ac.Dot(ap)
	if d1 <= 0 && d2 <= 0 {
		return a, [3]float64{1, 0, 0}, 1
	}
	bp := p.Sub(b)
	d3, d4 := ab.Dot(bp), ac.Dot(bp)
	if d3 >= 0 && d4 <= d3 {
		return b, [3]float64{0, 1, 0}, 2
	}
	vc := d1*d4 - d3*d2
	if vc <= 0 && d1 >= 0 && d3 <= 0 {
		v := d1 / (d1 - d3)
		return madd(a, ab, v), [3]float64{1 - v, v, 0}, 4
	}
	cp := p.Sub(c)
	d5, d6 := ab.Dot(cp), ac.Dot(cp)
	if d6 >= 0 && d5 <= d6 {
		return c, [3]float64{0, 0, 1}, 3
	}
	vb := d5*d2 - d1*d6
	if vb <= 0 && d2 >= 0 && d6 <= 0 {
		w := d2 / (d2 - d6)
		return madd(a, ac, w), [3]float64{1 - w, 0, w}, 6
	}
	va := d3*d6 - d5*d4
	if va <= 0 && d4-d3 >= 0 && d5-d6 >= 0 {
		w := (d4 - d3) / ((d4 - d3) + (d5 - d6))
		return madd(b, c.Sub(b), w), [3]float64{0, 1 - w, w}, 5
	}
	den := 1 / (va + vb + vc)
	v, w := vb*den, vc*den
	return a.Add(ab.Mul(v)).Add(ac.Mul(w)), [3]float64{1 - v - w, v, w}, 0
}
