// Class statements over typing.NamedTuple and typing.TypedDict.

package pyrt

import "go.starlark.net/starlark"

// typingBases returns the classes typing.NamedTuple and typing.TypedDict,
// which a class statement derives from (typingClass).
func (r *Interp) TypingBases() (starlark.Value, starlark.Value) {
	if r.Types["NamedTuple"] == nil {
		object := r.Types["object"]
		r.Types["NamedTuple"] = &PyType{TypeName: "NamedTuple", Module: "typing", Base: object}
		r.Types["TypedDict"] = &PyType{TypeName: "TypedDict", Module: "typing", Base: object}
	}
	return r.Types["NamedTuple"], r.Types["TypedDict"]
}

// typingClass makes the class of class name(NamedTuple) (a named tuple
// whose fields are the annotated names, their values the defaults, with
// the body's methods) or class name(TypedDict) (a dict); ok is false for
// other bases.
func (r *Interp) typingClass(name string, base starlark.Value, u *UserClass) (starlark.Value, bool, error) {
	if base == nil || (base != r.Types["NamedTuple"] && base != r.Types["TypedDict"]) {
		return nil, false, nil
	}
	if base == r.Types["TypedDict"] {
		dict := r.Types["dict"]
		return &PyType{TypeName: name, Module: "__main__", Base: dict, Call: dict.Call}, true, nil
	}
	fields := starlark.NewList(nil)
	var defaults []starlark.Value
	for _, f := range u.Fields {
		_ = fields.Append(starlark.String(f))
		if v, ok := u.Dict[f]; ok {
			defaults = append(defaults, v)
			delete(u.Dict, f)
		} else if len(defaults) > 0 {
			return nil, true, PyErrorf(ExcTypeError, "Non-default namedtuple field %s cannot follow default field %s", f, u.Fields[len(u.Fields)-len(defaults)-1])
		}
	}
	order := u.Order[:0]
	for _, k := range u.Order {
		if _, ok := u.Dict[k]; ok {
			order = append(order, k)
		}
	}
	u.Order = order
	kw := []starlark.Tuple{{starlark.String("defaults"), starlark.NewList(defaults)}}
	cls, err := r.Namedtuple(nil, Builtin("NamedTuple", nil), starlark.Tuple{starlark.String(name), fields}, kw)
	if err != nil {
		return nil, true, err
	}
	t := cls.(*PyType)
	t.Module, t.User = "__main__", u
	return t, true, nil
}
