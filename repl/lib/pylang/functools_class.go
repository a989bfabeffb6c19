// functools.total_ordering, cached_property and singledispatch.

package pylang

import (
	"go.starlark.net/starlark"

	"harness/repl/pyrt"
)

// totalOrderingRoots are the comparison methods total_ordering can start
// from, in CPython's order of preference.
var totalOrderingRoots = []string{"__lt__", "__le__", "__gt__", "__ge__"}

// ftTotalOrdering is @total_ordering: the class gets the comparison
// methods it lacks, made from the first of __lt__, __le__, __gt__, __ge__
// it defines, and __eq__, as CPython's.
func ftTotalOrdering(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var cls starlark.Value
	if err := starlark.UnpackPositionalArgs("total_ordering", args, kw, 1, &cls); err != nil {
		return nil, err
	}
	t, ok := cls.(*pyrt.PyType)
	if !ok || t.User == nil {
		return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "total_ordering decorates a class defined in this REPL")
	}
	var root string
	for _, name := range totalOrderingRoots {
		if v, _ := pyrt.ClassLookup(t, name); v != nil && v != starlark.None {
			root = name
			break
		}
	}
	if root == "" {
		return nil, pyrt.PyErrorf(pyrt.ExcValueError, "must define at least one ordering operation: < > <= >=")
	}
	for _, name := range totalOrderingRoots {
		if v, _ := pyrt.ClassLookup(t, name); v == nil || v == starlark.None {
			t.User.Set(name, derivedCompare(root, name))
		}
	}
	return t, nil
}

// derivedCompare is method name made from method root and ==.
func derivedCompare(root, name string) *pyrt.GoMethod {
	return &pyrt.GoMethod{MethodName: name, Fn: func(thread *starlark.Thread, self starlark.Value, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		if len(args) != 1 || len(kw) > 0 {
			return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "%s() takes exactly one argument", name)
		}
		other := args[0]
		o, _ := self.(*pyrt.PyObject)
		if o == nil {
			return pyrt.NotImplemented, nil
		}
		v, _, err := o.CallDunder(root, other)
		if err != nil || v == pyrt.NotImplemented {
			return v, err
		}
		r := bool(v.Truth())
		eq := func() (bool, error) { return starlark.Equal(self, other) }
		var res bool
		switch root + name {
		case "__lt____gt__", "__gt____lt__": // not (a < b) and a != b
			e, err := eq()
			if err != nil {
				return nil, err
			}
			res = !r && !e
		case "__lt____le__", "__gt____ge__": // a < b or a == b
			e, err := eq()
			if err != nil {
				return nil, err
			}
			res = r || e
		case "__lt____ge__", "__gt____le__", "__le____gt__", "__ge____lt__": // not (a < b)
			res = !r
		case "__le____ge__", "__ge____le__": // not (a <= b) or a == b
			e, err := eq()
			if err != nil {
				return nil, err
			}
			res = !r || e
		case "__le____lt__", "__ge____gt__": // a <= b and a != b
			e, err := eq()
			if err != nil {
				return nil, err
			}
			res = r && !e
		}
		return starlark.Bool(res), nil
	}}
}

func ftCachedProperty(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var fn starlark.Value
	if err := starlark.UnpackPositionalArgs("cached_property", args, kw, 1, &fn); err != nil {
		return nil, err
	}
	return &pyrt.CachedProperty{Fn: fn}, nil
}

// dispatcher is a function made by @singledispatch.
type dispatcher struct {
	r        *pyrt.Interp
	fn       starlark.Value
	registry []dispatchEntry
}

type dispatchEntry struct{ cls, fn starlark.Value }

var _ starlark.HasAttrs = (*dispatcher)(nil)

func (d *dispatcher) String() string        { return d.fn.String() }
func (d *dispatcher) Type() string          { return "function" }
func (d *dispatcher) Freeze()               {}
func (d *dispatcher) Truth() starlark.Bool  { return true }
func (d *dispatcher) Hash() (uint32, error) { return 0, nil }
func (d *dispatcher) Name() string          { return d.fn.(starlark.Callable).Name() }

