// Per-file descriptions of the loaded helper files (what each defines,
// where it failed, which names it shadows), for harness repl's :reload
// and harness replib check.

package repl

import (
	"errors"
	"sort"
	"strings"

	"go.starlark.net/resolve"
	"go.starlark.net/starlark"
	"go.starlark.net/syntax"

	"harness/repl/pyrt"
	"harness/repl/rewrite"
)

// HelperFile describes one file of $HARNESS_HOME/replib as the REPL
// loaded it.
type HelperFile struct {
	File string `json:"file"` // its name in replib, "glob.star"
	// Error is why the file did not load, as the load report the model
	// gets writes it; "" when it loaded. Line and Column place it in the
	// file (1-based; 0 when the error has no place: a time-out or a memory
	// stop).
	Error  string `json:"error,omitempty"`
	Line   int    `json:"line,omitempty"`
	Column int    `json:"column,omitempty"`
	// Functions are the functions the file defines, in source order.
	Functions []HelperFunction `json:"functions,omitempty"`
	// Shadows are the top-level names of the file that were already
	// bound, or that import rebinds.
	Shadows []Shadow `json:"shadows,omitempty"`
}

// HelperFunction is one function of a helper file.
type HelperFunction struct {
	Name      string `json:"name"`
	Signature string `json:"signature"` // as help() shows it: "glob(pattern, path=None, exclude=())"
	Doc       string `json:"doc"`       // the docstring, cleaned as help(name) shows it
	Line      int    `json:"line"`      // the line of its def
	Public    bool   `json:"public"`    // listed in help(): not starting with "_"
}

// Summary is the function's line in help()'s Helper functions section:
// its signature and the first sentence of its docstring.
func (f HelperFunction) Summary() string { return helpLine(f.Signature, f.Doc) }

// Shadow kinds.
const (
	ShadowBuiltin = "builtin" // a predeclared name: a builtin, a REPL function or a predeclared module (json, re, ...)
	ShadowModule  = "module"  // a module only import binds (os, glob, ...): `import x` then replaces the helper
	ShadowHelper  = "helper"  // a name an earlier helper file bound
)

// Shadow is a top-level name of a helper file that means something else
// too.
type Shadow struct {
	Name string `json:"name"`
	Kind string `json:"kind"`           // ShadowBuiltin, ShadowModule or ShadowHelper
	File string `json:"file,omitempty"` // the earlier file, for ShadowHelper
}

// HelperReport describes every helper file of a REPL's current
// interpreter, in load order.
type HelperReport struct {
	Files []HelperFile `json:"files"`
	// Report is the load report the model's next result would begin
	// with ("Helper files that failed to load ..."); "" when every file
	// loaded.
	Report string `json:"report,omitempty"`
}

// helperLog is what loading the helper files records, one interpreter
// generation at a time.
type helperLog struct {
	files   []HelperFile
	owner   map[string]string         // top-level name → the helper file that bound it
	bound   map[string]starlark.Value // top-level name → the value it bound
	builtin map[string]bool           // names bound before any helper file loaded
	pm      *rewrite.PosMap           // the position map of the file loading now (nil: unchanged text)
	errPos  syntax.Position           // where the file loading now stopped
}

// newHelperLog starts the log of a fresh interpreter whose globals are
// the predeclared names.
func newHelperLog(predeclared starlark.StringDict) helperLog {
	b := make(map[string]bool, len(predeclared))
	for name := range predeclared {
		b[name] = true
	}
	return helperLog{builtin: b}
}

// begin starts a load of every file.
func (l *helperLog) begin() {
	l.files, l.owner, l.bound = nil, map[string]string{}, map[string]starlark.Value{}
}

// stopped records where the loading of file ended with err (nil: it did
// not), before the error is reworded.
func (l *helperLog) stopped(file string, err error) {
	l.errPos = syntax.Position{}
	if err != nil {
		l.errPos = l.place(errorPosition(err, file))
	}
	l.pm = nil
}

