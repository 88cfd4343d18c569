package main

import (
	"fmt"
	"net/url"
	"slices"
	"strings"
)

// queryFlags are the settings the browser build takes from its page's query parameters, each the
// window flag of the same name: ?scene=pyramid opens that scene's level as -scene does, and
// ?scene=stack&n=5&solver=pgs&contacts sets the rest. The headless runner's flags and the
// screenshot and scripted-throw flags are left out: a page has no files, and its game does not
// exit to print a report.
var queryFlags = []string{
	"scene", "n", "mu", "e", "seed", "dt",
	"solver", "friction", "eps", "iters", "work", "workers", "separation", "joint", "cold", "sleep",
	"contacts",
}

// queryArgs turns a page's query string (with or without its leading '?') into the command-line
// arguments of run, in the order of queryFlags so that the same page always gives the same
// arguments. A parameter without a value (?contacts) sets a boolean flag. An unknown or repeated
// parameter is an error naming it; the values are checked by run's own flag parsing.
func queryArgs(query string) ([]string, error) {
	q, err := url.ParseQuery(strings.TrimPrefix(query, "?"))
	if err != nil {
		return nil, fmt.Errorf("query: %v", err)
	}
	for k, vs := range q {
		if !slices.Contains(queryFlags, k) {
			return nil, fmt.Errorf("query parameter %q: not a setting of the game (one of %s)", k, strings.Join(queryFlags, ", "))
		}
		if len(vs) > 1 {
			return nil, fmt.Errorf("query parameter %q: given %d times", k, len(vs))
		}
	}
	var args []string
	for _, k := range queryFlags {
		vs, ok := q[k]
		if !ok {
			continue
		}
		if vs[0] == "" {
			args = append(args, "-"+k)
		} else {
			args = append(args, "-"+k+"="+vs[0])
		}
	}
	return args, nil
}
