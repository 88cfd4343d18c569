package physics

import (
	"math"
	"strings"
	"testing"
)

func TestConfigValidateNamesTheField(t *testing.T) {
	cases := []struct {
		field string
		edit  func(*Config)
	}{
		{"Config.Gravity", func(c *Config) { c.Gravity[2] = math.NaN() }},
		{"Config.ContactMargin", func(c *Config) { c.ContactMargin = -1 }},
		{"Config.RestingGap", func(c *Config) { c.RestingGap = c.ContactMargin }},
		{"Config.SeparationSpeed", func(c *Config) { c.SeparationSpeed = -1 }},
		{"Config.SeparationSpeed", func(c *Config) { c.SeparationSpeed = math.NaN() }},
		{"Config.SeparationSpeed", func(c *Config) { c.SeparationSpeed = 1e3 }},
		{"Config.SeparationSlop", func(c *Config) { c.SeparationSlop = c.ContactMargin }},
		{"Config.SeparationSlop", func(c *Config) { c.SeparationSlop = math.Inf(1) }},
		{"Config.RestingGap", func(c *Config) { c.RestingGap = math.Inf(1) }},
		{"Config.BroadPhaseMargin", func(c *Config) { c.BroadPhaseMargin = math.NaN() }},
		{"Config.PenetrationRecovery", func(c *Config) { c.PenetrationRecovery = 2 }},
		{"Config.MaxRecoverySpeed", func(c *Config) { c.MaxRecoverySpeed = -0.1 }},
		{"Config.Workers", func(c *Config) { c.Workers = -1 }},
		{"Config.Solver", func(c *Config) { c.Solver.Method = "nope" }},
	}
	if err := DefaultConfig().Validate(); err != nil {
		t.Fatalf("default config refused: %v", err)
	}
	for _, tc := range cases {
		c := DefaultConfig()
		tc.edit(&c)
		err := c.Validate()
		if err == nil || !strings.Contains(err.Error(), tc.field) {
			t.Errorf("%s: got %v, want an error naming the field", tc.field, err)
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
