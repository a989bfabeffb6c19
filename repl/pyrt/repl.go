// Error messages and the Python traceback of a failed call.

package pyrt

import (
	"errors"
	"fmt"
	"strings"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"

	"harness/repl/rewrite"
)

// errorMessage returns an error's message without its backtrace.
func ErrorMessage(err error) string {
	var ee *starlark.EvalError
	if errors.As(err, &ee) {
		return ee.Msg
	}
	return err.Error()
}

// pythonFrames returns the frames a Python traceback would show: without
// the builtins between REPL frames (sorted calling a key function, the
// hidden builtins the rewritten code calls), and with the clause
// functions of a try or with inside a function (prepass_trydef.go,
// prepass_withdef.go) and the lambdas of a with's managers shown as their
// function at the clause's line. The last frame, where the error
// arose, is kept.
func pythonFrames(stack starlark.CallStack) starlark.CallStack {
	var out starlark.CallStack
	for i, fr := range stack {
		last := i == len(stack)-1
		switch {
		case !last && fr.Pos.Filename() == "<builtin>":
			continue
		case (rewrite.IsClause(fr.Name) || withManagerFrame(stack, i)) && len(out) > 0:
			out[len(out)-1].Pos = fr.Pos
			continue
		case rewrite.IsClassBody(fr.Name):
			fr.Name = "<class " + strings.TrimPrefix(fr.Name, "__py_class_") + ">"
		}
		out = append(out, fr)
	}
	return out
}

// withManagerFrame reports whether stack[i] is the lambda evaluating a
// with's manager inside a function, which __py_withrun calls.
func withManagerFrame(stack starlark.CallStack, i int) bool {
	return i > 0 && stack[i].Name == "lambda" && stack[i-1].Name == "withrun" && stack[i-1].Pos.Filename() == "<builtin>"
}

// backtrace formats an evaluation error like starlark's Backtrace, but
// collapses runs of identical frames (deep recursion) into one line, maps
// positions with pos, and ends a Python exception as Python does
// ("ValueError: message").
// operatorBuiltins are the hidden builtins that run an operator, whose
// errors read as the operator's own.
var operatorBuiltins = map[string]bool{repeatName: true, concatName: true, rewrite.HidSub: true, rewrite.HidDiv: true, rewrite.HidFloorDiv: true, rewrite.HidIAdd: true, "__py_chain": true, rewrite.HidAugItem: true, rewrite.HidAugAttr: true}

// backtraceOf is backtrace of the frames stack and the message msg of the
// error err.
func BacktraceOf(frames starlark.CallStack, msg string, err error, pos func(syntax.Position) syntax.Position) string {
	return backtraceLine(frames, msg, err, pos, "")
}

// Backtrace is BacktraceOf ending a file error as the OSError it raises
// ("FileNotFoundError: [Errno 2] No such file or directory: 'x.json'",
// the file named as the program named it), as Python ends it.
func (r *Interp) Backtrace(frames starlark.CallStack, msg string, err error, pos func(syntax.Position) syntax.Position) string {
	return backtraceLine(frames, msg, err, pos, r.osErrorLine(err))
}

// osErrorLine is the "Kind: message" line of the OSError a file error
// raises, or "" when err is no file error or a refusal (permission,
// outside the root).
func (r *Interp) osErrorLine(err error) string {
	var fe *FsError
	if !errors.As(err, &fe) {
		return ""
	}
	switch fe.Kind {
	case fsNotFound, fsExists, fsNotDir, fsIsDir:
	default:
		return "" // a refusal keeps its wording: the operation, the virtual path and why
	}
	return (&PyError{r.ExceptionOf(err)}).Error()
}

// backtraceLine is BacktraceOf with the exception line given as line
// when it is not "".
func backtraceLine(frames starlark.CallStack, msg string, err error, pos func(syntax.Position) syntax.Position, line string) string {
	stack := pythonFrames(frames)
	suffix := ""
	var pe *PyError
	isPy := errors.As(err, &pe)
	if last := len(stack) - 1; last >= 0 && stack[last].Pos.Filename() == "<builtin>" {
		if n := stack[last].Name; !operatorBuiltins[n] && !isPy { // x * y, x + y read as Starlark's own errors
			suffix = " in " + stack[last].Name
		}
		stack = stack[:last]
	}
	var sb strings.Builder
	sb.WriteString("Traceback (most recent call last):\n")
	for i := 0; i < len(stack); {
		fr := stack[i]
		j := i + 1
		for j < len(stack) && stack[j] == fr {
			j++
		}
		fmt.Fprintf(&sb, "  %s: in %s\n", pos(fr.Pos), fr.Name)
		if n := j - i - 1; n > 0 {
			if n <= 2 {
				j = i + 1 // print short repeats as they are
			} else {
				fmt.Fprintf(&sb, "  [the line above repeats %d more times]\n", n)
			}
		}
		i = j
	}
	if isPy {
		sb.WriteString(pe.Error())
		return sb.String()
	}
	if line != "" {
		sb.WriteString(line)
		return sb.String()
	}
	var fe *FsError
	if typ, pyMsg := classifyMessage(msg); typ != ExcException && typ != nil && !errors.As(err, &fe) && !strings.Contains(msg, "run: ") {
		fmt.Fprintf(&sb, "%s: %s", typ.TypeName, pyMsg) // Starlark's error in Python's words
		return sb.String()
	}
	fmt.Fprintf(&sb, "Error%s: %s", suffix, msg)
	return sb.String()
}
