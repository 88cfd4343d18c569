package main

import (
	"io"
	"slices"
	"strings"
	"testing"
)

// TestQueryArgs: a page's query parameters become the window flags of the same names, in a fixed
// order whatever the query's, with a bare parameter setting a boolean; an unknown, repeated or
// malformed parameter is an error that names it, and a bad value is refused by run's flag parsing
// with the flag named.
func TestQueryArgs(t *testing.T) {
	for _, tc := range []struct {
		query string
		want  []string
	}{
		{"", nil},
		{"?", nil},
		{"?scene=pyramid", []string{"-scene=pyramid"}},
		{"solver=pgs&scene=stack&n=5", []string{"-scene=stack", "-n=5", "-solver=pgs"}},
		{"?contacts&scene=arch", []string{"-scene=arch", "-contacts"}},
		{"?contacts=false&mu=0.3", []string{"-mu=0.3", "-contacts=false"}},
		{"?scene=a%20b", []string{"-scene=a b"}},
	} {
		got, err := queryArgs(tc.query)
		if err != nil {
			t.Errorf("%q: %v", tc.query, err)
			continue
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%q: got %q, want %q", tc.query, got, tc.want)
		}
	}
	for _, tc := range []struct{ query, names string }{
		{"?headless", `"headless"`},
		{"?screenshot=/tmp/x.png", `"screenshot"`},
		{"?throw-after=1s", `"throw-after"`},
		{"?scene=stack&scene=arch", `"scene"`},
		{"?n=%zz", "%zz"},
	} {
		_, err := queryArgs(tc.query)
		if err == nil || !strings.Contains(err.Error(), tc.names) {
			t.Errorf("%q: error %v, want one naming %s", tc.query, err, tc.names)
		}
	}
	// The values go through run's checks, which refuse them before any window opens.
	for _, tc := range []struct{ query, names string }{
		{"?scene=nosuchscene", "nosuchscene"},
		{"?n=two", "-n"},
		{"?dt=-1", "dt"},
		{"?contacts=maybe", "-contacts"},
	} {
		args, err := queryArgs(tc.query)
		if err != nil {
			t.Fatalf("%q: %v", tc.query, err)
		}
		if err := run(args, io.Discard, io.Discard); err == nil || !strings.Contains(err.Error(), tc.names) {
			t.Errorf("%q: run's error %v, want one naming %s", tc.query, err, tc.names)
		}
	}
}
