package solver

import (
	"fmt"
	"slices"
)

// bodyOrdering computes an exact minimum degree order on the elimination graph, kept as
// adjacency sets (unordered) of the uneliminated vertices in an arena, with a binary heap keyed
// by (degree, vertex) for the deterministic choice.
type bodyOrdering struct {
	start, length, capa []int // each vertex's set in arena
	arena, spare        []int32
	top                 int
	heap, hpos          []int32 // hpos −1 once eliminated
	nbr                 []int32
	mark                []int
	stamp               int
}

// order eliminates the nb vertices of the graph with edges pairs by minimum degree, ties to the
// lowest vertex. It fills perm and iperm, and for each elimination step k appends the neighbours
// of perm[k] at its elimination (the pattern of column k of L, original vertices, unordered) to
// pat, with patStart[k] its start; it returns pat.
func (o *bodyOrdering) order(nb int, pairs []int, perm, iperm, patStart, pat []int32) []int32 {
	o.start = grow(o.start, nb)
	o.length = grow(o.length, nb)
	o.capa = grow(o.capa, nb)
	o.mark = grow(o.mark, nb)
	clear(o.mark)
	o.stamp = 0
	clear(o.capa)
	for _, a := range pairs {
		o.capa[a]++
	}
	if need := 2 * (len(pairs) + nb); len(o.arena) < need {
		o.arena = make([]int32, need)
		o.spare = make([]int32, need)
	}
	s := 0
	for v := range nb {
		o.start[v] = s
		o.length[v] = 0
		s += o.capa[v]
	}
	o.top = s
	for j := 0; j < len(pairs); j += 2 {
		a, b := pairs[j], pairs[j+1]
		if a == b {
			panic(fmt.Sprintf("bodyFactor.analyse: pair %d joins block %d to itself", j/2, a))
		}
		o.arena[o.start[a]+o.length[a]] = int32(b)
		o.length[a]++
		o.arena[o.start[b]+o.length[b]] = int32(a)
		o.length[b]++
	}
	for v := range nb { // drop repeats
		o.stamp++
		set := o.set(v)
		n := 0
		for _, w := range set {
			if o.mark[w] != o.stamp {
				o.mark[w] = o.stamp
				set[n] = w
				n++
			}
		}
		o.length[v] = n
	}

	o.heap = grow(o.heap, nb)
	o.hpos = grow(o.hpos, nb)
	for v := range nb {
		o.heap[v] = int32(v)
		o.hpos[v] = int32(v)
	}
	for i := nb/2 - 1; i >= 0; i-- {
		o.down(i, nb)
	}

	for k := 0; k < nb; k++ {
		v := o.heap[0]
		left := nb - k // uneliminated, v included
		if o.length[v] == left-1 {
			// The rest is a clique: exact minimum degree takes it in increasing order.
			rest := o.heap[:left]
			slices.Sort(rest)
			for t, u := range rest {
				perm[k+t] = u
				iperm[u] = int32(k + t)
				patStart[k+t] = int32(len(pat))
				pat = append(pat, rest[t+1:]...)
			}
			break
		}
		o.swap(0, left-1)
		o.down(0, left-1)
		o.hpos[v] = -1
		perm[k] = v
		iperm[v] = int32(k)
		patStart[k] = int32(len(pat))
		o.nbr = append(o.nbr[:0], o.set(int(v))...)
		pat = append(pat, o.nbr...)
		o.length[v] = 0
		// The neighbours of v become a clique.
		for _, u := range o.nbr {
			o.join(int(u), v)
			o.up(int(o.hpos[u]))
			o.down(int(o.hpos[u]), left-1)
		}
	}
	patStart[nb] = int32(len(pat))
	return pat
}

// set returns the adjacency set of v.
func (o *bodyOrdering) set(v int) []int32 {
	return o.arena[o.start[v] : o.start[v]+o.length[v]]
}

// join replaces the set of u by (set(u) ∪ nbr) \ {u, v}, where v is being eliminated.
func (o *bodyOrdering) join(u int, v int32) {
	o.stamp++
	st := o.stamp
	o.mark[u] = st
	set := o.set(u)
	n := 0
	for _, w := range set {
		if w != v {
			o.mark[w] = st
			set[n] = w
			n++
		}
	}
	o.length[u] = n
	for t, w := range o.nbr {
		if o.mark[w] == st {
			continue
		}
		if o.length[u] == o.capa[u] {
			o.relocate(u, o.length[u]+len(o.nbr)-t)
		}
		o.arena[o.start[u]+o.length[u]] = w
		o.length[u]++
	}
}

// relocate moves the set of u to the arena's top with room for need entries, compacting the
// arena (and growing it if short) when the top lacks room.
func (o *bodyOrdering) relocate(u, need int) {
	if o.top+need > len(o.arena) {
		live := 0
		for v, l := range o.length {
			if o.hpos[v] >= 0 {
				live += l
			}
		}
		dst := o.spare
		if live+need > len(o.arena) {
			dst = make([]int32, 2*(live+need))
			o.spare = make([]int32, len(dst))
		} else {
			o.spare = o.arena
		}
		top := 0
		for v, l := range o.length {
			if o.hpos[v] < 0 {
				continue
			}
			copy(dst[top:top+l], o.set(v))
			o.start[v] = top
			o.capa[v] = l
			top += l
		}
		o.arena = dst
		o.top = top
	}
	copy(o.arena[o.top:o.top+o.length[u]], o.set(u))
	o.start[u] = o.top
	o.capa[u] = need
	o.top += need
}

// less orders heap entries by degree, then vertex.
func (o *bodyOrdering) less(i, j int) bool {
	a, b := o.heap[i], o.heap[j]
	la, lb := o.length[a], o.length[b]
	return la < lb || (la == lb && a < b)
}

// swap exchanges heap entries i and j.
func (o *bodyOrdering) swap(i, j int) {
	o.heap[i], o.heap[j] = o.heap[j], o.heap[i]
	o.hpos[o.heap[i]] = int32(i)
	o.hpos[o.heap[j]] = int32(j)
}

// up sifts entry i up the heap.
func (o *bodyOrdering) up(i int) {
	for i > 0 {
		p := (i - 1) / 2
		if !o.less(i, p) {
			return
		}
		o.swap(i, p)
		i = p
	}
}

// down sifts entry i down a heap of n entries.
func (o *bodyOrdering) down(i, n int) {
	for {
		c := 2*i + 1
		if c >= n {
			return
		}
		if c+1 < n && o.less(c+1, c) {
			c++
		}
		if !o.less(c, i) {
			return
		}
		o.swap(i, c)
		i = c
	}
}
