package headless

// Result is the runner's JSON object (docs/scenes.md, "Result", gives each field's meaning and
// unit). max_penetration is the deepest contact gap the narrow phase reported before a step's
// solve. energy_rise is measured from the world after the scene's script acted
// (scenes.Scene.Advance), so a spawned body's energy is not a rise. sleeping_mean is the mean
// number of dynamic bodies asleep after a step; islands_mean, iters_mean, converged_frac,
// cut_short and cut_short_frac count the islands solved, not sleeping ones.
type Result struct {
	Scene        string  `json:"scene"`
	N            int     `json:"n"`
	Seed         uint64  `json:"seed"`
	Solver       string  `json:"solver"`
	Friction     string  `json:"friction"`
	Mu           float64 `json:"mu"`
	E            float64 `json:"e"`
	Dt           float64 `json:"dt"`
	Steps        int     `json:"steps"`
	Bodies       int     `json:"bodies"`
	Workers      int     `json:"workers"`
	ContactsMean float64 `json:"contacts_mean"`
	ContactsMax  int     `json:"contacts_max"`
	IslandsMean  float64 `json:"islands_mean"`
	SleepingMean float64 `json:"sleeping_mean"`
	MsMedian     float64 `json:"ms_median"`
	MsP95        float64 `json:"ms_p95"`
	// PhaseMsMean and PhaseMsP95 are the mean and the 95th percentile (nearest rank) over the
	// steps of each phase of physics.Simulation.Step (physics.PhaseTimes).
	PhaseMsMean PhaseMs `json:"phase_ms_mean"`
	PhaseMsP95  PhaseMs `json:"phase_ms_p95"`
	ItersMean   float64 `json:"iters_mean"`
	// WorkTotal sums physics.StepStats.Work over the run: the island solves' contact updates, a
	// cost that does not depend on the machine or its load.
	WorkTotal     int     `json:"work_total"`
	ConvergedFrac float64 `json:"converged_frac"`
	// CutShort sums physics.StepStats.CutShort over the run: island solves that stopped at -iters
	// subsequences before meeting ε (the runner sets no time budget); CutShortFrac is its share of
	// the solved islands.
	CutShort     int     `json:"cut_short"`
	CutShortFrac float64 `json:"cut_short_frac"`
	// ErrRatioMax is the largest physics.StepStats.MaxErrRatio (rel_err/ε) of any step. JSON has no
	// infinity, so math.MaxFloat64 stands for +Inf.
	ErrRatioMax    float64 `json:"err_ratio_max"`
	MaxShift       float64 `json:"max_shift"`
	MaxDrop        float64 `json:"max_drop"`
	MinZ           float64 `json:"min_z"`
	MaxPenetration float64 `json:"max_penetration"`
	// MaxPenetrationLate is max_penetration over the steps that start at or after 1 s, once the
	// start's falls have landed.
	MaxPenetrationLate float64 `json:"max_penetration_late"`
	Slide              float64 `json:"slide"`
	SlideExpected      float64 `json:"slide_expected"`
	// FreqHz and FreqExpectedHz are the beam scene's first bending frequency, from the crossings
	// of the tip's height about its mean, and Euler–Bernoulli's; SagM and SagExpectedM the tip's
	// mean sag and Euler–Bernoulli's static deflection wL⁴/(8EI). Only the beam scene sets them.
	FreqHz         float64 `json:"freq_hz,omitempty"`
	FreqExpectedHz float64 `json:"freq_expected_hz,omitempty"`
	SagM           float64 `json:"sag_m,omitempty"`
	SagExpectedM   float64 `json:"sag_expected_m,omitempty"`
	EnergyRise     float64 `json:"energy_rise"`
	// SeparationWork sums physics.StepStats.SeparationWork over the run: the potential energy, J,
	// that the separation of overlaps added; energy_rise leaves it out.
	SeparationWork float64 `json:"separation_work"`
	NonFinite      bool    `json:"nonfinite"`
	Hash           string  `json:"hash"`
}

// PhaseMs gives a figure, in ms, for each phase of a fixed step (physics.PhaseTimes).
type PhaseMs struct {
	Gather    float64 `json:"gather"`
	Broad     float64 `json:"broad"`
	Narrow    float64 `json:"narrow"`
	Islands   float64 `json:"islands"`
	Solve     float64 `json:"solve"`
	Integrate float64 `json:"integrate"`
}
