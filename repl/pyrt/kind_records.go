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

// record is a namedtuple instance.
type Record struct {
	Cls    *PyType
	Fields []string
	Vals   starlark.Tuple
}

func (t *Record) PyClass() *PyType { return t.Cls }

func (t *Record) String() string { return t.ReprPy() }

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

func (t *Record) Type() string { return t.Cls.TypeName }

func (t *Record) Freeze() { t.Vals.Freeze() }

func (t *Record) Truth() starlark.Bool { return len(t.Vals) > 0 }

func (t *Record) Hash() (uint32, error) { return t.Vals.Hash() }

func (t *Record) Len() int { return len(t.Vals) }

func (t *Record) Index(i int) starlark.Value { return t.Vals[i] }

func (t *Record) Slice(a, b, s int) starlark.Value { return t.Vals.Slice(a, b, s) }

func (t *Record) Iterate() starlark.Iterator { return t.Vals.Iterate() }

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
			return TupleMethods[name](thread, t.Vals, args, kw)
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
