// enum's functional API: Enum("Color", "RED GREEN BLUE"),
// IntEnum("Level", {"DEBUG": 10}), Flag("Perm", ["R", "W"]).

package pylang

import (
	"strings"

	"go.starlark.net/starlark"

	"harness/repl/pyrt"
)

// enumFunctional is base(name, names): the enum class whose members
// names lists (a string of names split at commas and spaces, a list of
// names, of (name, value) pairs, or a mapping), the names alone valued
// as auto() values them.
func enumFunctional(r *pyrt.Interp, base *pyrt.PyType, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var name string
	var names starlark.Value
	var module, qualname starlark.Value
	if err := pyrt.UnpackArgs(base.TypeName, args, kw, "value", &name, "names", &names, "module?", &module, "qualname?", &qualname); err != nil {
		return nil, err
	}
	u := &pyrt.UserClass{R: r, Dict: map[string]starlark.Value{}}
	switch ns := names.(type) {
	case starlark.String:
		for _, n := range strings.FieldsFunc(string(ns), func(c rune) bool { return c == ',' || c == ' ' }) {
			u.Set(n, &pyrt.EnumAuto{})
		}
	case starlark.IterableMapping:
		for _, kv := range ns.Items() {
			k, ok := kv[0].(starlark.String)
			if !ok {
				return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "member names must be strings, not %s", pyrt.PyTypeName(kv[0]))
			}
			u.Set(string(k), kv[1])
		}
	default:
		items, err := pyrt.ListOf(names)
		if err != nil {
			return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "%s() names must be a string, a list or a mapping", base.TypeName)
		}
		for _, it := range items {
			switch it := it.(type) {
			case starlark.String:
				u.Set(string(it), &pyrt.EnumAuto{})
			case starlark.Tuple:
				k, ok := it[0].(starlark.String)
				if len(it) != 2 || !ok {
					return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "%s() takes (name, value) pairs", base.TypeName)
				}
				u.Set(string(k), it[1])
			default:
				return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "%s() names must be strings or (name, value) pairs", base.TypeName)
			}
		}
	}
	cls, _, err := r.EnumSubclass(name, []starlark.Value{base}, u)
	return cls, err
}
