// enum's functional API: Enum("Color", "RED GREEN BLUE"),
// IntEnum("Level", {"DEBUG": 10}), Flag("Perm", ["R", "W"]).

package pyrt

import (
	"strings"

	"go.starlark.net/starlark"
)

// enumFunctional is base(name, names): the enum class whose members
// names lists (a string of names split at commas and spaces, a list of
// names, of (name, value) pairs, or a mapping), the names alone valued
// as auto() values them.
func (r *Interp) enumFunctional(base *PyType, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var name string
	var names starlark.Value
	var module, qualname starlark.Value
	if err := UnpackArgs(base.TypeName, args, kw, "value", &name, "names", &names, "module?", &module, "qualname?", &qualname); err != nil {
		return nil, err
	}
	u := &UserClass{R: r, Dict: map[string]starlark.Value{}}
	switch ns := names.(type) {
	case starlark.String:
		for _, n := range strings.FieldsFunc(string(ns), func(c rune) bool { return c == ',' || c == ' ' }) {
			u.Set(n, &enumAuto{})
		}
	case starlark.IterableMapping:
		for _, kv := range ns.Items() {
			k, ok := kv[0].(starlark.String)
			if !ok {
				return nil, PyErrorf(ExcTypeError, "member names must be strings, not %s", PyTypeName(kv[0]))
			}
			u.Set(string(k), kv[1])
		}
	default:
		items, err := ListOf(names)
		if err != nil {
			return nil, PyErrorf(ExcTypeError, "%s() names must be a string, a list or a mapping", base.TypeName)
		}
		for _, it := range items {
			switch it := it.(type) {
			case starlark.String:
				u.Set(string(it), &enumAuto{})
			case starlark.Tuple:
				k, ok := it[0].(starlark.String)
				if len(it) != 2 || !ok {
					return nil, PyErrorf(ExcTypeError, "%s() takes (name, value) pairs", base.TypeName)
				}
				u.Set(string(k), it[1])
			default:
				return nil, PyErrorf(ExcTypeError, "%s() names must be strings or (name, value) pairs", base.TypeName)
			}
		}
	}
	cls, _, err := r.enumSubclass(name, []starlark.Value{base}, u)
	return cls, err
}
