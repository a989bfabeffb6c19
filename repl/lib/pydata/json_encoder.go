// json.JSONEncoder: the class json.dumps(cls=...) instantiates, which
// programs subclass to override default().

package pydata

import (
	"go.starlark.net/starlark"

	"harness/repl/pyrt"
)

// jsonEncoderOptions are JSONEncoder's keyword arguments, kept as the
// instance's attributes of the same names; dumps passes them on.
var jsonEncoderOptions = []string{"skipkeys", "ensure_ascii", "check_circular", "allow_nan", "sort_keys", "indent", "separators"}

// jsonEncoderClass is json.JSONEncoder, made once per interpreter.
func jsonEncoderClass(r *pyrt.Interp) *pyrt.PyType {
	if t, ok := r.Types["json.JSONEncoder"]; ok {
		return t
	}
	t := &pyrt.PyType{TypeName: "JSONEncoder", Module: "json", Base: r.Types["object"], User: &pyrt.UserClass{R: r, Dict: map[string]starlark.Value{
		"__init__": &pyrt.GoMethod{MethodName: "__init__", Fn: jsonEncoderInit},
		"default":  &pyrt.GoMethod{MethodName: "default", Fn: jsonEncoderDefault},
		"encode":   &pyrt.GoMethod{MethodName: "encode", Fn: jsonEncoderEncode},
		"iterencode": &pyrt.GoMethod{MethodName: "iterencode", Fn: func(thread *starlark.Thread, self starlark.Value, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			s, err := jsonEncoderEncode(thread, self, args, kw) // one chunk: "".join() gives the same text
			if err != nil {
				return nil, err
			}
			return pyrt.NewListIter("generator", []starlark.Value{s}), nil
		}},
	}}}
	t.Call = func(thread *starlark.Thread, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		return t.Construct(thread, args, kw)
	}
	r.Types["json.JSONEncoder"] = t
	return t
}

func jsonEncoderInit(_ *starlark.Thread, self starlark.Value, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	o, ok := self.(*pyrt.PyObject)
	if !ok {
		return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "JSONEncoder.__init__ needs a JSONEncoder")
	}
	if len(args) > 0 {
		return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "JSONEncoder.__init__() takes 1 positional argument but %d were given", len(args)+1)
	}
	vals := map[string]starlark.Value{"skipkeys": starlark.False, "ensure_ascii": starlark.True, "check_circular": starlark.True,
		"allow_nan": starlark.True, "sort_keys": starlark.False, "indent": starlark.None, "separators": starlark.None}
	for _, p := range kw {
		k := string(p[0].(starlark.String))
		if _, known := vals[k]; !known && k != "default" {
			return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "JSONEncoder.__init__() got an unexpected keyword argument '%s'", k)
		}
		vals[k] = p[1]
	}
	for k, v := range vals {
		if k == "default" && v == starlark.None {
			continue
		}
		o.Attrs[k] = v
	}
	return starlark.None, nil
}

func jsonEncoderDefault(_ *starlark.Thread, _ starlark.Value, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	if len(args) != 1 || len(kw) > 0 {
		return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "default() takes 2 positional arguments but %d were given", len(args)+1)
	}
	return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "Object of type %s is not JSON serializable", pyrt.PyTypeName(args[0]))
}

// jsonEncoderEncode is encoder.encode(o): dumps with the instance's
// options and its default method.
func jsonEncoderEncode(thread *starlark.Thread, self starlark.Value, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	if len(args) != 1 || len(kw) > 0 {
		return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "encode() takes 2 positional arguments but %d were given", len(args)+1)
	}
	var opts []starlark.Tuple
	if o, ok := self.(*pyrt.PyObject); ok {
		for _, k := range jsonEncoderOptions {
			if v, ok := o.Attrs[k]; ok {
				opts = append(opts, starlark.Tuple{starlark.String(k), v})
			}
		}
	}
	def, err := pyrt.GetAttr(self, "default")
	if err != nil {
		return nil, err
	}
	opts = append(opts, starlark.Tuple{starlark.String("default"), def})
	return jsonDumps(thread, nil, args, opts)
}

// jsonDumpsWith is json.dumps(obj, cls=cls, ...): cls(...).encode(obj).
func jsonDumpsWith(thread *starlark.Thread, cls starlark.Value, obj starlark.Value, kw []starlark.Tuple) (starlark.Value, error) {
	var rest []starlark.Tuple
	for _, p := range kw {
		if k := string(p[0].(starlark.String)); k != "cls" && !(k == "default" && p[1] == starlark.None) {
			rest = append(rest, p)
		}
	}
	enc, err := starlark.Call(thread, cls, nil, rest)
	if err != nil {
		return nil, err
	}
	return pyrt.CallMethod(thread, enc, "encode", starlark.Tuple{obj}, nil)
}
