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
type Cached struct {
	Fn           starlark.Value
	Memo         *starlark.Dict
	order        []starlark.Value // keys, least recently used first (bounded caches only)
	Maxsize      int
	hits, misses int
}

func (c *Cached) String() string { return "<functools._lru_cache_wrapper " + PyRepr(c.Fn) + ">" }

func (c *Cached) ReprPy() string { return c.String() }

func (c *Cached) Type() string { return "functools._lru_cache_wrapper" }

func (c *Cached) Freeze() {}

func (c *Cached) Truth() starlark.Bool { return true }

func (c *Cached) Hash() (uint32, error) { return 0, nil }

func (c *Cached) Name() string {
	if n, ok := c.Fn.(starlark.Callable); ok {
		return n.Name()
	}
	return "cached"
}

func (c *Cached) CallInternal(thread *starlark.Thread, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	key := append(starlark.Tuple(nil), args...)
	for _, kv := range kw {
		key = append(key, kv[0], kv[1])
	}
	if v, found, err := c.Memo.Get(key); err != nil {
		return nil, PyErrorf(ExcTypeError, "unhashable type: '%s'", unhashableIn(key))
	} else if found {
		c.hits++
		c.touch(key)
		return v, nil
	}
	c.misses++
	v, err := starlark.Call(thread, c.Fn, args, kw)
	if err != nil || c.Maxsize == 0 {
		return v, err
	}
	if _, found, _ := c.Memo.Get(key); !found && c.Maxsize > 0 {
		c.order = append(c.order, key)
		if len(c.order) > c.Maxsize {
			_, _, _ = c.Memo.Delete(c.order[0])
			c.order = c.order[1:]
		}
	}
	return v, c.Memo.SetKey(key, v)
}

// touch makes key the most recently used of a bounded cache.
func (c *Cached) touch(key starlark.Value) {
	if c.Maxsize <= 0 {
		return
	}
	for i, k := range c.order {
		if eq, _ := starlark.Equal(k, key); eq {
			c.order = append(append(c.order[:i:i], c.order[i+1:]...), k)
			return
		}
	}
}

func (c *Cached) AttrNames() []string { return []string{"cache_clear", "cache_info", "__wrapped__"} }

func (c *Cached) Attr(name string) (starlark.Value, error) {
	switch name {
	case "__wrapped__":
		return c.Fn, nil
	case "__name__", "__qualname__", "__doc__", "__module__":
		return WrappedAttr(c.Fn, name)
	case "cache_clear":
		return Builtin("cache_clear", func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
			c.Memo.Clear()
			c.order = nil
			c.hits, c.misses = 0, 0
			return starlark.None, nil
		}), nil
	case "cache_info":
		return Builtin("cache_info", func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
			var size starlark.Value = starlark.None
			if c.Maxsize >= 0 {
				size = starlark.MakeInt(c.Maxsize)
			}
			vals := starlark.Tuple{starlark.MakeInt(c.hits), starlark.MakeInt(c.misses), size, starlark.MakeInt(c.Memo.Len())}
			return &Record{Cls: cacheInfoType, Fields: cacheInfoFields, Vals: vals}, nil
		}), nil
	}
	return nil, nil
}

// fnWrapper is what @functools.wraps(wrapped) makes of a function: it calls
// the function and reports the wrapped one's name and docstring.
type FnWrapper struct {
	Fn, Wrapped starlark.Value
}

func (w *FnWrapper) String() string { return w.Fn.String() }

func (w *FnWrapper) Type() string { return "function" }

func (w *FnWrapper) Freeze() {}

func (w *FnWrapper) Truth() starlark.Bool { return true }

func (w *FnWrapper) Hash() (uint32, error) { return w.Fn.Hash() }

func (w *FnWrapper) Name() string { return w.Fn.(starlark.Callable).Name() }

func (w *FnWrapper) CallInternal(thread *starlark.Thread, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	return starlark.Call(thread, w.Fn, args, kw)
}

func (w *FnWrapper) AttrNames() []string {
	return []string{"__doc__", "__module__", "__name__", "__qualname__", "__wrapped__"}
}

func (w *FnWrapper) Attr(name string) (starlark.Value, error) {
	switch name {
	case "__wrapped__":
		return w.Wrapped, nil
	case "__name__", "__qualname__", "__doc__", "__module__":
		return WrappedAttr(w.Wrapped, name)
	}
	if h, ok := w.Wrapped.(starlark.HasAttrs); ok {
		return h.Attr(name)
	}
	return nil, nil
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

// wrappedAttr is fn's __name__, __qualname__, __doc__ or __module__, as a
// fnWrapper made by functools reports them.
func WrappedAttr(fn starlark.Value, name string) (starlark.Value, error) {
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

// cachedProperty is @functools.cached_property: computed on first access,
// then stored as the instance's attribute.
type CachedProperty struct{ Fn starlark.Value }

func (p *CachedProperty) String() string { return "<functools.cached_property object>" }

func (p *CachedProperty) Type() string { return "functools.cached_property" }

func (p *CachedProperty) Freeze() {}

func (p *CachedProperty) Truth() starlark.Bool { return true }

func (p *CachedProperty) Hash() (uint32, error) { return 0, nil }

// get computes the property for instance self and stores it there.
func (p *CachedProperty) get(thread *starlark.Thread, self starlark.Value) (starlark.Value, error) {
	v, err := starlark.Call(thread, p.Fn, starlark.Tuple{self}, nil)
	if err != nil {
		return nil, err
	}
	if o, ok := self.(*PyObject); ok {
		name := p.Fn.(starlark.Callable).Name()
		if _, had := o.Attrs[name]; !had {
			o.Keys = append(o.Keys, name)
		}
		o.Attrs[name] = v
	}
	return v, nil
}
