package physics

// islands splits the dynamic bodies into contact islands: two bodies share an island when a chain
// of contacts between dynamic bodies joins them (the contact stage leaves detached contacts out:
// sleeping_parts.go). Static and kinematic bodies never join two islands, because only
// dynamic–dynamic contacts union. Island order, body order within an island
// and contact order within an island are all the order of first appearance, so the split is
// deterministic. A warm islands value does not allocate.
type islands struct {
	unionFind // over models

	// After build: island i holds bodies[bodyStart[i]:bodyStart[i+1]] (model indices, increasing)
	// and contacts[contactStart[i]:contactStart[i+1]] (indices into the caller's contact list).
	bodyStart, bodies      []int
	contactStart, contacts []int
	islandOf               []int // per model: its island, or -1 when it touches nothing
	contactIsland          []int // per contact: its island
	bodyCursor, contactCur []int
}

// unionFind is a union-find forest over indices 0…n−1. A warm one does not allocate.
type unionFind struct {
	parent []int
}

// reset prepares the forest for n indices, each its own set.
func (u *unionFind) reset(n int) {
	u.parent = growInts(u.parent, n)
	for i := range u.parent {
		u.parent[i] = i
	}
}

// resetSets prepares the forest for indices below n and makes each of members its own set; the
// others are left as they were and must not be used until set.
func (u *unionFind) resetSets(n int, members []int) {
	u.parent = growInts(u.parent, n)
	for _, i := range members {
		u.parent[i] = i
	}
}

// find returns the root of i's set, halving paths as it goes.
func (u *unionFind) find(i int) int {
	for u.parent[i] != i {
		u.parent[i] = u.parent[u.parent[i]]
		i = u.parent[i]
	}
	return i
}

// union joins the sets of a and b; the smaller root index becomes the root, so the result does
// not depend on the order of unions.
func (u *unionFind) union(a, b int) {
	ra, rb := u.find(a), u.find(b)
	switch {
	case ra < rb:
		u.parent[rb] = ra
	case rb < ra:
		u.parent[ra] = rb
	}
}

// build groups the models and the contacts into islands. contactModel(k) returns a dynamic model
// that contact k touches (every contact touches at least one). Only models with a contact belong
// to an island.
func (s *islands) build(models, contacts int, contactModel func(k int) int) int {
	s.islandOf = growInts(s.islandOf, models)
	for i := range s.islandOf {
		s.islandOf[i] = -1
	}
	s.contactIsland = growInts(s.contactIsland, contacts)
	count := 0
	// Number islands by first appearance over the contact list; islandOf holds, for now, the
	// island of each root.
	for k := 0; k < contacts; k++ {
		root := s.find(contactModel(k))
		if s.islandOf[root] < 0 {
			s.islandOf[root] = count
			count++
		}
		s.contactIsland[k] = s.islandOf[root]
	}
	// Every model takes its root's island. A root has the smallest index of its set, so it is
	// visited before its members and still holds its own island when they read it.
	for i := 0; i < models; i++ {
		s.islandOf[i] = s.islandOf[s.find(i)]
	}
	// Counting sort of bodies and contacts by island.
	s.bodyStart = growInts(s.bodyStart, count+1)
	s.contactStart = growInts(s.contactStart, count+1)
	clear(s.bodyStart)
	clear(s.contactStart)
	for i := 0; i < models; i++ {
		if is := s.islandOf[i]; is >= 0 {
			s.bodyStart[is+1]++
		}
	}
	for k := 0; k < contacts; k++ {
		s.contactStart[s.contactIsland[k]+1]++
	}
	for i := 0; i < count; i++ {
		s.bodyStart[i+1] += s.bodyStart[i]
		s.contactStart[i+1] += s.contactStart[i]
	}
	s.bodies = growInts(s.bodies, s.bodyStart[count])
	s.contacts = growInts(s.contacts, contacts)
	s.bodyCursor = growInts(s.bodyCursor, count)
	s.contactCur = growInts(s.contactCur, count)
	copy(s.bodyCursor, s.bodyStart[:count])
	copy(s.contactCur, s.contactStart[:count])
	for i := 0; i < models; i++ {
		if is := s.islandOf[i]; is >= 0 {
			s.bodies[s.bodyCursor[is]] = i
			s.bodyCursor[is]++
		}
	}
	for k := 0; k < contacts; k++ {
		is := s.contactIsland[k]
		s.contacts[s.contactCur[is]] = k
		s.contactCur[is]++
	}
	return count
}

// growInts returns s resized to n, reusing its capacity.
func growInts(s []int, n int) []int {
	if cap(s) < n {
		return make([]int, n)
	}
	return s[:n]
}
