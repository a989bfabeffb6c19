// copy: copy and deepcopy with Python's meaning. A shallow copy is a new
// list, dict, set or instance holding the same values; a deep copy copies
// what they hold too, through a memo, so that a value reached twice is
// copied once and the copies share it as the originals did (cycles
// included). Instances of classes (dataclasses too) are copied without
// calling __init__, their attributes copied; a class's own __copy__ or
// __deepcopy__(memo) is used when it has one. Immutable values (numbers,
// strings, functions, classes, a tuple holding only such values) are
// their own copies.

package pydev

import (
	"reflect"

	"go.starlark.net/starlark"

	"harness/repl/pyrt"
)

// copier is one copy or deepcopy call.
type copier struct {
	deep  bool
	memo  map[starlark.Value]starlark.Value
	memos map[*starlark.Dict]*copier // the memo dicts handed to __deepcopy__, by the module
}

func copyModule(r *pyrt.Interp) starlark.Value {
	memos := map[*starlark.Dict]*copier{}
	return pyrt.NewModule("copy", starlark.StringDict{
		"copy": pyrt.Builtin("copy.copy", pyrt.Unary(func(v starlark.Value) (starlark.Value, error) {
			return (&copier{memos: memos}).copy(v)
		})),
		"deepcopy": pyrt.Builtin("copy.deepcopy", func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var x, memo starlark.Value = nil, starlark.None
			if err := pyrt.UnpackArgs(b.Name(), args, kw, "x", &x, "memo?", &memo); err != nil {
				return nil, err
			}
			c := &copier{deep: true, memo: map[starlark.Value]starlark.Value{}, memos: memos}
			switch m := memo.(type) {
			case *starlark.Dict:
				if outer, ok := memos[m]; ok {
					c = outer // inside a __deepcopy__: the memo of the copy in progress
				}
			default:
				if memo != starlark.None {
					return nil, pyrt.PyErrorf(pyrt.ExcAttribute, "'%s' object has no attribute 'get'", pyrt.PyTypeName(memo))
				}
			}
			return c.copy(x)
		}),
		"Error": &pyrt.ExcType{TypeName: "Error", Module: "copy", Base: pyrt.ExcException},
	})
}

// copy copies v: its contents too when deep.
func (c *copier) copy(v starlark.Value) (starlark.Value, error) {
	if c.deep && isMutableRef(v) {
		if done, ok := c.memo[v]; ok {
			return done, nil
		}
	}
	switch x := v.(type) {
	case *starlark.List:
		out := starlark.NewList(nil)
		c.remember(x, out)
		for i := 0; i < x.Len(); i++ {
			e, err := c.inner(x.Index(i))
			if err != nil {
				return nil, err
			}
			_ = out.Append(e)
		}
		return out, nil
	case *starlark.Dict:
		out := starlark.NewDict(x.Len())
		c.remember(x, out)
		for _, kv := range x.Items() {
			k, err := c.inner(kv[0])
			if err != nil {
				return nil, err
			}
			e, err := c.inner(kv[1])
			if err != nil {
				return nil, err
			}
			_ = out.SetKey(k, e)
		}
		return out, nil
	case *starlark.Set:
		out := pyrt.CopySet(x)
		c.remember(x, out)
		return out, nil
	case starlark.Tuple:
		t, err := c.tuple(x)
		if err != nil {
			return nil, err
		}
		return t, nil
	case *pyrt.Record:
		vals, err := c.tuple(x.Vals)
		if err != nil {
			return nil, err
		}
		if c.deep && pyrt.SameTuple(vals, x.Vals) {
			return x, nil // nothing in it needed copying
		}
		out := &pyrt.Record{Cls: x.Cls, Fields: x.Fields, Vals: vals}
		c.remember(x, out)
		return out, nil
	case *pyrt.DictLike:
		d, err := c.copy(x.D)
		if err != nil {
			return nil, err
		}
		out := &pyrt.DictLike{D: d.(*starlark.Dict), Cls: x.Cls, Kind: x.Kind, Factory: x.Factory, Thread: x.Thread}
		c.remember(x, out)
		return out, nil
	case *pyrt.PyObject:
		return c.object(x)
	}
	return v, nil
}

// isMutableRef reports whether v is a value the memo maps (one whose
// identity a copy keeps).
func isMutableRef(v starlark.Value) bool {
	switch v.(type) {
	case *starlark.List, *starlark.Dict, *starlark.Set, *pyrt.DictLike, *pyrt.PyObject, *pyrt.Record:
		return true
	}
	return false
}

func (c *copier) remember(orig, cp starlark.Value) {
	if c.deep {
		c.memo[orig] = cp
	}
}

// inner is an element of a copied container: copied itself when deep.
func (c *copier) inner(v starlark.Value) (starlark.Value, error) {
	if !c.deep {
		return v, nil
	}
	return c.copy(v)
}

// tuple is a deep copy of t: t itself when no element needed copying, as
// in Python; a shallow copy of a tuple is the tuple.
func (c *copier) tuple(t starlark.Tuple) (starlark.Tuple, error) {
	if !c.deep {
		return t, nil
	}
	var out starlark.Tuple
	for i, e := range t {
		ce, err := c.copy(e)
		if err != nil {
			return nil, err
		}
		if out == nil && !sameRef(ce, e) {
			out = make(starlark.Tuple, len(t))
			copy(out, t[:i])
		}
		if out != nil {
			out[i] = ce
		}
	}
	if out == nil {
		return t, nil
	}
	return out, nil
}

// object copies an instance of a class: its __copy__ or __deepcopy__, or
// a new instance of the class with its attributes (copied when deep),
// made without calling __init__.
func (c *copier) object(o *pyrt.PyObject) (starlark.Value, error) {
	if c.deep {
		if m := o.DunderOf("__deepcopy__"); m != nil && m != starlark.None {
			memo := starlark.NewDict(0)
			c.memos[memo] = c
			defer delete(c.memos, memo)
			v, _, err := o.CallDunder("__deepcopy__", memo)
			if err == nil {
				c.memo[o] = v
			}
			return v, err
		}
	} else if m := o.DunderOf("__copy__"); m != nil && m != starlark.None {
		v, _, err := o.CallDunder("__copy__")
		return v, err
	}
	out := &pyrt.PyObject{Cls: o.Cls, Attrs: make(map[string]starlark.Value, len(o.Attrs)), Keys: append([]string(nil), o.Keys...)}
	c.remember(o, out)
	for _, k := range o.Keys {
		v, ok := o.Attrs[k]
		if !ok {
			continue
		}
		cv, err := c.inner(v)
		if err != nil {
			return nil, err
		}
		out.Attrs[k] = cv
	}
	for k, v := range o.Attrs { // attributes not in keys, if any
		if _, done := out.Attrs[k]; !done {
			cv, err := c.inner(v)
			if err != nil {
				return nil, err
			}
			out.Attrs[k] = cv
		}
	}
	return out, nil
}

// sameRef reports whether a copy is its original.
func sameRef(a, b starlark.Value) bool {
	if ta, ok := a.(starlark.Tuple); ok {
		tb, ok := b.(starlark.Tuple)
		return ok && pyrt.SameTuple(ta, tb)
	}
	return reflect.TypeOf(a) == reflect.TypeOf(b) && reflect.TypeOf(a).Comparable() && a == b
}
