package headless

import (
	"math"
	"testing"
)

// TestJellyRunsAndIsDeterministic runs the jelly scene's 15 deformable blocks, five stacked on
// others, for 2 s, through their landing, with 1 and 2 workers: no value is non-finite, no surface
// vertex sinks more than 5 mm into a box, the ground or another block (max_penetration counts
// every contact's gap), no step gains more than 1e-6 J (about 1e-9 of the drop's energy; the
// meter counts the blocks' kinetic, elastic and gravitational energy), and both runs give the
// same hash, which covers the blocks' frames and modal states.
func TestJellyRunsAndIsDeterministic(t *testing.T) {
	var hashes []string
	for _, workers := range []string{"1", "2"} {
		res := runSceneOnly(t, "-scene", "jelly", "-seconds", "2", "-workers", workers)
		if res.Bodies != 26 {
			t.Errorf("workers %s: %d bodies, want 15 blocks, 10 boxes and the ground", workers, res.Bodies)
		}
		if res.MaxPenetration > 5e-3 {
			t.Errorf("workers %s: max_penetration %.3g m, want at most 5 mm", workers, res.MaxPenetration)
		}
		if res.EnergyRise > 1e-6 {
			t.Errorf("workers %s: energy rose by %.3g J in one step", workers, res.EnergyRise)
		}
		if res.ContactsMean == 0 || math.IsNaN(res.MinZ) {
			t.Errorf("workers %s: contacts_mean %v, min_z %v: the blocks never landed", workers, res.ContactsMean, res.MinZ)
		}
		hashes = append(hashes, res.Hash)
	}
	if hashes[0] != hashes[1] {
		t.Errorf("1 and 2 workers gave hashes %s and %s", hashes[0], hashes[1])
	}
}

// TestBeamRunnerFields runs the beam scene through the runner for 5 s and checks its JSON fields
// against Euler–Bernoulli: the first bending frequency within 3 %, the mean sag within 5 % (the
// mean of 5 s, not a whole number of periods, is off the static sag by up to 2 %).
func TestBeamRunnerFields(t *testing.T) {
	res := runScene(t, "-scene", "beam", "-seconds", "5")
	if res.FreqExpectedHz == 0 || math.Abs(res.FreqHz/res.FreqExpectedHz-1) > 0.03 {
		t.Errorf("freq_hz %.4g, freq_expected_hz %.4g: more than 3 %% apart", res.FreqHz, res.FreqExpectedHz)
	}
	if res.SagExpectedM == 0 || math.Abs(res.SagM/res.SagExpectedM-1) > 0.05 {
		t.Errorf("sag_m %.4g, sag_expected_m %.4g: more than 5 %% apart", res.SagM, res.SagExpectedM)
	}
}
