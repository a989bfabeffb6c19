// What a class body may hold besides plain functions and values:
// staticmethod, classmethod, property; bound methods; super().

package pyrt

import (
	"go.starlark.net/starlark"
)

// goMethod is a method implemented in Go (those @dataclass generates);
// like a function in a class body it binds to the instance.
type goMethod struct {
	name string
	fn   func(thread *starlark.Thread, self starlark.Value, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error)
}

var _ starlark.Callable = (*goMethod)(nil)

func (m *goMethod) String() string        { return "<function " + m.name + ">" }
func (m *goMethod) Type() string          { return "function" }
func (m *goMethod) Freeze()               {}
func (m *goMethod) Truth() starlark.Bool  { return true }
func (m *goMethod) Hash() (uint32, error) { return starlark.String(m.name).Hash() }
func (m *goMethod) Name() string          { return m.name }
func (m *goMethod) CallInternal(thread *starlark.Thread, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	if len(args) == 0 {
		return nil, pyErrorf(excTypeError, "%s() missing 1 required positional argument: 'self'", m.name)
	}
	return m.fn(thread, args[0], args[1:], kw)
}

// boundMethod is instance.method: the function with self bound.
type boundMethod struct {
	self, fn starlark.Value
}

var _ starlark.Callable = (*boundMethod)(nil)

func (b *boundMethod) Name() string {
	if n, ok := b.fn.(interface{ Name() string }); ok {
		return n.Name()
	}
	return "method"
}
func (b *boundMethod) String() string { return b.reprPy() }
func (b *boundMethod) reprPy() string {
	return "<bound method " + b.Name() + " of " + PyRepr(b.self) + ">"
}
func (b *boundMethod) Type() string          { return "method" }
func (b *boundMethod) Freeze()               {}
func (b *boundMethod) Truth() starlark.Bool  { return true }
func (b *boundMethod) Hash() (uint32, error) { return starlark.String(b.Name()).Hash() }
func (b *boundMethod) CallInternal(thread *starlark.Thread, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	if m, ok := b.fn.(*goMethod); ok {
		return m.fn(thread, b.self, args, kw)
	}
	return starlark.Call(thread, b.fn, append(starlark.Tuple{b.self}, args...), kw)
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
		return builtin("property."+name, func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
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
func superExcLookup(c *excType, obj starlark.Value, name string) starlark.Value {
	if e, ok := obj.(*PyException); ok {
		mro := e.Typ.mro()
		for i, m := range mro {
			if m != c {
				continue
			}
			for _, next := range mro[i+1:] {
				if next.user != nil {
					if v, ok := next.user.dict[name]; ok {
						return v
					}
				}
			}
			return nil
		}
	}
	v, _ := excClassLookup(c.base, name)
	return v
}
func (s *superObj) Attr(name string) (starlark.Value, error) {
	thread := s.threadOf()
	switch c := s.cls.(type) {
	case *PyType:
		if c.base == nil {
			break
		}
		if v, _ := classLookup(c.base, name); v != nil {
			return bindAttr(thread, v, s.obj)
		}
	case *excType:
		if c.base == nil {
			break
		}
		if v := superExcLookup(c, s.obj, name); v != nil {
			return bindAttr(thread, v, s.obj)
		}
		if name == "__init__" {
			return builtin("__init__", func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
				e, ok := s.obj.(*PyException)
				if !ok {
					return starlark.None, nil
				}
				if init := c.base.initOf(); init != nil {
					return starlark.None, init(e, args, kw)
				}
				e.args, e.text = args, ""
				return starlark.None, nil
			}), nil
		}
		if name == "__str__" {
			return builtin("__str__", func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
				return starlark.String(s.obj.(*PyException).defaultStr()), nil
			}), nil
		}
	}
	switch name {
	case "__init__":
		return builtin("__init__", func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
			return starlark.None, nil
		}), nil
	case "__repr__", "__str__":
		return builtin(name, func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
			return starlark.String(defaultRepr(s.obj, pyTypeName(s.obj))), nil
		}), nil
	case "__init_subclass__":
		return builtin(name, func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			if len(kw) > 0 {
				return nil, pyErrorf(excTypeError, "%s.__init_subclass__() takes no keyword arguments", pyStr(mustAttr(s.obj, "__name__")))
			}
			return starlark.None, nil
		}), nil
	}
	return nil, pyErrorf(ExcAttribute, "'super' object has no attribute '%s'", name)
}

