// dataclasses: @dataclass over the classes a class statement defines,
// field(), asdict, astuple, fields, replace.

package pylang

import (
	"fmt"
	"strings"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"

	"harness/repl/pyrt"
	"harness/repl/pystr"
)

// fieldSpec is field(...) in a class body, and the Field objects fields()
// returns.
type fieldSpec struct{ f pyrt.DcField }

var _ starlark.HasAttrs = (*fieldSpec)(nil)

func (s *fieldSpec) String() string        { return "Field(name=" + pystr.Quote(s.f.Name) + ")" }
func (s *fieldSpec) Type() string          { return "Field" }
func (s *fieldSpec) Freeze()               {}
func (s *fieldSpec) Truth() starlark.Bool  { return true }
func (s *fieldSpec) Hash() (uint32, error) { return starlark.String(s.f.Name).Hash() }
func (s *fieldSpec) AttrNames() []string {
	return []string{"compare", "default", "default_factory", "init", "kw_only", "name", "repr"}
}
func (s *fieldSpec) Attr(name string) (starlark.Value, error) {
	orMissing := func(v starlark.Value) starlark.Value {
		if v == nil {
			return pyrt.DcMissing
		}
		return v
	}
	switch name {
	case "name":
		return starlark.String(s.f.Name), nil
	case "default":
		return orMissing(s.f.Def), nil
	case "default_factory":
		return orMissing(s.f.Factory), nil
	case "init":
		return starlark.Bool(s.f.Init), nil
	case "repr":
		return starlark.Bool(s.f.Repr), nil
	case "compare":
		return starlark.Bool(s.f.Compare), nil
	case "kw_only":
		return starlark.Bool(s.f.KwOnly), nil
	}
	return nil, nil
}

func dataclassesModule(r *pyrt.Interp) starlark.Value {
	return pyrt.NewModule("dataclasses", starlark.StringDict{
		"dataclass": pyrt.Builtin("dataclass", func(p0 *starlark.Thread, p1 *starlark.Builtin, p2 starlark.Tuple, p3 []starlark.Tuple) (starlark.Value, error) {
			return dataclassDecorator(r, p0, p1, p2, p3)
		}),
		"field": pyrt.Builtin("field", func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			s := &fieldSpec{f: pyrt.DcField{Init: true, Repr: true, Compare: true}}
			var hash, metadata, kwOnly starlark.Value
			if err := pyrt.UnpackArgs("field", args, kw, "default?", &s.f.Def, "default_factory?", &s.f.Factory, "init?", &s.f.Init,
				"repr?", &s.f.Repr, "hash?", &hash, "compare?", &s.f.Compare, "metadata?", &metadata, "kw_only?", &kwOnly); err != nil {
				return nil, err
			}
			if s.f.Def != nil && s.f.Factory != nil {
				return nil, pyrt.PyErrorf(pyrt.ExcValueError, "cannot specify both default and default_factory")
			}
			s.f.KwOnly = kwOnly != nil && bool(kwOnly.Truth())
			return s, nil
		}),
		"asdict":  pyrt.Builtin("asdict", dcConvert(true)),
		"astuple": pyrt.Builtin("astuple", dcConvert(false)),
		"fields":  pyrt.Builtin("fields", dcFields),
		"replace": pyrt.Builtin("replace", dcReplace),
		"is_dataclass": pyrt.Builtin("is_dataclass", func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var x starlark.Value
			if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 1, &x); err != nil {
				return nil, err
			}
			return starlark.Bool(pyrt.DcOf(x) != nil), nil
		}),
		"FrozenInstanceError": pyrt.ExcFrozenInstance,
		"MISSING":             pyrt.DcMissing,
		"InitVar":             &pyrt.TypingAlias{AliasName: "InitVar"}, // InitVar[T]: the class statement reads it (pyclass.go)
	})
}

