// contextlib: contextmanager, suppress, redirect_stdout/redirect_stderr,
// ExitStack, nullcontext and closing, as context managers of the REPL's
// with statement (pyhidden.go's contextManager).
//
// A with statement here exits its managers when the block ends however
// it ends, and hands them the block's exception (exitWithError, from the
// driver at the top level and from withrun.go inside a function): it is
// thrown into a @contextmanager generator at its yield, passed to a
// class's __exit__, matched by suppress(), and each may swallow it as in
// Python.

package pylang

import (
	"go.starlark.net/starlark"

	"harness/repl/pyrt"
)

func contextlibModule(r *pyrt.Interp) starlark.Value {
	return pyrt.NewModule("contextlib", starlark.StringDict{
		"contextmanager": pyrt.Builtin("contextmanager", func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var fn starlark.Callable
			if err := starlark.UnpackPositionalArgs("contextmanager", args, kw, 1, &fn); err != nil {
				return nil, err
			}
			return &cmFactory{fn: fn}, nil
		}),
		"suppress": pyrt.Builtin("suppress", func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			if len(kw) > 0 {
				return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "suppress() got an unexpected keyword argument '%s'", kw[0][0].(starlark.String).GoString())
			}
			return &simpleCM{name: "suppress", suppress: args}, nil
		}),
		"nullcontext": pyrt.Builtin("nullcontext", func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var v starlark.Value = starlark.None
			if err := pyrt.UnpackArgs("nullcontext", args, kw, "enter_result?", &v); err != nil {
				return nil, err
			}
			return &simpleCM{name: "nullcontext", value: v}, nil
		}),
		"closing": pyrt.Builtin("closing", func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var v starlark.Value
			if err := pyrt.UnpackArgs("closing", args, kw, "thing", &v); err != nil {
				return nil, err
			}
			return &simpleCM{name: "closing", value: v, onExit: func() error {
				_, err := pyrt.CallMethod(thread, v, "close", nil, nil)
				return err
			}}, nil
		}),
		"redirect_stdout": redirector(r, "redirect_stdout", 0),
		"redirect_stderr": redirector(r, "redirect_stderr", 1),
		"ExitStack": pyrt.Builtin("ExitStack", func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			if err := starlark.UnpackPositionalArgs("ExitStack", args, kw, 0); err != nil {
				return nil, err
			}
			return &exitStack{thread: thread}, nil
		}),
	})
}

// cmFactory is a @contextmanager function: calling it makes a manager
// over the generator the function returns.
type cmFactory struct{ fn starlark.Callable }

func (f *cmFactory) String() string        { return "<function " + f.Name() + ">" }
func (f *cmFactory) Type() string          { return "function" }
func (f *cmFactory) Freeze()               {}
func (f *cmFactory) Truth() starlark.Bool  { return true }
func (f *cmFactory) Hash() (uint32, error) { return f.fn.Hash() }
func (f *cmFactory) Name() string          { return f.fn.Name() }
func (f *cmFactory) CallInternal(thread *starlark.Thread, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	g, err := starlark.Call(thread, f.fn, args, kw)
	if err != nil {
		return nil, err
	}
	it, ok := g.(*pyrt.PyIter)
	if !ok {
		return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "@contextmanager needs a generator function (a def that yields); %s returned %s", f.Name(), pyrt.PyTypeName(g))
	}
	return &genCM{it: it}, nil
}

// genCM is the manager a @contextmanager function returns.
type genCM struct {
	it      *pyrt.PyIter
	entered bool
}

func (m *genCM) String() string        { return "<contextlib._GeneratorContextManager object>" }
func (m *genCM) Type() string          { return "_GeneratorContextManager" }
func (m *genCM) Freeze()               {}
func (m *genCM) Truth() starlark.Bool  { return true }
func (m *genCM) Hash() (uint32, error) { return 0, nil }

func (m *genCM) Enter() (starlark.Value, error) {
	if m.entered {
		return nil, pyrt.PyErrorf(pyrt.ExcRuntime, "generator didn't yield")
	}
	m.entered = true
	v, ok, err := m.it.Step()
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, pyrt.PyErrorf(pyrt.ExcRuntime, "generator didn't yield")
	}
	return v, nil
}

func (m *genCM) Exit() error {
	_, ok, err := m.it.Step()
	if err != nil {
		return err
	}
	if ok {
		return pyrt.PyErrorf(pyrt.ExcRuntime, "generator didn't stop")
	}
	return nil
}

// exitExc throws the block's exception into the generator at its yield:
// the generator swallows it by ending, or raises it (or another) again.
func (m *genCM) ExitExc(r *pyrt.Interp, exc *pyrt.PyException, err error) (bool, error) {
	if m.it.Gen == nil {
		return false, m.Exit()
	}
	_, ok, gerr := m.it.Gen.Step(pyrt.GenResume{Exc: err})
	switch {
	case gerr != nil:
		if r.ExceptionOf(gerr) == exc {
			return false, nil // raised again: the block's own error goes on
		}
		return false, gerr
	case ok:
		return false, pyrt.PyErrorf(pyrt.ExcRuntime, "generator didn't stop after throw()")
	}
	return true, nil
}

func (m *simpleCM) ExitExc(r *pyrt.Interp, exc *pyrt.PyException, _ error) (bool, error) {
	if xerr := m.Exit(); xerr != nil {
		return false, xerr
	}
	return m.suppresses(r, exc)
}

// simpleCM is nullcontext, suppress and closing: a value to bind and
// what to do on exit.
type simpleCM struct {
	name     string
	value    starlark.Value
	onExit   func() error
	suppress starlark.Tuple // suppress's exception classes
}

