// types: SimpleNamespace and the classes of the REPL's functions,
// methods, generators and modules (FunctionType, ...), for isinstance.

package pyrt

import (
	"strings"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"
)

func (r *Interp) typesModule() starlark.Value {
	m := starlark.StringDict{"SimpleNamespace": r.simpleNamespace()}
	for name, cls := range map[string]string{
		"FunctionType": "function", "LambdaType": "function", "MethodType": "method",
		"BuiltinFunctionType": "builtin_function_or_method", "BuiltinMethodType": "builtin_function_or_method",
		"GeneratorType": "generator", "ModuleType": "module", "NoneType": "NoneType",
	} {
		m[name] = r.classNamed(cls)
	}
	return newModule("types", m)
}

// simpleNamespace is types.SimpleNamespace: an object whose attributes
// are the keyword arguments, shown as namespace(a=1, b=2).
func (r *Interp) simpleNamespace() *PyType {
	if t, ok := r.types["types.SimpleNamespace"]; ok {
		return t
	}
	u := &userClass{r: r, dict: map[string]starlark.Value{}}
	t := &PyType{name: "SimpleNamespace", module: "types", base: r.types["object"], user: u}
	t.call = func(thread *starlark.Thread, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		return t.construct(thread, args, kw)
	}
	u.set("__init__", &goMethod{name: "__init__", fn: func(_ *starlark.Thread, self starlark.Value, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		if len(args) > 0 {
			return nil, pyErrorf(excTypeError, "no positional arguments expected")
		}
		o := self.(*PyObject)
		for _, kv := range kw {
			if err := o.SetField(string(kv[0].(starlark.String)), kv[1]); err != nil {
				return nil, err
			}
		}
		return starlark.None, nil
	}})
	u.set("__repr__", &goMethod{name: "__repr__", fn: func(_ *starlark.Thread, self starlark.Value, _ starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
		o := self.(*PyObject)
		name := "namespace"
		if o.cls != t {
			name = o.cls.name
		}
		parts := make([]string, 0, len(o.keys))
		for _, k := range o.keys {
			if v, ok := o.Attrs[k]; ok {
				parts = append(parts, k+"="+PyRepr(v))
			}
		}
		return starlark.String(name + "(" + strings.Join(parts, ", ") + ")"), nil
	}})
	u.set("__eq__", &goMethod{name: "__eq__", fn: func(_ *starlark.Thread, self starlark.Value, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
		a, b := self.(*PyObject), args[0]
		o, ok := b.(*PyObject)
		if !ok || !o.cls.subclassOf(t) {
			return notImplemented, nil
		}
		if len(a.Attrs) != len(o.Attrs) {
			return starlark.False, nil
		}
		for k, v := range a.Attrs {
			w, ok := o.Attrs[k]
			if !ok {
				return starlark.False, nil
			}
			if eq, err := pyCompare(syntax.EQL, v, w); err != nil || !eq {
				return starlark.False, err
			}
		}
		return starlark.True, nil
	}})
	r.types["types.SimpleNamespace"] = t
	return t
}
