// dict.keys(), .values() and .items() as Python's views.

package pyrt

import (
	"strings"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"
)

// dictView is dict_keys, dict_values or dict_items: a live view of a
// dict, as in Python. Views iterate, have a length and support in; keys
// and items views take the set operators with any iterable (d.keys() - s,
// s & d.keys()) and give a set. They print as dict_keys([...]) and, as in
// Python, cannot be indexed (list(d.keys())[0] can).
type dictView struct {
	m    starlark.IterableMapping
	kind viewKind
}

type viewKind uint8

const (
	viewKeys viewKind = iota
	viewValues
	viewItems
)

var viewNames = [...]string{"dict_keys", "dict_values", "dict_items"}

var (
	_ starlark.Iterable  = (*dictView)(nil)
	_ starlark.Sequence  = (*dictView)(nil)
	_ starlark.Container = (*dictView)(nil)
	_ starlark.HasBinary = (*dictView)(nil)
)

// viewMethod is the keys, values or items method of a dict-like m.
func viewMethod(m starlark.IterableMapping, name string) methodFunc {
	kind := map[string]viewKind{"keys": viewKeys, "values": viewValues, "items": viewItems}[name]
	return func(_ *starlark.Thread, _ starlark.Value, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		if err := starlark.UnpackPositionalArgs(name, args, kw, 0); err != nil {
			return nil, err
		}
		return &dictView{m: m, kind: kind}, nil
	}
}

func dictViewMethod(name string) methodFunc {
	return func(thread *starlark.Thread, recv starlark.Value, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		return viewMethod(recv.(*starlark.Dict), name)(thread, recv, args, kw)
	}
}

func (v *dictView) Type() string         { return viewNames[v.kind] }
func (v *dictView) Freeze()              {}
func (v *dictView) Truth() starlark.Bool { return v.Len() > 0 }
func (v *dictView) Hash() (uint32, error) {
	return 0, PyErrorf(ExcTypeError, "unhashable type: '%s'", v.Type())
}
func (v *dictView) String() string { return v.ReprPy() }
func (v *dictView) Len() int       { return starlark.Len(v.m) }

func (v *dictView) ReprPy() string {
	var sb strings.Builder
	sb.WriteString(v.Type() + "([")
	for i, x := range v.elems() {
		if i > 0 {
			sb.WriteString(", ")
		}
		sb.WriteString(PyRepr(x))
	}
	sb.WriteString("])")
	return sb.String()
}

// elems returns the view's elements now.
func (v *dictView) elems() []starlark.Value {
	items := v.m.Items()
	out := make([]starlark.Value, len(items))
	for i, kv := range items {
		switch v.kind {
		case viewKeys:
			out[i] = kv[0]
		case viewValues:
			out[i] = kv[1]
		default:
			out[i] = starlark.Tuple{kv[0], kv[1]}
		}
	}
	return out
}

// Iterate iterates the keys as the dict does (changing its size meanwhile
// is an error, as in Python), the values and items over a snapshot.
func (v *dictView) Iterate() starlark.Iterator {
	if v.kind == viewKeys {
		return v.m.Iterate()
	}
	return starlark.Tuple(v.elems()).Iterate()
}

func (v *dictView) Has(x starlark.Value) (bool, error) {
	switch v.kind {
	case viewKeys:
		_, found, err := v.m.Get(x)
		if err != nil {
			return false, nil // an unhashable value is in no dict
		}
		return found, nil
	case viewItems:
		t, ok := x.(starlark.Tuple)
		if !ok || len(t) != 2 {
			return false, nil
		}
		val, found, err := v.m.Get(t[0])
		if err != nil || !found {
			return false, nil
		}
		return starlark.Equal(val, t[1])
	}
	for _, e := range v.elems() {
		if eq, err := starlark.Equal(e, x); err != nil || eq {
			return eq, err
		}
	}
	return false, nil
}

// Binary is the set operators of keys and items views, on either side.
func (v *dictView) Binary(op syntax.Token, y starlark.Value, side starlark.Side) (starlark.Value, error) {
	switch op {
	case syntax.MINUS, syntax.AMP, syntax.PIPE, syntax.CIRCUMFLEX:
	default:
		return nil, nil
	}
	if v.kind == viewValues {
		return nil, nil
	}
	mine := starlark.NewSet(v.Len())
	for _, e := range v.elems() {
		if err := mine.Insert(e); err != nil {
			return nil, err
		}
	}
	vals, err := ListOf(y)
	if err != nil {
		return nil, PyErrorf(ExcTypeError, "unsupported operand type(s) for %s: '%s' and '%s'", op, v.Type(), PyTypeName(y))
	}
	other := starlark.NewSet(len(vals))
	for _, e := range vals {
		if err := other.Insert(e); err != nil {
			return nil, err
		}
	}
	a, b := mine, other
	if side == starlark.Right {
		a, b = other, mine
	}
	return starlark.Binary(op, a, b)
}
