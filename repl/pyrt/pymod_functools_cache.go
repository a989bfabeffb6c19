// functools.lru_cache and cache, with cache_info() and cache_clear(), and
// wraps.

package pyrt

import (
	"go.starlark.net/starlark"
)

// cacheInfoType is the class of cache_info()'s named tuple.
var (
	cacheInfoType   = &PyType{TypeName: "CacheInfo", Module: "functools"}
	cacheInfoFields = []string{"hits", "misses", "maxsize", "currsize"}
)

// cached is a function wrapped by lru_cache or cache. maxsize < 0 is
// unbounded (None); otherwise the least recently used result goes when the
// cache would hold more, as CPython's, so cache_info() counts the same.
type cached struct {
	fn           starlark.Value
	memo         *starlark.Dict
	order        []starlark.Value // keys, least recently used first (bounded caches only)
	maxsize      int
	hits, misses int
}

func ftCache(lru bool) BuiltinFunc {
	return func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		maxsize := -1
		wrap := func(fn starlark.Value) (starlark.Value, error) {
			if _, ok := fn.(starlark.Callable); !ok {
				return nil, PyErrorf(ExcTypeError, "Expected first argument to be an integer, a callable, or None")
			}
			return &cached{fn: fn, memo: starlark.NewDict(0), maxsize: maxsize}, nil
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
			return nil, PyErrorf(ExcTypeError, "cache() takes a function")
		}
		var size starlark.Value = starlark.MakeInt(128)
		var typed starlark.Value = starlark.False
		if err := UnpackArgs("lru_cache", args, kw, "maxsize?", &size, "typed?", &typed); err != nil {
			return nil, err
		}
		switch s := size.(type) {
		case starlark.NoneType:
		case starlark.Int:
			n, _ := s.Int64()
			maxsize = max(int(n), 0)
		default:
			return nil, PyErrorf(ExcTypeError, "Expected first argument to be an integer, a callable, or None")
		}
		return Builtin("lru_cache", func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
			if len(args) != 1 {
				return nil, PyErrorf(ExcTypeError, "lru_cache() decorates one function")
			}
			return wrap(args[0])
		}), nil
	}
}

func (c *cached) String() string        { return "<functools._lru_cache_wrapper " + PyRepr(c.fn) + ">" }
func (c *cached) ReprPy() string        { return c.String() }
func (c *cached) Type() string          { return "functools._lru_cache_wrapper" }
func (c *cached) Freeze()               {}
func (c *cached) Truth() starlark.Bool  { return true }
func (c *cached) Hash() (uint32, error) { return 0, nil }
func (c *cached) Name() string {
	if n, ok := c.fn.(starlark.Callable); ok {
		return n.Name()
	}
	return "cached"
}

func (c *cached) CallInternal(thread *starlark.Thread, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	key := append(starlark.Tuple(nil), args...)
	for _, kv := range kw {
		key = append(key, kv[0], kv[1])
	}
	if v, found, err := c.memo.Get(key); err != nil {
		return nil, PyErrorf(ExcTypeError, "unhashable type: '%s'", unhashableIn(key))
	} else if found {
		c.hits++
		c.touch(key)
		return v, nil
	}
	c.misses++
	v, err := starlark.Call(thread, c.fn, args, kw)
	if err != nil || c.maxsize == 0 {
		return v, err
	}
	if _, found, _ := c.memo.Get(key); !found && c.maxsize > 0 {
		c.order = append(c.order, key)
		if len(c.order) > c.maxsize {
			_, _, _ = c.memo.Delete(c.order[0])
			c.order = c.order[1:]
		}
	}
	return v, c.memo.SetKey(key, v)
}

// touch makes key the most recently used of a bounded cache.
func (c *cached) touch(key starlark.Value) {
	if c.maxsize <= 0 {
		return
	}
	for i, k := range c.order {
		if eq, _ := starlark.Equal(k, key); eq {
			c.order = append(append(c.order[:i:i], c.order[i+1:]...), k)
			return
		}
	}
}

// unhashableIn names the type of the first unhashable value of key.
func unhashableIn(key starlark.Tuple) string {
	for _, v := range key {
		if _, err := v.Hash(); err != nil {
			return PyTypeName(v)
		}
	}
	return "tuple"
}

