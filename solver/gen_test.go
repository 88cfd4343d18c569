package solver

import (
	"math"
	"math/rand/v2"

	"github.com/go-gl/mathgl/mgl64"
)

// Analytic problem generators for tests and benchmarks: unit cubes (1 m, 1 kg), μ 0.8, h 0.01,
// 4 corner contacts per face contact; unit-diameter spheres. Geometry is built directly, with no
// collision detection.

const (
	genH  = 0.01
	genG  = 9.81
	genMu = 0.8
)

// rigidBody describes a rigid body for the generators.
type rigidBody struct {
	c     mgl64.Vec3 // centre of mass
	mass  float64
	inert float64 // isotropic inertia (cube: m/6, sphere: 2/5 m r²)
	vel   mgl64.Vec3
}

// tangentBasis returns an orthonormal (t1, t2) for the unit normal n.
func tangentBasis(n mgl64.Vec3) (mgl64.Vec3, mgl64.Vec3) {
	a := mgl64.Vec3{1, 0, 0}
	if math.Abs(n[0]) > 0.6 {
		a = mgl64.Vec3{0, 1, 0}
	}
	t1 := a.Sub(n.Mul(a.Dot(n))).Normalize()
	return t1, n.Cross(t1)
}

// rigidRows writes sign·[d, r×d] for d = n, t1, t2 into dst (3×6).
func rigidRows(dst []float64, r, n, t1, t2 mgl64.Vec3, sign float64) {
	for i, d := range [3]mgl64.Vec3{n, t1, t2} {
		rc := r.Cross(d)
		row := dst[6*i : 6*i+6]
		row[0], row[1], row[2] = sign*d[0], sign*d[1], sign*d[2]
		row[3], row[4], row[5] = sign*rc[0], sign*rc[1], sign*rc[2]
	}
}

// addRigid adds a rigid body block with predictor velocity (vel + g h down) and q̇ᵗ = vel.
func addRigid(p *Problem, b rigidBody) int {
	i := p.AddBlock(6)
	m := p.InvMass(i)
	for d := 0; d < 3; d++ {
		m[d*6+d] = 1 / b.mass
		m[(d+3)*6+d+3] = 1 / b.inert
	}
	bl := p.BlockAt(i)
	for d := 0; d < 3; d++ {
		p.QdotT[bl.Offset+d] = b.vel[d]
		p.QdotP[bl.Offset+d] = b.vel[d]
	}
	p.QdotP[bl.Offset+2] -= genG * genH
	return i
}

// addPointContact adds a contact at world point x with normal n from body a to body b (−1 for
// the static ground).
func addPointContact(p *Problem, bodies []rigidBody, a, b int, x, n mgl64.Vec3, mu float64) int {
	k := p.AddContact(a, b, 0, mu, 0)
	t1, t2 := tangentBasis(n)
	if a >= 0 {
		rigidRows(p.RowsA(k), x.Sub(bodies[a].c), n, t1, t2, -1)
	}
	if b >= 0 {
		rigidRows(p.RowsB(k), x.Sub(bodies[b].c), n, t1, t2, 1)
	}
	return k
}

// addFaceContact adds the 4 corners of the rectangle [x0,x1]×[y0,y1] at height z, normal +z.
func addFaceContact(p *Problem, bodies []rigidBody, a, b int, x0, x1, y0, y1, z float64) {
	n := mgl64.Vec3{0, 0, 1}
	for _, x := range [2]float64{x0, x1} {
		for _, y := range [2]float64{y0, y1} {
			addPointContact(p, bodies, a, b, mgl64.Vec3{x, y, z}, n, genMu)
		}
	}
}

// sideways returns a random horizontal velocity of magnitude up to 0.05 m/s.
func sideways(rng *rand.Rand) mgl64.Vec3 {
	th := 2 * math.Pi * rng.Float64()
	s := 0.05 * rng.Float64()
	return mgl64.Vec3{s * math.Cos(th), s * math.Sin(th), 0}
}

