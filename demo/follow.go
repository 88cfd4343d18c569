package main

import (
	"math"

	"github.com/g3n/engine/math32"
	"github.com/go-gl/mathgl/mgl64"
	"github.com/stagger-physics/stagger/collide"
	"github.com/stagger-physics/stagger/ecs"
	"github.com/stagger-physics/stagger/plugin"
)

// Camera follow timing, s.
const (
	// followTime is how long after the last throw the camera keeps the action in view before it
	// returns to where it was.
	followTime = 3.5
	// followEase is the time constant of the camera's exponential ease towards where it should
	// be: it covers 95 % of a change in about a second (3τ), and never jumps.
	followEase = 0.33
	// followDone, m: the return ends when the camera is this close to where it was.
	followDone = 0.005
)

// followReach is how far from the structure's middle, in structure sizes, a body may be and still
// be kept in view: a ball that rolls away across the floor is let go rather than followed.
const followReach = 1.5

// cameraFollow eases the camera after a throw so that the structure and what was thrown at it
// stay in view, then back to the view the player had (the "home" view). It moves the camera and the
// orbit target together, from where they are, so nothing jumps and a drag takes over at once.
type cameraFollow struct {
	active     bool
	left       float64 // seconds of following left; then the return
	home       cameraFrame
	dir        math32.Vector3 // from the target towards the camera at the throw
	pos, tgt   math32.Vector3 // the camera's position and target now
	projectile []ecs.Entity   // what was thrown since the follow began
	verts      []mgl64.Vec3   // scratch for a deformable body's surface (bodyBounds)
}

// start begins (or prolongs) following after a throw of e, with the camera at pos looking at
// target.
func (f *cameraFollow) start(e ecs.Entity, pos, target math32.Vector3) {
	if !f.active {
		f.active = true
		f.home = cameraFrame{position: pos, target: target}
		f.dir = *pos.Clone().Sub(&target)
		f.pos, f.tgt = pos, target
		f.projectile = f.projectile[:0]
	}
	f.left = followTime
	f.projectile = append(f.projectile, e)
}

// stop ends the follow where the camera is (the player took the camera, or the level changed).
func (f *cameraFollow) stop() { f.active = false }

// step advances the follow by dt seconds on world w, whose structure is pieces, for a camera with
// vertical field of view fovY (degrees) and aspect ratio aspect; it returns the camera's new
// position and target, and ok false when it is not following.
func (f *cameraFollow) step(dt float64, w *ecs.World, pieces []piece, fovY, aspect float32) (pos, target math32.Vector3, ok bool) {
	if !f.active {
		return pos, target, false
	}
	goal := f.home
	if f.left > 0 {
		f.left -= dt
		if lo, hi, any := actionBounds(w, pieces, f.projectile, &f.verts); any {
			goal = frameBox(lo, hi, fovY, aspect, f.dir)
		}
	}
	a := float32(1 - math.Exp(-dt/followEase))
	ease := func(cur, to math32.Vector3) math32.Vector3 {
		return math32.Vector3{X: cur.X + a*(to.X-cur.X), Y: cur.Y + a*(to.Y-cur.Y), Z: cur.Z + a*(to.Z-cur.Z)}
	}
	f.pos, f.tgt = ease(f.pos, goal.position), ease(f.tgt, goal.target)
	if f.left <= 0 && f.pos.DistanceTo(&f.home.position) < followDone && f.tgt.DistanceTo(&f.home.target) < followDone {
		f.pos, f.tgt = f.home.position, f.home.target
		f.active = false
	}
	return f.pos, f.tgt, true
}

// actionBounds returns the scene-coordinate box around the structure's pieces and the thrown
// bodies (rigid or deformable) at their present poses, leaving out those farther than followReach
// structure sizes from the structure's middle at the start; any is false when nothing is left.
// verts is bodyBounds' scratch space.
func actionBounds(w *ecs.World, pieces []piece, thrown []ecs.Entity, verts *[]mgl64.Vec3) (lo, hi math32.Vector3, any bool) {
	if len(pieces) == 0 {
		return lo, hi, false
	}
	var mid mgl64.Vec3
	var start collide.AABB
	for i, pc := range pieces {
		c := mgl64.Vec3(pc.start)
		mid = mid.Add(c.Mul(1 / float64(len(pieces))))
		half := mgl64.Vec3{pc.size / 2, pc.size / 2, pc.size / 2}
		bb := collide.AABB{Min: c.Sub(half), Max: c.Add(half)}
		if i == 0 {
			start = bb
		} else {
			start = start.Union(bb)
		}
	}
	ext := start.Max.Sub(start.Min)
	reach := followReach * math.Max(ext[0], math.Max(ext[1], ext[2]))
	var box collide.AABB
	add := func(e ecs.Entity) {
		at, ok := bodyPosition(w, e)
		if !ok || at.Sub(mid).Len() > reach {
			return
		}
		bb, ok := bodyBounds(w, e, verts)
		if !ok {
			return
		}
		if !any {
			box, any = bb, true
			return
		}
		box = box.Union(bb)
	}
	for _, pc := range pieces {
		add(pc.entity)
	}
	for _, e := range thrown {
		add(e)
	}
	if !any {
		return lo, hi, false
	}
	a, b := plugin.ToScene(box.Min), plugin.ToScene(box.Max)
	lo = math32.Vector3{X: math32.Min(a.X, b.X), Y: math32.Min(a.Y, b.Y), Z: math32.Min(a.Z, b.Z)}
	hi = math32.Vector3{X: math32.Max(a.X, b.X), Y: math32.Max(a.Y, b.Y), Z: math32.Max(a.Z, b.Z)}
	return lo, hi, true
}
