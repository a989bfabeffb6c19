// dataclasses: @dataclass over the classes a class statement defines,
// field(), asdict, astuple, fields, replace.

package pyrt

import (
	"fmt"
	"strings"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"

	"harness/repl/pystr"
)

// dataclassInfo is what @dataclass made of a class: its fields, in order
// (those of dataclass bases first), and its options.
type dataclassInfo struct {
	fields               []*dcField
	initVars             []dcInitVar // InitVar[...] names: __init__ parameters, not fields
	frozen, order, eq    bool
	init, repr, kwOnlyOK bool
}

// dcInitVar is an InitVar pseudo-field and the number of fields declared
// before it (its place among __init__'s parameters).
type dcInitVar struct {
	f   *dcField
	pos int
}

// dcField is one field: the class body's annotated name with its
// default, given directly or by field(...).
type dcField struct {
	name                string
	def, factory        starlark.Value // nil when absent
	init, repr, compare bool
	kwOnly              bool
}

var (
	excFrozenInstance = &ExcType{TypeName: "FrozenInstanceError", Module: "dataclasses", Base: ExcAttribute}
	dcMissing         = &TypingAlias{name: "MISSING"}
)

// fieldSpec is field(...) in a class body, and the Field objects fields()
// returns.
type fieldSpec struct{ f dcField }

var _ starlark.HasAttrs = (*fieldSpec)(nil)

func (s *fieldSpec) String() string        { return "Field(name=" + pystr.Quote(s.f.name) + ")" }
func (s *fieldSpec) Type() string          { return "Field" }
func (s *fieldSpec) Freeze()               {}
func (s *fieldSpec) Truth() starlark.Bool  { return true }
func (s *fieldSpec) Hash() (uint32, error) { return starlark.String(s.f.name).Hash() }
func (s *fieldSpec) AttrNames() []string {
	return []string{"compare", "default", "default_factory", "init", "kw_only", "name", "repr"}
}
func (s *fieldSpec) Attr(name string) (starlark.Value, error) {
	orMissing := func(v starlark.Value) starlark.Value {
		if v == nil {
			return dcMissing
		}
		return v
	}
	switch name {
	case "name":
		return starlark.String(s.f.name), nil
	case "default":
		return orMissing(s.f.def), nil
	case "default_factory":
		return orMissing(s.f.factory), nil
	case "init":
		return starlark.Bool(s.f.init), nil
	case "repr":
		return starlark.Bool(s.f.repr), nil
	case "compare":
		return starlark.Bool(s.f.compare), nil
	case "kw_only":
		return starlark.Bool(s.f.kwOnly), nil
	}
	return nil, nil
}

func (r *Interp) dataclassesModule() starlark.Value {
	return NewModule("dataclasses", starlark.StringDict{
		"dataclass": Builtin("dataclass", r.dataclassDecorator),
		"field": Builtin("field", func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			s := &fieldSpec{f: dcField{init: true, repr: true, compare: true}}
			var hash, metadata, kwOnly starlark.Value
			if err := UnpackArgs("field", args, kw, "default?", &s.f.def, "default_factory?", &s.f.factory, "init?", &s.f.init,
				"repr?", &s.f.repr, "hash?", &hash, "compare?", &s.f.compare, "metadata?", &metadata, "kw_only?", &kwOnly); err != nil {
				return nil, err
			}
			if s.f.def != nil && s.f.factory != nil {
				return nil, PyErrorf(ExcValueError, "cannot specify both default and default_factory")
			}
			s.f.kwOnly = kwOnly != nil && bool(kwOnly.Truth())
			return s, nil
		}),
		"asdict":  Builtin("asdict", dcConvert(true)),
		"astuple": Builtin("astuple", dcConvert(false)),
		"fields":  Builtin("fields", dcFields),
		"replace": Builtin("replace", dcReplace),
		"is_dataclass": Builtin("is_dataclass", func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var x starlark.Value
			if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 1, &x); err != nil {
				return nil, err
			}
			return starlark.Bool(dcOf(x) != nil), nil
		}),
		"FrozenInstanceError": excFrozenInstance,
		"MISSING":             dcMissing,
		"InitVar":             &TypingAlias{name: "InitVar"}, // InitVar[T]: the class statement reads it (pyclass.go)
	})
}

// dcOf returns the dataclass description of a dataclass or its instance.
func dcOf(x starlark.Value) *dataclassInfo {
	switch v := x.(type) {
	case *PyObject:
		return v.Cls.dataclass()
	case *PyType:
		return v.dataclass()
	}
	return nil
}

