package solver

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"testing"
)

// panicMessage runs f and returns the message it panicked with, or "".
func panicMessage(f func()) (msg string) {
	defer func() {
		if r := recover(); r != nil {
			msg = fmt.Sprint(r)
		}
	}()
	f()
	return ""
}

// TestIndexPanicMessages checks that the index accessors of Problem and Result panic, as a slice
// index does, with a message naming the method, the index and the range; in range they do not.
func TestIndexPanicMessages(t *testing.T) {
	var empty Problem
	var p Problem
	genTower(&p, 3, false, 1) // 3 blocks
	m := p.NumContacts()
	res := Result{Friction: make([]float64, 2*m)}
	for _, c := range []struct {
		call func()
		want string
	}{
		{func() { empty.RowsA(0) }, "solver: Problem.RowsA: contact index 0 out of range [0, 0)"},
		{func() { p.RowsA(m) }, fmt.Sprintf("solver: Problem.RowsA: contact index %d out of range [0, %d)", m, m)},
		{func() { p.RowsB(-1) }, fmt.Sprintf("solver: Problem.RowsB: contact index -1 out of range [0, %d)", m)},
		{func() { p.Contact(m + 5) }, fmt.Sprintf("solver: Problem.Contact: contact index %d out of range [0, %d)", m+5, m)},
		{func() { empty.Contact(3) }, "solver: Problem.Contact: contact index 3 out of range [0, 0)"},
		{func() { p.InvMass(3) }, "solver: Problem.InvMass: block index 3 out of range [0, 3)"},
		{func() { p.BlockAt(-2) }, "solver: Problem.BlockAt: block index -2 out of range [0, 3)"},
		{func() { res.Beta(m, make([]float64, 8)) }, fmt.Sprintf("solver: Result.Beta: contact index %d out of range [0, %d)", m, m)},
		{func() { (&Result{}).Beta(0, nil) }, "solver: Result.Beta: contact index 0 out of range [0, 0)"},
	} {
		if got := panicMessage(c.call); got != c.want {
			t.Errorf("panic %q, want %q", got, c.want)
		}
	}
	if got := panicMessage(func() {
		p.RowsA(0)
		p.RowsB(m - 1)
		p.Contact(m - 1)
		p.InvMass(2)
		p.BlockAt(0)
		res.Beta(m-1, make([]float64, 8))
	}); got != "" {
		t.Errorf("in-range index panicked: %s", got)
	}
}

// TestSetMassOutOfRange checks that SetMass and SetInvMass refuse a block that does not exist.
func TestSetMassOutOfRange(t *testing.T) {
	var p Problem
	p.AddBlock(1)
	for _, c := range []struct {
		name string
		err  error
		want string
	}{
		{"SetMass(1)", p.SetMass(1, []float64{1}), "solver: problem: SetMass block index 1 out of range [0, 1)"},
		{"SetMass(-1)", p.SetMass(-1, []float64{1}), "solver: problem: SetMass block index -1 out of range [0, 1)"},
		{"SetInvMass(1)", p.SetInvMass(1, []float64{1}), "solver: problem: SetInvMass block index 1 out of range [0, 1)"},
	} {
		var ie *InputError
		if !errors.As(c.err, &ie) || c.err.Error() != c.want {
			t.Errorf("%s: %v, want %q", c.name, c.err, c.want)
		}
	}
	if err := p.SetMass(0, []float64{2}); err != nil || p.InvMass(0)[0] != 0.5 {
		t.Errorf("SetMass(0): %v, inverse %v", err, p.InvMass(0))
	}
}

// TestNilArguments checks that Solve, ProjectContact and ProjectFriction refuse a nil problem or
// result with an *InputError naming the argument.
func TestNilArguments(t *testing.T) {
	s := mustSolver(t, Options{})
	var p Problem
	genTower(&p, 2, false, 1)
	var res Result
	alpha := make([]float64, p.NumContacts())
	friction := make([]float64, 2*p.NumContacts())
	for _, c := range []struct {
		name, field string
		err         error
	}{
		{"Solve(nil, res)", "p", s.Solve(nil, &res)},
		{"Solve(p, nil)", "res", s.Solve(&p, nil)},
		{"ProjectContact(nil)", "p", s.ProjectContact(nil, friction, &res)},
		{"ProjectContact(p, f, nil)", "res", s.ProjectContact(&p, friction, nil)},
		{"ProjectFriction(nil)", "p", s.ProjectFriction(nil, alpha, &res)},
		{"ProjectFriction(p, a, nil)", "res", s.ProjectFriction(&p, alpha, nil)},
	} {
		var ie *InputError
		if !errors.As(c.err, &ie) || ie.Field != c.field {
			t.Errorf("%s: %v, want an *InputError naming %s", c.name, c.err, c.field)
		}
	}
}