// place maps a position in rewritten helper code to the file's own.
func (l *helperLog) place(p syntax.Position) syntax.Position {
	if l.pm == nil || !p.IsValid() {
		return p
	}
	line, col := l.pm.Position(int(p.Line), int(p.Col))
	name := p.Filename()
	return syntax.MakePosition(&name, int32(line), int32(col))
}

// failed records a file that did not load.
func (l *helperLog) failed(file, message string) {
	l.files = append(l.files, HelperFile{File: file, Error: message, Line: int(l.errPos.Line), Column: int(l.errPos.Col)})
	l.errPos = syntax.Position{}
}

// loaded records a file that loaded with these top-level bindings.
func (l *helperLog) loaded(file string, globals starlark.StringDict) {
	hf := HelperFile{File: file}
	for _, name := range globals.Keys() { // sorted
		if other, ok := l.owner[name]; ok && other != file {
			hf.Shadows = append(hf.Shadows, Shadow{Name: name, Kind: ShadowHelper, File: other})
		} else if l.builtin[name] || starlark.Universe.Has(name) {
			hf.Shadows = append(hf.Shadows, Shadow{Name: name, Kind: ShadowBuiltin})
		} else if _, ok := pyrt.ModuleMakers[name]; ok {
			hf.Shadows = append(hf.Shadows, Shadow{Name: name, Kind: ShadowModule})
		}
		l.owner[name], l.bound[name] = file, globals[name]
		fn, ok := globals[name].(*starlark.Function)
		if !ok || fn.Position().Filename() != file {
			continue
		}
		hf.Functions = append(hf.Functions, HelperFunction{
			Name: name, Signature: signature(fn), Doc: cleandoc(fn.Doc()),
			Line: int(l.place(fn.Position()).Line), Public: !strings.HasPrefix(name, "_"),
		})
	}
	sort.SliceStable(hf.Functions, func(i, j int) bool { return hf.Functions[i].Line < hf.Functions[j].Line })
	l.files = append(l.files, hf)
	l.pm = nil
}

// errorPosition is where err arose in file: a syntax or resolve error's
// position, or the innermost frame of file in an evaluation error's stack.
func errorPosition(err error, file string) syntax.Position {
	var pse *syntax.Error
	var se syntax.Error
	var rl resolve.ErrorList
	var ee *starlark.EvalError
	var p syntax.Position
	switch {
	case errors.As(err, &pse):
		p = pse.Pos
	case errors.As(err, &se):
		p = se.Pos
	case errors.As(err, &rl) && len(rl) > 0:
		p = rl[0].Pos
	case errors.As(err, &ee):
		for i := len(ee.CallStack) - 1; i >= 0; i-- {
			if fr := ee.CallStack[i]; fr.Pos.Filename() == file {
				return fr.Pos
			}
		}
	}
	if p.Filename() != file {
		return syntax.Position{}
	}
	return p
}

// helperReport describes the current interpreter's helper files.
func (r *interp) helperReport() HelperReport {
	return HelperReport{Files: append([]HelperFile(nil), r.helperLog.files...), Report: r.loadReport}
}

// reloadHelpers runs the helper files again over the current state:
// their names are bound anew, a name the last load bound and this one no
// longer does goes (unless REPL code has bound it since), and the other
// globals stay. The load report is returned rather than shown at the
// start of the next result.
func (r *interp) reloadHelpers() HelperReport {
	before := r.helperLog.bound
	r.loadHelpers()
	for name, v := range before {
		if _, still := r.helperLog.owner[name]; !still && pyrt.Identical(r.Globals[name], v) {
			delete(r.Globals, name)
			delete(r.predeclared, name)
		}
	}
	for name := range r.helperLog.owner {
		r.predeclared[name] = true
	}
	rep := r.helperReport()
	r.loadReport = ""
	return rep
}