// genTower builds a tower of n unit cubes on the ground (4n contacts).
func genTower(p *Problem, n int, sliding bool, seed uint64) {
	p.Reset()
	rng := rand.New(rand.NewPCG(seed, 1))
	bodies := make([]rigidBody, n)
	for i := range bodies {
		bodies[i] = rigidBody{c: mgl64.Vec3{0, 0, float64(i) + 0.5}, mass: 1, inert: 1.0 / 6}
		if sliding {
			bodies[i].vel = sideways(rng)
		}
		addRigid(p, bodies[i])
	}
	for i := 0; i < n; i++ {
		addFaceContact(p, bodies, i-1, i, -0.5, 0.5, -0.5, 0.5, float64(i))
	}
}

// genPyramid builds a pyramid wall with base boxes in the bottom row, each row centred on the 2 cm
// gaps of the row below: 4·base + 8·(boxes above the base) contacts.
func genPyramid(p *Problem, base int, sliding bool, seed uint64) {
	p.Reset()
	rng := rand.New(rand.NewPCG(seed, 2))
	const pitch = 1.02
	var bodies []rigidBody
	idx := make([][]int, base)
	for r := 0; r < base; r++ {
		for j := 0; j < base-r; j++ {
			b := rigidBody{c: mgl64.Vec3{(float64(j) + float64(r)/2) * pitch, 0, float64(r) + 0.5}, mass: 1, inert: 1.0 / 6}
			if sliding {
				b.vel = sideways(rng)
			}
			bodies = append(bodies, b)
			idx[r] = append(idx[r], addRigid(p, b))
		}
	}
	for j := 0; j < base; j++ {
		x := bodies[idx[0][j]].c[0]
		addFaceContact(p, bodies, -1, idx[0][j], x-0.5, x+0.5, -0.5, 0.5, 0)
	}
	for r := 1; r < base; r++ {
		z := float64(r)
		for j := range idx[r] {
			u := idx[r][j]
			l0, l1 := idx[r-1][j], idx[r-1][j+1]
			xl0, xl1 := bodies[l0].c[0], bodies[l1].c[0]
			addFaceContact(p, bodies, l0, u, xl0+0.01, xl0+0.5, -0.5, 0.5, z)
			addFaceContact(p, bodies, l1, u, xl1-0.5, xl1-0.01, -0.5, 0.5, z)
		}
	}
}

// genSpherePile builds a square pyramid of unit-diameter spheres (layers base², (base−1)², …),
// each resting in the pocket of four below and touching its in-plane neighbours; base 14 gives
// 1,015 spheres.
func genSpherePile(p *Problem, base int, sliding bool, seed uint64) {
	p.Reset()
	rng := rand.New(rand.NewPCG(seed, 3))
	var bodies []rigidBody
	layers := make([][]int, base)
	dz := 1 / math.Sqrt2
	for l := 0; l < base; l++ {
		n := base - l
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				b := rigidBody{c: mgl64.Vec3{float64(i) + float64(l)/2, float64(j) + float64(l)/2, 0.5 + float64(l)*dz}, mass: 1, inert: 0.1}
				if sliding {
					b.vel = sideways(rng)
				}
				bodies = append(bodies, b)
				layers[l] = append(layers[l], addRigid(p, b))
			}
		}
	}
	pair := func(a, b int) {
		ca, cb := bodies[a].c, bodies[b].c
		n := cb.Sub(ca).Normalize()
		addPointContact(p, bodies, a, b, ca.Add(cb).Mul(0.5), n, genMu)
	}
	for l := 0; l < base; l++ {
		n := base - l
		at := func(i, j int) int { return layers[l][i*n+j] }
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				if l == 0 {
					c := bodies[at(i, j)].c
					addPointContact(p, bodies, -1, at(i, j), mgl64.Vec3{c[0], c[1], 0}, mgl64.Vec3{0, 0, 1}, genMu)
				} else {
					m := n + 1
					below := layers[l-1]
					for _, d := range [4][2]int{{0, 0}, {1, 0}, {0, 1}, {1, 1}} {
						pair(below[(i+d[0])*m+j+d[1]], at(i, j))
					}
				}
				if i+1 < n {
					pair(at(i, j), at(i+1, j))
				}
				if j+1 < n {
					pair(at(i, j), at(i, j+1))
				}
			}
		}
	}
}

