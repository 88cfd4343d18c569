// Command export writes a scene's initial state — every body and its collider, as
// scenes.Scene.Build leaves them — in bench/bullet's scene format on stdout, for the Bullet
// harness (see package bullet):
//
//	go run ./bench/bullet/export -scene pile -n 100 > pile.scene
//
// It takes the runner's scene flags (-scene, -n, -mu, -e, -seed) and its -dt and -sleep; an error
// prints one line on stderr and exits with status 2.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/stagger-physics/stagger/bench/bullet"
	"github.com/stagger-physics/stagger/demo/headless"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "export:", err)
		os.Exit(2)
	}
}

func run(args []string) error {
	o := headless.DefaultOptions()
	o.Scene = "pile"
	fs := flag.NewFlagSet("export", flag.ContinueOnError)
	o.RegisterScene(fs)
	fs.Float64Var(&o.Seconds, "seconds", o.Seconds, "simulated time, s, over which the scene's script runs")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %s", fs.Arg(0))
	}
	// Resolve fills the scene's defaults and validates everything, as the runner does.
	sc, p, err := o.Resolve(headless.SetFlags(fs))
	if err != nil {
		return err
	}
	return bullet.ExportScene(os.Stdout, sc, p, o.PhysicsConfig(), o.Dt, o.Seconds)
}
