package physics

import (
	"errors"
	"strings"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/stagger-physics/stagger/solver"
)

// StandardGravity is g on Earth's surface, m/s², pointing down (−z).
const StandardGravity = 9.80665

// Config holds the settings of the simulation. The step length h is the ecs.App's fixed step.
// Start from DefaultConfig: its zero-valued fields are meaningful values (no margin, no recovery).
type Config struct {
	// Gravity is the acceleration of free fall in the world frame, m/s²; its magnitude is at most
	// MaxGravity.
	Gravity mgl64.Vec3

	// ContactMargin is the speculative contact distance, m: shapes closer than this report
	// contacts with a positive gap, and the solve lets them approach only up to that gap, so fast
	// bodies neither tunnel nor pop. Default 0.02, at most MaxMargin.
	ContactMargin float64
	// BroadPhaseMargin is how far, m, the broad phase fattens each box, so a body that moves less
	// than this does not touch the broad phase's tree. Default 0.05, at most MaxMargin.
	BroadPhaseMargin float64
	// RestingGap, m, is the gap up to which a contact counts as touching: its gap term is 0, so
	// the solve keeps it from closing further but neither pulls it shut nor pushes it open. Larger
	// gaps allow approach up to gap/h. Gaps within a face differ by round-off
	// (1e-11 m); without this band a resting face's redundant corners would get gap terms of either
	// sign, their rows inconsistent, and each step's contact projection would chase which corner to
	// release (measured on the pyramid wall). Default 1e-6; must be below ContactMargin.
	RestingGap float64
	// PenetrationRecovery is the fraction of a penetration depth that contacts push apart per step
	// (b_k = PenetrationRecovery·φ_k/h for φ_k < 0). Default 0, the paper's choice: speculative
	// contacts keep bodies from penetrating in the first place, and any push-out adds energy.
	PenetrationRecovery float64
	// MaxRecoverySpeed bounds the separation speed, m/s, that PenetrationRecovery may ask for.
	// Default 0.1.
	MaxRecoverySpeed float64
	// SeparationSpeed, m/s, is how fast overlapping bodies are pushed apart by a position
	// correction after the velocity solve (post-stabilisation; docs/architecture.md, Separation):
	// each step moves an overlapping island's bodies by the smallest mass-weighted displacement
	// that removes up to SeparationSpeed·h of every overlap deeper than SeparationSlop, without
	// touching any velocity, so it adds no kinetic energy. Default 1; 0 turns it off (the paper's
	// choice: overlaps stay as they are).
	SeparationSpeed float64
	// SeparationSlop, m, is the overlap left alone by the separation, so that bodies resting in
	// contact are not nudged every step by round-off. Default 5e-4; must be below ContactMargin.
	SeparationSlop float64

	// RestitutionThreshold, m/s, is the approach speed above which a contact bounces: a contact
	// whose bodies approach faster than this at the start of the step, and that closes within the
	// step, leaves with e times its approach speed (Newton's law, e = max(e_A, e_B); see
	// docs/architecture.md, Restitution). Slower contacts do not bounce, so resting bodies stay at
	// rest exactly, whatever their Restitution. Default 1 (Box2D's); finite and >= 0. Keep it well
	// above what gravity adds in a step, |g|·h, or resting contacts may start to bounce.
	RestitutionThreshold float64

	// TorsionalPatchRadius, m, is the radius of the patch with which a touching contact of rigid
	// bodies resists spin about its normal: an angular impulse up to μ·TorsionalPatchRadius·α per
	// step (α the point's normal impulse last step), never more than stops the relative spin
	// (docs/architecture.md, Torsional friction). Without it a ball spins on the floor like a
	// turntable for ever, and a settled pile of balls never sleeps; at 0.01 and μ 0.8 a 1 kg ball
	// 0.5 m across that spins at 2 rad/s on the floor stops in 0.64 s. Finite and ≥ 0. Default 0,
	// the paper's point contacts: docs/architecture.md says why it is not yet on.
	TorsionalPatchRadius float64

	// SleepTime is how long, s, every body of an island (or of a part of one joined by touching
	// contacts) must stay below SleepLinear and SleepAngular before it sleeps; 0 never sleeps.
	// Default 0.5.
	SleepTime float64
	// SleepLinear (m/s) and SleepAngular (rad/s) are the speeds below which a body counts as at
	// rest. Defaults 0.01 m/s and 0.035 rad/s (2°/s).
	SleepLinear, SleepAngular float64

	// ColdStart turns off the warm start: every solve starts from zero impulses instead of last
	// step's, matched by feature id. For measuring what warm starts save (paper Table 2); a game
	// leaves it false.
	ColdStart bool

	// Workers is the number of goroutines that share the narrow phase and the solves of the
	// contact islands; 0 selects one per CPU. At most MaxWorkers (and 0 starts no more). Results
	// are bit-identical for any number of workers.
	Workers int

	// Solver configures the contact solve: the method ("sp", "pgs" or "lcp"), the friction model
	// (solver.Disc by default here, or the paper's solver.Pyramid), ε, iteration limits and an
	// optional time budget. See solver.Options. The default is solver.GameOptions(): it turns on
	// the joint sticking solve (solver.Options.Joint), without which structures held by friction
	// gain energy at the default ε; settles friction after the final contact projection where the
	// step would otherwise gain energy (Settle);
	// sharpens the answers of islands whose contacts all slide (Sharpen: a sliding box follows
	// Coulomb's law to round-off); skips the solver's warm-start check (SkipWarmCheck), which costs
	// a resting stack more than it saves; and bounds each friction projection's sweeps.
	Solver solver.Options
}

