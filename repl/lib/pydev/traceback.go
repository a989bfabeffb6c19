// traceback: format_exc, print_exc, format_exception,
// format_exception_only, print_exception. The REPL keeps no frames, so a
// traceback is its "Traceback (most recent call last):" line and the
// exception's "Kind: message" line, with the chained causes and contexts
// before it as Python writes them.

package pydev

import (
	"strings"

	"go.starlark.net/starlark"

	"harness/repl/pyrt"
)

const (
	tbHeader  = "Traceback (most recent call last):\n"
	tbCause   = "\nThe above exception was the direct cause of the following exception:\n\n"
	tbContext = "\nDuring handling of the above exception, another exception occurred:\n\n"
)

// excOnlyLine is format_exception_only's line for e: "Kind: message\n".
func excOnlyLine(e *pyrt.PyException) string {
	return (&pyrt.PyError{Exc: e}).Error() + "\n"
}

// excLines is format_exception(e): the chain, oldest first.
func excLines(e *pyrt.PyException, chain bool) []string {
	var out []string
	if chain {
		if c, ok := e.Cause.(*pyrt.PyException); ok {
			out = append(excLines(c, true), tbCause)
		} else if e.Context != nil && !e.Suppress && e.Context != e {
			out = append(excLines(e.Context, true), tbContext)
		}
	}
	return append(out, tbHeader, excOnlyLine(e))
}

// formatExcText is the text of e's traceback without its final newline,
// as logging's exception() appends it.
func formatExcText(e *pyrt.PyException) string {
	return strings.TrimSuffix(strings.Join(excLines(e, true), ""), "\n")
}

// excArg reads the exception of print_exception(exc) or
// print_exception(type, value, tb): nil for None.
func excArg(name string, args starlark.Tuple) (*pyrt.PyException, error) {
	if len(args) == 0 {
		return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "%s() missing 1 required positional argument: 'exc'", name)
	}
	v := args[0]
	if len(args) > 1 {
		v = args[1]
	}
	switch e := v.(type) {
	case *pyrt.PyException:
		return e, nil
	case starlark.NoneType:
		return nil, nil
	}
	return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "%s() needs an exception, not %s", name, pyrt.PyTypeName(v))
}

func strList(lines []string) *starlark.List {
	l := make([]starlark.Value, len(lines))
	for i, s := range lines {
		l[i] = starlark.String(s)
	}
	return starlark.NewList(l)
}

func currentExcLines(r *pyrt.Interp, chain bool) []string {
	if n := len(r.Handling); n > 0 {
		return excLines(r.Handling[n-1], chain)
	}
	return []string{"NoneType: None\n"}
}

func tbChain(kw []starlark.Tuple) bool {
	for _, kv := range kw {
		if string(kv[0].(starlark.String)) == "chain" {
			return bool(kv[1].Truth())
		}
	}
	return true
}

func tracebackModule(r *pyrt.Interp) starlark.Value {
	fmtExc := func(name string, only bool) *starlark.Builtin {
		return pyrt.Builtin(name, func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			e, err := excArg(name, args)
			if err != nil {
				return nil, err
			}
			if e == nil {
				return strList([]string{"NoneType: None\n"}), nil
			}
			if only {
				return strList([]string{excOnlyLine(e)}), nil
			}
			return strList(excLines(e, tbChain(kw))), nil
		})
	}
	return pyrt.NewModule("traceback", starlark.StringDict{
		"format_exception":      fmtExc("format_exception", false),
		"format_exception_only": fmtExc("format_exception_only", true),
		"format_exc": pyrt.Builtin("format_exc", func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			return starlark.String(strings.Join(currentExcLines(r, tbChain(kw)), "")), nil
		}),
		"print_exc": pyrt.Builtin("print_exc", func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			return starlark.None, tbWrite(r, kw, strings.Join(currentExcLines(r, tbChain(kw)), ""))
		}),
		"print_exception": pyrt.Builtin("print_exception", func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			e, err := excArg("print_exception", args)
			if err != nil {
				return nil, err
			}
			text := "NoneType: None\n"
			if e != nil {
				text = strings.Join(excLines(e, tbChain(kw)), "")
			}
			return starlark.None, tbWrite(r, kw, text)
		}),
	})
}

// tbWrite writes a traceback to file= or to sys.stderr.
func tbWrite(r *pyrt.Interp, kw []starlark.Tuple, text string) error {
	for _, kv := range kw {
		if string(kv[0].(starlark.String)) == "file" && kv[1] != starlark.None {
			_, err := pyrt.CallMethod(r.Thread, kv[1], "write", starlark.Tuple{starlark.String(text)}, nil)
			return err
		}
	}
	return r.WriteStd(1, text)
}