// dataclassDecorator is dataclass(cls) and dataclass(**options)(cls).
func dataclassDecorator(r *pyrt.Interp, _ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	info := &pyrt.DataclassInfo{Init: true, Repr: true, Eq: true}
	var cls, unsafeHash, matchArgs, kwOnly, slots starlark.Value
	if err := pyrt.UnpackArgs("dataclass", args, kw, "cls?", &cls, "init?", &info.Init, "repr?", &info.Repr, "eq?", &info.Eq,
		"order?", &info.Order, "unsafe_hash?", &unsafeHash, "frozen?", &info.Frozen, "match_args?", &matchArgs,
		"kw_only?", &kwOnly, "slots?", &slots); err != nil {
		return nil, err
	}
	info.KwOnlyOK = kwOnly != nil && bool(kwOnly.Truth())
	if cls == nil || cls == starlark.None {
		return pyrt.Builtin("dataclass", func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
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
func makeDataclass(c starlark.Value, info *pyrt.DataclassInfo) (starlark.Value, error) {
	t, ok := c.(*pyrt.PyType)
	if !ok || t.User == nil {
		return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "dataclass() should be called on a class defined in this REPL, not %s", pyrt.PyTypeName(c))
	}
	u := t.User
	if base := t.Base.Dataclass(); base != nil {
		for _, f := range base.Fields {
			g := *f
			info.Fields = append(info.Fields, &g)
		}
	}
	for _, name := range u.Fields {
		f := &pyrt.DcField{Name: name, Init: true, Repr: true, Compare: true, KwOnly: info.KwOnlyOK}
		if v, ok := u.Dict[name]; ok {
			if s, isSpec := v.(*fieldSpec); isSpec {
				g := s.f
				g.Name = name
				g.KwOnly = g.KwOnly || info.KwOnlyOK
				*f = g
				if f.Def != nil {
					u.Dict[name] = f.Def
				} else {
					u.Remove(name)
				}
			} else {
				f.Def = v
			}
		}
		if f.Def != nil {
			switch f.Def.(type) {
			case *starlark.List, *starlark.Dict, *starlark.Set:
				return nil, pyrt.PyErrorf(pyrt.ExcValueError, "mutable default <class '%s'> for field %s is not allowed: use default_factory", pyrt.PyTypeName(f.Def), name)
			}
		}
		if u.InitVars[name] {
			info.InitVars = append(info.InitVars, pyrt.DcInitVar{F: f, Pos: len(info.Fields)})
			continue
		}
		replaced := false
		for i, old := range info.Fields {
			if old.Name == name {
				info.Fields[i], replaced = f, true
			}
		}
		if !replaced {
			info.Fields = append(info.Fields, f)
		}
	}
	seenDefault := false
	for _, f := range info.Fields {
		if !f.Init || f.KwOnly {
			continue
		}
		if f.Def != nil || f.Factory != nil {
			seenDefault = true
		} else if seenDefault {
			return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "non-default argument '%s' follows default argument", f.Name)
		}
	}
	own := func(name string) bool { _, ok := u.Dict[name]; return ok }
	gen := func(name string, fn func(*starlark.Thread, starlark.Value, starlark.Tuple, []starlark.Tuple) (starlark.Value, error)) {
		if !own(name) {
			u.Set(name, &pyrt.GoMethod{MethodName: name, Fn: fn})
		}
	}
	if info.Init {
		gen("__init__", func(thread *starlark.Thread, self starlark.Value, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			return dcInit(thread, info, self.(*pyrt.PyObject), args, kw)
		})
	}
	if info.Repr {
		gen("__repr__", func(_ *starlark.Thread, self starlark.Value, _ starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
			o := self.(*pyrt.PyObject)
			var parts []string
			for _, f := range info.Fields {
				if f.Repr {
					parts = append(parts, f.Name+"="+pyrt.PyRepr(o.Attrs[f.Name]))
				}
			}
			return starlark.String(o.Cls.TypeName + "(" + strings.Join(parts, ", ") + ")"), o.Interp().TakeReprErr()
		})
	}
	if info.Eq {
		gen("__eq__", dcCompare(info, nil))
	}
	if info.Order {
		for name, op := range map[string]func(int) bool{
			"__lt__": func(c int) bool { return c < 0 }, "__le__": func(c int) bool { return c <= 0 },
			"__gt__": func(c int) bool { return c > 0 }, "__ge__": func(c int) bool { return c >= 0 },
		} {
			gen(name, dcCompare(info, op))
		}
	}
	switch {
	case own("__hash__"):
	case info.Eq && info.Frozen:
		u.Set("__hash__", &pyrt.GoMethod{MethodName: "__hash__", Fn: func(_ *starlark.Thread, self starlark.Value, _ starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
			h, err := dcValues(info, self.(*pyrt.PyObject), true).Hash()
			return starlark.MakeUint64(uint64(h)), err
		}})
	case info.Eq:
		u.Set("__hash__", starlark.None)
	}
	u.Dc = info
	byName := starlark.NewDict(len(info.Fields))
	for _, f := range info.Fields {
		_ = byName.SetKey(starlark.String(f.Name), &fieldSpec{f: *f})
	}
	u.Set("__dataclass_fields__", byName) // what fields() reads in CPython; some programs read it directly
	return t, nil
}

// dcInit is a dataclass's generated __init__.
func dcInit(thread *starlark.Thread, info *pyrt.DataclassInfo, o *pyrt.PyObject, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var positional []*pyrt.DcField
	byName := map[string]*pyrt.DcField{}
	params := info.Params()
	for _, f := range params {
		if f.Init {
			byName[f.Name] = f
			if !f.KwOnly {
				positional = append(positional, f)
			}
		}
	}
	if len(args) > len(positional) {
		required := 0
		for _, f := range positional {
			if f.Def == nil && f.Factory == nil {
				required++
			}
		}
		takes := fmt.Sprint(len(positional) + 1)
		if required < len(positional) {
			takes = fmt.Sprintf("from %d to %d", required+1, len(positional)+1)
		}
		return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "%s.__init__() takes %s positional arguments but %d were given", o.Cls.TypeName, takes, len(args)+1)
	}
	vals := map[string]starlark.Value{}
	for i, a := range args {
		vals[positional[i].Name] = a
	}
	for _, kv := range kw {
		k := string(kv[0].(starlark.String))
		if byName[k] == nil {
			return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "%s.__init__() got an unexpected keyword argument '%s'", o.Cls.TypeName, k)
		}
		if _, dup := vals[k]; dup {
			return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "%s.__init__() got multiple values for argument '%s'", o.Cls.TypeName, k)
		}
		vals[k] = kv[1]
	}
	var postArgs starlark.Tuple // the InitVar values, for __post_init__
	for _, f := range params {
		v, ok := vals[f.Name]
		switch {
		case ok:
		case f.Factory != nil:
			var err error
			if v, err = starlark.Call(thread, f.Factory, nil, nil); err != nil {
				return nil, err
			}
		case f.Def != nil:
			v = f.Def
		case !f.Init:
			continue
		default:
			return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "%s.__init__() missing 1 required positional argument: '%s'", o.Cls.TypeName, f.Name)
		}
		if info.IsInitVar(f) {
			postArgs = append(postArgs, v)
			continue
		}
		if _, seen := o.Attrs[f.Name]; !seen {
			o.Keys = append(o.Keys, f.Name)
		}
		o.Attrs[f.Name] = v
	}
	if post, _ := pyrt.ClassLookup(o.Cls, "__post_init__"); post != nil {
		if _, err := pyrt.CallBound(thread, post, o, postArgs, nil); err != nil {
			return nil, err
		}
	}
	return starlark.None, nil
}

