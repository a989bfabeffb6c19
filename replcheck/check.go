// The check of each file: loaded in a fresh REPL, described, its
// examples run; and the report.

package replcheck

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"harness/repl"
)

// REPL is the interpreter a file is checked in (*repl.REPL).
type REPL interface {
	Run(ctx context.Context, code string) (out string, failed bool)
	Helpers(ctx context.Context) (repl.HelperReport, error)
	Close()
}

// File is a helper file to check.
type File struct {
	Name   string // its name in replib, as the REPL loads it: "glob.star"
	Path   string // where it is, as the report names it
	Source []byte // its text, to find the lines of its examples
}

// Options configure Check.
type Options struct {
	Files []File // the files to report on, in order
	// New builds a fresh REPL that loads every helper file (the ones
	// checked among them), once per checked file.
	New     func() (REPL, error)
	Out     io.Writer
	Verbose bool          // list every example, not only the failing ones
	Timeout time.Duration // the most one example may take; 0 is DefaultTimeout
}

// DefaultTimeout bounds one example.
const DefaultTimeout = 30 * time.Second

// Result counts the checks: examples that passed, and the failures
// (examples that failed, files that did not load, shadowing names).
type Result struct {
	Passed, Failed int
}

// Summary is the report's last line.
func (r Result) Summary() string { return fmt.Sprintf("%d passed, %d failed", r.Passed, r.Failed) }

// Check checks every file of o.Files and writes the report to o.Out,
// ending with the summary line. The error is a REPL that could not be
// built or described.
func Check(ctx context.Context, o Options) (Result, error) {
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	var res Result
	for i, f := range o.Files {
		if i > 0 {
			fmt.Fprintln(o.Out)
		}
		if err := checkFile(ctx, o, f, &res); err != nil {
			return res, fmt.Errorf("%s: %w", f.Path, err)
		}
	}
	fmt.Fprintln(o.Out)
	fmt.Fprintln(o.Out, res.Summary())
	return res, nil
}

// checkFile reports one file.
func checkFile(ctx context.Context, o Options, f File, res *Result) error {
	r, err := o.New()
	if err != nil {
		return err
	}
	defer r.Close()
	r.Run(ctx, "") // the load report, described below file by file
	rep, err := r.Helpers(ctx)
	if err != nil {
		return err
	}
	var hf *repl.HelperFile
	var others []string
	for i := range rep.Files {
		switch {
		case rep.Files[i].File == f.Name:
			hf = &rep.Files[i]
		case rep.Files[i].Error != "":
			others = append(others, rep.Files[i].File)
		}
	}
	w := o.Out
	fmt.Fprintln(w, f.Path)
	if hf == nil {
		return fmt.Errorf("the REPL did not load %s", f.Name)
	}
	if hf.Error != "" {
		res.Failed++
		fmt.Fprintln(w, "  FAIL "+loadError(f, hf))
		fmt.Fprintln(w, "  (its examples were not run)")
		noteOthers(w, others)
		return nil
	}
	var public []string
	for _, fn := range hf.Functions {
		if fn.Public {
			public = append(public, "    "+fn.Summary())
		}
	}
	if len(public) > 0 {
		fmt.Fprintln(w, "  functions, as help() lists them:")
		fmt.Fprintln(w, strings.Join(public, "\n"))
	} else {
		fmt.Fprintln(w, "  no public functions (help() lists none of this file)")
	}
	for _, s := range hf.Shadows {
		text, fails := shadowText(f, s)
		if fails {
			res.Failed++
			fmt.Fprintln(w, "  FAIL "+text)
		} else {
			fmt.Fprintln(w, "  note: "+text)
		}
	}
	noteOthers(w, others)
	runExamples(ctx, o, r, f, hf, res)
	return nil
}

// noteOthers names the other helper files that failed to load: what the
// checked one uses of them is missing.
func noteOthers(w io.Writer, others []string) {
	if len(others) > 0 {
		fmt.Fprintf(w, "  note: other helper files did not load, so what this one uses of them is missing: %s\n", strings.Join(others, ", "))
	}
}

