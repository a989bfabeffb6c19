// collections.namedtuple and collections.deque.

package pylang

import (
	"go.starlark.net/starlark"

	"harness/repl/pyrt"
)

var (
	_ starlark.Indexable  = (*pyrt.Record)(nil)
	_ starlark.Sliceable  = (*pyrt.Record)(nil)
	_ starlark.Comparable = (*pyrt.Record)(nil)
)

// deque is collections.deque: a list with cheap ends (here: a list) and
// an optional maximum length.
type deque struct {
	cls    *pyrt.PyType
	items  []starlark.Value
	maxlen int // -1: unbounded
}

func dequeType(r *pyrt.Interp) *pyrt.PyType {
	cls := &pyrt.PyType{TypeName: "deque", Module: "collections"}
	cls.Call = func(_ *starlark.Thread, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		var it starlark.Value = starlark.Tuple(nil)
		var maxlen starlark.Value = starlark.None
		if err := pyrt.UnpackArgs("deque", args, kw, "iterable?", &it, "maxlen?", &maxlen); err != nil {
			return nil, err
		}
		d := &deque{cls: cls, maxlen: -1}
		if maxlen != starlark.None {
			n, err := starlark.AsInt32(maxlen)
			if err != nil || n < 0 {
				return nil, pyrt.PyErrorf(pyrt.ExcValueError, "maxlen must be non-negative")
			}
			d.maxlen = n
		}
		vals, err := pyrt.ListOf(it)
		if err != nil {
			return nil, err
		}
		for _, v := range vals {
			d.push(v, false)
		}
		return d, nil
	}
	r.Types["deque"] = cls
	return cls
}

func (d *deque) push(v starlark.Value, left bool) {
	if left {
		d.items = append([]starlark.Value{v}, d.items...)
		if d.maxlen >= 0 && len(d.items) > d.maxlen {
			d.items = d.items[:d.maxlen]
		}
		return
	}
	d.items = append(d.items, v)
	if d.maxlen >= 0 && len(d.items) > d.maxlen {
		d.items = d.items[len(d.items)-d.maxlen:]
	}
}

func (d *deque) PyClass() *pyrt.PyType { return d.cls }
func (d *deque) String() string        { return d.ReprPy() }
func (d *deque) ReprPy() string {
	s := "deque(" + pyrt.PyRepr(starlark.NewList(d.items))
	if d.maxlen >= 0 {
		s += ", maxlen=" + pyrt.Itoa(d.maxlen)
	}
	return s + ")"
}
func (d *deque) Type() string         { return "deque" }
func (d *deque) Freeze()              {}
func (d *deque) Truth() starlark.Bool { return len(d.items) > 0 }
func (d *deque) Hash() (uint32, error) {
	return 0, pyrt.PyErrorf(pyrt.ExcTypeError, "unhashable type: 'deque'")
}
func (d *deque) Len() int                   { return len(d.items) }
func (d *deque) Index(i int) starlark.Value { return d.items[i] }
func (d *deque) Iterate() starlark.Iterator {
	return starlark.Tuple(append([]starlark.Value(nil), d.items...)).Iterate()
}
func (d *deque) Has(x starlark.Value) (bool, error) { return starlark.Tuple(d.items).Has(x) }
func (d *deque) AttrNames() []string {
	return []string{"append", "appendleft", "clear", "copy", "count", "extend", "extendleft", "index", "maxlen", "pop", "popleft", "remove", "reverse", "rotate"}
}

func (d *deque) Attr(name string) (starlark.Value, error) {
	if name == "maxlen" {
		if d.maxlen < 0 {
			return starlark.None, nil
		}
		return starlark.MakeInt(d.maxlen), nil
	}
	one := func(f func(v starlark.Value) (starlark.Value, error)) (starlark.Value, error) {
		return pyrt.Builtin("deque."+name, func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var v starlark.Value
			if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 1, &v); err != nil {
				return nil, err
			}
			return f(v)
		}), nil
	}
	none := func(f func() (starlark.Value, error)) (starlark.Value, error) {
		return pyrt.Builtin("deque."+name, func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 0); err != nil {
				return nil, err
			}
			return f()
		}), nil
	}
	switch name {
	case "append", "appendleft":
		return one(func(v starlark.Value) (starlark.Value, error) {
			d.push(v, name == "appendleft")
			return starlark.None, nil
		})
	case "extend", "extendleft":
		return one(func(v starlark.Value) (starlark.Value, error) {
			vals, err := pyrt.ListOf(v)
			for _, x := range vals {
				d.push(x, name == "extendleft")
			}
			return starlark.None, err
		})
	case "pop", "popleft":
		return none(func() (starlark.Value, error) {
			if len(d.items) == 0 {
				return nil, pyrt.PyErrorf(pyrt.ExcIndexError, "pop from an empty deque")
			}
			var v starlark.Value
			if name == "pop" {
				v, d.items = d.items[len(d.items)-1], d.items[:len(d.items)-1]
			} else {
				v, d.items = d.items[0], d.items[1:]
			}
			return v, nil
		})
	case "clear":
		return none(func() (starlark.Value, error) { d.items = nil; return starlark.None, nil })
	case "copy":
		return none(func() (starlark.Value, error) {
			return &deque{cls: d.cls, items: append([]starlark.Value(nil), d.items...), maxlen: d.maxlen}, nil
		})
	case "reverse":
		return none(func() (starlark.Value, error) {
			for i, j := 0, len(d.items)-1; i < j; i, j = i+1, j-1 {
				d.items[i], d.items[j] = d.items[j], d.items[i]
			}
			return starlark.None, nil
		})
	case "remove":
		return one(func(v starlark.Value) (starlark.Value, error) {
			for i, x := range d.items {
				if eq, _ := starlark.Equal(x, v); eq {
					d.items = append(d.items[:i], d.items[i+1:]...)
					return starlark.None, nil
				}
			}
			return nil, pyrt.PyErrorf(pyrt.ExcValueError, "%s is not in deque", pyrt.PyRepr(v))
		})
	case "count", "index":
		return pyrt.Builtin("deque."+name, func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			return pyrt.TupleMethods[name](thread, starlark.Tuple(d.items), args, kw)
		}), nil
	case "rotate":
		return pyrt.Builtin("deque.rotate", func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			n := 1
			if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 0, &n); err != nil {
				return nil, err
			}
			if k := len(d.items); k > 0 {
				n = ((n % k) + k) % k
				d.items = append(append([]starlark.Value(nil), d.items[k-n:]...), d.items[:k-n]...)
			}
			return starlark.None, nil
		}), nil
	}
	return nil, nil
}
