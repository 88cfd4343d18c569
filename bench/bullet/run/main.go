// Command run times a stagger scene in Bullet: it builds bench/bullet's harness (cached), exports
// the scene as the runner builds it and prints the harness's JSON line (bullet.Result) on stdout:
//
//	go run ./bench/bullet/run -scene pile -n 100 -seconds 4
//
// It takes the runner's scene flags (-scene, -n, -mu, -e, -seed), -dt, -seconds and -sleep, and
// the harness's -bullet-sleep (scene, bullet or off: see package bullet) and -final. An error
// prints one line on stderr and exits with status 2 (1 if Bullet is not installed).
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"

	"github.com/stagger-physics/stagger/bench/bullet"
	"github.com/stagger-physics/stagger/demo/headless"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "run:", err)
		if errors.Is(err, bullet.ErrUnavailable) {
			os.Exit(1)
		}
		os.Exit(2)
	}
}

func run(args []string) error {
	o := headless.DefaultOptions()
	o.Scene = "pile"
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	o.RegisterScene(fs)
	fs.Float64Var(&o.Seconds, "seconds", o.Seconds, "simulated time, s")
	var ro bullet.RunOptions
	fs.StringVar(&ro.Sleep, "bullet-sleep", "scene", "Bullet's sleeping: scene (the exported thresholds), bullet (Bullet's defaults) or off")
	fs.BoolVar(&ro.Final, "final", false, "add every body's final state")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %s", fs.Arg(0))
	}
	sc, p, err := o.Resolve(headless.SetFlags(fs))
	if err != nil {
		return err
	}
	h, err := bullet.Build()
	if err != nil {
		return err
	}
	ro.Seconds = o.Seconds
	r, err := h.RunScene(sc, p, o.PhysicsConfig(), o.Dt, ro)
	if err != nil {
		return err
	}
	line, err := json.Marshal(r)
	if err != nil {
		return err
	}
	fmt.Printf("%s\n", line)
	return nil
}
