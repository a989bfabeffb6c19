// operator: the functions models reach for beyond the arithmetic ones
// (abs, pos, inv/invert, is_not, setitem, delitem, indexOf, countOf,
// index, call).

package pylang

import (
	"go.starlark.net/starlark"
	"go.starlark.net/syntax"

	"harness/repl/pyrt"
)

// operatorMore adds them to the module's dict m.
func operatorMore(r *pyrt.Interp, m starlark.StringDict) {
	unary := func(name string, f func(starlark.Value) (starlark.Value, error)) {
		m[name] = pyrt.Builtin("operator."+name, pyrt.Unary(f))
	}
	unary("pos", func(v starlark.Value) (starlark.Value, error) { return starlark.Unary(syntax.PLUS, v) })
	invert := func(v starlark.Value) (starlark.Value, error) {
		if b, ok := v.(starlark.Bool); ok {
			v = starlark.MakeInt(pyrt.B2i(bool(b)))
		}
		return starlark.Unary(syntax.TILDE, v)
	}
	unary("inv", invert)
	unary("invert", invert)
	unary("index", func(v starlark.Value) (starlark.Value, error) {
		switch v := v.(type) {
		case starlark.Int:
			return v, nil
		case starlark.Bool:
			return starlark.MakeInt(pyrt.B2i(bool(v))), nil
		}
		return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "'%s' object cannot be interpreted as an integer", pyrt.PyTypeName(v))
	})
	m["abs"] = pyrt.Builtin("operator.abs", r.PyAbs)
	two := func(name string, f func(x, y starlark.Value) (starlark.Value, error)) {
		m[name] = pyrt.Builtin("operator."+name, func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var x, y starlark.Value
			if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 2, &x, &y); err != nil {
				return nil, err
			}
			return f(x, y)
		})
	}
	two("is_not", func(x, y starlark.Value) (starlark.Value, error) { return starlark.Bool(!pyrt.Identical(x, y)), nil })
	two("delitem", func(x, k starlark.Value) (starlark.Value, error) {
		return pyrt.PyDelitem(nil, nil, starlark.Tuple{x, k}, nil)
	})
	two("countOf", func(seq, v starlark.Value) (starlark.Value, error) {
		vals, err := pyrt.ListOf(seq)
		n := 0
		for _, x := range vals {
			if eq, _ := starlark.Equal(x, v); eq || pyrt.Identical(x, v) {
				n++
			}
		}
		return starlark.MakeInt(n), err
	})
	two("indexOf", func(seq, v starlark.Value) (starlark.Value, error) {
		vals, err := pyrt.ListOf(seq)
		if err != nil {
			return nil, err
		}
		for i, x := range vals {
			if eq, _ := starlark.Equal(x, v); eq || pyrt.Identical(x, v) {
				return starlark.MakeInt(i), nil
			}
		}
		return nil, pyrt.PyErrorf(pyrt.ExcValueError, "sequence.index(x): x not in sequence")
	})
	m["setitem"] = pyrt.Builtin("operator.setitem", func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		var x, k, v starlark.Value
		if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 3, &x, &k, &v); err != nil {
			return nil, err
		}
		return starlark.None, pyrt.PySetItem(v, x, k)
	})
	m["call"] = pyrt.Builtin("operator.call", func(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		if len(args) == 0 {
			return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "call() missing 1 required positional argument: 'obj'")
		}
		return starlark.Call(thread, args[0], args[1:], kw)
	})
}
