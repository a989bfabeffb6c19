// functools.lru_cache and cache, with cache_info() and cache_clear(), and
// wraps.

package pylang

import (
	"go.starlark.net/starlark"

	"harness/repl/pyrt"
)

func ftCache(lru bool) pyrt.BuiltinFunc {
	return func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		maxsize := -1
		wrap := func(fn starlark.Value) (starlark.Value, error) {
			if _, ok := fn.(starlark.Callable); !ok {
				return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "Expected first argument to be an integer, a callable, or None")
			}
			return &pyrt.Cached{Fn: fn, Memo: starlark.NewDict(0), Maxsize: maxsize}, nil
		}
		if len(args) == 1 && len(kw) == 0 {
			if _, ok := args[0].(starlark.Callable); ok {
				if lru {
					maxsize = 128
				}
				return wrap(args[0]) // @lru_cache without parentheses, or cache(f)
			}
		}
		if !lru {
			return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "cache() takes a function")
		}
		var size starlark.Value = starlark.MakeInt(128)
		var typed starlark.Value = starlark.False
		if err := pyrt.UnpackArgs("lru_cache", args, kw, "maxsize?", &size, "typed?", &typed); err != nil {
			return nil, err
		}
		switch s := size.(type) {
		case starlark.NoneType:
		case starlark.Int:
			n, _ := s.Int64()
			maxsize = max(int(n), 0)
		default:
			return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "Expected first argument to be an integer, a callable, or None")
		}
		return pyrt.Builtin("lru_cache", func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
			if len(args) != 1 {
				return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "lru_cache() decorates one function")
			}
			return wrap(args[0])
		}), nil
	}
}

var (
	_ starlark.Callable = (*pyrt.FnWrapper)(nil)
	_ starlark.HasAttrs = (*pyrt.FnWrapper)(nil)
)

// ftWraps is functools.wraps(wrapped): a decorator making a fnWrapper.
func ftWraps(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var wrapped starlark.Value
	if err := starlark.UnpackPositionalArgs("wraps", args, nil, 1, &wrapped); err != nil {
		return nil, err
	}
	return pyrt.Builtin("wraps", func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
		if len(args) != 1 {
			return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "wraps() decorates one function")
		}
		return updateWrapper(thread, args[0], wrapped)
	}), nil
}

// ftUpdateWrapper is functools.update_wrapper(wrapper, wrapped).
func ftUpdateWrapper(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var wrapper, wrapped, assigned, updated starlark.Value
	if err := pyrt.UnpackArgs(b.Name(), args, kw, "wrapper", &wrapper, "wrapped", &wrapped, "assigned?", &assigned, "updated?", &updated); err != nil {
		return nil, err
	}
	return updateWrapper(thread, wrapper, wrapped)
}

// updateWrapper gives wrapper the wrapped function's name, docstring and
// module, and __wrapped__: set on an instance of a REPL class (a class
// used as a decorator), a fnWrapper around a function.
func updateWrapper(thread *starlark.Thread, wrapper, wrapped starlark.Value) (starlark.Value, error) {
	if o, ok := wrapper.(*pyrt.PyObject); ok {
		if r, _ := thread.Local(pyrt.ThreadInterp).(*pyrt.Interp); r != nil {
			for _, name := range []string{"__module__", "__name__", "__qualname__", "__doc__"} {
				if v, err := r.DunderAttr(wrapped, name); err == nil && v != nil {
					if err := o.SetField(name, v); err != nil {
						return nil, err
					}
				}
			}
		}
		return o, o.SetField("__wrapped__", wrapped)
	}
	if _, ok := wrapper.(starlark.Callable); !ok {
		return wrapper, nil
	}
	w := &pyrt.FnWrapper{Fn: wrapper, Wrapped: wrapped}
	if r, _ := thread.Local(pyrt.ThreadInterp).(*pyrt.Interp); r != nil {
		r.CopyFuncDict(w, wrapper)
		r.CopyFuncDict(w, wrapped)
	}
	return w, nil
}
