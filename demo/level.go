package main

import (
	"fmt"
	"math"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/stagger-physics/stagger/collide"
	"github.com/stagger-physics/stagger/ecs"
	"github.com/stagger-physics/stagger/physics"
)

// goalKind is what a level asks of the player.
type goalKind int

const (
	// goalTopple: bring the structure down, with as few throws as possible.
	goalTopple goalKind = iota + 1
	// goalTarget: knock the marked piece (the structure's highest) off, leaving the rest standing.
	goalTarget
	// goalStand: drop weights on the structure without bringing it down.
	goalStand
	// goalKnockOff: knock every deformable block off the rigid box it stands on (blockOff).
	goalKnockOff
)

// level is one level of the game: a scene of the runner with its size, and a goal.
type level struct {
	title string // shown on the start screen and in the HUD
	scene string // scenes.Lookup name
	n     int    // the scene's size parameter; 0 keeps the scene's default
	goal  goalKind
	// par3 and par2 are the most throws that earn three and two stars (goalTopple, goalTarget,
	// goalKnockOff); any win earns one.
	par3, par2 int
	// maxThrows is how many throws the level allows (goalTopple, goalTarget, goalKnockOff).
	maxThrows int
	// weights is how many weights the player drops (goalStand).
	weights int
}

// levels are the game's levels, in the order of the start screen.
var levels = []level{
	{title: "Card house", scene: "cardhouse", goal: goalTopple, par3: 1, par2: 2, maxThrows: 5},
	{title: "Tower", scene: "stack", n: 10, goal: goalTopple, par3: 1, par2: 2, maxThrows: 5},
	{title: "Pyramid's top", scene: "pyramid", n: 5, goal: goalTarget, par3: 1, par2: 2, maxThrows: 5},
	{title: "Catenary arch", scene: "arch", goal: goalTopple, par3: 1, par2: 3, maxThrows: 6},
	{title: "Heavy middle", scene: "ratio", goal: goalStand, weights: 3},
	{title: "Jelly", scene: "jelly", n: 2, goal: goalKnockOff, par3: 3, par2: 4, maxThrows: 6},
	{title: "Springboard", scene: "springboard", goal: goalTopple, par3: 1, par2: 2, maxThrows: 5},
}

// levelOf returns the index of the level of the scene called name, or −1 when no level uses it.
func levelOf(name string) int {
	for i, l := range levels {
		if l.scene == name {
			return i
		}
	}
	return -1
}

// Goal thresholds.
const (
	// toppleHeight: a structure has come down when the top of its highest piece is below this
	// fraction of its height at the start. A toppled tower or card house lies on the ground, well
	// under half its height; a standing one that lost a piece or two does not.
	toppleHeight = 0.5
	// displacedSize: a piece counts as displaced when its centre is more than this fraction of its
	// size (the largest side of its box at the start) from where it started: a cube knocked out of
	// its row, not one nudged.
	displacedSize = 0.5
	// othersAllowed is the fraction of the pieces other than the target that may be knocked off
	// too (moved by more than their size, as the target must be) in a goalTarget level before the
	// level is lost: two thirds of the structure must stay. Of the pyramid's light cubes, a clean
	// hit on the top one shifts a few of those below it by half their size, but knocks off fewer.
	othersAllowed = 1.0 / 3
	// holdTime, s: a goal must hold this long before the level is won, so a piece passing
	// through a winning pose in mid-flight does not count.
	holdTime = 1.0
	// settleTime, s, after the last throw or weight before the level is judged on it: lost when
	// out of throws and the goal is not met, won when the last weight is held.
	settleTime = 3.0
)

// levelState is where a level stands.
type levelState int

const (
	playing levelState = iota
	won
	lost
)

// String names the state, for the window's report.
func (s levelState) String() string {
	switch s {
	case won:
		return "won"
	case lost:
		return "lost"
	}
	return "playing"
}

// piece is one body of the level's structure as it was at the start.
type piece struct {
	entity ecs.Entity
	shape  collide.Shape
	start  [3]float64 // centre, physics frame
	size   float64    // the largest side of its bounding box at the start, m
}

