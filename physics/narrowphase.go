package physics

import (
	"fmt"
	"reflect"
	"sync/atomic"

	"github.com/stagger-physics/stagger/collide"
)

// narrowChunk is how many pairs a worker takes at a time from the narrow phase's list.
const narrowChunk = 32

// narrowParallelPairs is the fewest pairs worth handing to the helpers.
const narrowParallelPairs = 2 * narrowChunk

// narrowPhase runs the narrow phase of a step's candidate pairs on the worker pool. Each pair's
// manifold depends only on the two bodies and last step's manifold of the same pair, and is
// written to the pair's own slot, so the result is the same for any number of workers.
type narrowPhase struct {
	jobs   []narrowJob
	kept   int // pairs of the last run whose manifold was kept from the step before
	next   atomic.Int64
	margin float64
	world  *collisionWorld // set during run only
}

// manifoldReuseDistance is how far, m, any point of either body may have moved since a pair's
// manifold was computed for the manifold to be kept rather than computed again. Resting bodies
// move by far less in a step (a resting 20-base pyramid drifts 6e-10 m in 20 s), so their pairs'
// box–box clipping, an eighth of such a step, is skipped; a kept manifold's points and gaps are
// then off by at most this distance, a thousandth of Config.RestingGap's default band.
const manifoldReuseDistance = 1e-9

// narrowJob is one pair whose manifold this step computes.
type narrowJob struct {
	pair   int // index in collisionWorld.pairs
	prev   int // index in collisionWorld.spare of the pair's state last step; -1 if none
	hit    bool
	reused bool // last step's manifold was kept
	err    error
}

// begin empties the list for a step with speculative contact distance margin.
func (np *narrowPhase) begin(margin float64) {
	np.jobs = np.jobs[:0]
	np.margin = margin
}

// add lists pair (an index in collisionWorld.pairs) with last step's state prev (-1: none).
func (np *narrowPhase) add(pair, prev int) {
	np.jobs = append(np.jobs, narrowJob{pair: pair, prev: prev})
}

// run computes every listed pair's manifold, sharing the list with the pool's helpers when it is
// long enough.
func (np *narrowPhase) run(c *collisionWorld, pool *workerPool, workers int) {
	np.world = c
	np.next.Store(0)
	helpers := 0
	if pool != nil && len(np.jobs) >= narrowParallelPairs {
		helpers = workers - 1
		pool.start(np, helpers)
	}
	np.work(0)
	if helpers > 0 {
		pool.wait()
	}
	np.world = nil
	np.kept = 0
	for i := range np.jobs {
		if np.jobs[i].reused {
			np.kept++
		}
	}
}

// work takes chunks of the list until none is left.
func (np *narrowPhase) work(int) {
	for {
		start := int(np.next.Add(narrowChunk)) - narrowChunk
		if start >= len(np.jobs) {
			return
		}
		for i := start; i < min(start+narrowChunk, len(np.jobs)); i++ {
			np.collide(&np.jobs[i])
		}
	}
}

// collide computes one pair's manifold and gives its points last step's impulses.
func (np *narrowPhase) collide(jb *narrowJob) {
	c := np.world
	st := &c.pairs[jb.pair]
	a, b := &c.bodies[c.proxies[st.pair.A].body], &c.bodies[c.proxies[st.pair.B].body]
	var prev *pairState
	var prevManifold *collide.Manifold
	look := np.margin + a.sweep + b.sweep
	if st.sensor {
		// A sensor reports overlap only: with no look-ahead, a manifold means a gap <= 0
		// (docs/architecture.md, Layers, sensors and filters).
		look = 0
	}
	if jb.prev >= 0 {
		prev = &c.spare[jb.prev]
		prevManifold = &prev.manifold
		if look <= prev.look+manifoldReuseDistance && sameShape(prev.shapeA, a.shape) && sameShape(prev.shapeB, b.shape) &&
			poseNear(prev.poseA, a.pose, a.reach) && poseNear(prev.poseB, b.pose, b.reach) {
			// Neither body has moved measurably since the manifold was computed, and it looked
			// at least as far: keep it, with its poses, so that drift cannot accumulate.
			st.manifold, st.poseA, st.poseB, st.look = prev.manifold, prev.poseA, prev.poseB, prev.look
			st.shapeA, st.shapeB = prev.shapeA, prev.shapeB
			st.alpha, st.friction = prev.alpha, prev.friction
			jb.hit, jb.reused = true, true
			return
		}
	}
	jb.hit, jb.err = collide.CollideMoving(a.shape, a.pose, a.motion, b.shape, b.pose, b.motion, look, prevManifold, &st.manifold)
	st.poseA, st.poseB, st.look = a.pose, b.pose, look
	st.shapeA, st.shapeB = a.shape, b.shape
	if jb.hit && jb.err == nil && prev != nil {
		st.inheritImpulses(prev)
	}
}

// sameShape reports whether x and y are the same shape value. Shapes are read-only by convention
// (a game changes one by replacing Collider.Shape); a shape whose type cannot be compared counts as
// changed.
func sameShape(x, y collide.Shape) bool {
	return x != nil && reflect.TypeOf(x).Comparable() && x == y
}

// poseNear reports whether moving a body from pose p to pose q moves none of its points within
// reach of its origin by more than manifoldReuseDistance: |Δx| + reach·θ ≤ the distance, with the
// rotation angle θ ≈ 2‖q − p‖ (of the two signs of q, the nearer).
func poseNear(p, q collide.Pose, reach float64) bool {
	dq := min(q.Rotation.Sub(p.Rotation).Len(), q.Rotation.Add(p.Rotation).Len())
	return q.Position.Sub(p.Position).Len()+reach*2*dq <= manifoldReuseDistance
}

// keepTouching removes from c.pairs the listed pairs that do not touch, keeping the order. It
// returns the error of the first pair, in pair order, whose narrow phase failed.
func (np *narrowPhase) keepTouching(c *collisionWorld) error {
	kept, next := 0, 0
	for i := range c.pairs {
		if next < len(np.jobs) && np.jobs[next].pair == i {
			jb := &np.jobs[next]
			next++
			if jb.err != nil {
				st := &c.pairs[i]
				return fmt.Errorf("physics: %v and %v: %w", st.ownerA, st.ownerB, jb.err)
			}
			if !jb.hit {
				continue
			}
		}
		if kept != i {
			c.pairs[kept] = c.pairs[i]
		}
		kept++
	}
	c.pairs = c.pairs[:kept]
	return nil
}