// dataclassDecorator is dataclass(cls) and dataclass(**options)(cls).
func (r *Interp) dataclassDecorator(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	info := &dataclassInfo{init: true, repr: true, eq: true}
	var cls, unsafeHash, matchArgs, kwOnly, slots starlark.Value
	if err := UnpackArgs("dataclass", args, kw, "cls?", &cls, "init?", &info.init, "repr?", &info.repr, "eq?", &info.eq,
		"order?", &info.order, "unsafe_hash?", &unsafeHash, "frozen?", &info.frozen, "match_args?", &matchArgs,
		"kw_only?", &kwOnly, "slots?", &slots); err != nil {
		return nil, err
	}
	info.kwOnlyOK = kwOnly != nil && bool(kwOnly.Truth())
	if cls == nil || cls == starlark.None {
		return Builtin("dataclass", func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var c starlark.Value
			if err := starlark.UnpackPositionalArgs("dataclass", args, kw, 1, &c); err != nil {
				return nil, err
			}
			copy := *info
			return makeDataclass(c, &copy)
		}), nil
	}
	return makeDataclass(cls, info)
}

// makeDataclass turns the class c into a dataclass: its fields from the
// annotations and defaults, and __init__, __repr__, __eq__ (and the order
// methods, __hash__) unless the class body defines them.
func makeDataclass(c starlark.Value, info *dataclassInfo) (starlark.Value, error) {
	t, ok := c.(*PyType)
	if !ok || t.User == nil {
		return nil, PyErrorf(ExcTypeError, "dataclass() should be called on a class defined in this REPL, not %s", PyTypeName(c))
	}
	u := t.User
	if base := t.Base.dataclass(); base != nil {
		for _, f := range base.fields {
			g := *f
			info.fields = append(info.fields, &g)
		}
	}
	for _, name := range u.fields {
		f := &dcField{name: name, init: true, repr: true, compare: true, kwOnly: info.kwOnlyOK}
		if v, ok := u.Dict[name]; ok {
			if s, isSpec := v.(*fieldSpec); isSpec {
				g := s.f
				g.name = name
				g.kwOnly = g.kwOnly || info.kwOnlyOK
				*f = g
				if f.def != nil {
					u.Dict[name] = f.def
				} else {
					u.remove(name)
				}
			} else {
				f.def = v
			}
		}
		if f.def != nil {
			switch f.def.(type) {
			case *starlark.List, *starlark.Dict, *starlark.Set:
				return nil, PyErrorf(ExcValueError, "mutable default <class '%s'> for field %s is not allowed: use default_factory", PyTypeName(f.def), name)
			}
		}
		if u.initVars[name] {
			info.initVars = append(info.initVars, dcInitVar{f, len(info.fields)})
			continue
		}
		replaced := false
		for i, old := range info.fields {
			if old.name == name {
				info.fields[i], replaced = f, true
			}
		}
		if !replaced {
			info.fields = append(info.fields, f)
		}
	}
	seenDefault := false
	for _, f := range info.fields {
		if !f.init || f.kwOnly {
			continue
		}
		if f.def != nil || f.factory != nil {
			seenDefault = true
		} else if seenDefault {
			return nil, PyErrorf(ExcTypeError, "non-default argument '%s' follows default argument", f.name)
		}
	}
	own := func(name string) bool { _, ok := u.Dict[name]; return ok }
	gen := func(name string, fn func(*starlark.Thread, starlark.Value, starlark.Tuple, []starlark.Tuple) (starlark.Value, error)) {
		if !own(name) {
			u.Set(name, &GoMethod{MethodName: name, Fn: fn})
		}
	}
	if info.init {
		gen("__init__", func(thread *starlark.Thread, self starlark.Value, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			return dcInit(thread, info, self.(*PyObject), args, kw)
		})
	}
	if info.repr {
		gen("__repr__", func(_ *starlark.Thread, self starlark.Value, _ starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
			o := self.(*PyObject)
			var parts []string
			for _, f := range info.fields {
				if f.repr {
					parts = append(parts, f.name+"="+PyRepr(o.Attrs[f.name]))
				}
			}
			return starlark.String(o.Cls.TypeName + "(" + strings.Join(parts, ", ") + ")"), o.interp().takeReprErr()
		})
	}
	if info.eq {
		gen("__eq__", dcCompare(info, nil))
	}
	if info.order {
		for name, op := range map[string]func(int) bool{
			"__lt__": func(c int) bool { return c < 0 }, "__le__": func(c int) bool { return c <= 0 },
			"__gt__": func(c int) bool { return c > 0 }, "__ge__": func(c int) bool { return c >= 0 },
		} {
			gen(name, dcCompare(info, op))
		}
	}
	switch {
	case own("__hash__"):
	case info.eq && info.frozen:
		u.Set("__hash__", &GoMethod{MethodName: "__hash__", Fn: func(_ *starlark.Thread, self starlark.Value, _ starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
			h, err := dcValues(info, self.(*PyObject), true).Hash()
			return starlark.MakeUint64(uint64(h)), err
		}})
	case info.eq:
		u.Set("__hash__", starlark.None)
	}
	u.dc = info
	byName := starlark.NewDict(len(info.fields))
	for _, f := range info.fields {
		_ = byName.SetKey(starlark.String(f.name), &fieldSpec{f: *f})
	}
	u.Set("__dataclass_fields__", byName) // what fields() reads in CPython; some programs read it directly
	return t, nil
}

