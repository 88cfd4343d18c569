package main

import (
	"testing"
	"time"
)

// TestStatusRefresh: a status whose figures change every frame is redrawn at most every
// statusRefresh, always with the latest text; a change of words shows at once.
func TestStatusRefresh(t *testing.T) {
	var s statusRefresher
	frame := 10 * time.Millisecond
	if !s.due(frame, "12 bodies  |  3 contacts  |  solver: exact") {
		t.Fatal("the first text was not shown")
	}
	redraws := 0
	for i := 0; i < 100; i++ { // one second of frames whose counts change every frame
		if s.due(frame, "12 bodies  |  "+string(rune('0'+i%10))+" contacts  |  solver: exact") {
			redraws++
			if s.shown[14] != byte('0'+i%10) {
				t.Fatalf("frame %d: shown %q, not the frame's text", i, s.shown)
			}
		}
	}
	if want := int(time.Second / statusRefresh); redraws != want {
		t.Errorf("%d redraws in a second of changing figures, want %d", redraws, want)
	}
	if !s.due(frame, "12 bodies  |  9 contacts  |  solver: PGS (approximate)") {
		t.Error("a change of words (the solver swapped) waited for the refresh")
	}
	if s.due(frame, "12 bodies  |  9 contacts  |  solver: PGS (approximate)") {
		t.Error("the same text was drawn again")
	}
}

// TestSameWords: texts that differ only in digits have the same words, whatever the figures'
// lengths; any other difference, or an extra word, does not.
func TestSameWords(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want bool
	}{
		{"frame 9.5 ms", "frame 10.25 ms", true},
		{"throws 1/6", "throws 2/6", true},
		{"", "", true},
		{"12", "", true},
		{"solver: exact", "solver: idle", false},
		{"paused 3", "3", false},
		{"top 1.0 m", "top 1.0 m of", false},
	} {
		if got := sameWords(tc.a, tc.b); got != tc.want {
			t.Errorf("sameWords(%q, %q) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
}