// progress is a level being played: the structure's pieces as they started, the throws made, and
// the goal's state, evaluated from the bodies' poses by update.
type progress struct {
	lvl    level
	pieces []piece
	target int     // the marked piece's index in pieces (goalTarget); −1 without one
	blocks []block // goalKnockOff: the deformable blocks and their pedestals
	// view are the bodies the camera keeps in view after a throw: the pieces, and the blocks and
	// their pedestals.
	view     []piece
	startTop float64 // the height of the structure's highest point at the start, m
	throws   int
	weights  []ecs.Entity // goalStand: the weights dropped
	// lastThrow is the simulated time of the last throw, s.
	lastThrow float64
	state     levelState
	// metSince is the simulated time since which the goal has held; −1 while it does not.
	metSince float64
	// The last update's figures, for the HUD.
	top       float64 // the structure's highest point now, m
	displaced int     // pieces displaced (other than the target); knocked off in a goalTarget level
	held      int     // weights resting above the structure's starting top (goalStand)
	off       int     // blocks off their pedestals (goalKnockOff)
}

// newProgress starts lvl on w: every dynamic body with a collider in w now is a piece of the
// structure; in a level of goalKnockOff every deformable body is a block, which must stand on a
// rigid body.
func newProgress(lvl level, w *ecs.World) (*progress, error) {
	q, err := ecs.NewQuery2[physics.RigidBody, physics.Collider](w)
	if err != nil {
		return nil, err
	}
	p := &progress{lvl: lvl, target: -1, metSince: -1}
	err = q.Each(func(e ecs.Entity, b *physics.RigidBody, c *physics.Collider) {
		if b.Kind != physics.Dynamic || c.Shape == nil {
			return
		}
		bb := c.Shape.Bounds(collide.Pose{Position: b.Position, Rotation: b.Orientation})
		ext := bb.Max.Sub(bb.Min)
		p.pieces = append(p.pieces, piece{entity: e, shape: c.Shape, start: b.Position,
			size: math.Max(ext[0], math.Max(ext[1], ext[2]))})
		p.startTop = math.Max(p.startTop, bb.Max[2])
	})
	if err != nil {
		return nil, err
	}
	if lvl.goal == goalKnockOff {
		if p.blocks, err = findBlocks(w); err != nil {
			return nil, fmt.Errorf("level %q: %v", lvl.title, err)
		}
		if len(p.blocks) == 0 {
			return nil, fmt.Errorf("level %q: scene %q has no deformable blocks", lvl.title, lvl.scene)
		}
		// The pedestals may all be static: the blocks' tops make the structure's height.
		var verts []mgl64.Vec3
		for _, b := range p.blocks {
			for _, e := range []ecs.Entity{b.entity, b.pedestal} {
				bb, _ := bodyBounds(w, e, &verts)
				at, _ := bodyPosition(w, e)
				ext := bb.Max.Sub(bb.Min)
				p.view = append(p.view, piece{entity: e, start: at, size: math.Max(ext[0], math.Max(ext[1], ext[2]))})
				if e == b.entity {
					p.startTop = math.Max(p.startTop, bb.Max[2])
				}
			}
		}
	} else if len(p.pieces) == 0 {
		return nil, fmt.Errorf("level %q: scene %q has no dynamic bodies above the ground", lvl.title, lvl.scene)
	}
	if !(p.startTop > 0) {
		return nil, fmt.Errorf("level %q: scene %q has no bodies above the ground", lvl.title, lvl.scene)
	}
	if lvl.goal == goalTarget {
		// The highest piece; the first of equals, so the query's order decides ties the same way
		// every time.
		p.target = 0
		for i, pc := range p.pieces {
			if pc.start[2] > p.pieces[p.target].start[2] {
				p.target = i
			}
		}
	}
	p.top = p.startTop
	if p.view == nil {
		if p.view, err = withDeformables(w, p.pieces); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// withDeformables returns the pieces followed by every deformable body of w, so that the camera
// keeps a structure's soft parts in view as well as its rigid pieces: the springboard's plank, on
// whose end the crates stand.
func withDeformables(w *ecs.World, pieces []piece) ([]piece, error) {
	q, err := ecs.NewQuery1[physics.ReducedDeformable](w)
	if err != nil {
		return nil, err
	}
	view := append([]piece(nil), pieces...)
	var verts []mgl64.Vec3
	err = q.Each(func(e ecs.Entity, d *physics.ReducedDeformable) {
		bb, ok := bodyBounds(w, e, &verts)
		if !ok {
			return
		}
		ext := bb.Max.Sub(bb.Min)
		view = append(view, piece{entity: e, start: d.Position, size: math.Max(ext[0], math.Max(ext[1], ext[2]))})
	})
	return view, err
}

// canThrow reports whether the player may throw (or drop a weight) now.
func (p *progress) canThrow() bool {
	if p.state != playing {
		return false
	}
	if p.lvl.goal == goalStand {
		return len(p.weights) < p.lvl.weights
	}
	return p.throws < p.lvl.maxThrows
}

// recordThrow counts a throw made at simulated time t; e is the body thrown or dropped.
func (p *progress) recordThrow(e ecs.Entity, t float64) {
	p.throws++
	p.lastThrow = t
	if p.lvl.goal == goalStand {
		p.weights = append(p.weights, e)
	}
}

// update evaluates the goal on w at simulated time t (non-decreasing from call to call). A won or
// lost level stays so.
func (p *progress) update(w *ecs.World, t float64) {
	if p.state != playing {
		return
	}
	p.top, p.displaced = 0, 0
	targetOff := false
	// Beyond this fraction of its size from its start a piece other than the target is displaced.
	limit := displacedSize
	if p.lvl.goal == goalTarget {
		limit = 1
	}
	for i, pc := range p.pieces {
		b, ok := ecs.Get[physics.RigidBody](w, pc.entity)
		if !ok {
			// A piece removed from the world has left the structure.
			if i == p.target {
				targetOff = true
			} else {
				p.displaced++
			}
			continue
		}
		bb := pc.shape.Bounds(collide.Pose{Position: b.Position, Rotation: b.Orientation})
		p.top = math.Max(p.top, bb.Max[2])
		d := math.Sqrt(sq(b.Position[0]-pc.start[0]) + sq(b.Position[1]-pc.start[1]) + sq(b.Position[2]-pc.start[2]))
		switch {
		case i == p.target:
			// Off the structure: moved by more than its whole size.
			targetOff = d > pc.size
		case d > limit*pc.size:
			p.displaced++
		}
	}
	settled := p.throws > 0 && t-p.lastThrow >= settleTime
	switch p.lvl.goal {
	case goalTopple:
		p.hold(p.top < toppleHeight*p.startTop, t)
		if p.state == playing && settled && p.throws >= p.lvl.maxThrows {
			p.state = lost
		}
	case goalTarget:
		if float64(p.displaced) > othersAllowed*float64(len(p.pieces)-1) {
			p.state = lost
			return
		}
		p.hold(targetOff, t)
		if p.state == playing && settled && p.throws >= p.lvl.maxThrows {
			p.state = lost
		}
	case goalKnockOff:
		p.off = 0
		for _, b := range p.blocks {
			if blockIsOff(w, b) {
				p.off++
			}
		}
		p.hold(p.off == len(p.blocks), t)
		if p.state == playing && settled && p.throws >= p.lvl.maxThrows {
			p.state = lost
		}
	case goalStand:
		if p.displaced > 0 {
			p.state = lost
			return
		}
		p.held = 0
		for _, e := range p.weights {
			if b, ok := ecs.Get[physics.RigidBody](w, e); ok && b.Position[2] > p.startTop {
				p.held++
			}
		}
		if settled && len(p.weights) >= p.lvl.weights {
			p.state = won
		}
	}
}

// hold wins the level once met has been true for holdTime up to t.
func (p *progress) hold(met bool, t float64) {
	switch {
	case !met:
		p.metSince = -1
	case p.metSince < 0:
		p.metSince = t
	}
	if met && t-p.metSince >= holdTime {
		p.state = won
	}
}

// stars is the score of a won level, 1 to 3: by the throws used, or in a goalStand level by the
// weights held on the structure (all of them: 3, some: 2). It is 0 unless the level is won.
func (p *progress) stars() int {
	if p.state != won {
		return 0
	}
	if p.lvl.goal == goalStand {
		switch {
		case p.held >= p.lvl.weights:
			return 3
		case p.held > 0:
			return 2
		}
		return 1
	}
	switch {
	case p.throws <= p.lvl.par3:
		return 3
	case p.throws <= p.lvl.par2:
		return 2
	}
	return 1
}

// starsInReach is the score a level still being played would earn if it were won now: by the
// throws made so far (at least one), or by the weights held of those dropped.
func (p *progress) starsInReach() int {
	if p.lvl.goal == goalStand {
		switch {
		case p.held >= len(p.weights):
			return 3
		case p.held > 0:
			return 2
		}
		return 1
	}
	switch n := max(p.throws, 1); {
	case n <= p.lvl.par3:
		return 3
	case n <= p.lvl.par2:
		return 2
	}
	return 1
}

// goalText says in plain words what the level asks, for the player on entering it.
func (l level) goalText() string {
	switch l.goal {
	case goalTopple:
		return fmt.Sprintf("Bring it down: its top below half its height. %s for 3 stars, %s for 2; %s at most.",
			countNoun(l.par3, "throw"), countNoun(l.par2, "throw"), countNoun(l.maxThrows, "throw"))
	case goalTarget:
		return fmt.Sprintf("Knock the top piece off, and leave most of the rest standing. %s for 3 stars, %s for 2; %s at most.",
			countNoun(l.par3, "throw"), countNoun(l.par2, "throw"), countNoun(l.maxThrows, "throw"))
	case goalStand:
		return fmt.Sprintf("Keep it standing: click to drop %s on it. Stars for the weights that stay on top.",
			countNoun(l.weights, "weight"))
	case goalKnockOff:
		return fmt.Sprintf("Knock every jelly block off its box. %s for 3 stars, %s for 2; %s at most.",
			countNoun(l.par3, "throw"), countNoun(l.par2, "throw"), countNoun(l.maxThrows, "throw"))
	}
	return ""
}

// statusText is the HUD's line on the level: the throws, and how near the goal is.
func (p *progress) statusText() string {
	switch p.lvl.goal {
	case goalTopple:
		return fmt.Sprintf("throws %d/%d  |  top %.1f m of %.1f m (goal: below %.1f m)",
			p.throws, p.lvl.maxThrows, p.top, p.startTop, toppleHeight*p.startTop)
	case goalTarget:
		return fmt.Sprintf("throws %d/%d  |  %d of %d others knocked off (at most %d)",
			p.throws, p.lvl.maxThrows, p.displaced, len(p.pieces)-1, int(othersAllowed*float64(len(p.pieces)-1)))
	case goalStand:
		return fmt.Sprintf("weights %d/%d  |  %d on top", len(p.weights), p.lvl.weights, p.held)
	case goalKnockOff:
		return fmt.Sprintf("throws %d/%d  |  %d of %d blocks knocked off", p.throws, p.lvl.maxThrows, p.off, len(p.blocks))
	}
	return ""
}

// resultText is the banner's words for a won or lost level, without the stars.
func (p *progress) resultText() string {
	if p.state == lost {
		switch {
		case p.lvl.goal == goalStand:
			return "It fell"
		case p.lvl.goal == goalTarget && p.throws < p.lvl.maxThrows:
			return "The rest came down too"
		}
		return "Out of throws"
	}
	switch p.lvl.goal {
	case goalTopple:
		return fmt.Sprintf("Toppled in %s", countNoun(p.throws, "throw"))
	case goalTarget:
		return fmt.Sprintf("Knocked off in %s", countNoun(p.throws, "throw"))
	case goalStand:
		return fmt.Sprintf("Held %d of %s", p.held, countNoun(p.lvl.weights, "weight"))
	case goalKnockOff:
		return fmt.Sprintf("Cleared in %s", countNoun(p.throws, "throw"))
	}
	return ""
}

// sq is x².
func sq(x float64) float64 { return x * x }
