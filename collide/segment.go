package collide

import (
	"math"

	"github.com/go-gl/mathgl/mgl64"
)

// closestOnSegment returns the parameter t ∈ [0, 1] of the point of segment a→b closest to p.
func closestOnSegment(p, a, b mgl64.Vec3) float64 {
	d := b.Sub(a)
	dd := d.Dot(d)
	if dd == 0 {
		return 0
	}
	return clamp(p.Sub(a).Dot(d)/dd, 0, 1)
}

// closestSegmentSegment returns parameters s, t ∈ [0, 1] of the closest points p1 + s·(q1−p1)
// and p2 + t·(q2−p2) of two segments. Degenerate (point) segments are handled; for parallel
// segments s is chosen as 0 clamped into the overlap.
func closestSegmentSegment(p1, q1, p2, q2 mgl64.Vec3) (s, t float64) {
	d1, d2 := q1.Sub(p1), q2.Sub(p2)
	r := p1.Sub(p2)
	a, e, f := d1.Dot(d1), d2.Dot(d2), d2.Dot(r)
	if a == 0 && e == 0 {
		return 0, 0
	}
	if a == 0 {
		return 0, clamp(f/e, 0, 1)
	}
	c := d1.Dot(r)
	if e == 0 {
		return clamp(-c/a, 0, 1), 0
	}
	b := d1.Dot(d2)
	denom := a*e - b*b
	if denom > 1e-14*a*e {
		s = clamp((b*f-c*e)/denom, 0, 1)
	}
	t = (b*s + f) / e
	if t < 0 {
		t = 0
		s = clamp(-c/a, 0, 1)
	} else if t > 1 {
		t = 1
		s = clamp((b-c)/a, 0, 1)
	}
	return s, t
}

// segmentBoxClosest returns the parameter t ∈ [0, 1] of the point of segment p0→p1 closest to
// the box |x_i| <= h_i, and the squared distance there (0 when the segment touches the box).
// The squared distance Σ max(|x_i(t)| − h_i, 0)² is convex and piecewise quadratic in t, with
// breaks where a coordinate crosses ±h_i; it is minimised exactly piece by piece. Among equal
// minima the smallest t wins.
func segmentBoxClosest(p0, p1, h mgl64.Vec3) (float64, float64) {
	u := p1.Sub(p0)
	var breaks [8]float64
	nb := 0
	breaks[nb] = 0
	nb++
	for i := 0; i < 3; i++ {
		if u[i] == 0 {
			continue
		}
		for _, c := range [2]float64{-h[i], h[i]} {
			t := (c - p0[i]) / u[i]
			if t > 0 && t < 1 {
				breaks[nb] = t
				nb++
			}
		}
	}
	breaks[nb] = 1
	nb++
	for i := 1; i < nb; i++ {
		for j := i; j > 0 && breaks[j] < breaks[j-1]; j-- {
			breaks[j], breaks[j-1] = breaks[j-1], breaks[j]
		}
	}
	dist2 := func(t float64) float64 {
		s := 0.0
		for i := 0; i < 3; i++ {
			x := p0[i] + t*u[i]
			if e := math.Abs(x) - h[i]; e > 0 {
				s += e * e
			}
		}
		return s
	}
	bestT, best := 0.0, dist2(0)
	try := func(t float64) {
		if d := dist2(t); d < best {
			bestT, best = t, d
		}
	}
	for k := 0; k+1 < nb; k++ {
		ta, tb := breaks[k], breaks[k+1]
		if tb <= ta {
			continue
		}
		tm := 0.5 * (ta + tb)
		// On this piece the active coordinates contribute (p0_i + t·u_i − c_i)².
		qa, qb := 0.0, 0.0
		for i := 0; i < 3; i++ {
			x := p0[i] + tm*u[i]
			c := 0.0
			switch {
			case x > h[i]:
				c = h[i]
			case x < -h[i]:
				c = -h[i]
			default:
				continue
			}
			qa += u[i] * u[i]
			qb += u[i] * (p0[i] - c)
		}
		if qa > 0 {
			try(clamp(-qb/qa, ta, tb))
		}
		try(tb)
	}
	return bestT, best
}
