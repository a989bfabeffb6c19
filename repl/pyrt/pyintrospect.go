// Class introspection: cls.__mro__, cls.__bases__, cls.__subclasses__(),
// cls.__dict__ and vars(), which the AST pass sends to dunderAttr.

package pyrt

import "go.starlark.net/starlark"

// addSubclass records that class sub was derived from base, for
// base.__subclasses__().
func (r *Interp) addSubclass(base, sub starlark.Value) {
	if r.subclasses == nil {
		r.subclasses = map[starlark.Value][]starlark.Value{}
	}
	r.subclasses[base] = append(r.subclasses[base], sub)
}

// classIntrospect answers the introspection attributes of a class; ok is
// false when x is not a class or name is not one of them.
func (r *Interp) ClassIntrospect(x starlark.Value, name string) (starlark.Value, bool) {
	var mro starlark.Tuple
	var user *UserClass
	switch t := x.(type) {
	case *PyType:
		user = t.User
		for c := t; c != nil; c = c.Base {
			mro = append(mro, c)
		}
	case *ExcType:
		user = t.user
		for _, c := range t.mro() {
			mro = append(mro, c)
		}
		mro = append(mro, r.Types["object"])
		if name == "__bases__" && len(t.Also) > 0 {
			bases := starlark.Tuple{t.Base}
			for _, b := range t.Also {
				bases = append(bases, b)
			}
			return bases, true
		}
	default:
		return nil, false
	}
	switch name {
	case "__annotations__": // a class body's annotations (kept by __py_annotate), {} without any
		if _, kept := r.annots[x]; user == nil && !kept { // a TypedDict's are kept
			return nil, false
		}
		d, _ := r.Annotations(x)
		return d, true
	case "__abstractmethods__":
		t, ok := x.(*PyType)
		if !ok || !derivesABC(t) {
			return nil, false
		}
		set := starlark.NewSet(0)
		for _, m := range abstractLeft(t) {
			_ = set.Insert(starlark.String(m))
		}
		return newFrozenSet(set), true
	case "__mro__":
		return mro, true
	case "__bases__":
		if len(mro) < 2 {
			return starlark.Tuple{}, true
		}
		return starlark.Tuple{mro[1]}, true
	case "__subclasses__":
		subs := r.subclasses[x]
		return starlark.NewBuiltin("__subclasses__", func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
			return starlark.NewList(append([]starlark.Value(nil), subs...)), nil
		}), true
	case "__dict__":
		d := starlark.NewDict(0)
		_ = d.SetKey(starlark.String("__module__"), starlark.String("__main__"))
		if user != nil && user.doc != "" {
			_ = d.SetKey(starlark.String("__doc__"), starlark.String(user.doc))
		}
		if user != nil {
			for _, k := range user.Order {
				_ = d.SetKey(starlark.String(k), user.Dict[k])
			}
		}
		if _, has, _ := d.Get(starlark.String("__doc__")); !has && user != nil {
			_ = d.SetKey(starlark.String("__doc__"), starlark.None)
		}
		return d, true
	case "__doc__":
		if user == nil {
			return nil, false
		}
		if v, ok := user.Dict["__doc__"]; ok {
			return v, true
		}
		if user.doc != "" {
			return starlark.String(user.doc), true
		}
		return starlark.None, true
	}
	return nil, false
}

// noteQualnames records Class.name as the __qualname__ of the functions
// of class cls's body (methods, static and class methods, properties'
// getters).
func (r *Interp) noteQualnames(cls string, u *UserClass) {
	if r.qualnames == nil {
		r.qualnames = map[starlark.Value]string{}
	}
	for name, v := range u.Dict {
		switch f := v.(type) {
		case *staticMethod:
			v = f.fn
		case *classMethod:
			v = f.fn
		}
		if f, ok := v.(*starlark.Function); ok && f.Name() == name {
			r.qualnames[f] = cls + "." + name
		}
	}
}
