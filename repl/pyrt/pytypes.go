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
	name, module string
	base         *PyType
	call         func(thread *starlark.Thread, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error)
	attrs        starlark.StringDict
	methods      bool           // unknown attributes are unbound methods: str.lower(s) is s.lower()
	proto        starlark.Value // when set, only its methods are: hasattr(str, "x") is False
	user         *userClass     // a class defined by a class statement (pyclass.go)
}

var (
	_ starlark.Callable    = (*PyType)(nil)
	_ starlark.HasAttrs    = (*PyType)(nil)
	_ starlark.HasSetField = (*PyType)(nil)
)

func (t *PyType) String() string {
	if enumClassOf(t) != nil {
		return "<enum '" + t.name + "'>" // pymod_enum.go
	}
	return classRepr(t.module, t.name)
}
func (t *PyType) Type() string          { return "type" }
func (t *PyType) Freeze()               {}
func (t *PyType) Truth() starlark.Bool  { return true }
func (t *PyType) Hash() (uint32, error) { return starlark.String(t.name).Hash() }
func (t *PyType) Name() string          { return t.name }

func (t *PyType) CallInternal(thread *starlark.Thread, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	if t.call == nil {
		return nil, pyErrorf(excTypeError, "cannot create '%s' instances", t.name)
	}
	return t.call(thread, args, kw)
}

func (t *PyType) AttrNames() []string {
	names := []string{"__name__", "__qualname__"}
	for k := range t.attrs {
		names = append(names, k)
	}
	for c := t; c != nil; c = c.base {
		if c.user != nil {
			names = append(names, c.user.order...)
		}
	}
	sort.Strings(names)
	return names
}

func (t *PyType) Attr(name string) (starlark.Value, error) {
	if v, ok := classNameAttr(t.module, t.name, name); ok {
		return v, nil
	}
	if v, ok := t.attrs[name]; ok {
		return v, nil
	}
	if v, _ := classLookup(t, name); v != nil {
		return classAttr(t, v), nil
	}
	if t.user != nil {
		switch name {
		case "__bases__":
			return starlark.Tuple{t.base}, nil
		case "__doc__":
			return starlark.None, nil
		}
	}
	if !t.methods || t.proto != nil && !hasMethod(t.proto, name) {
		return nil, nil
	}
	qual := t.name + "." + name
	return starlark.NewBuiltin(qual, func(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		if len(args) == 0 {
			return nil, pyErrorf(excTypeError, "unbound method %s() needs an argument", qual)
		}
		return callMethod(thread, args[0], name, args[1:], kw)
	}), nil
}

// SetField sets a class attribute of a class defined in the REPL
// (Counter.total = 0); built-in classes are immutable.
func (t *PyType) SetField(name string, v starlark.Value) error {
	return setClassAttr(t.user, t.name, name, v)
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
func setClassAttr(user *userClass, cls, name string, v starlark.Value) error {
	if user == nil {
		return pyErrorf(excTypeError, "cannot set '%s' attribute of immutable type '%s'", name, cls)
	}
	user.set(name, v)
	return nil
}

// dataclass returns the dataclass description of t or its nearest base
// that has one.
func (t *PyType) dataclass() *dataclassInfo {
	for c := t; c != nil; c = c.base {
		if c.user != nil && c.user.dc != nil {
			return c.user.dc
		}
	}
	return nil
}

// subclassOf reports whether t is c or derives from it.
func (t *PyType) subclassOf(c starlark.Value) bool {
	for x := t; x != nil; x = x.base {
		if x == c {
			return true
		}
	}
	return false
}

// classed is a value of a class the REPL defines (Counter, datetime, …).
type classed interface{ pyClass() *PyType }

// typeOf returns type(v).
func (r *Interp) typeOf(v starlark.Value) starlark.Value {
	switch v := v.(type) {
	case *PyException:
		return v.Typ
	case classed:
		return v.pyClass()
	case *starlarkstruct.Module, *sysModule:
		return r.classNamed("module")
	}
	name := pyTypeName(v)
	switch v.Type() {
	case "range":
		name = "range"
	}
	return r.classNamed(name)
}

// classNamed returns the class called name, made once per interpreter for
// types without a constructor (function, module, NoneType, …).
func (r *Interp) classNamed(name string) *PyType {
	if t, ok := r.types[name]; ok {
		return t
	}
	t := &PyType{name: name}
	r.types[name] = t
	return t
}

// isInstance reports whether v is an instance of class c (a pyType or an
// exception class).
func (r *Interp) isInstance(v, c starlark.Value) (bool, error) {
	switch c := c.(type) {
	case *excType:
		e, ok := v.(*PyException)
		return ok && e.Typ.isSubclass(c), nil
	case *PyType:
		switch t := r.typeOf(v).(type) {
		case *PyType:
			return t.subclassOf(c), nil
		}
		return false, nil
	case starlark.Tuple:
		for _, x := range c {
			if ok, err := r.isInstance(v, x); ok || err != nil {
				return ok, err
			}
		}
		return false, nil
	}
	return false, pyErrorf(excTypeError, "isinstance() arg 2 must be a type, a tuple of types, or a union")
}
