// collections.namedtuple and collections.deque.

package pyrt

import (
	"strings"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"
)

// namedtuple(typename, field_names, *, defaults=None) returns a class
// whose instances are tuples with named fields.
func (r *Interp) Namedtuple(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var name string
	var fieldsV, defaultsV, rename, module starlark.Value = nil, starlark.None, starlark.None, starlark.None
	if err := UnpackArgs(b.Name(), args, kw, "typename", &name, "field_names", &fieldsV, "rename?", &rename, "defaults?", &defaultsV, "module?", &module); err != nil {
		return nil, err
	}
	var fields []string
	if s, ok := fieldsV.(starlark.String); ok {
		fields = strings.Fields(strings.ReplaceAll(string(s), ",", " "))
	} else {
		vals, err := ListOf(fieldsV)
		if err != nil {
			return nil, err
		}
		for _, v := range vals {
			s, ok := starlark.AsString(v)
			if !ok {
				return nil, PyErrorf(ExcTypeError, "Type names and field names must be strings")
			}
			fields = append(fields, s)
		}
	}
	var defaults []starlark.Value
	if defaultsV != starlark.None {
		d, err := ListOf(defaultsV)
		if err != nil {
			return nil, err
		}
		if len(d) > len(fields) {
			return nil, PyErrorf(ExcTypeError, "Got more default values than field names")
		}
		defaults = d
	}
	cls := &PyType{TypeName: name, Base: r.Types["tuple"]}
	fieldDefaults := starlark.NewDict(len(defaults))
	for i, v := range defaults {
		_ = fieldDefaults.SetKey(starlark.String(fields[len(fields)-len(defaults)+i]), v)
	}
	cls.Attrs = starlark.StringDict{"_fields": ToTuple(fields), "_field_defaults": fieldDefaults}
	cls.Attrs["_make"] = Builtin("_make", func(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		var it starlark.Value
		if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 1, &it); err != nil {
			return nil, err
		}
		vals, err := ListOf(it)
		if err != nil {
			return nil, err
		}
		if len(vals) != len(fields) {
			return nil, PyErrorf(ExcTypeError, "Expected %d arguments, got %d", len(fields), len(vals))
		}
		return cls.Call(thread, vals, nil)
	})
	cls.Call = func(_ *starlark.Thread, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		if len(args) > len(fields) {
			return nil, PyErrorf(ExcTypeError, "%s() takes %d positional arguments but %d were given", name, len(fields), len(args))
		}
		vals := make(starlark.Tuple, len(fields))
		copy(vals, args)
		for _, kv := range kw {
			k := string(kv[0].(starlark.String))
			i := indexOf(fields, k)
			if i < 0 {
				return nil, PyErrorf(ExcTypeError, "%s() got an unexpected keyword argument '%s'", name, k)
			}
			vals[i] = kv[1]
		}
		for i := range vals {
			if vals[i] == nil {
				if j := i - (len(fields) - len(defaults)); j >= 0 {
					vals[i] = defaults[j]
					continue
				}
				return nil, PyErrorf(ExcTypeError, "%s() missing required argument: '%s'", name, fields[i])
			}
		}
		return &Record{Cls: cls, Fields: fields, Vals: vals}, nil
	}
	return cls, nil
}

func ToTuple(s []string) starlark.Tuple {
	t := make(starlark.Tuple, len(s))
	for i, x := range s {
		t[i] = starlark.String(x)
	}
	return t
}

func indexOf(s []string, x string) int {
	for i, y := range s {
		if y == x {
			return i
		}
	}
	return -1
}

// record is a namedtuple instance.
type Record struct {
	Cls    *PyType
	Fields []string
	Vals   starlark.Tuple
}

var (
	_ starlark.Indexable  = (*Record)(nil)
	_ starlark.Sliceable  = (*Record)(nil)
	_ starlark.Comparable = (*Record)(nil)
)

