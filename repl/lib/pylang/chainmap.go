// collections.ChainMap: several mappings searched in order, writes going
// to the first.

package pylang

import (
	"strings"

	"go.starlark.net/starlark"

	"harness/repl/pyrt"
)

type chainMap struct {
	cls  *pyrt.PyType
	maps *starlark.List
}

var (
	_ starlark.IterableMapping = (*chainMap)(nil)
	_ starlark.HasSetKey       = (*chainMap)(nil)
	_ starlark.HasAttrs        = (*chainMap)(nil)
	_ starlark.Container       = (*chainMap)(nil)
)

func chainMapType(r *pyrt.Interp) *pyrt.PyType {
	t := &pyrt.PyType{TypeName: "ChainMap", Module: "collections", Base: r.Types["object"]}
	t.Call = func(_ *starlark.Thread, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		if len(kw) > 0 {
			return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "ChainMap() takes no keyword arguments")
		}
		maps := append([]starlark.Value(nil), args...)
		if len(maps) == 0 {
			maps = []starlark.Value{starlark.NewDict(0)}
		}
		return &chainMap{cls: t, maps: starlark.NewList(maps)}, nil
	}
	r.Types["ChainMap"] = t
	return t
}

func (c *chainMap) PyClass() *pyrt.PyType { return c.cls }
func (c *chainMap) String() string        { return c.ReprPy() }
func (c *chainMap) ReprPy() string {
	parts := make([]string, c.maps.Len())
	for i := range parts {
		parts[i] = pyrt.PyRepr(c.maps.Index(i))
	}
	return "ChainMap(" + strings.Join(parts, ", ") + ")"
}
func (c *chainMap) Type() string         { return "ChainMap" }
func (c *chainMap) Freeze()              { c.maps.Freeze() }
func (c *chainMap) Truth() starlark.Bool { return c.Len() > 0 }
func (c *chainMap) Hash() (uint32, error) {
	return 0, pyrt.PyErrorf(pyrt.ExcTypeError, "unhashable type: 'ChainMap'")
}

func (c *chainMap) Get(k starlark.Value) (starlark.Value, bool, error) {
	for i := 0; i < c.maps.Len(); i++ {
		if m, ok := c.maps.Index(i).(starlark.Mapping); ok {
			if v, found, err := m.Get(k); err != nil || found {
				return v, found, err
			}
		}
	}
	return nil, false, nil
}

func (c *chainMap) Has(k starlark.Value) (bool, error) {
	_, found, err := c.Get(k)
	return found, err
}

func (c *chainMap) SetKey(k, v starlark.Value) error {
	m, ok := c.maps.Index(0).(starlark.HasSetKey)
	if !ok {
		return pyrt.PyErrorf(pyrt.ExcTypeError, "'%s' object does not support item assignment", pyrt.PyTypeName(c.maps.Index(0)))
	}
	return m.SetKey(k, v)
}

// keys are the keys of all maps, in the order CPython iterates: the last
// map's first, each earlier map adding its new keys.
func (c *chainMap) keys() []starlark.Value {
	d := starlark.NewDict(0)
	for i := c.maps.Len() - 1; i >= 0; i-- {
		if m, ok := c.maps.Index(i).(starlark.IterableMapping); ok {
			for _, kv := range m.Items() {
				_ = d.SetKey(kv[0], starlark.None)
			}
		}
	}
	return d.Keys()
}

func (c *chainMap) Len() int                   { return len(c.keys()) }
func (c *chainMap) Iterate() starlark.Iterator { return starlark.NewList(c.keys()).Iterate() }
func (c *chainMap) Items() []starlark.Tuple {
	var out []starlark.Tuple
	for _, k := range c.keys() {
		v, _, _ := c.Get(k)
		out = append(out, starlark.Tuple{k, v})
	}
	return out
}

func (c *chainMap) AttrNames() []string {
	return []string{"get", "items", "keys", "maps", "new_child", "parents", "pop", "values"}
}

func (c *chainMap) Attr(name string) (starlark.Value, error) {
	switch name {
	case "maps":
		return c.maps, nil
	case "parents":
		var rest []starlark.Value
		for i := 1; i < c.maps.Len(); i++ {
			rest = append(rest, c.maps.Index(i))
		}
		if len(rest) == 0 {
			rest = []starlark.Value{starlark.NewDict(0)}
		}
		return &chainMap{cls: c.cls, maps: starlark.NewList(rest)}, nil
	}
	m := func(f func(args starlark.Tuple) (starlark.Value, error)) (starlark.Value, error) {
		return pyrt.Builtin("ChainMap."+name, func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
			return f(args)
		}), nil
	}
	switch name {
	case "get":
		return m(func(args starlark.Tuple) (starlark.Value, error) {
			if len(args) < 1 || len(args) > 2 {
				return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "get expected 1 or 2 arguments, got %d", len(args))
			}
			v, found, err := c.Get(args[0])
			if err != nil || found {
				return v, err
			}
			if len(args) == 2 {
				return args[1], nil
			}
			return starlark.None, nil
		})
	case "keys":
		return m(func(starlark.Tuple) (starlark.Value, error) { return pyrt.NewListIter("dict_keys", c.keys()), nil })
	case "values":
		return m(func(starlark.Tuple) (starlark.Value, error) {
			var out []starlark.Value
			for _, kv := range c.Items() {
				out = append(out, kv[1])
			}
			return pyrt.NewListIter("dict_values", out), nil
		})
	case "items":
		return m(func(starlark.Tuple) (starlark.Value, error) {
			var out []starlark.Value
			for _, kv := range c.Items() {
				out = append(out, kv)
			}
			return pyrt.NewListIter("dict_items", out), nil
		})
	case "new_child":
		return m(func(args starlark.Tuple) (starlark.Value, error) {
			var first starlark.Value = starlark.NewDict(0)
			if len(args) > 0 && args[0] != starlark.None {
				first = args[0]
			}
			maps := []starlark.Value{first}
			for i := 0; i < c.maps.Len(); i++ {
				maps = append(maps, c.maps.Index(i))
			}
			return &chainMap{cls: c.cls, maps: starlark.NewList(maps)}, nil
		})
	case "pop":
		return m(func(args starlark.Tuple) (starlark.Value, error) {
			if len(args) < 1 {
				return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "pop expected at least 1 argument, got 0")
			}
			if d, ok := c.maps.Index(0).(*starlark.Dict); ok {
				if v, found, err := d.Delete(args[0]); err != nil || found {
					return v, err
				}
			}
			if len(args) > 1 {
				return args[1], nil
			}
			return nil, pyrt.PyErrorf(pyrt.ExcKeyError, "Key not found in the first mapping: %s", pyrt.PyRepr(args[0]))
		})
	}
	return nil, nil
}
