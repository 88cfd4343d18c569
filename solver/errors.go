package solver

import "fmt"

// InputError reports an invalid problem: which item (a "block" or a "contact" and its index) and
// which field is at fault, and why. Solve refuses such a problem before doing any work. NewSolver
// and Options.Validate report an invalid option the same way, with Item "options".
type InputError struct {
	Item   string // "block", "contact", "problem" or "options"
	Index  int    // index of the block or contact; -1 for the whole problem
	Field  string // offending field, e.g. "Mu", "RowsA", "InvMass"
	Reason string
}

// Error implements error.
func (e *InputError) Error() string {
	if e.Index < 0 {
		return fmt.Sprintf("solver: %s: %s %s", e.Item, e.Field, e.Reason)
	}
	return fmt.Sprintf("solver: %s %d: %s %s", e.Item, e.Index, e.Field, e.Reason)
}

// SolveError reports that a solver could not produce an answer of the promised quality, e.g. Lemke's
// algorithm hit its pivot limit or terminated on a ray, or a problem exceeded a method's size
// limit. Where a Result is still returned alongside it, the Result holds the best available,
// finite iterate.
type SolveError struct {
	Method string
	Reason string
}

// Error implements error.
func (e *SolveError) Error() string {
	return fmt.Sprintf("solver: %s: %s", e.Method, e.Reason)
}
