package main

import "syscall/js"

// pageState is the game's state as last published to the page.
type pageState struct {
	frames int
	throws int
	knocks int
	state  string
	err    error
	object js.Value // the page's staggerGame object
}

var published pageState

// publishState keeps the page's staggerGame object up to date with the game after every frame:
// frames rendered, the level's title, state and throws, and the game's error, if any. Only the
// frame count is written every frame; the rest when it changes. knocks counts the impact sounds
// started, and audio is the Web Audio context's state ("" until the player's first click makes
// it). Scripts driving the page (the
// end-to-end test in demo/web) read it; the game itself does not.
func publishState(g *game) {
	p := &published
	if p.object.IsUndefined() {
		p.object = js.Global().Get("Object").New()
		js.Global().Set("staggerGame", p.object)
		p.object.Set("firstFrame", js.Global().Get("performance").Call("now"))
		p.throws = -1
	}
	p.frames++
	p.object.Set("frames", p.frames)
	state, level := "", ""
	if g.prog != nil {
		state, level = g.prog.state.String(), g.prog.lvl.title
	}
	if g.sound.played != p.knocks {
		p.knocks = g.sound.played
		p.object.Set("knocks", p.knocks)
		audio := ""
		if v, ok := g.sound.voices.(*webVoices); ok && !v.ctx.IsUndefined() {
			audio = v.ctx.Get("state").String()
		}
		p.object.Set("audio", audio)
	}
	if g.throws != p.throws || state != p.state || g.lastErr != p.err {
		p.throws, p.state, p.err = g.throws, state, g.lastErr
		p.object.Set("throws", g.throws)
		p.object.Set("level", level)
		p.object.Set("state", state)
		msg := ""
		if g.lastErr != nil {
			msg = g.lastErr.Error()
		}
		p.object.Set("error", msg)
	}
}