func (s *superObj) threadOf() *starlark.Thread {
	switch o := s.obj.(type) {
	case *PyObject:
		return o.thread()
	case *PyException:
		if u := o.Typ.userRoot(); u != nil {
			return u.r.Thread
		}
	}
	return nil
}

// notImplemented is Python's NotImplemented, which a comparison or an
// operator method returns for operands it does not handle.
type notImplementedType struct{}

var notImplemented = notImplementedType{}

func (notImplementedType) String() string        { return "NotImplemented" }
func (notImplementedType) Type() string          { return "NotImplementedType" }
func (notImplementedType) Freeze()               {}
func (notImplementedType) Truth() starlark.Bool  { return true }
func (notImplementedType) Hash() (uint32, error) { return 1, nil }

// classBuiltins are the builtins for class bodies and classes.
func (r *Interp) classBuiltins(g starlark.StringDict) {
	wrap := func(name string, mk func(f starlark.Value) starlark.Value) {
		g[name] = builtin(name, func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var f starlark.Value
			if err := starlark.UnpackPositionalArgs(name, args, kw, 1, &f); err != nil {
				return nil, err
			}
			return mk(f), nil
		})
	}
	wrap("staticmethod", func(f starlark.Value) starlark.Value { return &staticMethod{fn: f} })
	wrap("classmethod", func(f starlark.Value) starlark.Value { return &classMethod{fn: f} })
	prop := r.classNamed("property") // a class, so that isinstance(x, property) works
	prop.call = func(_ *starlark.Thread, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		p := &pyProperty{fget: starlark.None, fset: starlark.None, fdel: starlark.None}
		var doc starlark.Value
		if err := starlark.UnpackArgs("property", args, kw, "fget?", &p.fget, "fset?", &p.fset, "fdel?", &p.fdel, "doc?", &doc); err != nil {
			return nil, err
		}
		return p, nil
	}
	g["property"] = prop
	g["super"] = builtin("super", func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		if len(args) != 2 || len(kw) > 0 {
			return nil, pyErrorf(excRuntime, "super(): no arguments (super() works inside a method of a class defined in this REPL, or as super(Class, obj))")
		}
		return &superObj{cls: args[0], obj: args[1]}, nil
	})
	g["NotImplemented"] = notImplemented
	g["vars"] = builtin("vars", func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		var x starlark.Value
		if err := starlark.UnpackPositionalArgs("vars", args, kw, 1, &x); err != nil {
			return nil, pyErrorf(excTypeError, "vars() takes one argument here (the REPL has no locals())")
		}
		if o, ok := x.(*PyObject); ok {
			return o.Attr("__dict__")
		}
		if o, ok := x.(interface{ varsDict() *starlark.Dict }); ok {
			return o.varsDict(), nil // argparse.Namespace
		}
		if v, ok := r.classIntrospect(x, "__dict__"); ok {
			return v, nil
		}
		return nil, pyErrorf(excTypeError, "vars() argument must have __dict__ attribute")
	})
	g["__py_class"] = builtin("class", r.pyClassBuiltin)
}

func mustAttr(v starlark.Value, name string) starlark.Value {
	if h, ok := v.(starlark.HasAttrs); ok {
		if a, err := h.Attr(name); err == nil && a != nil {
			return a
		}
	}
	return starlark.String(pyTypeName(v))
}