// loadError is a file's load error at its place: path:line:column: the
// message, then the backtrace of an error raised while it ran.
func loadError(f File, hf *repl.HelperFile) string {
	msg := hf.Error
	place := f.Path
	if hf.Line > 0 {
		place = fmt.Sprintf("%s:%d:%d", f.Path, hf.Line, hf.Column)
		msg = strings.TrimPrefix(msg, fmt.Sprintf("%s:%d:%d: ", hf.File, hf.Line, hf.Column))
	}
	lines := strings.Split(strings.TrimRight(msg, "\n"), "\n")
	if len(lines) == 1 {
		return place + ": " + lines[0]
	}
	last := lines[len(lines)-1]
	return place + ": " + last + "\n      " + strings.Join(lines[:len(lines)-1], "\n      ")
}

// shadowText says what a shadowing name hides, and whether that fails
// the check: hiding a predeclared name or an earlier file's helper
// changes what REPL code gets; a module's name only matters after an
// import, which then replaces the helper.
func shadowText(f File, s repl.Shadow) (string, bool) {
	switch s.Kind {
	case repl.ShadowHelper:
		return fmt.Sprintf("%s replaces the helper %s of %s (the file loaded later wins)", s.Name, s.Name, s.File), true
	case repl.ShadowModule:
		return fmt.Sprintf("%s is also a module's name: REPL code that runs `import %s` gets the module instead of this helper", s.Name, s.Name), false
	}
	return fmt.Sprintf("%s shadows the builtin %s: REPL code using %s gets this helper instead", s.Name, s.Name, s.Name), true
}

// runExamples runs the examples of every function of the file, in
// source order, in the file's REPL.
func runExamples(ctx context.Context, o Options, r REPL, f File, hf *repl.HelperFile, res *Result) {
	w := o.Out
	lines := strings.Split(string(f.Source), "\n")
	ran, failed := 0, 0
	for _, fn := range hf.Functions {
		for n, ex := range Examples(fn.Doc) {
			ran++
			line := exampleLine(lines, fn.Line, n)
			ectx, cancel := context.WithTimeout(ctx, o.Timeout)
			out, _ := r.Run(ectx, ex.Source)
			timedOut := ectx.Err() == context.DeadlineExceeded
			cancel()
			got := Got(out)
			where := fmt.Sprintf("%s:%d (%s)", f.Path, line, fn.Name)
			if Matches(ex.Want, got) && !timedOut {
				res.Passed++
				if o.Verbose {
					fmt.Fprintf(w, "  ok   %s: %s\n", where, firstLine(ex.Source))
				}
				continue
			}
			res.Failed++
			failed++
			fmt.Fprintf(w, "  FAIL %s:\n", where)
			fmt.Fprintln(w, indentLines(">>> "+strings.ReplaceAll(ex.Source, "\n", "\n... "), "      "))
			if timedOut {
				fmt.Fprintf(w, "    the example did not finish within %v\n", o.Timeout)
			}
			want, have, ok := Compared(ex.Want, got)
			fmt.Fprintln(w, "    --- expected")
			fmt.Fprintln(w, "    +++ got")
			for _, d := range Diff(want, have) {
				fmt.Fprintln(w, "    "+d)
			}
			if ok && want != ex.Want {
				fmt.Fprintln(w, "    (a traceback: the exception is compared, not the stack)")
			}
			if ex.Want == "" {
				fmt.Fprintln(w, "    (no output was expected: the example has no expected lines)")
			}
		}
	}
	switch {
	case ran == 0:
		fmt.Fprintln(w, "  no examples (write them in a docstring as >>> code, then the expected output)")
	case failed == 0:
		fmt.Fprintf(w, "  %d %s passed\n", ran, plural(ran, "example", "examples"))
	default:
		fmt.Fprintf(w, "  %d of %d examples failed\n", failed, ran)
	}
}

// exampleLine finds the 1-based line of the n-th example (0-based) of
// the function defined at line def: the n-th line after the def whose
// text starts with ">>>"; the def's line when there are fewer.
func exampleLine(lines []string, def, n int) int {
	for i := max(def, 0); i < len(lines); i++ {
		t := strings.TrimLeft(strings.TrimSpace(lines[i]), `"'rR`)
		if isPrompt(t, ">>>") {
			if n == 0 {
				return i + 1
			}
			n--
		}
	}
	return def
}

func firstLine(s string) string {
	first, _, _ := strings.Cut(s, "\n")
	return first
}

func indentLines(s, prefix string) string {
	return prefix + strings.ReplaceAll(s, "\n", "\n"+prefix)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
