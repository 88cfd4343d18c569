package physics

// Layout places per-body velocity blocks of any size one after another in a generalized vector.
// Reset and Add reuse capacity, so a warm layout does not allocate.
type Layout struct {
	offsets []int
	sizes   []int
	total   int
}

// Reset empties the layout, keeping its capacity.
func (l *Layout) Reset() {
	l.offsets = l.offsets[:0]
	l.sizes = l.sizes[:0]
	l.total = 0
}

// Add appends a block of size entries and returns its index.
func (l *Layout) Add(size int) int {
	l.offsets = append(l.offsets, l.total)
	l.sizes = append(l.sizes, size)
	l.total += size
	return len(l.sizes) - 1
}

// Blocks is the number of blocks.
func (l *Layout) Blocks() int { return len(l.sizes) }

// DoFs is the total number of entries.
func (l *Layout) DoFs() int { return l.total }

// Offset is the index of block i's first entry.
func (l *Layout) Offset(i int) int { return l.offsets[i] }

// Size is the number of entries of block i.
func (l *Layout) Size(i int) int { return l.sizes[i] }

// Span returns block i's entries of the generalized vector x.
func (l *Layout) Span(x []float64, i int) []float64 {
	o := l.offsets[i]
	return x[o : o+l.sizes[i]]
}
