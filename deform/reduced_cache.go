package deform

import (
	"crypto/sha256"
	"encoding/binary"
	"math"
)

// reducedFormat names the reduced StVK precomputation's layout; it is hashed into every digest,
// so a change of layout misses every older cache file.
const reducedFormat = "stagger/deform reduced StVK v1"

// reducedDigest returns the SHA-256 of what a reduced StVK model depends on: the mesh's vertices
// and tetrahedra, the material and the basis, as little-endian bits.
func reducedDigest(m *TetMesh, mat Material, basis [][]float64) [32]byte {
	h := sha256.New()
	var buf [8]byte
	putU := func(x uint64) {
		binary.LittleEndian.PutUint64(buf[:], x)
		h.Write(buf[:])
	}
	putF := func(x float64) { putU(math.Float64bits(x)) }
	h.Write([]byte(reducedFormat))
	putU(uint64(m.NumVertices()))
	for _, v := range m.vertices {
		putF(v[0])
		putF(v[1])
		putF(v[2])
	}
	putU(uint64(m.NumTets()))
	for _, t := range m.tets {
		for _, a := range t {
			putU(uint64(a))
		}
	}
	putF(mat.Young)
	putF(mat.Poisson)
	putF(mat.Density)
	putU(uint64(len(basis)))
	for _, v := range basis {
		for _, x := range v {
			putF(x)
		}
	}
	var d [32]byte
	h.Sum(d[:0])
	return d
}
