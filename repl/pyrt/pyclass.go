// Classes a class statement defines: the class objects, their instances
// and attribute lookup through the bases.

package pyrt

import (
	"fmt"
	"reflect"
	"sort"
	"strings"

	"go.starlark.net/starlark"
)

// A class statement (rewrite/prepass_class.go) ends in __py_class(name, bases,
// attributes, annotated names), which makes the class: a *pyType whose
// user part holds the class body's names, or, when the base is an
// exception class, an *excType with one, so that raise and except treat
// it as any exception. Instances of plain classes are *pyObject values;
// instances of exception classes are *pyException values.
//
// Attribute lookup follows Python's for single inheritance: the
// instance's own attributes, then the class and its bases in order, a
// function found there bound to the instance (a method), a staticmethod
// as it is, a classmethod bound to the class, a property called. One base
// at most (object, a class defined here, or an exception class);
// multiple inheritance, metaclasses and subclassing other built-in types
// are refused when the class is made.

// userClass is the part of a class a class statement defined.
type UserClass struct {
	R        *Interp
	Dict     map[string]starlark.Value // the class body's names and their values
	Order    []string                  // the names in the order the body bound them
	Fields   []string                  // the annotated names, in order (a dataclass's fields)
	InitVars map[string]bool           // the names annotated InitVar[...] (repl/lib/pylang/dataclasses.go)
	Dc       *DataclassInfo            // set by @dataclass
	Enum     *EnumInfo                 // an enum class's members (repl/lib/pylang/enum.go)
	doc      string                    // the body's docstring
}

func (u *UserClass) Set(name string, v starlark.Value) {
	if _, ok := u.Dict[name]; !ok {
		u.Order = append(u.Order, name)
	}
	u.Dict[name] = v
}

// classLookup finds name in class t or its bases; it returns the value
// and the class whose body holds it.
func ClassLookup(t *PyType, name string) (starlark.Value, *PyType) {
	for c := t; c != nil; c = c.Base {
		if c.User != nil {
			if v, ok := c.User.Dict[name]; ok {
				return v, c
			}
		}
	}
	return nil, nil
}

// excLookup is classLookup for exception classes.
func excClassLookup(t *ExcType, name string) (starlark.Value, *ExcType) {
	for _, c := range t.mro() {
		if c.user != nil {
			if v, ok := c.user.Dict[name]; ok {
				return v, c
			}
		}
	}
	return nil, nil
}

// pyClassBuiltin is __py_class(name, bases, [(name, value), ...], fields,
// keywords): keywords are the class statement's (name, value) pairs, for
// the base's __init_subclass__.
func (r *Interp) pyClassBuiltin(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	name := string(args[0].(starlark.String))
	u := &UserClass{R: r, Dict: map[string]starlark.Value{}}
	if thread.CallStackDepth() > 1 {
		if body, ok := thread.DebugFrame(1).Callable().(*starlark.Function); ok && body.Name() == "__py_class_"+name {
			u.doc = body.Doc() // the class body's function has the class's docstring
		}
	}
	attrs := args[2].(*starlark.List)
	for i := 0; i < attrs.Len(); i++ {
		pair := attrs.Index(i).(starlark.Tuple)
		u.Set(string(pair[0].(starlark.String)), pair[1])
	}
	r.noteQualnames(name, u)
	for _, f := range args[3].(starlark.Tuple) {
		name := string(f.(starlark.String))
		if n, ok := strings.CutPrefix(name, "!"); ok {
			if u.InitVars == nil {
				u.InitVars = map[string]bool{}
			}
			u.InitVars[n], name = true, n
		}
		u.Fields = append(u.Fields, name)
	}
	object := r.Types["object"]
	var bases []starlark.Value
	for _, b := range args[1].(starlark.Tuple) {
		if ta, ok := b.(*TypingAlias); ok && (ta.AliasName == "Protocol" || ta.AliasName == "Generic") {
			continue // typing's markers for type checkers: nothing at run time
		}
		if b != object {
			bases = append(bases, b)
		}
	}
	if cls, ok, err := r.EnumSubclass(name, bases, u); ok {
		return cls, err
	}
	if t, ok, err := r.excMulti(name, bases, u, args); ok {
		return t, err
	}
	if len(bases) > 1 {
		return nil, PyErrorf(ExcNotImplemented, "multiple inheritance is supported here between exception classes only; derive from one class and hold the other as an attribute")
	}
	var base starlark.Value = object
	if len(bases) == 1 {
		base = bases[0]
	}
	if t, ok, err := r.typingClass(name, base, u); ok {
		return t, err
	}
	switch b := base.(type) {
	case *ExcType:
		if len(classKeywords(args)) > 0 {
			return nil, PyErrorf(ExcTypeError, "%s.__init_subclass__() takes no keyword arguments", name)
		}
		t := &ExcType{TypeName: name, Module: "__main__", Base: b, user: u}
		r.addSubclass(b, t)
		return t, nil
	case *PyType:
		if b.User == nil && b != object {
			return nil, PyErrorf(ExcNotImplemented, "subclassing the built-in %s is not supported in this REPL; hold one as an attribute (self.items = %s())", b.TypeName, b.TypeName)
		}
		t := &PyType{TypeName: name, Module: "__main__", Base: b, User: u}
		t.Call = func(thread *starlark.Thread, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			return t.Construct(thread, args, kw)
		}
		r.addSubclass(b, t)
		if err := setNames(thread, t, u); err != nil {
			return nil, err
		}
		return t, initSubclass(thread, b, t, classKeywords(args))
	}
	return nil, PyErrorf(ExcNotImplemented, "a base class here must be a class defined in this REPL, object or an exception class (typing's NamedTuple, Enum and Protocol bases are not supported; use collections.namedtuple or a plain class)")
}

