// Type objects: str, int, list, … as callable classes, so that type(x) is
// str, isinstance(x, (int, float)) and str.lower work as in Python.

package pyrt

import (
	"sort"

	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"
)

// pyType is a class the REPL provides: calling it constructs (str(x),
// Path("a")), its attributes are class attributes (dict.fromkeys,
// Path.cwd) or unbound methods (str.lower), and type() returns it.
type PyType struct {
	TypeName, Module string
	Base             *PyType
	Call             func(thread *starlark.Thread, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error)
	Attrs            starlark.StringDict
	methods          bool           // unknown attributes are unbound methods: str.lower(s) is s.lower()
	proto            starlark.Value // when set, only its methods are: hasattr(str, "x") is False
	User             *UserClass     // a class defined by a class statement (pyclass.go)
}

var (
	_ starlark.Callable    = (*PyType)(nil)
	_ starlark.HasAttrs    = (*PyType)(nil)
	_ starlark.HasSetField = (*PyType)(nil)
)

func (t *PyType) String() string {
	if EnumClassOf(t) != nil {
		return "<enum '" + t.TypeName + "'>" // repl/lib/pylang/enum.go
	}
	return classRepr(t.Module, t.TypeName)
}
func (t *PyType) Type() string          { return "type" }
func (t *PyType) Freeze()               {}
func (t *PyType) Truth() starlark.Bool  { return true }
func (t *PyType) Hash() (uint32, error) { return starlark.String(t.TypeName).Hash() }
func (t *PyType) Name() string          { return t.TypeName }

func (t *PyType) CallInternal(thread *starlark.Thread, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	if t.Call == nil {
		return nil, PyErrorf(ExcTypeError, "cannot create '%s' instances", t.TypeName)
	}
	return t.Call(thread, args, kw)
}

func (t *PyType) AttrNames() []string {
	names := []string{"__name__", "__qualname__"}
	for k := range t.Attrs {
		names = append(names, k)
	}
	for c := t; c != nil; c = c.Base {
		if c.User != nil {
			names = append(names, c.User.Order...)
		}
	}
	sort.Strings(names)
	return names
}

func (t *PyType) Attr(name string) (starlark.Value, error) {
	if v, ok := classNameAttr(t.Module, t.TypeName, name); ok {
		return v, nil
	}
	if v, ok := t.Attrs[name]; ok {
		return v, nil
	}
	if v, _ := ClassLookup(t, name); v != nil {
		if t.User != nil && t.User.R != nil {
			if out, ok, err := descriptorGet(t.User.R.Thread, v, starlark.None, t); ok {
				return out, err
			}
		}
		return classAttr(t, v), nil
	}
	if t.User != nil {
		switch name {
		case "__bases__":
			return starlark.Tuple{t.Base}, nil
		case "__doc__":
			return starlark.None, nil
		}
	}
	if !t.methods || t.proto != nil && !hasMethod(t.proto, name) {
		return nil, nil
	}
	qual := t.TypeName + "." + name
	return starlark.NewBuiltin(qual, func(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		if len(args) == 0 {
			return nil, PyErrorf(ExcTypeError, "unbound method %s() needs an argument", qual)
		}
		return CallMethod(thread, args[0], name, args[1:], kw)
	}), nil
}

// SetField sets a class attribute of a class defined in the REPL
// (Counter.total = 0); built-in classes are immutable.
func (t *PyType) SetField(name string, v starlark.Value) error {
	return setClassAttr(t.User, t.TypeName, name, v)
}

// What every class has, the REPL's own (pyType) and the exception
// classes (excType) alike.

// classRepr is a class's repr: <class 'name'>, or <class 'module.name'>
// outside builtins.
func classRepr(module, name string) string {
	if module != "" {
		return "<class '" + module + "." + name + "'>"
	}
	return "<class '" + name + "'>"
}

// classNameAttr returns the attributes a class has from its name:
// __name__, __qualname__ and __module__ ("builtins" for the built-in
// classes).
func classNameAttr(module, name, attr string) (starlark.Value, bool) {
	switch attr {
	case "__name__", "__qualname__":
		return starlark.String(name), true
	case "__module__":
		if module == "" {
			module = "builtins"
		}
		return starlark.String(module), true
	}
	return nil, false
}

// setClassAttr sets attribute name of class cls to v: user is the part a
// class statement defined, nil for a built-in class, which is immutable.
func setClassAttr(user *UserClass, cls, name string, v starlark.Value) error {
	if user == nil {
		return PyErrorf(ExcTypeError, "cannot set '%s' attribute of immutable type '%s'", name, cls)
	}
	user.Set(name, v)
	return nil
}

// dataclass returns the dataclass description of t or its nearest base
// that has one.
func (t *PyType) Dataclass() *DataclassInfo {
	for c := t; c != nil; c = c.Base {
		if c.User != nil && c.User.Dc != nil {
			return c.User.Dc
		}
	}
	return nil
}

// subclassOf reports whether t is c or derives from it.
func (t *PyType) SubclassOf(c starlark.Value) bool {
	for x := t; x != nil; x = x.Base {
		if x == c {
			return true
		}
	}
	return false
}

// classed is a value of a class the REPL defines (Counter, datetime, …).
type Classed interface{ PyClass() *PyType }

// typeOf returns type(v).
func (r *Interp) TypeOf(v starlark.Value) starlark.Value {
	switch v := v.(type) {
	case *PyException:
		return v.Typ
	case Classed:
		return v.PyClass()
	case *starlarkstruct.Module, *SysModule:
		return r.ClassNamed("module")
	}
	name := PyTypeName(v)
	switch v.Type() {
	case "range":
		name = "range"
	}
	return r.ClassNamed(name)
}

// classNamed returns the class called name, made once per interpreter for
// types without a constructor (function, module, NoneType, …).
func (r *Interp) ClassNamed(name string) *PyType {
	if t, ok := r.Types[name]; ok {
		return t
	}
	t := &PyType{TypeName: name}
	r.Types[name] = t
	return t
}

// isInstance reports whether v is an instance of class c (a pyType or an
// exception class).
func (r *Interp) IsInstance(v, c starlark.Value) (bool, error) {
	switch c := c.(type) {
	case *ExcType:
		e, ok := v.(*PyException)
		return ok && e.Typ.IsSubclass(c), nil
	case *PyType:
		switch t := r.TypeOf(v).(type) {
		case *PyType:
			return t.SubclassOf(c), nil
		}
		return false, nil
	case starlark.Tuple:
		for _, x := range c {
			if ok, err := r.IsInstance(v, x); ok || err != nil {
				return ok, err
			}
		}
		return false, nil
	}
	return false, PyErrorf(ExcTypeError, "isinstance() arg 2 must be a type, a tuple of types, or a union")
}