// TestZeroSolver checks that the zero Solver solves as NewSolver(Options{}) does, bit for bit,
// and reports the default options.
func TestZeroSolver(t *testing.T) {
	var p Problem
	genTower(&p, 4, true, 3)
	var want, got Result
	if err := mustSolver(t, Options{}).Solve(&p, &want); err != nil {
		t.Fatal(err)
	}
	var zero Solver
	if zero.Options() != mustSolver(t, Options{}).Options() {
		t.Errorf("zero Solver options %+v", zero.Options())
	}
	if err := zero.Solve(&p, &got); err != nil {
		t.Fatal(err)
	}
	if got.Stats.Iterations == 0 || !slices.Equal(got.Alpha, want.Alpha) || !slices.Equal(got.Friction, want.Friction) || !slices.Equal(got.Qdot, want.Qdot) {
		t.Errorf("zero Solver: %d iterations, α %v; NewSolver: %d iterations, α %v", got.Stats.Iterations, got.Alpha, want.Stats.Iterations, want.Alpha)
	}
	var zero2 Solver
	if err := zero2.ProjectContact(&p, make([]float64, 2*p.NumContacts()), &got); err != nil || !got.Stats.ContactExact {
		t.Errorf("zero Solver's contact projection: %v, exact %v", err, got.Stats.ContactExact)
	}
}

// TestCheckerPanicMessages checks that the Check functions panic with a message naming the
// function and the argument on input they cannot read.
func TestCheckerPanicMessages(t *testing.T) {
	var p Problem
	genTower(&p, 2, false, 1)
	m, n := p.NumContacts(), p.NumDoF()
	alpha, friction, qdot := make([]float64, m), make([]float64, 2*m), make([]float64, n)
	var bad Problem
	bad.AddBlock(0)
	for _, c := range []struct {
		call func()
		want string
	}{
		{func() { CheckContact(nil, nil, nil, nil) }, "solver: CheckContact: p must not be nil"},
		{func() { CheckContact(&bad, nil, nil, nil) }, "solver: CheckContact: invalid problem: solver: block 0: Size is not positive"},
		{func() { CheckContact(&p, alpha[:m-1], friction, nil) }, fmt.Sprintf("solver: CheckContact: alpha has %d entries, want %d (one per contact)", m-1, m)},
		{func() { CheckFriction(&p, CheckSpec{}, alpha, nil, nil) }, fmt.Sprintf("solver: CheckFriction: friction has 0 entries, want %d (two per contact)", 2*m)},
		{func() { CheckFixedPoint(&p, CheckSpec{}, alpha, friction, qdot[:1]) }, fmt.Sprintf("solver: CheckFixedPoint: qdot has 1 entries, want %d (one per DoF)", n)},
		{func() { CheckFriction(&p, CheckSpec{Tangents: 1 << 30}, alpha, friction, nil) }, "solver: CheckFriction: CheckSpec.Tangents must be 0 (8) or even and in [4, 64], got 1073741824"},
		{func() { CheckFriction(&p, CheckSpec{Tangents: -4}, alpha, friction, nil) }, "solver: CheckFriction: CheckSpec.Tangents must be 0 (8) or even and in [4, 64], got -4"},
		{func() { CheckFixedPoint(&p, CheckSpec{Friction: 7}, alpha, friction, nil) }, "solver: CheckFixedPoint: CheckSpec.Friction 7 is unknown"},
	} {
		if got := panicMessage(c.call); got != c.want {
			t.Errorf("panic %q, want %q", got, c.want)
		}
	}
	var rep CheckReport
	if got := panicMessage(func() { rep = CheckFixedPoint(&p, CheckSpec{Friction: Disc}, alpha, friction, qdot) }); got != "" || math.IsNaN(rep.Worst) {
		t.Errorf("valid input: panic %q, report %v", got, rep)
	}
}

// TestAddBlockRefusesHugeSizes checks that a block size beyond MaxBlockSize allocates no dense
// inverse mass (it would need size² entries) and that Solve then refuses the problem naming the
// block and the size, as it refuses a size that is not positive.
func TestAddBlockRefusesHugeSizes(t *testing.T) {
	for _, c := range []struct {
		size int
		want string
	}{
		{1 << 40, fmt.Sprintf("solver: block 1: Size must be at most MaxBlockSize (%d), got %d", MaxBlockSize, 1<<40)},
		{MaxBlockSize + 1, fmt.Sprintf("solver: block 1: Size must be at most MaxBlockSize (%d), got %d", MaxBlockSize, MaxBlockSize+1)},
		{-3, "solver: block 1: Size is not positive"},
	} {
		var p Problem
		p.AddBlock(6)
		before := testing.AllocsPerRun(1, func() {})
		var idx int
		allocs := testing.AllocsPerRun(1, func() {
			p.Reset()
			p.AddBlock(6)
			idx = p.AddBlock(c.size)
		})
		eye := make([]float64, 36)
		for i := 0; i < 6; i++ {
			eye[7*i] = 1
		}
		if err := p.SetInvMass(0, eye); err != nil {
			t.Fatal(err)
		}
		if idx != 1 || p.NumDoF() != 6 || allocs > before+4 {
			t.Errorf("size %d: index %d, %d DoFs, %v allocations", c.size, idx, p.NumDoF(), allocs)
		}
		var res Result
		err := (&Solver{}).Solve(&p, &res)
		if err == nil || err.Error() != c.want {
			t.Errorf("size %d: Solve error %v, want %q", c.size, err, c.want)
		}
	}
	var p Problem
	p.AddBlock(MaxBlockSize)
	if got := p.BlockAt(0).Size; got != MaxBlockSize {
		t.Errorf("MaxBlockSize block has Size %d", got)
	}
}