// excMulti makes an exception class with several bases, all exception
// classes (class MissingKey(ConfigError, KeyError)); ok is false when the
// bases are not that.
func (r *Interp) excMulti(name string, bases []starlark.Value, u *UserClass, args starlark.Tuple) (starlark.Value, bool, error) {
	if len(bases) < 2 {
		return nil, false, nil
	}
	var excs []*ExcType
	for _, b := range bases {
		e, ok := b.(*ExcType)
		if !ok {
			return nil, false, nil
		}
		excs = append(excs, e)
	}
	if len(classKeywords(args)) > 0 {
		return nil, true, PyErrorf(ExcTypeError, "%s.__init_subclass__() takes no keyword arguments", name)
	}
	t := &ExcType{TypeName: name, Module: "__main__", Base: excs[0], Also: excs[1:], user: u}
	if t.c3Conflict() {
		names := make([]string, len(excs))
		for i, b := range excs {
			names[i] = b.TypeName
		}
		return nil, true, PyErrorf(ExcTypeError, "Cannot create a consistent method resolution order (MRO) for bases %s", strings.Join(names, ", "))
	}
	for _, b := range excs {
		r.addSubclass(b, t)
	}
	return t, true, nil
}

// classKeywords are the keyword arguments of __py_class's call.
func classKeywords(args starlark.Tuple) []starlark.Tuple {
	if len(args) < 5 {
		return nil
	}
	var kw []starlark.Tuple
	for _, p := range args[4].(starlark.Tuple) {
		kw = append(kw, p.(starlark.Tuple))
	}
	return kw
}

// setNames calls __set_name__(owner, name) on each value of the class
// body whose class defines it (a descriptor learning its attribute name),
// in the body's order, as type.__new__ does.
func setNames(thread *starlark.Thread, t *PyType, u *UserClass) error {
	for _, name := range append([]string(nil), u.Order...) {
		o, ok := u.Dict[name].(*PyObject)
		if !ok {
			continue
		}
		if f, _ := ClassLookup(o.Cls, "__set_name__"); f != nil {
			if _, err := CallBound(thread, f, o, starlark.Tuple{t, starlark.String(name)}, nil); err != nil {
				return err
			}
		}
	}
	return nil
}

// initSubclass calls the base's __init_subclass__ (a class method
// without the decorator) on the new class t with the class statement's
// keyword arguments, as Python does.
func initSubclass(thread *starlark.Thread, base, t *PyType, kw []starlark.Tuple) error {
	f, _ := ClassLookup(base, "__init_subclass__")
	switch m := f.(type) {
	case nil:
		if len(kw) > 0 {
			return PyErrorf(ExcTypeError, "%s.__init_subclass__() takes no keyword arguments", t.TypeName)
		}
		return nil
	case *classMethod:
		f = m.fn
	case *staticMethod:
		f = m.fn
	}
	_, err := starlark.Call(thread, f, starlark.Tuple{t}, kw)
	return err
}

// construct makes an instance of the user class t and runs __init__.
func (t *PyType) Construct(thread *starlark.Thread, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	if left := abstractLeft(t); len(left) > 0 {
		return nil, abstractError(t, left)
	}
	obj := &PyObject{Cls: t, Attrs: map[string]starlark.Value{}}
	init, _ := ClassLookup(t, "__init__")
	if init == nil {
		if len(args) > 0 || len(kw) > 0 {
			return nil, PyErrorf(ExcTypeError, "%s() takes no arguments", t.TypeName)
		}
		return obj, nil
	}
	res, err := CallBound(thread, init, obj, args, kw)
	if err != nil {
		return nil, err
	}
	if res != starlark.None {
		return nil, PyErrorf(ExcTypeError, "__init__() should return None, not '%s'", PyTypeName(res))
	}
	return obj, nil
}

