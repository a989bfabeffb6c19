// What a class body may hold besides plain functions and values:
// staticmethod, classmethod, property; bound methods; super().

package pyrt

import (
	"go.starlark.net/starlark"
)

// goMethod is a method implemented in Go (those @dataclass generates);
// like a function in a class body it binds to the instance.
type GoMethod struct {
	MethodName string
	Fn         func(thread *starlark.Thread, self starlark.Value, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error)
}

var _ starlark.Callable = (*GoMethod)(nil)

func (m *GoMethod) String() string        { return "<function " + m.MethodName + ">" }
func (m *GoMethod) Type() string          { return "function" }
func (m *GoMethod) Freeze()               {}
func (m *GoMethod) Truth() starlark.Bool  { return true }
func (m *GoMethod) Hash() (uint32, error) { return starlark.String(m.MethodName).Hash() }
func (m *GoMethod) Name() string          { return m.MethodName }
func (m *GoMethod) CallInternal(thread *starlark.Thread, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	if len(args) == 0 {
		return nil, PyErrorf(ExcTypeError, "%s() missing 1 required positional argument: 'self'", m.MethodName)
	}
	return m.Fn(thread, args[0], args[1:], kw)
}

// boundMethod is instance.method: the function with self bound.
type BoundMethod struct {
	self, Fn starlark.Value
}

var _ starlark.Callable = (*BoundMethod)(nil)

func (b *BoundMethod) Name() string {
	if n, ok := b.Fn.(interface{ Name() string }); ok {
		return n.Name()
	}
	return "method"
}
func (b *BoundMethod) String() string { return b.ReprPy() }
func (b *BoundMethod) ReprPy() string {
	return "<bound method " + b.Name() + " of " + PyRepr(b.self) + ">"
}
func (b *BoundMethod) Type() string          { return "method" }
func (b *BoundMethod) Freeze()               {}
func (b *BoundMethod) Truth() starlark.Bool  { return true }
func (b *BoundMethod) Hash() (uint32, error) { return starlark.String(b.Name()).Hash() }
func (b *BoundMethod) CallInternal(thread *starlark.Thread, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	if m, ok := b.Fn.(*GoMethod); ok {
		return m.Fn(thread, b.self, args, kw)
	}
	return starlark.Call(thread, b.Fn, append(starlark.Tuple{b.self}, args...), kw)
}

// staticMethod, classMethod and pyProperty wrap a class body's functions.
type (
	staticMethod struct{ fn starlark.Value }
	classMethod  struct{ fn starlark.Value }
	pyProperty   struct{ fget, fset, fdel starlark.Value }
)

func (m *staticMethod) String() string        { return "<staticmethod>" }
func (m *staticMethod) Type() string          { return "staticmethod" }
func (m *staticMethod) Freeze()               {}
func (m *staticMethod) Truth() starlark.Bool  { return true }
func (m *staticMethod) Hash() (uint32, error) { return 0, nil }
func (m *classMethod) String() string         { return "<classmethod>" }
func (m *classMethod) Type() string           { return "classmethod" }
func (m *classMethod) Freeze()                {}
func (m *classMethod) Truth() starlark.Bool   { return true }
func (m *classMethod) Hash() (uint32, error)  { return 0, nil }

var _ starlark.HasAttrs = (*pyProperty)(nil)

func (p *pyProperty) String() string        { return "<property object>" }
func (p *pyProperty) Type() string          { return "property" }
func (p *pyProperty) Freeze()               {}
func (p *pyProperty) Truth() starlark.Bool  { return true }
func (p *pyProperty) Hash() (uint32, error) { return 0, nil }
func (p *pyProperty) AttrNames() []string {
	return []string{"deleter", "fdel", "fget", "fset", "getter", "setter"}
}
func (p *pyProperty) Attr(name string) (starlark.Value, error) {
	with := func(set func(q *pyProperty, f starlark.Value)) starlark.Value {
		return Builtin("property."+name, func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var f starlark.Value
			if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 1, &f); err != nil {
				return nil, err
			}
			q := *p
			set(&q, f)
			return &q, nil
		})
	}
	switch name {
	case "fget":
		return p.fget, nil
	case "fset":
		return p.fset, nil
	case "fdel":
		return p.fdel, nil
	case "getter":
		return with(func(q *pyProperty, f starlark.Value) { q.fget = f }), nil
	case "setter":
		return with(func(q *pyProperty, f starlark.Value) { q.fset = f }), nil
	case "deleter":
		return with(func(q *pyProperty, f starlark.Value) { q.fdel = f }), nil
	}
	return nil, nil
}

// superObj is super(cls, obj): attribute lookup from the class after cls.
type superObj struct {
	cls, obj starlark.Value
}

var _ starlark.HasAttrs = (*superObj)(nil)

func (s *superObj) String() string        { return "<super object>" }
func (s *superObj) Type() string          { return "super" }
func (s *superObj) Freeze()               {}
func (s *superObj) Truth() starlark.Bool  { return true }
func (s *superObj) Hash() (uint32, error) { return 0, nil }
func (s *superObj) AttrNames() []string   { return nil }

