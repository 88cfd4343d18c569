package physics

// The candidate (sample, triangle) pairs of one side of a deformable pair (samplesOnFaces): per
// sample its set of candidate triangles of the other body, one bit a triangle. The leaf pairs name
// a sample and a triangle many times over (a sample is a corner of several triangles, each in some
// leaf, and a leaf meets several others); the sets take each pair once and give a sample's
// triangles in increasing order without sorting the pairs. A row is taken from the buffer only for
// a sample that has a candidate, so the buffer grows with the samples near the other body, not
// with the surface's size.

// startCandidates empties the sets for a body of samples samples against a surface of triangles
// triangles. Every row is clear and every slot −1 between uses (samplesOnFaces clears the rows it
// read).
func (dc *deformCollision) startCandidates(samples, triangles int) {
	dc.rowWords = (triangles + 63) / 64
	for len(dc.slot) < samples {
		dc.slot = append(dc.slot, -1)
	}
	dc.marked = dc.marked[:0]
	dc.bits = dc.bits[:0]
}

// mark adds faces to sample v's candidate triangles.
func (dc *deformCollision) mark(v int32, faces []int32) {
	if dc.slot[v] < 0 {
		dc.slot[v] = int32(len(dc.marked))
		dc.marked = append(dc.marked, v)
		n := len(dc.bits)
		if n+dc.rowWords <= cap(dc.bits) {
			dc.bits = dc.bits[:n+dc.rowWords]
			clear(dc.bits[n:])
		} else {
			dc.bits = append(dc.bits, make([]uint64, dc.rowWords)...)
		}
	}
	row := dc.bits[int(dc.slot[v])*dc.rowWords:]
	for _, f := range faces {
		row[f>>6] |= 1 << (uint(f) & 63)
	}
}

// row returns sample v's candidate triangles, one bit each (triangle 64w + i at bit i of word w).
func (dc *deformCollision) row(v int32) []uint64 {
	at := int(dc.slot[v]) * dc.rowWords
	return dc.bits[at : at+dc.rowWords]
}
