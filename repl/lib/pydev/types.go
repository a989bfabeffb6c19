// types: SimpleNamespace and the classes of the REPL's functions,
// methods, generators and modules (FunctionType, ...), for isinstance.

package pydev

import (
	"strings"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"

	"harness/repl/pyrt"
)

func typesModule(r *pyrt.Interp) starlark.Value {
	m := starlark.StringDict{"SimpleNamespace": simpleNamespace(r)}
	for name, cls := range map[string]string{
		"FunctionType": "function", "LambdaType": "function", "MethodType": "method",
		"BuiltinFunctionType": "builtin_function_or_method", "BuiltinMethodType": "builtin_function_or_method",
		"GeneratorType": "generator", "ModuleType": "module", "NoneType": "NoneType",
	} {
		m[name] = r.ClassNamed(cls)
	}
	return pyrt.NewModule("types", m)
}

// simpleNamespace is types.SimpleNamespace: an object whose attributes
// are the keyword arguments, shown as namespace(a=1, b=2).
func simpleNamespace(r *pyrt.Interp) *pyrt.PyType {
	if t, ok := r.Types["types.SimpleNamespace"]; ok {
		return t
	}
	u := &pyrt.UserClass{R: r, Dict: map[string]starlark.Value{}}
	t := &pyrt.PyType{TypeName: "SimpleNamespace", Module: "types", Base: r.Types["object"], User: u}
	t.Call = func(thread *starlark.Thread, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		return t.Construct(thread, args, kw)
	}
	u.Set("__init__", &pyrt.GoMethod{MethodName: "__init__", Fn: func(_ *starlark.Thread, self starlark.Value, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		if len(args) > 0 {
			return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "no positional arguments expected")
		}
		o := self.(*pyrt.PyObject)
		for _, kv := range kw {
			if err := o.SetField(string(kv[0].(starlark.String)), kv[1]); err != nil {
				return nil, err
			}
		}
		return starlark.None, nil
	}})
	u.Set("__repr__", &pyrt.GoMethod{MethodName: "__repr__", Fn: func(_ *starlark.Thread, self starlark.Value, _ starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
		o := self.(*pyrt.PyObject)
		name := "namespace"
		if o.Cls != t {
			name = o.Cls.TypeName
		}
		parts := make([]string, 0, len(o.Keys))
		for _, k := range o.Keys {
			if v, ok := o.Attrs[k]; ok {
				parts = append(parts, k+"="+pyrt.PyRepr(v))
			}
		}
		return starlark.String(name + "(" + strings.Join(parts, ", ") + ")"), nil
	}})
	u.Set("__eq__", &pyrt.GoMethod{MethodName: "__eq__", Fn: func(_ *starlark.Thread, self starlark.Value, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
		a, b := self.(*pyrt.PyObject), args[0]
		o, ok := b.(*pyrt.PyObject)
		if !ok || !o.Cls.SubclassOf(t) {
			return pyrt.NotImplemented, nil
		}
		if len(a.Attrs) != len(o.Attrs) {
			return starlark.False, nil
		}
		for k, v := range a.Attrs {
			w, ok := o.Attrs[k]
			if !ok {
				return starlark.False, nil
			}
			if eq, err := pyrt.PyCompare(syntax.EQL, v, w); err != nil || !eq {
				return starlark.False, err
			}
		}
		return starlark.True, nil
	}})
	r.Types["types.SimpleNamespace"] = t
	return t
}