// callBound calls a class attribute as a method of self.
func CallBound(thread *starlark.Thread, fn, self starlark.Value, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	switch f := fn.(type) {
	case *GoMethod:
		return f.Fn(thread, self, args, kw)
	case *staticMethod:
		return starlark.Call(thread, f.fn, args, kw)
	case *classMethod:
		return starlark.Call(thread, f.fn, append(starlark.Tuple{classOfValue(self)}, args...), kw)
	}
	return starlark.Call(thread, fn, append(starlark.Tuple{self}, args...), kw)
}

// classOfValue is the class of an instance (or the class itself).
func classOfValue(v starlark.Value) starlark.Value {
	switch v := v.(type) {
	case *PyObject:
		return v.Cls
	case *PyException:
		return v.Typ
	}
	return v
}

// bindAttr turns a class attribute found for instance self into what
// self.name is.
func bindAttr(thread *starlark.Thread, v, self starlark.Value) (starlark.Value, error) {
	switch f := v.(type) {
	case *starlark.Function, *GoMethod, *AbstractMethod, *GenFunc, *FnWrapper, *Cached:
		return &BoundMethod{self: self, Fn: v}, nil
	case *CachedProperty:
		return f.get(thread, self)
	case *staticMethod:
		return f.fn, nil
	case *classMethod:
		return &BoundMethod{self: classOfValue(self), Fn: f.fn}, nil
	case *pyProperty:
		if f.fget == starlark.None {
			return nil, PyErrorf(ExcAttribute, "property of '%s' object has no getter", PyTypeName(self))
		}
		return starlark.Call(thread, f.fget, starlark.Tuple{self}, nil)
	}
	return v, nil
}

// classAttr is what Class.name is for a user class: functions unbound,
// a classmethod bound to the class, a staticmethod's function.
func classAttr(cls, v starlark.Value) starlark.Value {
	switch f := v.(type) {
	case *staticMethod:
		return f.fn
	case *classMethod:
		return &BoundMethod{self: cls, Fn: f.fn}
	}
	return v
}

// pyObject is an instance of a class defined in the REPL.
type PyObject struct {
	Cls   *PyType
	Attrs map[string]starlark.Value
	Keys  []string // attribute names in the order they were set
}

var (
	_ starlark.HasAttrs    = (*PyObject)(nil)
	_ starlark.HasSetField = (*PyObject)(nil)
	_ starlark.Comparable  = (*PyObject)(nil)
	_ starlark.HasBinary   = (*PyObject)(nil)
	_ starlark.HasUnary    = (*PyObject)(nil)
	_ starlark.Container   = (*PyObject)(nil)
	_ starlark.HasSetKey   = (*PyObject)(nil)
	_ PyFormatter          = (*PyObject)(nil)
	_ starlark.Callable    = (*PyObject)(nil)
)

// Name and CallInternal make an instance callable through its class's
// __call__ (a plain method or a generator method); without one, calling
// it is CPython's TypeError.
func (o *PyObject) Name() string { return o.Cls.TypeName }
func (o *PyObject) CallInternal(thread *starlark.Thread, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	m := o.DunderOf("__call__")
	if m == nil || m == starlark.None {
		return nil, PyErrorf(ExcTypeError, "'%s' object is not callable", o.Cls.TypeName)
	}
	return CallBound(thread, m, o, args, kw)
}

func (o *PyObject) Interp() *Interp          { return o.Cls.userRoot().R }
func (o *PyObject) thread() *starlark.Thread { return o.Interp().Thread }
func (o *PyObject) PyClass() *PyType         { return o.Cls }
func (o *PyObject) Type() string             { return o.Cls.TypeName }
func (o *PyObject) Freeze()                  {}
func (o *PyObject) String() string           { return o.ReprPy() }

// userRoot returns the nearest user part of t or its bases.
func (t *PyType) userRoot() *UserClass {
	for c := t; c != nil; c = c.Base {
		if c.User != nil {
			return c.User
		}
	}
	return nil
}

// defaultRepr is object's repr: <__main__.Point object at 0x...>.
func defaultRepr(v starlark.Value, cls string) string {
	return fmt.Sprintf("<__main__.%s object at %#x>", cls, reflect.ValueOf(v).Pointer())
}

func (o *PyObject) AttrNames() []string {
	seen := map[string]bool{}
	var names []string
	for _, k := range o.Keys {
		seen[k] = true
		names = append(names, k)
	}
	for c := o.Cls; c != nil; c = c.Base {
		if c.User != nil {
			for _, k := range c.User.Order {
				if !seen[k] {
					seen[k] = true
					names = append(names, k)
				}
			}
		}
	}
	sort.Strings(names)
	return names
}

