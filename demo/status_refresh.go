package main

import "time"

// statusRefresh bounds how often the status lines are redrawn while only their figures change
// (counts of bodies and contacts, times, a falling tower's height). Figures that change every
// frame cannot be read, and every redraw costs a texture upload: g3n v0.2.0's Label.SetText draws
// the text again and uploads it with its mipmaps regenerated (glGenerateMipmap, inside which the
// heap corruption that aborted the demo a few times under llvmpipe struck; see setLabelText).
// Four redraws a second, as most games' statistics overlays do, cut those uploads from one a frame
// while bodies move to four a second.
const statusRefresh = 250 * time.Millisecond

// statusRefresher decides when the status lines are redrawn: at once when their words change (a
// key pressed, a throw counted, the level won, an error), and at most every statusRefresh while
// only their digits do. The frames' times drive it, so it needs no clock of its own.
type statusRefresher struct {
	shown string        // the text on the label
	age   time.Duration // since shown was set
}

// due advances the refresher by a frame of dt and reports whether text should replace the label's
// text now; if so, text counts as shown from here on.
func (s *statusRefresher) due(dt time.Duration, text string) bool {
	s.age += dt
	if text == s.shown || s.age < statusRefresh && sameWords(text, s.shown) {
		return false
	}
	s.shown, s.age = text, 0
	return true
}

// sameWords reports whether a and b differ at most in their ASCII digits: with the digits of each
// left out, the rest is the same.
func sameWords(a, b string) bool {
	i, j := 0, 0
	for {
		for i < len(a) && isDigit(a[i]) {
			i++
		}
		for j < len(b) && isDigit(b[j]) {
			j++
		}
		if i == len(a) || j == len(b) {
			return i == len(a) && j == len(b)
		}
		if a[i] != b[j] {
			return false
		}
		i++
		j++
	}
}

// isDigit reports whether c is an ASCII digit.
func isDigit(c byte) bool { return '0' <= c && c <= '9' }
