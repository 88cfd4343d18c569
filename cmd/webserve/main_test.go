package main

import (
	"io"
	"strings"
	"testing"
)

// TestRunRefusesBadArguments: a non-loopback address without -public, a malformed address, a
// stray argument and an unknown flag are errors that name what is wrong, before anything is
// built or served.
func TestRunRefusesBadArguments(t *testing.T) {
	for _, tc := range []struct {
		args  []string
		names string
	}{
		{[]string{"-build=false", "-addr", "0.0.0.0:8080"}, "0.0.0.0:8080"},
		{[]string{"-build=false", "-addr", "8080"}, `"8080"`},
		{[]string{"-build=false", "stray"}, `"stray"`},
		{[]string{"-bogus"}, "bogus"},
	} {
		err := run(tc.args, io.Discard)
		if err == nil || !strings.Contains(err.Error(), tc.names) {
			t.Errorf("%v: error %v, want one naming %s", tc.args, err, tc.names)
		}
	}
}
