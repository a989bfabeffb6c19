package pyrt

import (
	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"

	"harness/repl/pystr"
)

// sysModule is sys, whose argv (and path) a program may replace, as
// programs do before calling their main().
type SysModule struct{ *starlarkstruct.Module }

func (m *SysModule) SetField(name string, v starlark.Value) error {
	switch name {
	case "argv", "path":
		m.Members[name] = v
		return nil
	case "stdout", "stderr", "stdin":
		return PyErrorf(ExcNotImplemented, "sys.%s cannot be replaced in the REPL; use contextlib.redirect_stdout / redirect_stderr(io.StringIO()) to capture output", name)
	}
	return PyErrorf(ExcNotImplemented, "the REPL's sys.%s cannot be assigned; only sys.argv and sys.path can", name)
}

// stdStream is sys.stdout or sys.stderr: writes go to the call's output.
type StdStream struct {
	R    *Interp
	Name string
}

// stream is 0 for sys.stdout, 1 for sys.stderr.
func (s *StdStream) Stream() int {
	if s.Name == "<stderr>" {
		return 1
	}
	return 0
}

func (s *StdStream) String() string {
	return "<_io.TextIOWrapper name='" + s.Name + "' mode='w' encoding='utf-8'>"
}

func (s *StdStream) ReprPy() string { return s.String() }

func (s *StdStream) Type() string { return "TextIOWrapper" }

func (s *StdStream) Freeze() {}

func (s *StdStream) Truth() starlark.Bool { return true }

func (s *StdStream) Hash() (uint32, error) { return 0, nil }

func (s *StdStream) AttrNames() []string { return []string{"flush", "write", "writelines"} }

func (s *StdStream) Attr(name string) (starlark.Value, error) {
	switch name {
	case "write", "writelines":
		return Builtin(s.Name+"."+name, func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var v starlark.Value
			if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 1, &v); err != nil {
				return nil, err
			}
			if name == "writelines" {
				return starlark.None, Iterate(v, func(x starlark.Value) (bool, error) {
					return true, s.R.WriteStd(s.Stream(), PyStr(x))
				})
			}
			str, ok := v.(starlark.String)
			if !ok {
				return nil, PyErrorf(ExcTypeError, "write() argument must be str, not %s", PyTypeName(v))
			}
			return starlark.MakeInt(pystr.CharLen(string(str))), s.R.WriteStd(s.Stream(), string(str))
		}), nil
	case "flush":
		return Builtin(s.Name+".flush", func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
			return starlark.None, nil
		}), nil
	}
	return nil, nil
}