func (u *UserClass) remove(name string) {
	delete(u.Dict, name)
	for i, n := range u.Order {
		if n == name {
			u.Order = append(u.Order[:i], u.Order[i+1:]...)
			break
		}
	}
}

// params are __init__'s parameters: the fields with the InitVars in
// their declared places.
func (info *dataclassInfo) params() []*dcField {
	if len(info.initVars) == 0 {
		return info.fields
	}
	out := make([]*dcField, 0, len(info.fields)+len(info.initVars))
	j := 0
	for i := 0; i <= len(info.fields); i++ {
		for j < len(info.initVars) && info.initVars[j].pos == i {
			out = append(out, info.initVars[j].f)
			j++
		}
		if i < len(info.fields) {
			out = append(out, info.fields[i])
		}
	}
	return out
}

func (info *dataclassInfo) isInitVar(f *dcField) bool {
	for _, iv := range info.initVars {
		if iv.f == f {
			return true
		}
	}
	return false
}

// dcInit is a dataclass's generated __init__.
func dcInit(thread *starlark.Thread, info *dataclassInfo, o *PyObject, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var positional []*dcField
	byName := map[string]*dcField{}
	params := info.params()
	for _, f := range params {
		if f.init {
			byName[f.name] = f
			if !f.kwOnly {
				positional = append(positional, f)
			}
		}
	}
	if len(args) > len(positional) {
		required := 0
		for _, f := range positional {
			if f.def == nil && f.factory == nil {
				required++
			}
		}
		takes := fmt.Sprint(len(positional) + 1)
		if required < len(positional) {
			takes = fmt.Sprintf("from %d to %d", required+1, len(positional)+1)
		}
		return nil, PyErrorf(ExcTypeError, "%s.__init__() takes %s positional arguments but %d were given", o.Cls.TypeName, takes, len(args)+1)
	}
	vals := map[string]starlark.Value{}
	for i, a := range args {
		vals[positional[i].name] = a
	}
	for _, kv := range kw {
		k := string(kv[0].(starlark.String))
		if byName[k] == nil {
			return nil, PyErrorf(ExcTypeError, "%s.__init__() got an unexpected keyword argument '%s'", o.Cls.TypeName, k)
		}
		if _, dup := vals[k]; dup {
			return nil, PyErrorf(ExcTypeError, "%s.__init__() got multiple values for argument '%s'", o.Cls.TypeName, k)
		}
		vals[k] = kv[1]
	}
	var postArgs starlark.Tuple // the InitVar values, for __post_init__
	for _, f := range params {
		v, ok := vals[f.name]
		switch {
		case ok:
		case f.factory != nil:
			var err error
			if v, err = starlark.Call(thread, f.factory, nil, nil); err != nil {
				return nil, err
			}
		case f.def != nil:
			v = f.def
		case !f.init:
			continue
		default:
			return nil, PyErrorf(ExcTypeError, "%s.__init__() missing 1 required positional argument: '%s'", o.Cls.TypeName, f.name)
		}
		if info.isInitVar(f) {
			postArgs = append(postArgs, v)
			continue
		}
		if _, seen := o.Attrs[f.name]; !seen {
			o.Keys = append(o.Keys, f.name)
		}
		o.Attrs[f.name] = v
	}
	if post, _ := ClassLookup(o.Cls, "__post_init__"); post != nil {
		if _, err := callBound(thread, post, o, postArgs, nil); err != nil {
			return nil, err
		}
	}
	return starlark.None, nil
}

