package solver

import (
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"
	"time"
)

// TestOptionsValidateEveryField gives every Options field values outside its documented range and
// checks that Validate and NewSolver refuse each with an *InputError naming that field and the
// value found; values at the edges of the ranges, the zero Options and GameOptions pass. Every
// field that is not a bool must appear in the table.
func TestOptionsValidateEveryField(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	bad := []struct {
		field string
		edit  func(*Options)
		value string // how the value appears in the message
	}{
		{"Method", func(o *Options) { o.Method = "newton" }, `"newton"`},
		{"Friction", func(o *Options) { o.Friction = 2 }, "2"},
		{"Friction", func(o *Options) { o.Friction = -1 }, "-1"},
		{"Tangents", func(o *Options) { o.Tangents = 1 << 30 }, "1073741824"},
		{"Tangents", func(o *Options) { o.Tangents = MaxTangents + 2 }, "66"},
		{"Tangents", func(o *Options) { o.Tangents = 5 }, "5"},
		{"Tangents", func(o *Options) { o.Tangents = 2 }, "2"},
		{"Tangents", func(o *Options) { o.Tangents = -8 }, "-8"},
		{"Epsilon", func(o *Options) { o.Epsilon = nan }, "NaN"},
		{"Epsilon", func(o *Options) { o.Epsilon = inf }, "+Inf"},
		{"Epsilon", func(o *Options) { o.Epsilon = -1e-4 }, "-0.0001"},
		{"Epsilon", func(o *Options) { o.Epsilon = 1 }, "1"},
		{"MaxIters", func(o *Options) { o.MaxIters = -1 }, "-1"},
		{"StallIters", func(o *Options) { o.StallIters = -1 }, "-1"},
		{"TimeBudget", func(o *Options) { o.TimeBudget = -time.Millisecond }, "-1ms"},
		{"ContactSolver", func(o *Options) { o.ContactSolver = ContactInterior + 1 }, "5"},
		{"ContactSolver", func(o *Options) { o.ContactSolver = -1 }, "-1"},
		{"ContactTol", func(o *Options) { o.ContactTol = nan }, "NaN"},
		{"ContactTol", func(o *Options) { o.ContactTol = math.Inf(-1) }, "-Inf"},
		{"ContactTol", func(o *Options) { o.ContactTol = -1e-10 }, "-1e-10"},
		{"ContactTol", func(o *Options) { o.ContactTol = 2 }, "2"},
		{"PivotLimit", func(o *Options) { o.PivotLimit = -1 }, "-1"},
		{"PivotLimit", func(o *Options) { o.PivotLimit = MaxPivotLimit + 1 }, "2001"},
		{"FrictionTol", func(o *Options) { o.FrictionTol = nan }, "NaN"},
		{"FrictionTol", func(o *Options) { o.FrictionTol = inf }, "+Inf"},
		{"FrictionTol", func(o *Options) { o.FrictionTol = -1 }, "-1"},
		{"FrictionMaxSweeps", func(o *Options) { o.FrictionMaxSweeps = -5 }, "-5"},
		{"FrictionGap", func(o *Options) { o.FrictionGap = nan }, "NaN"},
		{"FrictionGap", func(o *Options) { o.FrictionGap = inf }, "+Inf"},
		{"FrictionGap", func(o *Options) { o.FrictionGap = -1e-4 }, "-0.0001"},
		{"FrictionGap", func(o *Options) { o.FrictionGap = 1 }, "1"},
		{"WorkBudget", func(o *Options) { o.WorkBudget = -1 }, "-1"},
		{"Anderson", func(o *Options) { o.Anderson = MaxAnderson + 1 }, "65"},
		{"Anderson", func(o *Options) { o.Anderson = 1 << 30 }, "1073741824"},
		{"Presolve", func(o *Options) { o.Presolve = -1 }, "-1"},
		{"PGSIters", func(o *Options) { o.PGSIters = -50 }, "-50"},
		{"LCPMaxSize", func(o *Options) { o.LCPMaxSize = -1 }, "-1"},
		{"LCPMaxSize", func(o *Options) { o.LCPMaxSize = MaxLCPSize + 1 }, "4001"},
		{"LCPMaxPivots", func(o *Options) { o.LCPMaxPivots = -3 }, "-3"},
	}
	covered := map[string]bool{}
	for _, tc := range bad {
		covered[tc.field] = true
		for _, base := range []Options{{}, GameOptions()} {
			o := base
			tc.edit(&o)
			for name, err := range map[string]error{"Validate": o.Validate(), "NewSolver": newSolverErr(o)} {
				var ie *InputError
				if !errors.As(err, &ie) || ie.Field != "Options."+tc.field || ie.Item != "options" {
					t.Errorf("%s with a bad %s (%s): got %v, want an *InputError naming Options.%s", name, tc.field, tc.value, err, tc.field)
					continue
				}
				if !strings.Contains(err.Error(), "got "+tc.value) {
					t.Errorf("%s with a bad %s: %q does not give the value %s", name, tc.field, err, tc.value)
				}
			}
		}
	}
	typ := reflect.TypeOf(Options{})
	for i := 0; i < typ.NumField(); i++ {
		if f := typ.Field(i); f.Type.Kind() != reflect.Bool && !covered[f.Name] {
			t.Errorf("Options.%s has no case of a bad value", f.Name)
		}
	}

	good := []Options{
		{},
		GameOptions(),
		{Tangents: 4}, {Tangents: MaxTangents},
		{Epsilon: 1e-24, ContactTol: 1e-300, FrictionTol: 0.5, FrictionGap: 0.999},
		{MaxIters: 1 << 30, FrictionMaxSweeps: 1 << 30, Presolve: 1 << 30, PGSIters: 1 << 30, LCPMaxPivots: 1 << 30, WorkBudget: 1 << 40},
		{TimeBudget: time.Hour},
		{PivotLimit: MaxPivotLimit, LCPMaxSize: MaxLCPSize, Anderson: MaxAnderson},
		{Anderson: -1}, {Anderson: math.MinInt},
		{Method: MethodPGS, Friction: Disc, ContactSolver: ContactPivot},
		{Method: MethodLCP, ContactSolver: ContactInterior},
	}
	for _, o := range good {
		if err := o.Validate(); err != nil {
			t.Errorf("%+v refused: %v", o, err)
		}
		if _, err := NewSolver(o); err != nil {
			t.Errorf("NewSolver(%+v): %v", o, err)
		}
	}
}

// newSolverErr returns NewSolver's error for o.
func newSolverErr(o Options) error {
	_, err := NewSolver(o)
	return err
}

// TestOptionsDefaultsFilled checks that the zero Options get the documented defaults and that
// Validate's ranges did not change them.
func TestOptionsDefaultsFilled(t *testing.T) {
	s, err := NewSolver(Options{})
	if err != nil {
		t.Fatal(err)
	}
	got := s.Options()
	want := Options{Method: MethodSP, Tangents: 8, Epsilon: 1e-4, MaxIters: 50, ContactTol: 1e-10, PivotLimit: 400,
		FrictionTol: 1e-9, FrictionMaxSweeps: 2000, Anderson: 5, PGSIters: 50, LCPMaxSize: 2000}
	if got != want {
		t.Errorf("defaults:\n got %+v\nwant %+v", got, want)
	}
}
