package main

import (
	"fmt"
	"slices"
)

// runRepeats is how many times the report runs each timed case of the scene, Bullet and frames
// tables. A single run's times follow the state of a shared machine (the same binary's pile
// median moved by 1.8× within an hour), so each time column gives the median of the runs, and the
// range columns their spread. The frames table's runs go round the levels, so a slow spell of the
// machine touches every level alike.
const runRepeats = 3

// spread formats the smallest and largest of xs with format f, as "min–max".
func spread(xs []float64, f func(float64) string) string {
	if len(xs) == 0 {
		return "–"
	}
	return f(slices.Min(xs)) + "–" + f(slices.Max(xs))
}

// collect returns field of each of rs.
func collect[R any](rs []R, field func(R) float64) []float64 {
	out := make([]float64, len(rs))
	for i, r := range rs {
		out[i] = field(r)
	}
	return out
}

// sameEverywhere returns an error naming what if the values of key differ between the runs of a
// case that must agree on it (a deterministic figure, such as the runner's state hash).
func sameEverywhere[R any, K comparable](what string, rs []R, key func(R) K) error {
	for i := 1; i < len(rs); i++ {
		if key(rs[i]) != key(rs[0]) {
			return fmt.Errorf("%s: run %d gave %v, run 1 %v", what, i+1, key(rs[i]), key(rs[0]))
		}
	}
	return nil
}