func (t *Record) PyClass() *PyType { return t.Cls }
func (t *Record) String() string   { return t.ReprPy() }
func (t *Record) ReprPy() string {
	parts := make([]string, len(t.Fields))
	for i, f := range t.Fields {
		parts[i] = f + "=" + PyRepr(t.Vals[i])
	}
	name := t.Cls.TypeName
	if t.Cls == isoCalendarDate {
		name = "datetime." + name // as Python writes it
	}
	return name + "(" + strings.Join(parts, ", ") + ")"
}
func (t *Record) Type() string                       { return t.Cls.TypeName }
func (t *Record) Freeze()                            { t.Vals.Freeze() }
func (t *Record) Truth() starlark.Bool               { return len(t.Vals) > 0 }
func (t *Record) Hash() (uint32, error)              { return t.Vals.Hash() }
func (t *Record) Len() int                           { return len(t.Vals) }
func (t *Record) Index(i int) starlark.Value         { return t.Vals[i] }
func (t *Record) Slice(a, b, s int) starlark.Value   { return t.Vals.Slice(a, b, s) }
func (t *Record) Iterate() starlark.Iterator         { return t.Vals.Iterate() }
func (t *Record) Has(x starlark.Value) (bool, error) { return t.Vals.Has(x) }
func (t *Record) CompareSameType(op syntax.Token, y starlark.Value, depth int) (bool, error) {
	return starlark.CompareDepth(op, t.Vals, y.(*Record).Vals, depth)
}
func (t *Record) AttrNames() []string {
	return append(append([]string{}, t.Fields...), "_asdict", "_fields", "_replace", "count", "index")
}
func (t *Record) Attr(name string) (starlark.Value, error) {
	if i := indexOf(t.Fields, name); i >= 0 {
		return t.Vals[i], nil
	}
	switch name {
	case "_fields":
		return ToTuple(t.Fields), nil
	case "_asdict":
		return Builtin("_asdict", func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
			d := starlark.NewDict(len(t.Fields))
			for i, f := range t.Fields {
				_ = d.SetKey(starlark.String(f), t.Vals[i])
			}
			return d, nil
		}), nil
	case "_replace":
		return Builtin("_replace", func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			return t.Cls.Call(thread, nil, append(t.kwargs(), kw...))
		}), nil
	case "count", "index":
		return Builtin(name, func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			return tupleMethods[name](thread, t.Vals, args, kw)
		}), nil
	}
	if v, _ := ClassLookup(t.Cls, name); v != nil && t.Cls.User != nil {
		return bindAttr(t.Cls.User.R.Thread, v, t) // a method of a typing.NamedTuple class
	}
	return nil, nil
}

func (t *Record) kwargs() []starlark.Tuple {
	out := make([]starlark.Tuple, len(t.Fields))
	for i, f := range t.Fields {
		out[i] = starlark.Tuple{starlark.String(f), t.Vals[i]}
	}
	return out
}

// deque is collections.deque: a list with cheap ends (here: a list) and
// an optional maximum length.
type deque struct {
	cls    *PyType
	items  []starlark.Value
	maxlen int // -1: unbounded
}

func (r *Interp) dequeType() *PyType {
	cls := &PyType{TypeName: "deque", Module: "collections"}
	cls.Call = func(_ *starlark.Thread, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		var it starlark.Value = starlark.Tuple(nil)
		var maxlen starlark.Value = starlark.None
		if err := UnpackArgs("deque", args, kw, "iterable?", &it, "maxlen?", &maxlen); err != nil {
			return nil, err
		}
		d := &deque{cls: cls, maxlen: -1}
		if maxlen != starlark.None {
			n, err := starlark.AsInt32(maxlen)
			if err != nil || n < 0 {
				return nil, PyErrorf(ExcValueError, "maxlen must be non-negative")
			}
			d.maxlen = n
		}
		vals, err := ListOf(it)
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

func (d *deque) PyClass() *PyType { return d.cls }
func (d *deque) String() string   { return d.ReprPy() }
func (d *deque) ReprPy() string {
	s := "deque(" + PyRepr(starlark.NewList(d.items))
	if d.maxlen >= 0 {
		s += ", maxlen=" + Itoa(d.maxlen)
	}
	return s + ")"
}
func (d *deque) Type() string               { return "deque" }
func (d *deque) Freeze()                    {}
func (d *deque) Truth() starlark.Bool       { return len(d.items) > 0 }
func (d *deque) Hash() (uint32, error)      { return 0, PyErrorf(ExcTypeError, "unhashable type: 'deque'") }
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
		return Builtin("deque."+name, func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var v starlark.Value
			if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 1, &v); err != nil {
				return nil, err
			}
			return f(v)
		}), nil
	}
	none := func(f func() (starlark.Value, error)) (starlark.Value, error) {
		return Builtin("deque."+name, func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
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
			vals, err := ListOf(v)
			for _, x := range vals {
				d.push(x, name == "extendleft")
			}
			return starlark.None, err
		})
	case "pop", "popleft":
		return none(func() (starlark.Value, error) {
			if len(d.items) == 0 {
				return nil, PyErrorf(ExcIndexError, "pop from an empty deque")
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
			return nil, PyErrorf(ExcValueError, "%s is not in deque", PyRepr(v))
		})
	case "count", "index":
		return Builtin("deque."+name, func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			return tupleMethods[name](thread, starlark.Tuple(d.items), args, kw)
		}), nil
	case "rotate":
		return Builtin("deque.rotate", func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
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
