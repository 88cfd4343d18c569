package headless

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"runtime"

	"github.com/stagger-physics/stagger/physics"
	"github.com/stagger-physics/stagger/scenes"
	"github.com/stagger-physics/stagger/solver"
)

// Options are the runner's settings, one per command-line flag.
type Options struct {
	Scene    string
	N        int
	Mu       float64
	E        float64
	Dt       float64
	Seconds  float64
	Seed     uint64
	Solver   string
	Friction string
	Eps      float64
	Iters    int
	// Work is the solver's deterministic work budget per island solve in contact updates
	// (solver.Options.WorkBudget); 0: none. Its default is the game's (solver.GameOptions).
	Work    int
	Workers int
	// Sleep lets resting islands sleep (physics.Config.SleepTime); -sleep=false measures every
	// step's full work.
	Sleep bool
	// Cold solves every step from zero impulses (physics.Config.ColdStart).
	Cold bool
	// Separation is the speed, m/s, at which overlapping bodies are pushed apart
	// (physics.Config.SeparationSpeed); 0 turns the separation off.
	Separation float64
	// Torsion is the radius, m, of the contact patch that resists spin about a contact normal
	// (physics.Config.TorsionalPatchRadius); 0 (physics.DefaultConfig's) turns it off.
	Torsion float64
	// Joint turns on the staggered solve's joint sticking solve, the settling of converged friction
	// and the sharpening of sliding islands (solver.Options.Joint, Settle and Sharpen), as
	// physics.DefaultConfig does; -joint=false runs the paper's plain loop.
	Joint bool
	JSON  bool
}

// Solvers are the accepted -solver values: Staggered Projections, projected Gauss–Seidel, and a
// direct LCP (Lemke).
var solverNames = []string{"sp", "pgs", "lcp"}

// frictionNames are the accepted -friction values: the exact disc, or the paper's 8-sided pyramid.
var frictionNames = []string{"disc", "pyramid"}

// DefaultOptions returns the defaults of every flag.
func DefaultOptions() Options {
	return Options{
		Scene:    "tumble",
		Dt:       0.01,
		Seconds:  10,
		Seed:     1,
		Solver:   "sp",
		Friction: "disc",
		// physics.DefaultConfig's ε and MaxIters, so that the runner, the game and the benchmarks
		// measure what a game gets without configuring the solver.
		Eps:     1e-4,
		Iters:   50,
		Work:    solver.GameOptions().WorkBudget,
		Workers: min(runtime.NumCPU(), physics.MaxWorkers),
		Sleep:   true,
		Joint:   true,
		// physics.DefaultConfig's.
		Separation: 1,
	}
}

// Register defines the runner's flags on fs, writing into o. The scene's own defaults fill -n, -mu
// and -e when they are not given; see Resolve.
func (o *Options) Register(fs *flag.FlagSet) {
	o.RegisterScene(fs)
	fs.Float64Var(&o.Seconds, "seconds", o.Seconds, "simulated time, s")
	fs.StringVar(&o.Solver, "solver", o.Solver, fmt.Sprintf("contact solver: one of %v", solverNames))
	fs.StringVar(&o.Friction, "friction", o.Friction, fmt.Sprintf("friction model: one of %v", frictionNames))
	fs.Float64Var(&o.Eps, "eps", o.Eps, "staggered projections tolerance ε (eq. 28)")
	fs.IntVar(&o.Iters, "iters", o.Iters, "maximum staggered iterations per solve")
	fs.IntVar(&o.Work, "work", o.Work, "sp: work budget per island solve in contact updates (0: none; default: the game's)")
	fs.IntVar(&o.Workers, "workers", o.Workers, "island solver workers")
	fs.Float64Var(&o.Separation, "separation", o.Separation, "speed, m/s, at which overlapping bodies are pushed apart (0: off)")
	fs.Float64Var(&o.Torsion, "torsion", o.Torsion, "radius, m, of the contact patch that resists spin about a contact normal (0: off)")
	fs.BoolVar(&o.Joint, "joint", o.Joint, "sp: the joint sticking solve, the settling of converged friction and the sharpening of sliding islands (false: the paper's plain loop)")
	fs.BoolVar(&o.Cold, "cold", o.Cold, "solve every step from zero impulses (no warm start)")
	fs.BoolVar(&o.JSON, "json", o.JSON, "print one JSON object with the results on stdout")
}

// RegisterScene defines the flags that choose and build a scene, as other tools that take the
// runner's scenes (bench/bullet) share them: -scene, -n, -mu, -e, -seed, -dt and -sleep.
func (o *Options) RegisterScene(fs *flag.FlagSet) {
	fs.StringVar(&o.Scene, "scene", o.Scene, fmt.Sprintf("scene name: one of %v", scenes.Names()))
	fs.IntVar(&o.N, "n", o.N, "the scene's size parameter (default: the scene's)")
	fs.Float64Var(&o.Mu, "mu", o.Mu, "friction coefficient (default: the scene's)")
	fs.Float64Var(&o.E, "e", o.E, "restitution coefficient (default: the scene's)")
	fs.Uint64Var(&o.Seed, "seed", o.Seed, "seed of the scene's random placement")
	fs.Float64Var(&o.Dt, "dt", o.Dt, "fixed step, s")
	fs.BoolVar(&o.Sleep, "sleep", o.Sleep, "let resting islands sleep")
}