// suppresses reports whether a suppress() manager swallows exc: an
// instance of one of its classes.
func (m *simpleCM) suppresses(r *pyrt.Interp, exc *pyrt.PyException) (bool, error) {
	if len(m.suppress) == 0 {
		return false, nil
	}
	return r.ExcMatches(m.suppress, exc)
}

func (m *simpleCM) String() string        { return "<contextlib." + m.name + " object>" }
func (m *simpleCM) Type() string          { return m.name }
func (m *simpleCM) Freeze()               {}
func (m *simpleCM) Truth() starlark.Bool  { return true }
func (m *simpleCM) Hash() (uint32, error) { return 0, nil }
func (m *simpleCM) Enter() (starlark.Value, error) {
	if m.value == nil {
		return starlark.None, nil
	}
	return m.value, nil
}
func (m *simpleCM) Exit() error {
	if m.onExit != nil {
		return m.onExit()
	}
	return nil
}

// redirector is redirect_stdout or redirect_stderr (stream 0 or 1): print
// and sys.stdout.write (or sys.stderr.write and logging) go to the target
// inside the block.
func redirector(r *pyrt.Interp, name string, stream int) *starlark.Builtin {
	return pyrt.Builtin(name, func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		var target starlark.Value
		if err := pyrt.UnpackArgs(name, args, kw, "new_target", &target); err != nil {
			return nil, err
		}
		var old []starlark.Value
		m := &simpleCM{name: name, value: target}
		m.onExit = func() error {
			r.StdRedirect[stream] = old[len(old)-1]
			old = old[:len(old)-1]
			return nil
		}
		return &redirectCM{simpleCM: m, enterFn: func() {
			old = append(old, r.StdRedirect[stream])
			r.StdRedirect[stream] = target
		}}, nil
	})
}

type redirectCM struct {
	*simpleCM
	enterFn func()
}

func (m *redirectCM) Enter() (starlark.Value, error) {
	m.enterFn()
	return m.simpleCM.Enter()
}

// exitStack is contextlib.ExitStack.
type exitStack struct {
	thread *starlark.Thread
	exits  []stackExit
}

// stackExit is one exit of an ExitStack: a callback, or a manager that
// may also take the exception that ended the block (exc).
type stackExit struct {
	exit func() error
	exc  pyrt.ExcExiter
}

// exitExc exits the stack, last entered first, after its block raised
// err, as a with statement exits its managers (driver.go).
func (s *exitStack) ExitExc(r *pyrt.Interp, _ *pyrt.PyException, err error) (bool, error) {
	w := &pyrt.WithValue{}
	for _, e := range s.exits {
		if e.exc != nil {
			w.Managers = append(w.Managers, e.exc.(pyrt.ContextManager))
		} else {
			w.Managers = append(w.Managers, callbackExit(e.exit))
		}
	}
	s.exits = nil
	left := r.ExitWithError(w, err)
	if left == err {
		return false, nil
	}
	return left == nil, left
}

// callbackExit is an ExitStack callback as a context manager.
type callbackExit func() error

func (f callbackExit) Enter() (starlark.Value, error) { return starlark.None, nil }
func (f callbackExit) Exit() error                    { return f() }

func (s *exitStack) String() string        { return "<contextlib.ExitStack object>" }
func (s *exitStack) Type() string          { return "ExitStack" }
func (s *exitStack) Freeze()               {}
func (s *exitStack) Truth() starlark.Bool  { return true }
func (s *exitStack) Hash() (uint32, error) { return 0, nil }
func (s *exitStack) Enter() (starlark.Value, error) {
	return s, nil
}
func (s *exitStack) Exit() error {
	var first error
	for len(s.exits) > 0 {
		f := s.exits[len(s.exits)-1]
		s.exits = s.exits[:len(s.exits)-1]
		if err := f.exit(); err != nil && first == nil {
			first = err
		}
	}
	return first
}

func (s *exitStack) AttrNames() []string {
	return []string{"callback", "close", "enter_context", "pop_all", "push"}
}

func (s *exitStack) Attr(name string) (starlark.Value, error) {
	var f pyrt.BuiltinFunc
	switch name {
	case "enter_context":
		f = func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var v starlark.Value
			if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 1, &v); err != nil {
				return nil, err
			}
			cm, err := pyrt.ManagerOf(v)
			if err != nil {
				return nil, err
			}
			res, err := cm.Enter()
			if err != nil {
				return nil, err
			}
			x, _ := cm.(pyrt.ExcExiter)
			s.exits = append(s.exits, stackExit{exit: cm.Exit, exc: x})
			return res, nil
		}
	case "callback":
		f = func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			if len(args) == 0 {
				return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "ExitStack.callback() missing 1 required positional argument: 'callback'")
			}
			fn, rest := args[0], append(starlark.Tuple(nil), args[1:]...)
			s.exits = append(s.exits, stackExit{exit: func() error {
				_, err := starlark.Call(thread, fn, rest, kw)
				return err
			}})
			return fn, nil
		}
	case "push":
		f = func(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var fn starlark.Value
			if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 1, &fn); err != nil {
				return nil, err
			}
			s.exits = append(s.exits, stackExit{exit: func() error {
				_, err := starlark.Call(thread, fn, starlark.Tuple{starlark.None, starlark.None, starlark.None}, nil)
				return err
			}})
			return fn, nil
		}
	case "close":
		f = func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
			return starlark.None, s.Exit()
		}
	case "pop_all":
		f = func(thread *starlark.Thread, _ *starlark.Builtin, _ starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
			n := &exitStack{thread: thread, exits: s.exits}
			s.exits = nil
			return n, nil
		}
	default:
		return nil, nil
	}
	return pyrt.Builtin("ExitStack."+name, f), nil
}
