// configparser.SectionProxy: cp["section"], a live view of one section
// with the defaults it inherits.

package pydata

import (
	"go.starlark.net/starlark"

	"harness/repl/pyrt"
)

type cpProxy struct {
	p    *cpParser
	name string
}

var (
	_ starlark.IterableMapping = (*cpProxy)(nil)
	_ starlark.HasSetKey       = (*cpProxy)(nil)
	_ starlark.Container       = (*cpProxy)(nil)
	_ starlark.Sequence        = (*cpProxy)(nil)
)

func (x *cpProxy) PyClass() *pyrt.PyType { return x.p.r.Types["configparser.SectionProxy"] }
func (x *cpProxy) String() string        { return x.ReprPy() }
func (x *cpProxy) ReprPy() string        { return "<Section: " + x.name + ">" }
func (x *cpProxy) Type() string          { return "SectionProxy" }
func (x *cpProxy) Freeze()               {}
func (x *cpProxy) Truth() starlark.Bool  { return x.Len() > 0 }
func (x *cpProxy) Hash() (uint32, error) {
	return 0, pyrt.PyErrorf(pyrt.ExcTypeError, "unhashable type: 'SectionProxy'")
}

func (x *cpProxy) sname() starlark.Value { return starlark.String(x.name) }

// options are the names in the section, its inherited defaults after.
func (x *cpProxy) options() ([]string, error) {
	if x.name != x.p.defaultSection() {
		return x.p.options(x.sname())
	}
	return append([]string(nil), x.p.defaults.opts.keys...), nil
}

func (x *cpProxy) keys() []starlark.Value {
	names, err := x.options()
	if err != nil {
		(&pyrt.PyIter{Thread: x.p.curThread()}).Fail(err)
	}
	out := make([]starlark.Value, len(names))
	for i, n := range names {
		out[i] = starlark.String(n)
	}
	return out
}

func (x *cpProxy) Get(k starlark.Value) (starlark.Value, bool, error) {
	ok, err := x.p.hasOption(x.sname(), k)
	if err != nil || !ok {
		return nil, false, err
	}
	v, err := x.p.get(x.sname(), k, false, nil, nil)
	return v, err == nil, err
}

func (x *cpProxy) Has(k starlark.Value) (bool, error) { return x.p.hasOption(x.sname(), k) }

func (x *cpProxy) SetKey(k, v starlark.Value) error {
	if err := x.p.validate(k, v); err != nil {
		return err
	}
	return x.p.Set(x.sname(), k, v)
}

func (x *cpProxy) Delete(k starlark.Value) (starlark.Value, bool, error) {
	ok, err := x.p.hasOption(x.sname(), k)
	if err != nil || !ok {
		return nil, false, err
	}
	removed, err := x.p.removeOption(x.sname(), k)
	if err != nil || removed != starlark.True {
		return nil, false, err
	}
	return starlark.None, true, nil
}

func (x *cpProxy) Len() int                   { return len(x.keys()) }
func (x *cpProxy) Iterate() starlark.Iterator { return starlark.NewList(x.keys()).Iterate() }

// items are (option, value) pairs with the values interpolated.
func (x *cpProxy) items() ([]starlark.Tuple, error) {
	names, err := x.options()
	if err != nil {
		return nil, err
	}
	out := make([]starlark.Tuple, 0, len(names))
	for _, n := range names {
		v, err := x.p.get(x.sname(), starlark.String(n), false, nil, nil)
		if err != nil {
			return nil, err
		}
		out = append(out, starlark.Tuple{starlark.String(n), v})
	}
	return out, nil
}

func (x *cpProxy) Items() []starlark.Tuple {
	out, err := x.items()
	if err != nil {
		(&pyrt.PyIter{Thread: x.p.curThread()}).Fail(err)
	}
	return out
}

func (x *cpProxy) AttrNames() []string {
	return []string{"clear", "get", "getboolean", "getfloat", "getint", "items", "keys", "name", "parser", "pop", "setdefault", "update", "values"}
}

func (x *cpProxy) Attr(name string) (starlark.Value, error) {
	switch name {
	case "name":
		return starlark.String(x.name), nil
	case "parser":
		return x.p, nil
	}
	m, ok := cpProxyMethods[name]
	if !ok {
		return nil, nil
	}
	fn := "SectionProxy." + name
	return pyrt.Builtin(name, func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		x.p.thread = thread
		return m(x, fn, args, kw)
	}), nil
}

