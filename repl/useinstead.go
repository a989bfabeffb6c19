// The "Use instead" table: Python forms the REPL still lacks, and what to use.

package repl

import (
	"errors"
	"regexp"
	"strings"

	"go.starlark.net/syntax"

	"harness/repl/pyrt"
)

// useInstead is one row. A failed call matches the row when its error
// message matches errRE and, when codeRE is set, its code matches codeRE.
// example is code that fails with the row's hint (a test runs every one).
type useInstead struct {
	name, alternative string
	codeRE, errRE     *regexp.Regexp
	example           string
}

func (u useInstead) hint() string {
	return u.name + " is not available in this REPL; use " + u.alternative
}

func row(name, alt, code, err, example string) useInstead {
	u := useInstead{name: name, alternative: alt, example: example}
	if code != "" {
		u.codeRE = regexp.MustCompile(code)
	}
	if err != "" {
		u.errRE = regexp.MustCompile(err)
	}
	return u
}

// useInsteadTable is the one table behind help() and error hints. Order
// matters: the first matching row wins.
var useInsteadTable = []useInstead{
	row("async/await", `plain calls`, ``, `got (async|await),`, "async def main():\n    pass"),
	row("load()", `nothing: helpers are globals (lib_source(name) shows one)`, ``, `undefined: load$`, `load("glob.star", "glob")`),
	row("eval()/exec()", `calling functions directly`, ``, `undefined: (eval|exec|compile)$`, `eval("1 + 1")`),
}

// matchUseInstead finds the row explaining a failed call, if any.
func matchUseInstead(code string, err error) (useInstead, bool) {
	msg := pyrt.ErrorMessage(err)
	for _, u := range useInsteadTable {
		if u.errRE == nil || !u.errRE.MatchString(msg) {
			continue
		}
		if u.codeRE != nil && !u.codeRE.MatchString(code) {
			continue
		}
		return u, true
	}
	return useInstead{}, false
}

// missingBuiltins are Python builtins the REPL does not provide.
var missingBuiltins = map[string]bool{
	"bytearray": true, "complex": true, "memoryview": true, "globals": true, "locals": true, "__import__": true,
	"breakpoint": true, "aiter": true, "anext": true, "delattr": true, "slice": true, "help": false,
}

var (
	gapAttr = regexp.MustCompile(`^'(str|list|dict|tuple|set|bytes|int|float|bool|NoneType)' object has no attribute '(\w+)'`)
	gapName = regexp.MustCompile(`name '(\w+)' is not defined|undefined: (\w+)$`)
)

// gap names a Python form a failed call used that the REPL lacks, for
// the failure notes (so the next gaps show up counted in failures.jsonl),
// or returns "". The first line is stable across calls.
func (r *interp) gap(c *callState, err error) string {
	msg := pyrt.ErrorMessage(err)
	switch {
	case c.refused:
		return "not supported: " + msg[strings.Index(msg, ": ")+2:]
	case strings.HasPrefix(msg, "NotImplementedError: "):
		return strings.TrimPrefix(msg, "NotImplementedError: ")
	}
	var se *syntax.Error
	if errors.As(err, &se) {
		return "Starlark could not parse: " + se.Msg
	}
	exc := r.ExceptionOf(err)
	if exc.Typ == pyrt.ExcAttribute {
		if m := gapAttr.FindStringSubmatch(exc.Str()); m != nil {
			return "method not available: " + m[1] + "." + m[2]
		}
	}
	if m := gapName.FindStringSubmatch(msg); m != nil {
		name := m[1] + m[2]
		if missingBuiltins[name] {
			return "builtin not available: " + name
		}
	}
	return ""
}
