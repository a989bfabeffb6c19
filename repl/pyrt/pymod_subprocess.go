// The subprocess module over run(): the same checks and approvals,
// Python's arguments and results.

package pyrt

import (
	"errors"
	"strings"
	"time"

	"go.starlark.net/starlark"

	"harness/repl/pystr"
)

const (
	subprocessPIPE    = -1
	subprocessSTDOUT  = -2
	subprocessDEVNULL = -3
)

func (r *Interp) subprocessModule() starlark.Value {
	completed := &PyType{name: "CompletedProcess", module: "subprocess"}
	r.types["CompletedProcess"] = completed
	return newModule("subprocess", starlark.StringDict{
		"run":             builtin("subprocess.run", r.subprocessRun("run")),
		"check_output":    builtin("subprocess.check_output", r.subprocessRun("check_output")),
		"call":            builtin("subprocess.call", r.subprocessRun("call")),
		"check_call":      builtin("subprocess.check_call", r.subprocessRun("check_call")),
		"getoutput":       builtin("subprocess.getoutput", r.getoutput(false)),
		"getstatusoutput": builtin("subprocess.getstatusoutput", r.getoutput(true)),
		"PIPE":            starlark.MakeInt(subprocessPIPE), "STDOUT": starlark.MakeInt(subprocessSTDOUT), "DEVNULL": starlark.MakeInt(subprocessDEVNULL),
		"CompletedProcess":   completed,
		"SubprocessError":    excSubprocess,
		"CalledProcessError": excCalledProcess,
		"TimeoutExpired":     excTimeoutExpired,
		"Popen":              &unavailable{name: "subprocess.Popen", why: "commands run to completion; use subprocess.run(args, capture_output=True, text=True, timeout=...)"},
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

func (r *Interp) parseSubprocess(fn string, args starlark.Tuple, kw []starlark.Tuple) (*subprocessArgs, error) {
	if len(args) != 1 {
		return nil, pyErrorf(excTypeError, "%s() takes the command as its only positional argument", fn)
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
				p, err := r.pathText(fn, v)
				if err != nil {
					return nil, err
				}
				a.cwd = p
			}
		case "timeout":
			if v != starlark.None {
				f, ok := toFloat(v)
				if !ok || f <= 0 {
					return nil, pyErrorf(excValueError, "timeout must be a positive number of seconds")
				}
				a.timeout, a.timeoutText = time.Duration(f*float64(time.Second)), pyStr(v)
			}
		case "input":
			if v != starlark.None {
				return nil, pyErrorf(excValueError, "input= is not supported: commands read no stdin in this REPL; write the data to a file and pass its path")
			}
		case "stdin":
			if i, ok := v.(starlark.Int); v != starlark.None && !(ok && i.Sign() < 0) {
				return nil, pyErrorf(excValueError, "stdin= is not supported: commands read no stdin in this REPL")
			}
		case "env":
			if v != starlark.None {
				return nil, pyErrorf(excValueError, "env= is not supported: commands get the REPL's environment (minus [commands] env_filter); set variables inside the command: [\"sh\", \"-c\", \"X=1 cmd\"]")
			}
		case "bufsize", "close_fds", "start_new_session", "executable":
		default:
			return nil, pyErrorf(excTypeError, "%s() got an unexpected keyword argument '%s'", fn, k)
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
		vals, err := listOf(v)
		if err != nil || len(vals) == 0 {
			return nil, pyErrorf(excTypeError, "%s() args must be a string or a non-empty list of strings", fn)
		}
		for _, x := range vals {
			s, err := r.pathText(fn, x)
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
func (r *Interp) commandDir(cwd string) (string, error) {
	abs := r.Host.Absolute(cwd)
	if cwd == "" {
		abs = r.Cwd
	}
	rel, ok := strings.CutPrefix(abs+"/", "/repository/")
	if !ok {
		return "", pyErrorf(excNotADirectory, "commands run in the repository; cwd %s is outside /repository", pystr.Quote(abs))
	}
	return strings.TrimSuffix(rel, "/"), nil
}

func (r *Interp) subprocessRun(fn string) BuiltinFunc {
	return func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		a, err := r.parseSubprocess(fn, args, kw)
		if err != nil {
			return nil, err
		}
		switch fn {
		case "check_output":
			a.capture, a.check = true, true
		case "check_call":
			a.check = true
		}
		dir, err := r.commandDir(a.cwd)
		if err != nil {
			return nil, err
		}
		res, err := r.pyCommand(a.argv, dir, a.timeout)
		if err != nil {
			if pe, ok := err.(*pyError); ok && pe.exc.Typ == excTimeoutExpired {
				pe.exc.attrs["cmd"] = a.shown
			}
			return nil, err
		}
		out, errOut := r.streams(a, res)
		if a.check && res.ExitCode != 0 {
			return nil, calledProcessError(res.ExitCode, a.shown, out, errOut)
		}
		switch fn {
		case "check_output":
			return out, nil
		case "call", "check_call":
			return starlark.MakeInt(res.ExitCode), nil
		}
		return &completedProcess{cls: r.types["CompletedProcess"], args: a.shown, code: res.ExitCode, stdout: out, stderr: errOut}, nil
	}
}

// streams returns what CompletedProcess.stdout and stderr hold; output
// not captured is printed, as a child's inherited output would appear.
func (r *Interp) streams(a *subprocessArgs, res RunReply) (starlark.Value, starlark.Value) {
	val := func(s string) starlark.Value {
		if a.text {
			return starlark.String(universalNewlines(s))
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

func (r *Interp) getoutput(status bool) BuiltinFunc {
	return func(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		var cmd string
		if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 1, &cmd); err != nil {
			return nil, err
		}
		dir, err := r.commandDir("")
		if err != nil {
			return nil, err
		}
		res, err := r.pyCommand([]string{"sh", "-c", cmd}, dir, 0)
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
	return PyRepr(args)
}

func calledProcessError(code int, args, out, errOut starlark.Value) error {
	msg := "Command '" + commandText(args) + "' returned non-zero exit status " + itoa(code) + "."
	if code < 0 {
		msg = "Command '" + commandText(args) + "' died with signal " + itoa(-code) + "."
	}
	return &pyError{&PyException{Typ: excCalledProcess, args: starlark.Tuple{starlark.MakeInt(code), args}, text: msg,
		attrs: starlark.StringDict{"returncode": starlark.MakeInt(code), "cmd": args, "output": out, "stdout": out, "stderr": errOut}}}
}

func TimeoutExpired(argv []string, timeout time.Duration, out, errOut string) error {
	list := make([]starlark.Value, len(argv))
	for i, a := range argv {
		list[i] = starlark.String(a)
	}
	cmd := starlark.NewList(list)
	secs := strings.TrimSuffix(strings.TrimSuffix(pystr.FloatRepr(timeout.Seconds()), "0"), ".")
	return &pyError{&PyException{Typ: excTimeoutExpired, args: starlark.Tuple{cmd, starlark.Float(timeout.Seconds())},
		text: "Command '" + commandText(cmd) + "' timed out after " + secs + " seconds",
		attrs: starlark.StringDict{"cmd": cmd, "timeout": starlark.Float(timeout.Seconds()),
			"output": starlark.String(out), "stdout": starlark.String(out), "stderr": starlark.String(errOut)}}}
}

// completedProcess is subprocess.CompletedProcess.
type completedProcess struct {
	cls            *PyType
	args           starlark.Value
	code           int
	stdout, stderr starlark.Value
}

func (p *completedProcess) pyClass() *PyType { return p.cls }
func (p *completedProcess) String() string   { return p.reprPy() }
func (p *completedProcess) reprPy() string {
	s := "CompletedProcess(args=" + PyRepr(p.args) + ", returncode=" + itoa(p.code)
	if p.stdout != starlark.None {
		s += ", stdout=" + PyRepr(p.stdout)
	}
	if p.stderr != starlark.None {
		s += ", stderr=" + PyRepr(p.stderr)
	}
	return s + ")"
}
func (p *completedProcess) Type() string         { return "CompletedProcess" }
func (p *completedProcess) Freeze()              {}
func (p *completedProcess) Truth() starlark.Bool { return true }
func (p *completedProcess) Hash() (uint32, error) {
	return 0, pyErrorf(excTypeError, "unhashable type: 'CompletedProcess'")
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
		return builtin("check_returncode", func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
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
func (r *Interp) pyCommand(argv []string, cwd string, timeout time.Duration) (RunReply, error) {
	res, err := r.Host.RunCommand(argv, cwd, timeout)
	if err != nil {
		if _, ok := err.(*pyError); !ok {
			if msg, cut := strings.CutPrefix(err.Error(), "run: "); cut {
				err = errors.New(msg)
				if kind, text, ok := strings.Cut(msg, ": "); ok && runKinds[kind] != nil {
					err = &pyError{&PyException{Typ: runKinds[kind], args: starlark.Tuple{starlark.String(text)}}}
				}
			}
		}
	}
	return res, err
}
