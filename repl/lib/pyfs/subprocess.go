// The subprocess module over run(): the same checks and approvals,
// Python's arguments and results.

package pyfs

import (
	"errors"
	"strings"
	"time"

	"go.starlark.net/starlark"

	"harness/repl/pyrt"
	"harness/repl/pystr"
)

const (
	subprocessPIPE    = -1
	subprocessSTDOUT  = -2
	subprocessDEVNULL = -3
)

func subprocessModule(r *pyrt.Interp) starlark.Value {
	completed := &pyrt.PyType{TypeName: "CompletedProcess", Module: "subprocess"}
	r.Types["CompletedProcess"] = completed
	return pyrt.NewModule("subprocess", starlark.StringDict{
		"run":             pyrt.Builtin("subprocess.run", subprocessRun(r, "run")),
		"check_output":    pyrt.Builtin("subprocess.check_output", subprocessRun(r, "check_output")),
		"call":            pyrt.Builtin("subprocess.call", subprocessRun(r, "call")),
		"check_call":      pyrt.Builtin("subprocess.check_call", subprocessRun(r, "check_call")),
		"getoutput":       pyrt.Builtin("subprocess.getoutput", getoutput(r, false)),
		"getstatusoutput": pyrt.Builtin("subprocess.getstatusoutput", getoutput(r, true)),
		"PIPE":            starlark.MakeInt(subprocessPIPE), "STDOUT": starlark.MakeInt(subprocessSTDOUT), "DEVNULL": starlark.MakeInt(subprocessDEVNULL),
		"CompletedProcess":   completed,
		"SubprocessError":    pyrt.ExcSubprocess,
		"CalledProcessError": pyrt.ExcCalledProcess,
		"TimeoutExpired":     pyrt.ExcTimeoutExpired,
		"Popen":              &pyrt.Unavailable{ModName: "subprocess.Popen", Why: "commands run to completion; use subprocess.run(args, capture_output=True, text=True, timeout=...)"},
	})
}

// subprocessArgs are run()'s keyword arguments.
type subprocessArgs struct {
	argv                []string
	shown               starlark.Value // args as given, for results and errors
	cwd                 string
	capture, merge      bool // stdout captured; stderr into stdout
	captureErr, nullOut bool
	nullErr             bool
	text, check         bool
	timeout             time.Duration
	timeoutText         string
}

func parseSubprocess(r *pyrt.Interp, fn string, args starlark.Tuple, kw []starlark.Tuple) (*subprocessArgs, error) {
	if len(args) != 1 {
		return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "%s() takes the command as its only positional argument", fn)
	}
	a := &subprocessArgs{shown: args[0]}
	shell := false
	var stdout, stderr starlark.Value = starlark.None, starlark.None
	for _, kv := range kw {
		k, v := string(kv[0].(starlark.String)), kv[1]
		switch k {
		case "shell":
			shell = v.Truth() == starlark.True
		case "capture_output":
			if v.Truth() {
				a.capture, a.captureErr = true, true
			}
		case "stdout":
			stdout = v
		case "stderr":
			stderr = v
		case "text", "universal_newlines":
			a.text = a.text || v.Truth() == starlark.True
		case "encoding", "errors":
			if v != starlark.None {
				a.text = true
			}
		case "check":
			a.check = v.Truth() == starlark.True
		case "cwd":
			if v != starlark.None {
				p, err := r.PathText(fn, v)
				if err != nil {
					return nil, err
				}
				a.cwd = p
			}
		case "timeout":
			if v != starlark.None {
				f, ok := pyrt.ToFloat(v)
				if !ok || f <= 0 {
					return nil, pyrt.PyErrorf(pyrt.ExcValueError, "timeout must be a positive number of seconds")
				}
				a.timeout, a.timeoutText = time.Duration(f*float64(time.Second)), pyrt.PyStr(v)
			}
		case "input":
			if v != starlark.None {
				return nil, pyrt.PyErrorf(pyrt.ExcValueError, "input= is not supported: commands read no stdin in this REPL; write the data to a file and pass its path")
			}
		case "stdin":
			if i, ok := v.(starlark.Int); v != starlark.None && !(ok && i.Sign() < 0) {
				return nil, pyrt.PyErrorf(pyrt.ExcValueError, "stdin= is not supported: commands read no stdin in this REPL")
			}
		case "env":
			if v != starlark.None {
				return nil, pyrt.PyErrorf(pyrt.ExcValueError, "env= is not supported: commands get the REPL's environment (minus [commands] env_filter); set variables inside the command: [\"sh\", \"-c\", \"X=1 cmd\"]")
			}
		case "bufsize", "close_fds", "start_new_session", "executable":
		default:
			return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "%s() got an unexpected keyword argument '%s'", fn, k)
		}
	}
	switch code(stdout) {
	case subprocessPIPE:
		a.capture = true
	case subprocessDEVNULL:
		a.nullOut = true
	}
	switch code(stderr) {
	case subprocessPIPE:
		a.captureErr = true
	case subprocessSTDOUT:
		a.merge = true
	case subprocessDEVNULL:
		a.nullErr = true
	}
	switch v := args[0].(type) {
	case starlark.String:
		if shell {
			a.argv = []string{"sh", "-c", string(v)}
		} else {
			a.argv = []string{string(v)}
		}
	default:
		vals, err := pyrt.ListOf(v)
		if err != nil || len(vals) == 0 {
			return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "%s() args must be a string or a non-empty list of strings", fn)
		}
		for _, x := range vals {
			s, err := r.PathText(fn, x)
			if err != nil {
				return nil, err
			}
			a.argv = append(a.argv, s)
		}
		if shell {
			a.argv = append([]string{"sh", "-c"}, a.argv...)
		}
	}
	return a, nil
}