type cpProxyMethod func(x *cpProxy, fn string, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error)

// cpProxyGet is get(option, fallback=None, *, raw=False, vars=None) and the
// getint, getfloat and getboolean built on it.
func cpProxyGet(kind string) cpProxyMethod {
	return func(x *cpProxy, fn string, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		var option starlark.Value
		var fallback starlark.Value = starlark.None
		var vars starlark.Value
		var raw starlark.Value = starlark.False
		if err := cpPositional(fn, args, 3); err != nil {
			return nil, err
		}
		if err := cpUnpack(fn, args, kw, "option", &option, "fallback?", &fallback, "raw?", &raw, "vars?", &vars); err != nil {
			return nil, err
		}
		if kind == "" {
			return x.p.get(x.sname(), option, bool(raw.Truth()), vars, fallback)
		}
		return x.p.getConv(kind, x.sname(), option, bool(raw.Truth()), vars, fallback)
	}
}

var cpProxyMethods map[string]cpProxyMethod

func init() {
	cpProxyMethods = map[string]cpProxyMethod{
		"get": cpProxyGet(""), "getint": cpProxyGet("int"), "getfloat": cpProxyGet("float"), "getboolean": cpProxyGet("boolean"),
		"keys": func(x *cpProxy, fn string, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			return newCPView("KeysView", x, func() ([]starlark.Value, error) {
				names, err := x.options()
				out := make([]starlark.Value, len(names))
				for i, n := range names {
					out[i] = starlark.String(n)
				}
				return out, err
			}), cpUnpackPos(fn, args, kw, 0)
		},
		"values": func(x *cpProxy, fn string, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			return newCPView("ValuesView", x, func() ([]starlark.Value, error) {
				pairs, err := x.items()
				return cpColumn(pairs, 1), err
			}), cpUnpackPos(fn, args, kw, 0)
		},
		"items": func(x *cpProxy, fn string, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			return newCPView("ItemsView", x, func() ([]starlark.Value, error) {
				pairs, err := x.items()
				out := make([]starlark.Value, len(pairs))
				for i, kv := range pairs {
					out[i] = kv
				}
				return out, err
			}), cpUnpackPos(fn, args, kw, 0)
		},
		"pop":        cpProxyPop,
		"setdefault": cpProxySetdefault,
		"update":     cpProxyUpdate,
		"clear": func(x *cpProxy, fn string, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			if err := cpUnpackPos(fn, args, kw, 0); err != nil {
				return nil, err
			}
			for {
				names, err := x.options()
				if err != nil || len(names) == 0 {
					return starlark.None, err
				}
				// MutableMapping.clear stops at the first KeyError: an
				// inherited default cannot be deleted from the section.
				if _, found, err := x.Delete(starlark.String(names[0])); err != nil || !found {
					return starlark.None, err
				}
			}
		},
	}
}

func cpProxyPop(x *cpProxy, fn string, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var key, def starlark.Value
	if err := cpUnpackPos(fn, args, kw, 1, &key, &def); err != nil {
		return nil, err
	}
	v, found, err := x.Get(key)
	if err != nil {
		return nil, err
	}
	if !found {
		if def != nil {
			return def, nil
		}
		return nil, pyrt.KeyError(key)
	}
	if _, found, err := x.Delete(key); err != nil || !found {
		if err == nil {
			err = pyrt.KeyError(key)
		}
		return nil, err
	}
	return v, nil
}

func cpProxySetdefault(x *cpProxy, fn string, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var key starlark.Value
	var def starlark.Value = starlark.None
	if err := cpUnpackPos(fn, args, kw, 1, &key, &def); err != nil {
		return nil, err
	}
	v, found, err := x.Get(key)
	if err != nil || found {
		return v, err
	}
	if err := x.SetKey(key, def); err != nil {
		return nil, err
	}
	return def, nil
}

func cpProxyUpdate(x *cpProxy, fn string, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var other starlark.Value
	if err := cpUnpackPos(fn, args, nil, 0, &other); err != nil {
		return nil, err
	}
	if other != nil {
		pairs, err := cpItemsOf(x.p.thread, other)
		if err != nil {
			return nil, err
		}
		for _, kv := range pairs {
			if err := x.SetKey(kv[0], kv[1]); err != nil {
				return nil, err
			}
		}
	}
	for _, kv := range kw {
		if err := x.SetKey(kv[0], kv[1]); err != nil {
			return nil, err
		}
	}
	return starlark.None, nil
}