// dcValues is the tuple of an instance's fields (those compared, or all).
func dcValues(info *dataclassInfo, o *PyObject, compared bool) starlark.Tuple {
	var t starlark.Tuple
	for _, f := range info.fields {
		if !compared || f.compare {
			v := o.Attrs[f.name]
			if v == nil {
				v = starlark.None
			}
			t = append(t, v)
		}
	}
	return t
}

// dcCompare is a generated __eq__ (test nil) or order method: the fields
// compared as tuples, for two instances of the same class.
func dcCompare(info *dataclassInfo, test func(int) bool) func(*starlark.Thread, starlark.Value, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
	return func(_ *starlark.Thread, self starlark.Value, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
		o := self.(*PyObject)
		other, ok := args[0].(*PyObject)
		if !ok || other.Cls != o.Cls {
			return NotImplemented, nil
		}
		a, b := dcValues(info, o, true), dcValues(info, other, true)
		if test == nil {
			eq, err := starlark.Equal(a, b)
			return starlark.Bool(eq), err
		}
		c, err := compareTuples(a, b)
		return starlark.Bool(err == nil && test(c)), err
	}
}

// compareTuples returns -1, 0 or 1 as a sorts before, with or after b.
func compareTuples(a, b starlark.Tuple) (int, error) {
	if lt, err := starlark.Compare(syntax.LT, a, b); err != nil || lt {
		return -1, err
	}
	if eq, err := starlark.Equal(a, b); err != nil || eq {
		return 0, err
	}
	return 1, nil
}

// dcConvert is asdict (toDict) or astuple: a dataclass instance's fields,
// nested dataclasses, lists, tuples and dicts converted and copied.
func dcConvert(toDict bool) BuiltinFunc {
	name := "astuple"
	if toDict {
		name = "asdict"
	}
	var conv func(v starlark.Value) starlark.Value
	conv = func(v starlark.Value) starlark.Value {
		switch x := v.(type) {
		case *PyObject:
			info := x.Cls.dataclass()
			if info == nil {
				return v
			}
			if toDict {
				d := starlark.NewDict(len(info.fields))
				for _, f := range info.fields {
					_ = d.SetKey(starlark.String(f.name), conv(x.Attrs[f.name]))
				}
				return d
			}
			var t starlark.Tuple
			for _, f := range info.fields {
				t = append(t, conv(x.Attrs[f.name]))
			}
			return t
		case *starlark.List:
			out := make([]starlark.Value, x.Len())
			for i := range out {
				out[i] = conv(x.Index(i))
			}
			return starlark.NewList(out)
		case starlark.Tuple:
			out := make(starlark.Tuple, len(x))
			for i, e := range x {
				out[i] = conv(e)
			}
			return out
		case *starlark.Dict:
			d := starlark.NewDict(x.Len())
			for _, kv := range x.Items() {
				_ = d.SetKey(conv(kv[0]), conv(kv[1]))
			}
			return d
		case nil:
			return starlark.None
		}
		return v
	}
	return func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		var x starlark.Value
		if err := starlark.UnpackPositionalArgs(name, args, kw, 1, &x); err != nil {
			return nil, err
		}
		if o, ok := x.(*PyObject); !ok || o.Cls.dataclass() == nil {
			return nil, PyErrorf(ExcTypeError, "%s() should be called on dataclass instances", name)
		}
		return conv(x), nil
	}
}

func dcFields(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var x starlark.Value
	if err := starlark.UnpackPositionalArgs("fields", args, kw, 1, &x); err != nil {
		return nil, err
	}
	info := dcOf(x)
	if info == nil {
		return nil, PyErrorf(ExcTypeError, "must be called with a dataclass type or instance")
	}
	var t starlark.Tuple
	for _, f := range info.fields {
		t = append(t, &fieldSpec{f: *f})
	}
	return t, nil
}

// dcReplace is replace(obj, **changes): a new instance through __init__.
func dcReplace(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	if len(args) != 1 {
		return nil, PyErrorf(ExcTypeError, "replace() takes 1 positional argument")
	}
	o, ok := args[0].(*PyObject)
	if !ok || o.Cls.dataclass() == nil {
		return nil, PyErrorf(ExcTypeError, "replace() should be called on dataclass instances")
	}
	changes := map[string]bool{}
	for _, kv := range kw {
		changes[string(kv[0].(starlark.String))] = true
	}
	all := append([]starlark.Tuple(nil), kw...)
	for _, f := range o.Cls.dataclass().fields {
		if f.init && !changes[f.name] {
			all = append(all, starlark.Tuple{starlark.String(f.name), o.Attrs[f.name]})
		}
	}
	return o.Cls.Construct(thread, nil, all)
}
