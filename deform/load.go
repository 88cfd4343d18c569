package deform

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// MaxTets bounds the tetrahedra a loader accepts (a lattice mesh has about six per vertex).
const MaxTets = 8 * MaxVertices

// MaxTriangles bounds the triangles LoadOBJ accepts, after polygons are split into triangles.
const MaxTriangles = 4 * MaxVertices

// maxLineBytes bounds a line of a loaded file, so that one line cannot make the reader buffer
// the whole input.
const maxLineBytes = 1 << 16

// ParseError reports malformed loader input: which file ("node", "ele", "obj"), the line
// (counting from 1; the line after the last at the end of the input) and what is wrong.
type ParseError struct {
	File   string
	Line   int
	Reason string
}

// Error implements error, e.g. "deform: ele line 7: tetrahedron 5: vertex 12 out of range".
func (e *ParseError) Error() string {
	return fmt.Sprintf("deform: %s line %d: %s", e.File, e.Line, e.Reason)
}

// lineReader yields the whitespace-separated fields of the non-empty lines of a text file, with
// comments from '#' to the end of the line removed.
type lineReader struct {
	s    *bufio.Scanner
	file string
	line int
}

// newLineReader reads r, naming it file in errors.
func newLineReader(r io.Reader, file string) *lineReader {
	s := bufio.NewScanner(r)
	s.Buffer(make([]byte, 0, 4096), maxLineBytes)
	return &lineReader{s: s, file: file}
}

// next returns the next non-empty line's fields, or ok false at the end of the input.
func (l *lineReader) next() (fields []string, ok bool, err error) {
	for l.s.Scan() {
		l.line++
		text := l.s.Text()
		if i := strings.IndexByte(text, '#'); i >= 0 {
			text = text[:i]
		}
		if f := strings.Fields(text); len(f) > 0 {
			return f, true, nil
		}
	}
	if err := l.s.Err(); err != nil {
		l.line++ // the line that failed
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, false, l.errorf("longer than %d bytes", maxLineBytes)
		}
		return nil, false, fmt.Errorf("deform: %s line %d: %w", l.file, l.line, err)
	}
	l.line++ // errors at the end name the line after the last
	return nil, false, nil
}

// errorf returns a *ParseError at the current line.
func (l *lineReader) errorf(format string, args ...any) error {
	return &ParseError{File: l.file, Line: l.line, Reason: fmt.Sprintf(format, args...)}
}

// float parses a finite number, naming what it is in the error.
func (l *lineReader) float(s, what string) (float64, error) {
	x, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
		return 0, l.errorf("%s: %q is not a finite number", what, s)
	}
	return x, nil
}

// int parses a 32-bit integer, naming what it is in the error.
func (l *lineReader) int(s, what string) (int, error) {
	x, err := strconv.ParseInt(s, 10, 32)
	if err != nil {
		return 0, l.errorf("%s: %q is not an integer", what, s)
	}
	return int(x), nil
}

// itoa formats an int for error messages.
func itoa(i int) string { return strconv.Itoa(i) }