// nextStep turns p into the next step's problem with frozen geometry: q̇ᵗ ← q̇ᵗ⁺¹, q̇ᴾ ← q̇ᵗ⁺¹ + g h,
// warm starts ← the answer.
func nextStep(p *Problem, res *Result) {
	copy(p.QdotT, res.Qdot)
	copy(p.QdotP, res.Qdot)
	for b := 0; b < p.NumBlocks(); b++ {
		bl := p.BlockAt(b)
		if bl.Size >= 3 {
			p.QdotP[bl.Offset+2] -= genG * genH
		}
	}
	warmFrom(p, res)
}

// warmFrom copies res's impulses into p's warm starts.
func warmFrom(p *Problem, res *Result) {
	for k := 0; k < p.NumContacts(); k++ {
		c := p.Contact(k)
		c.WarmNormal = res.Alpha[k]
		c.WarmFriction = [2]float64{res.Friction[2*k], res.Friction[2*k+1]}
	}
}

// randomProblem builds a random feasible problem: bodies with random SPD inverse-mass blocks of
// the given sizes, contacts between random pairs (some against a static side) with random
// Jacobian rows, random μ, restitution and gaps chosen so that some velocity satisfies every
// constraint (the LCP is then solvable).
func randomProblem(p *Problem, rng *rand.Rand, sizes []int, nBodies, nContacts int) {
	p.Reset()
	for b := 0; b < nBodies; b++ {
		n := sizes[rng.IntN(len(sizes))]
		i := p.AddBlock(n)
		// M⁻¹ = R Rᵀ + 0.1 I, R random n×n
		minv := p.InvMass(i)
		r := make([]float64, n*n)
		for j := range r {
			r[j] = rng.NormFloat64() / math.Sqrt(float64(n))
		}
		for a := 0; a < n; a++ {
			for c := 0; c < n; c++ {
				s := 0.0
				for k := 0; k < n; k++ {
					s += r[a*n+k] * r[c*n+k]
				}
				if a == c {
					s += 0.1
				}
				minv[a*n+c] = s
			}
		}
		bl := p.BlockAt(i)
		for j := 0; j < n; j++ {
			p.QdotP[bl.Offset+j] = rng.NormFloat64()
			p.QdotT[bl.Offset+j] = rng.NormFloat64()
		}
	}
	vstar := make([]float64, p.NumDoF())
	for i := range vstar {
		vstar[i] = 0.3 * rng.NormFloat64()
	}
	for k := 0; k < nContacts; k++ {
		a := rng.IntN(nBodies+1) - 1
		b := rng.IntN(nBodies)
		for b == a {
			b = rng.IntN(nBodies)
		}
		e := 0.0
		if rng.IntN(3) == 0 {
			e = 0.5 * rng.Float64()
		}
		c := p.AddContact(a, b, 0, 1.2*rng.Float64(), e)
		nv, nt := 0.0, 0.0
		for _, rows := range [2][]float64{p.RowsA(c), p.RowsB(c)} {
			for j := range rows {
				rows[j] = rng.NormFloat64()
			}
		}
		for side, body := range [2]int{a, b} {
			if body < 0 {
				continue
			}
			rows := p.RowsA(c)
			if side == 1 {
				rows = p.RowsB(c)
			}
			bl := p.BlockAt(body)
			for j := 0; j < bl.Size; j++ {
				nv += rows[j] * vstar[bl.Offset+j]
				nt += rows[j] * p.QdotT[bl.Offset+j]
			}
		}
		// b = slack − n·v* − e n·q̇ᵗ, slack ≥ 0 (mostly 0: touching contacts)
		slack := 0.0
		if rng.IntN(4) == 0 {
			slack = 0.2 * rng.Float64()
		}
		p.Contact(c).B = slack - nv - e*nt
	}
}