// superExcLookup is name in the classes after c in the MRO of the
// exception obj (its class's bases after c's when it has several).
func superExcLookup(c *ExcType, obj starlark.Value, name string) starlark.Value {
	if e, ok := obj.(*PyException); ok {
		mro := e.Typ.mro()
		for i, m := range mro {
			if m != c {
				continue
			}
			for _, next := range mro[i+1:] {
				if next.user != nil {
					if v, ok := next.user.Dict[name]; ok {
						return v
					}
				}
			}
			return nil
		}
	}
	v, _ := excClassLookup(c.Base, name)
	return v
}
func (s *superObj) Attr(name string) (starlark.Value, error) {
	thread := s.threadOf()
	switch c := s.cls.(type) {
	case *PyType:
		if c.Base == nil {
			break
		}
		if v, _ := ClassLookup(c.Base, name); v != nil {
			return bindAttr(thread, v, s.obj)
		}
	case *ExcType:
		if c.Base == nil {
			break
		}
		if v := superExcLookup(c, s.obj, name); v != nil {
			return bindAttr(thread, v, s.obj)
		}
		if name == "__init__" {
			return Builtin("__init__", func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
				e, ok := s.obj.(*PyException)
				if !ok {
					return starlark.None, nil
				}
				if init := c.Base.InitOf(); init != nil {
					return starlark.None, init(e, args, kw)
				}
				e.Args, e.Text = args, ""
				return starlark.None, nil
			}), nil
		}
		if name == "__str__" {
			return Builtin("__str__", func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
				return starlark.String(s.obj.(*PyException).defaultStr()), nil
			}), nil
		}
	}
	switch name {
	case "__init__":
		return Builtin("__init__", func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
			return starlark.None, nil
		}), nil
	case "__repr__", "__str__":
		return Builtin(name, func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
			return starlark.String(defaultRepr(s.obj, PyTypeName(s.obj))), nil
		}), nil
	case "__init_subclass__":
		return Builtin(name, func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			if len(kw) > 0 {
				return nil, PyErrorf(ExcTypeError, "%s.__init_subclass__() takes no keyword arguments", PyStr(MustAttr(s.obj, "__name__")))
			}
			return starlark.None, nil
		}), nil
	}
	return nil, PyErrorf(ExcAttribute, "'super' object has no attribute '%s'", name)
}

func (s *superObj) threadOf() *starlark.Thread {
	switch o := s.obj.(type) {
	case *PyObject:
		return o.thread()
	case *PyException:
		if u := o.Typ.userRoot(); u != nil {
			return u.R.Thread
		}
	}
	return nil
}

// notImplemented is Python's NotImplemented, which a comparison or an
// operator method returns for operands it does not handle.
type notImplementedType struct{}

var NotImplemented = notImplementedType{}

func (notImplementedType) String() string        { return "NotImplemented" }
func (notImplementedType) Type() string          { return "NotImplementedType" }
func (notImplementedType) Freeze()               {}
func (notImplementedType) Truth() starlark.Bool  { return true }
func (notImplementedType) Hash() (uint32, error) { return 1, nil }

// classBuiltins are the builtins for class bodies and classes.
func (r *Interp) classBuiltins(g starlark.StringDict) {
	wrap := func(name string, mk func(f starlark.Value) starlark.Value) {
		g[name] = Builtin(name, func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var f starlark.Value
			if err := starlark.UnpackPositionalArgs(name, args, kw, 1, &f); err != nil {
				return nil, err
			}
			return mk(f), nil
		})
	}
	wrap("staticmethod", func(f starlark.Value) starlark.Value { return &staticMethod{fn: f} })
	wrap("classmethod", func(f starlark.Value) starlark.Value { return &classMethod{fn: f} })
	prop := r.ClassNamed("property") // a class, so that isinstance(x, property) works
	prop.Call = func(_ *starlark.Thread, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		p := &pyProperty{fget: starlark.None, fset: starlark.None, fdel: starlark.None}
		var doc starlark.Value
		if err := UnpackArgs("property", args, kw, "fget?", &p.fget, "fset?", &p.fset, "fdel?", &p.fdel, "doc?", &doc); err != nil {
			return nil, err
		}
		return p, nil
	}
	g["property"] = prop
	g["super"] = Builtin("super", func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		if len(args) != 2 || len(kw) > 0 {
			return nil, PyErrorf(ExcRuntime, "super(): no arguments (super() works inside a method of a class defined in this REPL, or as super(Class, obj))")
		}
		return &superObj{cls: args[0], obj: args[1]}, nil
	})
	g["NotImplemented"] = NotImplemented
	g["vars"] = Builtin("vars", func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		var x starlark.Value
		if err := starlark.UnpackPositionalArgs("vars", args, kw, 1, &x); err != nil {
			return nil, PyErrorf(ExcTypeError, "vars() takes one argument here (the REPL has no locals())")
		}
		if o, ok := x.(*PyObject); ok {
			return o.Attr("__dict__")
		}
		if o, ok := x.(interface{ VarsDict() *starlark.Dict }); ok {
			return o.VarsDict(), nil // argparse.Namespace
		}
		if v, ok := r.ClassIntrospect(x, "__dict__"); ok {
			return v, nil
		}
		if _, bound := x.(*BoundMethod); !bound {
			if d := r.funcDict(x, true); d != nil {
				return d, nil // a function's attributes (pyfuncattrs.go)
			}
		}
		return nil, PyErrorf(ExcTypeError, "vars() argument must have __dict__ attribute")
	})
	g["__py_class"] = Builtin("class", r.pyClassBuiltin)
}

func MustAttr(v starlark.Value, name string) starlark.Value {
	if h, ok := v.(starlark.HasAttrs); ok {
		if a, err := h.Attr(name); err == nil && a != nil {
			return a
		}
	}
	return starlark.String(PyTypeName(v))
}