// dcValues is the tuple of an instance's fields (those compared, or all).
func dcValues(info *pyrt.DataclassInfo, o *pyrt.PyObject, compared bool) starlark.Tuple {
	var t starlark.Tuple
	for _, f := range info.Fields {
		if !compared || f.Compare {
			v := o.Attrs[f.Name]
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
func dcCompare(info *pyrt.DataclassInfo, test func(int) bool) func(*starlark.Thread, starlark.Value, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
	return func(_ *starlark.Thread, self starlark.Value, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
		o := self.(*pyrt.PyObject)
		other, ok := args[0].(*pyrt.PyObject)
		if !ok || other.Cls != o.Cls {
			return pyrt.NotImplemented, nil
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
func dcConvert(toDict bool) pyrt.BuiltinFunc {
	name := "astuple"
	if toDict {
		name = "asdict"
	}
	var conv func(v starlark.Value) starlark.Value
	conv = func(v starlark.Value) starlark.Value {
		switch x := v.(type) {
		case *pyrt.PyObject:
			info := x.Cls.Dataclass()
			if info == nil {
				return v
			}
			if toDict {
				d := starlark.NewDict(len(info.Fields))
				for _, f := range info.Fields {
					_ = d.SetKey(starlark.String(f.Name), conv(x.Attrs[f.Name]))
				}
				return d
			}
			var t starlark.Tuple
			for _, f := range info.Fields {
				t = append(t, conv(x.Attrs[f.Name]))
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
		if o, ok := x.(*pyrt.PyObject); !ok || o.Cls.Dataclass() == nil {
			return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "%s() should be called on dataclass instances", name)
		}
		return conv(x), nil
	}
}

func dcFields(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var x starlark.Value
	if err := starlark.UnpackPositionalArgs("fields", args, kw, 1, &x); err != nil {
		return nil, err
	}
	info := pyrt.DcOf(x)
	if info == nil {
		return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "must be called with a dataclass type or instance")
	}
	var t starlark.Tuple
	for _, f := range info.Fields {
		t = append(t, &fieldSpec{f: *f})
	}
	return t, nil
}

// dcReplace is replace(obj, **changes): a new instance through __init__.
func dcReplace(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	if len(args) != 1 {
		return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "replace() takes 1 positional argument")
	}
	o, ok := args[0].(*pyrt.PyObject)
	if !ok || o.Cls.Dataclass() == nil {
		return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "replace() should be called on dataclass instances")
	}
	changes := map[string]bool{}
	for _, kv := range kw {
		changes[string(kv[0].(starlark.String))] = true
	}
	all := append([]starlark.Tuple(nil), kw...)
	for _, f := range o.Cls.Dataclass().Fields {
		if f.Init && !changes[f.Name] {
			all = append(all, starlark.Tuple{starlark.String(f.Name), o.Attrs[f.Name]})
		}
	}
	return o.Cls.Construct(thread, nil, all)
}