// DefaultConfig returns Earth gravity along −z, a 2 cm speculative margin, no penetration
// recovery, separation of overlaps at up to 1 m/s, bounces above 1 m/s of approach, islands that sleep after 0.5 s at rest, one worker per CPU, and Staggered Projections
// with the exact disc friction model.
func DefaultConfig() Config {
	return Config{
		Gravity:              mgl64.Vec3{0, 0, -StandardGravity},
		ContactMargin:        0.02,
		RestingGap:           1e-6,
		BroadPhaseMargin:     0.05,
		MaxRecoverySpeed:     0.1,
		SeparationSpeed:      1,
		SeparationSlop:       5e-4,
		RestitutionThreshold: 1,
		SleepTime:            0.5,
		SleepLinear:          0.01,
		SleepAngular:         0.035,
		Solver:               solver.GameOptions(),
	}
}

// Limits of the Config fields that Validate checks beyond finiteness.
const (
	// MaxGravity is the largest magnitude of Config.Gravity, m/s²: about 1000 g. Stronger fields
	// make h·g alone carry bodies through the speculative margin in a step.
	MaxGravity = 1e4
	// MaxMargin is the largest ContactMargin and BroadPhaseMargin, m. The margins are sized to the
	// bodies (centimetres for bodies of about a metre); a larger one makes every nearby pair a
	// broad-phase candidate or a contact.
	MaxMargin = 10.0
	// MaxWorkers is the largest Config.Workers, and the most goroutines Workers = 0 (one per CPU)
	// starts. Each worker owns a solver and its buffers.
	MaxWorkers = 256
)

// Validate reports a config value the simulation cannot use, as a *FieldError naming the field,
// the value found and the range allowed: Gravity finite with magnitude at most MaxGravity;
// ContactMargin and BroadPhaseMargin finite and in [0, MaxMargin]; RestingGap finite, ≥ 0 and
// below ContactMargin; PenetrationRecovery in [0, 1]; MaxRecoverySpeed, RestitutionThreshold,
// TorsionalPatchRadius, SleepTime, SleepLinear and SleepAngular finite and ≥ 0; Workers in [0, MaxWorkers]; and Solver as
// solver.Options.Validate checks it, the field named as "Config.Solver.Epsilon", say.
func (c Config) Validate() error {
	if !finiteVec(c.Gravity) || c.Gravity.Len() > MaxGravity {
		return fieldError("Config.Gravity", "must be finite with magnitude at most %v m/s², got %v", MaxGravity, c.Gravity)
	}
	if !(c.ContactMargin >= 0 && c.ContactMargin <= MaxMargin) {
		return fieldError("Config.ContactMargin", "must be finite and in [0, %v] m, got %v", MaxMargin, c.ContactMargin)
	}
	if !finite(c.RestingGap) || c.RestingGap < 0 || (c.RestingGap > 0 && c.RestingGap >= c.ContactMargin) {
		return fieldError("Config.RestingGap", "must be finite, >= 0 and below ContactMargin (%v), got %v", c.ContactMargin, c.RestingGap)
	}
	if !(c.BroadPhaseMargin >= 0 && c.BroadPhaseMargin <= MaxMargin) {
		return fieldError("Config.BroadPhaseMargin", "must be finite and in [0, %v] m, got %v", MaxMargin, c.BroadPhaseMargin)
	}
	if !(c.PenetrationRecovery >= 0 && c.PenetrationRecovery <= 1) {
		return fieldError("Config.PenetrationRecovery", "must be in [0, 1], got %v", c.PenetrationRecovery)
	}
	if !finite(c.SeparationSpeed) || c.SeparationSpeed < 0 || c.SeparationSpeed > maxSeparationSpeed {
		return fieldError("Config.SeparationSpeed", "must be in [0, %v] m/s, got %v", maxSeparationSpeed, c.SeparationSpeed)
	}
	if !finite(c.SeparationSlop) || c.SeparationSlop < 0 || (c.SeparationSlop > 0 && c.SeparationSlop >= c.ContactMargin) {
		return fieldError("Config.SeparationSlop", "must be finite, >= 0 and below ContactMargin (%v), got %v", c.ContactMargin, c.SeparationSlop)
	}
	for _, f := range []struct {
		name string
		v    float64
	}{{"Config.MaxRecoverySpeed", c.MaxRecoverySpeed}, {"Config.RestitutionThreshold", c.RestitutionThreshold}, {"Config.TorsionalPatchRadius", c.TorsionalPatchRadius}, {"Config.SleepTime", c.SleepTime}, {"Config.SleepLinear", c.SleepLinear}, {"Config.SleepAngular", c.SleepAngular}} {
		if !finite(f.v) || f.v < 0 {
			return fieldError(f.name, "must be finite and >= 0, got %v", f.v)
		}
	}
	if c.Workers < 0 || c.Workers > MaxWorkers {
		return fieldError("Config.Workers", "must be in [0, %d] (0: one per CPU), got %d", MaxWorkers, c.Workers)
	}
	if err := c.Solver.Validate(); err != nil {
		var ie *solver.InputError
		if errors.As(err, &ie) {
			return fieldError("Config.Solver."+strings.TrimPrefix(ie.Field, "Options."), "%s", ie.Reason)
		}
		return fieldError("Config.Solver", "%v", err)
	}
	return nil
}