// Resolve looks up the scene and returns its parameters: the scene's defaults, overridden by the
// flags named in set (the flags given on the command line). It validates every value.
func (o Options) Resolve(set map[string]bool) (scenes.Scene, scenes.Params, error) {
	sc, err := scenes.Lookup(o.Scene)
	if err != nil {
		return sc, scenes.Params{}, err
	}
	p := sc.Defaults
	if set["n"] {
		p.N = o.N
	}
	if set["mu"] {
		p.Mu = o.Mu
	}
	if set["e"] {
		p.E = o.E
	}
	p.Seed = o.Seed
	if err := p.Validate(); err != nil {
		return sc, p, fmt.Errorf("-%w", err)
	}
	if err := o.validate(); err != nil {
		return sc, p, err
	}
	return sc, p, nil
}

// Limits of the runner's flags beyond those of physics.Config and solver.Options.
const (
	// MaxDt is the longest -dt, s: the fixed step of a game is a few milliseconds, and beyond a
	// tenth of a second a falling body moves more than the contact margin between two looks.
	MaxDt = 0.1
	// MaxSteps is the most steps -seconds/-dt may ask for.
	MaxSteps = 1e8
	// MaxIters is the largest -iters (the default is the physics default, 50 staggered
	// subsequences).
	MaxIters = 10000
)

// validate checks the flags that are not scene parameters. Each error names its flag, the value
// and the range allowed.
func (o Options) validate() error {
	switch {
	case !(o.Dt > 0 && o.Dt <= MaxDt):
		return fmt.Errorf("-dt must be finite and in (0, %v] s, got %v", MaxDt, o.Dt)
	case !(o.Seconds > 0) || math.IsInf(o.Seconds, 0):
		return fmt.Errorf("-seconds must be finite and > 0, got %v", o.Seconds)
	case math.Round(o.Seconds/o.Dt) < 1:
		return fmt.Errorf("-seconds %v at -dt %v makes no step; give at least one step (-seconds >= -dt/2)", o.Seconds, o.Dt)
	case o.Seconds/o.Dt > MaxSteps:
		return fmt.Errorf("-seconds / -dt is %.3g steps; at most %.0e", o.Seconds/o.Dt, float64(MaxSteps))
	case !oneOf(o.Solver, solverNames):
		return fmt.Errorf("-solver must be one of %v, got %q", solverNames, o.Solver)
	case !oneOf(o.Friction, frictionNames):
		return fmt.Errorf("-friction must be one of %v, got %q", frictionNames, o.Friction)
	case !(o.Eps > 0 && o.Eps < 1):
		return fmt.Errorf("-eps must be finite and in (0, 1), got %v", o.Eps)
	case o.Iters < 1 || o.Iters > MaxIters:
		return fmt.Errorf("-iters must be in [1, %d], got %d", MaxIters, o.Iters)
	case o.Work < 0:
		return fmt.Errorf("-work must be >= 0 (0: no budget), got %d", o.Work)
	case o.Workers < 1 || o.Workers > physics.MaxWorkers:
		return fmt.Errorf("-workers must be in [1, %d], got %d", physics.MaxWorkers, o.Workers)
	}
	// The flags above are the only ones that reach the configuration; this catches a limit of
	// physics.Config or solver.Options that they do not repeat.
	if err := o.PhysicsConfig().Validate(); err != nil {
		return fmt.Errorf("flags give an invalid configuration: %w", err)
	}
	return nil
}

// ParseArgs parses the runner's flags from args (without the program name), for a command line
// that has no other flags. Errors are one line, naming the flag.
func ParseArgs(args []string) (Options, map[string]bool, error) {
	o := DefaultOptions()
	fs := flag.NewFlagSet("headless", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	o.Register(fs)
	if err := fs.Parse(args); err != nil {
		return o, nil, err
	}
	if fs.NArg() > 0 {
		return o, nil, errors.New("unexpected argument " + fs.Arg(0))
	}
	return o, SetFlags(fs), nil
}

// SetFlags returns the names of the flags given on fs's command line.
func SetFlags(fs *flag.FlagSet) map[string]bool {
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	return set
}

func oneOf(s string, names []string) bool {
	for _, n := range names {
		if s == n {
			return true
		}
	}
	return false
}

// PhysicsConfig returns the physics settings the options ask for: the solver, friction model, ε,
// iteration limit, workers, sleeping and warm start, on top of physics.DefaultConfig.
func (o Options) PhysicsConfig() physics.Config {
	cfg := physics.DefaultConfig()
	cfg.Solver = o.SolverOptions()
	cfg.Workers = o.Workers
	if !o.Sleep {
		cfg.SleepTime = 0
	}
	cfg.ColdStart = o.Cold
	cfg.SeparationSpeed = o.Separation
	cfg.TorsionalPatchRadius = o.Torsion
	return cfg
}

// SolverOptions returns the contact solver's options: solver.GameOptions with -solver, -friction,
// -eps, -iters, -work and -joint applied.
func (o Options) SolverOptions() solver.Options {
	opts := solver.GameOptions()
	opts.Method, opts.Epsilon, opts.MaxIters, opts.WorkBudget = o.Solver, o.Eps, o.Iters, o.Work
	opts.Joint, opts.Settle, opts.Sharpen = o.Joint, o.Joint, o.Joint
	if o.Friction == "pyramid" {
		opts.Friction = solver.Pyramid
	}
	return opts
}
