// Class statements over typing.NamedTuple and typing.TypedDict.

package pyrt

import "go.starlark.net/starlark"

// typingBases returns the classes typing.NamedTuple and typing.TypedDict,
// which a class statement derives from (typingClass).
func (r *Interp) typingBases() (starlark.Value, starlark.Value) {
	if r.types["NamedTuple"] == nil {
		object := r.types["object"]
		r.types["NamedTuple"] = &PyType{name: "NamedTuple", module: "typing", base: object}
		r.types["TypedDict"] = &PyType{name: "TypedDict", module: "typing", base: object}
	}
	return r.types["NamedTuple"], r.types["TypedDict"]
}

// typingClass makes the class of class name(NamedTuple) (a named tuple
// whose fields are the annotated names, their values the defaults, with
// the body's methods) or class name(TypedDict) (a dict); ok is false for
// other bases.
func (r *Interp) typingClass(name string, base starlark.Value, u *userClass) (starlark.Value, bool, error) {
	if base == nil || (base != r.types["NamedTuple"] && base != r.types["TypedDict"]) {
		return nil, false, nil
	}
	if base == r.types["TypedDict"] {
		dict := r.types["dict"]
		return &PyType{name: name, module: "__main__", base: dict, call: dict.call}, true, nil
	}
	fields := starlark.NewList(nil)
	var defaults []starlark.Value
	for _, f := range u.fields {
		_ = fields.Append(starlark.String(f))
		if v, ok := u.dict[f]; ok {
			defaults = append(defaults, v)
			delete(u.dict, f)
		} else if len(defaults) > 0 {
			return nil, true, pyErrorf(excTypeError, "Non-default namedtuple field %s cannot follow default field %s", f, u.fields[len(u.fields)-len(defaults)-1])
		}
	}
	order := u.order[:0]
	for _, k := range u.order {
		if _, ok := u.dict[k]; ok {
			order = append(order, k)
		}
	}
	u.order = order
	kw := []starlark.Tuple{{starlark.String("defaults"), starlark.NewList(defaults)}}
	cls, err := r.namedtuple(nil, builtin("NamedTuple", nil), starlark.Tuple{starlark.String(name), fields}, kw)
	if err != nil {
		return nil, true, err
	}
	t := cls.(*PyType)
	t.module, t.user = "__main__", u
	return t, true, nil
}
