package physics

import (
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/stagger-physics/stagger/solver"
)

// TestConfigValidateNamesTheField gives every Config field values outside its documented range and
// checks that Validate refuses each with a *FieldError naming the field and the value found, while
// DefaultConfig and values at the edges of the ranges pass. Every field that is not a bool must
// appear in the table.
func TestConfigValidateNamesTheField(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	cases := []struct {
		field string
		edit  func(*Config)
		value string // how the value appears in the message
	}{
		{"Config.SeparationSpeed", func(c *Config) { c.SeparationSpeed = -1 }, "-1"},
		{"Config.SeparationSpeed", func(c *Config) { c.SeparationSpeed = nan }, "NaN"},
		{"Config.SeparationSpeed", func(c *Config) { c.SeparationSpeed = 1e3 }, "1000"},
		{"Config.SeparationSlop", func(c *Config) { c.SeparationSlop = c.ContactMargin }, "0.02"},
		{"Config.SeparationSlop", func(c *Config) { c.SeparationSlop = inf }, "+Inf"},
		{"Config.Gravity", func(c *Config) { c.Gravity[2] = math.NaN() }, "[0 0 NaN]"},
		{"Config.Gravity", func(c *Config) { c.Gravity[0] = inf }, "[+Inf 0 -9.80665]"},
		{"Config.Gravity", func(c *Config) { c.Gravity[2] = -1e300 }, "[0 0 -1e+300]"},
		{"Config.Gravity", func(c *Config) { c.Gravity = mgl64.Vec3{MaxGravity, 1, 0} }, "[10000 1 0]"},
		{"Config.ContactMargin", func(c *Config) { c.ContactMargin = -1 }, "-1"},
		{"Config.ContactMargin", func(c *Config) { c.ContactMargin = nan }, "NaN"},
		{"Config.ContactMargin", func(c *Config) { c.ContactMargin = inf }, "+Inf"},
		{"Config.ContactMargin", func(c *Config) { c.ContactMargin = MaxMargin * 1.01 }, "10.1"},
		{"Config.RestingGap", func(c *Config) { c.RestingGap = c.ContactMargin }, "0.02"},
		{"Config.RestingGap", func(c *Config) { c.RestingGap = math.Inf(1) }, "+Inf"},
		{"Config.RestingGap", func(c *Config) { c.RestingGap = nan }, "NaN"},
		{"Config.RestingGap", func(c *Config) { c.RestingGap = -1e-6 }, "-1e-06"},
		{"Config.BroadPhaseMargin", func(c *Config) { c.BroadPhaseMargin = math.NaN() }, "NaN"},
		{"Config.BroadPhaseMargin", func(c *Config) { c.BroadPhaseMargin = -0.05 }, "-0.05"},
		{"Config.BroadPhaseMargin", func(c *Config) { c.BroadPhaseMargin = 1e300 }, "1e+300"},
		{"Config.PenetrationRecovery", func(c *Config) { c.PenetrationRecovery = 2 }, "2"},
		{"Config.PenetrationRecovery", func(c *Config) { c.PenetrationRecovery = nan }, "NaN"},
		{"Config.PenetrationRecovery", func(c *Config) { c.PenetrationRecovery = -0.1 }, "-0.1"},
		{"Config.MaxRecoverySpeed", func(c *Config) { c.MaxRecoverySpeed = -0.1 }, "-0.1"},
		{"Config.MaxRecoverySpeed", func(c *Config) { c.MaxRecoverySpeed = inf }, "+Inf"},
		{"Config.RestitutionThreshold", func(c *Config) { c.RestitutionThreshold = -1 }, "-1"},
		{"Config.RestitutionThreshold", func(c *Config) { c.RestitutionThreshold = nan }, "NaN"},
		{"Config.RestitutionThreshold", func(c *Config) { c.RestitutionThreshold = inf }, "+Inf"},
		{"Config.SleepTime", func(c *Config) { c.SleepTime = nan }, "NaN"},
		{"Config.SleepTime", func(c *Config) { c.SleepTime = -1 }, "-1"},
		{"Config.SleepLinear", func(c *Config) { c.SleepLinear = inf }, "+Inf"},
		{"Config.SleepLinear", func(c *Config) { c.SleepLinear = -0.01 }, "-0.01"},
		{"Config.TorsionalPatchRadius", func(c *Config) { c.TorsionalPatchRadius = -0.01 }, "-0.01"},
		{"Config.TorsionalPatchRadius", func(c *Config) { c.TorsionalPatchRadius = inf }, "+Inf"},
		{"Config.SleepAngular", func(c *Config) { c.SleepAngular = nan }, "NaN"},
		{"Config.SleepAngular", func(c *Config) { c.SleepAngular = -0.035 }, "-0.035"},
		{"Config.Workers", func(c *Config) { c.Workers = -1 }, "-1"},
		{"Config.Workers", func(c *Config) { c.Workers = 100000 }, "100000"},
		{"Config.Solver.Method", func(c *Config) { c.Solver.Method = "nope" }, `"nope"`},
		{"Config.Solver.Epsilon", func(c *Config) { c.Solver.Epsilon = nan }, "NaN"},
		{"Config.Solver.ContactTol", func(c *Config) { c.Solver.ContactTol = nan }, "NaN"},
		{"Config.Solver.FrictionTol", func(c *Config) { c.Solver.FrictionTol = inf }, "+Inf"},
		{"Config.Solver.Tangents", func(c *Config) { c.Solver.Tangents = 1 << 30 }, "1073741824"},
	}
	if err := DefaultConfig().Validate(); err != nil {
		t.Fatalf("default config refused: %v", err)
	}
	covered := map[string]bool{}
	for _, tc := range cases {
		covered[strings.Join(strings.Split(tc.field, ".")[:2], ".")] = true
		c := DefaultConfig()
		tc.edit(&c)
		err := c.Validate()
		var fe *FieldError
		if !errors.As(err, &fe) || fe.Field != tc.field {
			t.Errorf("%s (%s): got %v, want a *FieldError naming the field", tc.field, tc.value, err)
			continue
		}
		if !strings.Contains(fe.Reason, "got "+tc.value) {
			t.Errorf("%s: %q does not give the value %s", tc.field, err, tc.value)
		}
	}
	typ := reflect.TypeOf(Config{})
	for i := 0; i < typ.NumField(); i++ {
		if f := typ.Field(i); f.Type.Kind() != reflect.Bool && !covered["Config."+f.Name] {
			t.Errorf("Config.%s has no case of a bad value", f.Name)
		}
	}

	for name, edit := range map[string]func(*Config){
		"zero gravity":        func(c *Config) { c.Gravity = mgl64.Vec3{} },
		"strongest gravity":   func(c *Config) { c.Gravity = mgl64.Vec3{0, 0, -MaxGravity} },
		"largest margins":     func(c *Config) { c.ContactMargin, c.BroadPhaseMargin = MaxMargin, MaxMargin },
		"no margins":          func(c *Config) { c.ContactMargin, c.BroadPhaseMargin, c.RestingGap, c.SeparationSlop = 0, 0, 0, 0 },
		"full recovery":       func(c *Config) { c.PenetrationRecovery, c.MaxRecoverySpeed = 1, 1e6 },
		"never sleep":         func(c *Config) { c.SleepTime, c.SleepLinear, c.SleepAngular = 0, 0, 0 },
		"most workers":        func(c *Config) { c.Workers = MaxWorkers },
		"one worker":          func(c *Config) { c.Workers = 1 },
		"solver zero options": func(c *Config) { c.Solver = solver.Options{} },
	} {
		c := DefaultConfig()
		edit(&c)
		if err := c.Validate(); err != nil {
			t.Errorf("%s refused: %v", name, err)
		}
	}
}

func TestGapTermBands(t *testing.T) {
	c := DefaultConfig()
	h := 0.01
	if b := gapTerm(0.5*c.RestingGap, h, &c); b != 0 {
		t.Errorf("touching gap: b = %v, want 0", b)
	}
	if b := gapTerm(-1e-11, h, &c); b != 0 {
		t.Errorf("round-off penetration without recovery: b = %v, want 0", b)
	}
	if b, want := gapTerm(0.01, h, &c), 0.01/h; b != want {
		t.Errorf("speculative gap: b = %v, want %v", b, want)
	}
	c.PenetrationRecovery = 0.5
	if b := gapTerm(-0.1, h, &c); b != -c.MaxRecoverySpeed {
		t.Errorf("deep penetration: b = %v, want the speed bound %v", b, -c.MaxRecoverySpeed)
	}
}