func (o *PyObject) Attr(name string) (starlark.Value, error) {
	switch name {
	case "__class__":
		return o.Cls, nil
	case "__dict__":
		if o.Cls.slots() != nil {
			return nil, nil
		}
		d := starlark.NewDict(len(o.Keys))
		for _, k := range o.Keys {
			_ = d.SetKey(starlark.String(k), o.Attrs[k])
		}
		return d, nil
	}
	if v, ok := o.Attrs[name]; ok {
		return v, nil
	}
	if v, _ := ClassLookup(o.Cls, name); v != nil {
		if out, ok, err := descriptorGet(o.thread(), v, o, o.Cls); ok {
			return out, err
		}
		return bindAttr(o.thread(), v, o)
	}
	if ga, _ := ClassLookup(o.Cls, "__getattr__"); ga != nil && !isDunder(name) {
		return CallBound(o.thread(), ga, o, starlark.Tuple{starlark.String(name)}, nil)
	}
	return nil, nil
}

func isDunder(name string) bool {
	return len(name) > 4 && name[:2] == "__" && name[len(name)-2:] == "__"
}

func (o *PyObject) SetField(name string, v starlark.Value) error {
	if dc := o.Cls.Dataclass(); dc != nil && dc.Frozen {
		return &PyError{&PyException{Typ: ExcFrozenInstance, Args: starlark.Tuple{starlark.String(fmt.Sprintf("cannot assign to field '%s'", name))}}}
	}
	if p, ok := o.classValue(name).(*pyProperty); ok {
		if p.fset == starlark.None {
			return PyErrorf(ExcAttribute, "property '%s' of '%s' object has no setter", name, o.Cls.TypeName)
		}
		_, err := starlark.Call(o.thread(), p.fset, starlark.Tuple{o, v}, nil)
		return err
	}
	if ok, err := o.descriptorSet(name, v); ok {
		return err
	}
	if _, ok := o.Attrs[name]; !ok {
		if slots := o.Cls.slots(); slots != nil && !slots[name] {
			return PyErrorf(ExcAttribute, "'%s' object has no attribute '%s'", o.Cls.TypeName, name)
		}
		o.Keys = append(o.Keys, name)
	}
	o.Attrs[name] = v
	return nil
}

// slots returns the attribute names instances of t may have when t and
// every class it derives from declare __slots__ (instances then have no
// __dict__), else nil.
func (t *PyType) slots() map[string]bool {
	if t.User == nil || t.User.Dict["__slots__"] == nil {
		return nil
	}
	names := map[string]bool{}
	for c := t; c != nil && c.User != nil; c = c.Base {
		decl, ok := c.User.Dict["__slots__"]
		if !ok {
			return nil
		}
		if s, ok := decl.(starlark.String); ok {
			names[string(s)] = true
			continue
		}
		vals, _ := ListOf(decl)
		for _, v := range vals {
			if s, ok := v.(starlark.String); ok {
				names[string(s)] = true
			}
		}
	}
	return names
}

// DelAttr is del o.name: through a property's deleter, else the
// instance's own attribute.
func (o *PyObject) DelAttr(name string) error {
	if p, ok := o.classValue(name).(*pyProperty); ok {
		if p.fdel == starlark.None || p.fdel == nil {
			return PyErrorf(ExcAttribute, "property '%s' of '%s' object has no deleter", name, o.Cls.TypeName)
		}
		_, err := starlark.Call(o.thread(), p.fdel, starlark.Tuple{o}, nil)
		return err
	}
	if _, ok := o.Attrs[name]; !ok {
		return PyErrorf(ExcAttribute, "'%s' object has no attribute '%s'", o.Cls.TypeName, name)
	}
	delete(o.Attrs, name)
	for i, k := range o.Keys {
		if k == name {
			o.Keys = append(o.Keys[:i], o.Keys[i+1:]...)
			break
		}
	}
	return nil
}

func (o *PyObject) classValue(name string) starlark.Value {
	v, _ := ClassLookup(o.Cls, name)
	return v
}

// dunderOf returns the method name of o's class (defined in a class body
// or generated by @dataclass), or nil.
func (o *PyObject) DunderOf(name string) starlark.Value { return o.classValue(name) }

// callDunder calls o.name(*args) when o's class has it.
func (o *PyObject) CallDunder(name string, args ...starlark.Value) (starlark.Value, bool, error) {
	m := o.DunderOf(name)
	if m == nil || m == starlark.None {
		return nil, false, nil
	}
	v, err := CallBound(o.thread(), m, o, args, nil)
	return v, true, err
}
