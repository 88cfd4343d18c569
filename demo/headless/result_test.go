package headless

import (
	"encoding/json"
	"math"
	"testing"
)

// TestResultPhasesAndCutShort: a cube sliding down a 45° incline (μ 0.8) with at most one staggered
// subsequence per solve and ε 1e-12 is cut short in most steps, and its first, cold-started solve
// ends with an infinite rel_err, which the JSON must still carry (as math.MaxFloat64); with the
// default -iters and -eps no solve is cut short. Both runs report every phase's time, and the
// island solves take measurable time.
func TestResultPhasesAndCutShort(t *testing.T) {
	base := []string{"-scene", "incline", "-n", "45", "-mu", "0.8", "-seconds", "0.5", "-workers", "1"}
	cut := runScene(t, append(base, "-iters", "1", "-eps", "1e-12")...)
	if cut.CutShort < cut.Steps/2 || cut.CutShortFrac <= 0.5 || cut.CutShortFrac > 1 {
		t.Errorf("-iters 1: cut_short %d, cut_short_frac %v over %d steps", cut.CutShort, cut.CutShortFrac, cut.Steps)
	}
	if cut.ErrRatioMax != math.MaxFloat64 {
		t.Errorf("-iters 1: err_ratio_max %v, want math.MaxFloat64 for the cold start's infinite rel_err", cut.ErrRatioMax)
	}
	if _, err := json.Marshal(cut); err != nil {
		t.Errorf("-iters 1: the result does not encode: %v", err)
	}

	exact := runScene(t, base...)
	if exact.CutShort != 0 || exact.CutShortFrac != 0 || exact.ErrRatioMax > 1 || exact.ConvergedFrac != 1 {
		t.Errorf("default -iters: cut_short %d (%v), err_ratio_max %v, converged_frac %v; want every solve within ε",
			exact.CutShort, exact.CutShortFrac, exact.ErrRatioMax, exact.ConvergedFrac)
	}
	for _, res := range []Result{cut, exact} {
		for _, ph := range []PhaseMs{res.PhaseMsMean, res.PhaseMsP95} {
			for _, ms := range []float64{ph.Gather, ph.Broad, ph.Narrow, ph.Islands, ph.Solve, ph.Integrate} {
				if !(ms >= 0) {
					t.Errorf("a phase's time is %v ms: %+v", ms, ph)
				}
			}
		}
		if !(res.PhaseMsMean.Solve > 0) {
			t.Errorf("solve's mean time is %v ms with %v islands a step", res.PhaseMsMean.Solve, res.IslandsMean)
		}
	}
}
