// Command validate runs the long validation scenes (docs/scenes.md, "Validation runs") with the
// headless runner — ten minutes of simulated time for the towers, the card house and the arch, with
// sleeping on as a game runs them, and one minute of each with sleeping off so that every step is
// solved, and five seconds of the card house and the arch hit by dropped and thrown blocks — and
// prints a table of their figures with each scene's pass criterion. `make validate`
// runs it; it is not part of `make test`. It exits non-zero if any case fails.
package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/stagger-physics/stagger/demo/headless"
)

// validation is one long run and its pass criterion.
type validation struct {
	args      []string
	criterion string
	pass      func(r headless.Result) bool
}

func stands(limit float64) func(headless.Result) bool {
	return func(r headless.Result) bool { return r.MaxShift < limit && r.MaxDrop < limit }
}

// sound is the criterion of the scenes hit by scripted bodies (impact, archimpact) or tumbling
// (pile), which may stand or fall: no body through the ground, penetration at most 5 mm from the first second on,
// and no step that gains energy (the spawns themselves are not counted; docs/scenes.md, Result).
func sound(r headless.Result) bool {
	return r.MinZ > 0 && r.MaxPenetrationLate <= 5e-3 && r.EnergyRise <= 1e-6
}

func main() {
	cases := []validation{
		{[]string{"-scene", "stack", "-n", "40", "-seconds", "600"}, "shift, drop < 1 mm", stands(1e-3)},
		{[]string{"-scene", "stack", "-n", "40", "-seconds", "60", "-sleep=false"}, "shift, drop < 1 mm", stands(1e-3)},
		{[]string{"-scene", "stack", "-n", "100", "-seconds", "600"}, "shift, drop < 1 mm", stands(1e-3)},
		{[]string{"-scene", "stack", "-n", "100", "-seconds", "60", "-sleep=false"}, "shift, drop < 1 mm", stands(1e-3)},
		{[]string{"-scene", "ratio", "-n", "1000", "-seconds", "600"}, "drop < 1 mm", func(r headless.Result) bool { return r.MaxDrop < 1e-3 }},
		{[]string{"-scene", "pyramid", "-n", "30", "-seconds", "60"}, "shift, drop < 1 mm", stands(1e-3)},
		{[]string{"-scene", "cardhouse", "-n", "3", "-seconds", "600"}, "drop < 1 cm", func(r headless.Result) bool { return r.MaxDrop < 1e-2 }},
		{[]string{"-scene", "cardhouse", "-n", "3", "-seconds", "60", "-sleep=false"}, "drop < 1 cm", func(r headless.Result) bool { return r.MaxDrop < 1e-2 }},
		{[]string{"-scene", "arch", "-n", "15", "-mu", "0.6", "-seconds", "600"}, "drop < 1 cm", func(r headless.Result) bool { return r.MaxDrop < 1e-2 }},
		{[]string{"-scene", "arch", "-n", "15", "-mu", "0.6", "-seconds", "60", "-sleep=false"}, "drop < 1 cm", func(r headless.Result) bool { return r.MaxDrop < 1e-2 }},
		{[]string{"-scene", "arch", "-n", "15", "-mu", "0.1", "-seconds", "10"}, "falls: drop > 0.5 m", func(r headless.Result) bool { return r.MaxDrop > 0.5 }},
		{[]string{"-scene", "impact", "-n", "3", "-seconds", "5"}, "min_z > 0, pen_late ≤ 5 mm, rise ≤ 1e-6 J", sound},
		{[]string{"-scene", "archimpact", "-n", "15", "-seconds", "5"}, "min_z > 0, pen_late ≤ 5 mm, rise ≤ 1e-6 J", sound},
		{[]string{"-scene", "archimpact", "-n", "15", "-seconds", "5", "-seed", "10"}, "min_z > 0, pen_late ≤ 5 mm, rise ≤ 1e-6 J", sound},
		{[]string{"-scene", "pile", "-n", "100", "-seconds", "5"}, "min_z > 0, pen_late ≤ 5 mm, rise ≤ 1e-6 J", sound},
		{[]string{"-scene", "pile", "-n", "100", "-seconds", "5", "-seed", "4"}, "min_z > 0, pen_late ≤ 5 mm, rise ≤ 1e-6 J", sound},
		{[]string{"-scene", "throw", "-seconds", "4"}, "min_z > 0, pen_late ≤ 5 mm, rise ≤ 1e-6 J", sound},
		{[]string{"-scene", "heap", "-seconds", "4"}, "min_z > 0, pen_late ≤ 5 mm, rise ≤ 1e-6 J", sound},
		{[]string{"-scene", "churn", "-n", "250", "-seconds", "4"}, "min_z > 0", func(r headless.Result) bool { return r.MinZ > 0 }},
	}
	tw := tabwriter.NewWriter(os.Stdout, 0, 2, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "case\twall s\tms_median\tms_p95\titers_mean\tconverged\tmax_shift m\tmax_drop m\tmin_z m\tpen_late m\tenergy_rise J\tcriterion\tresult\t")
	failed := 0
	for _, c := range cases {
		res, wall, err := run(c.args)
		name := strings.Join(c.args, " ")
		if err != nil {
			fmt.Fprintf(tw, "%s\t\t\t\t\t\t\t\t\t\t\t%s\tERROR %v\t\n", name, c.criterion, err)
			failed++
			continue
		}
		verdict := "pass"
		if !c.pass(res) || res.NonFinite {
			verdict = "FAIL"
			failed++
		}
		fmt.Fprintf(tw, "%s\t%.1f\t%.3f\t%.3f\t%.2f\t%.3f\t%.2g\t%.2g\t%.2g\t%.2g\t%.2g\t%s\t%s\t\n", name, wall.Seconds(),
			res.MsMedian, res.MsP95, res.ItersMean, res.ConvergedFrac, res.MaxShift, res.MaxDrop, res.MinZ, res.MaxPenetrationLate,
			res.EnergyRise, c.criterion, verdict)
	}
	tw.Flush()
	if failed > 0 {
		fmt.Fprintf(os.Stderr, "validate: %d of %d cases failed\n", failed, len(cases))
		os.Exit(1)
	}
}

// run runs the headless runner with args, as `go run ./demo -headless args` would.
func run(args []string) (headless.Result, time.Duration, error) {
	o, set, err := headless.ParseArgs(args)
	if err != nil {
		return headless.Result{}, 0, err
	}
	sc, p, err := o.Resolve(set)
	if err != nil {
		return headless.Result{}, 0, err
	}
	start := time.Now()
	res, err := headless.Run(o, sc, p, io.Discard)
	return res, time.Since(start), err
}
