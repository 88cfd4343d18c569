package bullet

import (
	"bytes"
	"crypto/sha256"
	_ "embed" // the harness's source
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/stagger-physics/stagger/physics"
	"github.com/stagger-physics/stagger/scenes"
)

//go:embed harness.cpp
var harnessSource []byte

// PkgConfigPackage is the pkg-config package the harness is built against: Debian's
// libbullet-dev in single precision, as games ship Bullet.
const PkgConfigPackage = "bullet"

// ErrUnavailable is wrapped by Build's error when the harness cannot be built on this machine
// because g++, pkg-config or Bullet's development files are missing; scripts/setup.sh installs
// them.
var ErrUnavailable = errors.New("bullet: the harness needs g++, pkg-config and libbullet-dev (scripts/setup.sh installs them)")

// Harness is a built harness binary.
type Harness struct {
	Path    string // the executable
	Version string // Bullet's version, from pkg-config
}

// Build compiles harness.cpp with g++ -O2 against pkg-config's PkgConfigPackage, or returns the
// binary an earlier call built from the same source, flags and compiler. Binaries are kept in
// the user's cache directory (os.UserCacheDir()/stagger-bullet, next to Go's build cache, or the
// temporary directory when there is none), named by the hash of what went into them, so a
// changed harness or library is rebuilt and concurrent builds do not clash.
func Build() (Harness, error) {
	if _, err := exec.LookPath("g++"); err != nil {
		return Harness{}, fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
	flags, err := output("pkg-config", "--cflags", "--libs", PkgConfigPackage)
	if err != nil {
		return Harness{}, fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
	version, err := output("pkg-config", "--modversion", PkgConfigPackage)
	if err != nil {
		return Harness{}, fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
	compiler, err := output("g++", "--version")
	if err != nil {
		return Harness{}, fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
	// The libraries come after the source, for linkers that resolve in order.
	args := append([]string{"-O2", "-std=c++17", "harness.cpp"}, strings.Fields(flags)...)
	h := sha256.New()
	for _, part := range [][]byte{harnessSource, []byte(strings.Join(args, " ")), []byte(version), []byte(compiler)} {
		h.Write(part)
		h.Write([]byte{0})
	}
	key := hex.EncodeToString(h.Sum(nil))[:20]
	dir, err := os.UserCacheDir()
	if err != nil {
		dir = os.TempDir()
	}
	dir = filepath.Join(dir, "stagger-bullet")
	path := filepath.Join(dir, "harness-"+key)
	hs := Harness{Path: path, Version: version}
	if _, err := os.Stat(path); err == nil {
		return hs, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return Harness{}, err
	}
	work, err := os.MkdirTemp(dir, "build-")
	if err != nil {
		return Harness{}, err
	}
	defer os.RemoveAll(work)
	if err := os.WriteFile(filepath.Join(work, "harness.cpp"), harnessSource, 0o644); err != nil {
		return Harness{}, err
	}
	cmd := exec.Command("g++", append(args, "-o", "harness")...)
	cmd.Dir = work
	if out, err := cmd.CombinedOutput(); err != nil {
		return Harness{}, fmt.Errorf("bullet: g++ %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	// Rename is atomic: a concurrent Build sees either no binary or a whole one.
	if err := os.Rename(filepath.Join(work, "harness"), path); err != nil {
		return Harness{}, err
	}
	return hs, nil
}

// output runs a command and returns its trimmed standard output; a failure includes its
// standard error.
func output(name string, args ...string) (string, error) {
	var stderr bytes.Buffer
	cmd := exec.Command(name, args...)
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("%s %s: %v: %s", name, strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return strings.TrimSpace(string(out)), nil
}

// Result is the harness's JSON line. The fields the runner also reports (headless.Result) have
// its names and meanings; see the package documentation for how they are measured in Bullet.
type Result struct {
	Scene string  `json:"scene"`
	N     int     `json:"n"`
	Seed  uint64  `json:"seed"`
	Dt    float64 `json:"dt"`
	// Steps is the number of stepSimulation calls, each exactly one internal step.
	Steps  int `json:"steps"`
	Bodies int `json:"bodies"`
	// Bullet is Bullet's version and Precision its btScalar ("float" or "double").
	Bullet    string `json:"bullet"`
	Precision string `json:"precision"`
	// Sleep is the harness's -sleep mode: scene (stagger's thresholds), bullet or off.
	Sleep string `json:"sleep"`
	// ContactsMean is the mean number of contact points in all manifolds after a step.
	ContactsMean float64 `json:"contacts_mean"`
	// SleepingMean is the mean number of sleeping dynamic bodies after a step.
	SleepingMean float64 `json:"sleeping_mean"`
	// MsMedian, MsP95 and MsMax are the wall time of one stepSimulation call, ms.
	MsMedian float64 `json:"ms_median"`
	MsP95    float64 `json:"ms_p95"`
	MsMax    float64 `json:"ms_max"`
	// MaxShift, MaxDrop: as the runner's, m.
	MaxShift float64 `json:"max_shift"`
	MaxDrop  float64 `json:"max_drop"`
	// MaxPenetration is the deepest contact in any manifold after any step, as a positive
	// distance, m; 0 if none.
	MaxPenetration float64 `json:"max_penetration"`
	NonFinite      bool    `json:"nonfinite"`
	// Final is every body's state after the run, in the scene's order, when asked for: position,
	// orientation (w, x, y, z) in stagger's body frame, linear and angular velocity.
	Final [][13]float64 `json:"final,omitempty"`
}

// RunOptions are the harness's flags.
type RunOptions struct {
	Seconds float64 // simulated time, s
	// Sleep is "scene" (stagger's sleeping thresholds, the default when empty), "bullet" (Bullet's
	// defaults) or "off".
	Sleep string
	Final bool // report every body's final state
}

// RunScene exports scene sc with parameters p, physics settings cfg and fixed step dt over
// o.Seconds (ExportScene) and runs the harness on it.
func (h Harness) RunScene(sc scenes.Scene, p scenes.Params, cfg physics.Config, dt float64, o RunOptions) (Result, error) {
	var buf bytes.Buffer
	if err := ExportScene(&buf, sc, p, cfg, dt, o.Seconds); err != nil {
		return Result{}, err
	}
	return h.Run(&buf, o)
}

// Run runs the harness on the scene read from scene (the exporter's format) and parses its
// answer.
func (h Harness) Run(scene io.Reader, o RunOptions) (Result, error) {
	args := []string{"-seconds", strconv.FormatFloat(o.Seconds, 'g', -1, 64)}
	if o.Sleep != "" {
		args = append(args, "-sleep", o.Sleep)
	}
	if o.Final {
		args = append(args, "-final")
	}
	cmd := exec.Command(h.Path, args...)
	cmd.Stdin = scene
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return Result{}, fmt.Errorf("bullet: harness %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	var r Result
	if err := json.Unmarshal(out, &r); err != nil {
		return Result{}, fmt.Errorf("bullet: harness output %q: %v", out, err)
	}
	return r, nil
}
