package solver

import (
	"strconv"
	"time"
)

// ProjectContact solves the contact projection P_C alone (paper eq. 25): given the friction
// impulses friction (2 per contact, (t̂₁,t̂₂) basis), it finds α, warm-started from the contacts'
// WarmNormal, with the configured ContactSolver. res receives α, the given friction and
// q̇ = q̇ᴾ + M⁻¹(Nα + Df). Invalid input, a nil p or res included, gets an *InputError.
func (s *Solver) ProjectContact(p *Problem, friction []float64, res *Result) error {
	if err := s.ready(p, res); err != nil {
		return err
	}
	if err := p.Validate(); err != nil {
		return err
	}
	if len(friction) != 2*p.NumContacts() {
		return &InputError{Item: "problem", Index: -1, Field: "friction", Reason: "must have 2 entries per contact"}
	}
	start := time.Now()
	s.prepare(p)
	s.st.Method = "contact-projection"
	copy(s.f, friction)
	s.projectContact(s.f, false)
	s.finish(res, start)
	return nil
}

// ProjectFriction solves the friction projection P_F(α) alone (paper eq. 24) for the normal
// impulses alpha, warm-started from the contacts' WarmFriction, to Options.FrictionTol. Invalid
// input, a nil p or res included, gets an *InputError.
func (s *Solver) ProjectFriction(p *Problem, alpha []float64, res *Result) error {
	if err := s.ready(p, res); err != nil {
		return err
	}
	if err := p.Validate(); err != nil {
		return err
	}
	if len(alpha) != p.NumContacts() {
		return &InputError{Item: "problem", Index: -1, Field: "alpha", Reason: "must have 1 entry per contact"}
	}
	for k, a := range alpha {
		if !isFinite(a) || a < 0 {
			return &InputError{Item: "contact", Index: k, Field: "alpha", Reason: "must be finite and ≥ 0 (got " + strconv.FormatFloat(a, 'g', -1, 64) + ")"}
		}
	}
	start := time.Now()
	s.prepare(p)
	s.st.Method = "friction-projection"
	copy(s.alpha, alpha)
	s.projectFriction(s.f, s.opts.FrictionTol*s.op.scale, 0, time.Time{})
	s.finish(res, start)
	return nil
}