func (c *cached) AttrNames() []string { return []string{"cache_clear", "cache_info", "__wrapped__"} }
func (c *cached) Attr(name string) (starlark.Value, error) {
	switch name {
	case "__wrapped__":
		return c.fn, nil
	case "__name__", "__qualname__", "__doc__", "__module__":
		return wrappedAttr(c.fn, name)
	case "cache_clear":
		return Builtin("cache_clear", func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
			c.memo.Clear()
			c.order = nil
			c.hits, c.misses = 0, 0
			return starlark.None, nil
		}), nil
	case "cache_info":
		return Builtin("cache_info", func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
			var size starlark.Value = starlark.None
			if c.maxsize >= 0 {
				size = starlark.MakeInt(c.maxsize)
			}
			vals := starlark.Tuple{starlark.MakeInt(c.hits), starlark.MakeInt(c.misses), size, starlark.MakeInt(c.memo.Len())}
			return &Record{Cls: cacheInfoType, Fields: cacheInfoFields, Vals: vals}, nil
		}), nil
	}
	return nil, nil
}

// wrappedAttr is fn's __name__, __qualname__, __doc__ or __module__, as a
// fnWrapper made by functools reports them.
func wrappedAttr(fn starlark.Value, name string) (starlark.Value, error) {
	if h, ok := fn.(starlark.HasAttrs); ok {
		if v, err := h.Attr(name); v != nil || err != nil {
			return v, err
		}
	}
	switch name {
	case "__doc__":
		if f, ok := fn.(*starlark.Function); ok && f.Doc() != "" {
			return starlark.String(f.Doc()), nil
		}
		return starlark.None, nil
	case "__module__":
		return starlark.String("__main__"), nil
	}
	if n, ok := fn.(starlark.Callable); ok {
		return starlark.String(n.Name()), nil
	}
	return nil, nil
}

// fnWrapper is what @functools.wraps(wrapped) makes of a function: it calls
// the function and reports the wrapped one's name and docstring.
type fnWrapper struct {
	fn, wrapped starlark.Value
}

var (
	_ starlark.Callable = (*fnWrapper)(nil)
	_ starlark.HasAttrs = (*fnWrapper)(nil)
)

func (w *fnWrapper) String() string        { return w.fn.String() }
func (w *fnWrapper) Type() string          { return "function" }
func (w *fnWrapper) Freeze()               {}
func (w *fnWrapper) Truth() starlark.Bool  { return true }
func (w *fnWrapper) Hash() (uint32, error) { return w.fn.Hash() }
func (w *fnWrapper) Name() string          { return w.fn.(starlark.Callable).Name() }
func (w *fnWrapper) CallInternal(thread *starlark.Thread, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	return starlark.Call(thread, w.fn, args, kw)
}
func (w *fnWrapper) AttrNames() []string {
	return []string{"__doc__", "__module__", "__name__", "__qualname__", "__wrapped__"}
}
func (w *fnWrapper) Attr(name string) (starlark.Value, error) {
	switch name {
	case "__wrapped__":
		return w.wrapped, nil
	case "__name__", "__qualname__", "__doc__", "__module__":
		return wrappedAttr(w.wrapped, name)
	}
	if h, ok := w.wrapped.(starlark.HasAttrs); ok {
		return h.Attr(name)
	}
	return nil, nil
}

// ftWraps is functools.wraps(wrapped): a decorator making a fnWrapper.
func ftWraps(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var wrapped starlark.Value
	if err := starlark.UnpackPositionalArgs("wraps", args, nil, 1, &wrapped); err != nil {
		return nil, err
	}
	return Builtin("wraps", func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
		if len(args) != 1 {
			return nil, PyErrorf(ExcTypeError, "wraps() decorates one function")
		}
		return updateWrapper(thread, args[0], wrapped)
	}), nil
}

// ftUpdateWrapper is functools.update_wrapper(wrapper, wrapped).
func ftUpdateWrapper(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var wrapper, wrapped, assigned, updated starlark.Value
	if err := UnpackArgs(b.Name(), args, kw, "wrapper", &wrapper, "wrapped", &wrapped, "assigned?", &assigned, "updated?", &updated); err != nil {
		return nil, err
	}
	return updateWrapper(thread, wrapper, wrapped)
}

// updateWrapper gives wrapper the wrapped function's name, docstring and
// module, and __wrapped__: set on an instance of a REPL class (a class
// used as a decorator), a fnWrapper around a function.
func updateWrapper(thread *starlark.Thread, wrapper, wrapped starlark.Value) (starlark.Value, error) {
	if o, ok := wrapper.(*PyObject); ok {
		if r, _ := thread.Local(ThreadInterp).(*Interp); r != nil {
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
	w := &fnWrapper{fn: wrapper, wrapped: wrapped}
	if r, _ := thread.Local(ThreadInterp).(*Interp); r != nil {
		r.copyFuncDict(w, wrapper)
		r.copyFuncDict(w, wrapped)
	}
	return w, nil
}