func code(v starlark.Value) int {
	if i, ok := v.(starlark.Int); ok {
		n, _ := i.Int64()
		return int(n)
	}
	return 0
}

// commandDir converts a subprocess cwd (relative to the REPL's working
// directory, as in Python) into run()'s repository-relative directory.
func commandDir(r *pyrt.Interp, cwd string) (string, error) {
	abs := r.Host.Absolute(cwd)
	if cwd == "" {
		abs = r.Cwd
	}
	rel, ok := strings.CutPrefix(abs+"/", "/repository/")
	if !ok {
		return "", pyrt.PyErrorf(pyrt.ExcNotADirectory, "commands run in the repository; cwd %s is outside /repository", pystr.Quote(abs))
	}
	return strings.TrimSuffix(rel, "/"), nil
}

func subprocessRun(r *pyrt.Interp, fn string) pyrt.BuiltinFunc {
	return func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		a, err := parseSubprocess(r, fn, args, kw)
		if err != nil {
			return nil, err
		}
		switch fn {
		case "check_output":
			a.capture, a.check = true, true
		case "check_call":
			a.check = true
		}
		dir, err := commandDir(r, a.cwd)
		if err != nil {
			return nil, err
		}
		res, err := pyCommand(r, a.argv, dir, a.timeout)
		if err != nil {
			if pe, ok := err.(*pyrt.PyError); ok && pe.Exc.Typ == pyrt.ExcTimeoutExpired {
				pe.Exc.Attrs["cmd"] = a.shown
			}
			return nil, err
		}
		out, errOut := streams(r, a, res)
		if a.check && res.ExitCode != 0 {
			return nil, calledProcessError(res.ExitCode, a.shown, out, errOut)
		}
		switch fn {
		case "check_output":
			return out, nil
		case "call", "check_call":
			return starlark.MakeInt(res.ExitCode), nil
		}
		return &completedProcess{cls: r.Types["CompletedProcess"], args: a.shown, code: res.ExitCode, stdout: out, stderr: errOut}, nil
	}
}

// streams returns what CompletedProcess.stdout and stderr hold; output
// not captured is printed, as a child's inherited output would appear.
func streams(r *pyrt.Interp, a *subprocessArgs, res pyrt.RunReply) (starlark.Value, starlark.Value) {
	val := func(s string) starlark.Value {
		if a.text {
			return starlark.String(pyrt.UniversalNewlines(s))
		}
		return starlark.Bytes(s)
	}
	stdout, stderr := res.Stdout, res.Stderr
	var out, errOut starlark.Value = starlark.None, starlark.None
	if a.merge {
		stdout, stderr = stdout+stderr, ""
	}
	if a.capture {
		out = val(stdout)
	} else if !a.nullOut {
		r.Host.CallOf().Write(stdout)
	}
	switch {
	case a.captureErr && !a.merge:
		errOut = val(stderr)
	case !a.nullErr && !a.merge:
		r.Host.CallOf().Write(stderr)
	}
	return out, errOut
}

func getoutput(r *pyrt.Interp, status bool) pyrt.BuiltinFunc {
	return func(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		var cmd string
		if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 1, &cmd); err != nil {
			return nil, err
		}
		dir, err := commandDir(r, "")
		if err != nil {
			return nil, err
		}
		res, err := pyCommand(r, []string{"sh", "-c", cmd}, dir, 0)
		if err != nil {
			return nil, err
		}
		out := starlark.String(strings.TrimSuffix(res.Stdout+res.Stderr, "\n"))
		if status {
			return starlark.Tuple{starlark.MakeInt(res.ExitCode), out}, nil
		}
		return out, nil
	}
}

