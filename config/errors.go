// Typed configuration errors: one problem with its file, line, column and key.

package config

import (
	"fmt"
	"sort"
	"strings"
)

// Error is one problem found in config.toml or .env. Its message reads like
// a compiler diagnostic:
//
//	/home/me/.harness/config.toml:12:14: repl.permission: "rw" is not a permission level; use none, read-only or read-write
//
// Line and Col are 1-based; 0 means unknown (Col is 0 whenever only the line
// is known). Key is the dotted TOML key ("repl.permission"), the .env
// variable name, or "" when the problem is not about one key.
type Error struct {
	File string
	Line int
	Col  int
	Key  string
	Msg  string // what is wrong and what to do
	Err  error  // underlying error, if any (for example fs.ErrNotExist)
}

func (e *Error) Error() string {
	var b strings.Builder
	if e.File != "" {
		b.WriteString(e.File)
		if e.Line > 0 {
			fmt.Fprintf(&b, ":%d", e.Line)
			if e.Col > 0 {
				fmt.Fprintf(&b, ":%d", e.Col)
			}
		}
		b.WriteString(": ")
	}
	if e.Key != "" {
		b.WriteString(e.Key)
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

// Unwrap returns the underlying error, so errors.Is(err, fs.ErrNotExist)
// works for a missing config file.
func (e *Error) Unwrap() error { return e.Err }

// Errors is every problem found in one file, in line order. Load returns it
// when there is more than one problem, so the user can fix them all at once;
// errors.As(err, &e) with e *Error finds the first.
type Errors []*Error

func (l Errors) Error() string {
	lines := make([]string, len(l))
	for i, e := range l {
		lines[i] = e.Error()
	}
	return strings.Join(lines, "\n")
}

// Unwrap returns the individual errors.
func (l Errors) Unwrap() []error {
	out := make([]error, len(l))
	for i, e := range l {
		out[i] = e
	}
	return out
}

// maxErrors caps how many problems one load reports.
const maxErrors = 20

// collapse returns nil, the single *Error, or an Errors list sorted by line
// (problems without a line, such as a missing table, come last).
func collapse(errs []*Error) error {
	switch len(errs) {
	case 0:
		return nil
	case 1:
		return errs[0]
	}
	sorted := append(Errors(nil), errs...)
	sort.SliceStable(sorted, func(i, j int) bool {
		li, lj := sorted[i].Line, sorted[j].Line
		if li == 0 || lj == 0 {
			return li != 0 && lj == 0
		}
		if li != lj {
			return li < lj
		}
		return sorted[i].Col < sorted[j].Col
	})
	if len(sorted) > maxErrors {
		sorted = sorted[:maxErrors]
	}
	return sorted
}