func ftSingledispatch(r *pyrt.Interp, _ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var fn starlark.Value
	if err := starlark.UnpackPositionalArgs("singledispatch", args, kw, 1, &fn); err != nil {
		return nil, err
	}
	return &dispatcher{r: r, fn: fn}, nil
}

func (d *dispatcher) CallInternal(thread *starlark.Thread, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	if len(args) == 0 {
		return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "%s requires at least 1 positional argument", d.Name())
	}
	return starlark.Call(thread, d.dispatch(args[0]), args, kw)
}

// dispatch is the function registered for the nearest class of x.
func (d *dispatcher) dispatch(x starlark.Value) starlark.Value {
	mro, _ := d.r.ClassIntrospect(d.r.TypeOf(x), "__mro__")
	if t, ok := mro.(starlark.Tuple); ok {
		for _, c := range t {
			for _, e := range d.registry {
				if e.cls == c {
					return e.fn
				}
			}
		}
	}
	for _, e := range d.registry { // an abstract class or a tuple member
		if ok, _ := d.r.IsInstance(x, e.cls); ok {
			return e.fn
		}
	}
	return d.fn
}

// firstAnnotation is the class fn's first parameter is annotated with, or
// nil.
func (d *dispatcher) firstAnnotation(fn starlark.Value) starlark.Value {
	params := pyrt.FuncParams(pyrt.PyFunction(fn))
	ann, err := d.r.Annotations(fn)
	if len(params) == 0 || err != nil {
		return nil
	}
	c, found, _ := ann.Get(starlark.String(params[0].Name))
	switch c.(type) {
	case *pyrt.PyType, *pyrt.ExcType:
		if found {
			return c
		}
	}
	return nil
}

func (d *dispatcher) AttrNames() []string { return []string{"dispatch", "register", "registry"} }
func (d *dispatcher) Attr(name string) (starlark.Value, error) {
	switch name {
	case "register":
		return pyrt.Builtin("register", d.register), nil
	case "dispatch":
		return pyrt.Builtin("dispatch", func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var cls starlark.Value
			if err := starlark.UnpackPositionalArgs("dispatch", args, kw, 1, &cls); err != nil {
				return nil, err
			}
			mro, ok := d.r.ClassIntrospect(cls, "__mro__")
			if !ok {
				mro = starlark.Tuple{cls}
			}
			for _, c := range mro.(starlark.Tuple) {
				for _, e := range d.registry {
					if e.cls == c {
						return e.fn, nil
					}
				}
			}
			return d.fn, nil
		}), nil
	case "registry": // object first, then the classes as registered, a later one replacing
		reg := starlark.NewDict(len(d.registry) + 1)
		_ = reg.SetKey(d.r.Types["object"], d.fn)
		for _, e := range d.registry {
			_ = reg.SetKey(e.cls, e.fn)
		}
		return reg, nil
	case "__name__", "__qualname__", "__doc__", "__module__", "__wrapped__":
		if name == "__wrapped__" {
			return d.fn, nil
		}
		return pyrt.WrappedAttr(d.fn, name)
	}
	return nil, nil
}

// register is f.register(cls)(fn), f.register(cls, fn), or f.register(fn)
// with the class read from the annotation of fn's first parameter.
func (d *dispatcher) register(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	if len(args) == 0 || len(args) > 2 || len(kw) > 0 {
		return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "register() takes a class and optionally a function")
	}
	cls := args[0]
	add := func(fn starlark.Value) starlark.Value {
		d.registry = append(d.registry, dispatchEntry{cls, fn})
		return fn
	}
	switch cls.(type) {
	case *pyrt.PyType, *pyrt.ExcType:
	default:
		if len(args) == 2 || pyrt.PyFunction(cls) == nil {
			return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "Invalid first argument to `register()`. %s is not a class or union type.", pyrt.PyRepr(cls))
		}
		fn := cls
		if cls = d.firstAnnotation(fn); cls == nil {
			return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "Invalid first argument to `register()`: %s. Use either `@register(some_class)` or plain `@register` on an annotated function.", pyrt.PyRepr(fn))
		}
		return add(fn), nil
	}
	if len(args) == 2 {
		return add(args[1]), nil
	}
	return pyrt.Builtin("register", func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
		if len(args) != 1 {
			return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "register() decorates one function")
		}
		return add(args[0]), nil
	}), nil
}
