// Attributes set on functions (fn.calls = 0, wrapper.cache = {},
// setattr(fn, "registered", True)), which Starlark's functions lack:
// the runtime keeps each function's __dict__ beside it.

package pyrt

import "go.starlark.net/starlark"

// funcDict is the __dict__ of x when x is a function that may carry
// attributes (a def, a generator function, a functools.wraps or
// lru_cache wrapper), made when create is set; nil for other values. A
// bound method answers its function's.
func (r *Interp) funcDict(x starlark.Value, create bool) *starlark.Dict {
	switch f := x.(type) {
	case *BoundMethod:
		return r.funcDict(f.Fn, create)
	case *starlark.Function, *GenFunc, *FnWrapper, *Cached:
	default:
		return nil
	}
	d := r.fnDicts[x]
	if d == nil && create {
		if r.fnDicts == nil {
			r.fnDicts = map[starlark.Value]*starlark.Dict{}
		}
		d = starlark.NewDict(0)
		r.fnDicts[x] = d
	}
	return d
}

// funcDictAttr is the attribute name of a function's __dict__; ok is
// false when it holds none.
func (r *Interp) funcDictAttr(x starlark.Value, name string) (starlark.Value, bool) {
	d := r.funcDict(x, false)
	if d == nil {
		return nil, false
	}
	v, found, _ := d.Get(starlark.String(name))
	return v, found
}

// SetAttr is x.name = v as Python runs it: the value's own SetField, a
// function's __dict__, else Python's AttributeError.
func (r *Interp) SetAttr(x starlark.Value, name string, v starlark.Value) error {
	if f, ok := x.(starlark.HasSetField); ok {
		return f.SetField(name, v)
	}
	if _, bound := x.(*BoundMethod); !bound {
		if d := r.funcDict(x, true); d != nil {
			return d.SetKey(starlark.String(name), v)
		}
	}
	return PyErrorf(ExcAttribute, "'%s' object has no attribute '%s'", PyTypeName(x), name)
}

// copyFuncDict gives wrapper the attributes of wrapped, as
// functools.update_wrapper updates wrapper.__dict__.
func (r *Interp) CopyFuncDict(wrapper, wrapped starlark.Value) {
	src := r.funcDict(wrapped, false)
	if src == nil || src.Len() == 0 {
		return
	}
	dst := r.funcDict(wrapper, true)
	if dst == nil {
		return
	}
	for _, kv := range src.Items() {
		_ = dst.SetKey(kv[0], kv[1])
	}
}

// pySetattr is setattr(x, name, v).
func (r *Interp) pySetattr(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var obj, v starlark.Value
	var name string
	if err := starlark.UnpackPositionalArgs("setattr", args, kw, 3, &obj, &name, &v); err != nil {
		return nil, err
	}
	return starlark.None, r.SetAttr(obj, name, v)
}
