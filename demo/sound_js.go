package main

import (
	"encoding/binary"
	"math"
	"syscall/js"
)

// webVoiceCount is how many knocks can sound at once in the browser, as on the desktop.
const webVoiceCount = 6

// webVoicePitches vary the knock a little from voice to voice, as the desktop's voices do.
var webVoicePitches = [webVoiceCount]float64{1, 0.9, 1.1, 0.95, 1.05, 0.85}

// webVoices plays the knock through the Web Audio API: one AudioBuffer of knockSamples, and a
// short-lived buffer source and gain node per knock, as Web Audio intends. Browsers let a page
// start audio only from a user's gesture, so the AudioContext is made on the first click or key
// press; until then play reports false and the knocks are dropped.
type webVoices struct {
	ctx    js.Value // the AudioContext, undefined until the first gesture
	buffer js.Value // the knock
	// busyUntil is when each voice's knock ends, in the context's time (s).
	busyUntil [webVoiceCount]float64
	next      int
	listener  js.Func // the first-gesture listener, released once the context is made
	closed    bool
}

// openVoices returns the browser's knock voices (the silenced flag is the desktop's: the browser
// has no OpenAL to silence). A page without Web Audio runs silently.
func openVoices(bool) voices {
	if ac := js.Global().Get("AudioContext"); ac.IsUndefined() || ac.IsNull() {
		return nil
	}
	v := &webVoices{}
	doc := js.Global().Get("document")
	v.listener = js.FuncOf(func(js.Value, []js.Value) any {
		v.start()
		return nil
	})
	for _, ev := range []string{"pointerdown", "mousedown", "keydown"} {
		doc.Call("addEventListener", ev, v.listener, true)
	}
	return v
}

// start makes the AudioContext and the knock's buffer, from within a user's gesture; it does
// nothing once they are made. A browser that refuses leaves the game silent.
func (v *webVoices) start() {
	if !v.ctx.IsUndefined() || v.closed {
		return
	}
	defer func() {
		if recover() != nil { // a JavaScript exception: no sound, no crash
			v.ctx, v.buffer = js.Undefined(), js.Undefined()
		}
	}()
	ctx := js.Global().Get("AudioContext").New()
	samples := knockSamples()
	raw := make([]byte, 4*len(samples))
	for i, s := range samples {
		binary.LittleEndian.PutUint32(raw[4*i:], math.Float32bits(float32(s)))
	}
	bytes := js.Global().Get("Uint8Array").New(len(raw))
	js.CopyBytesToJS(bytes, raw)
	data := js.Global().Get("Float32Array").New(bytes.Get("buffer"))
	buf := ctx.Call("createBuffer", 1, len(samples), knockRate)
	buf.Call("copyToChannel", data, 0)
	if ctx.Get("state").String() == "suspended" {
		ctx.Call("resume")
	}
	v.ctx, v.buffer = ctx, buf
	doc := js.Global().Get("document")
	for _, ev := range []string{"pointerdown", "mousedown", "keydown"} {
		doc.Call("removeEventListener", ev, v.listener, true)
	}
	// Release may be called from within the function itself; it is never called again.
	v.listener.Release()
}

// play starts the next free voice at gain: a buffer source at the voice's pitch through a gain
// node. It reports false before the first gesture, when every voice is busy, or when the
// browser refuses.
func (v *webVoices) play(gain float64) (ok bool) {
	if v.ctx.IsUndefined() || v.closed {
		return false
	}
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	now := v.ctx.Get("currentTime").Float()
	for k := range v.busyUntil {
		i := (v.next + k) % webVoiceCount
		if now < v.busyUntil[i] {
			continue
		}
		src := v.ctx.Call("createBufferSource")
		src.Set("buffer", v.buffer)
		src.Get("playbackRate").Set("value", webVoicePitches[i])
		g := v.ctx.Call("createGain")
		g.Get("gain").Set("value", gain)
		src.Call("connect", g)
		g.Call("connect", v.ctx.Get("destination"))
		src.Call("start")
		v.busyUntil[i] = now + knockSeconds/webVoicePitches[i]
		v.next = i + 1
		return true
	}
	return false
}

// close stops the sound: the context is closed, and no knock plays after.
func (v *webVoices) close() {
	if v.closed {
		return
	}
	v.closed = true
	if !v.ctx.IsUndefined() {
		v.ctx.Call("close")
	}
}
