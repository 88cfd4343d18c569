package headless

import (
	"strings"
	"testing"
)

// TestFlagsRefused gives each numeric flag values outside its range and checks that ParseArgs and
// Resolve together refuse the command line with an error that starts with the flag's name and
// gives the value, while the defaults and values at the edges of the ranges are accepted.
func TestFlagsRefused(t *testing.T) {
	bad := []struct {
		args []string
		flag string // the flag the error must name first
		val  string // how the value appears in the message
	}{
		{[]string{"-dt", "0"}, "-dt", "0"},
		{[]string{"-dt", "-0.01"}, "-dt", "-0.01"},
		{[]string{"-dt", "NaN"}, "-dt", "NaN"},
		{[]string{"-dt", "+Inf"}, "-dt", "+Inf"},
		{[]string{"-dt", "1e9"}, "-dt", "1e+09"},
		{[]string{"-dt", "0.2"}, "-dt", "0.2"},
		{[]string{"-seconds", "0"}, "-seconds", "0"},
		{[]string{"-seconds", "NaN"}, "-seconds", "NaN"},
		{[]string{"-seconds", "Inf"}, "-seconds", "+Inf"},
		{[]string{"-seconds", "-1"}, "-seconds", "-1"},
		{[]string{"-seconds", "0.004"}, "-seconds", "0.004"},
		{[]string{"-seconds", "0.04", "-dt", "0.1"}, "-seconds", "0.04"},
		{[]string{"-seconds", "1e7", "-dt", "0.01"}, "-seconds / -dt", "1e+09"},
		{[]string{"-n", "0"}, "-n", "0"},
		{[]string{"-n", "-5"}, "-n", "-5"},
		{[]string{"-n", "1000000"}, "-n", "1000000"},
		{[]string{"-mu", "NaN"}, "-mu", "NaN"},
		{[]string{"-mu", "-1"}, "-mu", "-1"},
		{[]string{"-e", "1.5"}, "-e", "1.5"},
		{[]string{"-eps", "0"}, "-eps", "0"},
		{[]string{"-eps", "NaN"}, "-eps", "NaN"},
		{[]string{"-eps", "1"}, "-eps", "1"},
		{[]string{"-iters", "0"}, "-iters", "0"},
		{[]string{"-iters", "-3"}, "-iters", "-3"},
		{[]string{"-iters", "1000000"}, "-iters", "1000000"},
		{[]string{"-work", "-1"}, "-work", "-1"},
		{[]string{"-workers", "0"}, "-workers", "0"},
		{[]string{"-workers", "100000"}, "-workers", "100000"},
		{[]string{"-solver", "magic"}, "-solver", `"magic"`},
		{[]string{"-friction", "cone"}, "-friction", `"cone"`},
	}
	for _, tc := range bad {
		o, set, err := ParseArgs(tc.args)
		if err == nil {
			_, _, err = o.Resolve(set)
		}
		if err == nil {
			t.Errorf("%v accepted", tc.args)
			continue
		}
		if msg := err.Error(); !strings.HasPrefix(msg, tc.flag+" ") || !strings.Contains(msg, tc.val) {
			t.Errorf("%v: %q does not start with %s and give %s", tc.args, msg, tc.flag, tc.val)
		}
	}

	good := [][]string{
		nil,
		{"-dt", "0.1", "-seconds", "0.05"},     // one step: round(0.5) = 1
		{"-dt", "0.001", "-seconds", "0.0005"}, // one step
		{"-dt", "1e-6", "-seconds", "100"},     // 1e8 steps
		{"-eps", "0.5", "-iters", "10000", "-work", "1000000000", "-workers", "256"},
		{"-n", "1", "-mu", "0", "-e", "1"},
	}
	for _, args := range good {
		o, set, err := ParseArgs(args)
		if err == nil {
			_, _, err = o.Resolve(set)
		}
		if err != nil {
			t.Errorf("%v refused: %v", args, err)
		}
	}
}