func commandText(args starlark.Value) string {
	if s, ok := args.(starlark.String); ok {
		return string(s)
	}
	return pyrt.PyRepr(args)
}

func calledProcessError(code int, args, out, errOut starlark.Value) error {
	msg := "Command '" + commandText(args) + "' returned non-zero exit status " + pyrt.Itoa(code) + "."
	if code < 0 {
		msg = "Command '" + commandText(args) + "' died with signal " + pyrt.Itoa(-code) + "."
	}
	return &pyrt.PyError{Exc: &pyrt.PyException{Typ: pyrt.ExcCalledProcess, Args: starlark.Tuple{starlark.MakeInt(code), args}, Text: msg,
		Attrs: starlark.StringDict{"returncode": starlark.MakeInt(code), "cmd": args, "output": out, "stdout": out, "stderr": errOut}}}
}

func TimeoutExpired(argv []string, timeout time.Duration, out, errOut string) error {
	list := make([]starlark.Value, len(argv))
	for i, a := range argv {
		list[i] = starlark.String(a)
	}
	cmd := starlark.NewList(list)
	secs := strings.TrimSuffix(strings.TrimSuffix(pystr.FloatRepr(timeout.Seconds()), "0"), ".")
	return &pyrt.PyError{Exc: &pyrt.PyException{Typ: pyrt.ExcTimeoutExpired, Args: starlark.Tuple{cmd, starlark.Float(timeout.Seconds())},
		Text: "Command '" + commandText(cmd) + "' timed out after " + secs + " seconds",
		Attrs: starlark.StringDict{"cmd": cmd, "timeout": starlark.Float(timeout.Seconds()),
			"output": starlark.String(out), "stdout": starlark.String(out), "stderr": starlark.String(errOut)}}}
}

// completedProcess is subprocess.CompletedProcess.
type completedProcess struct {
	cls            *pyrt.PyType
	args           starlark.Value
	code           int
	stdout, stderr starlark.Value
}

func (p *completedProcess) PyClass() *pyrt.PyType { return p.cls }
func (p *completedProcess) String() string        { return p.ReprPy() }
func (p *completedProcess) ReprPy() string {
	s := "CompletedProcess(args=" + pyrt.PyRepr(p.args) + ", returncode=" + pyrt.Itoa(p.code)
	if p.stdout != starlark.None {
		s += ", stdout=" + pyrt.PyRepr(p.stdout)
	}
	if p.stderr != starlark.None {
		s += ", stderr=" + pyrt.PyRepr(p.stderr)
	}
	return s + ")"
}
func (p *completedProcess) Type() string         { return "CompletedProcess" }
func (p *completedProcess) Freeze()              {}
func (p *completedProcess) Truth() starlark.Bool { return true }
func (p *completedProcess) Hash() (uint32, error) {
	return 0, pyrt.PyErrorf(pyrt.ExcTypeError, "unhashable type: 'CompletedProcess'")
}
func (p *completedProcess) AttrNames() []string {
	return []string{"args", "check_returncode", "returncode", "stderr", "stdout"}
}
func (p *completedProcess) Attr(name string) (starlark.Value, error) {
	switch name {
	case "args":
		return p.args, nil
	case "returncode":
		return starlark.MakeInt(p.code), nil
	case "stdout":
		return p.stdout, nil
	case "stderr":
		return p.stderr, nil
	case "check_returncode":
		return pyrt.Builtin("check_returncode", func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
			if p.code != 0 {
				return nil, calledProcessError(p.code, p.args, p.stdout, p.stderr)
			}
			return starlark.None, nil
		}), nil
	}
	return nil, nil
}

// pyCommand is runCommand for the subprocess and os modules: its errors
// lose run()'s "run: " prefix and carry their class, so str(e) is the
// message a Python program expects ("the user refused to run sh; ...").
func pyCommand(r *pyrt.Interp, argv []string, cwd string, timeout time.Duration) (pyrt.RunReply, error) {
	res, err := r.Host.RunCommand(argv, cwd, timeout)
	if err != nil {
		if _, ok := err.(*pyrt.PyError); !ok {
			if msg, cut := strings.CutPrefix(err.Error(), "run: "); cut {
				err = errors.New(msg)
				if kind, text, ok := strings.Cut(msg, ": "); ok && pyrt.RunKinds[kind] != nil {
					err = &pyrt.PyError{Exc: &pyrt.PyException{Typ: pyrt.RunKinds[kind], Args: starlark.Tuple{starlark.String(text)}}}
				}
			}
		}
	}
	return res, err
}
