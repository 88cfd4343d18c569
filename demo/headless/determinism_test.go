package headless

import "testing"

// TestPileDeterministicAcrossWorkers: the 100-body pile through its settling — islands splitting
// into parts that fall asleep beside rolling spheres, detached contacts pressing on sleeping
// bodies and their steps solved again (physics/sleeping_parts.go) — ends in the same state, bit for
// bit, with one worker and with two.
func TestPileDeterministicAcrossWorkers(t *testing.T) {
	var hashes []string
	for _, workers := range []string{"1", "2"} {
		res := runScene(t, "-scene", "pile", "-seconds", "3.5", "-workers", workers)
		if res.SleepingMean < 20 {
			t.Errorf("workers %s: %.1f bodies asleep on average; the test needs parts to fall asleep", workers, res.SleepingMean)
		}
		hashes = append(hashes, res.Hash)
	}
	if hashes[0] != hashes[1] {
		t.Errorf("1 and 2 workers gave hashes %s and %s", hashes[0], hashes[1])
	}
}
